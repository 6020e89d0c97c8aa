"""What each unit can attack, and how hard: attacks as plans (``Strike``, with
the scene an attack sees: :mod:`.scene`).

A :class:`Strike` is one legal attack of one unit worked out in full before a
die is rolled: the square it names (``attack.target``), the chart value, each
modifier with its sign, and the dice it will roll in order (``Roll``: the
value needed, the unit or structure concerned, how it defends). The
enumeration of the attack phase, the climbing attack of the movement phase and
the Cavalry's second charge all come from here, so legality is written once:
an attack is legal exactly when a strike exists for it (KK-34).

Patterns (docs/rules/kill_the_king.md sections 6-12):

* melee (Swordsmen, Cavalry, leaders): the enemy adjacent to the front (KK-66);
* spear (Spearmen): the two spaces ahead, one roll per enemy (KK-72..KK-74);
* volley (Archer): one enemy at distance 2-4, or 1 from a wall at a unit
  beneath it (KK-49, KK-69..KK-71);
* cross (Catapult): a centre at distance 3-6 and its four neighbours, no
  saves; a wall or the gate as the centre (KK-50, KK-67, KK-68, KK-93);
* ram (Battering Ram): the gate or the King's Door (KK-58, KK-91);
* the King's Door for every unit that may attack it (KK-110..KK-115);
* the climbing attack (KK-44, KK-45) and the second charge (KK-78).

Levels (KK-48, KK-65): a unit on the ground reaches the ground and stairs, one
on a wall the wall level and stairs, one on stairs both; Archers also shoot
from the ground up at wall tops and from a wall down at the ground.
"""

from __future__ import annotations

from collections.abc import Iterator

from throneroom.games.kill_the_king.board import Coord, Terrain
from throneroom.games.kill_the_king.data import (
    ARCHER_FROM_WALL_VALUE,
    AT_WALL_TOP_PENALTY,
    CATAPULT_CENTRE_DISTANCES,
    CAVALRY_KILLED_OUTRIGHT_BY,
    CLIMBING_PENALTY,
    DOOR_SUPPORT_MAX,
    OVER_WALL_PENALTY,
    UNITS,
    WALL_TARGET_PENALTY,
    AttackKind,
    Direction,
    Face,
    Level,
    Side,
    UnitType,
    Victory,
    face_hit,
)
from throneroom.games.kill_the_king.rules.scene import (
    Modifier,
    Roll,
    Save,
    Scene,
    Strike,
    allegiance,
    engineer_next_to,
    hostile,
    knight_bonus,
)
from throneroom.games.kill_the_king.rules.table import Unit, coord, crew_of
from throneroom.v1 import kill_the_king_pb2 as pb


def _knight(scene: Scene, u: Unit) -> tuple[tuple[Modifier, int], ...]:
    bonus = knight_bonus(scene, u)
    return ((pb.ATTACK_MODIFIER_KNIGHT, bonus),) if bonus else ()


def _face(target: Unit, attack_from: Direction) -> Face:
    """The face of ``target`` an attack coming from ``attack_from`` (seen from the
    target) hits; a crewed Ram's crew faces as the Ram (KK-36, KK-92)."""
    return face_hit(Direction(target.facing), attack_from)


def _total(modifiers: tuple[tuple[Modifier, int], ...]) -> int:
    return sum(change for _, change in modifiers)


# -- the patterns --------------------------------------------------------------------------


def door_strike(scene: Scene, u: Unit, door: Coord) -> Strike | None:
    """``u`` attacks the King's Door ahead of it (KK-110..KK-115), if it may:
    Kill the King modes only, the attacker's units only, not Archers, Catapults,
    Ballistas, Siege Towers or Flaming Pigs; value 2 (the Ram 5); +1 per friendly
    unit other than a Ram on a stairs space next to the attacker and the Knight's
    +1, together at most +2 (DOOR_SUPPORT_MAX)."""
    state = scene.state
    spec = UNITS[UnitType(u.type)]
    if scene.mode.victory is not Victory.DOOR or state.door_destroyed:
        return None
    if allegiance(state, u) is not Side.ATTACKER or not spec.may_attack_door:
        return None
    if spec.attack.kind in (AttackKind.NONE, AttackKind.EXPLOSION):
        return None
    here = coord(u)
    supporters = len(
        [
            v
            for n in scene.board.around(here)
            if scene.terrain(n) is Terrain.STAIRS
            for v in scene.at(n)
            if v.id != u.id
            and UnitType(v.type) is not UnitType.BATTERING_RAM
            and allegiance(state, v) is Side.ATTACKER
        ]
    )
    support = min(supporters, DOOR_SUPPORT_MAX)
    knight = min(knight_bonus(scene, u), DOOR_SUPPORT_MAX - support)
    modifiers: tuple[tuple[Modifier, int], ...] = ()
    if support:
        modifiers += ((pb.ATTACK_MODIFIER_DOOR_SUPPORT, support),)
    if knight:
        modifiers += ((pb.ATTACK_MODIFIER_KNIGHT, knight),)
    base = spec.attack.door_value
    roll = Roll(base + _total(modifiers), door, save=Save.DOOR)
    return Strike(u.id, door, base, modifiers, (roll,))


def _melee_targets(scene: Scene, u: Unit, ahead: Coord) -> Iterator[Unit]:
    level = u.level
    for t in scene.at(ahead):
        if hostile(scene.state, u, t) and (level == t.level or _STAIRS in (level, t.level)):
            yield t


_STAIRS = int(Level.STAIRS)


def melee_strikes(
    scene: Scene, u: Unit, *, extra: tuple[tuple[Modifier, int], ...] = (), door: bool = True
) -> list[Strike]:
    """The enemy adjacent to ``u``'s front on a level it reaches, or the door (KK-66)."""
    facing = _DIRECTIONS[u.facing]
    d_row, d_col = facing.delta
    ahead = Coord(u.square.row + d_row, u.square.col + d_col)
    if ahead not in scene.in_play:
        return []
    terrain = scene.terrain(ahead)
    if terrain is Terrain.DOOR:
        strike = door_strike(scene, u, ahead) if door else None
        return [strike] if strike is not None else []
    elephant = u.type == _ELEPHANT
    there = scene.by_square.get(ahead)
    if not there and not elephant:
        return []  # nobody ahead, and only an Elephant attacks the gate itself
    base = _MELEE_VALUE[u.type]
    if base is None:
        return []
    modifiers = _knight(scene, u) + extra
    if elephant and door and _elephant_at_the_gate(scene, u, ahead):
        roll = Roll(base + _total(modifiers), ahead, save=Save.GATE)
        return [Strike(u.id, ahead, base, modifiers, (roll,))]
    for t in _melee_targets(scene, u, ahead):
        face = _face(t, facing.opposite)
        if (elephant and t.type == _TOWER) or (t.type == _CAVALRY and u.type in _RUNS_DOWN):
            roll = Roll(base + _total(modifiers), ahead, t.id, Save.NONE)  # KK-98, KK-77
        else:
            roll = Roll(base + _total(modifiers), ahead, t.id, Save.UNIT, face)
        return [Strike(u.id, ahead, base, modifiers, (roll,))]
    return []


_DIRECTIONS = {int(d): d for d in Direction}
_ELEPHANT = int(UnitType.WAR_ELEPHANT)
_TOWER = int(UnitType.SIEGE_TOWER)
_CAVALRY = int(UnitType.CAVALRY)
_RUNS_DOWN = frozenset(int(t) for t in CAVALRY_KILLED_OUTRIGHT_BY)
"""Attackers whose hit removes a Cavalry with no save (the War Elephant in melee, KK-77)."""
_MELEE_VALUE = {int(t): UNITS[t].attack.value_at(1) for t in UNITS}
"""Each unit's attack value at distance 1 (None: it has none)."""


def _elephant_at_the_gate(scene: Scene, u: Unit, ahead: Coord) -> bool:
    """The attacker's War Elephant on the ground (or stairs) faces the intact gate:
    it attacks the gate (6; the gate defends on 3, KK-58, KK-84)."""
    return (
        scene.terrain(ahead) is Terrain.GATE
        and scene.is_wall(ahead)
        and Level(u.level) is not Level.WALL
        and allegiance(scene.state, u) is Side.ATTACKER
    )


def spear_strikes(scene: Scene, u: Unit) -> list[Strike]:
    """Both spaces ahead, value 2 on each enemy there, friends skipped (KK-72); from
    a wall no ground units (KK-74). An intact wall, the gate or the door in the
    first space stops the spear unless the Spearmen stand on the wall level
    themselves (KK-72 reading); the door in the first space is a door attack."""
    facing = _DIRECTIONS[u.facing]
    d_row, d_col = facing.delta
    row, col = u.square.row, u.square.col
    on_wall = u.level == _WALL
    attack = UNITS[UnitType(u.type)].attack
    modifiers: tuple[tuple[Modifier, int], ...] | None = None
    rolls: list[Roll] = []
    first = Coord(row + d_row, col + d_col)
    for distance in _DISTANCES[u.type]:
        square = Coord(row + d_row * distance, col + d_col * distance)
        if square not in scene.in_play:
            break
        space = scene.board.space(*square)
        if space.terrain is Terrain.DOOR:
            if distance == 1:
                strike = door_strike(scene, u, square)
                return [strike] if strike is not None else []
            break
        if square in scene.by_square:
            value = attack.value_at(distance)
            assert value is not None
            for t in _melee_targets(scene, u, square):
                if modifiers is None:
                    modifiers = _knight(scene, u)
                face = _face(t, facing.opposite)
                rolls.append(Roll(value + _total(modifiers), square, t.id, Save.UNIT, face))
        if space.is_wall and not on_wall:
            break
    if not rolls or modifiers is None:
        return []
    return [Strike(u.id, first, attack.by_distance[0][1], modifiers, tuple(rolls))]


_WALL = int(Level.WALL)
_DISTANCES = {int(t): UNITS[t].attack.distances for t in UNITS}


def volley_strikes(scene: Scene, u: Unit) -> list[Strike]:
    """The Archer: one enemy straight ahead at distance 2, 3 or 4 with value 2, 3
    or 4, any level; from a wall also the unit on the ground adjacent ahead with
    value 4. Never Catapults or Ballistas. From the ground: -1 at a unit on a
    wall (AT_WALL_TOP), -1 over an intact wall or gate (OVER_WALL). KK-49, KK-69..71."""
    facing = _DIRECTIONS[u.facing]
    d_row, d_col = facing.delta
    row, col = u.square.row, u.square.col
    here = Coord(row, col)
    level = Level(u.level)
    attack = UNITS[UnitType(u.type)].attack
    knight: tuple[tuple[Modifier, int], ...] | None = None
    strikes: list[Strike] = []
    for distance in (1, *_DISTANCES[u.type]):
        square = Coord(row + d_row * distance, col + d_col * distance)
        if square not in scene.in_play:  # (on the field too)
            continue
        if distance == 1:
            if level is not Level.WALL:
                continue
            base: int | None = ARCHER_FROM_WALL_VALUE
        else:
            base = attack.value_at(distance)
        assert base is not None
        for t in scene.by_square.get(square, ()):
            target_level = Level(t.level)
            if not hostile(scene.state, u, t):
                continue
            if not _ARCHERS_MAY_ATTACK[t.type]:
                continue
            if distance == 1 and target_level is not Level.GROUND:
                continue
            if knight is None:
                knight = _knight(scene, u)
            modifiers = knight
            if level is Level.GROUND:
                if scene.board.walls_between(here, square):
                    modifiers += ((pb.ATTACK_MODIFIER_OVER_WALL, OVER_WALL_PENALTY),)
                if target_level is Level.WALL:
                    modifiers += ((pb.ATTACK_MODIFIER_AT_WALL_TOP, AT_WALL_TOP_PENALTY),)
            face = _face(t, facing.opposite)
            roll = Roll(base + _total(modifiers), square, t.id, Save.UNIT, face)
            strikes.append(Strike(u.id, square, base, modifiers, (roll,)))
            break
    return strikes


_ARCHERS_MAY_ATTACK = {int(t): UNITS[t].archers_may_attack for t in UNITS}


def cross_strikes(scene: Scene, u: Unit) -> list[Strike]:
    """The Catapult (KK-67, KK-50, KK-68): a centre 3-6 spaces ahead (never the
    door) and its four neighbours; one die per unit there, 5 at the centre and 4
    on the neighbours, no saves, friends hit too. An intact wall or the gate as
    the centre (the attacker's Catapults only) is a wall shot: one die against
    the structure at -1 (WALL_TARGET), which then defends on 4 (3 for the gate);
    units on it are not rolled for (they die if it falls). Wall and gate spaces
    among the neighbours are not attacked. Modifiers judged once per shot: the
    Knight, OVER_WALL from the ground over an intact wall or gate."""
    state = scene.state
    spec = UNITS[UnitType(u.type)]
    if u.moved and not spec.moves_and_attacks and not engineer_next_to(scene, u):
        return []
    facing = Direction(u.facing)
    here = coord(u)
    attack = spec.attack
    neighbour_value = attack.neighbour_value
    assert neighbour_value is not None
    strikes: list[Strike] = []
    knight = _knight(scene, u)
    for distance, centre in scene.board.line(here, facing, CATAPULT_CENTRE_DISTANCES):
        if centre not in scene.in_play or scene.terrain(centre) is Terrain.DOOR:
            continue
        if not scene.is_wall(centre) and not _anyone_in_cross(scene, centre):
            continue  # no die to roll: no strike
        base = attack.value_at(distance)
        assert base is not None
        shared = knight
        if Level(u.level) is Level.GROUND and scene.board.walls_between(here, centre):
            shared += ((pb.ATTACK_MODIFIER_OVER_WALL, OVER_WALL_PENALTY),)
        modifiers = shared
        rolls: list[Roll] = []
        if scene.is_wall(centre):
            if allegiance(state, u) is not Side.ATTACKER:
                continue
            modifiers += ((pb.ATTACK_MODIFIER_WALL_TARGET, WALL_TARGET_PENALTY),)
            gate = scene.terrain(centre) is Terrain.GATE
            rolls.append(
                Roll(base + _total(modifiers), centre, save=Save.GATE if gate else Save.WALL)
            )
        else:
            rolls.extend(
                Roll(base + _total(shared), centre, t.id, Save.NONE) for t in scene.at(centre)
            )
        for n in scene.board.around(centre):
            if n not in scene.in_play or scene.is_wall(n) or scene.terrain(n) is Terrain.DOOR:
                continue
            rolls.extend(
                Roll(neighbour_value + _total(shared), n, t.id, Save.NONE) for t in scene.at(n)
            )
        if rolls:
            strikes.append(Strike(u.id, centre, base, modifiers, tuple(rolls)))
    return strikes


def _anyone_in_cross(scene: Scene, centre: Coord) -> bool:
    """Whether a unit stands on the centre or next to it (a cross with nobody
    in it rolls no die)."""
    row, col = centre
    at = scene.by_square
    return (
        (row, col) in at
        or (row + 1, col) in at
        or (row - 1, col) in at
        or (row, col + 1) in at
        or (row, col - 1) in at
    )


def ram_strikes(scene: Scene, u: Unit) -> list[Strike]:
    """A Battering Ram manned by the attacker's infantry attacks the intact gate (3)
    or the King's Door (5) adjacent to its front, nothing else (KK-91)."""
    crew = crew_of(scene.state, u.id)
    if not crew or Side(crew[0].side) is not Side(u.side):
        return []
    ahead = coord(u).step(Direction(u.facing))
    if not scene.playable(ahead):
        return []
    terrain = scene.terrain(ahead)
    if terrain is Terrain.DOOR:
        strike = door_strike(scene, u, ahead)
        return [strike] if strike is not None else []
    if terrain is not Terrain.GATE or allegiance(scene.state, u) is not Side.ATTACKER:
        return []
    base = UNITS[UnitType(u.type)].attack.value_at(1)
    assert base is not None
    modifiers = _knight(scene, u)
    roll = Roll(base + _total(modifiers), ahead, save=Save.GATE)
    return [Strike(u.id, ahead, base, modifiers, (roll,))]


# -- climbing ------------------------------------------------------------------------------


def climb_strike(scene: Scene, u: Unit, direction: Direction) -> Strike | None:
    """The climbing attack of ``u`` on the enemy standing on the wall position in
    ``direction`` (KK-44): its adjacent attack value -1 (CLIMBING), the Knight's
    +1; the face hit is the target's face towards the climber. None when there
    is no enemy there, ``u`` may not climb (Cavalry, engines: KK-46) or has no
    adjacent attack value (Archers)."""
    wall = coord(u).step(direction)
    if not scene.playable(wall) or not scene.is_wall(wall):
        return None
    spec = UNITS[UnitType(u.type)]
    base = spec.attack.value_at(1)
    if not spec.may_climb or spec.attack.kind not in (AttackKind.MELEE, AttackKind.SPEAR):
        return None
    if base is None:
        return None
    for t in scene.at(wall):
        if Level(t.level) is Level.WALL and hostile(scene.state, u, t):
            modifiers = ((pb.ATTACK_MODIFIER_CLIMBING, CLIMBING_PENALTY), *_knight(scene, u))
            face = _face(t, direction.opposite)
            roll = Roll(base + _total(modifiers), wall, t.id, Save.UNIT, face)
            return Strike(u.id, wall, base, modifiers, (roll,), climbing=True)
    return None


def prepared_climb_strikes(scene: Scene, u: Unit) -> list[Strike]:
    """A unit set to climb (KK-45) acts on its wall space only: the climbing
    attack if the enemy is still there; a climb without a roll if the space was
    emptied; nothing if the wall was destroyed or a friend stands there."""
    direction = Direction(u.climb)
    wall = coord(u).step(direction)
    if not scene.playable(wall) or not scene.is_wall(wall):
        return []
    on_top = [t for t in scene.at(wall) if Level(t.level) is Level.WALL]
    if not on_top:
        return [Strike(u.id, wall, 0, (), (), climbing=True, onto_wall=True)]
    strike = climb_strike(scene, u, direction)
    return [strike] if strike is not None and strike.can_hit else []
