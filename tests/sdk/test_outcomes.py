"""A finished game's outcome in words (``GameClient.describe_outcome``,
``throneroom.games.outcomes``): every game's every ending and tie-break in
English, Spanish and Portuguese, as a seat ("you") or a spectator reads it."""

from __future__ import annotations

import doctest

import pytest
from throneroom.games import outcomes
from throneroom.games.outcomes import SHARED_ENDINGS, outcome_sentence
from throneroom.games.protocol import game_client, game_names
from throneroom.games.reader import LANGUAGES, Reader
from throneroom.v1 import common_pb2

VICTORY = {"en": "Victory for ", "es": "Victoria para ", "pt": "Vitória para "}


def test_the_modules_examples() -> None:
    assert doctest.testmod(outcomes).failed == 0


@pytest.mark.parametrize("name", game_names())
def test_every_ending_and_tiebreak_of_every_game_in_every_language(name: str) -> None:
    client = game_client(name)
    words = client.outcome_words()
    endings = [key.removeprefix("end.") for key in words if key.startswith("end.")]
    tiebreaks = [key.removeprefix("tb.") for key in words if key.startswith("tb.")]
    assert endings, f"{name} has no words for its endings"
    for ending in [*endings, "timeout"]:
        outcome = common_pb2.Outcome(winners=[1], termination=ending, tiebreaks=tiebreaks)
        for lang in LANGUAGES:
            text = client.describe_outcome(outcome, lang=lang, viewer=0, names=("Ana", "Rui"))
            phrase = (words.get(f"end.{ending}") or SHARED_ENDINGS[f"end.{ending}"])[lang]
            assert text.startswith(f"{VICTORY[lang]}Rui: {phrase}."), text
            for tiebreak in tiebreaks:
                assert words[f"tb.{tiebreak}"][lang] in text
            assert "_" not in text


def test_the_reader_is_you_among_the_winners() -> None:
    outcome = common_pb2.Outcome(winners=[0, 2], termination="points")
    client = game_client("kings_life")
    assert client.describe_outcome(outcome, viewer=2, names=("Ana",)).startswith(
        "Victory for Ana and you: "
    )
    assert client.describe_outcome(outcome, lang="es", viewer=None).startswith(
        "Victoria para asiento 0 y asiento 2: "
    )


def test_no_winner_an_unknown_ending_and_no_ending() -> None:
    reader = Reader("pt")
    unknown = common_pb2.Outcome(termination="forfeit:disconnect", tiebreaks=["coin_flip"])
    assert outcome_sentence(unknown, reader, {}) == (
        "Sem vencedor: forfeit disconnect. Desempates: coin flip."
    )
    assert outcome_sentence(common_pb2.Outcome(winners=[3]), Reader(), {}) == "Victory for seat 3."
