"""Structural invariants of a King's Life state (the conformance suite calls
``check`` after every move)."""

from __future__ import annotations

from collections import Counter

from throneroom.v1 import kings_life_pb2 as pb

from throneroom_server.games.kings_life.data import (
    ACTIVITIES,
    ALL_CARDS,
    CARD_ACTIVITY,
    CARD_CHARACTER,
    DAYS,
    DISPLAY_CHARACTERS,
    MERCHANT,
    SORCERER,
    TOKEN_VALUES,
)
from throneroom_server.games.kings_life.phases import TABLE
from throneroom_server.games.kings_life.table import NO_SEAT, State

Phase = pb.KingsLifeState
Status = pb.KingsLifeToken


def _cards_everywhere(state: State) -> list[int]:
    cards = list(state.deck)
    cards.extend(state.discard)
    cards.extend(state.removed)
    for player in state.players:
        cards.extend(player.hand)
        cards.extend(player.display)
        cards.extend(player.kept)
        if player.commitment:
            cards.append(player.commitment)
    if state.window in (Phase.WINDOW_PLAY, Phase.WINDOW_DUKE):
        cards.append(state.pending.card)
    return cards


def check(state: State) -> None:
    n = state.num_seats
    assert 4 <= n <= 8, f"{n} seats"
    assert len(state.players) == n, "one player record per seat"
    cards = _cards_everywhere(state)
    if sorted(cards) != list(ALL_CARDS):
        twice = sorted(c for c, k in Counter(cards).items() if k > 1)
        missing = sorted(set(ALL_CARDS) - set(cards))
        raise AssertionError(
            "card conservation: hand + deck + discard + displays + committed + pending + "
            f"removed + kept must be the 70 cards; twice: {twice}, missing: {missing}"
        )
    over = state.phase == Phase.PHASE_GAME_OVER
    assert over == state.HasField("outcome"), "outcome set exactly when the game is over"
    assert sorted(state.preferences) == sorted(ACTIVITIES), "the board holds the four activities"
    assert state.day in DAYS, "a day of the week"
    _check_tokens(state)
    _check_displays(state)
    _check_who_acts(state)


def _check_tokens(state: State) -> None:
    """The five token values; past days' tokens are won or discarded."""
    n = state.num_seats
    assert sorted(t.value for t in state.tokens) == sorted(TOKEN_VALUES), "the five tokens"
    today = DAYS.index(state.day)
    for index, token in enumerate(state.tokens):
        if token.status == Status.STATUS_WON:
            assert 0 <= token.holder < n, "a won token has a holder"
        else:
            assert token.holder == NO_SEAT, "only won tokens have a holder"
        if index < today:
            assert token.status != Status.STATUS_ON_BOARD, "a past day's token left the board"
        if index > today:
            assert token.status == Status.STATUS_ON_BOARD, "a later day's token is on the board"
    assert len(state.days) in (today, today + 1), "one record per reckoned day"


def _check_displays(state: State) -> None:
    """Support between players, known and face-down cards, the displays, and the
    Merchant and Sorcerer beside an activity card of the same display."""
    discard = set(state.discard)
    seen_face_down: set[int] = set()
    for seat, player in enumerate(state.players):
        if player.supporter != NO_SEAT:
            assert player.supporter != seat, "nobody supports itself"
            assert state.players[player.supporter].supporting == seat, "support is mutual"
        if player.supporting != NO_SEAT:
            assert state.players[player.supporting].supporter == seat, "support is mutual"
        assert set(player.revealed) <= set(player.hand), "known hand cards are in the hand"
        face_down = set(player.face_down_discards)
        assert face_down <= discard, "face-down discards are in the discard pile"
        assert not face_down & seen_face_down, "a face-down discard belongs to one seat"
        seen_face_down |= face_down
        for card in player.display:
            kind = CARD_CHARACTER[card]
            assert not kind or kind in DISPLAY_CHARACTERS, "only display characters stay"

    for attachment, target in ((MERCHANT, state.merchant_on), (SORCERER, state.sorcerer_on)):
        holders = [p for p in state.players if attachment in p.display]
        if target:
            assert len(holders) == 1, "an attached card is in one display"
            assert CARD_ACTIVITY[target] and target in holders[0].display, (
                "an attached card sits beside an activity card of the same display"
            )
        else:
            assert not holders, "a displayed Merchant / Sorcerer is attached"
    if state.sorcerer_on:
        assert state.sorcerer_activity in ACTIVITIES
        assert state.sorcerer_activity != CARD_ACTIVITY[state.sorcerer_on]


def _check_who_acts(state: State) -> None:
    """Who acts in each phase, the Queen window, the Fool's take-backs and the commitments."""
    n = state.num_seats
    over = state.phase == Phase.PHASE_GAME_OVER
    phase = state.phase
    if TABLE.current(state).simultaneous:
        awaiting = list(state.awaiting)
        assert awaiting, "a simultaneous decision waits for somebody"
        assert awaiting == sorted(set(awaiting)), "awaiting seats ascending, unique"
        assert all(0 <= s < n for s in awaiting)
    elif not over:
        assert 0 <= state.turn < n, "a seat to act"
        assert not state.awaiting
    if phase == Phase.PHASE_QUEEN_WINDOW:
        assert state.window != Phase.WINDOW_NONE, "a Queen window is about something"
    else:
        assert state.window == Phase.WINDOW_NONE
        assert state.queen_canceller == NO_SEAT
    if phase == Phase.PHASE_TURNS:
        assert not state.players[state.turn].passed, "a passed player has no turn"
    taken = list(state.fool_taken)
    if phase == Phase.PHASE_FOOL_TAKE_BACK:
        assert taken == sorted(set(taken)), "cards taken back with the Fool ascending, unique"
        fool_player = state.players[state.turn]
        assert not fool_player.passed, "the Fool's player passes after its take-backs"
        assert all(c in fool_player.hand and c in fool_player.revealed for c in taken), (
            "cards taken back with the Fool are known cards of its player's hand"
        )
    else:
        assert not taken, "cards taken back are listed only while the Fool takes back"
    if phase in (Phase.PHASE_DUKE, Phase.PHASE_FOOL_PASS):
        assert state.players[state.turn].hand or phase == Phase.PHASE_FOOL_PASS
    committed = phase == Phase.PHASE_INITIAL_ROUND or (
        phase == Phase.PHASE_QUEEN_WINDOW and state.window == Phase.WINDOW_INITIAL_REVEAL
    )
    if not committed:
        assert all(p.commitment == 0 for p in state.players), "commitments only at day start"
