"""Nim's heuristic bot: the winning strategy of take-the-last-stone Nim.

With ``m`` the most one move may take, the positions whose pile is a multiple
of ``m + 1`` are lost for the seat to move (whatever it takes, the next seat
brings the pile back to a multiple), so the bot takes ``pile mod (m + 1)``
stones when that is a legal take, and one stone (the slowest loss) when the
pile is already a multiple. Between two seats this is perfect play; among more
it is the same greedy aim (leave the next seat a multiple).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from throneroom.envelopes import unwrap, wrap_move
from throneroom.games.protocol import BotTrial, against_random_bots
from throneroom.v1 import game_pb2
from throneroom.v1.nim_pb2 import NimMove, NimView

__all__ = ["NimBot", "best_take", "trials"]


def best_take(pile: int, max_take: int) -> int:
    """The stones to take from ``pile`` (at most ``max_take``): ``pile mod
    (max_take + 1)``, or 1 from a lost position."""
    winning = pile % (max_take + 1)
    return winning if winning else 1


class NimBot:
    """Plays :func:`best_take`; should the legal moves not hold that take (a
    server that narrows them further), a seeded random one of them."""

    name = "nim-heuristic"

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
        nim = unwrap(view)
        assert isinstance(nim, NimView), type(nim)
        wanted = wrap_move(game_type, NimMove(take=best_take(nim.pile, nim.max_take)))
        for move in legal_moves:
            if move == wanted:
                return move
        return legal_moves[self._random.randrange(len(legal_moves))]


def trials() -> tuple[BotTrial, ...]:
    """The evaluations NimBot must pass against random bots: between two seats
    it wins every game it can (the default pile of 21, take 1-3: the first seat
    always wins, the second whenever the random bot slips once), at least 95%;
    among three seats, where no seat can force a win, at least 45% (a fair share
    is a third; it wins about half)."""
    return (
        against_random_bots("Nim", lambda seed: NimBot(seed=seed), seats=2, goal=0.95),
        against_random_bots("Nim", lambda seed: NimBot(seed=seed), seats=3, goal=0.45),
    )
