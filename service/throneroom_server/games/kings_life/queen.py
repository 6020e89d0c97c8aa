"""The Queen window: after every card another player plays (a card on a
turn, the initial reveal, the Duke), every other seat holding a card is asked
at once whether it cancels it with the Queen.

'Queen (x1): This card can be played at any moment to cancel a card just
played by another player. The cancelled card is discarded without effect and
the affected player cannot play a replacement.' Asking every seat with a card
(an empty hand is public) keeps the question from telling who holds the Queen.
"""

from __future__ import annotations

from throneroom.v1 import kings_life_pb2 as pb

from throneroom_server.games.kings_life.choices import Node, Pick, Rule
from throneroom_server.games.kings_life.data import MAX_PLAYERS, QUEEN
from throneroom_server.games.kings_life.steps import Follow, Next, Step
from throneroom_server.games.kings_life.table import NO_SEAT, Event, Events, State, leave_hand

Move = pb.KingsLifeMove
Phase = pb.KingsLifeState


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


_DECLINE = Move(queen=Move.Queen())
_ANSWERS = (False, True)

# The parts of the tree that depend on nothing (a tree is built at every
# legal_moves and every checked apply of a Queen window, the commonest decision).


def _read_cancel(move: Move) -> bool:
    return move.queen.cancel


def _read_target(move: Move) -> int:
    return move.queen.target


def _no_answer(cancel: bool) -> str:
    return "a Queen answer cancels or declines"


def _cancel(target: int) -> Move:
    return Move(queen=Move.Queen(cancel=True, target=target))


def _no_queen(seat: int) -> tuple[Rule[bool], ...]:
    """The rule of a seat without the Queen: it may only decline."""
    return (Rule(lambda c: not c, lambda c: f"seat {seat} does not hold the Queen"),)


_NO_QUEEN = tuple(_no_queen(seat) for seat in range(MAX_PLAYERS))


def queen_tree(state: State, seat: int) -> Node:
    """Decline, or cancel the card of a seat that just played one (with the Queen)."""
    holds_queen = QUEEN in state.players[seat].hand

    def target(cancel: bool) -> Node:
        if not cancel:
            return _DECLINE
        return Pick(
            read=_read_target,
            domain=queen_targets(state, seat),
            outside=lambda t: f"seat {t} has no card just played that seat {seat} may cancel",
            then=_cancel,
            leaf=True,
        )

    return Pick(
        read=_read_cancel,
        domain=_ANSWERS,
        outside=_no_answer,
        then=target,
        rules=() if holds_queen else _NO_QUEEN[seat],
    )


def answer_queen(state: State, seat: int, move: pb.KingsLifeMove, events: Events) -> Follow:
    cancel, target = move.queen.cancel, move.queen.target
    state.awaiting.remove(seat)
    events.append(Event(answered=Event.Answered(seat=seat, move=move)))
    if cancel:
        state.queen_canceller = seat
        state.queen_target = target
    if not state.awaiting:
        return close_window(state, events)
    return None


def close_window(state: State, events: Events) -> Follow:
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
        return Next(Step.RESOLVE_INITIAL_ROUND)
    seat = state.turn
    play = Move.Play()
    play.CopyFrom(state.pending)
    state.ClearField("pending")
    if kind == Phase.WINDOW_DUKE:
        return Next(Step.DUKE_RESOLVED, flag=cancelled)
    if cancelled:
        # The cancelled card is discarded without effect and no replacement
        # may be played: the turn is over.
        return Next(Step.ADVANCE_TURN, seat=seat)
    return Next(Step.RESOLVE_PLAY, seat=seat, play=play)
