"""Bots: decision makers that see only what a seat may see.

A bot gets the game's type, its seat, its own view (a ``throneroom.v1.View``
envelope) and the legal moves (``throneroom.v1.Move`` envelopes, in the
server's order) and returns one of those moves. Bots never see hidden state,
so the same bot plays through a remote server, an embedded one, or a local
simulation.

Here: the :class:`Bot` protocol, :class:`RandomBot` and the MCTS bot (any
game). Each game's heuristic bot lives in its own package
(``throneroom.games.<game>.bot``) and is found by name:
``throneroom.games.protocol.game_client(game).bot(seed)``.

A bot may also say which games it plays: ``plays(game_type, num_seats,
options) -> bool`` (``options`` as in a tournament file's ``[options]``; it
may raise to say why not). The tournament runner asks every entrant before
the first game; a bot without ``plays`` is taken to play every game.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Protocol

from throneroom.v1 import game_pb2


class Bot(Protocol):
    """Chooses one of the legal moves from the seat's point of view."""

    name: str

    def choose(
        self,
        game_type: str,
        seat: int,
        view: game_pb2.View,
        legal_moves: Sequence[game_pb2.Move],
    ) -> game_pb2.Move: ...


class RandomBot:
    """Picks uniformly among the legal moves (seeded, so games replay)."""

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self._random = random.Random(seed)

    def choose(
        self,
        game_type: str,
        seat: int,
        view: game_pb2.View,
        legal_moves: Sequence[game_pb2.Move],
    ) -> game_pb2.Move:
        if not legal_moves:
            raise ValueError(f"seat {seat} has no legal move to choose from")
        return legal_moves[self._random.randrange(len(legal_moves))]
