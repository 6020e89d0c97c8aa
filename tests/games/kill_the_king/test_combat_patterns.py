"""Which attacks exist and how hard they strike (docs/rules/kill_the_king.md KK-34,
KK-48, KK-49, KK-64..KK-74, KK-91, KK-93, KK-106, KK-110..KK-115): the attack
phase's enumeration, unit by unit, with each attack's value and modifiers."""

from __future__ import annotations

from throneroom.games.kill_the_king.board import Coord
from throneroom.games.kill_the_king.data import Face, Level, Mode, UnitType
from throneroom.games.kill_the_king.rules import Save, Scene, Strike, strikes_of
from throneroom.v1 import kill_the_king_pb2 as pb
from throneroom_server.games.kill_the_king.combat import attack_moves

from tests.games.kill_the_king.combat_positions import (
    DOOR,
    GATE,
    A,
    D,
    E,
    N,
    S,
    W,
    field,
    position,
    targets,
    unit,
)

ARCHER, SPEARMEN, SWORDSMEN = UnitType.ARCHER, UnitType.SPEARMEN, UnitType.SWORDSMEN
CAVALRY, RAM, CATAPULT = UnitType.CAVALRY, UnitType.BATTERING_RAM, UnitType.CATAPULT
KNIGHT, RANGER, ENGINEER = UnitType.KNIGHT, UnitType.RANGER, UnitType.ENGINEER
KNIGHT_MOD, CLIMBING = pb.ATTACK_MODIFIER_KNIGHT, pb.ATTACK_MODIFIER_CLIMBING
OVER_WALL, AT_WALL_TOP = pb.ATTACK_MODIFIER_OVER_WALL, pb.ATTACK_MODIFIER_AT_WALL_TOP
WALL_TARGET, DOOR_SUPPORT = pb.ATTACK_MODIFIER_WALL_TARGET, pb.ATTACK_MODIFIER_DOOR_SUPPORT


def strikes(state: pb.KillTheKingState, unit_id: int) -> dict[Coord, Strike]:
    """The attacks of one unit, by target square."""
    found = strikes_of(Scene.of(state, field(state)), state.units[unit_id])
    return {s.target: s for s in found}


def seat_targets(state: pb.KillTheKingState, seat: int) -> list[tuple[int, int, int]]:
    return targets(attack_moves(state, field(state), seat))


# -- melee and levels ------------------------------------------------------------------------


def test_melee_attacks_only_the_enemy_adjacent_to_its_front() -> None:
    """KK-34, KK-66: only through the front, only enemies, only the adjacent space."""
    state = position(
        unit(SWORDSMEN, A, 4, 4, N),  # 0: an enemy ahead
        unit(SWORDSMEN, D, 5, 4, S),  # 1: faces 0
        unit(SWORDSMEN, D, 4, 5, W),  # 2: on 0's side, facing it
        unit(SWORDSMEN, A, 2, 2, N),  # 3: a friend ahead
        unit(SWORDSMEN, A, 3, 2, N),  # 4: nobody ahead
        unit(SWORDSMEN, D, 5, 3, S),  # 5: diagonal to 0, ahead of nobody
    )
    assert seat_targets(state, 0) == [(0, 5, 4)]
    assert seat_targets(state, 1) == [(1, 4, 4), (2, 4, 4)]
    strike = strikes(state, 0)[Coord(5, 4)]
    assert (strike.value, strike.modifiers) == (3, ())
    (roll,) = strike.rolls
    assert (roll.target, roll.needed, roll.save, roll.face) == (1, 3, Save.UNIT, Face.FRONT)
    assert strikes(state, 2)[Coord(4, 4)].rolls[0].face is Face.RIGHT, "0 is hit on its right"


def test_a_unit_attacks_once_and_crews_never() -> None:
    """KK-34: one attack per unit per turn; KK-91: a Ram's crew makes no attack of its own."""
    state = position(
        unit(SWORDSMEN, A, 4, 4, N, attacked=True),
        unit(SWORDSMEN, D, 5, 4, S),
        unit(RAM, A, 4, 5, N),
        unit(SWORDSMEN, A, 4, 5, N, crew_of=2),
        unit(SWORDSMEN, D, 5, 5, S),
    )
    assert seat_targets(state, 0) == []


def test_levels_ground_wall_and_stairs() -> None:
    """KK-48, KK-65: ground reaches ground and stairs, a wall the wall level and
    stairs, stairs both; only Archers attack from a wall to the ground."""
    state = position(
        unit(SWORDSMEN, A, 8, 3, N),  # 0: ground, beneath an enemy on the wall
        unit(SWORDSMEN, D, 9, 3, S),  # 1: wall, above an enemy on the ground
        unit(SWORDSMEN, A, 9, 4, W),  # 2: wall, facing 1 along the wall
        unit(SWORDSMEN, D, 10, 2, W),  # 3: corner stairs, facing the side wall
        unit(SWORDSMEN, A, 10, 1, E),  # 4: wall, facing the stairs
        unit(SWORDSMEN, D, 10, 8, N),  # 5: stairs, facing the ground
        unit(SWORDSMEN, A, 11, 8, S),  # 6: ground, facing the stairs
    )
    assert state.units[1].level == Level.WALL and state.units[3].level == Level.STAIRS
    assert seat_targets(state, 0) == [(2, 9, 3), (4, 10, 2), (6, 10, 8)]
    assert seat_targets(state, 1) == [(3, 10, 1), (5, 11, 8)]


# -- Spearmen ------------------------------------------------------------------------------


def test_spearmen_attack_both_spaces_ahead_skipping_friends() -> None:
    """KK-72: one attack, value 2 on each enemy in the two spaces ahead; the target
    square is the first one; friendly units are skipped, not hit."""
    state = position(
        unit(SPEARMEN, A, 4, 4, N),  # 0
        unit(SWORDSMEN, D, 5, 4, S),  # 1
        unit(SWORDSMEN, D, 6, 4, E),  # 2
        unit(SPEARMEN, A, 4, 7, N),  # 3
        unit(SWORDSMEN, A, 5, 7, E),  # 4: a friend in the first space
        unit(SWORDSMEN, D, 6, 7, S),  # 5
        unit(SPEARMEN, A, 2, 0, N),  # 6: nobody in reach
    )
    assert seat_targets(state, 0) == [(0, 5, 4), (3, 5, 7)]
    both = strikes(state, 0)[Coord(5, 4)]
    assert [(r.target, r.needed, r.face) for r in both.rolls] == [
        (1, 2, Face.FRONT),
        (2, 2, Face.RIGHT),
    ]
    over_friend = strikes(state, 3)[Coord(5, 7)]
    assert [r.target for r in over_friend.rolls] == [5]


def test_spearmen_and_walls() -> None:
    """KK-72 reading, KK-74: a wall in the first space stops the spear of a unit on
    the ground or on stairs; on the wall level the spear runs along the wall; from
    a wall no ground units; from stairs the ground too."""
    state = position(
        unit(SPEARMEN, A, 8, 3, N),  # 0: ground, the wall ahead, an enemy behind it
        unit(SWORDSMEN, D, 10, 3, S),  # 1
        unit(SPEARMEN, D, 9, 4, E),  # 2: on the wall, along it: above the gate, then wall
        unit(SWORDSMEN, A, 9, 5, W),  # 3: above the gate
        unit(SWORDSMEN, A, 9, 6, W),  # 4
        unit(SPEARMEN, D, 9, 7, S),  # 5: on the wall facing the ground
        unit(SWORDSMEN, A, 8, 7, N),  # 6
        unit(SPEARMEN, D, 10, 2, S),  # 7: stairs facing the wall: the wall unit only
        unit(SWORDSMEN, A, 9, 2, N),  # 8
        unit(SWORDSMEN, A, 8, 2, N),  # 9: beyond the wall
        unit(SPEARMEN, D, 10, 8, N),  # 10: stairs facing castle ground: both spaces
        unit(SWORDSMEN, A, 11, 8, S),  # 11
        unit(SWORDSMEN, A, 12, 8, S),  # 12
    )
    assert 0 not in {t[0] for t in seat_targets(state, 0)}
    assert seat_targets(state, 1) == [(2, 9, 5), (7, 9, 2), (10, 11, 8)]
    assert [r.target for r in strikes(state, 2)[GATE].rolls] == [3, 4]
    assert [r.target for r in strikes(state, 7)[Coord(9, 2)].rolls] == [8]
    assert [r.target for r in strikes(state, 10)[Coord(11, 8)].rolls] == [11, 12]


# -- Archers (S14, Image 6) -------------------------------------------------------------------


def test_archer_values_by_distance_never_adjacent_on_the_ground() -> None:
    """KK-64, KK-69: values 2, 3, 4 at distance 2, 3, 4; never adjacent from the
    ground; one target per attack; shoots over troops."""
    state = position(
        unit(ARCHER, A, 1, 4, N),  # 0
        unit(SWORDSMEN, D, 2, 4, S),  # 1: adjacent
        unit(SWORDSMEN, D, 3, 4, S),  # 2: distance 2
        unit(SWORDSMEN, D, 4, 4, S),  # 3: distance 3
        unit(SWORDSMEN, D, 5, 4, S),  # 4: distance 4
        unit(SWORDSMEN, D, 6, 4, S),  # 5: distance 5
    )
    found = strikes(state, 0)
    assert {c: (s.value, s.rolls[0].target) for c, s in found.items()} == {
        Coord(3, 4): (2, 2),
        Coord(4, 4): (3, 3),
        Coord(5, 4): (4, 4),
    }


def test_image_6_archers_and_walls() -> None:
    """S14 (KK-49): from the wall at an adjacent ground unit: 4; from beneath: no
    attack; from outside at the wall top: -1; over the wall at a unit inside: -1."""
    state = position(
        unit(ARCHER, D, 9, 3, S),  # 0: on the wall
        unit(SWORDSMEN, A, 8, 3, N),  # 1: beneath it
        unit(SWORDSMEN, A, 6, 3, N),  # 2: distance 3 from the wall
        unit(ARCHER, A, 8, 2, N),  # 3: directly beneath the wall
        unit(SWORDSMEN, D, 9, 2, S),  # 4: on the wall above 3
        unit(ARCHER, A, 7, 4, N),  # 5: outside: the wall top at 2, inside at 3 and 4
        unit(SWORDSMEN, D, 9, 4, S),  # 6
        unit(SWORDSMEN, D, 10, 4, S),  # 7
    )
    wall = strikes(state, 0)
    assert {c: s.value for c, s in wall.items()} == {Coord(8, 3): 4, Coord(6, 3): 3}
    assert wall[Coord(8, 3)].modifiers == () and wall[Coord(8, 3)].base_value == 4
    assert strikes(state, 3) == {}
    outside = strikes(state, 5)
    top = outside[Coord(9, 4)]
    assert (top.base_value, top.modifiers, top.value) == (2, ((AT_WALL_TOP, -1),), 1)
    inside = outside[Coord(10, 4)]
    assert (inside.base_value, inside.modifiers, inside.value) == (3, ((OVER_WALL, -1),), 2)


def test_archer_penalties_add_up_and_below_one_is_not_offered() -> None:
    """KK-49 (penalties add up), KK-34 (a value below 1 is not offered): along the
    front wall's line, over one wall space at another: 2 - 1 - 1 = 0."""
    state = position(
        unit(ARCHER, A, 9, 0, E),  # 0: outside, at the end of the front wall
        unit(SWORDSMEN, D, 9, 2, S),  # 1: distance 2, over (9,1), on the wall
        unit(ARCHER, A, 9, 10, W),  # 2
        unit(SWORDSMEN, D, 9, 7, S),  # 3: distance 3, over the wall, on the wall: 3 - 2
    )
    assert Coord(9, 2) not in strikes(state, 0)
    far = strikes(state, 2)[Coord(9, 7)]
    assert far.modifiers == ((OVER_WALL, -1), (AT_WALL_TOP, -1)) and far.value == 1


def test_archer_from_the_wall_not_at_stairs_nor_catapults() -> None:
    """KK-49 reading: the value-4 shot from a wall is at units on the ground
    beneath, not at a unit on adjacent stairs (level with it); KK-70: never at
    Catapults; from stairs there is no wall penalty."""
    state = position(
        unit(ARCHER, D, 9, 2, N),  # 0: on the wall, the corner stairs ahead
        unit(SWORDSMEN, A, 10, 2, S),  # 1: on the stairs
        unit(ARCHER, D, 10, 8, S),  # 2: on stairs, shooting out over the wall
        unit(CATAPULT, A, 7, 8, N),  # 3: distance 3
        unit(SWORDSMEN, A, 6, 8, N),  # 4: distance 4
    )
    assert strikes(state, 0) == {}
    found = strikes(state, 2)
    assert set(found) == {Coord(6, 8)}
    assert found[Coord(6, 8)].modifiers == () and found[Coord(6, 8)].value == 4


def test_knight_bonus_for_adjacent_friends_not_himself() -> None:
    """KK-106: +1 for friendly units orthogonally adjacent to a living Knight, not
    for the Knight himself, not for the enemy."""
    state = position(
        unit(KNIGHT, A, 4, 3, N),  # 0
        unit(SWORDSMEN, A, 4, 4, N),  # 1: next to the Knight
        unit(SWORDSMEN, D, 5, 4, S),  # 2: next to nobody of its side
        unit(SWORDSMEN, D, 5, 3, S),  # 3
        unit(ARCHER, A, 3, 3, N),  # 4: behind the Knight: bonus, shoots at distance 2
    )
    assert strikes(state, 1)[Coord(5, 4)].modifiers == ((KNIGHT_MOD, 1),)
    assert strikes(state, 1)[Coord(5, 4)].value == 4
    assert strikes(state, 0)[Coord(5, 3)].modifiers == ()
    assert strikes(state, 0)[Coord(5, 3)].value == 4
    assert strikes(state, 4)[Coord(5, 3)].value == 3
    assert strikes(state, 2)[Coord(4, 4)].modifiers == ()


def test_knight_bonus_on_every_roll_of_a_catapults_cross() -> None:
    """KK-106: the Knight's +1 counts for each roll of the cross (6 at the centre,
    5 on the neighbours) and for the roll against a wall (5 - 1 + 1)."""
    state = position(
        unit(CATAPULT, A, 5, 3, N),
        unit(KNIGHT, A, 5, 2, N),
        unit(SWORDSMEN, D, 8, 3, S),
        unit(SWORDSMEN, D, 8, 4, S),
    )
    found = strikes(state, 0)
    assert [r.needed for r in found[Coord(8, 3)].rolls] == [6, 5]
    wall = found[Coord(9, 3)]
    assert wall.modifiers == ((KNIGHT_MOD, 1), (WALL_TARGET, -1)) and wall.rolls[0].needed == 5


# -- the Catapult (S15, S16) -----------------------------------------------------------------


def test_catapult_cross_centres_and_rolls() -> None:
    """KK-67: a centre 3-6 ahead affecting a unit; one roll per unit, 5 at the
    centre and 4 on the neighbours in the order N, E, S, W; no saves; friendly
    units are hit too; the gate among the neighbours is not attacked."""
    state = position(
        unit(CATAPULT, A, 2, 5, N),  # 0
        unit(SWORDSMEN, D, 6, 5, S),  # 1
        unit(SWORDSMEN, D, 6, 4, S),  # 2
        unit(SWORDSMEN, A, 7, 5, N),  # 3: the attacker's own
        unit(SWORDSMEN, D, 9, 5, S),  # 4: above the gate: never hit by a cross
    )
    found = strikes(state, 0)
    assert set(found) == {Coord(5, 5), Coord(6, 5), Coord(7, 5), Coord(8, 5)}
    cross = found[Coord(6, 5)]
    assert [(r.square, r.target, r.needed, r.save) for r in cross.rolls] == [
        (Coord(6, 5), 1, 5, Save.NONE),
        (Coord(7, 5), 3, 4, Save.NONE),
        (Coord(6, 4), 2, 4, Save.NONE),
    ]
    assert [r.target for r in found[Coord(8, 5)].rolls] == [3]
    assert cross.base_value == 5 and cross.value == 5


def test_catapult_that_moved_cannot_attack_unless_next_to_its_engineer() -> None:
    """S5's attack part (KK-68): a Catapult that moved (a step or a paid rotation)
    cannot attack that turn, unless next to its Engineer (KK-108)."""
    moved = position(unit(CATAPULT, A, 2, 5, N, moved=True), unit(SWORDSMEN, D, 6, 5, S))
    assert seat_targets(moved, 0) == []
    engineer = position(
        unit(CATAPULT, A, 2, 5, N, moved=True),
        unit(SWORDSMEN, D, 6, 5, S),
        unit(ENGINEER, A, 2, 4, N),
    )
    assert (0, 6, 5) in seat_targets(engineer, 0)


def test_catapult_wall_and_gate_shots() -> None:
    """KK-50, KK-58: an intact wall or the gate as the centre: one roll at 5 - 1
    against the structure (it saves on 4, the gate on 3); units on it are not
    rolled; over a wall -1 for every roll; wall spaces that are only neighbours
    are not attacked."""
    state = position(
        unit(CATAPULT, A, 6, 4, N),  # 0
        unit(SWORDSMEN, D, 9, 4, S),  # 1: on the wall centre
        unit(SWORDSMEN, D, 10, 4, S),  # 2: inside, behind the wall
        unit(CATAPULT, A, 4, 5, N),  # 3: the gate at distance 5
    )
    found = strikes(state, 0)
    wall = found[Coord(9, 4)]
    assert wall.modifiers == ((WALL_TARGET, -1),) and wall.value == 4
    assert [(r.target, r.needed, r.save) for r in wall.rolls] == [
        (-1, 4, Save.WALL),
        (2, 4, Save.NONE),
    ]
    behind = found[Coord(10, 4)]
    assert behind.modifiers == ((OVER_WALL, -1),)
    assert [(r.target, r.needed) for r in behind.rolls] == [(2, 4)]
    assert [(r.target, r.needed) for r in found[Coord(11, 4)].rolls] == [(2, 3)]
    gate = strikes(state, 3)[GATE]
    assert [(r.target, r.needed, r.save) for r in gate.rolls] == [(-1, 4, Save.GATE)]


def test_catapult_never_the_door_and_the_defenders_never_their_walls() -> None:
    """KK-68, KK-115: never the King's Door (even with units around it); KK-67
    reading: only the attacker's Catapults shoot at walls and the gate; KK-50
    reading: a unit on a wall space among the neighbours is not hit."""
    state = position(
        unit(CATAPULT, A, 10, 5, N, level=Level.GROUND),  # 0: inside, the door at 5
        unit(SWORDSMEN, D, 14, 5, S),  # 1: before the door
        unit(CATAPULT, D, 12, 3, S),  # 2: the front wall at distance 3
        unit(SWORDSMEN, A, 9, 3, N),  # 3: on that wall, a neighbour of (8,3)
    )
    assert set(strikes(state, 0)) == {Coord(13, 5), Coord(14, 5)}
    assert strikes(state, 2) == {}


# -- the Battering Ram and the King's Door (S19) -------------------------------------------------


def test_ram_attacks_only_the_gate_and_the_door_when_manned() -> None:
    """KK-91, KK-58: a Ram manned by the attacker attacks the gate (3) or the
    door (5) ahead; unmanned or manned by the enemy, nothing; never units."""
    manned = position(
        unit(RAM, A, 8, 5, N),
        unit(SPEARMEN, A, 8, 5, N, crew_of=0),
        unit(KNIGHT, A, 8, 4, N),
    )
    gate = strikes(manned, 0)[GATE]
    assert (gate.base_value, gate.modifiers, gate.value) == (3, ((KNIGHT_MOD, 1),), 4)
    assert gate.rolls[0].save is Save.GATE
    unmanned = position(unit(RAM, A, 8, 5, N))
    assert strikes(unmanned, 0) == {}
    enemy_crew = position(unit(RAM, A, 8, 5, N), unit(SWORDSMEN, D, 8, 5, N, crew_of=0))
    assert strikes(enemy_crew, 0) == {}
    at_a_unit = position(
        unit(RAM, A, 7, 5, N), unit(SWORDSMEN, A, 7, 5, N, crew_of=0), unit(SWORDSMEN, D, 8, 5)
    )
    assert strikes(at_a_unit, 0) == {}


def test_s19_the_kings_door_with_support() -> None:
    """S19 (KK-111..KK-113): a manned Ram with two friends on adjacent stairs and
    the Knight adjacent: 5 + 2, the cap."""
    state = position(
        unit(RAM, A, 14, 5, N),  # 0
        unit(SWORDSMEN, A, 14, 5, N, crew_of=0),  # 1
        unit(SWORDSMEN, A, 14, 4, N),  # 2
        unit(SPEARMEN, A, 14, 6, N),  # 3
        unit(KNIGHT, A, 13, 5, N),  # 4
    )
    door = strikes(state, 0)[DOOR]
    assert (door.base_value, door.value) == (5, 7)
    assert door.modifiers == ((DOOR_SUPPORT, 2),)
    assert door.rolls[0].save is Save.DOOR and door.rolls[0].target == -1


def test_door_support_and_the_knight_share_the_cap() -> None:
    """KK-113: +1 per friendly unit (not a Ram) on a stairs space adjacent to the
    attacker, the Knight's +1 when adjacent, together at most +2; the door value
    is 2 for every unit."""
    alone = position(unit(SWORDSMEN, A, 15, 4, E))
    assert strikes(alone, 0)[DOOR].value == 2
    knight = position(unit(SWORDSMEN, A, 15, 4, E), unit(KNIGHT, A, 15, 3, N))
    assert strikes(knight, 0)[DOOR].modifiers == ((KNIGHT_MOD, 1),)
    both = position(
        unit(CAVALRY, A, 15, 4, E), unit(KNIGHT, A, 15, 3, N), unit(ARCHER, A, 14, 4, N)
    )
    door = strikes(both, 0)[DOOR]
    assert door.modifiers == ((DOOR_SUPPORT, 1), (KNIGHT_MOD, 1)) and door.value == 4
    not_a_ram = position(
        unit(SPEARMEN, A, 14, 5, N),
        unit(RAM, A, 14, 4, N),
        unit(SWORDSMEN, A, 13, 5, N),
        unit(SWORDSMEN, D, 14, 6, N),
    )
    assert strikes(not_a_ram, 0)[DOOR].modifiers == ((DOOR_SUPPORT, 1),)


def test_who_may_attack_the_door() -> None:
    """KK-110, KK-111, KK-115: the attacker's units except Archers and Catapults;
    never the defender; only in Kill the King."""
    state = position(
        unit(ARCHER, A, 14, 5, N),  # 0
        unit(SWORDSMEN, D, 15, 4, E),  # 1
        unit(RANGER, A, 15, 6, W),  # 2
    )
    assert strikes(state, 0) == {}
    assert strikes(state, 1) == {}
    assert strikes(state, 2)[DOOR].value == 2
    state.door_destroyed = True
    assert strikes(state, 2) == {}


def test_attack_and_defense_plays_on_the_green_field_only() -> None:
    """KK-8: in Attack and Defense the castle half is out of play: no door, no
    gate, and the Catapult's centres stop at row 8."""
    state = position(
        unit(CATAPULT, A, 4, 5, N),
        unit(SWORDSMEN, D, 8, 5, S),
        mode=Mode.ATTACK_AND_DEFENSE,
    )
    assert set(strikes(state, 0)) == {Coord(7, 5), Coord(8, 5)}
    assert not state.gates


def test_climbing_attack_value() -> None:
    """KK-44: the adjacent attack value -1, the Knight's +1; Archers have none."""
    from throneroom.games.kill_the_king.rules import climb_strike

    state = position(
        unit(SPEARMEN, A, 8, 3, E),  # 0: facing along the wall: climbs whatever its facing
        unit(SWORDSMEN, D, 9, 3, W),  # 1
        unit(KNIGHT, A, 8, 2, N),  # 2
        unit(ARCHER, A, 8, 4, N),  # 3
        unit(SWORDSMEN, D, 9, 4, S),  # 4
    )
    scene = Scene.of(state, field(state))
    spear = climb_strike(scene, state.units[0], N)
    assert spear is not None and spear.climbing
    assert spear.modifiers == ((CLIMBING, -1), (KNIGHT_MOD, 1)) and spear.value == 2
    assert spear.rolls[0].face is Face.LEFT, "1 faces west: the climber comes from the south"
    assert climb_strike(scene, state.units[3], N) is None
    assert climb_strike(scene, state.units[0], S) is None
    assert climb_strike(scene, state.units[2], E) is None, "(8,3) is no wall"
