"""The line a person types at ``throneroom play-local``: reading it (with
line editing and history when the input is a terminal) and finding the legal
moves it names or narrows to.

Nothing here needs ``rich``; :func:`narrow` and :func:`line_reader` are
plain functions a test can call.
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable, Sequence

__all__ = ["LIST_LIMIT", "line_reader", "narrow"]

#: The most moves a prompt lists unasked (the rest: 'm TEXT' narrows, 'm all' lists all).
LIST_LIMIT = 8


def line_reader(stdin_is_tty: bool | None = None) -> Callable[[str], str]:
    """``input``, with the standard library's readline loaded first when the
    input is a terminal: the arrow keys move along the line and through the
    lines typed before (history), Ctrl-A/Ctrl-E jump to its ends. Without a
    terminal (a pipe, a file), plain ``input``."""
    tty = sys.stdin.isatty() if stdin_is_tty is None else stdin_is_tty
    if tty:
        # Loading readline gives input() line editing; a Python built without
        # it (Windows) keeps plain input.
        with contextlib.suppress(ImportError):
            import readline  # noqa: F401, PLC0415
    return input


def _words(text: str) -> list[str]:
    return text.lower().split()


def narrow(written: Sequence[str], text: str) -> list[int]:
    """The indexes of the moves (as ``written`` in notation) that ``text``
    narrows to: each word of ``text`` begins a word of the move, in order
    (``u18`` finds ``place u18 e2 n``; ``place u18 e`` its squares of column e;
    ``exchange 3`` every exchange that gives up card 3)."""
    wanted = _words(text)
    found = []
    for index, move in enumerate(written):
        words = _words(move)
        at = 0
        for word in wanted:
            while at < len(words) and not words[at].startswith(word):
                at += 1
            if at == len(words):
                break
            at += 1
        else:
            found.append(index)
    return found
