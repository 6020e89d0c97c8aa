"""Flaming Pigs (KK-85..KK-87, KK-150..KK-154; Images 8 and 9, scenario S21):
free extras, where they are placed, forward only and at least one space a
turn, the explosion on any player's turn, what it spares, the gate's save,
the Elephant's panic, the end of the map and walls, attacks on pigs, chains
in order."""

from __future__ import annotations

from throneroom.games.kill_the_king.board import Coord
from throneroom.games.kill_the_king.data import Mode, Side, UnitType
from throneroom.games.kill_the_king.field import setup_squares
from throneroom.v1 import kill_the_king_pb2 as pb
from throneroom_server.games.kill_the_king import combat_deaths
from throneroom_server.games.kill_the_king.combat import apply_attack, attack_moves

from tests.games.kill_the_king.combat_positions import (
    Dice,
    attack,
    dice_rolled,
    field,
    killed,
    kinds,
    position,
    unit,
)
from tests.games.kill_the_king.positions import (
    END,
    A,
    D,
    E,
    Field,
    N,
    S,
    legal,
    play,
    rotate,
    step,
    steps_of,
)
from tests.games.kill_the_king.test_advanced_setup import KTK_ADV
from tests.games.kill_the_king.test_setup import after_sides, buy

State = pb.KillTheKingState
Event = pb.KillTheKingEvent
PIG, SWORDSMEN, ARCHER = UnitType.FLAMING_PIGS, UnitType.SWORDSMEN, UnitType.ARCHER
CAVALRY, KNIGHT, TOWER = UnitType.CAVALRY, UnitType.KNIGHT, UnitType.SIEGE_TOWER
ELEPHANT, RAM = UnitType.WAR_ELEPHANT, UnitType.BATTERING_RAM
DEAD, ON_FIELD = pb.KillTheKingUnit.STATUS_DEAD, pb.KillTheKingUnit.STATUS_ON_FIELD
EXPLOSION = pb.CAUSE_EXPLOSION


def detonate(state: State, dice: Dice) -> list[Event]:
    events: list[Event] = []
    combat_deaths.detonate(state, dice, events)
    assert dice.left == [], "every die the test gave is rolled"
    return events


def exploded(events: list[Event]) -> list[int]:
    return [e.pigs_exploded.unit for e in events if e.HasField("pigs_exploded")]


def pig_field() -> Field:
    board = Field()
    board.put(KNIGHT, A, 0, 0, N)  # 0
    board.put(KNIGHT, D, 13, 5, N)  # 1
    return board


def test_two_more_pigs_come_free_with_each_one_bought() -> None:
    """KK-85, KK-17."""
    state = after_sides(KTK_ADV)
    state, events = play(state, buy(PIG))
    bought = events[0].unit_bought
    assert bought.cost == 3 and len(bought.unit_ids) == 3
    assert [state.units[i].free for i in bought.unit_ids] == [False, True, True]


def test_image_8_where_pigs_are_placed() -> None:
    """KK-24, KK-85: the attacker's fourth row; the defender of the castle also
    on the first row outside the walls."""
    attacker = setup_squares(Mode.KILL_THE_KING, Side.ATTACKER, PIG)
    assert Coord(3, 5) in attacker and Coord(4, 5) not in attacker
    defender = setup_squares(Mode.KILL_THE_KING, Side.DEFENDER, PIG)
    assert {Coord(8, 1), Coord(8, 9), Coord(12, 0), Coord(12, 10)} <= defender
    assert Coord(7, 5) not in defender
    assert Coord(8, 1) not in setup_squares(Mode.KILL_THE_KING, Side.DEFENDER, SWORDSMEN)


def test_forward_only_never_turning_and_at_least_one_space_a_turn() -> None:
    """KK-86: its only steps are forward; it never rotates; the movement phase
    does not end before it has moved."""
    board = pig_field()
    board.put(PIG, A, 3, 5, N)  # 2
    state = board.turn(A, 1)
    assert steps_of(state, 2) == {N}
    assert rotate(2, E) not in legal(state) and END not in legal(state)
    state, _ = play(state, step(2, N))
    assert END in legal(state) and steps_of(state, 2) == {N}
    state, _ = play(state, step(2, N))
    state, _ = play(state, step(2, N))  # movement 3 in all
    assert state.units[2].square.row == 6 and steps_of(state, 2) == set()


def test_s21_image_9_a_unit_moving_next_to_a_pig_sets_it_off() -> None:
    """KK-87: on the other side's turn; every unit on the ground next to it dies
    (a Cavalry without flipping), its own side's too; a tower is spared."""
    board = pig_field()
    board.put(PIG, D, 6, 5, S)  # 2
    board.put(SWORDSMEN, A, 4, 5, N)  # 3: will step next to it
    board.put(CAVALRY, D, 7, 5, N)  # 4: behind it, its own side
    board.put(TOWER, A, 6, 4, N)  # 5
    board.put(ARCHER, A, 2, 2, N)  # 6: far away
    state = board.turn(A, 1)
    state, events = play(state, step(3, N))
    assert exploded(list(events)) == [2]
    assert killed(list(events)) == [(2, EXPLOSION), (3, EXPLOSION), (4, EXPLOSION)]
    assert "flipped" not in kinds(list(events))
    assert state.units[5].status == ON_FIELD and state.units[6].status == ON_FIELD


def test_the_gate_saves_on_1_to_3_units_on_the_wall_are_above_it() -> None:
    """KK-87: "The explosion only occurs on the ground level"; the gate rolls."""
    state = position(
        unit(PIG, A, 8, 5, N),  # 0: before the gate
        unit(TOWER, A, 8, 6, N),  # 1: sets it off, spared
        unit(ARCHER, D, 9, 5, S),  # 2: above the gate
        unit(SWORDSMEN, D, 9, 4, S),  # 3: on the wall next to it
    )
    events = detonate(state, Dice(3))
    assert [d.purpose for d in dice_rolled(events)] == [pb.DIE_PURPOSE_GATE_SAVE]
    assert killed(events) == [(0, EXPLOSION)] and not state.gates[0].destroyed
    state = position(unit(PIG, A, 8, 5, N), unit(TOWER, A, 8, 6, N), unit(ARCHER, D, 9, 5, S))
    events = detonate(state, Dice(4))
    assert state.gates[0].destroyed
    assert killed(events) == [(0, EXPLOSION), (2, pb.CAUSE_RUIN)]


def test_a_pig_running_into_a_wall_or_off_the_map_explodes() -> None:
    """KK-86: its forward step there is its explosion."""
    board = pig_field()
    board.put(PIG, A, 8, 3, N)  # 2: the wall at (9,3) ahead
    board.put(SWORDSMEN, D, 9, 3, S)  # 3: on the wall: spared
    board.put(PIG, A, 0, 7, S)  # 4: the attacker's edge behind it
    state = board.turn(A, 1)
    assert steps_of(state, 2) == {N} and steps_of(state, 4) == {S}
    state, events = play(state, step(2, N))
    assert exploded(list(events)) == [2] and killed(list(events)) == [(2, EXPLOSION)]
    state, events = play(state, step(4, S))
    assert exploded(list(events)) == [4]


def test_an_explosion_next_to_an_elephant_makes_it_panic() -> None:
    state = position(
        unit(PIG, D, 5, 5, S),  # 0
        unit(ELEPHANT, A, 4, 5, N),  # 1: its back is south
        unit(KNIGHT, A, 0, 0, N),  # 2
    )
    events = detonate(state, Dice(5))  # back: south, three spaces
    assert "panicked" in kinds(events)
    assert killed(events) == [(0, EXPLOSION), (1, pb.CAUSE_PANIC)]
    assert state.units[1].square.row == 1


def test_a_pig_hit_by_an_attack_explodes() -> None:
    """KK-87: "successfully attacked": an Archer's hit (defence 0: the save fails)."""
    state = position(
        unit(ARCHER, A, 3, 5, N),  # 0
        unit(PIG, D, 6, 5, S),  # 1
        unit(SWORDSMEN, D, 7, 5, S),  # 2 next to it
    )
    assert attack(0, 6, 5) in attack_moves(state, field(state), 0)
    events: list[Event] = []
    apply_attack(state, field(state), 0, attack(0, 6, 5), Dice(1, 1), events)
    assert exploded(events) == [1]
    assert killed(events) == [(1, EXPLOSION), (2, EXPLOSION)]


def test_chains_explode_in_order() -> None:
    """KK-151: the lowest id first; each pig it catches explodes after it, in
    id order."""
    state = position(
        unit(PIG, A, 5, 6, N),  # 0
        unit(PIG, A, 5, 5, N),  # 1
        unit(PIG, A, 5, 4, N),  # 2
        unit(SWORDSMEN, D, 6, 6, S),  # 3 next to pig 0
        unit(SWORDSMEN, D, 6, 4, S),  # 4 next to pig 2
        unit(ARCHER, D, 5, 3, S),  # 5 next to pig 2
    )
    events = detonate(state, Dice())
    assert exploded(events) == [0, 1, 2]
    assert killed(events) == [
        (0, EXPLOSION),
        (3, EXPLOSION),
        (1, EXPLOSION),
        (2, EXPLOSION),
        (4, EXPLOSION),
        (5, EXPLOSION),
    ]
    assert [e.unit_killed.by_unit for e in events if e.HasField("unit_killed")] == [
        -1,
        0,
        0,
        1,
        2,
        2,
    ]


def test_a_manned_ram_next_to_an_explosion_dies_with_its_crew() -> None:
    state = position(
        unit(PIG, D, 5, 5, S), unit(RAM, A, 4, 5, N), unit(SWORDSMEN, A, 4, 5, N, crew_of=1)
    )
    events = detonate(state, Dice())
    assert killed(events) == [(0, EXPLOSION), (2, EXPLOSION), (1, EXPLOSION)]


def test_pigs_never_attack() -> None:
    state = position(unit(PIG, A, 4, 5, N), unit(SWORDSMEN, D, 6, 5, S))
    assert attack_moves(state, field(state), 0) == []


def test_a_pig_facing_the_gate_explodes_and_the_kings_door_is_never_hit() -> None:
    """KK-87, KK-152: its forward step into the gate is its explosion, the gate
    rolls its save; next to the King's Door nothing happens to the door."""
    board = pig_field()
    board.put(PIG, A, 8, 5, N)  # 2: the gate ahead
    state = board.turn(A, 1)
    assert steps_of(state, 2) == {N}
    state, events = play(state, step(2, N))
    assert exploded(list(events)) == [2]
    assert [d.purpose for d in dice_rolled(list(events))] == [pb.DIE_PURPOSE_GATE_SAVE]
    door = position(unit(PIG, A, 14, 5, N), unit(KNIGHT, A, 0, 0, N))
    events = []
    combat_deaths.explode(door, door.units[0], Dice(), events)
    assert killed(events) == [(0, EXPLOSION)] and not door.door_destroyed
    assert dice_rolled(events) == []


def test_pigs_with_a_neighbour_explode_right_after_the_reveal() -> None:
    """KK-27, KK-150: the attacker's last placement sets its own pig off at the
    reveal, before its first decision."""
    board = pig_field()
    board.put(PIG, A, 3, 5, N)  # 2
    board.put(SWORDSMEN, A, 0, 9, N)  # 3: still to place
    board.put(ARCHER, A, 0, 8, N)  # 4
    state = board.state(State.PHASE_PLACEMENT)
    state.units[3].status = pb.KillTheKingUnit.STATUS_RESERVE
    state.units[3].ClearField("square")
    state.seats[1].placed = True
    place = pb.KillTheKingMove(
        place=pb.KillTheKingMove.Place(
            unit=3, square=pb.Square(row=2, col=5), facing=pb.DIRECTION_NORTH
        )
    )
    state, events = play(state, place, 0)
    kinds_seen = kinds(list(events))
    assert kinds_seen.index("placement_revealed") < kinds_seen.index("pigs_exploded")
    assert killed(list(events)) == [(2, EXPLOSION), (3, EXPLOSION)]
    assert state.round == 1 and state.phase == State.PHASE_MOVEMENT
