"""Rotation (KK-31, S5), played through the engine's checked apply.

The rulebook: "When the unit has reached its destination, you may turn the unit
to face any orthogonal direction. You can rotate any unit, as many times as you
want during the player's movement phase. Rotating the unit is a free action, and
does not consume movement points, except for catapults which consume movement
points when rotated." (and the chart's Catapult: "Rotating consumes 1 movement
point.")

A unit turned for free is turned again after any other move of its side (a
step, a climb, a prepared climb, a dismount, a Catapult's paid rotation); a
turn of it right after its own turn, with nothing in between, is not listed
(one turn to the second facing does the same); a Catapult pays a point for
each of its rotations.
"""

from __future__ import annotations

import pytest
from throneroom.games.kill_the_king.data import Direction, Level, UnitType
from throneroom.v1 import kill_the_king_pb2 as pb
from throneroom_server.games.core import IllegalMoveError
from throneroom_server.games.kill_the_king import derived

from tests.games.kill_the_king.positions import (
    END,
    A,
    D,
    E,
    Field,
    N,
    S,
    W,
    climb,
    dismount,
    legal,
    play,
    rotate,
    step,
    steps_of,
    walk,
    where,
)

SW, SP, AR, CA, CAT = (
    UnitType.SWORDSMEN,
    UnitType.SPEARMEN,
    UnitType.ARCHER,
    UnitType.CAVALRY,
    UnitType.CATAPULT,
)
PIG, KNIGHT = UnitType.FLAMING_PIGS, UnitType.KNIGHT
GROUND = int(Level.GROUND)
DEAD = pb.KillTheKingUnit.STATUS_DEAD


def facings(state: pb.KillTheKingState, uid: int) -> set[Direction]:
    """The facings ``uid`` may be turned to now."""
    return {
        Direction(m.rotate.facing)
        for m in legal(state)
        if m.HasField("rotate") and m.rotate.unit == uid
    }


def agree(state: pb.KillTheKingState) -> bool:
    """The fast listing and the rules' reference list the same moves."""
    seat = state.to_move
    return derived.movement_keys(state, seat) == derived.reference_keys(state, seat)


def test_rotate_step_rotate_again() -> None:
    """Turned, stepped, turned at its destination, and again after another
    unit moved (its own movement over: a free rotation needs none)."""
    f = Field()
    sw = f.put(SW, A, 1, 3)
    other = f.put(SW, A, 1, 7)
    f.put(AR, D, 12, 3)
    state = f.turn(A)
    assert facings(state, sw) == {E, S, W}  # never the facing it has
    state, events = play(state, rotate(sw, E))
    assert events[0].rotated.cost == 0 and state.units[sw].rotated
    state = walk(state, sw, N, N)
    assert facings(state, sw) == {N, S, W} and agree(state)
    state, _ = play(state, rotate(sw, W))
    state = walk(state, sw, N)
    state, _ = play(state, rotate(sw, S))
    assert state.units[sw].movement_used == 3  # rotations are free
    state = walk(state, other, N)
    assert facings(state, sw) == {N, E, W} and agree(state)
    state, _ = play(state, rotate(sw, N))
    assert where(state, sw) == (4, 3, GROUND) and state.units[sw].facing == pb.DIRECTION_NORTH


def test_a_turn_right_after_its_own_turn_is_not_listed() -> None:
    """Between two other moves of its side a unit is turned once: a second turn
    with nothing in between (another unit's free turn is not a move of the
    field) ends where one turn ends, so it is not offered, and refused."""
    f = Field()
    a = f.put(SW, A, 1, 3)
    b = f.put(SW, A, 1, 7)
    f.put(AR, D, 12, 3)
    state, _ = play(f.turn(A), rotate(a, E))
    assert facings(state, a) == set() and agree(state)
    with pytest.raises(IllegalMoveError):
        play(state, rotate(a, W))
    state, _ = play(state, rotate(b, W))
    assert facings(state, a) == set() and facings(state, b) == set()
    state = walk(state, b, N)  # another move: both may turn again
    assert facings(state, a) == {N, S, W} and facings(state, b) == {N, E, S}
    assert agree(state)


def test_a_dismount_is_another_move() -> None:
    """KK-76: flipped to Swordsmen, the Cavalry (and every unit) may turn again."""
    f = Field()
    ca = f.put(CA, A, 1, 3)
    sw = f.put(SW, A, 1, 7)
    f.put(AR, D, 12, 3)
    state, _ = play(f.turn(A), rotate(ca, E))
    state, _ = play(state, rotate(sw, E))
    state, _ = play(state, dismount(ca))
    assert facings(state, ca) == {N, S, W} and facings(state, sw) == {N, S, W}
    assert agree(state)


def test_after_a_climbing_attack_units_turn_again() -> None:
    """KK-44: the climbing attack rolls its dice in the movement phase; then the
    climber (its movement over) and the units turned before may turn again."""
    for seed in range(6):
        f = Field()
        climber = f.put(SW, A, 8, 3)
        turned = f.put(SW, A, 1, 7)
        target = f.put(SP, D, 9, 3, S)
        f.put(AR, D, 14, 3)
        state = f.turn(A)
        state.rng.state ^= seed  # a different die each time
        state, _ = play(state, rotate(climber, E))
        state, _ = play(state, rotate(turned, E))
        state, events = play(state, climb(climber, N))
        assert any(e.attacked.climbing for e in events if e.HasField("attacked"))
        assert steps_of(state, climber) == set()
        assert facings(state, climber) == {N, S, W} and facings(state, turned) == {N, S, W}
        assert agree(state)
        state, _ = play(state, rotate(climber, N))  # to face along the wall, or the wall
        assert state.units[climber].facing == pb.DIRECTION_NORTH
        assert state.units[target].status in (DEAD, pb.KillTheKingUnit.STATUS_ON_FIELD)


def test_after_a_pigs_explosion_units_turn_again() -> None:
    """KK-87: a unit steps next to a Flaming Pig, which explodes; the units
    turned before may turn again to face what is left."""
    f = Field()
    f.put(KNIGHT, A, 0, 0, N)
    f.put(KNIGHT, D, 13, 5, N)
    pig = f.put(PIG, D, 6, 5, S)
    runner = f.put(SW, A, 4, 5, N)
    turned = f.put(SW, A, 6, 7, N)
    state, _ = play(f.turn(A), rotate(turned, W))  # towards the pig
    state, events = play(state, step(runner, N))
    assert [e.pigs_exploded.unit for e in events if e.HasField("pigs_exploded")] == [pig]
    assert state.units[runner].status == DEAD
    assert facings(state, turned) == {N, E, S} and agree(state)
    state, _ = play(state, rotate(turned, N))
    assert state.units[turned].facing == pb.DIRECTION_NORTH


def test_each_rotation_of_a_catapult_costs_a_point() -> None:
    """A Catapult on the road has 2 points (KK-62): two rotations, one right
    after the other, each cost one; then it has none to step or turn. Each
    counts as moving it (KK-68) and as another move of its side."""
    f = Field()
    cat = f.put(CAT, A, 1, 5)  # col 5 is the road
    sw = f.put(SW, A, 1, 3)
    f.put(AR, D, 12, 3)
    state, _ = play(f.turn(A), rotate(sw, E))
    state, events = play(state, rotate(cat, E))
    assert events[0].rotated.cost == 1 and state.units[cat].movement_used == 1
    assert state.units[cat].moved and state.active_unit == cat
    assert facings(state, cat) == {N, S, W} and facings(state, sw) == {N, S, W}
    assert agree(state)
    state, events = play(state, rotate(cat, S))
    assert events[0].rotated.cost == 1 and state.units[cat].movement_used == 2
    assert facings(state, cat) == set() and steps_of(state, cat) == set() and agree(state)


def test_a_catapults_movement_over_it_turns_no_more() -> None:
    """KK-30, KK-68: its rotation moved it; once another unit moves it is done."""
    f = Field()
    cat = f.put(CAT, A, 1, 5)
    sw = f.put(SW, A, 1, 3)
    f.put(AR, D, 12, 3)
    state, _ = play(f.turn(A), rotate(cat, E))
    state = walk(state, sw, N)
    assert facings(state, cat) == set() and agree(state)


def test_s5_a_catapult_on_the_road_rotates_for_one_point_steps_and_cannot_attack() -> None:
    f = Field()
    cat = f.put(CAT, A, 1, 5)  # col 5 is the road
    f.put(AR, D, 12, 3)
    state = f.turn(A)
    assert state.units[cat].bonus_movement == 1
    state, events = play(state, rotate(cat, E))
    assert events[0].rotated.cost == 1 and state.units[cat].moved
    state = walk(state, cat, E)
    assert where(state, cat) == (1, 6, GROUND) and steps_of(state, cat) == set()
    state, _ = play(state, END)
    assert state.phase == pb.KillTheKingState.PHASE_ATTACK
    assert not any(m.attack.unit == cat for m in legal(state) if m.HasField("attack"))


def test_a_catapult_off_the_road_has_one_point_a_rotation_uses_it() -> None:
    f = Field()
    cat = f.put(CAT, A, 1, 3)
    f.put(AR, D, 12, 3)
    state, _ = play(f.turn(A), rotate(cat, E))
    assert steps_of(state, cat) == set() and facings(state, cat) == set()
