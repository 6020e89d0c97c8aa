"""War Elephants and the Beastmaster (KK-81..KK-84, KK-109, KK-145..KK-149):
trampling, head to head, the panic on a failed front save, no saves against
siege engines, the gate and the door, Cavalry killed without flipping, the
Beastmaster's help and his death."""

from __future__ import annotations

from throneroom.games.kill_the_king.data import UnitType
from throneroom.v1 import kill_the_king_pb2 as pb
from throneroom_server.games.kill_the_king.combat import apply_attack, attack_moves, kill_unit

from tests.games.kill_the_king.combat_positions import (
    DOOR,
    GATE,
    Dice,
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
from tests.games.kill_the_king.positions import A, D, E, Field, N, S, W, play, step, steps_of

State = pb.KillTheKingState
Event = pb.KillTheKingEvent
ELEPHANT, SWORDSMEN, ARCHER = UnitType.WAR_ELEPHANT, UnitType.SWORDSMEN, UnitType.ARCHER
CAVALRY, KNIGHT, BEASTMASTER = UnitType.CAVALRY, UnitType.KNIGHT, UnitType.BEASTMASTER
TOWER, RAM, CATAPULT = UnitType.SIEGE_TOWER, UnitType.BATTERING_RAM, UnitType.CATAPULT
DEAD, ON_FIELD = pb.KillTheKingUnit.STATUS_DEAD, pb.KillTheKingUnit.STATUS_ON_FIELD
HIT, SAVE, PANIC = pb.DIE_PURPOSE_HIT, pb.DIE_PURPOSE_SAVE, pb.DIE_PURPOSE_PANIC


def where(state: State, uid: int) -> tuple[int, int]:
    return state.units[uid].square.row, state.units[uid].square.col


def hit(  # noqa: PLR0917 (a test's one call shape)
    state: State, seat: int, uid: int, row: int, col: int, dice: Dice
) -> list[Event]:
    events: list[Event] = []
    apply_attack(state, field(state), seat, attack(uid, row, col), dice, events)
    assert dice.left == [], "every die the test gave is rolled"
    return events


def elephant_field() -> Field:
    board = Field()
    board.put(KNIGHT, A, 0, 0, N)  # 0
    board.put(KNIGHT, D, 13, 5, N)  # 1
    return board


def test_an_elephant_walks_through_units_of_both_sides_killing_them() -> None:
    """KK-81: "All the units that stood in the way are automatically killed"; a
    Cavalry dies without flipping."""
    board = elephant_field()
    board.put(ELEPHANT, A, 4, 5, N)  # 2
    board.put(CAVALRY, D, 5, 5, S)  # 3
    board.put(ARCHER, A, 6, 5, N)  # 4: its own side's
    state = board.turn(A, 1)
    assert N in steps_of(state, 2)
    state, events = play(state, step(2, N))
    assert killed(list(events)) == [(3, pb.CAUSE_TRAMPLED)]
    assert "flipped" not in kinds(list(events)) and where(state, 2) == (5, 5)
    state, events = play(state, step(2, N))
    assert killed(list(events)) == [(4, pb.CAUSE_TRAMPLED)] and where(state, 2) == (6, 5)


def test_elephants_meeting_head_to_head_both_die_an_elephant_from_behind_is_trampled() -> None:
    board = elephant_field()
    board.put(ELEPHANT, A, 4, 5, N)  # 2
    board.put(ELEPHANT, D, 5, 5, S)  # 3: faces it
    board.put(ELEPHANT, A, 4, 2, N)  # 4
    board.put(ELEPHANT, D, 5, 2, N)  # 5: shows its back
    state = board.turn(A, 1)
    state, events = play(state, step(2, N))
    assert killed(list(events)) == [(3, pb.CAUSE_ELEPHANTS_MET), (2, pb.CAUSE_ELEPHANTS_MET)]
    state, events = play(state, step(4, N))
    assert killed(list(events)) == [(5, pb.CAUSE_TRAMPLED)] and where(state, 4) == (5, 2)


def test_trampling_a_ram_or_a_tower_kills_the_crew_too() -> None:
    board = elephant_field()
    board.put(ELEPHANT, D, 6, 5, S)  # 2
    board.put(RAM, A, 5, 5, N)  # 3
    board.put(SWORDSMEN, A, 5, 5, N, crew_of=3)  # 4
    board.put(TOWER, A, 4, 5, N)  # 5
    board.put(SWORDSMEN, A, 4, 5, N, crew_of=5)  # 6
    state = board.turn(D, 1)
    state.units[6].stack = 1
    state, events = play(state, step(2, S))
    assert killed(list(events)) == [(4, pb.CAUSE_TRAMPLED), (3, pb.CAUSE_TRAMPLED)]
    state, events = play(state, step(2, S))
    assert killed(list(events)) == [(5, pb.CAUSE_TRAMPLED), (6, pb.CAUSE_TOWER_DESTROYED)]


def test_an_elephant_never_steps_onto_a_wall() -> None:
    board = elephant_field()
    board.put(ELEPHANT, A, 8, 3, N)  # 2
    board.put(SWORDSMEN, D, 9, 3, S)  # 3: on the wall
    state = board.turn(A, 1)
    assert N not in steps_of(state, 2)


def test_a_failed_front_save_panics_then_it_dies() -> None:
    """KK-82: die 1-2 left: three spaces west of an Elephant facing north,
    killing what it meets, then it dies (PANIC)."""
    state = position(
        unit(SWORDSMEN, D, 6, 5, S),  # 0: attacks its front
        unit(ELEPHANT, A, 5, 5, N),  # 1
        unit(ARCHER, A, 5, 3, N),  # 2: in the way
        unit(SWORDSMEN, D, 5, 1, N),  # 3: beyond three spaces
        unit(KNIGHT, A, 0, 0, N),
        turn=D,
    )
    events = hit(state, 1, 0, 5, 5, Dice(3, 5, 2))
    rolls = dice_rolled(events)
    assert [(d.purpose, d.target_unit) for d in rolls] == [(HIT, 1), (SAVE, 1), (PANIC, 1)]
    assert rolls[1].face == pb.FACE_FRONT and rolls[1].needed == 4
    panicked = [e.panicked for e in events if e.HasField("panicked")]
    assert [p.direction for p in panicked] == [pb.DIRECTION_WEST]
    assert killed(events) == [(2, pb.CAUSE_TRAMPLED), (1, pb.CAUSE_PANIC)]
    assert where(state, 1) == (5, 2) and state.units[3].status == ON_FIELD


def test_panic_right_and_back_and_it_stops_before_a_wall() -> None:
    """KK-82: 3-4 right, 5-6 back; it stops before a wall, the gate, the door,
    the edge or a space out of play."""
    right = position(
        unit(SWORDSMEN, D, 6, 5, S), unit(ELEPHANT, A, 5, 5, N), unit(KNIGHT, A, 0, 0, N), turn=D
    )
    hit(right, 1, 0, 5, 5, Dice(1, 6, 4))
    assert where(right, 1) == (5, 8)
    back = position(
        unit(SWORDSMEN, D, 6, 5, S), unit(ELEPHANT, A, 5, 5, N), unit(KNIGHT, A, 0, 0, N), turn=D
    )
    hit(back, 1, 0, 5, 5, Dice(1, 6, 6))
    assert where(back, 1) == (2, 5)
    walled = position(
        unit(SWORDSMEN, D, 8, 4, W),
        unit(ELEPHANT, A, 8, 3, E),  # its left is north: the wall at (9,3)
        unit(KNIGHT, A, 0, 0, N),
        turn=D,
    )
    events = hit(walled, 1, 0, 8, 3, Dice(1, 6, 1))
    assert where(walled, 1) == (8, 3) and "stepped" not in kinds(events)
    edge = position(
        unit(SWORDSMEN, D, 1, 5, S), unit(ELEPHANT, A, 0, 5, N), unit(KNIGHT, A, 0, 0, N), turn=D
    )
    hit(edge, 1, 0, 0, 5, Dice(1, 6, 5))
    assert where(edge, 1) == (0, 5) and edge.units[1].status == DEAD


def test_a_failed_side_or_back_save_kills_without_panic() -> None:
    state = position(
        unit(SWORDSMEN, D, 5, 6, W), unit(ELEPHANT, A, 5, 5, N), unit(KNIGHT, A, 0, 0, N), turn=D
    )
    events = hit(state, 1, 0, 5, 5, Dice(1, 6))
    assert dice_rolled(events)[1].face == pb.FACE_RIGHT and dice_rolled(events)[1].needed == 5
    assert killed(events) == [(1, pb.CAUSE_ATTACK)] and "panicked" not in kinds(events)


def test_no_defence_roll_against_siege_engines_and_no_panic() -> None:
    """KK-83: a Catapult's hit kills it outright."""
    state = position(
        unit(CATAPULT, D, 9, 5, S, level=None),
        unit(ELEPHANT, A, 5, 5, N),
        unit(KNIGHT, A, 0, 0, N),
        turn=D,
    )
    events = hit(state, 1, 0, 5, 5, Dice(1))
    assert killed(events) == [(1, pb.CAUSE_ATTACK)] and "panicked" not in kinds(events)


def test_its_attack_kills_a_cavalry_and_a_tower_without_a_roll() -> None:
    """KK-77 ("If a Cavalry unit is hit by Siege Engines or War Elephants it is
    killed instantly without converting"), KK-98."""
    cavalry = position(unit(ELEPHANT, A, 4, 5, N), unit(CAVALRY, D, 5, 5, S))
    events = hit(cavalry, 0, 0, 5, 5, Dice(6))
    assert [d.purpose for d in dice_rolled(events)] == [HIT]
    assert attacked(events).value == 6 and killed(events) == [(1, pb.CAUSE_ATTACK)]
    tower = position(
        unit(ELEPHANT, D, 5, 5, S),
        unit(TOWER, A, 4, 5, N),
        unit(SWORDSMEN, A, 4, 5, N, crew_of=1),
        turn=D,
    )
    tower.units[2].stack = 1
    events = hit(tower, 1, 0, 4, 5, Dice(6))
    assert [d.purpose for d in dice_rolled(events)] == [HIT]
    assert killed(events) == [(1, pb.CAUSE_ATTACK), (2, pb.CAUSE_TOWER_DESTROYED)]


def test_the_gate_and_the_door_roll_their_saves_against_it() -> None:
    """KK-58, KK-84: the attacker's Elephant attacks the gate (6, the gate saves
    on 3) and the King's Door (2, the door saves on 2)."""
    gate = position(unit(ELEPHANT, A, 8, 5, N))
    assert targets(attack_moves(gate, field(gate), 0)) == [(0, GATE.row, GATE.col)]
    events = hit(gate, 0, 0, GATE.row, GATE.col, Dice(6, 3))
    assert [d.purpose for d in dice_rolled(events)] == [HIT, pb.DIE_PURPOSE_GATE_SAVE]
    assert not gate.gates[0].destroyed
    door = position(unit(ELEPHANT, A, 14, 5, N), ruins=((9, 5),))
    events = hit(door, 0, 0, DOOR.row, DOOR.col, Dice(2, 3))
    assert attacked(events).value == 2 and door.door_destroyed


def test_with_the_beastmaster_an_elephant_survives_its_panic() -> None:
    """KK-109: it stays where the panic left it."""
    state = position(
        unit(SWORDSMEN, D, 6, 5, S),
        unit(ELEPHANT, A, 5, 5, N),
        unit(BEASTMASTER, A, 0, 0, N),
        turn=D,
    )
    events = hit(state, 1, 0, 5, 5, Dice(1, 6, 1))
    assert killed(events) == [] and where(state, 1) == (5, 2)
    assert state.units[1].status == ON_FIELD


def test_the_beastmaster_killed_every_elephant_of_his_panics_and_dies() -> None:
    """KK-109: each friendly Elephant panics (its die, its run), then dies
    (BEASTMASTER_DIED); the enemy's Elephants stay."""
    state = position(
        unit(BEASTMASTER, A, 0, 0, N),  # 0
        unit(ELEPHANT, A, 4, 5, N),  # 1
        unit(ELEPHANT, A, 6, 9, S),  # 2: its back is north, the wall at (9,9)
        unit(ELEPHANT, D, 12, 5, S),  # 3
        unit(SWORDSMEN, A, 4, 6, N),  # 4: right of elephant 1
    )
    events: list[Event] = []
    dice = Dice(3, 5)
    kill_unit(state, state.units[0], pb.CAUSE_ATTACK, -1, events, dice)
    assert dice.left == []
    assert killed(events) == [
        (0, pb.CAUSE_ATTACK),
        (4, pb.CAUSE_TRAMPLED),
        (1, pb.CAUSE_BEASTMASTER_DIED),
        (2, pb.CAUSE_BEASTMASTER_DIED),
    ]
    assert where(state, 1) == (4, 8) and where(state, 2) == (8, 9)
    assert state.units[3].status == ON_FIELD
