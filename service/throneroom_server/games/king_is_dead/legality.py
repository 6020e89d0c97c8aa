"""What a seat may decide now: every legal decision as move keys, and the
quick membership test the checked apply asks.

``legal_keys`` is the enumeration (the definition's phase generator wraps it
in the lazy ``LegalMoves``); ``is_legal`` answers ``key in legal_keys(...)``
without listing every execution of a card (a Garrison can have hundreds): one
region, one exchange or one swap is looked at. Both ask the engine's 3-player
last-card search (``search``) where the last card restricts the choices.
"""

from __future__ import annotations

from types import MappingProxyType

from throneroom.v1 import king_is_dead_pb2 as pb

from throneroom_server.games.core import Seat
from throneroom_server.games.king_is_dead.board import (
    CARDS,
    DECIDE_AMBASSADOR,
    DECIDE_CROWN,
    DECIDE_GARRISON,
    DECIDE_PLACE,
    DECIDE_SETTLE,
    DECIDE_SUMMON,
    FACTIONS,
    TURN,
)
from throneroom_server.games.king_is_dead.cards import (
    K_AMBASSADOR,
    K_CROWN,
    K_GARRISON,
    K_PASS,
    K_PLACE,
    K_PLAY,
    K_SETTLE,
    K_SUMMON,
    PASS_KEY,
    Key,
    crown_keys,
    decision_keys,
    exchange_is_legal,
    place_targets,
)
from throneroom_server.games.king_is_dead.lastcard import (
    LastCardSearch,
    last_card_in_play,
    resolving_last_card,
)
from throneroom_server.games.king_is_dead.struggle import (
    COUNT_FIELDS,
    Reading,
    forbidden_mirror,
    read_board,
    read_cards,
    read_controls,
)

State = pb.KingIsDeadState

_DECISION_KIND = MappingProxyType(
    {
        DECIDE_CROWN: K_CROWN,
        DECIDE_GARRISON: K_GARRISON,
        DECIDE_AMBASSADOR: K_AMBASSADOR,
        DECIDE_SETTLE: K_SETTLE,
        DECIDE_PLACE: K_PLACE,
        DECIDE_SUMMON: K_SUMMON,
    }
)

_PLAY_KEYS: tuple[Key, ...] = tuple((K_PLAY, card) for card in range(max(CARDS) + 1))
"""The key of playing each card, by card."""


def legal_keys(state: State, seat: Seat, search: LastCardSearch) -> list[Key]:
    """Every legal decision of ``seat`` now, as ascending move keys (``search``:
    the engine's 3-player last-card search, with its memos)."""
    if state.HasField("outcome") or seat != state.to_move:
        return []
    pending = state.pending
    d = pending.decision
    if d == TURN:
        cards: list[int] = sorted(set(state.seats[seat].hand))
        if last_card_in_play(state):
            cards = search.playable_cards(state, seat, cards)
        return [PASS_KEY, *[_PLAY_KEYS[c] for c in cards]]
    keys = decision_keys(d, pending.colour, Reading(state, seat))
    if resolving_last_card(state):
        keys = search.winning_keys(state, seat, keys)
    return keys


def is_legal(state: State, seat: Seat, key: Key, search: LastCardSearch) -> bool:
    """``key in legal_keys(state, seat, search)`` for the seat to act, cheaply."""
    d = state.pending.decision
    kind = key[0]
    if d == TURN:
        if kind == K_PASS:
            return True
        if kind != K_PLAY or key[1] not in state.seats[seat].hand:
            return False
        return not last_card_in_play(state) or key in legal_keys(state, seat, search)
    if _DECISION_KIND.get(d) != kind:
        return False
    if resolving_last_card(state):
        return key in legal_keys(state, seat, search)
    if kind == K_SUMMON:
        reg = state.regions[key[1] - 1]
        faction = key[2]
        return faction in FACTIONS and getattr(reg, COUNT_FIELDS[faction - 1]) > 0
    if kind == K_SETTLE:
        return not state.regions[key[1] - 1].control
    if kind == K_CROWN:
        return key in crown_keys(read_cards(state))
    if kind == K_PLACE:
        return bool(place_targets(read_controls(state), state.pending.colour, (key[1],)))
    return exchange_is_legal(read_board(state), key, forbidden_mirror(state, seat))
