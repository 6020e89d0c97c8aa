"""Boards drawn with rich: each game's own (its client's ``terminal_board``,
in ``throneroom.games.<game>.terminal``), and the notation's text board for a
game without one.

``board(snapshot, lang)`` returns a rich renderable of the game as the
snapshot's viewer sees it; ``show``, ``watch`` and ``play-local`` all print it.
Given the rows a screen has, it draws the fullest of the game's drawings that
fits them (a game may have shorter ones for a short terminal: its client's
``terminal_short_boards``), and ``details`` what those leave out.
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

__all__ = ["board", "console", "details", "header", "height"]


def console() -> Console:
    """A Console for boards, wide enough for The King Is Dead's map when piped."""
    out = Console()
    if not out.is_terminal and out.width < 100:
        out = Console(width=100)
    return out


# -- any game -----------------------------------------------------------------------------


def header(snapshot: service_pb2.GameSnapshot, *, short: bool = False) -> Text:
    """The game, its version, the viewer and the seats (``short``: how many
    seats only, so that the line fits a narrow screen)."""
    viewer = f"seat {snapshot.viewer_seat}" if snapshot.HasField("viewer_seat") else "spectator"
    seats = ", ".join(
        f"{s.seat} {s.display_name or '(taken)'}" if s.taken else f"{s.seat} (free)"
        for s in snapshot.seats
    )
    seats = f"{len(snapshot.seats)} seats" if short else f"seats: {seats}"
    return Text(
        f"game {snapshot.game_id} ({snapshot.game_type}) version {snapshot.version}"
        f" · as {viewer} · {seats}",
        style="dim",
    )


def height(console: Console, renderable: RenderableType) -> int:
    """The screen lines ``renderable`` takes on ``console``."""
    return len(console.render_lines(renderable, console.options, pad=False, new_lines=False))


def _drawings(snapshot: service_pb2.GameSnapshot, lang: str) -> list[list[RenderableType]]:
    """The game's drawings of the view, fullest first."""
    if not game_type_of(snapshot.view):
        return [[]]
    viewer = snapshot.viewer_seat if snapshot.HasField("viewer_seat") else None
    view = unwrap(snapshot.view)
    client = game_client(snapshot.game_type)
    drawn = client.terminal_board(view, viewer=viewer, lang=lang)
    if drawn is None:
        try:
            text = notation.for_game(snapshot.game_type).render_view(view, viewer)
        except ValueError:
            text = str(view)
        return [[Panel(Text(text.rstrip("\n")), box=box.ROUNDED)]]
    return [drawn, *client.terminal_short_boards(view, viewer=viewer, lang=lang)]


def board(
    snapshot: service_pb2.GameSnapshot,
    lang: str = "en",
    *,
    console: Console | None = None,
    rows: int | None = None,
) -> RenderableType:
    """The game as the snapshot's viewer sees it, with who must decide what.

    Given a ``console`` and ``rows``, the fullest of the game's drawings that
    fits in ``rows`` lines of that console (the shortest when none does);
    else the full drawing."""
    drawings = _drawings(snapshot, lang)
    if console is None or rows is None:
        pending = Text(pending_sentence(snapshot, lang), style="bold green")
        return Group(header(snapshot), *drawings[0], pending)
    drawn = Group()
    for index, drawing in enumerate(drawings):
        pending = Text(pending_sentence(snapshot, lang, short=index > 0), style="bold green")
        drawn = Group(header(snapshot, short=index > 0), *drawing, pending)
        if height(console, drawn) <= rows:
            break
    return drawn


def details(snapshot: service_pb2.GameSnapshot, lang: str = "en") -> RenderableType | None:
    """What the game's short drawings leave out (None: they leave out nothing)."""
    if not game_type_of(snapshot.view):
        return None
    viewer = snapshot.viewer_seat if snapshot.HasField("viewer_seat") else None
    client = game_client(snapshot.game_type)
    parts = client.terminal_details(unwrap(snapshot.view), viewer=viewer, lang=lang)
    return Group(*parts) if parts else None
