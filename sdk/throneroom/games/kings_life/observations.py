"""King's Life's view as a tensor (``throneroom.games.tensor``, docs/rl.md).

Card lists (hand, displays, discard pile, kept and revealed cards, removed
cards, the Fool's take-backs) keep up to the whole deck, so nothing a seat
sees is left out; per-seat lists one entry per seat; days and tokens five::

    >>> from throneroom.games.kings_life.observations import view_tensor
    >>> view_tensor(4).size < view_tensor(8).size
    True
"""

from __future__ import annotations

import functools

from throneroom.games.kings_life.data import DAYS, DECK_SIZE, PREFERENCE_POSITIONS
from throneroom.games.tensor import ViewTensor
from throneroom.v1 import kings_life_pb2 as pb

__all__ = ["view_tensor"]


@functools.cache
def view_tensor(num_seats: int) -> ViewTensor:
    days = len(DAYS)
    return ViewTensor(
        pb.KingsLifeView,
        {
            "to_act": num_seats,
            "preferences": PREFERENCE_POSITIONS,
            "discard": DECK_SIZE,
            "players": num_seats,
            "players.display": DECK_SIZE,
            "players.days_won": days,
            "players.kept": DECK_SIZE,
            "players.revealed": DECK_SIZE,
            "hand": DECK_SIZE,
            "my_face_down_discards": DECK_SIZE,
            "tokens": days,
            "pending.cards": 2,
            "pending.positions": 2,
            "removed": DECK_SIZE,
            "days": days,
            "days.tied": num_seats,
            "programs": num_seats,
            "outcome.winners": num_seats,
            "fool_taken": DECK_SIZE,
        },
    )
