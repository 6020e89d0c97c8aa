"""Suggestions to the King: the initial round, the turns, passing and support,
and the Queen window that follows every card played.
"""

from __future__ import annotations

from throneroom.v1 import kings_life_pb2 as pb

from throneroom_server.games.core import IllegalMoveError
from throneroom_server.games.kings_life import characters, reckoning
from throneroom_server.games.kings_life.data import CARD_SUN, MERCHANT, QUEEN, SORCERER
from throneroom_server.games.kings_life.table import (
    NO_SEAT,
    Event,
    Events,
    State,
    card_name,
    leave_hand,
    move_display_card,
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


def commit_moves(state: State, seat: int) -> list[pb.KingsLifeMove]:
    suns = sorted(c for c in state.players[seat].hand if CARD_SUN[c])
    if not suns:
        return [Move(commit=Move.Commit())]
    return [Move(commit=Move.Commit(card=c)) for c in suns]


def check_commit(state: State, seat: int, card: int) -> None:
    hand = state.players[seat].hand
    if card == 0:
        if any(CARD_SUN[c] for c in hand):
            raise IllegalMoveError(
                f"Initial round: seat {seat} holds a sun card and must commit one"
            )
        return
    if card not in hand:
        raise IllegalMoveError(f"Initial round: {card_name(card)} is not in seat {seat}'s hand")
    if not CARD_SUN[card]:
        raise IllegalMoveError(
            f"Initial round: {card_name(card)} has no sun icon; only sun cards open the day"
        )


def commit(state: State, seat: int, card: int, events: Events) -> None:
    player = state.players[seat]
    if card:
        leave_hand(player, card)
    player.commitment = card
    state.awaiting.remove(seat)
    events.append(
        Event(answered=Event.Answered(seat=seat, move=Move(commit=Move.Commit(card=card))))
    )
    if not state.awaiting:
        reveal(state, events)


def reveal(state: State, events: Events) -> None:
    """All committed cards are revealed together; then the Queen may cancel one."""
    cards = [p.commitment for p in state.players]
    events.append(Event(revealed=Event.Revealed(cards=cards)))
    revealed = [s for s, c in enumerate(cards) if c]
    participants = [
        s for s, p in enumerate(state.players) if p.hand and any(t != s for t in revealed)
    ]
    if participants:
        open_window(state, Phase.WINDOW_INITIAL_REVEAL, NO_SEAT, participants)
    else:
        resolve_initial_round(state, events)


def resolve_initial_round(state: State, events: Events) -> None:
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


# --- The Queen window -------------------------------------------------------------


def open_window(
    state: State, kind: pb.KingsLifeState.Window.ValueType, seat: int, participants: list[int]
) -> None:
    state.phase = Phase.PHASE_QUEEN_WINDOW
    state.window = kind
    state.turn = seat
    state.queen_canceller = NO_SEAT
    state.queen_target = NO_SEAT
    del state.awaiting[:]
    state.awaiting.extend(participants)


def window_participants(state: State, seat: int) -> list[int]:
    """Every other seat with a card in hand (a seat with an empty hand cannot
    hold the Queen, and everybody knows it)."""
    return [s for s, p in enumerate(state.players) if s != seat and p.hand]


def queen_targets(state: State, seat: int) -> list[int]:
    """The seats whose card ``seat`` could cancel now (ignoring whether it
    holds the Queen)."""
    if state.window == Phase.WINDOW_INITIAL_REVEAL:
        return [s for s, p in enumerate(state.players) if s != seat and p.commitment]
    return [state.turn] if state.turn != seat else []


def queen_moves(state: State, seat: int) -> list[pb.KingsLifeMove]:
    moves = [Move(queen=Move.Queen())]
    if QUEEN in state.players[seat].hand:
        moves.extend(
            Move(queen=Move.Queen(cancel=True, target=t)) for t in queen_targets(state, seat)
        )
    return moves


def check_queen(state: State, seat: int, cancel: bool, target: int) -> None:
    if not cancel:
        return
    if QUEEN not in state.players[seat].hand:
        raise IllegalMoveError(f"Queen window: seat {seat} does not hold the Queen")
    if target not in queen_targets(state, seat):
        raise IllegalMoveError(
            f"Queen window: seat {target} has no card just played that seat {seat} may cancel"
        )


def answer_queen(state: State, seat: int, cancel: bool, target: int, events: Events) -> None:
    state.awaiting.remove(seat)
    move = Move(queen=Move.Queen(cancel=cancel, target=target) if cancel else Move.Queen())
    events.append(Event(answered=Event.Answered(seat=seat, move=move)))
    if cancel:
        state.queen_canceller = seat
        state.queen_target = target
    if not state.awaiting:
        close_window(state, events)


def close_window(state: State, events: Events) -> None:
    """Every seat answered: the Queen's cancel (if any) happens, otherwise the
    card takes effect."""
    kind = state.window
    canceller = state.queen_canceller
    target = state.queen_target
    state.window = Phase.WINDOW_NONE
    state.queen_canceller = NO_SEAT
    state.queen_target = NO_SEAT
    cancelled = canceller != NO_SEAT
    if cancelled:
        leave_hand(state.players[canceller], QUEEN)
        if kind == Phase.WINDOW_INITIAL_REVEAL:
            card = state.players[target].commitment
            state.players[target].commitment = 0
        else:
            card = state.pending.card
        state.discard.append(QUEEN)
        state.discard.append(card)
        events.append(
            Event(
                queen_cancelled=Event.QueenCancelled(queen_seat=canceller, seat=target, card=card)
            )
        )
    if kind == Phase.WINDOW_INITIAL_REVEAL:
        resolve_initial_round(state, events)
        return
    seat = state.turn
    play = Move.Play()
    play.CopyFrom(state.pending)
    state.ClearField("pending")
    if kind == Phase.WINDOW_DUKE:
        reckoning.duke_resolved(state, events, cancelled=cancelled)
    elif cancelled:
        # The cancelled card is discarded without effect and no replacement
        # may be played: the turn is over.
        advance_turn(state, seat, events)
    else:
        resolve_play(state, seat, play, events)


# --- Turns -----------------------------------------------------------------------------


def play_card(state: State, seat: int, play: pb.KingsLifeMove.Play, events: Events) -> None:
    """The card leaves the hand face up; the other seats may cancel it with the
    Queen before it takes effect."""
    leave_hand(state.players[seat], play.card)
    events.append(Event(card_played=Event.CardPlayed(seat=seat, play=play)))
    participants = window_participants(state, seat)
    if participants:
        state.pending.CopyFrom(play)
        open_window(state, Phase.WINDOW_PLAY, seat, participants)
    else:
        resolve_play(state, seat, play, events)


def resolve_play(state: State, seat: int, play: pb.KingsLifeMove.Play, events: Events) -> None:
    outcome = characters.take_effect(state, seat, play, events)
    if outcome == characters.AFTER_FOOL:
        state.phase = Phase.PHASE_FOOL_TAKE_BACK
        state.turn = seat
    elif outcome == characters.AFTER_RAINY_DAY:
        reckoning.end_day(state, events, rainy=True)
    else:
        advance_turn(state, seat, events)


def advance_turn(state: State, seat: int, events: Events) -> None:
    """The next player clockwise who has not passed (the same one if alone);
    when all have passed the day is reckoned."""
    n = state.num_seats
    players = state.players
    for i in range(1, n + 1):
        nxt = (seat + i) % n
        if not players[nxt].passed:
            state.phase = Phase.PHASE_TURNS
            state.turn = nxt
            return
    reckoning.end_day(state, events, rainy=False)


# --- Passing and support ----------------------------------------------------------------


def hand_over_cards(player: pb.KingsLifePlayer) -> list[int]:
    """Display cards that may be handed to a supported player: any face-up card
    but a Merchant or Sorcerer, which only travel with their activity card."""
    return sorted(c for c in player.display if c not in (MERCHANT, SORCERER))


def unsupported_others(state: State, seat: int) -> list[int]:
    return [s for s, p in enumerate(state.players) if s != seat and p.supporter == NO_SEAT]


def pass_moves(state: State, seat: int) -> list[pb.KingsLifeMove]:
    me = state.players[seat]
    moves = [Move(passing=Move.Pass())]
    if me.supporting != NO_SEAT:
        return moves
    targets = unsupported_others(state, seat)
    if not targets:
        return moves
    gifts = hand_over_cards(me)
    for t in targets:
        moves.append(Move(passing=Move.Pass(support=t)))
        moves.extend(Move(passing=Move.Pass(support=t, hand_over=c)) for c in gifts)
    return moves


def check_support(
    state: State, seat: int, target: int | None, hand_over: int, what: str, *, guard: bool
) -> None:
    """Support rules shared by passing, the Guard and the Peon."""
    me = state.players[seat]
    if target is None:
        if hand_over:
            raise IllegalMoveError(
                f"{what}: a display card is handed over only to a supported player"
            )
        return
    if target == seat:
        raise IllegalMoveError(f"{what}: seat {seat} cannot support itself")
    if me.supporting != NO_SEAT:
        raise IllegalMoveError(
            f"{what}: seat {seat}'s support token already lies before seat {me.supporting}"
        )
    supporter = state.players[target].supporter
    if guard:
        if supporter == NO_SEAT:
            raise IllegalMoveError(
                f"{what}: seat {target} has no supporter for the Guard to replace"
            )
    elif supporter != NO_SEAT:
        raise IllegalMoveError(f"{what}: seat {target} is already supported by seat {supporter}")
    if hand_over and hand_over not in hand_over_cards(me):
        raise IllegalMoveError(
            f"{what}: {card_name(hand_over)} is not a card of seat {seat}'s display "
            "that can be handed over"
        )


def pass_turn(state: State, seat: int, target: int | None, hand_over: int, events: Events) -> None:
    state.players[seat].passed = True
    events.append(Event(passed=Event.Passed(seat=seat)))
    if target is not None:
        give_support(state, seat, target, hand_over, events)
    advance_turn(state, seat, events)


def give_support(state: State, seat: int, target: int, hand_over: int, events: Events) -> None:
    """Place ``seat``'s token before ``target`` (a Guard sends the former
    supporter's token back), handing over a display card if chosen."""
    players = state.players
    replaced = players[target].supporter
    if replaced != NO_SEAT:
        players[replaced].supporting = NO_SEAT
    players[target].supporter = seat
    players[seat].supporting = target
    if hand_over:
        move_display_card(state, seat, target, hand_over)
    events.append(
        Event(
            supported=Event.Supported(
                seat=seat, supported=target, hand_over=hand_over, replaced=replaced
            )
        )
    )
