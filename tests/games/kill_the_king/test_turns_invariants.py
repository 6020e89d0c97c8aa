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
        "treasurer_coins_lost",
        "free_peasants_without_a_bought_one",
        "enemy_in_a_tower",
        "four_in_a_tower",
        "stacks_clash",
        "crew_on_stairs_in_a_tower_away_from_walls",
        "advanced_unit_without_the_option",
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
    elif breach == "treasurer_coins_lost":  # his 9 coins belong to the budget (KK-133)
        state.units.add(
            id=3, type=pb.UNIT_TYPE_TREASURER, seat=1, side=pb.SIDE_DEFENDER, carried_by=-1
        )
    elif breach == "free_peasants_without_a_bought_one":  # KK-17, at setup
        state.round = 0
        sw.type = pb.UNIT_TYPE_PEASANT
        sw.free = True
        state.seats[0].coins -= 3
    elif breach == "advanced_unit_without_the_option":  # e.g. Flaming Pigs (KK-16)
        sw.type = pb.UNIT_TYPE_FLAMING_PIGS
    elif breach.endswith("tower") or breach in (
        "stacks_clash",
        "crew_on_stairs_in_a_tower_away_from_walls",
    ):
        _tower_breach(state, breach)
    else:
        sw.side = pb.SIDE_DEFENDER
    with pytest.raises(AssertionError):
        ENGINE.check_invariants(state)


def _tower_breach(state: pb.KillTheKingState, breach: str) -> None:
    """A Siege Tower (unit 3) at (3,3) with the attacker's Swordsmen (unit 0)
    inside (a game with the Advanced units); then the breach."""
    state.advanced = True
    tower = state.units.add(
        id=3,
        type=pb.UNIT_TYPE_SIEGE_TOWER,
        seat=0,
        side=pb.SIDE_ATTACKER,
        status=pb.KillTheKingUnit.STATUS_ON_FIELD,
        square=pb.Square(row=3, col=3),
        level=pb.LEVEL_GROUND,
        carried_by=-1,
    )
    state.seats[0].coins -= 3
    sw = state.units[0]
    sw.square.CopyFrom(tower.square)
    sw.carried_by, sw.stack = 3, 1
    ENGINE.check_invariants(state)  # sound so far
    if breach == "enemy_in_a_tower":
        sw.side, sw.seat = pb.SIDE_DEFENDER, 1
        state.seats[0].coins += 3
        state.seats[1].coins -= 3
    elif breach == "four_in_a_tower":
        for k in range(3):
            state.units.add(
                id=4 + k,
                type=pb.UNIT_TYPE_SWORDSMEN,
                seat=0,
                side=pb.SIDE_ATTACKER,
                status=pb.KillTheKingUnit.STATUS_ON_FIELD,
                square=pb.Square(row=3, col=3),
                level=pb.LEVEL_GROUND,
                carried_by=3,
                stack=2 + k,
                free=True,
            )
    elif breach == "stacks_clash":
        state.units.add(
            id=4,
            type=pb.UNIT_TYPE_SWORDSMEN,
            seat=0,
            side=pb.SIDE_ATTACKER,
            status=pb.KillTheKingUnit.STATUS_ON_FIELD,
            square=pb.Square(row=3, col=3),
            level=pb.LEVEL_GROUND,
            carried_by=3,
            stack=1,
            free=True,
        )
    else:
        sw.level = pb.LEVEL_STAIRS
