"""King's Life drawn with rich: the day and the king's preferences, the court
(every seat's hand size, program, display and days won), the deck and the
discard, and the viewer's hand, every card as ``id name`` (``31 Hunt 3``).
Needs the cli extra (rich)."""

from __future__ import annotations

from collections.abc import Sequence

from rich import box
from rich.console import RenderableType
from rich.table import Table
from rich.text import Text

from throneroom.games import kings_life as kl
from throneroom.v1 import kings_life_pb2 as kl_pb

__all__ = ["kings_life_board", "kings_life_short_boards"]


def _cards(cards: Sequence[int]) -> str:
    """Each card as ``id name`` (``31 Hunt 3``): the id is what the notation types."""
    return ", ".join(f"{c} {kl.card_name(c)}" for c in cards) or "-"


def _head(view: kl_pb.KingsLifeView) -> Text:
    prefs = "  ".join(
        f"{i + 1}. {kl.ACTIVITY_NAMES.get(a, '?')}{' (+1)' if i == 0 else ''}"
        for i, a in enumerate(view.preferences)
    )
    day = kl.DAYS[view.day].name if view.day in kl.DAYS else "-"
    return Text(f"{day}: the king prefers {prefs}  (4. face down)", style="bold")


def _notes(view: kl_pb.KingsLifeView, player: kl_pb.KingsLifePlayerView) -> list[str]:
    notes = []
    if player.passed:
        notes.append("passed")
    if player.supporting >= 0:
        notes.append(f"supports seat {player.supporting}")
    if view.HasField("outcome"):
        notes.append(f"score {player.score}")
    return notes


def _program(view: kl_pb.KingsLifeView, seat: int) -> str:
    program = next((p for p in view.programs if p.seat == seat), None)
    if program is None or not program.has_program:
        return "-"
    return f"{kl.ACTIVITY_NAMES.get(program.activity, '?')} {program.value}"


def _deck(view: kl_pb.KingsLifeView) -> Text:
    return Text(
        f"Deck {view.deck_size} cards   discard: {_cards(view.discard)}"
        f"   face down: {view.face_down_discards}"
    )


def kings_life_board(view: kl_pb.KingsLifeView, viewer: int | None) -> list[RenderableType]:
    head = _head(view)
    table = Table(title="The court", box=box.SIMPLE_HEAD, show_edge=False)
    for column in ("seat", "hand", "program", "display", "days won", "notes"):
        table.add_column(column)
    for seat, player in enumerate(view.players):
        name = f"seat {seat}" + (" (you)" if seat == viewer else "")
        if seat in view.to_act:
            name = "▶ " + name
        days = ", ".join(kl.DAYS[d].name for d in player.days_won if d in kl.DAYS) or "-"
        table.add_row(
            name,
            str(player.hand_size),
            _program(view, seat),
            _cards(player.display),
            days,
            "; ".join(_notes(view, player)),
        )
    parts: list[RenderableType] = [head, table, _deck(view)]
    if viewer is not None and viewer >= 0:
        parts.append(Text(f"Your hand: {_cards(view.hand)}", style="bold"))
    return parts


def kings_life_short_boards(
    view: kl_pb.KingsLifeView, viewer: int | None
) -> list[list[RenderableType]]:
    """The drawing for a terminal of few rows: the court in a line a seat
    (days won as their first three letters, notes shortened), no title."""
    table = Table(box=None, show_edge=False, pad_edge=False, padding=(0, 1))
    for column in ("seat", "hand", "program", "display", "won", ""):
        table.add_column(column, style="dim" if column == "won" else "")
    for seat, player in enumerate(view.players):
        name = (
            ("▶ " if seat in view.to_act else "") + str(seat) + (" you" if seat == viewer else "")
        )
        notes = _notes(view, player)
        table.add_row(
            name,
            str(player.hand_size),
            _program(view, seat),
            _cards(player.display),
            " ".join(kl.DAYS[d].name[:3] for d in player.days_won if d in kl.DAYS) or "-",
            ", ".join(n.replace("supports seat", "for") for n in notes),
        )
    parts: list[RenderableType] = [_head(view), table, _deck(view)]
    if viewer is not None and viewer >= 0:
        parts.append(Text(f"Your hand: {_cards(view.hand)}", style="bold"))
    return [parts]
