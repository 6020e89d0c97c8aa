"""Boards drawn with rich: each game's own (its client's ``terminal_board``,
in ``throneroom.games.<game>.terminal``), and the notation's text board for a
game without one.

``board(snapshot, lang)`` returns a rich renderable of the game as the
snapshot's viewer sees it; ``show``, ``watch`` and ``play-local`` all print it.
"""

from __future__ import annotations

from rich import box
from rich.console import Console, Group, RenderableType
from rich.panel import Panel
from rich.text import Text

from throneroom import notation
from throneroom.envelopes import game_type_of, unwrap
from throneroom.games.protocol import game_client
from throneroom.terminal.texts import pending_sentence
from throneroom.v1 import service_pb2

__all__ = ["board", "console", "header"]


def console() -> Console:
    """A Console for boards, wide enough for The King Is Dead's map when piped."""
    out = Console()
    if not out.is_terminal and out.width < 100:
        out = Console(width=100)
    return out


# -- any game -----------------------------------------------------------------------------


def header(snapshot: service_pb2.GameSnapshot) -> Text:
    viewer = f"seat {snapshot.viewer_seat}" if snapshot.HasField("viewer_seat") else "spectator"
    seats = ", ".join(
        f"{s.seat} {s.display_name or '(taken)'}" if s.taken else f"{s.seat} (free)"
        for s in snapshot.seats
    )
    return Text(
        f"game {snapshot.game_id} ({snapshot.game_type}) version {snapshot.version}"
        f" · as {viewer} · seats: {seats}",
        style="dim",
    )


def board(snapshot: service_pb2.GameSnapshot, lang: str = "en") -> RenderableType:
    """The game as the snapshot's viewer sees it, with who must decide what."""
    viewer = snapshot.viewer_seat if snapshot.HasField("viewer_seat") else None
    parts: list[RenderableType] = [header(snapshot)]
    if game_type_of(snapshot.view):
        view = unwrap(snapshot.view)
        drawn = game_client(snapshot.game_type).terminal_board(view, viewer=viewer, lang=lang)
        if drawn is not None:
            parts.extend(drawn)
        else:
            try:
                text = notation.for_game(snapshot.game_type).render_view(view, viewer)
            except ValueError:
                text = str(view)
            parts.append(Panel(Text(text.rstrip("\n")), box=box.ROUNDED))
    parts.append(Text(pending_sentence(snapshot, lang), style="bold green"))
    return Group(*parts)
