"""Text notation for every game: moves, positions and readable boards.

As UCI and FEN are for chess: each game spells its moves
(``format_move``/``parse_move``, e.g. ``garrison cal>din sw/r``) and its full
state (``format_position``/``parse_position``: one line of ``key=value``
fields, hidden information and RNG included) in text, and renders what a seat
may see (``render_view``) for a terminal::

    >>> from throneroom import notation
    >>> kid = notation.for_game("king_is_dead")
    >>> kid.format_move(kid.parse_move("Summon S@Cal"))
    'summon s@cal'

Every legal move and every reachable state round-trips exactly. Errors are
:class:`NotationError` (a ``ValueError``) naming the column of the problem.
The grammars, with examples, are in docs/notation.md.
"""

from __future__ import annotations

from typing import Any

from throneroom.games.protocol import game_client, game_clients
from throneroom.notation.base import GameNotation, NotationError, Viewer

__all__ = ["AnyNotation", "GameNotation", "NotationError", "Viewer", "for_game", "game_types"]

AnyNotation = GameNotation[Any, Any, Any]


def for_game(game_type: str) -> AnyNotation:
    """The notation of a game type (its registered name, e.g. ``"king_is_dead"``),
    from the game's own package (``throneroom.games.<game>``)."""
    try:
        found = game_client(game_type).notation()
    except ValueError:
        found = None
    if found is None:
        known = ", ".join(game_types())
        raise ValueError(f"no notation for game type {game_type!r} (known: {known})")
    return found


def game_types() -> list[str]:
    """The game types that have a notation."""
    return sorted(name for name, client in game_clients().items() if client.notation() is not None)
