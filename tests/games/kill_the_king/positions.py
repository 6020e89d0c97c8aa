"""Typed positions for the engine's tests (setup, movement, turns, views).

``Board(...).put(...)`` lists counters; ``.turn(side, round)`` gives the
``KillTheKingState`` at the start of that side's turn (the engine's own
``start_turn``: flags cleared, road bonus, reinforcements when due), with seat
0 the attacker and seat 1 the defender; counters' ids are their order. The
engine ``ENGINE`` and helpers ``play``/``legal`` drive it through the kit's
checked apply, so every move a test plays is a legal one.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from throneroom.games.kill_the_king.board import Coord
from throneroom.games.kill_the_king.data import MODES, UNITS, Direction, Level, Mode, Side, UnitType
from throneroom.games.kill_the_king.field import field_for
from throneroom.v1 import kill_the_king_pb2 as pb
from throneroom_server.games.kill_the_king.engine import KillTheKing
from throneroom_server.games.kill_the_king.turns import start_turn
from throneroom_server.games.rng import seed_rng

A, D = Side.ATTACKER, Side.DEFENDER
N, E, S, W = Direction.NORTH, Direction.EAST, Direction.SOUTH, Direction.WEST
GATE = Coord(9, 5)
Move = pb.KillTheKingMove
Event = pb.KillTheKingEvent
State = pb.KillTheKingState
ENGINE = KillTheKing()


@dataclass
class Field:
    """A test position under construction."""

    mode: Mode = Mode.KILL_THE_KING
    counters: list[pb.KillTheKingUnit] = field(default_factory=list)
    gate_side: Side = D

    def put(
        self,
        kind: UnitType,
        side: Side,
        row: int,
        col: int,
        facing: Direction = N,
        *,
        level: Level | None = None,
        crew_of: int | None = None,
        dismounted: bool = False,
    ) -> int:
        """A counter on the field; returns its id."""
        board = field_for(self.mode)
        where = Coord(row, col)
        u = pb.KillTheKingUnit(
            id=len(self.counters),
            type=pb.UnitType.ValueType(kind),
            seat=0 if side is A else 1,
            side=pb.Side.ValueType(side),
            status=pb.KillTheKingUnit.STATUS_ON_FIELD,
            facing=pb.Direction.ValueType(facing),
            carried_by=-1 if crew_of is None else crew_of,
            dismounted=dismounted,
        )
        u.square.row, u.square.col = where
        u.level = pb.Level.ValueType(level if level is not None else board.level_of(where))
        self.counters.append(u)
        return u.id

    def state(self, phase: pb.KillTheKingState.Phase.ValueType = State.PHASE_MOVEMENT) -> State:
        """The bare state (no turn started): for views and setup-free checks. A
        position with an Advanced unit is a game with the ``advanced`` option
        (the engine's laws: no Advanced unit without it)."""
        advanced = any(UNITS[UnitType(u.type)].advanced for u in self.counters)
        state = State(
            num_seats=2,
            mode=pb.KillTheKingMode.ValueType(self.mode),
            phase=phase,
            advanced=advanced,
        )
        seed_rng(state.rng, 1)
        state.seats.add(side=pb.SIDE_ATTACKER, team=0)
        state.seats.add(side=pb.SIDE_DEFENDER, team=1)
        state.units.extend(self.counters)
        state.active_unit = -1
        if MODES[self.mode].uses_castle:
            gate = state.gates.add(controlled_by=pb.Side.ValueType(self.gate_side))
            gate.square.row, gate.square.col = GATE
        return state

    def turn(self, side: Side = A, round: int = 1) -> State:
        """The state at the start of ``side``'s turn of ``round``."""
        state = self.state()
        state.round = round - 1 if side is A else round
        start_turn(state, side, [])
        return state


def legal(state: State, seat: int | None = None) -> list[Move]:
    seat = state.to_move if seat is None else seat
    return list(ENGINE.legal_moves(state, seat))


def play(state: State, move: Move, seat: int | None = None) -> tuple[State, list[Event]]:
    """Apply a move through the checked apply (it must be legal)."""
    seat = state.to_move if seat is None else seat
    return ENGINE.apply(state, seat, move)


def step(uid: int, d: Direction) -> Move:
    return Move(step=Move.Step(unit=uid, direction=pb.Direction.ValueType(d)))


def rotate(uid: int, d: Direction) -> Move:
    return Move(rotate=Move.Rotate(unit=uid, facing=pb.Direction.ValueType(d)))


def climb(uid: int, d: Direction) -> Move:
    return Move(climb=Move.Climb(unit=uid, direction=pb.Direction.ValueType(d)))


def prepare_climb(uid: int, d: Direction) -> Move:
    return Move(prepare_climb=Move.PrepareClimb(unit=uid, direction=pb.Direction.ValueType(d)))


def dismount(uid: int) -> Move:
    return Move(dismount=Move.Dismount(unit=uid))


END = Move(end_phase=Move.EndPhase())


def walk(state: State, uid: int, *directions: Direction) -> State:
    for d in directions:
        state, _ = play(state, step(uid, d))
    return state


def where(state: State, uid: int) -> tuple[int, int, int]:
    u = state.units[uid]
    return (u.square.row, u.square.col, u.level)


def steps_of(state: State, uid: int) -> set[Direction]:
    return {
        Direction(m.step.direction)
        for m in legal(state)
        if m.WhichOneof("decision") == "step" and m.step.unit == uid
    }
