"""Siege combat (docs/rules/kill_the_king.md KK-50..KK-58, KK-67, KK-91, KK-92,
KK-110..KK-116): the Catapult's cross (Image 10), walls and the gate falling to
rubble, the Battering Ram, the King's Door."""

from __future__ import annotations

from throneroom.games.kill_the_king.board import Terrain
from throneroom.games.kill_the_king.data import UnitType
from throneroom.v1 import kill_the_king_pb2 as pb
from throneroom_server.games.kill_the_king.combat import apply_attack, attack_moves

from tests.games.kill_the_king.combat_positions import (
    DOOR,
    GATE,
    A,
    D,
    Dice,
    E,
    Event,
    N,
    S,
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
CAVALRY, RAM, CATAPULT = UnitType.CAVALRY, UnitType.BATTERING_RAM, UnitType.CATAPULT
KNIGHT = UnitType.KNIGHT
HIT, SAVE = pb.DIE_PURPOSE_HIT, pb.DIE_PURPOSE_SAVE
WALL_SAVE, GATE_SAVE, DOOR_SAVE = (
    pb.DIE_PURPOSE_WALL_SAVE,
    pb.DIE_PURPOSE_GATE_SAVE,
    pb.DIE_PURPOSE_DOOR_SAVE,
)
DEAD, ON_FIELD = pb.KillTheKingUnit.STATUS_DEAD, pb.KillTheKingUnit.STATUS_ON_FIELD


def play(  # noqa: PLR0917 (a test's one call shape)
    state: pb.KillTheKingState, seat: int, unit_id: int, row: int, col: int, dice: Dice
) -> list[Event]:
    events: list[Event] = []
    apply_attack(state, field(state), seat, attack(unit_id, row, col), dice, events)
    assert dice.left == [], "every die the test gave is rolled"
    return events


def test_s15_image_10_the_catapult_cross() -> None:
    """S15 (KK-67): three spaces between the Catapult and the centre; one die per
    unit in the cross: 1-5 hits at the centre, 1-4 on the neighbours; no saves; a
    Cavalry hit dies without flipping; a friend in the cross is hit too."""
    state = position(
        unit(CATAPULT, A, 2, 5, N),  # 0: (3,5), (4,5), (5,5) between it and (6,5)
        unit(SWORDSMEN, D, 6, 5, S),  # 1: centre
        unit(SPEARMEN, D, 7, 5, S),  # 2: north
        unit(ARCHER, D, 6, 6, S),  # 3: east
        unit(CAVALRY, D, 5, 5, S),  # 4: south
        unit(SWORDSMEN, A, 6, 4, N),  # 5: west, the attacker's own
    )
    events = play(state, 0, 0, 6, 5, Dice(5, 5, 4, 2, 1))
    rolls = dice_rolled(events)
    assert [(d.purpose, d.target_unit, d.needed, d.success) for d in rolls] == [
        (HIT, 1, 5, True),
        (HIT, 2, 4, False),
        (HIT, 3, 4, True),
        (HIT, 4, 4, True),
        (HIT, 5, 4, True),
    ]
    assert killed(events) == [(u, pb.CAUSE_ATTACK) for u in (1, 3, 4, 5)]
    assert "flipped" not in kinds(events) and "unit_saved" not in kinds(events)
    assert list(attacked(events).target_units) == [1, 2, 3, 4, 5]
    assert state.units[4].type == CAVALRY and state.units[4].status == DEAD


def test_s16_catapult_against_the_gate() -> None:
    """S16 (KK-50, KK-58): 5 - 1 = 4 to hit, the gate saves on 3; destroyed: the unit
    above dies without a roll, the space is rubble (grass) and the gate is gone;
    the wall spaces beside it are not attacked."""
    state = position(
        unit(CATAPULT, A, 4, 5, N),  # 0: the gate at distance 5
        unit(ARCHER, D, 9, 5, S),  # 1: above the gate
        unit(SWORDSMEN, D, 10, 5, S),  # 2: behind the gate: a neighbour
        unit(SWORDSMEN, D, 9, 4, S),  # 3: on the wall beside it: not attacked
    )
    events = play(state, 0, 0, 9, 5, Dice(4, 4, 6))
    hit, gate_save, neighbour = dice_rolled(events)
    assert (hit.purpose, hit.needed, hit.success, hit.target_unit) == (HIT, 4, True, -1)
    assert (gate_save.purpose, gate_save.needed, gate_save.success) == (GATE_SAVE, 3, False)
    assert gate_save.seat == 1
    assert (neighbour.target_unit, neighbour.needed, neighbour.success) == (2, 4, False)
    assert kinds(events)[3:5] == ["gate_destroyed", "unit_killed"]
    assert killed(events) == [(1, pb.CAUSE_RUIN)]
    assert state.gates[0].destroyed and [(r.square.row, r.square.col) for r in state.ruins] == [
        (9, 5)
    ]
    assert state.units[3].status == ON_FIELD
    rubble = field(state).space(*GATE)
    assert rubble.terrain is Terrain.GRASS and rubble.rubble


def test_the_gate_saves_on_3() -> None:
    state = position(unit(CATAPULT, A, 4, 5, N), unit(ARCHER, D, 9, 5, S))
    events = play(state, 0, 0, 9, 5, Dice(1, 3))
    assert not state.gates[0].destroyed and not state.ruins and killed(events) == []
    assert state.units[1].status == ON_FIELD
    assert targets(attack_moves(state, field(state), 0)) == [], "one attack per turn"


def test_catapult_destroys_a_wall_and_kills_the_unit_on_it() -> None:
    """KK-50, KK-53: a wall defends on 4; when it falls every unit on it dies
    without a roll (RUIN), then the neighbours are rolled for (the friend beneath
    too). The wall is rubble: it is no wall any more (KK-52)."""
    state = position(
        unit(CATAPULT, A, 6, 3, N),  # 0: the wall (9,3) at distance 3
        unit(SPEARMEN, D, 9, 3, S),  # 1: on it
        unit(SWORDSMEN, D, 10, 3, S),  # 2: north neighbour
        unit(SWORDSMEN, A, 8, 3, N),  # 3: south neighbour
        unit(SWORDSMEN, D, 9, 2, S),  # 4: west neighbour, a wall space: not attacked
    )
    events = play(state, 0, 0, 9, 3, Dice(4, 5, 3, 5))
    rolls = dice_rolled(events)
    assert [(d.purpose, d.target_unit, d.needed, d.success) for d in rolls] == [
        (HIT, -1, 4, True),
        (WALL_SAVE, -1, 4, False),
        (HIT, 2, 4, True),
        (HIT, 3, 4, False),
    ]
    assert killed(events) == [(1, pb.CAUSE_RUIN), (2, pb.CAUSE_ATTACK)]
    assert events[3].wall_destroyed.square == pb.Square(row=9, col=3)
    assert state.units[4].status == ON_FIELD
    assert not field(state).space(9, 3).is_wall


def test_a_wall_that_saves_stands_and_its_unit_lives() -> None:
    state = position(unit(CATAPULT, A, 6, 3, N), unit(SPEARMEN, D, 9, 3, S))
    events = play(state, 0, 0, 9, 3, Dice(2, 4))
    assert dice_rolled(events)[1].success and killed(events) == [] and not state.ruins


def test_catapult_hitting_a_manned_ram_kills_the_crew() -> None:
    """KK-92: hit by a Catapult, the crew is killed at once and the Ram stays."""
    state = position(
        unit(CATAPULT, D, 12, 5, S),  # 0: the defender's, inside, over the gate
        unit(RAM, A, 8, 5, N),  # 1
        unit(SWORDSMEN, A, 8, 5, N, crew_of=1),  # 2
        turn=D,
    )
    events = play(state, 1, 0, 8, 5, Dice(4))
    event = attacked(events)
    assert list(event.modifiers) == [pb.ATTACK_MODIFIER_OVER_WALL] and event.value == 4
    assert killed(events) == [(2, pb.CAUSE_CREW_OF_RAM)]
    assert state.units[1].status == ON_FIELD


def test_the_ram_breaks_the_gate() -> None:
    """KK-58, KK-91: a manned Ram attacks the gate at 3; the gate saves on 3; the
    unit above it dies when it falls."""
    state = position(
        unit(RAM, A, 8, 5, N),
        unit(SWORDSMEN, A, 8, 5, N, crew_of=0),
        unit(SWORDSMEN, D, 9, 5, S),
    )
    events = play(state, 0, 0, 9, 5, Dice(3, 4))
    assert [(d.purpose, d.needed) for d in dice_rolled(events)] == [(HIT, 3), (GATE_SAVE, 3)]
    assert killed(events) == [(2, pb.CAUSE_RUIN)] and state.gates[0].destroyed
    assert targets(attack_moves(state, field(state), 0)) == []


def test_s19_the_door_falls_and_the_attacker_has_won() -> None:
    """S19, KK-113, KK-114, KK-116: the manned Ram at the door with support: 5 + 2;
    the door saves on 2; failed, it is destroyed (the engine ends the game)."""
    state = position(
        unit(RAM, A, 14, 5, N),
        unit(SWORDSMEN, A, 14, 5, N, crew_of=0),
        unit(SWORDSMEN, A, 14, 4, N),
        unit(SPEARMEN, A, 14, 6, N),
        unit(KNIGHT, A, 13, 5, N),
    )
    assert (0, DOOR.row, DOOR.col) in targets(attack_moves(state, field(state), 0))
    events = play(state, 0, 0, 15, 5, Dice(6, 3))
    hit, save = dice_rolled(events)
    assert (hit.needed, hit.success, save.purpose, save.needed) == (7, True, DOOR_SAVE, 2)
    assert state.door_destroyed
    assert events[-1].door_destroyed == Event.DoorDestroyed(
        square=pb.Square(row=15, col=5), by_unit=0
    )


def test_the_door_saves_on_2() -> None:
    state = position(unit(SWORDSMEN, A, 15, 4, E))
    events = play(state, 0, 0, 15, 5, Dice(2, 2))
    assert not state.door_destroyed and kinds(events)[-1] == "die_rolled"
    state = position(unit(SWORDSMEN, A, 15, 4, E))
    events = play(state, 0, 0, 15, 5, Dice(3))
    assert len(dice_rolled(events)) == 1, "a miss: the door does not roll"
