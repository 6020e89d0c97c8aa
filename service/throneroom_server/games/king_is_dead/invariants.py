"""Conservation laws and structural invariants of a King Is Dead state."""

from __future__ import annotations

from throneroom.v1 import king_is_dead_pb2 as pb

from throneroom_server.games.king_is_dead.board import (
    CROWN,
    FACTIONS,
    FOLLOWERS_PER_FACTION,
    HAND,
    LOYALIST_FOLLOWERS,
    NONE,
    NUM_REGIONS,
    REGIONS,
    REMOVED_PER_FACTION_TWO_PLAYERS,
    SAXON_TOKENS_FOR_INVASION,
    SAXONS,
    TURN,
)
from throneroom_server.games.king_is_dead.struggle import COUNT_FIELDS


def check_invariants(state: pb.KingIsDeadState) -> None:
    """Every law of a King Is Dead state (each section its own function)."""
    n = state.num_seats
    assert 2 <= n <= 4, f"{n} seats"
    assert len(state.seats) == n, "one SeatState per seat"
    regions = state.regions
    assert [r.region for r in regions] == list(REGIONS), "regions in Region order"
    cards = state.region_cards
    assert sorted(c.region for c in cards) == list(REGIONS), "region cards: the 8 regions"
    resolved = _regions_and_cards(state)
    _followers(state)
    _hands(state)
    _turn(state, resolved)


def _regions_and_cards(state: pb.KingIsDeadState) -> int:
    """Regions, cards, resolution order; returns how many regions are resolved."""
    regions = state.regions
    cards = state.region_cards
    face_up = {c.region: c.face_up for c in cards}
    orders = []
    for r in regions:
        counts = [getattr(r, f) for f in COUNT_FIELDS]
        assert min(counts) >= 0, f"negative followers in region {r.region}"
        resolved = r.control != pb.REGION_CONTROL_UNRESOLVED
        assert resolved == (not face_up[r.region]), (
            f"region {r.region}: card face up iff unresolved"
        )
        assert resolved == (r.resolved_order > 0), f"region {r.region}: resolved_order"
        if resolved:
            assert sum(counts) == 0, f"followers in resolved region {r.region}"
            orders.append(r.resolved_order)
    assert sorted(orders) == list(range(1, len(orders) + 1)), "resolution orders 1..k"
    return len(orders)


def _followers(state: pb.KingIsDeadState) -> None:
    """Followers: court + board + supply + removed = 18 per faction (54)."""
    n = state.num_seats
    regions = state.regions
    removed = REMOVED_PER_FACTION_TWO_PLAYERS if n == 2 else 0
    for faction in FACTIONS:
        field = COUNT_FIELDS[faction - 1]
        on_board = sum(getattr(r, field) for r in regions)
        at_court = sum(getattr(s.court, field) for s in state.seats)
        supply = getattr(state.supply, field)
        out = getattr(state.removed, field)
        assert min(supply, out, at_court) >= 0, "negative follower count"
        assert out == removed, f"{field}: {out} removed, expected {removed}"
        assert on_board + at_court + supply + out == FOLLOWERS_PER_FACTION, (
            f"{field}: {on_board} on the board + {at_court} at court + {supply} in the "
            f"supply + {out} removed != {FOLLOWERS_PER_FACTION}"
        )
    black = sum(r.loyalists for r in regions) + state.loyalist_pool
    assert state.loyalist_pool >= 0, "negative Loyalist pool"
    assert black == (LOYALIST_FOLLOWERS if state.mordred else 0), f"{black} black followers"
    assert state.supply.loyalists == 0 and state.removed.loyalists == 0, "black in the supply"
    assert all(s.court.loyalists == 0 for s in state.seats), "black follower at court"


def _hands(state: pb.KingIsDeadState) -> None:
    """Cards: each seat's hand + played pile is its set of 8."""
    n = state.num_seats
    cards = state.region_cards
    stamps = []
    for i, s in enumerate(state.seats):
        hand = list(s.hand)
        assert hand == sorted(hand), f"seat {i}: hand not ascending"
        assert sorted(hand + list(s.played)) == list(HAND), f"seat {i}: not its 8 cards"
        assert (s.last_played > 0) == bool(s.played), f"seat {i}: last_played"
        if s.played:
            stamps.append(s.last_played)
        crowns = [c for c in cards if c.HasField("crowned_by") and c.crowned_by == i]
        assert len(crowns) <= 1, f"seat {i}: more than one crown token placed"
        assert s.has_crown_token == (not crowns), f"seat {i}: crown token"
        if crowns:
            assert CROWN in s.played, f"seat {i}: crown token placed without the Crown card"
    assert all(c.crowned_by in range(n) for c in cards if c.HasField("crowned_by")), (
        "crown of an unknown seat"
    )
    assert sum(len(s.played) for s in state.seats) == state.cards_played, "cards_played"
    assert len(set(stamps)) == len(stamps), "two seats with the same last play"
    assert all(0 < t <= state.cards_played for t in stamps), "last_played out of range"


def _turn(state: pb.KingIsDeadState, resolved: int) -> None:
    """Whose turn, what is pending, the end."""
    n = state.num_seats
    regions = state.regions
    saxons = sum(1 for r in regions if r.control == SAXONS)
    over = state.HasField("outcome")
    pending = state.pending
    assert over == (pending.decision == NONE), "pending NONE iff the game is over"
    if over:
        assert state.outcome.winners, "a finished game has winners"
        return
    assert saxons < SAXON_TOKENS_FOR_INVASION, "four Saxon tokens but the game goes on"
    assert resolved < NUM_REGIONS, "every region resolved but the game goes on"
    assert 0 <= state.to_move < n, "to_move"
    assert 0 <= state.consecutive_passes < n, "consecutive passes"
    mover = state.seats[state.to_move]
    if pending.decision == TURN:
        assert len(mover.hand) > 0, "a seat without cards is asked to play"
        assert pending.card == 0, "no card pending at a turn"
    else:
        assert mover.played and mover.played[-1] == pending.card, "pending card is the top card"
        assert state.consecutive_passes == 0, "passes while a card is resolved"
