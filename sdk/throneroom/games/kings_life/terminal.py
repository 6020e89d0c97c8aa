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

__all__ = ["kings_life_board"]


def _cards(cards: Sequence[int]) -> str:
    """Each card as ``id name`` (``31 Hunt 3``): the id is what the notation types."""
    return ", ".join(f"{c} {kl.card_name(c)}" for c in cards) or "-"


def kings_life_board(view: kl_pb.KingsLifeView, viewer: int | None) -> list[RenderableType]:
    prefs = "  ".join(
        f"{i + 1}. {kl.ACTIVITY_NAMES.get(a, '?')}{' (+1)' if i == 0 else ''}"
        for i, a in enumerate(view.preferences)
    )
    day = kl.DAYS[view.day].name if view.day in kl.DAYS else "-"
    head = Text(f"{day}: the king prefers {prefs}  (4. face down)", style="bold")
    table = Table(title="The court", box=box.SIMPLE_HEAD, show_edge=False)
    for column in ("seat", "hand", "program", "display", "days won", "notes"):
        table.add_column(column)
    programs = {p.seat: p for p in view.programs}
    for seat, player in enumerate(view.players):
        name = f"seat {seat}" + (" (you)" if seat == viewer else "")
        if seat in view.to_act:
            name = "▶ " + name
        program = programs.get(seat)
        program_text = (
            f"{kl.ACTIVITY_NAMES.get(program.activity, '?')} {program.value}"
            if program is not None and program.has_program
            else "-"
        )
        notes = []
        if player.passed:
            notes.append("passed")
        if player.supporting >= 0:
            notes.append(f"supports seat {player.supporting}")
        if view.HasField("outcome"):
            notes.append(f"score {player.score}")
        days = ", ".join(kl.DAYS[d].name for d in player.days_won if d in kl.DAYS) or "-"
        table.add_row(
            name,
            str(player.hand_size),
            program_text,
            _cards(player.display),
            days,
            "; ".join(notes),
        )
    parts: list[RenderableType] = [
        head,
        table,
        Text(
            f"Deck {view.deck_size} cards   discard: {_cards(view.discard)}"
            f"   face down: {view.face_down_discards}"
        ),
    ]
    if viewer is not None and viewer >= 0:
        parts.append(Text(f"Your hand: {_cards(view.hand)}", style="bold"))
    return parts
