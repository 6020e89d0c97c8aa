"""Bad notation is a NotationError (a ValueError) that names the column of the problem."""

from __future__ import annotations

import pytest
from throneroom import notation
from throneroom.notation import NotationError
from throneroom.v1 import king_is_dead_pb2, kings_life_pb2

MOVES = [
    # (game, text, column, words in the reason)
    ("king_is_dead", "jump", 1, "unknown move 'jump'"),
    ("king_is_dead", "play", 5, "card expected"),
    ("king_is_dead", "play joker", 6, "unknown card 'joker'"),
    ("king_is_dead", "pass now", 6, "unexpected 'now'"),
    ("king_is_dead", "garrison cal>xyz sw", 14, "unknown region 'xyz'"),
    ("king_is_dead", "garrison cal>din sq", 19, "unknown colour 'q'"),
    ("king_is_dead", "garrison cal din", 10, "from>to expected"),
    ("king_is_dead", "crown cal dev", 1, "exactly one"),
    ("king_is_dead", "crown cal* dev*", 1, "exactly one"),
    ("king_is_dead", "summon cal", 8, "colour@region expected"),
    ("king_is_dead", "summon q@cal", 8, "unknown colour 'q'"),
    ("king_is_dead", "ambassador s@cal", 17, "colour@region or region expected"),
    ("kings_life", "play 55 on", 11, "a card id expected"),
    ("kings_life", "play 55 with 3", 9, "unknown choice 'with'"),
    ("kings_life", "play 55 as jousting", 12, "unknown activity 'jousting'"),
    ("kings_life", "exchange", 9, "the cards to discard (or none) expected"),
    ("kings_life", "queen x", 7, "the seat whose card is cancelled expected"),
    ("kings_life", "pass support", 13, "a seat expected"),
    ("nim", "take two", 6, "a number of stones expected"),
    ("nim", "", 1, "take N expected"),
]


@pytest.mark.parametrize(("game", "text", "column", "reason"), MOVES)
def test_bad_moves(game: str, text: str, column: int, reason: str) -> None:
    with pytest.raises(NotationError) as error:
        notation.for_game(game).parse_move(text)
    assert isinstance(error.value, ValueError)
    assert error.value.column == column, str(error.value)
    assert reason in error.value.reason
    assert str(error.value).startswith(f"at column {column} of {text!r}: ")


POSITIONS = [
    ("nim", "pile=3", 1, "seats= is required"),
    ("nim", "seats=2 pile=x", 14, "pile: a whole number expected"),
    ("nim", "seats=2 seats=3", 9, "seats is given twice"),
    ("nim", "seats=2 colour=red", 9, "unknown field 'colour'"),
    ("nim", "seats=2 pile", 9, "a field (key=value) expected"),
    ("nim", 'seats=2 end=x summary="open', 23, "summary: bad quoted text"),
    ("nim", "seats=2 summary=x", 17, "only a finished game"),
    ("nim", "seats=2 rng=12/xyz", 16, "hexadecimal"),
    ("king_is_dead", "seats=2 map=3q/-", 14, "unknown colour 'q'"),
    ("king_is_dead", "seats=2 map=3s3s", 16, "counted twice"),
    ("king_is_dead", "seats=2 cards=cal/xyz", 19, "unknown region 'xyz'"),
    ("king_is_dead", "seats=1 p0=c/-/-/0", 12, "5 parts"),
    ("king_is_dead", "seats=1 p0=cz/-/-/0/c", 13, "unknown card letter 'z'"),
    ("king_is_dead", "seats=1 p0=c/-/-/0/k", 20, "c (crown token held) or -"),
    ("king_is_dead", "seats=2 p0=-/-/-/0/c", 1, "p1= is required"),
    ("king_is_dead", "seats=1 p0=-/-/-/0/c p3=-/-/-/0/c", 22, "no seat 3"),
    ("king_is_dead", 'seats=1 p0=-/-/-/0/c undo="0 garrison cal>lon x"', 47, "unknown colour"),
    ("king_is_dead", "seats=1 p0=-/-/-/0/c pending=waiting", 30, "unknown decision"),
    ("kings_life", "seats=4 p0.shoes=1", 18, "unknown player field 'shoes'"),
    ("kings_life", "seats=4 day=sunday", 13, "unknown day 'sunday'"),
    ("kings_life", "seats=4 tokens=1,2y", 18, "a token like 3"),
    ("kings_life", "seats=4 days=tue:won", 14, "day:result:winner:supporter"),
    ("kings_life", 'seats=4 pending="pass"', 18, "a card play"),
    ("kings_life", 'seats=4 pending="play 5 as x"', 28, "unknown activity"),
]


@pytest.mark.parametrize(("game", "text", "column", "reason"), POSITIONS)
def test_bad_positions(game: str, text: str, column: int, reason: str) -> None:
    with pytest.raises(NotationError) as error:
        notation.for_game(game).parse_position(text)
    assert error.value.column == column, str(error.value)
    assert reason in error.value.reason, str(error.value)
    assert f"at column {column} of " in str(error.value)


@pytest.mark.parametrize(
    ("game", "message"),
    [
        ("king_is_dead", king_is_dead_pb2.KingIsDeadMove()),
        ("kings_life", kings_life_pb2.KingsLifeMove()),
        (
            "king_is_dead",
            king_is_dead_pb2.KingIsDeadMove(
                play_card=king_is_dead_pb2.KingIsDeadMove.PlayCard(
                    card=king_is_dead_pb2.ACTION_CARD_UNSPECIFIED
                )
            ),
        ),
        (
            "kings_life",
            kings_life_pb2.KingsLifeMove(queen=kings_life_pb2.KingsLifeMove.Queen(target=2)),
        ),
    ],
)
def test_moves_the_notation_cannot_spell(game: str, message: object) -> None:
    with pytest.raises(NotationError):
        notation.for_game(game).format_move(message)


def test_an_unknown_game_type() -> None:
    with pytest.raises(ValueError, match="no notation for game type 'chess'"):
        notation.for_game("chess")
    assert notation.game_types() == ["kill_the_king", "king_is_dead", "kings_life", "nim"]
