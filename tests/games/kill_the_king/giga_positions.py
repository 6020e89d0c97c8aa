"""Positions and setup helpers for the Giga tests (two boards, 2-4 seats in two
teams; docs/rules/kill_the_king.md section 15).

``Giga(mode, seats).put(kind, seat, row, col)`` lists counters controlled by
``seat`` (team = seat % 2: team 0 attacks); ``.turn(side, round)`` is the
state at the start of that side's turn, started by the engine's own
``start_turn``. ``setup_until(...)`` plays a fresh game's setup through the
engine with a fixed chooser.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from throneroom.games.kill_the_king.board import Coord
from throneroom.games.kill_the_king.data import MODES, Direction, Level, Mode, Side, UnitType
from throneroom.games.kill_the_king.field import field_for
from throneroom.v1 import kill_the_king_pb2 as pb
from throneroom_server.games.kill_the_king.turns import start_turn
from throneroom_server.games.rng import seed_rng

from tests.games.kill_the_king.positions import ENGINE, play

A, D = Side.ATTACKER, Side.DEFENDER
N, E, S, W = Direction.NORTH, Direction.EAST, Direction.SOUTH, Direction.WEST
KTKG, ADG = Mode.KILL_THE_KING_GIGA, Mode.ATTACK_AND_DEFENSE_GIGA
Move = pb.KillTheKingMove
Event = pb.KillTheKingEvent
State = pb.KillTheKingState


def side_of_seat(seat: int) -> Side:
    return A if seat % 2 == 0 else D


@dataclass
class Giga:
    """A Giga test position under construction."""

    mode: Mode = KTKG
    seats: int = 4
    counters: list[pb.KillTheKingUnit] = field(default_factory=list)

    def put(self, kind: UnitType, seat: int, row: int, col: int, facing: Direction = N) -> int:
        """A counter of ``seat`` (its side: its team's) on the field; returns its id."""
        board = field_for(self.mode)
        u = pb.KillTheKingUnit(
            id=len(self.counters),
            type=pb.UnitType.ValueType(kind),
            seat=seat,
            side=pb.Side.ValueType(side_of_seat(seat)),
            status=pb.KillTheKingUnit.STATUS_ON_FIELD,
            facing=pb.Direction.ValueType(facing),
            carried_by=-1,
        )
        u.square.row, u.square.col = row, col
        u.level = pb.Level.ValueType(board.level_of(Coord(row, col)))
        self.counters.append(u)
        return u.id

    def state(self) -> State:
        state = State(
            num_seats=self.seats,
            mode=pb.KillTheKingMode.ValueType(self.mode),
            phase=State.PHASE_MOVEMENT,
            active_unit=-1,
        )
        seed_rng(state.rng, 1)
        for seat in range(self.seats):
            state.seats.add(side=pb.Side.ValueType(side_of_seat(seat)), team=seat % 2)
        state.units.extend(self.counters)
        if MODES[self.mode].uses_castle:
            for gate in field_for(self.mode).gates:
                g = state.gates.add(controlled_by=pb.SIDE_DEFENDER)
                g.square.row, g.square.col = gate
        return state

    def turn(self, side: Side = A, round: int = 1) -> State:
        """The state at the start of ``side``'s turn of ``round``."""
        state = self.state()
        state.round = round - 1 if side is A else round
        start_turn(state, side, [])
        return state


def options(mode: Mode, *, advanced: bool = False) -> pb.KillTheKingOptions:
    return pb.KillTheKingOptions(mode=pb.KillTheKingMode.ValueType(mode), advanced=advanced)


def fresh(mode: Mode, seats: int, seed: int = 1) -> State:
    return ENGINE.setup(options(mode), seats, seed)


def choose_side(side: Side) -> Move:
    return Move(choose_side=Move.ChooseSide(side=pb.Side.ValueType(side)))


def buy(kind: UnitType) -> Move:
    return Move(buy=Move.Buy(unit=pb.UnitType.ValueType(kind)))


def leader(kind: UnitType) -> Move:
    return Move(choose_leader=Move.ChooseLeader(leader=pb.UnitType.ValueType(kind)))


def place(uid: int, row: int, col: int, facing: Direction = N) -> Move:
    return Move(
        place=Move.Place(
            unit=uid, square=pb.Square(row=row, col=col), facing=pb.Direction.ValueType(facing)
        )
    )


def teams_chosen(mode: Mode, seats: int, seed: int = 1) -> State:
    """A fresh game in which the initiative winner's team took the attack: seats
    0 (and 2) attack, seats 1 (and 3) defend, whoever won the roll."""
    state = fresh(mode, seats, seed)
    side = A if state.to_move % 2 == 0 else D
    state, _ = play(state, choose_side(side))
    assert [Side(s.side) for s in state.seats] == [side_of_seat(i) for i in range(seats)]
    return state


Chooser = Callable[[State, int, list[Move]], Move]


def setup_until(
    state: State, phase: pb.KillTheKingState.Phase.ValueType, chooser: Chooser
) -> tuple[State, list[tuple[int, Move]]]:
    """Play ``chooser``'s moves (the lowest acting seat) until ``phase``; the
    (seat, move) decisions made."""
    made: list[tuple[int, Move]] = []
    while state.phase != phase:
        seat = ENGINE.to_act(state)[0]
        assert isinstance(seat, int)
        move = chooser(state, seat, list(ENGINE.legal_moves(state, seat)))
        made.append((seat, move))
        state, _ = play(state, move, seat)
    return state, made


def first(state: State, seat: int, moves: list[Move]) -> Move:
    return moves[0]


def last(state: State, seat: int, moves: list[Move]) -> Move:
    return moves[-1]


def kind_of(move: Move) -> str:
    return str(move.WhichOneof("decision"))


def level(state: State, uid: int) -> Level:
    return Level(state.units[uid].level)
