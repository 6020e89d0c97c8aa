"""The movement listing from plain data (listing.movement_keys) equals the
rules' reference (movement's, climbing's and turns' generators, kind by kind)
at every movement decision of random games of every mode, for every seat; the
step effect's target (listing.step_target) is the reference mover's."""

from __future__ import annotations

import random

import pytest
from throneroom.games.kill_the_king.data import Direction, Mode
from throneroom.v1 import kill_the_king_pb2 as pb
from throneroom_server.games.kill_the_king import derived, listing, movement
from throneroom_server.games.kill_the_king import state as st
from throneroom_server.games.kill_the_king.engine import KillTheKing
from throneroom_server.games.kill_the_king.keys import STEP

State = pb.KillTheKingState
TOWER = pb.UNIT_TYPE_SIEGE_TOWER

SLOW = pytest.mark.slow
VARIANTS = [
    ((), 2),
    ((("mode", int(Mode.ATTACK_AND_DEFENSE)),), 2),
    ((("advanced", 1),), 2),
    ((("mode", int(Mode.ATTACK_AND_DEFENSE)), ("advanced", 1)), 2),
    # The Giga boards' playouts are long: the slow tier's.
    pytest.param((("mode", int(Mode.KILL_THE_KING_GIGA)), ("advanced", 1)), 3, marks=SLOW),
    pytest.param((("mode", int(Mode.ATTACK_AND_DEFENSE_GIGA)),), 4, marks=SLOW),
]


def _reference_target(state: State, uid: int, d: int) -> tuple[object, object, int]:
    scene = movement.Scene(state)
    u = state.units[uid]
    left = scene.points_left(u)
    mover = movement._Mover(scene, u)
    _, target, ram = next(t for t in mover.targets(st.position(u), left) if t[0] is Direction(d))
    return target, ram.id if ram is not None else None, left


@pytest.mark.parametrize(("values", "seats"), VARIANTS)
def test_listing_equals_the_reference(values: tuple[tuple[str, int], ...], seats: int) -> None:
    engine = KillTheKing()
    listed = steps = plain = 0
    for game in range(3):
        chooser = random.Random(game)
        options = engine.default_options()
        for name, value in values:
            setattr(options, name, value)
        state = engine.setup(options, seats, 60 + game)
        while acting := engine.to_act(state):
            seat = acting[chooser.randrange(len(acting))]
            if state.phase == State.PHASE_MOVEMENT:
                for asked in range(seats):
                    keys = listing.movement_keys(state, asked)
                    if keys is not None:
                        plain += 1
                    assert derived.movement_keys(state, asked) == derived.reference_keys(
                        state, asked
                    )
                    listed += 1
                for key in derived.movement_keys(state, seat):
                    u = state.units[key[1]] if key[0] == STEP else None
                    if u is None or (u.carried_by >= 0 and state.units[u.carried_by].type == TOWER):
                        continue
                    if u.type == pb.UNIT_TYPE_FLAMING_PIGS:
                        continue  # a pig's step may be its explosion (not a target)
                    target, ram, left = listing.step_target(state, u, key[2])
                    assert (target, ram.id if ram is not None else None, left) == (
                        _reference_target(state, key[1], key[2])
                    )
                    steps += 1
            moves = engine.legal_moves(state, seat)
            state, _ = engine.apply(state, seat, moves[chooser.randrange(len(moves))])
    assert listed > 300
    assert plain > listed // 2  # most listings took the plain path
    assert steps > 300
