"""A finished game's outcome in words, in every language the product speaks.

The engines write ``Outcome.summary`` in English (records, logs, tools that
read one language); a person reads the outcome through
``GameClient.describe_outcome``: who won (as the reader knows them: "you",
names), how the game ended and the tie-breaks used, from the game's own words
(its ``end.<termination>`` and ``tb.<tie-break>`` entries, the ones its web
pages use)::

    >>> from throneroom.v1 import common_pb2
    >>> words = {"end.points": {"en": "victory points", "es": "puntos de victoria",
    ...                         "pt": "pontos de vitória"}}
    >>> outcome = common_pb2.Outcome(winners=[1], termination="points")
    >>> outcome_sentence(outcome, Reader("es", viewer=1), words)
    'Victoria para ti: puntos de victoria.'
    >>> outcome_sentence(outcome, Reader("en", names=("Ana", "Bo")), words)
    'Victory for Bo: victory points.'

An ending or tie-break the game's words lack is written from its id
("last_stone" -> "last stone"); the endings the service itself decides (a
timeout, a tournament's forfeit) have words here, for every game.
"""

from __future__ import annotations

from collections.abc import Mapping

from throneroom.games.reader import Reader, Words
from throneroom.v1 import common_pb2

__all__ = ["SHARED_ENDINGS", "outcome_sentence"]

SHARED_ENDINGS: Mapping[str, Words] = {
    "end.timeout": {
        "en": "a player ran out of time",
        "es": "un jugador se quedó sin tiempo",
        "pt": "um jogador ficou sem tempo",
    },
    "end.forfeit:crash": {
        "en": "a player's program stopped (forfeit)",
        "es": "el programa de un jugador se detuvo (abandono)",
        "pt": "o programa de um jogador parou (desistência)",
    },
}
"""Endings the service writes whatever the game (``Outcome.termination``)."""

_VICTORY: Words = {
    "en": "Victory for {winners}",
    "es": "Victoria para {winners}",
    "pt": "Vitória para {winners}",
}
_NO_WINNER: Words = {"en": "No winner", "es": "Sin ganador", "pt": "Sem vencedor"}
_TIEBREAKS: Words = {
    "en": " Tie-breaks: {list}.",
    "es": " Desempates: {list}.",
    "pt": " Desempates: {list}.",
}


def _phrase(words: Mapping[str, Words], key: str, reader: Reader) -> str:
    entry = words.get(key) or SHARED_ENDINGS.get(key)
    if entry is not None:
        return reader.word(entry)
    return key.partition(".")[2].replace("_", " ").replace(":", " ")


def outcome_sentence(
    outcome: common_pb2.Outcome, reader: Reader, words: Mapping[str, Words]
) -> str:
    """``outcome`` in ``reader``'s words: the winners, the ending, the
    tie-breaks (``words``: the game's ``end.*`` and ``tb.*`` entries)."""
    winners = [reader.obj(seat) for seat in outcome.winners]
    text = reader.say(_VICTORY, winners=reader.join(winners)) if winners else reader.say(_NO_WINNER)
    if outcome.termination:
        text += ": " + _phrase(words, f"end.{outcome.termination}", reader)
    text += "."
    if outcome.tiebreaks:
        listed = "; ".join(_phrase(words, f"tb.{tb}", reader) for tb in outcome.tiebreaks)
        text += reader.word(_TIEBREAKS).format(list=listed)
    return text
