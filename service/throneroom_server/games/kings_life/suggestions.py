"""Suggestions to the King: the initial round, the turns and passing.

The Queen window that follows every card is in ``queen``; the cards' plays
and effects in ``characters``; support in ``support``.
"""

from __future__ import annotations

from throneroom.v1 import kings_life_pb2 as pb

from throneroom_server.games.kings_life import characters
from throneroom_server.games.kings_life.choices import Node, Pick, Rule
from throneroom_server.games.kings_life.data import CARD_SUN
from throneroom_server.games.kings_life.queen import open_window, window_participants
from throneroom_server.games.kings_life.steps import Follow, Next, Step
from throneroom_server.games.kings_life.support import Power, give_support, support_choice
from throneroom_server.games.kings_life.table import (
    NO_SEAT,
    Event,
    Events,
    State,
    card_name,
    leave_hand,
)

Move = pb.KingsLifeMove
Phase = pb.KingsLifeState

# --- Initial round ---------------------------------------------------------------


def open_initial_round(state: State) -> None:
    """Every seat commits one sun card face down at the same time; a seat
    without a sun card commits nothing (it is asked all the same, so the
    question leaks nothing)."""
    state.phase = Phase.PHASE_INITIAL_ROUND
    state.turn = NO_SEAT
    del state.awaiting[:]
    state.awaiting.extend(range(state.num_seats))
    for player in state.players:
        player.commitment = 0


def commit_tree(state: State, seat: int) -> Node:
    """A sun card of the hand, or nothing (card 0) for a hand without one."""
    hand = sorted(state.players[seat].hand)
    has_sun = any(CARD_SUN[c] for c in hand)
    return Pick(
        read=lambda m: m.commit.card,
        domain=(0, *hand),
        outside=lambda c: f"{card_name(c)} is not in seat {seat}'s hand",
        then=lambda c: Move(commit=Move.Commit(card=c)),
        leaf=True,
        rules=(
            Rule(
                lambda c: c != 0 or not has_sun,
                lambda c: f"seat {seat} holds a sun card and must commit one",
            ),
            Rule(
                lambda c: c == 0 or CARD_SUN[c],
                lambda c: f"{card_name(c)} has no sun icon; only sun cards open the day",
            ),
        ),
    )


def commit(state: State, seat: int, move: pb.KingsLifeMove, events: Events) -> Follow:
    card = move.commit.card
    player = state.players[seat]
    if card:
        leave_hand(player, card)
    player.commitment = card
    state.awaiting.remove(seat)
    events.append(
        Event(answered=Event.Answered(seat=seat, move=Move(commit=Move.Commit(card=card))))
    )
    if not state.awaiting:
        return reveal(state, events)
    return None


def reveal(state: State, events: Events) -> Follow:
    """All committed cards are revealed together; then the Queen may cancel one."""
    cards = [p.commitment for p in state.players]
    events.append(Event(revealed=Event.Revealed(cards=cards)))
    revealed = [s for s, c in enumerate(cards) if c]
    participants = [
        s for s, p in enumerate(state.players) if p.hand and any(t != s for t in revealed)
    ]
    if participants:
        open_window(state, Phase.WINDOW_INITIAL_REVEAL, NO_SEAT, participants)
        return None
    return Next(Step.RESOLVE_INITIAL_ROUND)


def resolve_initial_round(state: State, events: Events) -> Follow:
    """The revealed cards become the first cards of the displays (draw cards
    draw, in seat order from the first player); then the turns begin."""
    n = state.num_seats
    for i in range(n):
        seat = (state.first_player + i) % n
        card = state.players[seat].commitment
        if card:
            state.players[seat].commitment = 0
            characters.take_effect(state, seat, Move.Play(card=card), events)
    state.phase = Phase.PHASE_TURNS
    state.turn = state.first_player
    return None


# --- Turns -----------------------------------------------------------------------------


def play_card(state: State, seat: int, move: pb.KingsLifeMove, events: Events) -> Follow:
    """The card leaves the hand face up; the other seats may cancel it with the
    Queen before it takes effect. A Guard played as the Fool's pass: the
    Fool's pass happens whatever the Queen does (only the Guard's support
    may be cancelled)."""
    play = move.play
    player = state.players[seat]
    leave_hand(player, play.card)
    events.append(Event(card_played=Event.CardPlayed(seat=seat, play=play)))
    if state.phase == Phase.PHASE_FOOL_PASS:
        player.passed = True
        events.append(Event(passed=Event.Passed(seat=seat)))
    participants = window_participants(state, seat)
    if participants:
        state.pending.CopyFrom(play)
        open_window(state, Phase.WINDOW_PLAY, seat, participants)
        return None
    return Next(Step.RESOLVE_PLAY, seat=seat, play=play)


def resolve_play(state: State, seat: int, play: pb.KingsLifeMove.Play, events: Events) -> Follow:
    after = characters.take_effect(state, seat, play, events)
    if after == characters.AFTER_FOOL:
        state.phase = Phase.PHASE_FOOL_TAKE_BACK
        state.turn = seat
        return None
    if after == characters.AFTER_RAINY_DAY:
        return Next(Step.END_DAY, flag=True)
    return Next(Step.ADVANCE_TURN, seat=seat)


def advance_turn(state: State, seat: int) -> Follow:
    """The next player clockwise who has not passed (the same one if alone);
    when all have passed the day is reckoned."""
    n = state.num_seats
    players = state.players
    for i in range(1, n + 1):
        nxt = (seat + i) % n
        if not players[nxt].passed:
            state.phase = Phase.PHASE_TURNS
            state.turn = nxt
            return None
    return Next(Step.END_DAY)


# --- Passing -------------------------------------------------------------------------------


def _support_of(part: pb.KingsLifeMove.Pass) -> int | None:
    return part.support if part.HasField("support") else None


def _pass_move(target: int | None, hand_over: int) -> pb.KingsLifeMove:
    passing = Move.Pass(hand_over=hand_over)
    if target is not None:
        passing.support = target
    return Move(passing=passing)


def pass_tree(state: State, seat: int) -> Node:
    """Pass, supporting an unsupported player (with a display card handed
    over) or nobody."""
    return support_choice(
        state,
        seat,
        Power.PASS,
        read_support=lambda m: _support_of(m.passing),
        read_hand_over=lambda m: m.passing.hand_over,
        finish=_pass_move,
    )


def pass_turn(state: State, seat: int, move: pb.KingsLifeMove, events: Events) -> Follow:
    passing = move.passing
    state.players[seat].passed = True
    events.append(Event(passed=Event.Passed(seat=seat)))
    target = _support_of(passing)
    if target is not None:
        give_support(state, seat, target, passing.hand_over, events)
    return Next(Step.ADVANCE_TURN, seat=seat)
