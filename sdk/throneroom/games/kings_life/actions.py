"""King's Life's action codec: every move <-> ``0..N-1`` (docs/rl.md).

Cards are named by their ids (1..``DECK_SIZE``), so an action means the same
card whatever the hand. A Tuesday exchange discards 0-3 cards, ascending; a
card played lists only the choices its character takes (the Merchant and the
Thief a target card, the Sorcerer a target card and a new activity, the Jester
two cards, the Chamberlain two positions, the Astrologer a day, the Guard and
the Peon a supported seat with a display card handed over); a pass or a
Guard's or Peon's support names a seat of this game, so N grows with the seats::

    >>> from throneroom.games.kings_life.actions import action_codec
    >>> action_codec(4).size < action_codec(8).size
    True
"""

from __future__ import annotations

import functools
from itertools import combinations

from throneroom.games.codec import ActionCodec, Axis, Shape
from throneroom.games.kings_life.data import (
    ACTIVITIES,
    ALL_CARDS,
    CARD_ACTIVITY,
    CARD_CHARACTER,
    DAYS,
    EXCHANGE_MAX,
    PREFERENCE_POSITIONS,
)
from throneroom.v1 import kings_life_pb2 as pb

__all__ = ["action_codec"]

_TARGETED = (pb.CHARACTER_MERCHANT, pb.CHARACTER_THIEF)
_SUPPORTING = (pb.CHARACTER_GUARD, pb.CHARACTER_PEON)
_OWN_SHAPE = (
    *_TARGETED,
    *_SUPPORTING,
    pb.CHARACTER_SORCERER,
    pb.CHARACTER_JESTER,
    pb.CHARACTER_CHAMBERLAIN,
    pb.CHARACTER_ASTROLOGER,
)


def _cards(*kinds: int) -> Axis:
    return Axis(("card",), [(c,) for c in ALL_CARDS if CARD_CHARACTER[c] in kinds])


def _support(num_seats: int) -> Axis:
    """The supported seat (None: nobody) with the display card handed over (0: none)."""
    handed = (0, *ALL_CARDS)
    pairs = [(None, 0)] + [(s, h) for s in range(num_seats) for h in handed]
    return Axis(("support", "hand_over"), pairs)


def _play_shapes(num_seats: int) -> tuple[Shape, ...]:
    activity_cards = [c for c in ALL_CARDS if CARD_ACTIVITY[c]]
    plain = [(c,) for c in ALL_CARDS if CARD_CHARACTER[c] not in _OWN_SHAPE]
    return (
        Shape("play", (Axis(("card",), plain),)),
        Shape("play", (_cards(*_TARGETED), Axis(("target_card",), [(t,) for t in activity_cards]))),
        Shape(
            "play",
            (
                _cards(pb.CHARACTER_SORCERER),
                Axis(("target_card",), [(t,) for t in activity_cards]),
                Axis(("activity",), [(a,) for a in ACTIVITIES]),
            ),
        ),
        Shape(
            "play",
            (
                _cards(pb.CHARACTER_JESTER),
                Axis(("cards",), [(p,) for p in combinations(activity_cards, 2)]),
            ),
        ),
        Shape(
            "play",
            (
                _cards(pb.CHARACTER_CHAMBERLAIN),
                Axis(("positions",), [(p,) for p in combinations(range(PREFERENCE_POSITIONS), 2)]),
            ),
        ),
        Shape(
            "play", (_cards(pb.CHARACTER_ASTROLOGER), Axis(("token_day",), [(d,) for d in DAYS]))
        ),
        Shape("play", (_cards(*_SUPPORTING), _support(num_seats))),
    )


@functools.cache
def action_codec(num_seats: int) -> ActionCodec[pb.KingsLifeMove]:
    """The codec of a game of ``num_seats`` seats."""
    discards = [(c,) for n in range(EXCHANGE_MAX + 1) for c in combinations(ALL_CARDS, n)]
    queens = [(False, None)] + [(True, s) for s in range(num_seats)]
    return ActionCodec(
        pb.KingsLifeMove,
        (
            Shape("exchange", (Axis(("discard",), discards),)),
            Shape("mulligan", (Axis(("take",), [(False,), (True,)]),)),
            Shape("commit", (Axis(("card",), [(0,), *((c,) for c in ALL_CARDS)]),)),
            Shape("queen", (Axis(("cancel", "target"), queens),)),
            *_play_shapes(num_seats),
            Shape("passing", (_support(num_seats),)),
            Shape("duke", (Axis(("play",), [(False,), (True,)]),)),
            Shape("take_back", (Axis(("card",), [(0,), *((c,) for c in ALL_CARDS)]),)),
        ),
    )
