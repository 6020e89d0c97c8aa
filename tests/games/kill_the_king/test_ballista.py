"""The Ballista (KK-94, KK-133, KK-134; Image 11): the line 3-6 ahead on one
level the side chooses, -1 at wall tops, the gate but never walls or the
King's Door, no move-and-attack, no defence roll for Elephants, Towers and
Cavalry, a manned Ram's crew killed, +1 movement on the road, on the wall at setup."""

from __future__ import annotations

from throneroom.games.kill_the_king.board import Coord
from throneroom.games.kill_the_king.data import Level, Mode, Side, UnitType
from throneroom.games.kill_the_king.field import setup_squares
from throneroom.v1 import kill_the_king_pb2 as pb
from throneroom_server.games.kill_the_king.combat import apply_attack, attack_moves

from tests.games.kill_the_king.combat_positions import (
    A,
    D,
    Dice,
    E,
    Event,
    Move,
    N,
    S,
    attacked,
    dice_rolled,
    field,
    killed,
    kinds,
    position,
    unit,
)
from tests.games.kill_the_king.positions import Field, legal, play, rotate, steps_of

BALLISTA, SWORDSMEN, ARCHER = UnitType.BALLISTA, UnitType.SWORDSMEN, UnitType.ARCHER
CAVALRY, RAM, KNIGHT = UnitType.CAVALRY, UnitType.BATTERING_RAM, UnitType.KNIGHT
HIT, SAVE, GATE_SAVE = pb.DIE_PURPOSE_HIT, pb.DIE_PURPOSE_SAVE, pb.DIE_PURPOSE_GATE_SAVE
DEAD, ON_FIELD = pb.KillTheKingUnit.STATUS_DEAD, pb.KillTheKingUnit.STATUS_ON_FIELD
GROUND, WALL = pb.LEVEL_GROUND, pb.LEVEL_WALL


def bolt(uid: int, row: int, col: int, level: pb.Level.ValueType) -> Move:
    return Move(attack=Move.Attack(unit=uid, target=pb.Square(row=row, col=col), level=level))


def shoot(state: pb.KillTheKingState, seat: int, move: Move, dice: Dice) -> list[Event]:
    events: list[Event] = []
    apply_attack(state, field(state), seat, move, dice, events)
    assert dice.left == [], "every die the test gave is rolled"
    return events


def test_image_11_one_level_of_the_line_3_to_6_ahead() -> None:
    """KK-94: a Ballista at (4,5) facing north reaches rows 7-10; the wall level
    (the gate's upper level at (9,5), the wall walk) or the ground (row 7-8,
    the castle road at 10), not both; stairs would be on both."""
    state = position(
        unit(BALLISTA, A, 4, 5, N),  # 0
        unit(SWORDSMEN, D, 5, 5, S),  # 1: distance 1: never
        unit(SWORDSMEN, D, 7, 5, S),  # 2: ground, distance 3
        unit(SWORDSMEN, A, 8, 5, S),  # 3: a friend: passed over
        unit(ARCHER, D, 9, 5, S),  # 4: above the gate: wall level
        unit(SWORDSMEN, D, 10, 5, S),  # 5: ground inside, distance 6
        unit(SWORDSMEN, D, 11, 5, S),  # 6: distance 7: out of range
    )
    moves = [m for m in attack_moves(state, field(state), 0) if m.attack.unit == 0]
    assert moves == [bolt(0, 7, 5, GROUND), bolt(0, 7, 5, WALL)]
    ground = shoot(state, 0, bolt(0, 7, 5, GROUND), Dice(3, 4, 2, 1, 6))
    rolls = dice_rolled(ground)
    assert [(d.purpose, d.target_unit, d.needed) for d in rolls] == [
        (HIT, 2, 3),
        (SAVE, 2, 3),  # hit on its front: it faces the Ballista
        (HIT, -1, 3),  # the gate, on the ground level
        (GATE_SAVE, -1, 3),
        (HIT, 5, 3),
    ]
    assert attacked(ground).level == GROUND and list(attacked(ground).target_units) == [2, 5]
    assert killed(ground) == [(2, pb.CAUSE_ATTACK)]
    assert state.units[4].status == ON_FIELD and state.units[5].status == ON_FIELD


def test_units_on_the_wall_at_minus_one() -> None:
    state = position(unit(BALLISTA, A, 4, 5, N), unit(ARCHER, D, 9, 5, S))
    events = shoot(state, 0, bolt(0, 7, 5, WALL), Dice(2, 5))
    a = attacked(events)
    assert a.value == 2 and list(a.modifiers) == [pb.ATTACK_MODIFIER_AT_WALL_TOP]
    assert [(d.needed, d.success) for d in dice_rolled(events)] == [(2, True), (1, False)]
    assert killed(events) == [(1, pb.CAUSE_ATTACK)]


def test_stairs_are_on_both_levels_without_penalty() -> None:
    state = position(unit(BALLISTA, A, 7, 2, N), unit(SWORDSMEN, D, 10, 2, S))
    moves = attack_moves(state, field(state), 0)
    assert moves == [bolt(0, 10, 2, GROUND), bolt(0, 10, 2, WALL)]
    events = shoot(state, 0, bolt(0, 10, 2, WALL), Dice(3, 1))
    assert attacked(events).value == 3 and not attacked(events).modifiers


def test_never_walls_nor_the_door_and_the_defenders_never_the_gate() -> None:
    """KK-94: "Cannot attack the King's Door or destroy walls but can attack the
    wall gate"; the gate is the defender's own (KK-58)."""
    walls = position(unit(BALLISTA, A, 5, 3, N))  # rows 8-11 of column 3: wall at 9
    assert attack_moves(walls, field(walls), 0) == []
    door = position(unit(BALLISTA, A, 11, 5, N), unit(SWORDSMEN, A, 10, 4, N))
    assert attack_moves(door, field(door), 0) == []
    own_gate = position(unit(BALLISTA, D, 12, 5, S), turn=D)
    assert attack_moves(own_gate, field(own_gate), 1) == []


def test_the_gate_falls_to_the_bolt() -> None:
    state = position(unit(BALLISTA, A, 6, 5, N))
    assert attack_moves(state, field(state), 0) == [bolt(0, 9, 5, GROUND)]
    events = shoot(state, 0, bolt(0, 9, 5, GROUND), Dice(3, 4))
    assert "gate_destroyed" in kinds(events) and state.gates[0].destroyed


def test_no_defence_roll_for_an_elephant_a_tower_or_a_cavalry_a_rams_crew_dies() -> None:
    """KK-83, KK-92, KK-98: siege engines hit War Elephants and Siege Towers
    without a save (no panic); a manned Ram loses its crew; a Cavalry is removed
    on the hit, without a save or a flip (KK-77: "If hit by Siege Engines, the
    unit is immediately removed from the game without flipping")."""
    state = position(
        unit(BALLISTA, D, 10, 5, S, level=Level.GROUND),  # 0
        unit(UnitType.WAR_ELEPHANT, A, 7, 5, N),  # 1
        unit(UnitType.SIEGE_TOWER, A, 6, 5, N),  # 2
        unit(SWORDSMEN, A, 6, 5, N, crew_of=2),  # 3
        unit(RAM, A, 5, 5, N),  # 4
        unit(SWORDSMEN, A, 5, 5, N, crew_of=4),  # 5
        unit(CAVALRY, A, 4, 5, N),  # 6
        turn=D,
    )
    state.ClearField("gates")  # a defender's Ballista behind its gate: leave the gate out
    events = shoot(state, 1, bolt(0, 7, 5, GROUND), Dice(1, 1, 1, 1))
    assert [(d.purpose, d.target_unit) for d in dice_rolled(events)] == [
        (HIT, 1),
        (HIT, 2),
        (HIT, 4),
        (HIT, 6),
    ]
    assert killed(events) == [
        (1, pb.CAUSE_ATTACK),
        (2, pb.CAUSE_ATTACK),
        (3, pb.CAUSE_TOWER_DESTROYED),
        (5, pb.CAUSE_CREW_OF_RAM),
        (6, pb.CAUSE_ATTACK),
    ]
    assert "panicked" not in kinds(events) and "flipped" not in kinds(events)
    assert state.units[4].status == ON_FIELD


def test_no_attack_after_moving_and_the_knight_adds_one() -> None:
    moved = position(unit(BALLISTA, A, 4, 4, N, moved=True), unit(SWORDSMEN, D, 7, 4, S))
    assert attack_moves(moved, field(moved), 0) == []
    knight = position(
        unit(BALLISTA, A, 4, 4, N), unit(SWORDSMEN, D, 7, 4, S), unit(KNIGHT, A, 4, 3, N)
    )
    events = shoot(knight, 0, bolt(0, 7, 4, GROUND), Dice(4, 1))
    assert attacked(events).value == 4


def test_archers_cannot_shoot_a_ballista() -> None:
    state = position(unit(ARCHER, D, 7, 5, S), unit(BALLISTA, A, 4, 5, N), turn=D)
    assert attack_moves(state, field(state), 1) == []


def test_the_ballista_moves_two_three_from_the_road_and_turns_for_free() -> None:
    board = Field()
    board.put(BALLISTA, A, 2, 5, N)  # on the road (col 5)
    board.put(BALLISTA, A, 2, 2, N)
    board.put(KNIGHT, A, 0, 0, N)
    board.put(KNIGHT, D, 12, 5, N)
    state = board.turn(A, 1)
    assert state.units[0].bonus_movement == 1 and state.units[1].bonus_movement == 0
    assert steps_of(state, 1) == {N, E, S, pb.DIRECTION_WEST}
    assert rotate(1, E) in legal(state)
    state, events = play(state, rotate(1, E))
    assert events[0].rotated.cost == 0 and not state.units[1].moved


def test_the_defender_places_a_ballista_on_the_wall_where_it_stays() -> None:
    """KK-25: on a wall space or above the gate at setup; immobile there."""
    squares = setup_squares(Mode.KILL_THE_KING, Side.DEFENDER, BALLISTA)
    assert Coord(9, 3) in squares and Coord(9, 5) in squares
    assert Coord(9, 3) not in setup_squares(Mode.KILL_THE_KING, Side.ATTACKER, BALLISTA)
    board = Field()
    board.put(BALLISTA, D, 9, 3, N)
    board.put(KNIGHT, D, 12, 5, N)
    board.put(KNIGHT, A, 0, 0, N)
    state = board.turn(D, 1)
    state.units[0].immobile = True
    assert steps_of(state, 0) == set()
