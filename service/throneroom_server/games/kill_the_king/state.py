"""State helpers: units, where they stand, who occupies what (no rules here).

Shared by every module of the engine (setup, movement, combat, turns). All
functions read the generated ``KillTheKingState``; the few that change it say
so. A unit's place is a ``Position`` (space and level): only the outer gate's
space has two (the passage and the wall above it), and a stair space is on
both levels at once (KK-60). Crews inside a Battering Ram or a Siege Tower
share their engine's space but do not occupy it (the engine does).
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache

from throneroom.games.kill_the_king.board import Coord, Position
from throneroom.games.kill_the_king.data import Direction, Level, Mode, Side, UnitType
from throneroom.games.kill_the_king.rules.table import coord, crew_of, field, in_play
from throneroom.games.kill_the_king.rules.table import field_of as _field
from throneroom.games.kill_the_king.rules.table import in_play_of as _in_play
from throneroom.games.kill_the_king.rules.table import ruins as _ruins
from throneroom.v1 import kill_the_king_pb2 as pb

__all__ = [
    "DEAD",
    "LEADER_TYPES",
    "ONTO_WALL",
    "ON_FIELD",
    "OPEN",
    "PASSAGE",
    "RESERVE",
    "Climbs",
    "State",
    "StepTable",
    "Unit",
    "alive",
    "climbs",
    "coord",
    "counter_type",
    "counters",
    "counts_by_counter",
    "crew_of",
    "enemy",
    "facing",
    "field",
    "in_play",
    "is_crew",
    "is_leader",
    "new_unit",
    "next_of_team",
    "occupancy",
    "occupant",
    "occupies",
    "on_field",
    "position",
    "put",
    "reinforcement_edge",
    "seat_of_side",
    "side_of",
    "standing",
    "team_seats",
    "terrain",
    "unit",
    "units_at",
]

State = pb.KillTheKingState
Unit = pb.KillTheKingUnit
ON_FIELD = pb.KillTheKingUnit.STATUS_ON_FIELD
RESERVE = pb.KillTheKingUnit.STATUS_RESERVE
DEAD = pb.KillTheKingUnit.STATUS_DEAD

LEADER_TYPES = frozenset(
    {
        UnitType.RANGER,
        UnitType.TREASURER,
        UnitType.KNIGHT,
        UnitType.ENGINEER,
        UnitType.BEASTMASTER,
    }
)


def unit(state: State, uid: int) -> Unit:
    """The unit with id ``uid`` (its index); KeyError if there is none."""
    if not 0 <= uid < len(state.units):
        raise KeyError(f"no unit {uid}")
    return state.units[uid]


_LEVELS = {int(level): level for level in Level}
_MODES = {int(mode): mode for mode in Mode}


def position(u: Unit) -> Position:
    return Position(Coord(u.square.row, u.square.col), _LEVELS[u.level])


def put(u: Unit, where: tuple[int, int], level: Level) -> None:
    """Set a unit's space and level (changes ``u``)."""
    u.square.row, u.square.col = where
    u.level = pb.Level.ValueType(level)


def facing(u: Unit) -> Direction:
    return Direction(u.facing)


def side_of(state: State, seat: int) -> Side:
    return Side(state.seats[seat].side)


def seat_of_side(state: State, side: Side) -> int:
    """The first seat playing ``side`` (two players: the only one; Giga: the
    team's first seat, which holds its pool and rolls its structures' dice)."""
    for i, s in enumerate(state.seats):
        if s.side == int(side):
            return i
    raise KeyError(f"no seat plays {side.name}")


def team_seats(state: State, side: Side) -> list[int]:
    """The seats playing ``side``, in seat order (Giga teams, KK-123)."""
    return [i for i, s in enumerate(state.seats) if s.side == int(side)]


def next_of_team(state: State, side: Side, done: int) -> int:
    """The seat of ``side``'s team taking its next turn at something the team
    does in seat order, ``done`` of them done so far (KK-124, KK-125)."""
    seats = team_seats(state, side)
    return seats[done % len(seats)]


def on_field(state: State) -> Iterator[Unit]:
    """Units on the field, crews included, in id order."""
    return (u for u in state.units if u.status == ON_FIELD)


def alive(state: State, side: Side | None = None) -> Iterator[Unit]:
    """Units not dead (on the field or in reserve), of one side if given."""
    return (u for u in state.units if u.status != DEAD and (side is None or u.side == int(side)))


def is_crew(u: Unit) -> bool:
    return u.carried_by >= 0


def standing(state: State) -> Iterator[Unit]:
    """Units on the field that occupy their space (not crews)."""
    return (u for u in state.units if u.status == ON_FIELD and u.carried_by < 0)


def occupies(u: Unit, where: Position) -> bool:
    """Whether ``u`` (standing on the field) is at ``where``. A stair space holds
    one unit on both levels; the gate's passage and the wall above are apart."""
    if u.square.row != where.coord.row or u.square.col != where.coord.col:
        return False
    return u.level == int(where.level) or Level.STAIRS in (u.level, where.level)


def occupant(state: State, where: Position) -> Unit | None:
    """The unit standing at ``where`` (not a crew), if any."""
    for u in standing(state):
        if occupies(u, where):
            return u
    return None


def occupancy(state: State) -> dict[Position, Unit]:
    """Every occupied position -> the unit standing there (crews left out)."""
    return {position(u): u for u in standing(state)}


def units_at(state: State, where: tuple[int, int]) -> list[Unit]:
    """Units standing on a space, any level (the gate's space can hold two)."""
    row, col = where
    return [u for u in standing(state) if u.square.row == row and u.square.col == col]


def enemy(u: Unit, other: Unit) -> bool:
    return u.side != other.side


def is_leader(u: Unit) -> bool:
    return UnitType(u.type) in LEADER_TYPES


def new_unit(state: State, kind: UnitType, seat: int, *, free: bool = False) -> Unit:
    """Append a unit in reserve for ``seat`` and return it (changes ``state``)."""
    u = state.units.add(
        id=len(state.units),
        type=pb.UnitType.ValueType(kind),
        seat=seat,
        side=state.seats[seat].side,
        status=RESERVE,
        free=free,
        carried_by=-1,
    )
    return u


Climbs = dict[Coord, tuple[tuple[Direction, Coord], ...]]


@lru_cache(maxsize=128)
def _climbs(mode: Mode, ruins: frozenset[tuple[int, int]]) -> Climbs:
    board = _field(mode, ruins)
    return {s.coord: board.climbs(s.coord) for s in board}


def climbs(state: State) -> Climbs:
    """``Board.climbs`` of every space of the current field (KK-44), cached."""
    return _climbs(_MODES[state.mode], _ruins(state))


OPEN, ONTO_WALL, PASSAGE = 0, 1, 2
"""What a step enters: ground or stairs, a wall position, the gate's passage."""
StepTable = dict[Position, tuple[tuple[Direction, Position, int], ...]]


@lru_cache(maxsize=128)
def _terrain(mode: Mode, ruins: frozenset[tuple[int, int]]) -> tuple[StepTable, frozenset[Coord]]:
    board = _field(mode, ruins)
    within = _in_play(mode)
    walls = frozenset(s.coord for s in board if s.is_wall)

    def kind(p: Position) -> int:
        if p.level is Level.WALL:
            return ONTO_WALL
        return PASSAGE if p.level is Level.GROUND and p.coord in walls else OPEN

    steps = {
        p: tuple((d, q, kind(q)) for d, q in board.steps(p, within=within))
        for p in board.positions()
    }
    return steps, walls


def terrain(state: State) -> tuple[StepTable, frozenset[Coord]]:
    """The steps the terrain allows within the mode's spaces (``Board.steps``,
    each with what it enters), and the intact wall and gate spaces, of the
    current field; cached."""
    return _terrain(_MODES[state.mode], _ruins(state))


def counter_type(u: Unit) -> UnitType:
    """The counter a unit uses (a dismounted Cavalry still uses a Cavalry's, KK-19)."""
    return UnitType.CAVALRY if u.dismounted else UnitType(u.type)


def counters(state: State, side: Side, kind: UnitType, *, alive_only: bool = False) -> int:
    """Counters of ``kind`` a side holds (bought, free, chosen; alive ones only if asked)."""
    return sum(
        1
        for u in state.units
        if u.side == int(side) and counter_type(u) is kind and not (alive_only and u.status == DEAD)
    )


@lru_cache(maxsize=128)
def _reinforcement_edge(
    mode: Mode, ruins: frozenset[tuple[int, int]], half: int | None
) -> tuple[Coord, ...]:
    within = _in_play(mode)
    return tuple(c for c in _field(mode, ruins).reinforcement_edge(half) if c in within)


def reinforcement_edge(state: State, half: int | None) -> tuple[Coord, ...]:
    """The current field's reinforcement spaces in play (``Board.reinforcement_edge``
    of one board half if given, KK-40, KK-128), in its order; cached."""
    return _reinforcement_edge(_MODES[state.mode], _ruins(state), half)


_CAVALRY = int(UnitType.CAVALRY)


def counts_by_counter(state: State, side: Side, *, alive_only: bool = False) -> dict[int, int]:
    """:func:`counters` of every kind at once: counter type (as a number) ->
    the side's counters of it (alive ones only if asked)."""
    mine = int(side)
    counts: dict[int, int] = {}
    for u in state.units:
        if u.side == mine and not (alive_only and u.status == DEAD):
            kind = _CAVALRY if u.dismounted else u.type
            counts[kind] = counts.get(kind, 0) + 1
    return counts
