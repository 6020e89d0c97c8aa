"""Waiting on what happened, never for a fixed time (DESIGN.md, "Tests that
count"): ``until`` asks a condition again and again until it holds, and fails
the test at a deadline that is only there against a hang (nothing here
measures time)."""

from __future__ import annotations

import asyncio
import inspect
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
