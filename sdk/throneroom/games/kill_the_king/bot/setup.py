"""The Kill the King bot's setup: its side, its army, its leader, its placement.

The army is the rulebook's suggested army for the mode and side (one move,
KK-18); with the ``advanced`` option the bot buys its advanced units first
(``ADVANCED_FIRST``) and then its usual units one by one, and places what its
formation has no slot for by the fallback below; the leader is the Knight
for both sides (+1 attack to his neighbours, on the door too; losing him
costs one defence point for a turn, not a whole turn of movement like the
Ranger). Placement follows a formation per mode and
side (:data:`FORMATIONS`): the attacker's Ram on the road with a Swordsmen
crew, melee in front, archers behind, Catapults at the back; the defender's
archers and spearmen on the front wall, the gate's top held, Swordsmen and the
Knight at the King's Door (Attack and Defense: a line of Spearmen and
Swordsmen, archers behind, the leader at the back). A counter the formation
has no place for goes to the free square of its zone nearest its side's
front (archers and engines: nearest the back).

Giga (KK-126): Kill the King Giga's formation is the one-board formation on
each side of the joined castle (the second board's turned half round); in a
two-seat team each seat places on its own side (the team's first seat on
the first board), a one-seat team on both in turn. Attack and Defense Giga's
are the one-board formations moved to the teams' ends of the joined field.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from throneroom.games.kill_the_king.board import Coord
from throneroom.games.kill_the_king.bot.model import RESERVE, Situation
from throneroom.games.kill_the_king.data import Direction, Mode, Side, UnitType
from throneroom.v1 import kill_the_king_pb2 as pb

N, S, E, W = Direction.NORTH, Direction.SOUTH, Direction.EAST, Direction.WEST
A, SP, SW = UnitType.ARCHER, UnitType.SPEARMEN, UnitType.SWORDSMEN
C, CA, B, K = UnitType.CAVALRY, UnitType.CATAPULT, UnitType.BATTERING_RAM, UnitType.KNIGHT

LEADER = UnitType.KNIGHT
"""The leader the bot chooses (for either side), when it may."""

Slot = tuple[UnitType, int, int, Direction]


def _row(unit: UnitType, row: int, cols: Sequence[int], facing: Direction) -> list[Slot]:
    return [(unit, row, col, facing) for col in cols]


FORMATIONS: dict[tuple[Mode, Side], list[Slot]] = {
    (Mode.KILL_THE_KING, Side.ATTACKER): [
        (B, 2, 5, N),
        (SW, 2, 5, N),  # the Ram's crew
        *_row(SW, 2, (2, 3, 4, 6, 7), N),
        *_row(SP, 2, (0, 1, 8, 9, 10), N),
        (SP, 1, 0, N),
        (K, 1, 5, N),
        (C, 1, 9, N),
        *_row(A, 1, (1, 2, 3, 4, 6, 7, 8), N),
        *_row(CA, 0, (4, 6), N),
    ],
    (Mode.KILL_THE_KING, Side.DEFENDER): [
        *_row(A, 9, (2, 3, 4, 6, 7, 8), S),
        *_row(SP, 9, (5, 1, 9), S),
        *_row(SW, 14, (5,), S),
        (SW, 15, 4, S),
        (SW, 15, 6, S),
        (SW, 13, 5, S),
        *_row(SP, 12, (4, 6), S),
        (K, 14, 4, S),
    ],
    (Mode.ATTACK_AND_DEFENSE, Side.ATTACKER): [
        *_row(C, 2, (3, 7), N),
        *_row(SW, 2, (4, 5, 6, 2, 8), N),
        *_row(SP, 2, (1, 9), N),
        (K, 1, 5, N),
        *_row(A, 1, (2, 4, 6, 8), N),
        (CA, 0, 5, N),
    ],
    (Mode.ATTACK_AND_DEFENSE, Side.DEFENDER): [
        *_row(SP, 6, (3, 4, 6, 7), S),
        *_row(SW, 6, (5, 2, 8), S),
        *_row(A, 7, (1, 3, 5, 7, 9), S),
        (K, 8, 5, S),
        (SW, 8, 4, S),
        (C, 8, 6, S),
        (CA, 8, 3, S),
    ],
}


def _turned(slots: list[Slot], rows: int, cols: int) -> list[Slot]:
    """A formation on the other board of a joined field (turned half round)."""
    return [(u, rows - 1 - r, cols - 1 - c, f.opposite) for u, r, c, f in slots]


def _moved(slots: list[Slot], by: int) -> list[Slot]:
    return [(u, r + by, c, f) for u, r, c, f in slots]


for _side in (Side.ATTACKER, Side.DEFENDER):
    _one = FORMATIONS[(Mode.KILL_THE_KING, _side)]
    _other = _turned(_one, 32, 11)
    FORMATIONS[(Mode.KILL_THE_KING_GIGA, _side)] = [
        slot for pair in zip(_one, _other, strict=True) for slot in pair
    ]
FORMATIONS[(Mode.ATTACK_AND_DEFENSE_GIGA, Side.ATTACKER)] = _moved(
    FORMATIONS[(Mode.ATTACK_AND_DEFENSE, Side.ATTACKER)], 7
)
FORMATIONS[(Mode.ATTACK_AND_DEFENSE_GIGA, Side.DEFENDER)] = _moved(
    FORMATIONS[(Mode.ATTACK_AND_DEFENSE, Side.DEFENDER)], 16
)

BACK_UNITS = frozenset({UnitType.ARCHER, UnitType.CATAPULT, UnitType.BALLISTA})


def own_half(sit: Situation) -> int | None:
    """Kill the King Giga: the side of the castle this seat places on, when its
    team has two seats (its place among them); None: both."""
    if len(sit.halves) < 2:
        return None
    team = [i for i, s in enumerate(sit.view.seats) if s.side == int(sit.side)]
    return team.index(sit.seat) if len(team) == 2 and sit.seat in team else None


@dataclass(frozen=True)
class Placing:
    unit: UnitType
    coord: Coord
    facing: Direction


def place(sit: Situation, moves: Sequence[pb.KillTheKingMove]) -> int:
    """The index of the placement to make among the legal ``place`` moves."""
    types = {u.id: UnitType(u.type) for u in sit.view.units}
    offered: dict[Placing, int] = {}
    for i, move in enumerate(moves):
        if move.WhichOneof("decision") != "place":
            continue
        p = move.place
        placing = Placing(types[p.unit], Coord(p.square.row, p.square.col), Direction(p.facing))
        offered.setdefault(placing, i)
    placed: dict[tuple[UnitType, Coord], int] = {}
    for piece in sit.pieces:
        if piece.side is sit.side:
            placed[(piece.type, piece.coord)] = placed.get((piece.type, piece.coord), 0) + 1
    used: dict[tuple[UnitType, Coord], int] = {}
    half = own_half(sit)
    for unit, row, col, facing in FORMATIONS.get((sit.mode, sit.side), []):
        if half is not None and sit.half_of(Coord(row, col)) != half:
            continue
        key = (unit, Coord(row, col))
        used[key] = used.get(key, 0) + 1
        if used[key] <= placed.get(key, 0):
            continue  # this slot is filled
        index = offered.get(Placing(unit, Coord(row, col), facing))
        if index is not None:
            return index
    return _fallback(sit, offered)


def _fallback(sit: Situation, offered: dict[Placing, int]) -> int:
    """The free square nearest the front (archers and engines: the back), facing
    the enemy; Kill the King Giga: on the seat's own side of the castle first."""
    half = own_half(sit)

    def towards(coord: Coord) -> Direction:
        ahead = N if sit.side is Side.ATTACKER else S
        return ahead.opposite if sit.half_of(coord) else ahead

    def score(p: Placing) -> tuple[int, int, int, int]:
        front = 1 if towards(p.coord) is N else -1
        depth = p.coord.row * front * (-1 if p.unit in BACK_UNITS else 1)
        stacked = 1 if sit.on_coord.get(p.coord) else 0
        elsewhere = 0 if half is None or sit.half_of(p.coord) == half else 1
        return (elsewhere, stacked, -depth, abs(p.coord.col - sit.board.cols // 2))

    facing_ok = [p for p in offered if p.facing is towards(p.coord)] or list(offered)
    best = min(facing_ok, key=score)
    return offered[best]


def reserve_left(sit: Situation) -> int:
    """Counters of the seat's side still to place (Giga: the team's pool)."""
    return sum(1 for u in sit.view.units if u.side == int(sit.side) and u.status == RESERVE)
