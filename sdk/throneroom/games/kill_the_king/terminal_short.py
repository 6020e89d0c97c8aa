"""Kill the King drawn for a terminal of few rows (80x24), as the viewer's seat sees it.

The field without cell borders: two characters a space, the counter's
letter and its facing arrow (the terrain's mark where no counter stands), a
stack of counters in reverse video, a counter on the wall level underlined;
column letters and row numbers spell the squares as the notation does
(``f3``). Upright (north at the top) beside the round, the castle's state,
the prices and the seats' lines; on fewer rows the field is turned a
quarter round (north to the right, column ``a`` at the top, the odd rows
numbered, "north >" after them), and on the fewest only the round's line goes with it. The table
of every counter on the field is left out (``details``: the session's 'd').
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence

from rich.console import RenderableType
from rich.table import Table
from rich.text import Text

from throneroom.games.kill_the_king.board import Board, Coord
from throneroom.games.kill_the_king.data import Side
from throneroom.games.kill_the_king.notation.board import ARROWS, unit_letter
from throneroom.games.kill_the_king.squares import COLUMNS
from throneroom.games.kill_the_king.terminal import (
    OUT_OF_PLAY,
    SIDE_NAMES,
    SIDE_STYLES,
    TERRAIN_STYLES,
    Unit,
    counter_lines,
    counters_by_square,
    head,
    on_top,
    prices,
    spec,
    status,
    type_name,
    wrecked_field,
)
from throneroom.v1 import kill_the_king_pb2 as pb

__all__ = ["SHORT_LEGEND", "TURNED_ARROWS", "kill_the_king_details", "kill_the_king_short_boards"]

State = pb.KillTheKingState

#: The facing arrows on the field turned a quarter round (north to the right).
TURNED_ARROWS: Mapping[pb.Direction.ValueType, str] = {
    pb.DIRECTION_NORTH: ">",
    pb.DIRECTION_EAST: "v",
    pb.DIRECTION_SOUTH: "<",
    pb.DIRECTION_WEST: "^",
}
SHORT_LEGEND = (
    "UPPER attacker, lower defender, the arrow its facing; reversed: more counters;"
    " underlined: on the wall. . grass = road : edge _ castle + castle road # wall"
    " ^ gate / stairs @ King's Door * rubble"
)


def _mark(
    board: Board,
    coord: Coord,
    here: Sequence[Unit],
    in_play: bool,
    arrows: Mapping[pb.Direction.ValueType, str],
) -> Text:
    """One space in two characters."""
    if not in_play:
        return Text("  ", style=OUT_OF_PLAY)
    space = board.space(*coord)
    char = "*" if space.rubble else space.char
    background = TERRAIN_STYLES.get(char, "")
    if not here:
        return Text(char + " ", style=background)
    on = background[background.index(" on ") :] if " on " in background else ""
    top = on_top(here)
    side = _side(top)
    style = SIDE_STYLES.get(side, "bold") if side is not None else "bold"
    if top.level == pb.LEVEL_WALL:
        style += " underline"
    if len(here) > 1:
        style += " reverse"
    return Text(unit_letter(top) + arrows.get(top.facing, " "), style=style + on)


def _side(unit: Unit) -> Side | None:
    try:
        return Side(unit.side)
    except ValueError:
        return None


def short_field(view: pb.KillTheKingView, *, turned: bool = False) -> Text:
    """The field in two characters a space, labelled as the notation's
    squares; ``turned``: a quarter round, north to the right."""
    mode, _name, _rounds, layer, _castle = spec(view)
    board = wrecked_field(mode, view)
    playing = board.in_play(layer)
    here = counters_by_square(view, board)
    rows = [r for r in range(board.rows) if any(Coord(r, c) in playing for c in range(board.cols))]
    cols = range(board.cols)
    drawn = Text(no_wrap=True, overflow="crop")

    def mark(row: int, col: int, arrows: Mapping[pb.Direction.ValueType, str]) -> Text:
        coord = Coord(row, col)
        return _mark(board, coord, here.get(coord, ()), coord in playing, arrows)

    if turned:
        labels = "".join(f"{r + 1:<2}" if r % 2 == 0 else "  " for r in rows)
        drawn.append(f"  {labels} north >", style="dim")
        for col in cols:
            drawn.append("\n" + _column(col) + " ", style="dim")
            for row in rows:
                drawn.append_text(mark(row, col, TURNED_ARROWS))
        return drawn
    drawn.append("   " + "".join(f"{_column(c)} " for c in cols), style="dim")
    for row in reversed(rows):
        drawn.append(f"\n{row + 1:>2} ", style="dim")
        for col in cols:
            drawn.append_text(mark(row, col, ARROWS))
    return drawn


def _column(col: int) -> str:
    return COLUMNS[col] if col < len(COLUMNS) else "?"


def _ids(ids: Sequence[int]) -> str:
    """Counter ids, runs as ranges: ``u1-u7 u9``."""
    runs: list[list[int]] = []
    for i in sorted(ids):
        if runs and i == runs[-1][-1] + 1:
            runs[-1].append(i)
        else:
            runs.append([i])
    return " ".join(f"u{r[0]}" if len(r) == 1 else f"u{r[0]}-u{r[-1]}" for r in runs)


def seat_lines(view: pb.KillTheKingView, viewer: int | None) -> list[Text]:
    """Each seat in a line: its side, coins, initiative, reserve (the
    viewer's by type with its ids) and dead."""
    lines = []
    for index, seat in enumerate(view.seats):
        side = Side(seat.side) if seat.side else None
        style = SIDE_STYLES.get(side, "") if side is not None else ""
        line = Text(("▶ " if index in view.to_act else "") + f"seat {index}", style=style)
        if index == viewer:
            line.append(" (you)", style=style)
        line.append(f": the {SIDE_NAMES[side]}" if side is not None else ": no side yet")
        line.append(f", {seat.coins} coins")
        if seat.initiative_rolls:
            line.append(f", rolled {', '.join(map(str, seat.initiative_rolls))}")
        own = [u for u in view.units if u.seat == index]
        reserve = [u for u in own if u.status == Unit.STATUS_RESERVE]
        if reserve:
            line.append(f", {len(reserve)} in reserve")
            if index == viewer:
                by_type: dict[int, list[int]] = defaultdict(list)
                for unit in reserve:
                    by_type[unit.type].append(unit.id)
                kinds = sorted(by_type.items(), key=lambda item: min(item[1]))
                line.append(": " + "; ".join(f"{type_name(k)} {_ids(ids)}" for k, ids in kinds))
            elif view.phase == State.PHASE_PLACEMENT:
                line.append(" (placed unseen)")
        dead = sum(1 for u in own if u.status == Unit.STATUS_DEAD)
        if dead:
            line.append(f", {dead} dead")
        lines.append(line)
    return lines


def _beside(field: Text, notes: Sequence[RenderableType]) -> Table:
    grid = Table.grid(padding=(0, 2))
    grid.add_column(no_wrap=True)
    grid.add_column()
    text = Text("\n").join(n if isinstance(n, Text) else Text(str(n)) for n in notes)
    grid.add_row(field, text)
    return grid


def kill_the_king_short_boards(
    view: pb.KillTheKingView, viewer: int | None
) -> list[list[RenderableType]]:
    """The short drawings, fullest first: the upright field beside the round,
    the castle, the prices, the seats and the legend; the turned field beside
    the same without the legend; the turned field under the round with the
    castle and the seats below; with the castle only; alone."""
    mode, _name, _rounds, _layer, uses_castle = spec(view)
    board = wrecked_field(mode, view)
    castle = status(view, board, uses_castle, separator="\n")
    notes: list[Text] = [head(view, viewer, separator="\n")]
    if castle.plain:
        notes.append(castle)
    if view.phase in (State.PHASE_PURCHASE, State.PHASE_EXTRA_PURCHASE):
        notes.append(prices(view))
    notes.extend(seat_lines(view, viewer))
    legend = Text(SHORT_LEGEND, style="dim")
    upright, turned = short_field(view), short_field(view, turned=True)
    shortest: list[RenderableType] = [head(view, viewer), turned]
    with_castle = [*shortest, castle] if castle.plain else shortest
    return [
        [_beside(upright, [*notes, legend])],
        [_beside(turned, notes)],
        [*with_castle, *seat_lines(view, viewer)],
        with_castle,
        shortest,
    ]


def kill_the_king_details(view: pb.KillTheKingView, viewer: int | None) -> list[RenderableType]:
    """What the short drawings leave out: every counter on the field with its
    id, square, facing and state, the seats' lines in full and the legend
    of the short drawings."""
    return [*counter_lines(view, viewer), Text(SHORT_LEGEND, style="dim")]
