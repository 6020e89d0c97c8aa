"""Waiting on what happened, never for a fixed time (DESIGN.md, "Tests that
count"): ``until`` asks a condition again and again until it holds (on an
event loop); ``Progress`` lets threads tell each other what they have done
and wait for it. Both fail the test at a deadline that is only there against
a hang (nothing here measures time)."""

from __future__ import annotations

import asyncio
import inspect
import threading
from collections import Counter
from collections.abc import Awaitable, Callable

POLL_SECONDS = 0.01
"""How often ``until`` asks its condition again."""

DEADLINE_SECONDS = 30.0
"""How long ``until`` waits before it fails: generous, only against a hang."""


async def until(
    check: Callable[[], object | Awaitable[object]],
    what: str,
    *,
    timeout: float = DEADLINE_SECONDS,
) -> None:
    """Return once ``check()`` (or what it returns, awaited, when that is
    awaitable) is true; fail with ``what`` after ``timeout`` seconds."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        outcome = check()
        if inspect.isawaitable(outcome):
            outcome = await outcome
        if outcome:
            return
        if loop.time() > deadline:
            raise AssertionError(f"not within {timeout:g} s: {what}")
        await asyncio.sleep(POLL_SECONDS)  # the poll interval: check asked again until the deadline


class Progress:
    """Counts that threads raise as things happen (``add``, ``reach``), and
    ``wait`` for a condition on them: woken by every change, no polling."""

    def __init__(self) -> None:
        self._counts: Counter[str] = Counter()
        self._changed = threading.Condition()

    def add(self, what: str) -> None:
        """``what`` happened once more."""
        with self._changed:
            self._counts[what] += 1
            self._changed.notify_all()

    def reach(self, what: str, value: int) -> None:
        """``what`` is at ``value`` now (it never goes down)."""
        with self._changed:
            self._counts[what] = max(self._counts[what], value)
            self._changed.notify_all()

    def wait(
        self,
        check: Callable[[Counter[str]], object],
        what: str,
        *,
        timeout: float = DEADLINE_SECONDS,
    ) -> Counter[str]:
        """Return (a copy of) the counts once ``check(counts)`` is true; fail
        with ``what`` after ``timeout`` seconds."""
        with self._changed:
            if not self._changed.wait_for(lambda: check(self._counts), timeout):
                raise AssertionError(f"not within {timeout:g} s: {what}")
            return self._counts.copy()
