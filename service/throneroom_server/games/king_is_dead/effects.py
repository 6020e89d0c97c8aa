"""Carrying out a card's decisions (and the summon) on a copied state: what
each decision does is rules.py's (shared with the last-card search); here it
is written into the state, with the events: one function per kind of
decision (the definition's effects, engine.py)."""

from __future__ import annotations

from typing import Any

from throneroom_server.games.king_is_dead.board import AMBASSADOR, GARRISON
from throneroom_server.games.king_is_dead.cards import Key
from throneroom_server.games.king_is_dead.methods import clear_field
from throneroom_server.games.king_is_dead.moves import move_from_key
from throneroom_server.games.king_is_dead.rules import (
    court_after_summon,
    crown_swap,
    exchange_flows,
    flowed,
    next_placement,
    placed,
    summoned_from,
    supply_after_placing,
)
from throneroom_server.games.king_is_dead.struggle import (
    Event,
    State,
    advance,
    counts_of,
    new_event,
    set_counts,
    start_effect,
    start_summon,
)


def play_card(state: State, seat: int, card: int, events: list[Event]) -> None:
    """The card leaves the hand for the top of the seat's played pile."""
    seat_state: Any = state.seats[seat]  # repeated enum fields take plain ints at run time
    hand = seat_state.hand
    hand.remove(card)
    seat_state.played.append(card)
    played_now = state.cards_played + 1
    state.cards_played = played_now
    seat_state.last_played = played_now
    state.consecutive_passes = 0
    if card not in (GARRISON, AMBASSADOR):
        # Any card played lifts the undo rule (an exchange card keeps it for its
        # own execution and then replaces it).
        clear_field(state, "last_exchange")
    event, played = new_event("card_played")
    played.seat = seat
    played.card = card
    played.cards_left = len(hand)
    events.append(event)
    start_effect(state, seat, card, events)


def summon(state: State, seat: int, key: Key, events: list[Event]) -> None:
    """A follower summoned from a region to the seat's court (the pending
    decision is not read); then the next seat holding cards plays."""
    _, region, faction = key
    reg = state.regions[region - 1]
    reg.scots, reg.welsh, reg.romano_british, reg.loyalists = summoned_from(
        (reg.scots, reg.welsh, reg.romano_british, reg.loyalists), faction
    )
    court = state.seats[seat].court
    court.scots, court.welsh, court.romano_british = court_after_summon(
        (court.scots, court.welsh, court.romano_british), faction
    )
    event, summoned = new_event("follower_summoned")
    summoned.seat = seat
    summoned.region = region
    summoned.faction = faction
    events.append(event)
    advance(state, seat, events)


def place_follower(state: State, seat: int, key: Key, events: list[Event]) -> None:
    """A follower of the pending colour placed in a region (the Settlers, a
    faction card): the next placement pending, else the card's summon."""
    pending: Any = state.pending  # enum fields take the plain ints used here
    card = pending.card
    region = key[1]
    colour = pending.colour
    reg = state.regions[region - 1]
    reg.scots, reg.welsh, reg.romano_british, reg.loyalists = placed(
        (reg.scots, reg.welsh, reg.romano_british, reg.loyalists), colour
    )
    supply = state.supply
    left = supply_after_placing((supply.scots, supply.welsh, supply.romano_british), colour)
    supply.scots, supply.welsh, supply.romano_british = left
    event, placed_event = new_event("follower_placed")
    placed_event.seat = seat
    placed_event.card = card
    placed_event.region = region
    placed_event.faction = colour
    events.append(event)
    following = next_placement((pending.decision, colour, pending.remaining), left)
    if following is not None:
        pending.decision, pending.colour, pending.remaining = following
        return
    start_summon(state, seat, card, events)


def crown(state: State, seat: int, key: Key, events: list[Event]) -> None:
    """The Crown's swap of two region cards, then the card's summon."""
    card = state.pending.card
    _crown(state, seat, key, events)
    start_summon(state, seat, card, events)


def exchange(state: State, seat: int, key: Key, events: list[Event]) -> None:
    """The Garrison's or the Ambassador's exchange, then the card's summon."""
    card = state.pending.card
    _exchange(state, seat, key, card, events)
    start_summon(state, seat, card, events)


def _crown(state: State, seat: int, key: Key, events: list[Event]) -> None:
    _, a, b, crowned = key
    cards: Any = state.region_cards  # enum fields take the plain ints used here
    at_a, at_b = crown_swap([c.region for c in cards], key)
    for position, region, is_crowned in (at_a, at_b):
        card = cards[position]
        card.region = region
        if is_crowned:
            card.crowned_by = seat
    state.seats[seat].has_crown_token = False
    event, crown = new_event("crown_placed")
    crown.seat = seat
    crown.region_a = a
    crown.region_b = b
    crown.crowned = crowned
    crown.position_a = at_b[0] + 1  # where region a's card lies now
    crown.position_b = at_a[0] + 1
    events.append(event)


def _exchange(state: State, seat: int, key: Key, card: int, events: list[Event]) -> None:
    flows = exchange_flows(key)
    (a, b, _), _ = flows
    reg_a = state.regions[a - 1]
    reg_b = state.regions[b - 1]
    at_a, at_b = flowed(flows, counts_of(reg_a), counts_of(reg_b))
    set_counts(reg_a, at_a)
    set_counts(reg_b, at_b)
    for from_region, to_region, followers in flows:
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
