"""Nim drawn with rich: the heap as stones (``●``, at most 60 drawn), the pile
and the limit in the reader's language, and the viewer's secret. Needs the cli
extra (rich)."""

from __future__ import annotations

from rich.console import RenderableType
from rich.text import Text

from throneroom.games.nim import texts
from throneroom.games.reader import Reader
from throneroom.v1.nim_pb2 import NimView

__all__ = ["MOST_DRAWN", "nim_board"]

MOST_DRAWN = 60
"""Stones drawn one by one; a larger heap is drawn as that many and ``…``."""


def nim_board(view: NimView, viewer: int | None, lang: str = "en") -> list[RenderableType]:
    if view.pile:
        heap = Text(" ".join("●" * min(view.pile, MOST_DRAWN)), style="bold yellow")
        if view.pile > MOST_DRAWN:
            heap.append(" …")
    else:
        heap = Text(Reader(lang).word(texts.BOARD["empty"]), style="dim")
    lines = texts.board_lines(view, viewer, lang)
    parts: list[RenderableType] = [heap, Text(lines[0], style="bold")]
    parts.extend(Text(line) for line in lines[1:])
    return parts
