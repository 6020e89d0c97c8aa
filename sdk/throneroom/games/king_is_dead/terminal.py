"""The King Is Dead drawn with rich: the map of Britain (regions where they
lie, with their borders, followers and control), the power struggles, the
courts and the viewer's hand. Needs the cli extra (rich)."""

from __future__ import annotations

from rich import box
from rich.console import RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from throneroom.games import king_is_dead as kid
from throneroom.games.king_is_dead.notation.moves import REGIONS
from throneroom.v1 import king_is_dead_pb2 as kid_pb

__all__ = [
    "BORDERS",
    "MAP",
    "STYLES",
    "control",
    "courts_table",
    "followers",
    "king_is_dead_board",
    "king_is_dead_map",
    "struggles_table",
]

#: Follower colours as on the table (the rulebook's blue Scots, red Welsh,
#: yellow Romano-British, black Loyalists).
STYLES: dict[int, str] = {
    kid_pb.FACTION_SCOTS: "bold blue",
    kid_pb.FACTION_WELSH: "bold red",
    kid_pb.FACTION_ROMANO_BRITISH: "bold yellow",
    kid_pb.FACTION_LOYALISTS: "bold white on grey23",
}
COUNT_FIELDS = ("scots", "welsh", "romano_british", "loyalists")
LETTERS = ("S", "W", "R", "L")

# The map of Britain, north at the top, on a 5 x 9 grid: regions sit on the
# even columns and rows, the 13 borders are drawn in the cells between them
# with box-drawing lines (RISE and FALL are the two diagonals).
# (Caledonia borders Din Eidyn; Din Eidyn borders Deva and Eboracum; Deva
# borders Eboracum, Caerleon and Ratae; Eboracum borders Ratae and
# Londinium; Ratae borders Caerleon, Londinium and Aquae Sulis; Aquae Sulis
# borders Caerleon and Londinium.)
_R = kid_pb
RISE, FALL = "\u2571", "\u2572"
MAP: tuple[tuple[int | str | None, ...], ...] = (
    (None, None, _R.REGION_CALEDONIA, None, None),
    (None, None, "│", None, None),
    (None, None, _R.REGION_DIN_EIDYN, None, None),
    (None, RISE, None, FALL, None),
    (_R.REGION_DEVA, "───", "─" * 26, "───", _R.REGION_EBORACUM),
    ("│", FALL, None, RISE, "│"),
    (_R.REGION_CAERLEON, "───", _R.REGION_RATAE, "───", _R.REGION_LONDINIUM),
    (None, FALL, "│", RISE, None),
    (None, None, _R.REGION_AQUAE_SULIS, None, None),
)
BORDERS = frozenset(
    {
        frozenset(pair)
        for pair in (
            (_R.REGION_CALEDONIA, _R.REGION_DIN_EIDYN),
            (_R.REGION_DIN_EIDYN, _R.REGION_DEVA),
            (_R.REGION_DIN_EIDYN, _R.REGION_EBORACUM),
            (_R.REGION_DEVA, _R.REGION_EBORACUM),
            (_R.REGION_DEVA, _R.REGION_CAERLEON),
            (_R.REGION_DEVA, _R.REGION_RATAE),
            (_R.REGION_EBORACUM, _R.REGION_RATAE),
            (_R.REGION_EBORACUM, _R.REGION_LONDINIUM),
            (_R.REGION_CAERLEON, _R.REGION_RATAE),
            (_R.REGION_CAERLEON, _R.REGION_AQUAE_SULIS),
            (_R.REGION_RATAE, _R.REGION_LONDINIUM),
            (_R.REGION_RATAE, _R.REGION_AQUAE_SULIS),
            (_R.REGION_LONDINIUM, _R.REGION_AQUAE_SULIS),
        )
    }
)
"""The borders the map draws (tests check them against the rules engine's)."""


def followers(counts: object, *, loyalists: bool) -> Text:
    text = Text()
    fields = COUNT_FIELDS if loyalists else COUNT_FIELDS[:3]
    for i, field in enumerate(fields):
        if i:
            text.append(" ")
        text.append(f"{LETTERS[i]}{getattr(counts, field)}", style=STYLES[i + 1])
    return text


def control(control: int, lang: str) -> Text:
    if control == kid_pb.REGION_CONTROL_SAXONS:
        return Text("Saxons", style="bold green")
    return Text(kid.faction_name(control, lang), style=STYLES.get(control, ""))


def _region_panel(view: kid_pb.KingIsDeadView, region: int, lang: str) -> Panel:
    state = next(r for r in view.regions if r.region == region)
    position = next((i + 1 for i, card in enumerate(view.region_cards) if card.region == region), 0)
    crowned = next((c for c in view.region_cards if c.region == region), None)
    body = Text()
    if state.control != kid_pb.REGION_CONTROL_UNRESOLVED:
        body.append_text(control(state.control, lang))
        body.append(f" rule\n(struggle {state.resolved_order})")
    else:
        body.append_text(followers(state, loyalists=view.mordred))
        body.append(f"\nstruggle {position}")
        if crowned is not None and crowned.HasField("crowned_by"):
            body.append(f" ♛{crowned.crowned_by}", style="bold magenta")
    current = view.current_struggle == region
    title = Text(f"{kid.region_name(region, lang)} [{REGIONS.word(region)}]")
    return Panel(
        body,
        title=title,
        title_align="left",
        box=box.DOUBLE if current else box.ROUNDED,
        border_style="bold magenta" if current else "dim",
        subtitle="power struggle" if current else None,
        width=26,
    )


def king_is_dead_map(view: kid_pb.KingIsDeadView, lang: str = "en") -> Table:
    """The eight regions where they lie, with their borders, followers and control."""
    grid = Table.grid(padding=0)
    for column in range(5):
        grid.add_column(justify="center", vertical="middle", width=26 if column % 2 == 0 else 3)
    for row in MAP:
        cells: list[RenderableType] = []
        for cell in row:
            if cell is None:
                cells.append(Text(""))
            elif isinstance(cell, str):
                cells.append(Text(cell, style="dim"))
            else:
                cells.append(_region_panel(view, cell, lang))
        grid.add_row(*cells)
    return grid


def struggles_table(view: kid_pb.KingIsDeadView, lang: str) -> Table:
    """The regions in the order of their power struggles."""
    struggles = Table(title="Power struggles, in order", box=box.SIMPLE_HEAD, show_edge=False)
    struggles.add_column("#", justify="right")
    struggles.add_column("region")
    struggles.add_column("followers")
    struggles.add_column("")
    for i, card in enumerate(view.region_cards):
        state = next(r for r in view.regions if r.region == card.region)
        if state.control != kid_pb.REGION_CONTROL_UNRESOLVED:
            counts: Text = Text("held by ").append_text(control(state.control, lang))
        else:
            counts = followers(state, loyalists=view.mordred)
        note = "◀ now" if view.current_struggle == card.region else ""
        if card.HasField("crowned_by"):
            note += f" crowned by seat {card.crowned_by}"
        struggles.add_row(str(i + 1), kid.region_name(card.region, lang), counts, note.strip())
    return struggles


def courts_table(view: kid_pb.KingIsDeadView, viewer: int | None, lang: str) -> Table:
    """Each seat's court, cards left, last card played and crown token."""
    seats = Table(title="Courts", box=box.SIMPLE_HEAD, show_edge=False)
    seats.add_column("seat")
    seats.add_column("court")
    seats.add_column("cards", justify="right")
    seats.add_column("last played")
    seats.add_column("crown token")
    for seat in view.seats:
        name = f"seat {seat.seat}" + (" (you)" if seat.seat == viewer else "")
        if view.HasField("to_move") and view.to_move == seat.seat:
            name = "▶ " + name
        top = kid.card_name(seat.top_card, lang) if seat.top_card else "-"
        seats.add_row(
            name,
            followers(seat.court, loyalists=view.mordred),
            str(seat.cards_left),
            top,
            "yes" if seat.has_crown_token else "used",
        )
    return seats


def _king_is_dead_tables(
    view: kid_pb.KingIsDeadView, viewer: int | None, lang: str
) -> list[RenderableType]:
    supply = Text("Supply: ").append_text(followers(view.supply, loyalists=False))
    if view.mordred:
        supply.append(f"   Loyalist pool: {view.loyalist_pool}")
    parts: list[RenderableType] = [struggles_table(view, lang), courts_table(view, viewer, lang)]
    parts.append(supply)
    if viewer is not None:
        hand = ", ".join(kid.card_name(c, lang) for c in view.my_hand) or "(empty)"
        parts.append(Text(f"Your hand: {hand}", style="bold"))
    return parts


def king_is_dead_board(
    view: kid_pb.KingIsDeadView, viewer: int | None, lang: str = "en"
) -> list[RenderableType]:
    """The map, then the struggles, the courts, the supply and the viewer's hand."""
    return [king_is_dead_map(view, lang), *_king_is_dead_tables(view, viewer, lang)]
