"""The King Is Dead drawn for a terminal of few rows (80x24), as the viewer's seat sees it.

The map carries the order of the power struggles, so no table of them: each
region in two lines where it lies (its name and key, then its followers and
struggle number, or who rules it), or, on fewer rows, one line a region in
the order of the struggles; then each court in a line, the supply and the
viewer's hand. The tables of the full board are drawn on request
(``details``: the session's 'd').
"""

from __future__ import annotations

from rich.console import RenderableType
from rich.table import Table
from rich.text import Text

from throneroom.games import king_is_dead as kid
from throneroom.games.king_is_dead.notation.moves import REGIONS
from throneroom.games.king_is_dead.terminal import (
    MAP,
    control,
    courts_table,
    followers,
    struggles_table,
)
from throneroom.v1 import king_is_dead_pb2 as kid_pb

__all__ = ["king_is_dead_details", "king_is_dead_short_boards", "short_map", "struggle_lines"]

NOW = "bold magenta"


def _region(view: kid_pb.KingIsDeadView, region: int, lang: str, *, one_line: bool) -> Text:
    """A region: name and key, then followers and struggle number (``◀`` its
    struggle now, ``♛N`` crowned by seat N), or who rules it."""
    state = next(r for r in view.regions if r.region == region)
    position = next((i + 1 for i, card in enumerate(view.region_cards) if card.region == region), 0)
    crowned = next((c for c in view.region_cards if c.region == region), None)
    current = view.current_struggle == region
    text = Text(
        f"{kid.region_name(region, lang)} [{REGIONS.word(region)}]",
        style=NOW if current else "bold",
    )
    if current and not one_line:
        text.append(" ◀ now", style=NOW)
    text.append(" " if one_line else "\n")
    if state.control != kid_pb.REGION_CONTROL_UNRESOLVED:
        text.append_text(control(state.control, lang))
        text.append(f" rule ({state.resolved_order})")
        return text
    text.append_text(followers(state, loyalists=view.mordred))
    text.append(f" #{position}" if one_line else f" · struggle {position}")
    if crowned is not None and crowned.HasField("crowned_by"):
        text.append(f" ♛{crowned.crowned_by}", style=NOW)
    if current and one_line:
        text.append(" ◀ now", style=NOW)
    return text


def short_map(view: kid_pb.KingIsDeadView, lang: str = "en") -> Table:
    """The eight regions where they lie, two lines each, without borders."""
    grid = Table.grid(padding=(0, 1), expand=True)
    for _ in range(3):
        grid.add_column(justify="center", ratio=1)
    for row in MAP[::2]:
        cells = [
            _region(view, cell, lang, one_line=False) if isinstance(cell, int) else Text("")
            for cell in row[::2]
        ]
        grid.add_row(*cells)  # the map's regions, on its even rows and columns
    return grid


def struggle_lines(view: kid_pb.KingIsDeadView, lang: str = "en") -> Table:
    """The regions in the order of their struggles, a line each, in two columns."""
    regions = [card.region for card in view.region_cards]
    half = (len(regions) + 1) // 2
    grid = Table.grid(padding=(0, 3))
    grid.add_column()
    grid.add_column()
    for i in range(half):
        left = Text(f"{i + 1} ").append_text(_region(view, regions[i], lang, one_line=True))
        right = Text("")
        if i + half < len(regions):
            right = Text(f"{i + half + 1} ").append_text(
                _region(view, regions[i + half], lang, one_line=True)
            )
        grid.add_row(left, right)
    return grid


def court_lines(view: kid_pb.KingIsDeadView, viewer: int | None, lang: str) -> list[Text]:
    """Each seat in a line: its court, cards left, last card and crown token."""
    lines = []
    for seat in view.seats:
        line = Text("▶ " if view.HasField("to_move") and view.to_move == seat.seat else "")
        line.append(f"seat {seat.seat}" + (" (you)" if seat.seat == viewer else "") + ": ")
        line.append_text(followers(seat.court, loyalists=view.mordred))
        line.append(f", {seat.cards_left} cards")
        if seat.top_card:
            line.append(f", last {kid.card_name(seat.top_card, lang)}")
        line.append(", crown token" if seat.has_crown_token else ", crown token used")
        lines.append(line)
    return lines


def _supply_and_hand(view: kid_pb.KingIsDeadView, viewer: int | None, lang: str) -> Text:
    text = Text("Supply: ").append_text(followers(view.supply, loyalists=False))
    if view.mordred:
        text.append(f"   Loyalist pool: {view.loyalist_pool}")
    if viewer is not None:
        hand = ", ".join(kid.card_name(c, lang) for c in view.my_hand) or "(empty)"
        text.append(f"   Your hand: {hand}", style="bold")
    return text


def king_is_dead_short_boards(
    view: kid_pb.KingIsDeadView, viewer: int | None, lang: str = "en"
) -> list[list[RenderableType]]:
    """The short drawings, fullest first: the map in two lines a region, or
    the regions in the order of their struggles; each with the courts, the
    supply and the hand."""
    rest = [*court_lines(view, viewer, lang), _supply_and_hand(view, viewer, lang)]
    return [[short_map(view, lang), *rest], [struggle_lines(view, lang), *rest]]


def king_is_dead_details(
    view: kid_pb.KingIsDeadView, viewer: int | None, lang: str = "en"
) -> list[RenderableType]:
    """What the short drawings leave out: the tables of the struggles and the courts."""
    return [struggles_table(view, lang), courts_table(view, viewer, lang)]
