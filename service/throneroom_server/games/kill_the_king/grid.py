"""The field as ints for the movement listing (:mod:`.listing`): a position
is one int, ``(row << 6 | col) << 2 | level`` (a space's int is ``row << 6 |
col``; fields are at most 32 x 11), so steps, occupants and the gate's passage
are looked up without building ``Position`` or ``Direction`` objects. Each
field's tables (a mode and its ruins) are built once, from ``state``'s own
cached terrain; the unit types' chart as the listing reads it."""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

from throneroom.games.kill_the_king.board import Board
from throneroom.games.kill_the_king.data import UNITS, Direction, Mode
from throneroom.games.kill_the_king.rules import table as tb
from throneroom.v1 import kill_the_king_pb2 as pb

from throneroom_server.games.kill_the_king import state as st

State = pb.KillTheKingState
Unit = pb.KillTheKingUnit


class Chart(NamedTuple):
    """What the listing reads of a unit type's chart."""

    movement: int
    rotation_cost: int
    may_wall: bool
    may_man: bool
    may_climb: bool


CHARTS = {
    int(t): Chart(c.movement, c.rotation_cost, c.may_stand_on_wall, c.may_man, c.may_climb)
    for t, c in UNITS.items()
}

OTHER_FACINGS = tuple(
    tuple(int(d) for d in Direction if int(d) != facing) for facing in range(max(Direction) + 1)
)
"""The facings other than each facing (by its number), in Direction order."""

Step = tuple[int, int, int]
"""(direction, position entered, what it enters: st.OPEN, ONTO_WALL or PASSAGE)."""


class Tables(NamedTuple):
    """A field's terrain as ints (see the module's docstring)."""

    steps: dict[int, tuple[Step, ...]]
    climbs: dict[int, tuple[tuple[int, int], ...]]
    """Ground space -> (direction, wall space) of each climb, in play only."""
    walls: frozenset[int]
    board: Board
    by_passage: frozenset[int]
    """The spaces next to the gate's passage (a step there changes who may pass)."""
    around: dict[int, tuple[int, ...]]
    """Space -> the positions on it and the spaces next to it."""
    around2: dict[int, tuple[int, ...]]
    """Space -> the positions within two spaces of it."""


def position(u: Unit) -> int:
    square = u.square
    return (square.row << 6 | square.col) << 2 | u.level


_AROUND = ((1, 0), (0, 1), (-1, 0), (0, -1))


@lru_cache(maxsize=128)
def _tables(mode: Mode, ruins: frozenset[tuple[int, int]]) -> Tables:
    board = tb.field_of(mode, ruins)  # the same caches as st.terrain's
    steps, walls = st._terrain(mode, ruins)
    in_play = tb.in_play_of(mode)
    climbs = st._climbs(mode, ruins)

    def pos(p: tuple[tuple[int, int], int]) -> int:
        (row, col), level = p
        return (row << 6 | col) << 2 | int(level)

    passages = {q.coord for out in steps.values() for _, q, k in out if k == st.PASSAGE}
    by_passage = frozenset((c.row + dr) << 6 | (c.col + dc) for c in passages for dr, dc in _AROUND)
    return Tables(
        steps={pos(p): tuple((int(d), pos(q), k) for d, q, k in out) for p, out in steps.items()},
        climbs={
            c.row << 6 | c.col: tuple((int(d), w.row << 6 | w.col) for d, w in out if w in in_play)
            for c, out in climbs.items()
        },
        walls=frozenset(c.row << 6 | c.col for c in walls),
        board=board,
        by_passage=by_passage,
        around=_within(steps, 1),
        around2=_within(steps, 2),
    )


def _within(steps: st.StepTable, reach: int) -> dict[int, tuple[int, ...]]:
    """Space -> the positions of the field within ``reach`` spaces of it."""
    spaces: dict[int, list[int]] = {}
    for p in steps:
        (row, col), level = p
        spaces.setdefault(row << 6 | col, []).append((row << 6 | col) << 2 | int(level))
    out = {}
    for c in spaces:
        row, col = c >> 6, c & 63
        out[c] = tuple(
            q
            for dr in range(-reach, reach + 1)
            for dc in range(-reach, reach + 1)
            if abs(dr) + abs(dc) <= reach and row + dr >= 0 and col + dc >= 0
            for q in spaces.get((row + dr) << 6 | (col + dc), ())
        )
    return out


def tables(state: State) -> Tables:
    return _tables(st._MODES[state.mode], tb.ruins(state))
