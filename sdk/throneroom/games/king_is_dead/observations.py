"""The King Is Dead's view as a tensor (``throneroom.games.tensor``, docs/rl.md).

Every repeated field keeps all the elements the rules allow: the hand's 8
cards, the 8 regions and region cards, one entry per seat, the two followers
of a Garrison, every winner::

    >>> from throneroom.games.king_is_dead.observations import view_tensor
    >>> view_tensor(2).size < view_tensor(4).size
    True
"""

from __future__ import annotations

import functools

from throneroom.games.king_is_dead.data import NUM_REGIONS
from throneroom.games.tensor import ViewTensor
from throneroom.v1 import king_is_dead_pb2 as pb

__all__ = ["view_tensor"]

HAND = 8
"""Action cards a seat starts with (one of each, the Settlers twice)."""


@functools.cache
def view_tensor(num_seats: int) -> ViewTensor:
    return ViewTensor(
        pb.KingIsDeadView,
        {
            "my_hand": HAND,
            "regions": NUM_REGIONS,
            "region_cards": NUM_REGIONS,
            "seats": num_seats,
            "last_exchange.exchange.garrison.outgoing": 2,
            "outcome.winners": num_seats,
        },
    )
