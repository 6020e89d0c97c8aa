"""What an attack is worth: the bot's estimate of each attack's expected value.

The attacks themselves are the engine's: :func:`throneroom.games.kill_the_king.rules.strikes_of`
on the bot's own view lists every strike a unit has, with each die's value
needed after every modifier (the Knight, climbing, over a wall, at a wall
top, a wall target, the door's support) and how its target defends. This
module only prices them: a strike is worth the sum over its dice of the
chance the die hits and the target fails its save (the engine's
:func:`defence_value`, a Ram's crew for the Ram; a structure's own value),
times what the kill or the break is worth to the side attacking (a friend
hit counts against it). The same estimate chooses the attack among the legal
ones and the facing a unit turns to before the attack phase; a position the
unit is not in yet (after a Cavalry's advance, or another facing) is priced
on a copy of its counter put there.
"""

from __future__ import annotations

from dataclasses import replace

from throneroom.games.kill_the_king.board import Coord, Terrain
from throneroom.games.kill_the_king.bot.model import Piece, Situation
from throneroom.games.kill_the_king.data import (
    CAVALRY_KILLED_OUTRIGHT_BY,
    DIE_SIDES,
    DOOR_DEFENCE,
    GATE_DEFENCE,
    UNITS,
    WALL_DEFENCE,
    Direction,
    Level,
    Side,
    UnitType,
    Victory,
)
from throneroom.games.kill_the_king.rules import (
    Roll,
    Save,
    Scene,
    Strike,
    allegiance,
    crew_of,
    defence_value,
    strikes_of,
)
from throneroom.v1 import kill_the_king_pb2 as pb

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

_STRUCTURE_DEFENCE = {Save.WALL: WALL_DEFENCE, Save.GATE: GATE_DEFENCE, Save.DOOR: DOOR_DEFENCE}


def chance(value: int) -> float:
    """A d6 rolled <= value."""
    return min(max(value, 0), DIE_SIDES) / DIE_SIDES


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


def attack_worth(
    sit: Situation,
    unit: Piece,
    coord: Coord,
    level: Level,
    facing: Direction,
    *,
    target: Coord | None = None,
) -> float:
    """The expected worth of ``unit``'s attack from ``coord``/``level`` facing
    ``facing`` (its own place, or one it could take): at ``target`` (a square as
    an attack move names it), or the best it has when ``target`` is None."""
    counter = sit.units[unit.id]
    scene = sit.scene
    if (coord, level, facing) != (unit.coord, unit.level, unit.facing):
        counter = _placed(counter, coord, level, facing)
        scene = _with(scene, counter)
    best = 0.0
    for strike in strikes_of(scene, counter):
        if target is None or strike.target == target:
            best = max(best, strike_worth(sit, scene, counter, strike))
    return best


def strike_worth(
    sit: Situation, scene: Scene, attacker: pb.KillTheKingUnit, strike: Strike
) -> float:
    """The expected worth of one strike of ``attacker``: its dice summed."""
    if strike.onto_wall:
        return 1.0  # a prepared climb onto a wall space emptied meanwhile (KK-45)
    side = allegiance(scene.state, attacker)
    by = UnitType(attacker.type)
    total = 0.0
    for roll in strike.rolls:
        if roll.target >= 0:
            total += _unit_worth(sit, scene, attacker, roll, side, by)
        else:
            total += _structure_worth(sit, scene, roll, side)
    return total


def _unit_worth(  # noqa: PLR0917 (the roll, then what the attacker is)
    sit: Situation,
    scene: Scene,
    attacker: pb.KillTheKingUnit,
    roll: Roll,
    side: Side,
    by: UnitType,
) -> float:
    target = sit.units[roll.target]
    p = chance(roll.needed) * (1.0 - _save_chance(scene, attacker, target, roll))
    piece = sit.by_id.get(target.id)
    if piece is None:
        return 0.0
    gain = worth(sit, piece, by)
    if allegiance(scene.state, target) is side:
        return -p * gain * FRIENDLY_FIRE
    return p * gain


def _save_chance(
    scene: Scene, attacker: pb.KillTheKingUnit, target: pb.KillTheKingUnit, roll: Roll
) -> float:
    """The chance the unit hit saves: the engine's defence value for the face hit
    (a manned Ram's crew saves for it), none when the strike allows no save."""
    if roll.save is not Save.UNIT or roll.face is None:
        return 0.0
    crew = (
        crew_of(scene.state, target.id) if UnitType(target.type) is UnitType.BATTERING_RAM else []
    )
    defender = crew[-1] if crew else target
    return chance(defence_value(scene.state, attacker, defender, roll.face, crew=bool(crew)))


def _structure_worth(sit: Situation, scene: Scene, roll: Roll, side: Side) -> float:
    """A die at the King's Door, the gate or a wall: the chance it breaks times
    what that is worth, with the units standing on a wall or gate that falls."""
    broken = chance(roll.needed) * (1.0 - chance(_STRUCTURE_DEFENCE[roll.save]))
    if roll.save is Save.DOOR:
        return broken * DOOR_WORTH
    square = roll.square
    closed = sit.board.space(*square).terrain is Terrain.GATE and not sit.gate_open_at(square)
    total = broken * (GATE_WORTH if closed else WALL_WORTH)
    for standing in scene.at(square):
        piece = sit.by_id.get(standing.id)
        if piece is None:
            continue
        gain = worth(sit, piece)
        friend = allegiance(scene.state, standing) is side
        total += broken * (-gain * FRIENDLY_FIRE if friend else gain)
    return total


def _placed(
    counter: pb.KillTheKingUnit, coord: Coord, level: Level, facing: Direction
) -> pb.KillTheKingUnit:
    """A copy of ``counter`` standing at ``coord``/``level``, facing ``facing``."""
    moved = pb.KillTheKingUnit()
    moved.CopyFrom(counter)
    moved.square.row, moved.square.col = coord
    moved.level = pb.Level.ValueType(level)
    moved.facing = pb.Direction.ValueType(facing)
    return moved


def _with(scene: Scene, counter: pb.KillTheKingUnit) -> Scene:
    """``scene`` with ``counter`` in place of the unit of its id."""
    key = (counter.square.row, counter.square.col)
    by_square: dict[tuple[int, int], tuple[pb.KillTheKingUnit, ...]] = {}
    for square, units in scene.by_square.items():
        kept = tuple(u for u in units if u.id != counter.id)
        if kept:
            by_square[square] = kept
    by_square[key] = (*by_square.get(key, ()), counter)
    leaders = {
        kind: tuple(counter if u.id == counter.id else u for u in units)
        for kind, units in scene.leaders.items()
    }
    units = tuple(counter if u.id == counter.id else u for u in scene.units)
    return replace(scene, by_square=by_square, leaders=leaders, units=units)
