"""The Ballista's bolt (KK-94, KK-133, KK-134): one level of the line 3 to 6
spaces ahead.

"Always attacks tile 3-6 in front of it. Has to choose if it attacks wall
tiles or ground level tiles, if they are both in range. Cannot attack both."
The side chooses the level (``attack.level``: WALL or GROUND); the bolt rolls
once at 3 for every enemy unit on that level in those spaces, nearest first
(units on stairs are on both levels), passing over friends, units and walls;
-1 (AT_WALL_TOP) against units standing on a wall. On the ground level the
attacker's bolt also strikes the intact gate if it is in the line (the gate
defends on 3). Never walls, never the King's Door. Its hits allow the usual
save, except a War Elephant (none: no defence roll against siege engines), a
Cavalry (removed at once, without flipping: KK-77), a Siege Tower (destroyed
with its crew) and a manned Battering Ram (its crew dies at once). It cannot
move and attack in one turn unless it stands next to its side's Engineer when
it attacks (KK-108).
"""

from __future__ import annotations

from throneroom.games.kill_the_king.board import Terrain
from throneroom.games.kill_the_king.data import (
    AT_WALL_TOP_PENALTY,
    CAVALRY_KILLED_OUTRIGHT_BY,
    UNITS,
    Direction,
    Level,
    Side,
    UnitType,
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

NO_SAVE_AGAINST_ENGINES = frozenset({UnitType.WAR_ELEPHANT, UnitType.SIEGE_TOWER}) | (
    {UnitType.CAVALRY} if UnitType.BALLISTA in CAVALRY_KILLED_OUTRIGHT_BY else frozenset()
)
"""Hit by the bolt these make no defence roll: the War Elephant and the Siege
Tower against siege engines (KK-83, KK-98), the Cavalry killed outright (KK-77)."""
BOLT_LEVELS = (Level.GROUND, Level.WALL)


def on_level(unit_level: Level, level: Level) -> bool:
    """Whether a unit standing on ``unit_level`` is on the bolt's ``level``
    (stairs are on both, KK-60)."""
    return unit_level is level or unit_level is Level.STAIRS


def bolt_strikes(scene: Scene, u: Unit) -> list[Strike]:
    """One strike per level with something to hit, naming the space 3 ahead."""
    spec = UNITS[UnitType(u.type)]
    if u.moved and not spec.moves_and_attacks and not engineer_next_to(scene, u):
        return []
    facing = Direction(u.facing)
    line = [
        (d, c)
        for d, c in scene.board.line(coord(u), facing, spec.attack.distances)
        if c in scene.in_play
    ]
    if not line or line[0][0] != spec.attack.distances[0]:
        return []
    knight = knight_bonus(scene, u)
    shared: tuple[tuple[Modifier, int], ...] = (
        ((pb.ATTACK_MODIFIER_KNIGHT, knight),) if knight else ()
    )
    strikes = []
    for level in BOLT_LEVELS:
        rolls: list[Roll] = []
        wall_top = False
        for distance, square in line:
            base = spec.attack.value_at(distance)
            assert base is not None
            if (
                level is Level.GROUND
                and scene.terrain(square) is Terrain.GATE
                and scene.is_wall(square)
                and allegiance(scene.state, u) is Side.ATTACKER
            ):
                needed = base + knight
                rolls.append(Roll(needed, square, save=Save.GATE))
            for t in scene.at(square):
                t_level = Level(t.level)
                if not hostile(scene.state, u, t) or not on_level(t_level, level):
                    continue
                needed = base + knight
                if t_level is Level.WALL:
                    needed += AT_WALL_TOP_PENALTY
                    wall_top = True
                kind = UnitType(t.type)
                save = Save.NONE if kind in NO_SAVE_AGAINST_ENGINES else Save.UNIT
                if kind is UnitType.BATTERING_RAM and crew_of(scene.state, t.id):
                    save = Save.NONE
                face = None if save is Save.NONE else face_hit(Direction(t.facing), facing.opposite)
                rolls.append(Roll(needed, square, t.id, save, face))
        if not rolls:
            continue
        modifiers = shared
        if wall_top:
            modifiers += ((pb.ATTACK_MODIFIER_AT_WALL_TOP, AT_WALL_TOP_PENALTY),)
        base = spec.attack.by_distance[0][1]
        strikes.append(Strike(u.id, line[0][1], base, modifiers, tuple(rolls), level=level))
    return strikes
