"""The King Is Dead's action codec: every move <-> ``0..N-1`` (docs/rl.md).

N is the same for every seat count and for the Mordred variant (the Loyalists'
colour is in every colour axis), and each kind lists only combinations the
rules can produce: a Crown's two regions ascending with the crowned one of
them, a Garrison only across a border (``BORDERS``, both ways) with one or two
colours ascending out and at most one back, an Ambassador's two regions
ascending with at most one follower from each::

    >>> from throneroom.games.king_is_dead.actions import action_codec
    >>> codec = action_codec()
    >>> codec.size
    2632
    >>> codec.decode(0)
    pass_turn {
    }
    <BLANKLINE>
"""

from __future__ import annotations

import functools
from itertools import combinations, combinations_with_replacement

from throneroom.games.codec import ActionCodec, Axis, Shape
from throneroom.games.king_is_dead.data import BORDERS, COLOURS, REGIONS
from throneroom.v1 import king_is_dead_pb2 as pb

__all__ = ["action_codec"]

CARDS = tuple(v for v in pb.ActionCard.values() if v != pb.ACTION_CARD_UNSPECIFIED)


def _regions() -> Axis:
    return Axis(("region",), [(r,) for r in REGIONS])


@functools.cache
def action_codec() -> ActionCodec[pb.KingIsDeadMove]:
    """The codec (one for every seat count and option)."""
    pairs = list(combinations(REGIONS, 2))
    crown = Axis(("region_a", "region_b", "crowned"), [(a, b, c) for a, b in pairs for c in (a, b)])
    borders = [(a, b) for a, b in BORDERS] + [(b, a) for a, b in BORDERS]
    outgoing = [(c,) for n in (1, 2) for c in combinations_with_replacement(COLOURS, n)]
    maybe_colour = [(None,), *((c,) for c in COLOURS)]
    return ActionCodec(
        pb.KingIsDeadMove,
        (
            Shape("pass_turn"),
            Shape("play_card", (Axis(("card",), [(c,) for c in CARDS]),)),
            Shape("crown", (crown,)),
            Shape(
                "garrison",
                (
                    Axis(("from_region", "to_region"), borders),
                    Axis(("outgoing",), outgoing),
                    Axis(("returning",), maybe_colour),
                ),
            ),
            Shape(
                "ambassador",
                (
                    Axis(("region_a", "region_b"), pairs),
                    Axis(("from_a",), maybe_colour),
                    Axis(("from_b",), maybe_colour),
                ),
            ),
            Shape("settle", (_regions(),)),
            Shape("place", (_regions(),)),
            Shape("summon", (_regions(), Axis(("faction",), [(c,) for c in COLOURS]))),
        ),
    )
