"""Bad Kill the King notation is a NotationError naming the column of the problem;
any text either parses (and its spelling parses back to the same message) or
raises NotationError, never another exception."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from throneroom import notation
from throneroom.notation import NotationError
from throneroom.v1 import kill_the_king_pb2 as pb

from .test_fuzz import stable
from .test_kill_the_king_round_trips import states

KTK = notation.for_game("kill_the_king")

MOVES = [
    # (text, column, words in the reason)
    ("", 1, "a move (side, buy"),
    ("jump u7 n", 1, "unknown move 'jump'"),
    ("side", 5, "side expected"),
    ("side green", 6, "unknown side 'green'"),
    ("buy", 4, "a unit type (or suggested) expected"),
    ("buy dragon", 5, "unknown unit type 'dragon'"),
    ("buy ca", 5, "unknown unit type 'ca'"),
    ("buy archer now", 12, "unexpected 'now' after a complete move"),
    ("leader", 7, "a leader expected"),
    ("place u7", 9, "a square (like c3) expected"),
    ("place x7 c2 n", 7, "a unit id like u7 expected, not 'x7'"),
    ("place u7 c2", 12, "a facing (n, e, s, w) expected"),
    ("place u7 c2 up", 13, "unknown direction 'up'"),
    ("place u7 c0 n", 11, "rows are numbered from 1"),
    ("place u7 c05 n", 11, "without leading zeros"),
    ("place u7 3c n", 10, "a square like c3 expected"),
    ("place u7 c99999999999 n", 11, "out of range"),
    ("step u99999999999 n", 7, "a unit id out of range"),
    ("step u7", 8, "a direction (n, e, s, w) expected"),
    ("rotate u7 ne", 11, "unknown direction 'ne'"),
    ("climb n", 7, "a unit id like u7 expected"),
    ("prepare u4", 11, "a direction (n, e, s, w) expected"),
    ("dismount", 9, "a unit (like u7) expected"),
    ("attack u3", 10, "the square attacked (like c3) expected"),
    ("attack u3 e5 roof", 14, "unknown level 'roof'"),
    ("attack u3 e5 wall now", 19, "unexpected 'now'"),
    ("reinforce cavalry e", 19, "a square like c3 expected"),
    ("advance u3", 9, "unexpected 'u3'"),
    ("end turn", 5, "unexpected 'turn'"),
]


@pytest.mark.parametrize(("text", "column", "reason"), MOVES)
def test_bad_moves(text: str, column: int, reason: str) -> None:
    with pytest.raises(NotationError) as error:
        KTK.parse_move(text)
    assert isinstance(error.value, ValueError)
    assert error.value.column == column, str(error.value)
    assert reason in error.value.reason, str(error.value)
    assert str(error.value).startswith(f"at column {column} of {text!r}: ")


POSITIONS = [
    ("mode=ktk", 1, "seats= is required"),
    ("seats=2 mode=chess", 14, "unknown mode 'chess'"),
    ("seats=2 phase=lunch", 15, "unknown phase 'lunch'"),
    ("seats=2 turn=0", 14, "side and seat like a0 or d1 expected"),
    ("seats=2 turn=q0", 14, "unknown side letter 'q'"),
    ("seats=2 turn=ax", 14, "side and seat like a0"),
    ("seats=2 reinf=5/0", 15, "cavalry/value/half expected"),
    ("seats=2 reinf=5/x/0", 17, "a whole number expected"),
    ("seats=2 gates=f10", 15, "a gate like f10:d"),
    ("seats=2 gates=f10:d,z0:a", 22, "rows are numbered from 1"),
    ("seats=2 gates=f10:d:open", 21, "destroyed expected, not 'open'"),
    ("seats=2 ruins=e10", 15, "a ruin like e10:3"),
    ("seats=2 ruins=e10:x", 19, "a whole number expected"),
    ("seats=2 door=open", 14, "destroyed or intact expected"),
    ("seats=2 follow=3@", 18, "a square like c3 expected"),
    ("seats=2 follow=x", 16, "a whole number expected"),
    ("seats=2 penalty=a,q", 19, "unknown side letter 'q'"),
    ("seats=2 p2.coins=3", 9, "there is no seat 2"),
    ("seats=2 p0.money=3", 9, "unknown seat field 'money'"),
    ("seats=2 p0.placed=maybe", 19, "yes or no expected"),
    ("seats=2 u0=archer", 12, "type:owner:place expected"),
    ("seats=2 u0=dragon:a0:c3", 12, "unknown unit type 'dragon'"),
    ("seats=2 u0=archer:q0:c3", 19, "unknown side letter 'q'"),
    ("seats=2 u0=archer:a0:flying", 22, "unknown unit status 'flying'"),
    ("seats=2 u0=archer:a0:c0", 23, "rows are numbered from 1"),
    ("seats=2 u0=archer:a0:dead@", 27, "a square like c3 expected"),
    ("seats=2 u0=archer:a0:c3:n:hidden", 27, "unknown unit flag 'hidden'"),
    ("seats=2 u0=archer:a0:c3:n:moved:moved", 33, "moved is given twice"),
    ("seats=2 u0=archer:a0:c3:n:mp=x", 30, "a whole number expected"),
    ("seats=2 u0=archer:a0:c3:n:climb=up", 33, "unknown direction 'up'"),
    ("seats=2 u0=archer:a0:c3:level=wall", 25, "its mark (c3#)"),
    ("seats=2 u0=archer:a0:reserve:level=roof", 36, "unknown level 'roof'"),
    ("seats=2 u0=archer:a0:c3 u2=archer:a0:c4", 25, "u1 is missing"),
    ("seats=2 u01=archer:a0:c3", 9, "unknown field 'u01'"),
    ("seats=2 units=3", 9, "unknown field 'units'"),
]


@pytest.mark.parametrize(("text", "column", "reason"), POSITIONS)
def test_bad_positions(text: str, column: int, reason: str) -> None:
    with pytest.raises(NotationError) as error:
        KTK.parse_position(text)
    assert error.value.column == column, str(error.value)
    assert reason in error.value.reason, str(error.value)
    assert f"at column {column} of " in str(error.value)


@pytest.mark.parametrize(
    ("message", "reason"),
    [
        (pb.KillTheKingMove(), "an empty move"),
        (pb.KillTheKingMove(choose_side=pb.KillTheKingMove.ChooseSide()), "no side"),
        (pb.KillTheKingMove(buy=pb.KillTheKingMove.Buy(unit=99)), "no unit type"),
        (pb.KillTheKingMove(step=pb.KillTheKingMove.Step(unit=-1, direction=1)), "no unit"),
        (pb.KillTheKingMove(rotate=pb.KillTheKingMove.Rotate(unit=1)), "no direction"),
        (
            pb.KillTheKingMove(place=pb.KillTheKingMove.Place(unit=1, facing=1)),
            "without its square",
        ),
        (
            pb.KillTheKingMove(
                attack=pb.KillTheKingMove.Attack(unit=1, target=pb.Square(row=-1, col=0))
            ),
            "has no name",
        ),
        (
            pb.KillTheKingMove(
                attack=pb.KillTheKingMove.Attack(unit=1, target=pb.Square(row=0, col=26))
            ),
            "has no name",
        ),
    ],
)
def test_moves_the_notation_cannot_spell(message: pb.KillTheKingMove, reason: str) -> None:
    with pytest.raises(NotationError, match=reason):
        KTK.format_move(message)


@pytest.mark.parametrize(
    ("state", "reason"),
    [
        (pb.KillTheKingState(num_seats=2), "0 seat records for 2 seats"),
        (
            pb.KillTheKingState(units=[pb.KillTheKingUnit(square=pb.Square(row=-2))]),
            "has no name",
        ),
        (pb.KillTheKingState(units=[pb.KillTheKingUnit(level=9)]), "no level"),
        (pb.KillTheKingState(mode=9), "no mode"),
    ],
)
def test_states_the_notation_cannot_spell(state: pb.KillTheKingState, reason: str) -> None:
    with pytest.raises(NotationError, match=reason):
        KTK.format_position(state)


# -- fuzz -----------------------------------------------------------------------------------

WORDS = [
    *("side", "buy", "leader", "place", "reinforce", "step", "rotate", "climb", "prepare"),
    *("dismount", "attack", "advance", "stay", "disband", "end", "suggested", "army"),
    *("attacker", "def", "archer", "war-elephant", "sw", "ca", "knight", "x"),
    *("u0", "u7", "7", "u-1", "u", "u99999999999", "-3"),
    *("a1", "c3", "k16", "k32", "z99", "a0", "c05", "3c", "e5#"),
    *("n", "e", "s", "w", "north", "ne", "wall", "ground", "stairs", "roof"),
]
SETTINGS = settings(
    max_examples=200, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow]
)


@SETTINGS
@given(data=st.data())
def test_any_move_text_parses_or_is_a_notation_error(data: st.DataObject) -> None:
    words = data.draw(st.lists(st.sampled_from(WORDS), max_size=6))
    stable(KTK.parse_move, KTK.format_move, " ".join(words))
    stable(KTK.parse_move, KTK.format_move, data.draw(st.text(max_size=24)))


@SETTINGS
@given(state=states(), choice=st.integers(0, 2**32), edits=st.integers(1, 4))
def test_damaged_positions_parse_or_are_notation_errors(
    state: pb.KillTheKingState, choice: int, edits: int
) -> None:
    """Well-formed positions with a few characters deleted, doubled or replaced."""
    rng = random.Random(choice)
    text = KTK.format_position(state)
    for _ in range(edits):
        at = rng.randrange(len(text))
        action = rng.randrange(3)
        if action == 0:
            text = text[:at] + text[at + 1 :]
        elif action == 1:
            text = text[:at] + text[at] + text[at:]
        else:
            text = text[:at] + rng.choice('0123456789,/:=-@#?x "adnu') + text[at + 1 :]
    stable(KTK.parse_position, KTK.format_position, text)
