"""What the Kill the King bot knows: the field and the counters, read from its view.

:class:`Situation` is built from one ``KillTheKingView`` (the seat's own view,
never the state): the field of the mode with its ruins, every counter the
view shows on the field, who stands where, and distance maps over the
movement graph (:meth:`Situation.distances`), which the movement planner
follows step by step. The geometry comes only from the board data
(``throneroom.games.kill_the_king.board``/``field``).
"""

from __future__ import annotations

import heapq
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from functools import cached_property, lru_cache
from types import MappingProxyType
from typing import Any

from throneroom.games.kill_the_king.board import Board, Coord, Position, Terrain
from throneroom.games.kill_the_king.data import (
    MODES,
    UNITS,
    Direction,
    Join,
    Level,
    Mode,
    ModeSpec,
    Side,
    UnitType,
)
from throneroom.games.kill_the_king.field import field_for
from throneroom.games.kill_the_king.rules import Scene
from throneroom.games.kill_the_king.rules import table as tb
from throneroom.games.kill_the_king.rules.gates import gate_open_for
from throneroom.v1 import kill_the_king_pb2 as pb

Phase = pb.KillTheKingState.Phase
ON_FIELD = pb.KillTheKingUnit.STATUS_ON_FIELD
RESERVE = pb.KillTheKingUnit.STATUS_RESERVE

ENEMY_BLOCK_COST = 6
"""Extra cost of a path through an enemy: it has to be killed first."""
FRIEND_BLOCK_COST = 2
"""Extra cost of a path through a friend: it may move away, or the way round is long."""
UNREACHABLE = 10**6


@dataclass(frozen=True)
class Piece:
    """A counter on the field as the view shows it."""

    id: int
    type: UnitType
    side: Side
    coord: Coord
    level: Level
    facing: Direction
    moved: bool
    rotated: bool
    attacked: bool
    carried_by: int
    immobile: bool

    @property
    def position(self) -> Position:
        return Position(self.coord, self.level)

    @property
    def is_leader(self) -> bool:
        return UNITS[self.type].is_leader

    @property
    def may_climb(self) -> bool:
        return UNITS[self.type].may_climb

    @property
    def walls_allowed(self) -> bool:
        return UNITS[self.type].may_stand_on_wall


def _piece(unit: pb.KillTheKingUnit) -> Piece:
    return Piece(
        id=unit.id,
        type=UnitType(unit.type),
        side=Side(unit.side),
        coord=Coord(unit.square.row, unit.square.col),
        level=Level(unit.level) if unit.level else Level.GROUND,
        facing=Direction(unit.facing) if unit.facing else Direction.NORTH,
        moved=unit.moved,
        rotated=unit.rotated,
        attacked=unit.attacked,
        carried_by=unit.carried_by,
        immobile=unit.immobile,
    )


class Situation:
    """The game as one seat sees it, with the questions the bot asks of it."""

    def __init__(self, view: pb.KillTheKingView, seat: int) -> None:
        self.view = view
        self.seat = seat
        self.mode = Mode(view.mode) if view.mode else Mode.KILL_THE_KING
        self.spec: ModeSpec = MODES[self.mode]
        self.ruins = tuple(sorted((r.square.row, r.square.col) for r in view.ruins))
        self.board: Board = field_of(self.mode, self.ruins)
        self.in_play = _in_play(self.mode)
        self.halves = range(2) if self.spec.join is Join.CASTLE_SIDE else range(1)
        """Kill the King Giga: the two board halves, each with its gate and door,
        planned apart (a joined castle has a front on each side, KK-9)."""
        self.positions_at = _positions_at(self.mode, self.ruins)
        side = view.seats[seat].side if seat < len(view.seats) else 0
        self.side = Side(side) if side else Side.ATTACKER
        self.enemy_side = self.side.other
        self.units = {u.id: u for u in view.units}
        self.pieces = [_piece(u) for u in view.units if u.status == ON_FIELD]
        self.by_id = {p.id: p for p in self.pieces}
        # Who stands where: a crew stands inside its engine and blocks nothing itself.
        self.at: dict[Position, Piece] = {}
        self.on_coord: dict[Coord, list[Piece]] = {}
        for p in self.pieces:
            if p.carried_by >= 0:
                continue
            self.at[p.position] = p
            self.on_coord.setdefault(p.coord, []).append(p)

    # -- counters ---------------------------------------------------------------------------

    def mine(self) -> list[Piece]:
        return [p for p in self.pieces if p.side is self.side and p.carried_by < 0]

    def enemies(self) -> list[Piece]:
        return [p for p in self.pieces if p.side is self.enemy_side and p.carried_by < 0]

    def leader(self, side: Side) -> Piece | None:
        return next((p for p in self.pieces if p.side is side and p.is_leader), None)

    def crew_of(self, engine: Piece) -> Piece | None:
        return next((p for p in self.pieces if p.carried_by == engine.id), None)

    def alive(self, side: Side, unit: UnitType) -> bool:
        return any(p.side is side and p.type is unit for p in self.pieces)

    @cached_property
    def scene(self) -> Scene:
        """The attack rules' scene of the view (who stands where, for which side)."""
        return Scene.of(self.view, self.board)

    # -- the castle -------------------------------------------------------------------------

    def half_of(self, coord: Coord) -> int:
        """The board half of ``coord`` (0 but on the Kill the King Giga field)."""
        return self.board.space(*coord).board if len(self.halves) > 1 else 0

    def outward(self, half: int) -> Direction:
        """The direction from the castle to the attackers' edge on a half."""
        return Direction.NORTH if half else Direction.SOUTH

    def gate_in(self, half: int = 0) -> pb.KillTheKingGate | None:
        return next(
            (g for g in self.view.gates if self.half_of(Coord(g.square.row, g.square.col)) == half),
            None,
        )

    @cached_property
    def gate(self) -> pb.KillTheKingGate | None:
        return self.gate_in(0)

    def gate_open(self, half: int = 0) -> bool:
        """Whether my units may use the passage of the half's gate (KK-55)."""
        gate = self.gate_in(half)
        if gate is None or gate.destroyed:
            return True  # rubble: open ground
        return gate_open_for(self.view, int(self.side), Coord(gate.square.row, gate.square.col))

    @property
    def gate_open_to_me(self) -> bool:
        return self.gate_open(0)

    def gate_open_at(self, coord: Coord) -> bool:
        return self.gate_open(self.half_of(coord))

    def door_in(self, half: int = 0) -> Coord | None:
        if self.view.door_destroyed:
            return None
        return next((d for d in _doors(self.mode) if self.half_of(d) == half), None)

    @cached_property
    def door(self) -> Coord | None:
        return self.door_in(0)

    @cached_property
    def doors(self) -> frozenset[Coord]:
        """Every King's Door still standing (Kill the King Giga: two, KK-129)."""
        return frozenset() if self.view.door_destroyed else frozenset(_doors(self.mode))

    def king_stairs(self, half: int = 0) -> tuple[Coord, ...]:
        """The stairs before the half's King's Door (KK-113)."""
        door = next((d for d in _doors(self.mode) if self.half_of(d) == half), None)
        return _king_stairs(self.mode, door) if door is not None else ()

    def gate_coord(self, half: int = 0) -> Coord | None:
        gate = self.gate_in(half)
        if gate is None or gate.destroyed:
            return None
        return Coord(gate.square.row, gate.square.col)

    def inside(self, coord: Coord) -> bool:
        return self.board.space(*coord).inside

    # -- movement graph ---------------------------------------------------------------------

    def allowed(self, piece: Piece, position: Position) -> bool:
        """Whether ``piece`` may ever stand on (or pass) ``position`` as far as the
        terrain, the mode and the gate go (units ignored)."""
        graph = self._graph(piece)
        return position in graph.index

    def _graph(self, piece: Piece) -> Graph:
        spec = UNITS[piece.type]
        passages = frozenset(
            Coord(g.square.row, g.square.col)
            for half in self.halves
            if (g := self.gate_in(half)) is not None
            and (self.gate_open(half) or piece.side is Side.DEFENDER)
        )
        return _graph(self.mode, self.ruins, spec.may_stand_on_wall, spec.may_climb, passages)

    def entry_cost(self, piece: Piece, position: Position) -> int:
        other = self.at.get(position)
        if other is None or other.id == piece.id:
            return 1
        if other.type is UnitType.BATTERING_RAM and self.crew_of(other) is None:
            return 1 if UNITS[piece.type].may_man else 1 + ENEMY_BLOCK_COST
        if other.side is piece.side:
            return 1 + FRIEND_BLOCK_COST
        return 1 + ENEMY_BLOCK_COST

    def distances(self, piece: Piece, goals: Iterable[Position]) -> Mapping[Position, int]:
        """The cost from every position to the nearest goal for ``piece``, over the
        steps and climbs it may take (Dijkstra from the goals, backwards): a step
        costs 1, entering a friend's space a little more, an enemy's much more."""
        graph = self._graph(piece)
        index = graph.index
        costs = [1] * len(graph.nodes)
        for position in self.at:
            i = index.get(position)
            if i is not None:
                costs[i] = self.entry_cost(piece, position)
        dist = [UNREACHABLE] * len(graph.nodes)
        heap: list[tuple[int, int]] = []
        for goal in goals:
            i = index.get(goal)
            if i is not None and dist[i]:
                dist[i] = 0
                heap.append((0, i))
        heapq.heapify(heap)
        preds = graph.preds
        while heap:
            cost, here = heapq.heappop(heap)
            if cost > dist[here]:
                continue
            total = cost + costs[here]
            for before in preds[here]:
                if total < dist[before]:
                    dist[before] = total
                    heapq.heappush(heap, (total, before))
        return _Distances(graph, dist)

    def free(self, position: Position) -> bool:
        return position not in self.at

    def position_on(self, coord: Coord) -> Position:
        return Position(coord, self.board.level_of(coord))


@dataclass(frozen=True)
class Graph:
    """The positions a kind of unit may use and, for each, where one step or climb
    into it comes from."""

    nodes: tuple[Position, ...]
    index: Mapping[Position, int]
    preds: tuple[tuple[int, ...], ...]


class _Distances(Mapping[Position, int]):
    """A distance map over a graph's positions (unreachable ones are absent)."""

    def __init__(self, graph: Graph, dist: list[int]) -> None:
        self._graph = graph
        self._dist = dist

    def __getitem__(self, position: Position) -> int:
        i = self._graph.index.get(position)
        if i is None or self._dist[i] >= UNREACHABLE:
            raise KeyError(position)
        return self._dist[i]

    def get(self, position: Position, default: object = None) -> Any:
        i = self._graph.index.get(position)
        if i is None or self._dist[i] >= UNREACHABLE:
            return default
        return self._dist[i]

    def __iter__(self) -> Iterator[Position]:
        return (p for p, d in zip(self._graph.nodes, self._dist, strict=True) if d < UNREACHABLE)

    def __len__(self) -> int:
        return sum(1 for d in self._dist if d < UNREACHABLE)


def field_of(mode: Mode, ruins: tuple[tuple[int, int], ...]) -> Board:
    """The field of a mode with these wall and gate spaces in ruins (KK-6): the
    engine's, from the same cache."""
    return tb.field_of(mode, frozenset(ruins))


def _in_play(mode: Mode) -> frozenset[Coord]:
    return tb.in_play_of(mode)


@lru_cache(maxsize=8)
def _doors(mode: Mode) -> tuple[Coord, ...]:
    in_play = _in_play(mode)
    return tuple(c for c in field_for(mode).doors if c in in_play)


@lru_cache(maxsize=8)
def _king_stairs(mode: Mode, door: Coord) -> tuple[Coord, ...]:
    return field_for(mode).king_stairs(door)


@lru_cache(maxsize=64)
def _positions_at(
    mode: Mode, ruins: tuple[tuple[int, int], ...]
) -> Mapping[Coord, tuple[Position, ...]]:
    """Every in-play space's positions (the gate's space: the passage and above)."""
    board = field_of(mode, ruins)
    in_play = _in_play(mode)
    return MappingProxyType(
        {
            s.coord: tuple(Position(s.coord, level) for level in s.levels)
            for s in board
            if s.coord in in_play
        }
    )


@lru_cache(maxsize=256)
def _graph(
    mode: Mode,
    ruins: tuple[tuple[int, int], ...],
    walls: bool,
    climbs: bool,
    passages: frozenset[Coord],
) -> Graph:
    """The movement graph of one kind of unit on a field with these ruins (KK-5,
    KK-42, KK-44, KK-46, KK-55), through the gates in ``passages``: cached,
    since a game has only a few."""
    board = field_of(mode, ruins)
    in_play = _in_play(mode)

    def ok(position: Position) -> bool:
        if position.coord not in in_play:
            return False
        if position.level is Level.WALL and not walls:
            return False
        terrain = board.space(*position.coord).terrain
        return not (
            terrain is Terrain.GATE
            and position.level is Level.GROUND
            and position.coord not in passages
        )

    nodes = tuple(p for p in board.positions() if ok(p))
    index = {p: i for i, p in enumerate(nodes)}
    preds: list[list[int]] = [[] for _ in nodes]
    for i, position in enumerate(nodes):
        for _direction, other in board.steps(position, in_play):
            j = index.get(other)
            if j is not None:
                preds[j].append(i)
        if climbs and position.level is Level.GROUND:
            for _direction, coord in board.climbs(position.coord):
                j = index.get(Position(coord, Level.WALL))
                if j is not None:
                    preds[j].append(i)
    return Graph(nodes, MappingProxyType(index), tuple(tuple(p) for p in preds))
