"""Kill the King's view as a tensor (``throneroom.games.tensor``, docs/rl.md).

Units keep up to the most counters of the mode (``actions.most_counters``),
seats and deciding seats one entry each, gates and reinforced halves one per
board; the wall spaces turned to ruins up to ``RUINS``, the initiative dice of
a seat up to ``INITIATIVE_ROLLS`` (a tie rolls again: the count slot still
says how many were rolled). The field's name (a string) has no slot::

    >>> from throneroom.games.kill_the_king.observations import view_tensor
    >>> view_tensor(2, 0).size < view_tensor(4, 3).size
    True
"""

from __future__ import annotations

import functools

from throneroom.games.kill_the_king.actions import most_counters
from throneroom.games.kill_the_king.data import mode_of
from throneroom.games.tensor import ViewTensor
from throneroom.v1 import kill_the_king_pb2 as pb

__all__ = ["INITIATIVE_ROLLS", "RUINS", "view_tensor"]

INITIATIVE_ROLLS = 8
RUINS = 64


@functools.cache
def view_tensor(num_seats: int, mode: int) -> ViewTensor:
    boards = mode_of(mode).boards
    return ViewTensor(
        pb.KillTheKingView,
        {
            "seats": num_seats,
            "seats.initiative_rolls": INITIATIVE_ROLLS,
            "units": most_counters(mode),
            "to_act": num_seats,
            "gates": boards,
            "ruins": RUINS,
            "reinforced_halves": boards,
            "defence_penalty": 2,
            "outcome.winners": num_seats,
        },
    )
