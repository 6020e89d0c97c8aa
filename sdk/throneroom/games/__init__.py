"""Each game's one home on the client side, and the protocol that finds it.

``throneroom.games.<game>`` holds everything a client needs of a game (data,
texts, notation, terminal board, web data, bots); its ``client`` module's
``CLIENT`` is a ``GameClient``, found by name with ``game_client`` (both in
:mod:`throneroom.games.protocol`, which the engines never import: it is the
client side). Every surface reaches games that way.

Each game's module is ``throneroom.games.<game type>`` (the game's registered
name, the field name of its game.proto envelope entries), with at least
``describe_move(move)`` and ``describe_event(event)``: one English sentence for
the game's own move and event messages. :func:`texts` finds it by that name, so
there is no list of games to extend here::

    >>> texts("king_is_dead").describe_move(move)
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any, cast

from google.protobuf.message import Message

from throneroom.games.messages import GAME_ONEOF, game_type_of, game_types_of
from throneroom.v1 import game_pb2

__all__ = ["GameTexts", "texts"]


@dataclass(frozen=True)
class GameTexts:
    """The sentences of one game: for its own messages or for envelopes."""

    game_type: str
    module: Any

    def describe_move(self, move: Message) -> str:
        """A sentence for a move (the game's message or a ``Move`` envelope)."""
        return cast(str, self.module.describe_move(_inner(move, self.game_type)))

    def describe_event(self, event: Message) -> str:
        """A sentence for an event (the game's message or an ``Event`` envelope)."""
        return cast(str, self.module.describe_event(_inner(event, self.game_type)))


def _inner(message: Message, game_type: str) -> Message:
    if GAME_ONEOF in message.DESCRIPTOR.oneofs_by_name:
        if game_type_of(message) != game_type:
            raise ValueError(f"not a {game_type} {message.DESCRIPTOR.name}")
        inner: Message = getattr(message, game_type)
        return inner
    return message


def texts(game_type: str) -> GameTexts | None:
    """The texts of a game type, or None when this SDK has none for it (or does
    not know the game type)."""
    if game_type not in game_types_of(game_pb2.GameState):
        return None
    try:
        module = importlib.import_module(f"{__name__}.{game_type}")
    except ModuleNotFoundError:
        return None
    if not (hasattr(module, "describe_move") and hasattr(module, "describe_event")):
        return None
    return GameTexts(game_type, module)
