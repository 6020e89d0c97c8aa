"""What a seat may decide now: every legal decision as move keys, and the
quick membership test the checked apply asks.

``legal_keys`` is the enumeration (the definition's phase generator wraps it
in the lazy ``LegalMoves``); ``is_legal`` answers ``key in legal_keys(...)``
without listing every execution of a card (a Garrison can have hundreds): one
region, one exchange or one swap is looked at. Both ask the engine's 3-player
last-card search (``search``) where the last card restricts the choices.
"""

from __future__ import annotations

from collections.abc import Callable
from operator import attrgetter

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
    LAST_CARD_RULE_SEATS,
    REGIONS,
    ROMANO_BRITISH,
    SCOTS,
    TURN,
    WELSH,
)
from throneroom_server.games.king_is_dead.cards import (
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
    ALL_CARDS,
    LastCardSearch,
    last_card_in_play,
    resolving_last_card,
)
from throneroom_server.games.king_is_dead.methods import has_field
from throneroom_server.games.king_is_dead.struggle import (
    COUNT_FIELDS,
    Reading,
    forbidden_mirror,
    read_board,
    read_cards,
    read_controls,
)

State = pb.KingIsDeadState

_PLAY_KEYS: tuple[Key, ...] = tuple((K_PLAY, card) for card in range(max(CARDS) + 1))
"""The key of playing each card, by card."""


def legal_keys(state: State, seat: Seat, search: LastCardSearch) -> list[Key]:
    """Every legal decision of ``seat`` now, as ascending move keys (``search``:
    the engine's 3-player last-card search, with its memos)."""
    if has_field(state, "outcome") or seat != state.to_move:
        return []
    return keys_to_act(state, seat, search)


def keys_to_act(state: State, seat: Seat, search: LastCardSearch) -> list[Key]:
    """``legal_keys`` of the seat to act while the game goes on (the phase
    generator: the kit asks it only then, so it does not check again)."""
    pending = state.pending
    d = pending.decision
    if d == TURN:
        cards: list[int] = sorted(set(state.seats[seat].hand))
        if last_card_in_play(state):
            cards = search.playable_cards(state, seat, cards)
        return [PASS_KEY, *[_PLAY_KEYS[c] for c in cards]]
    if d == DECIDE_SUMMON:  # the commonest: decision_keys' first case, with no Reading
        keys = summon_keys_of(state)
    elif d == DECIDE_SETTLE:  # decision_keys' settle_keys, from the controls alone
        controls = read_controls(state)
        keys = [k for k, control in zip(_SETTLE_KEYS, controls, strict=True) if not control]
    elif d == DECIDE_PLACE:  # decision_keys' place case, with no Reading
        keys = [_PLACE_KEYS[r] for r in place_targets(read_controls(state), pending.colour)]
    else:
        keys = decision_keys(d, pending.colour, Reading(state, seat))
    if resolving_last_card(state):
        keys = search.winning_keys(state, seat, keys)
    return keys


_SUMMON_KEYS: tuple[tuple[Key, Key, Key], ...] = tuple(
    ((K_SUMMON, r, SCOTS), (K_SUMMON, r, WELSH), (K_SUMMON, r, ROMANO_BRITISH)) for r in REGIONS
)
"""The keys of summoning a Scots, Welsh, Romano-British follower from each region
(by region - 1)."""
_NON_BLACK = attrgetter("scots", "welsh", "romano_british")
_SETTLE_KEYS: tuple[Key, ...] = tuple((K_SETTLE, r) for r in REGIONS)
"""The key of settling in each region (by region - 1): an unresolved one may be chosen
(``cards.settle_keys``: read_board's None is a resolved region, its control set)."""
_PLACE_KEYS: tuple[Key, ...] = tuple((K_PLACE, r) for r in range(max(REGIONS) + 1))
"""The key of placing in each region, by region."""


def summon_keys_of(state: State) -> list[Key]:
    """``summon_keys(read_board(state))`` (every non-black follower in an unresolved
    region), read in one pass with the keys built once: the commonest decision."""
    keys: list[Key] = []
    for region, (scots, welsh, romano_british) in zip(state.regions, _SUMMON_KEYS, strict=True):
        if region.control:
            continue
        s, w, r = _NON_BLACK(region)
        if s:
            keys.append(scots)
        if w:
            keys.append(welsh)
        if r:
            keys.append(romano_british)
    return keys


def is_legal(state: State, seat: Seat, key: Key, search: LastCardSearch) -> bool:
    """``key in legal_keys(state, seat, search)`` for the seat to act, cheaply."""
    if _PHASE_OF_KIND[key[0]] != state.pending.decision:
        return False
    return LEGAL_IN_ITS_PHASE[key[0]](state, seat, key, search)


# -- each kind in the phase that asks for it ---------------------------------------------
# ``is_legal`` once the pending decision is known to be the one the key's kind answers
# (a turn for a pass or a card; the card's decision for the others): the kit's checked
# apply knows it (it asks a kind only in a phase that allows it), so it asks these
# directly and the pending decision is not read again (nor by ``resolving_last_card``,
# written out: the last card resolving is the 24th card played in a 3-player game).


def _pass(state: State, seat: Seat, key: Key, search: LastCardSearch) -> bool:
    return True


def _play(state: State, seat: Seat, key: Key, search: LastCardSearch) -> bool:
    if key[1] not in state.seats[seat].hand:
        return False
    if state.cards_played == ALL_CARDS - 1 and state.num_seats == LAST_CARD_RULE_SEATS:
        return key in keys_to_act(state, seat, search)  # last_card_in_play
    return True


def _summon(state: State, seat: Seat, key: Key, search: LastCardSearch) -> bool:
    if state.cards_played == ALL_CARDS and state.num_seats == LAST_CARD_RULE_SEATS:
        return key in keys_to_act(state, seat, search)  # resolving_last_card
    faction = key[2]
    return faction in FACTIONS and getattr(state.regions[key[1] - 1], COUNT_FIELDS[faction - 1]) > 0


def _settle(state: State, seat: Seat, key: Key, search: LastCardSearch) -> bool:
    if state.cards_played == ALL_CARDS and state.num_seats == LAST_CARD_RULE_SEATS:
        return key in keys_to_act(state, seat, search)  # resolving_last_card
    return not state.regions[key[1] - 1].control


def _crown(state: State, seat: Seat, key: Key, search: LastCardSearch) -> bool:
    if state.cards_played == ALL_CARDS and state.num_seats == LAST_CARD_RULE_SEATS:
        return key in keys_to_act(state, seat, search)  # resolving_last_card
    return key in crown_keys(read_cards(state))


def _place(state: State, seat: Seat, key: Key, search: LastCardSearch) -> bool:
    if state.cards_played == ALL_CARDS and state.num_seats == LAST_CARD_RULE_SEATS:
        return key in keys_to_act(state, seat, search)  # resolving_last_card
    return bool(place_targets(read_controls(state), state.pending.colour, (key[1],)))


def _exchange(state: State, seat: Seat, key: Key, search: LastCardSearch) -> bool:
    if state.cards_played == ALL_CARDS and state.num_seats == LAST_CARD_RULE_SEATS:
        return key in keys_to_act(state, seat, search)  # resolving_last_card
    return exchange_is_legal(read_board(state), key, forbidden_mirror(state, seat))


LegalInPhase = Callable[[State, Seat, Key, LastCardSearch], bool]

LEGAL_IN_ITS_PHASE: tuple[LegalInPhase, ...] = (
    _pass,  # K_PASS
    _play,  # K_PLAY
    _crown,  # K_CROWN
    _exchange,  # K_GARRISON
    _exchange,  # K_AMBASSADOR
    _settle,  # K_SETTLE
    _place,  # K_PLACE
    _summon,  # K_SUMMON
)
"""By key kind (``key[0]``): ``is_legal`` for a state in the phase of that kind
(see ``_PHASE_OF_KIND``)."""

_PHASE_OF_KIND: tuple[int, ...] = (
    TURN,  # K_PASS
    TURN,  # K_PLAY
    DECIDE_CROWN,
    DECIDE_GARRISON,
    DECIDE_AMBASSADOR,
    DECIDE_SETTLE,
    DECIDE_PLACE,
    DECIDE_SUMMON,
)
"""By key kind: the pending decision in which a move of that kind may be legal."""
