"""What an attack is worth: the bot's estimate of each attack's expected value.

An attack's value is the chance it kills (or destroys) times what that is
worth to the side attacking, summed over what it affects (a Spearmen's two
spaces, a Catapult's cross, with friends in the cross counted against it).
The chances follow the chart (``throneroom.games.kill_the_king.data``): hit on
a die <= the attack value after the modifiers the bot can see (the Knight,
climbing, over a wall, at a wall top, a wall target), then the target's save
on the face hit (none against a Catapult, nor for a Cavalry hit by a Ballista
or a War Elephant, which dies outright rather than flipping: KK-77). The
same estimate chooses the attack among the legal ones and the facing a unit
turns to before the attack phase.
"""

from __future__ import annotations

from dataclasses import replace

from throneroom.games.kill_the_king.board import Coord, Terrain
from throneroom.games.kill_the_king.bot.model import Piece, Situation
from throneroom.games.kill_the_king.data import (
    ARCHER_FROM_WALL_VALUE,
    AT_WALL_TOP_PENALTY,
    CAVALRY_KILLED_OUTRIGHT_BY,
    CLIMBING_PENALTY,
    DIE_SIDES,
    DOOR_DEFENCE,
    DOOR_SUPPORT_MAX,
    GATE_DEFENCE,
    KNIGHT_BONUS,
    OVER_WALL_PENALTY,
    UNITS,
    WALL_DEFENCE,
    WALL_TARGET_PENALTY,
    AttackKind,
    Direction,
    Level,
    Side,
    UnitType,
    Victory,
    face_hit,
)

DOOR_WORTH = 1000.0
"""Breaking the King's Door wins the game."""
GATE_WORTH = 12.0
"""Breaking the gate lets the Ram and the army into the castle."""
WALL_WORTH = 2.0
LEADER_WORTH = 15.0
BREAKTHROUGH_LEADER_WORTH = 80.0
"""Attack and Defense: the attacker cannot win while the defender's leader lives."""
RAM_WORTH = 14.0
FRIENDLY_FIRE = 1.5
"""A friend hit by my own Catapult counts this much more than an enemy."""


def chance(value: int) -> float:
    """A d6 rolled <= value."""
    return min(max(value, 0), DIE_SIDES) / DIE_SIDES


def can_reach(attacker: Level, target: Level, *, archer: bool = False) -> bool:
    """Whether a unit on ``attacker`` level attacks one on ``target`` level (KK-65)."""
    if Level.STAIRS in (attacker, target):
        return True
    if attacker is Level.WALL and target is Level.GROUND:
        return archer
    return attacker == target


def worth(sit: Situation, target: Piece, by: UnitType | None = None) -> float:
    """What killing ``target`` is worth to its enemy (``by``: the attacker's type,
    when it changes what a kill is: a Cavalry dies outright only to some)."""
    if target.is_leader:
        if sit.spec.victory is Victory.LEADER_AND_BREAKTHROUGH and target.side is Side.DEFENDER:
            return BREAKTHROUGH_LEADER_WORTH
        return LEADER_WORTH
    if target.type is UnitType.BATTERING_RAM:
        return RAM_WORTH
    spec = UNITS[target.type]
    value = float(max(spec.cost, 3))
    if target.type is UnitType.CATAPULT:
        value = 8.0
    if target.type is UnitType.CAVALRY and by not in CAVALRY_KILLED_OUTRIGHT_BY:
        value = 4.0  # it flips to Swordsmen rather than dying (KK-77)
    return value


def knight_bonus(sit: Situation, side: Side, coord: Coord, attacker_id: int) -> int:
    knight = next(
        (
            p
            for p in sit.pieces
            if p.side is side and p.type is UnitType.KNIGHT and p.carried_by < 0
        ),
        None,
    )
    if knight is None or knight.id == attacker_id:
        return 0
    return KNIGHT_BONUS if knight.coord in sit.board.around(coord) else 0


def save_chance(sit: Situation, target: Piece, attack_from: Direction, attacker: UnitType) -> float:
    if attacker is UnitType.CATAPULT:
        return 0.0
    if target.type is UnitType.CAVALRY and attacker in CAVALRY_KILLED_OUTRIGHT_BY:
        return 0.0  # removed on the hit (KK-77)
    defender = target
    if target.type is UnitType.BATTERING_RAM:
        crew = sit.crew_of(target)
        if crew is None or attacker is UnitType.BALLISTA:
            return 0.0
        defender = replace(crew, facing=target.facing)
    face = face_hit(defender.facing, attack_from)
    value = UNITS[defender.type].defence.against(face, cavalry=attacker is UnitType.CAVALRY)
    if sit.enemy_side in [Side(s) for s in sit.view.defence_penalty]:
        value -= 1
    return chance(value)


def _kill(sit: Situation, unit: Piece, value: int, target: Piece, direction: Direction) -> float:
    """Expected worth of one roll of ``unit`` (facing ``direction``) at ``target``."""
    side = sit.combat_side(unit)
    p = chance(value) * (1.0 - save_chance(sit, target, direction.opposite, unit.type))
    gain = worth(sit, target, unit.type)
    return p * gain if sit.combat_side(target) is not side else -p * gain * FRIENDLY_FIRE


def _targets_on(sit: Situation, coord: Coord) -> list[Piece]:
    return list(sit.on_coord.get(coord, []))


def _enemy_on(sit: Situation, unit: Piece, coord: Coord, level: Level) -> Piece | None:
    side = sit.combat_side(unit)
    archer = unit.type is UnitType.ARCHER
    for target in _targets_on(sit, coord):
        if sit.combat_side(target) is not side and can_reach(level, target.level, archer=archer):
            return target
    return None


def door_value(sit: Situation, unit: Piece, coord: Coord) -> float:
    base = UNITS[unit.type].attack.door_value
    stairs = set(sit.king_stairs(sit.half_of(coord)))
    support = sum(
        1
        for n in sit.board.around(coord)
        if n in stairs
        and any(
            p.side is Side.ATTACKER and p.type is not UnitType.BATTERING_RAM
            for p in sit.on_coord.get(n, [])
        )
    )
    support += knight_bonus(sit, Side.ATTACKER, coord, unit.id)
    value = base + min(support, DOOR_SUPPORT_MAX)
    return chance(value) * (1.0 - chance(DOOR_DEFENCE)) * DOOR_WORTH


def attack_worth(
    sit: Situation,
    unit: Piece,
    coord: Coord,
    level: Level,
    facing: Direction,
    *,
    target: Coord | None = None,
    climbing: bool = False,
) -> float:
    """The expected worth of ``unit``'s attack from ``coord``/``level`` facing
    ``facing``: at ``target`` (a square as an attack move names it), or the best
    target there is when ``target`` is None."""
    spec = UNITS[unit.type].attack
    side = sit.combat_side(unit)
    bonus = knight_bonus(sit, side, coord, unit.id)
    ahead = coord.step(facing)
    options = [*_structure_worths(sit, unit, coord, ahead, side)]
    if spec.kind in (AttackKind.MELEE, AttackKind.SPEAR):
        options.append(_close_worth(sit, unit, coord, level, facing, bonus, climbing=climbing))
    elif spec.kind is AttackKind.VOLLEY:
        options.extend(_volley_worths(sit, unit, coord, level, facing, bonus))
    elif spec.kind is AttackKind.CROSS:
        options.extend(_cross_worths(sit, unit, coord, facing, bonus, side))
    elif spec.kind is AttackKind.BOLT:
        options.append(_bolt_worth(sit, unit, coord, facing, bonus))
    best = 0.0
    for value, square in options:
        if target is None or square == target:
            best = max(best, value)
    return best


Worth = tuple[float, Coord]
"""An attack's expected worth and the square its move names."""


def _structure_worths(
    sit: Situation, unit: Piece, coord: Coord, ahead: Coord, side: Side
) -> list[Worth]:
    """The King's Door and the gate, adjacent to the front (the attackers')."""
    board = sit.board
    if side is not Side.ATTACKER or not board.contains(ahead):
        return []
    spec = UNITS[unit.type].attack
    terrain = board.space(*ahead).terrain
    manned = unit.type is not UnitType.BATTERING_RAM or sit.crew_of(unit) is not None
    found: list[Worth] = []
    if (
        terrain is Terrain.DOOR
        and ahead in sit.doors
        and UNITS[unit.type].may_attack_door
        and spec.kind not in (AttackKind.VOLLEY, AttackKind.CROSS, AttackKind.BOLT)
        and manned
    ):
        found.append((door_value(sit, unit, coord), ahead))
    if (
        terrain is Terrain.GATE
        and spec.kind is AttackKind.RAM
        and not sit.gate_open_at(ahead)
        and manned
    ):
        p = chance(spec.value_at(1) or 3) * (1.0 - chance(GATE_DEFENCE))
        found.append((p * GATE_WORTH, ahead))
    return found


def _close_worth(  # noqa: PLR0917 (the attack's position, then the bonus)
    sit: Situation,
    unit: Piece,
    coord: Coord,
    level: Level,
    facing: Direction,
    bonus: int,
    *,
    climbing: bool,
) -> Worth:
    """Melee and spear: the enemies ahead (the spear's two spaces), summed."""
    spec = UNITS[unit.type].attack
    board = sit.board
    ahead = coord.step(facing)
    distances = (1, 2) if spec.kind is AttackKind.SPEAR else (1,)
    total = 0.0
    for distance in distances:
        square = coord.step(facing, distance)
        if not board.contains(square):
            break
        if distance == 2 and level is not Level.WALL and board.space(*ahead).is_wall:
            break
        value = (spec.value_at(distance) or 0) + bonus + (CLIMBING_PENALTY if climbing else 0)
        enemy = _enemy_on(sit, unit, square, level)
        if enemy is not None:
            total += _kill(sit, unit, value, enemy, facing)
    return total, ahead


def _volley_worths(  # noqa: PLR0917 (the attack's position, then the bonus)
    sit: Situation, unit: Piece, coord: Coord, level: Level, facing: Direction, bonus: int
) -> list[Worth]:
    """The Archer's volley: each enemy it may shoot at distance 1 to 4."""
    spec = UNITS[unit.type].attack
    board = sit.board
    found: list[Worth] = []
    for distance in (1, 2, 3, 4):
        square = coord.step(facing, distance)
        if not board.contains(square):
            break
        enemy = _enemy_on(sit, unit, square, level)
        if enemy is None or not UNITS[enemy.type].archers_may_attack:
            continue
        if distance == 1:
            if level is not Level.WALL or enemy.level is not Level.GROUND:
                continue
            value = ARCHER_FROM_WALL_VALUE
        else:
            value = spec.value_at(distance) or 0
            if level is Level.GROUND and enemy.level is Level.WALL:
                value += AT_WALL_TOP_PENALTY
            if level is Level.GROUND and board.walls_between(coord, square):
                value += OVER_WALL_PENALTY
        found.append((_kill(sit, unit, value + bonus, enemy, facing), square))
    return found


def _cross_worths(  # noqa: PLR0917 (the attack's position, then the bonus and side)
    sit: Situation, unit: Piece, coord: Coord, facing: Direction, bonus: int, side: Side
) -> list[Worth]:
    """The Catapult's cross: each centre in play, a wall or the gate broken
    (the attackers') and every unit in the cross hit."""
    spec = UNITS[unit.type].attack
    board = sit.board
    found: list[Worth] = []
    for distance in spec.distances:
        centre = coord.step(facing, distance)
        if not board.contains(centre) or centre not in sit.in_play:
            continue
        over = OVER_WALL_PENALTY if board.walls_between(coord, centre) else 0
        total = 0.0
        if board.space(*centre).is_wall and side is Side.ATTACKER:
            p_wall = chance(5 + over + bonus + WALL_TARGET_PENALTY)
            defence = (
                GATE_DEFENCE if board.space(*centre).terrain is Terrain.GATE else (WALL_DEFENCE)
            )
            broken = p_wall * (1.0 - chance(defence))
            gate = board.space(*centre).terrain is Terrain.GATE
            closed = gate and not sit.gate_open_at(centre)
            total += broken * (GATE_WORTH if closed else WALL_WORTH)
            for standing in _targets_on(sit, centre):
                gain = worth(sit, standing)
                friend = standing.side is side
                total += broken * (-gain * FRIENDLY_FIRE if friend else gain)
        for square in board.cross(centre):
            value = (5 if square == centre else 4) + over + bonus
            for hit in _targets_on(sit, square):
                if hit.level is not Level.WALL:
                    total += _kill(sit, unit, value, hit, facing)
        found.append((total, centre))
    return found


def _bolt_worth(sit: Situation, unit: Piece, coord: Coord, facing: Direction, bonus: int) -> Worth:
    """The Ballista's bolt: every enemy along its line, summed."""
    spec = UNITS[unit.type].attack
    board = sit.board
    total = 0.0
    for distance in spec.distances:
        square = coord.step(facing, distance)
        if not board.contains(square):
            break
        enemy = _enemy_on(sit, unit, square, Level.STAIRS)
        if enemy is not None:
            total += _kill(sit, unit, 3 + bonus, enemy, facing)
    return total, coord.step(facing, spec.distances[0]) if spec.distances else coord.step(facing)
