"""Carrying out a card's decisions (and the summon) on a copied state."""

from __future__ import annotations

from typing import Any

from throneroom.v1 import king_is_dead_pb2 as pb

from throneroom_server.games.king_is_dead.cards import (
    K_AMBASSADOR,
    K_CROWN,
    K_GARRISON,
    K_PLACE,
    K_SETTLE,
    K_SUMMON,
    Key,
    next_settle_colour,
)
from throneroom_server.games.king_is_dead.moves import move_from_key
from throneroom_server.games.king_is_dead.struggle import (
    Event,
    State,
    add_followers,
    advance,
    new_event,
    read_supply,
    start_effect,
    start_summon,
)


def play_card(state: State, seat: int, card: int, events: list[Event]) -> None:
    """The card leaves the hand for the top of the seat's played pile."""
    seat_state = state.seats[seat]
    hand: list[int] = list(seat_state.hand)
    hand.remove(card)
    cards: Any = seat_state  # repeated enum fields take plain ints at run time
    cards.hand[:] = hand
    cards.played.append(card)
    state.cards_played += 1
    seat_state.last_played = state.cards_played
    state.consecutive_passes = 0
    if card not in (pb.ACTION_CARD_GARRISON, pb.ACTION_CARD_AMBASSADOR):
        # Any card played lifts the undo rule (an exchange card keeps it for its
        # own execution and then replaces it).
        state.ClearField("last_exchange")
    event, played = new_event("card_played")
    played.seat = seat
    played.card = card
    played.cards_left = len(hand)
    events.append(event)
    start_effect(state, seat, card, events)


def carry_out(state: State, seat: int, key: Key, events: list[Event]) -> None:
    """Carry out one legal decision of a card's effect or its summon."""
    kind = key[0]
    pending: Any = state.pending  # enum fields take the plain ints used here
    card = pending.card
    if kind == K_SUMMON:
        _, region, faction = key
        add_followers(state.regions[region - 1], faction, -1)
        add_followers(state.seats[seat].court, faction, 1)
        event, summoned = new_event("follower_summoned")
        summoned.seat = seat
        summoned.region = region
        summoned.faction = faction
        events.append(event)
        advance(state, seat, events)
    elif kind in (K_SETTLE, K_PLACE):
        region = key[1]
        colour = pending.colour
        add_followers(state.regions[region - 1], colour, 1)
        add_followers(state.supply, colour, -1)
        event, placed = new_event("follower_placed")
        placed.seat = seat
        placed.card = card
        placed.region = region
        placed.faction = colour
        events.append(event)
        if kind == K_SETTLE:
            following = next_settle_colour(read_supply(state), colour)
            if following:
                pending.colour = following
                return
        else:
            pending.remaining -= 1
            if pending.remaining > 0:
                return
        start_summon(state, seat, card, events)
    elif kind == K_CROWN:
        _crown(state, seat, key, events)
        start_summon(state, seat, card, events)
    elif kind in (K_GARRISON, K_AMBASSADOR):
        _exchange(state, seat, key, card, events)
        start_summon(state, seat, card, events)
    else:  # pragma: no cover - apply() only passes effect keys here
        raise AssertionError(f"not an effect decision: {key!r}")


def _crown(state: State, seat: int, key: Key, events: list[Event]) -> None:
    _, a, b, crowned = key
    cards: Any = state.region_cards  # enum fields take the plain ints used here
    pos_a = pos_b = -1
    for i, c in enumerate(cards):
        if c.region == a:
            pos_a = i
        elif c.region == b:
            pos_b = i
    # Both cards are face up and uncrowned: swapping them swaps their regions.
    cards[pos_a].region = b
    cards[pos_b].region = a
    cards[pos_b if crowned == a else pos_a].crowned_by = seat
    state.seats[seat].has_crown_token = False
    event, placed = new_event("crown_placed")
    placed.seat = seat
    placed.region_a = a
    placed.region_b = b
    placed.crowned = crowned
    placed.position_a = pos_b + 1
    placed.position_b = pos_a + 1
    events.append(event)


def _exchange(state: State, seat: int, key: Key, card: int, events: list[Event]) -> None:
    regions = state.regions
    if key[0] == K_GARRISON:
        _, a, b, o1, o2, back = key
        going = [o1, o2] if o2 else [o1]
        coming = [back] if back else []
    else:
        _, a, b, fa, fb = key
        going = [fa] if fa else []
        coming = [fb] if fb else []
    reg_a = regions[a - 1]
    reg_b = regions[b - 1]
    for colour in going:
        add_followers(reg_a, colour, -1)
        add_followers(reg_b, colour, 1)
    for colour in coming:
        add_followers(reg_b, colour, -1)
        add_followers(reg_a, colour, 1)
    for from_region, to_region, followers in ((a, b, going), (b, a, coming)):
        if followers:
            event, moved = new_event("followers_moved")
            moved.seat = seat
            moved.card = card
            moved.from_region = from_region
            moved.to_region = to_region
            moved.followers.extend(followers)
            events.append(event)
    last = state.last_exchange
    last.seat = seat
    last.exchange.CopyFrom(move_from_key(key))
