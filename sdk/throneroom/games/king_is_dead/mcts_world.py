"""The King Is Dead's world for the MCTS bot: a full state built from one seat's view only.

The engines cannot turn a view back into a state, so the game's package has a
builder that does it with the game's data (``throneroom.games.king_is_dead.data``):
every public fact of the view is copied; every hidden fact gets a placeholder
of the right size taken from the cards the view does not show (the game's
composition minus every card the seat can see); then the engine's own
``randomize_hidden(state, seat, seed)`` redraws all of them at random among
the worlds consistent with what the seat knows. The true state is never read:
the input is the view the service sent to the seat.

The King Is Dead: hidden are the other hands and the played cards below each
pile's top. A seat's 8 cards are the same ``HAND`` for everyone, so a pile of
``played_count`` cards topped by ``top_card`` and a hand of ``cards_left``
cards is all a placeholder needs. The viewer's own pile is its ``HAND`` minus
its hand, its visible top card last.

``tests/tournament/test_mcts.py`` checks over seeded playouts that every
world's view for the seat equals the view it was built from.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from throneroom.games.king_is_dead.data import HAND
from throneroom.v1 import king_is_dead_pb2 as kid

__all__ = ["king_is_dead_world"]


def king_is_dead_world(view: kid.KingIsDeadView, seat: int) -> kid.KingIsDeadState:
    """A state whose view for ``seat`` is ``view`` (hidden cards: placeholders)."""
    state = kid.KingIsDeadState(
        num_seats=view.num_seats,
        mordred=view.mordred,
        regions=view.regions,
        region_cards=view.region_cards,
        supply=view.supply,
        removed=view.removed,
        loyalist_pool=view.loyalist_pool,
        consecutive_passes=view.consecutive_passes,
        pending=view.pending,
        cards_played=view.cards_played,
    )
    if view.HasField("to_move"):
        state.to_move = view.to_move
    if view.HasField("last_exchange"):
        state.last_exchange.CopyFrom(view.last_exchange)
    if view.HasField("outcome"):
        state.outcome.CopyFrom(view.outcome)
    for public in view.seats:
        placed: Any = state.seats.add(  # Any: enum lists take the plain ints used here
            court=public.court,
            has_crown_token=public.has_crown_token,
            last_played=public.last_played,
        )
        if public.seat == seat:
            played = _without(HAND, view.my_hand)
            if public.top_card:
                played.remove(public.top_card)
                played.append(public.top_card)
            placed.hand.extend(view.my_hand)
            placed.played.extend(played)
            continue
        # Placeholders of the right sizes; randomize_hidden draws the real ones.
        top = [public.top_card] if public.played_count else []
        rest = _without(HAND, top)
        placed.played.extend(rest[: public.played_count - len(top)] + top)
        placed.hand.extend(rest[public.played_count - len(top) :])
    return state


def _without(cards: Sequence[int], taken: Sequence[int]) -> list[int]:
    """``cards`` less ``taken``, as multisets (a hand holds two Settlers)."""
    rest = list(cards)
    for card in taken:
        rest.remove(card)
    return rest
