"""The SDK in a terminal: boards drawn with rich and an interactive session.

These modules need the ``cli`` extra (``pip install 'throneroom[cli]'``,
which adds ``rich``); the ``throneroom`` commands import them only when they
draw, and :func:`require_rich` says in one line what to install when it is
missing. Nothing else of the SDK imports this package.
"""

from __future__ import annotations

import importlib.util

__all__ = ["RICH_MISSING", "TerminalUnavailable", "require_rich"]

RICH_MISSING = (
    "this command draws with the 'rich' library, which is not installed: "
    "pip install 'throneroom[cli]' (from a checkout: pip install './sdk[cli]')"
)


class TerminalUnavailable(Exception):
    """The terminal commands need ``rich`` (the SDK's ``cli`` extra)."""


def require_rich() -> None:
    """Raise :class:`TerminalUnavailable` (one line: what to install) without rich."""
    if importlib.util.find_spec("rich") is None:
        raise TerminalUnavailable(RICH_MISSING)
