"""Positions for the combat tests: a few counters on the field, and loaded dice.

``position(...)`` builds a ``KillTheKingState`` in the attack phase of round 1
(two seats: seat 0 the attacker, seat 1 the defender) with the given counters
standing on the field; the counters' ids are their order in the call. The
field is the mode's (the standard board), with the destroyed wall and gate
spaces given as ``ruins``. ``Dice(5, 2, ...)`` is an ``Rng`` whose d6 show
those values in order; a test checks that every value was used.
"""

from __future__ import annotations

from dataclasses import dataclass

from throneroom.games.kill_the_king.board import Board, Coord
from throneroom.games.kill_the_king.data import MODES, Direction, Level, Mode, Side, UnitType
from throneroom.games.kill_the_king.field import field_for
from throneroom.v1 import common_pb2
from throneroom.v1 import kill_the_king_pb2 as pb
from throneroom_server.games.rng import Rng

A, D = Side.ATTACKER, Side.DEFENDER
N, E, S, W = Direction.NORTH, Direction.EAST, Direction.SOUTH, Direction.WEST
GATE = Coord(9, 5)
DOOR = Coord(15, 5)
Event = pb.KillTheKingEvent
Move = pb.KillTheKingMove


@dataclass(frozen=True)
class Counter:
    """One counter of a test position."""

    kind: UnitType
    side: Side
    square: tuple[int, int]
    facing: Direction = N
    level: Level | None = None
    """None: the level a unit at rest has there (above the gate on its space)."""
    crew_of: int | None = None
    """The index (id) of the Battering Ram it mans."""
    moved: bool = False
    attacked: bool = False
    climb: Direction | None = None
    """A prepared climb (KK-45)."""


def unit(
    kind: UnitType,
    side: Side,
    row: int,
    col: int,
    facing: Direction = N,
    *,
    level: Level | None = None,
    crew_of: int | None = None,
    moved: bool = False,
    attacked: bool = False,
    climb: Direction | None = None,
) -> Counter:
    return Counter(kind, side, (row, col), facing, level, crew_of, moved, attacked, climb)


def field(state: pb.KillTheKingState) -> Board:
    """The state's field with its ruins (KK-6)."""
    board = field_for(Mode(state.mode))
    return board.ruined((r.square.row, r.square.col) for r in state.ruins)


def position(
    *counters: Counter,
    mode: Mode = Mode.KILL_THE_KING,
    ruins: tuple[tuple[int, int], ...] = (),
    turn: Side = A,
    round_: int = 1,
) -> pb.KillTheKingState:
    spec = MODES[mode]
    state = pb.KillTheKingState(
        num_seats=2,
        mode=pb.KillTheKingMode.ValueType(mode),
        phase=pb.KillTheKingState.PHASE_ATTACK,
        round=round_,
        turn_side=pb.Side.ValueType(turn),
        to_move=0 if turn is A else 1,
        active_unit=-1,
    )
    state.seats.add(side=pb.SIDE_ATTACKER, team=0)
    state.seats.add(side=pb.SIDE_DEFENDER, team=1)
    board = field_for(mode)
    in_play = board.in_play(spec.zone_layer)
    for square in board.gates:
        if square in in_play:
            state.gates.add(
                square=pb.Square(row=square.row, col=square.col),
                destroyed=square in ruins,
                controlled_by=pb.SIDE_DEFENDER,
            )
    for row, col in ruins:
        state.ruins.add(square=pb.Square(row=row, col=col), round=0)
    ruined = field(state)
    for i, c in enumerate(counters):
        level = c.level if c.level is not None else ruined.level_of(Coord(*c.square))
        u = state.units.add(
            id=i,
            type=pb.UnitType.ValueType(c.kind),
            seat=0 if c.side is A else 1,
            side=pb.Side.ValueType(c.side),
            status=pb.KillTheKingUnit.STATUS_ON_FIELD,
            square=pb.Square(row=c.square[0], col=c.square[1]),
            level=pb.Level.ValueType(level),
            facing=pb.Direction.ValueType(c.facing),
            carried_by=-1 if c.crew_of is None else c.crew_of,
            moved=c.moved,
            attacked=c.attacked,
        )
        if c.climb is not None:
            u.climb = pb.Direction.ValueType(c.climb)
    return state


class Dice(Rng):
    """An Rng whose six-sided dice show the given values, in order."""

    def __init__(self, *values: int) -> None:
        super().__init__(common_pb2.RngState())
        self.left = list(values)

    def below(self, n: int) -> int:
        assert n == 6, f"combat rolls only d6, not d{n}"
        assert self.left, "the test gave too few dice"
        return self.left.pop(0) - 1


def kinds(events: list[Event]) -> list[str]:
    return [str(e.WhichOneof("kind")) for e in events]


def dice_rolled(events: list[Event]) -> list[Event.DieRolled]:
    return [e.die_rolled for e in events if e.HasField("die_rolled")]


def attacked(events: list[Event]) -> Event.Attacked:
    (event,) = [e.attacked for e in events if e.HasField("attacked")]
    return event


def killed(events: list[Event]) -> list[tuple[int, int]]:
    """(unit, cause) of every UnitKilled event."""
    return [(e.unit_killed.unit, e.unit_killed.cause) for e in events if e.HasField("unit_killed")]


def attack(unit_id: int, row: int, col: int) -> Move:
    return Move(attack=Move.Attack(unit=unit_id, target=pb.Square(row=row, col=col)))


def targets(moves: list[Move], unit_id: int | None = None) -> list[tuple[int, int, int]]:
    """(unit, row, col) of each attack move (of one unit if given)."""
    out = [(m.attack.unit, m.attack.target.row, m.attack.target.col) for m in moves]
    return [t for t in out if unit_id is None or t[0] == unit_id]
