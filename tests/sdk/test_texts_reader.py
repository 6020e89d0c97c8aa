"""The shared Reader (throneroom.games.reader) and the grammar it gives every
game's sentences: "you" for the viewer only, names, verb endings, plurals."""

from __future__ import annotations

from throneroom.games import king_is_dead as kid
from throneroom.games.kings_life import describe_event as kl_event
from throneroom.games.kings_life import describe_move as kl_move
from throneroom.games.reader import Reader
from throneroom.v1 import king_is_dead_pb2 as kid_pb
from throneroom.v1 import kings_life_pb2 as kl_pb

PASSES = {"en": "pass{es}", "es": "pasa{s}", "pt": "passa"}


def test_you_only_for_the_viewer_and_names_for_the_others() -> None:
    names = ("Ana", "Rui")
    assert Reader("en", 0, names).act(0, PASSES) == "You pass"
    assert Reader("es", 0, names).act(0, PASSES) == "Pasas"
    assert Reader("pt", 0, names).act(0, PASSES) == "Você passa"
    assert Reader("en", 0, names).act(1, PASSES) == "Rui passes"
    assert Reader("es", 0, names).act(1, PASSES) == "Rui pasa"
    assert Reader("en", None, names).act(0, PASSES) == "Ana passes"  # a spectator: never "you"
    assert Reader("es", None).act(0, PASSES) == "Asiento 0 pasa"
    assert Reader("pt", None).act(None, PASSES) == "Passa"  # no mover: an instruction
    assert Reader("xx").act(3, PASSES) == "Seat 3 passes"  # an unknown language: English


def test_counts_joins_and_possessives() -> None:
    cards = {"en": ("card", "cards"), "es": ("carta", "cartas"), "pt": ("carta", "cartas")}
    assert Reader("en").count(1, cards) == "1 card" and Reader("pt").count(2, cards) == "2 cartas"
    assert Reader("es").join(["A", "B", "C"]) == "A, B y C" and Reader("en").join([]) == "nothing"
    token = {"en": ("token", False), "es": ("ficha", True), "pt": ("ficha", True)}
    assert Reader("en", 1, ("Ana", "Rui")).poss(0, token) == "Ana's token"
    assert Reader("es", 0).poss(0, token) == "tu ficha"
    assert Reader("es", 1, ("Ana",)).poss(0, token) == "la ficha de Ana"
    assert Reader("pt", 0).poss(0, token) == "sua ficha"


def test_the_king_is_dead_counts_its_tokens_and_names_its_tie_breaks() -> None:
    resolved = kid_pb.KingIsDeadEvent(
        struggle_resolved=kid_pb.KingIsDeadEvent.StruggleResolved(
            order=1, region=kid_pb.REGION_DEVA, control=kid_pb.FACTION_SCOTS, saxon_tokens=1
        )
    )
    assert "(1 Saxon token on the board)" in kid.describe_event(resolved)
    assert "(1 ficha sajona en el tablero)" in kid.describe_event(resolved, "es")
    ended = kid_pb.KingIsDeadEvent(
        game_ended=kid_pb.KingIsDeadEvent.GameEnded(
            termination="control", winners=[1], tiebreaks=["second_faction"]
        )
    )
    text = kid.describe_event(ended, viewer=1)
    assert text.startswith("Game over (Control): victory for you") and "_" not in text
    assert "victory for seat 1" in kid.describe_event(ended, viewer=0)
    assert "vitória para Rui" in kid.describe_event(ended, "pt", names=("Ana", "Rui"))


def test_kings_life_speaks_spanish_and_portuguese_with_names() -> None:
    queen = kl_pb.KingsLifeMove(queen=kl_pb.KingsLifeMove.Queen(cancel=True, target=0))
    assert kl_move(queen, 1, viewer=0, names=("Ana", "Rui")) == (
        "Rui plays the Queen, cancelling your card"
    )
    assert kl_move(queen, 1, lang="es", viewer=1, names=("Ana", "Rui")) == (
        "Juegas la Reina y anulas la carta de Ana"
    )
    passed = kl_pb.KingsLifeEvent(passed=kl_pb.KingsLifeEvent.Passed(seat=2))
    assert kl_event(passed, lang="pt", viewer=2) == "Você passa"
    assert kl_event(passed, lang="pt") == "Assento 2 passa"
    drawn = kl_pb.KingsLifeEvent(cards_drawn=kl_pb.KingsLifeEvent.CardsDrawn(seat=1, count=3))
    assert kl_event(drawn, viewer=0) == "Seat 1 draws: 3 cards"  # a hidden draw: how many only
    assert kl_event(drawn, viewer=1, lang="es") == "Robas: 3 cartas"
