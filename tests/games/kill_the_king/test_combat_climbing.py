"""The climbing example and the Cavalry's double attack (docs/rules/kill_the_king.md
KK-44, KK-45, KK-47, KK-56, KK-76..KK-79; scenarios S7..S12, S18)."""

from __future__ import annotations

import pytest
from throneroom.games.kill_the_king.data import Level, UnitType
from throneroom.v1 import kill_the_king_pb2 as pb
from throneroom_server.games.kill_the_king.combat import (
    IllegalAttack,
    apply_attack,
    apply_follow_up,
    attack_moves,
    can_climb_attack,
    climb_attack,
    follow_up_moves,
)
from throneroom_server.games.kill_the_king.combat_deaths import flip_cavalry

from tests.games.kill_the_king.combat_positions import (
    GATE,
    A,
    D,
    Dice,
    E,
    Event,
    Move,
    N,
    S,
    W,
    attack,
    attacked,
    dice_rolled,
    field,
    killed,
    kinds,
    position,
    targets,
    unit,
)

ARCHER, SPEARMEN, SWORDSMEN = UnitType.ARCHER, UnitType.SPEARMEN, UnitType.SWORDSMEN
CAVALRY, CATAPULT, KNIGHT = UnitType.CAVALRY, UnitType.CATAPULT, UnitType.KNIGHT
DEAD, ON_FIELD = pb.KillTheKingUnit.STATUS_DEAD, pb.KillTheKingUnit.STATUS_ON_FIELD
CLIMBING = pb.ATTACK_MODIFIER_CLIMBING


def climb(state: pb.KillTheKingState, unit_id: int, dice: Dice) -> tuple[bool, list[Event]]:
    """A climb onto the wall north of the unit, in the movement phase."""
    events: list[Event] = []
    state.phase = pb.KillTheKingState.PHASE_MOVEMENT
    up = climb_attack(state, field(state), unit_id, N, dice, events)
    assert dice.left == [], "every die the test gave is rolled"
    return up, events


def play(state: pb.KillTheKingState, move: Move, dice: Dice, seat: int = 0) -> list[Event]:
    events: list[Event] = []
    if move.HasField("attack"):
        apply_attack(state, field(state), seat, move, dice, events)
    else:
        apply_follow_up(state, field(state), seat, move, dice, events)
    assert dice.left == [], "every die the test gave is rolled"
    return events


def wall_guarded() -> pb.KillTheKingState:
    """A Swordsmen that ended its last turn beneath the wall; a Spearmen on top."""
    return position(unit(SWORDSMEN, A, 8, 3, N), unit(SPEARMEN, D, 9, 3, S))


def test_s7_the_climbing_example_success() -> None:
    """S7 (KK-44): the Swordsmen climbs and attacks at 3 - 1 = 2; on a kill it
    stands on the wall and its turn is over (no attack in the attack phase)."""
    state = wall_guarded()
    up, events = climb(state, 0, Dice(2, 5))
    assert up
    event = attacked(events)
    assert event.climbing and (event.base_value, event.value) == (3, 2)
    assert list(event.modifiers) == [CLIMBING] and list(event.modifier_values) == [-1]
    hit, save = dice_rolled(events)
    assert (hit.needed, save.needed, save.face) == (2, 4, pb.FACE_FRONT)
    assert kinds(events)[-2:] == ["unit_killed", "climbed"]
    assert events[-1].climbed == Event.Climbed(unit=0, wall=pb.Square(row=9, col=3))
    climber = state.units[0]
    assert (climber.square.row, climber.square.col, climber.level) == (9, 3, Level.WALL)
    assert climber.attacked and climber.facing == pb.DIRECTION_NORTH
    state.phase = pb.KillTheKingState.PHASE_ATTACK
    assert attack_moves(state, field(state), 0) == []


@pytest.mark.parametrize(("dice", "saved"), [((3,), False), ((2, 4), True)])
def test_s8_the_climbing_example_failure(dice: tuple[int, ...], saved: bool) -> None:
    """S8 (KK-44): missed or saved, the climber stays on its ground space and makes
    no attack this turn."""
    state = position(
        unit(SWORDSMEN, A, 8, 3, E),  # faces an enemy it could otherwise attack
        unit(SPEARMEN, D, 9, 3, S),
        unit(SWORDSMEN, D, 8, 4, W),
    )
    up, events = climb(state, 0, Dice(*dice))
    assert not up and killed(events) == []
    assert ("unit_saved" in kinds(events)) is saved
    climber = state.units[0]
    assert (climber.square.row, climber.square.col, climber.level) == (8, 3, Level.GROUND)
    assert climber.attacked
    assert attack_moves(state, field(state), 0) == []


def test_s9_after_climbing_an_empty_wall_it_attacks_without_penalty() -> None:
    """S9 (KK-44): on the wall after a climb onto an empty space, it attacks in the
    attack phase as usual: the enemy along the wall at 3, no modifier."""
    state = position(unit(SWORDSMEN, A, 9, 4, W), unit(SWORDSMEN, D, 9, 3, E))
    event = attacked(play(state, attack(0, 9, 3), Dice(3, 4)))
    assert (event.value, list(event.modifiers), event.climbing) == (3, [], False)
    assert state.units[1].status == DEAD


def test_a_prepared_climbing_attack_in_the_attack_phase() -> None:
    """KK-45: the enemy still on the wall: the climbing attack (-1) now."""
    state = position(unit(SWORDSMEN, A, 8, 3, E, climb=N), unit(SPEARMEN, D, 9, 3, S))
    assert targets(attack_moves(state, field(state), 0)) == [(0, 9, 3)]
    events = play(state, attack(0, 9, 3), Dice(2, 6))
    assert attacked(events).climbing and attacked(events).value == 2
    climber = state.units[0]
    assert (climber.square.row, climber.level, climber.attacked) == (9, Level.WALL, True)
    assert not climber.HasField("climb")


def test_s10_the_wall_destroyed_before_the_climb() -> None:
    """S10 (KK-45, KK-54): the attacker's Catapult destroys the wall space first:
    the prepared climber has no attack this turn (it is rolled for as a neighbour)."""
    state = position(
        unit(SWORDSMEN, A, 8, 3, N, climb=N),  # 0
        unit(SPEARMEN, D, 9, 3, S),  # 1
        unit(CATAPULT, A, 5, 3, N),  # 2: the wall at distance 4
    )
    assert targets(attack_moves(state, field(state), 0), 0) == [(0, 9, 3)]
    events = play(state, attack(2, 9, 3), Dice(1, 6, 5))
    assert killed(events) == [(1, pb.CAUSE_RUIN)]
    assert [d.target_unit for d in dice_rolled(events)] == [-1, -1, 0]
    assert attack_moves(state, field(state), 0) == []
    assert state.units[0].status == ON_FIELD


def test_s11_the_defender_killed_before_the_climber_attacks() -> None:
    """S11 (KK-45): an Archer kills the unit on the wall first; the prepared climber
    moves onto the wall without a roll and attacks an adjacent unit from there."""
    state = position(
        unit(SWORDSMEN, A, 8, 3, W, climb=N),  # 0: faces along the wall
        unit(SWORDSMEN, D, 9, 3, S),  # 1
        unit(SWORDSMEN, D, 9, 2, E),  # 2: on the wall beside it
        unit(ARCHER, A, 6, 3, N),  # 3: the wall top at distance 3: 3 - 1
    )
    events = play(state, attack(3, 9, 3), Dice(2, 4))
    assert killed(events) == [(1, pb.CAUSE_ATTACK)]
    assert targets(attack_moves(state, field(state), 0)) == [(0, 9, 3)]
    events = play(state, attack(0, 9, 3), Dice())
    assert kinds(events) == ["climbed"]
    climber = state.units[0]
    assert (climber.square.row, climber.square.col, climber.level) == (9, 3, Level.WALL)
    assert not climber.attacked and not climber.HasField("climb")
    assert targets(attack_moves(state, field(state), 0)) == [(0, 9, 2)]
    event = attacked(play(state, attack(0, 9, 2), Dice(3, 4)))
    assert (event.value, event.climbing) == (3, False)
    assert state.units[2].status == DEAD and state.units[0].attacked


def test_s12_cavalry_dismounts_to_climb() -> None:
    """S12 (KK-46, KK-47, KK-76): a Cavalry has no climbing attack; dismounted it is
    Swordsmen and climbs at 3 - 1."""
    state = position(unit(CAVALRY, A, 8, 3, N), unit(SPEARMEN, D, 9, 3, S))
    board = field(state)
    assert not can_climb_attack(state, board, 0, N)
    with pytest.raises(IllegalAttack):
        climb(state, 0, Dice())
    events: list[Event] = []
    flip_cavalry(state.units[0], events, by_choice=True)
    assert events[0].flipped == Event.Flipped(unit=0, by_choice=True)
    assert can_climb_attack(state, board, 0, N)
    up, events = climb(state, 0, Dice(2, 5))
    assert up and attacked(events).value == 2


def test_climbing_above_the_gate_takes_it() -> None:
    """KK-56: a unit that ends a climb above the gate takes the gate's control."""
    state = position(
        unit(SPEARMEN, A, 8, 5, N),
        unit(ARCHER, D, 9, 5, S),
        unit(KNIGHT, A, 8, 4, N),
    )
    up, events = climb(state, 0, Dice(2, 2))
    assert attacked(events).value == 2, "Spearmen 2, -1 climbing, +1 Knight"
    assert up and kinds(events)[-2:] == ["climbed", "gate_control_changed"]
    assert state.gates[0].controlled_by == pb.SIDE_ATTACKER
    assert (state.units[0].square.row, state.units[0].level) == (GATE.row, Level.WALL)


# -- the Cavalry's double attack (S18) -----------------------------------------------------------


def charge() -> pb.KillTheKingState:
    return position(
        unit(CAVALRY, A, 4, 4, N),  # 0
        unit(SWORDSMEN, D, 5, 4, S),  # 1
        unit(SPEARMEN, D, 6, 4, S),  # 2
    )


def test_s18_cavalry_double_attack() -> None:
    """S18 (KK-78): a kill; the Cavalry advances into the space and attacks once
    more ahead at 5 - 1 (the Spearmen's front against Cavalry: 5); never a third."""
    state = charge()
    play(state, attack(0, 5, 4), Dice(2, 6))
    assert state.follow_up == pb.KillTheKingFollowUp(unit=0, vacated=pb.Square(row=5, col=4))
    board = field(state)
    assert follow_up_moves(state, board, 1) == []
    assert [m.follow_up.advance for m in follow_up_moves(state, board, 0)] == [False, True]
    events = play(state, Move(follow_up=Move.FollowUp(advance=True)), Dice(4, 6))
    assert events[0].followed_up == Event.FollowedUp(unit=0, advanced=True)
    event = attacked(events)
    assert list(event.modifiers) == [pb.ATTACK_MODIFIER_SECOND_CHARGE]
    assert (event.value, list(event.target_units)) == (4, [2])
    assert [d.needed for d in dice_rolled(events)] == [4, 5]
    assert killed(events) == [(2, pb.CAUSE_ATTACK)]
    cavalry = state.units[0]
    assert (cavalry.square.row, cavalry.square.col) == (5, 4)
    assert not state.HasField("follow_up")


def test_cavalry_may_stay_and_an_empty_advance_attacks_nothing() -> None:
    state = charge()
    play(state, attack(0, 5, 4), Dice(1, 6))
    events = play(state, Move(follow_up=Move.FollowUp(advance=False)), Dice())
    assert kinds(events) == ["followed_up"] and state.units[0].square.row == 4
    alone = position(unit(CAVALRY, A, 4, 4, N), unit(SWORDSMEN, D, 5, 4, S))
    play(alone, attack(0, 5, 4), Dice(1, 6))
    events = play(alone, Move(follow_up=Move.FollowUp(advance=True)), Dice())
    assert kinds(events) == ["followed_up"] and alone.units[0].square.row == 5


def test_no_follow_up_without_a_vacated_space() -> None:
    """KK-78, KK-79: a saved or flipped target, or a target on a wall the Cavalry
    cannot enter, gives no double attack."""
    saved = charge()
    play(saved, attack(0, 5, 4), Dice(1, 1))
    flipped = position(unit(CAVALRY, A, 4, 4, N), unit(CAVALRY, D, 5, 4, S))
    play(flipped, attack(0, 5, 4), Dice(1, 6))
    assert flipped.units[1].type == SWORDSMEN
    on_wall = position(unit(CAVALRY, A, 10, 2, S), unit(SWORDSMEN, D, 9, 2, N))
    play(on_wall, attack(0, 9, 2), Dice(1, 6))
    assert on_wall.units[1].status == DEAD
    for state in (saved, flipped, on_wall):
        assert not state.HasField("follow_up")
