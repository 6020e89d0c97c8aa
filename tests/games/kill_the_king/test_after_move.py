"""The checks after every move (engine._then_check) take short cuts when
nothing can happen; over random games of every mode each short cut gives what
the full check gives: the Flaming Pigs' detonation is skipped only in games
without the Advanced units (where no pig can be), and the annihilation check
stops at the first unit of each side."""

from __future__ import annotations

import random

import pytest
from throneroom.games.kill_the_king.data import Side, UnitType
from throneroom.v1 import kill_the_king_pb2 as pb
from throneroom_server.games.kill_the_king import combat_deaths, turns
from throneroom_server.games.kill_the_king.engine import KillTheKing
from throneroom_server.games.rng import Rng

State = pb.KillTheKingState
Event = pb.KillTheKingEvent
ON_FIELD = pb.KillTheKingUnit.STATUS_ON_FIELD

VARIANTS = [(1, 2, False), (2, 2, False), (1, 2, True), (3, 4, False), (4, 3, True)]


def full_game_over(state: State) -> tuple[bool, list[Event], bytes]:
    """The annihilation check as it was written first: every unit's side."""
    state = State.FromString(state.SerializeToString())
    events: list[Event] = []
    if state.HasField("outcome"):
        return True, events, state.SerializeToString()
    if state.door_destroyed:
        turns.finish(state, Side.ATTACKER, "door", events)
        return True, events, state.SerializeToString()
    if state.round == 0:
        return False, events, state.SerializeToString()
    present = {u.side for u in state.units if u.status == ON_FIELD}
    over = True
    if int(Side.ATTACKER) not in present:
        turns.finish(state, Side.DEFENDER, "annihilation", events)
    elif int(Side.DEFENDER) not in present:
        turns.finish(state, Side.ATTACKER, "annihilation", events)
    else:
        over = False
    return over, events, state.SerializeToString()


def checked(state: State) -> tuple[bool, list[Event], bytes]:
    state = State.FromString(state.SerializeToString())
    events: list[Event] = []
    over = turns.check_game_over(state, events)
    return over, events, state.SerializeToString()


def detonated(state: State) -> tuple[list[Event], bytes]:
    state = State.FromString(state.SerializeToString())
    events: list[Event] = []
    combat_deaths.detonate(state, Rng(state.rng), events)
    return events, state.SerializeToString()


@pytest.mark.parametrize(("mode", "seats", "advanced"), VARIANTS)
def test_short_cuts_equal_the_full_checks(mode: int, seats: int, advanced: bool) -> None:
    engine = KillTheKing()
    chooser = random.Random(mode * 10 + seats)
    pig = int(UnitType.FLAMING_PIGS)
    for seed in range(1, 3):
        options = pb.KillTheKingOptions(mode=pb.KillTheKingMode.ValueType(mode), advanced=advanced)
        state = engine.setup(options, seats, seed)
        while acting := engine.to_act(state):
            seat = acting[chooser.randrange(len(acting))]
            moves = engine.legal_moves(state, seat)
            state, _ = engine.apply(state, seat, moves[chooser.randrange(len(moves))])
            assert checked(state) == full_game_over(state)
            if not advanced:  # the detonation the engine skips would do nothing
                assert not any(u.type == pig for u in state.units)
                assert detonated(state) == ([], state.SerializeToString())
    # a side wiped out, one unit of it dead last: the short cut sees it (KK-118)
    for alone in (Side.ATTACKER, Side.DEFENDER):
        state = engine.setup(pb.KillTheKingOptions(), 2, 1)
        state.round = 1
        for side in (alone, alone.other, alone):
            status = ON_FIELD if side is alone else pb.KillTheKingUnit.STATUS_DEAD
            state.units.add(id=len(state.units), side=pb.Side.ValueType(side), status=status)
        assert checked(state) == full_game_over(state)
        assert checked(state)[0] and state.units[1].status != ON_FIELD
        state.units[1].status = ON_FIELD
        assert checked(state) == full_game_over(state)
        assert not checked(state)[0]
