"""The field a mode is played on, and where each side sets up.

A mode plays on the standard board (board.py) or, in Giga, on two of them
joined (KK-9, KK-126); each side sets up by the zones of the mode's zone
layer (KK-22..KK-26). Pure data lookups over the map: no rules state.

    >>> field_for(Mode.KILL_THE_KING_GIGA).rows
    32
    >>> sorted({c.row for c in setup_squares(Mode.KILL_THE_KING, Side.ATTACKER, UnitType.PEASANT)})
    [0, 1, 2, 3]
"""

from __future__ import annotations

from functools import cache

from throneroom.games.kill_the_king.board import DEFAULT_BOARD, Board, Coord, Space, Zone
from throneroom.games.kill_the_king.enums import Mode, Side, UnitType
from throneroom.games.kill_the_king.modes import MODES, Join, ModeSpec
from throneroom.games.kill_the_king.units import EXTRA_ROW_UNITS, UNITS


def join_boards(first: Board, second: Board, join: Join) -> Board:
    """Two boards as one field (KK-9). One of them is turned half
    round so the named sides meet, and the field keeps row 0 at an attacker's
    edge:

    * CASTLE_SIDE: ``first`` as it is (rows 0..R-1), ``second`` turned above it
      (its castle meets the first castle: one closed castle in the middle);
    * GRASS_SIDE: ``first`` turned (its castle at row 0), ``second`` as it is
      above it (the two green fields meet in the middle).

    Spaces keep their board (0 for ``first``) and their coordinates on it.
    """
    if join is Join.NONE:
        raise ValueError("join_boards needs CASTLE_SIDE or GRASS_SIDE")
    if (first.rows, first.cols) != (second.rows, second.cols):
        raise ValueError("only boards of the same size can be joined")
    rows, cols = first.rows, first.cols
    turn_first = join is Join.GRASS_SIDE

    def place(board: Board, index: int, turned: bool, offset: int) -> dict[Coord, int]:
        where: dict[Coord, int] = {}
        for i, space in enumerate(board.spaces):
            row, col = space.coord
            if turned:
                row, col = rows - 1 - row, cols - 1 - col
            where[Coord(row + offset, col)] = i
        return where

    bottom, top = (first, second)
    parts = (
        (bottom, 0, turn_first, 0),
        (top, 1, not turn_first, rows),
    )
    spaces: dict[Coord, Space] = {}
    layer_cells: dict[str, dict[Coord, Zone]] = {name: {} for name, _ in first.layers}
    for board, index, turned, offset in parts:
        for coord, i in place(board, index, turned, offset).items():
            old = board.spaces[i]
            spaces[coord] = Space(
                coord, old.terrain, old.local, old.road, old.reinforcement, old.rubble, index
            )
            for name, zones in board.layers:
                layer_cells[name][coord] = zones[i]
    order = [Coord(r, c) for r in range(2 * rows) for c in range(cols)]
    layers = tuple(
        (name, tuple(cells[c] for c in order)) for name, cells in sorted(layer_cells.items())
    )
    return Board(2 * rows, cols, tuple(spaces[c] for c in order), layers, boards=2)


@cache
def field_for(mode: Mode) -> Board:
    """The field a mode is played on: the standard board, or two joined (Giga)."""
    spec = MODES[mode]
    if spec.join is Join.NONE:
        return DEFAULT_BOARD
    return join_boards(DEFAULT_BOARD, DEFAULT_BOARD, spec.join)


# -- setup zones -------------------------------------------------------------------------


def _own_boards(spec: ModeSpec, side: Side) -> tuple[int, ...]:
    """The boards of a field where a side sets up (KK-23, KK-24, KK-126)."""
    if spec.join is Join.GRASS_SIDE:
        return (0,) if side is Side.ATTACKER else (1,)
    return tuple(range(spec.boards))


def setup_squares(mode: Mode, side: Side, unit: UnitType) -> frozenset[Coord]:
    """Where ``side`` may place a ``unit`` at setup in ``mode`` (KK-23..KK-25):
    the side's setup zone of the mode's zone layer; the extra zone for the
    units allowed there; wall spaces (and above the gate) only for units that
    may stand on a wall, or be set there at setup. On a Giga field played on
    the grass side, each team sets up in the defender's zone of its own board
    (the far end of the joined battlefield)."""
    spec = MODES[mode]
    board = field_for(mode)
    layer = spec.zone_layer
    grass_giga = spec.join is Join.GRASS_SIDE
    if side is Side.ATTACKER and not grass_giga:
        main, extra = Zone.ATTACKER, Zone.ATTACKER_EXTRA
        extra_units = EXTRA_ROW_UNITS
    else:
        main, extra = Zone.DEFENDER, Zone.DEFENDER_EXTRA
        extra_units = EXTRA_ROW_UNITS if grass_giga else spec.defender_extra_units
    zones = (main, extra) if unit in extra_units else (main,)
    chart = UNITS[unit]
    on_wall = chart.may_stand_on_wall or (side is Side.DEFENDER and chart.wall_setup_immobile)
    out: set[Coord] = set()
    for index in _own_boards(spec, side):
        for zone in zones:
            for coord in board.zone_squares(layer, zone, index):
                if board.space(*coord).is_wall and not on_wall:
                    continue
                out.add(coord)
    return frozenset(out)


def home_row(mode: Mode, side: Side) -> int:
    """The in-play row nearest a side's own edge (the attacker's: the lowest; the
    defender's: the highest): the Ranger's 'rearmost' is measured from it
    (KK-102), the attacker's breakthrough aims at the defender's (KK-117).
    Kill the King Giga has attacker edges at both ends: ValueError (KK-131)."""
    spec = MODES[mode]
    if spec.join is Join.CASTLE_SIDE:
        raise ValueError(
            f"{spec.name}: the attackers have an edge at both ends; measure on the "
            "board half (KK-131)"
        )
    board = field_for(mode)
    rows = [c.row for c in board.in_play(spec.zone_layer)]
    return min(rows) if side is Side.ATTACKER else max(rows)


def rear_depth(mode: Mode, side: Side, coord: Coord) -> int:
    """How far a unit of ``side`` at ``coord`` stands from its side's own edge,
    for the Ranger's 'rearmost' (KK-102): the distance from the side's home row;
    on the Kill the King Giga field, from the side's edge of the board half the
    unit stands on (the attackers' outer edge, the defenders' edge where the
    boards meet, KK-131)."""
    spec = MODES[mode]
    if spec.join is not Join.CASTLE_SIDE:
        return abs(coord.row - home_row(mode, side))
    rows = field_for(mode).rows // 2
    lower = coord.row < rows
    if side is Side.ATTACKER:
        return coord.row if lower else 2 * rows - 1 - coord.row
    return rows - 1 - coord.row if lower else coord.row - rows
