"""The laws every state keeps (invariants.py): each one catches its breach."""

from __future__ import annotations

import pytest
from throneroom.games.kill_the_king.data import UnitType
from throneroom.v1 import kill_the_king_pb2 as pb

from tests.games.kill_the_king.positions import ENGINE, A, D, Field
from tests.games.kill_the_king.test_turns import end_turn

SW = UnitType.SWORDSMEN


def sound() -> pb.KillTheKingState:
    f = Field()
    f.put(SW, A, 1, 3)
    f.put(SW, D, 12, 3)
    f.put(UnitType.BATTERING_RAM, A, 2, 5)
    state = f.turn(A, 1)
    for seat, s in enumerate(state.seats):  # coins as if the counters were bought
        spent = sum(3 for u in state.units if u.seat == seat and u.type == pb.UNIT_TYPE_SWORDSMEN)
        s.coins = (90 if seat == 0 else 45) - spent
    state.units[2].free = True
    return state


def test_a_sound_state_keeps_every_law() -> None:
    ENGINE.check_invariants(sound())
    state, _ = end_turn(sound())
    ENGINE.check_invariants(state)


@pytest.mark.parametrize(
    "breach",
    [
        "two_on_one_square",
        "off_the_field",
        "cavalry_on_a_wall",
        "crew_elsewhere",
        "over_without_outcome",
        "reserve_in_play",
        "wrong_side",
        "coins_lost",
    ],
)
def test_each_breach_is_caught(breach: str) -> None:
    state = sound()
    sw = state.units[0]
    if breach == "two_on_one_square":
        state.units[1].square.CopyFrom(sw.square)
        state.units[1].level = sw.level
    elif breach == "off_the_field":
        sw.square.row = 12  # Attack and Defense does not use the castle rows
        state.mode = pb.KILL_THE_KING_MODE_ATTACK_AND_DEFENSE
        state.ClearField("gates")
    elif breach == "cavalry_on_a_wall":
        sw.type = pb.UNIT_TYPE_CAVALRY
        sw.square.row, sw.square.col, sw.level = 9, 3, pb.LEVEL_WALL
    elif breach == "crew_elsewhere":
        sw.carried_by = 2
    elif breach == "over_without_outcome":
        state.phase = pb.KillTheKingState.PHASE_OVER
    elif breach == "reserve_in_play":
        sw.status = pb.KillTheKingUnit.STATUS_RESERVE
    elif breach == "coins_lost":
        state.seats[0].coins -= 3
    else:
        sw.side = pb.SIDE_DEFENDER
    with pytest.raises(AssertionError):
        ENGINE.check_invariants(state)
