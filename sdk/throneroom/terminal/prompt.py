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

__all__ = ["COMMANDS", "LIST_LIMIT", "Completer", "completer", "line_reader", "narrow"]

#: The most moves a prompt lists unasked (the rest: 'm TEXT' narrows, 'm all' lists all).
LIST_LIMIT = 8


#: The prompt's own commands (Tab completes them too; session.py's help says what they do).
COMMANDS = ("h", "help", "m", "moves", "b", "board", "d", "details", "l", "log", "q", "quit")


class Completer:
    """Tab completion of the line at the prompt: the next word of the legal
    moves' notation that match what is typed so far (``pl<Tab>`` → ``place``,
    ``place u1<Tab>`` lists ``u12 u18 u20``), after ``m`` too, and the prompt's
    commands. Readline is one per process, so is this (:func:`completer`)."""

    def __init__(self) -> None:
        self.moves: Sequence[str] = ()

    def offer(self, written: Sequence[str]) -> None:
        """The legal moves of the decision now asked, in notation."""
        self.moves = written

    def candidates(self, line: str, word: str) -> list[str]:
        """What ``word`` (the word at the cursor) may become, ``line`` being
        everything typed before the cursor."""
        typed = _words(line[: len(line) - len(word)])
        if typed[:1] in (["m"], ["moves"]):
            typed = typed[1:]
        found = {
            words[len(typed)]
            for move in self.moves
            if len(words := move.split()) > len(typed)
            and [w.lower() for w in words[: len(typed)]] == typed
            and words[len(typed)].lower().startswith(word.lower())
        }
        if not line[: len(line) - len(word)].strip():
            found.update(c for c in COMMANDS if c.startswith(word.lower()))
        return sorted(found)

    def __call__(self, word: str, state: int) -> str | None:
        """Readline's completer: the ``state``-th candidate, None past the last."""
        import readline  # noqa: PLC0415

        found = self.candidates(readline.get_line_buffer()[: readline.get_endidx()], word)
        return found[state] if state < len(found) else None


_COMPLETER = Completer()


def completer() -> Completer:
    """The process's completer (what :func:`line_reader` gives readline)."""
    return _COMPLETER


def line_reader(stdin_is_tty: bool | None = None) -> Callable[[str], str]:
    """``input``, with the standard library's readline loaded first when the
    input is a terminal: the arrow keys move along the line and through the
    lines typed before (history), Ctrl-A/Ctrl-E jump to its ends, Tab
    completes the moves' notation (:class:`Completer`). Without a terminal
    (a pipe, a file), plain ``input``."""
    tty = sys.stdin.isatty() if stdin_is_tty is None else stdin_is_tty
    if tty:
        # Loading readline gives input() line editing; a Python built without
        # it (Windows) keeps plain input.
        with contextlib.suppress(ImportError):
            import readline  # noqa: PLC0415

            readline.set_completer(_COMPLETER)
            readline.set_completer_delims(" \t")
            # libedit (macOS) binds Tab its own way.
            if "libedit" in (readline.__doc__ or ""):
                readline.parse_and_bind("bind ^I rl_complete")
            else:
                readline.parse_and_bind("tab: complete")
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
