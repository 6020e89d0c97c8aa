"""A game's day before the suggestions: the king's will, dealing, the Tuesday
exchange and the mulligan; and the passage from one day to the next.
"""

from __future__ import annotations

from itertools import combinations

from throneroom.v1 import kings_life_pb2 as pb

from throneroom_server.games.kings_life.choices import Node, Pick, Rule
from throneroom_server.games.kings_life.data import (
    ACTIVITIES,
    CARD_ACTIVITY,
    DAYS,
    EXCHANGE_MAX,
    FACE_DOWN_POSITION,
    hand_size,
)
from throneroom_server.games.kings_life.steps import Follow, Next, Step
from throneroom_server.games.kings_life.table import (
    NO_SEAT,
    Event,
    Events,
    State,
    card_name,
    draw,
    leave_hand,
    shuffle_discard_into_deck,
)
from throneroom_server.games.kit import chance
from throneroom_server.games.rng import Rng

Move = pb.KingsLifeMove
Phase = pb.KingsLifeState


def kings_will(state: State) -> None:
    """Set the preference board for the day.

    Tuesday: the four cards shuffled, three face up from the top space, the
    fourth face down. Later days: the previous day's face-down card goes to
    the top space, the other three are shuffled, two fill the second and third
    spaces and the last one is face down.
    """
    rng = Rng(state.rng)
    if state.day == pb.DAY_TUESDAY:
        board = list(ACTIVITIES)
        chance.shuffle(rng, board, "shuffle:kings_will")
    else:
        prefs = state.preferences
        previous_face_down = prefs[FACE_DOWN_POSITION]
        others = [prefs[0], prefs[1], prefs[2]]
        chance.shuffle(rng, others, "shuffle:kings_will")
        board = [previous_face_down, *others]
    del state.preferences[:]
    state.preferences.extend(board)


def begin_day(state: State, events: Events) -> None:
    """The king's will, then the deal: Tuesday six cards each (fewer with 7-8
    players) and the exchange; later days the discard pile is shuffled into
    the deck and hands are filled up, then the mulligan round."""
    kings_will(state)
    if state.day != pb.DAY_TUESDAY:
        shuffle_discard_into_deck(state)
    for player in state.players:
        if player.face_down_discards:
            del player.face_down_discards[:]
    events.append(
        Event(
            day_began=Event.DayBegan(
                day=state.day, preferences=state.preferences[:3], first_player=state.first_player
            )
        )
    )
    size = hand_size(state.day, state.num_seats)
    for seat in seating_from(state, state.first_player):
        missing = size - len(state.players[seat].hand)
        if missing > 0:
            draw(state, seat, missing, Event.DRAW_REASON_DEAL, events)
    if state.day == pb.DAY_TUESDAY:
        state.phase = Phase.PHASE_EXCHANGE
        state.turn = state.first_player
    else:
        open_mulligan(state)


def seating_from(state: State, seat: int) -> list[int]:
    """Every seat clockwise, starting with ``seat``."""
    n = state.num_seats
    return [(seat + i) % n for i in range(n)]


# --- Tuesday exchange ------------------------------------------------------------


def exchange_tree(state: State, seat: int) -> Node:
    """Up to three cards of the hand (ascending), to discard and draw as many."""
    hand = sorted(state.players[seat].hand)
    held = set(hand)

    def outside(cards: tuple[int, ...]) -> str:
        if len(cards) > EXCHANGE_MAX:
            return f"seat {seat} may discard at most {EXCHANGE_MAX} cards, not {len(cards)}"
        missing = next(c for c in cards if c not in held)
        return f"{card_name(missing)} is not in seat {seat}'s hand"

    return Pick(
        read=lambda m: tuple(m.exchange.discard),
        domain=[
            combo
            for size in range(min(EXCHANGE_MAX, len(hand)) + 1)
            for combo in combinations(hand, size)
        ],
        outside=outside,
        then=lambda combo: Move(exchange=Move.Exchange(discard=combo)),
        leaf=True,
    )


def exchange(state: State, seat: int, move: pb.KingsLifeMove, events: Events) -> Follow:
    """Discard the cards face down and draw as many; then the next seat, and
    after the last one the mulligan round."""
    cards = list(move.exchange.discard)
    player = state.players[seat]
    for card in cards:
        leave_hand(player, card)
    state.discard.extend(cards)
    player.face_down_discards.extend(cards)
    events.append(
        Event(exchanged=Event.Exchanged(seat=seat, count=len(cards), discarded=sorted(cards)))
    )
    if cards:
        draw(state, seat, len(cards), Event.DRAW_REASON_EXCHANGE, events)
    state.turn = (seat + 1) % state.num_seats
    if state.turn == state.first_player:
        state.turn = NO_SEAT
        open_mulligan(state)
    return None


# --- Mulligan --------------------------------------------------------------------


def may_mulligan(player: pb.KingsLifePlayer) -> bool:
    """'has only character cards, and not a single activity card'."""
    hand = player.hand
    return bool(hand) and not any(CARD_ACTIVITY[c] for c in hand)


def open_mulligan(state: State) -> None:
    """Every seat answers at once (so being asked leaks nothing about a hand)."""
    state.phase = Phase.PHASE_MULLIGAN
    state.turn = NO_SEAT
    del state.awaiting[:]
    state.awaiting.extend(range(state.num_seats))


def mulligan_tree(state: State, seat: int) -> Node:
    """Keep the hand, or (a hand of characters only) take the mulligan."""
    allowed = may_mulligan(state.players[seat])
    return Pick(
        read=lambda m: m.mulligan.take,
        domain=(False, True),
        outside=lambda take: "a mulligan answer takes or keeps",
        then=lambda take: Move(mulligan=Move.Mulligan(take=take)),
        leaf=True,
        rules=(
            Rule(
                lambda take: not take or allowed,
                lambda take: (
                    f"seat {seat} holds an activity card; only a hand of character cards "
                    "may be mulliganed"
                ),
            ),
        ),
    )


def answer_mulligan(state: State, seat: int, move: pb.KingsLifeMove, events: Events) -> Follow:
    take = move.mulligan.take
    state.players[seat].mulligan = take
    state.awaiting.remove(seat)
    events.append(
        Event(
            answered=Event.Answered(
                seat=seat, move=pb.KingsLifeMove(mulligan=pb.KingsLifeMove.Mulligan(take=take))
            )
        )
    )
    if state.awaiting:
        return None
    for taker in seating_from(state, state.first_player):
        player = state.players[taker]
        if not player.mulligan:
            continue
        player.mulligan = False
        shown = list(player.hand)
        events.append(Event(mulligan_taken=Event.MulliganTaken(seat=taker, shown=shown)))
        del player.hand[:]
        del player.revealed[:]
        state.discard.extend(shown)
        draw(state, taker, len(shown), Event.DRAW_REASON_MULLIGAN, events)
    return Next(Step.OPEN_INITIAL_ROUND)


# --- From one day to the next ----------------------------------------------------------


def finish_day(state: State, events: Events) -> Follow:
    """Displays discarded, supports and passes cleared; then the next day, or
    the end of the game after Saturday."""
    count = 0
    for player in state.players:
        if player.display:
            count += len(player.display)
            state.discard.extend(player.display)
            del player.display[:]
        player.passed = False
        player.supporter = NO_SEAT
        player.supporting = NO_SEAT
        player.commitment = 0
    state.merchant_on = 0
    state.sorcerer_on = 0
    state.sorcerer_activity = pb.ACTIVITY_UNSPECIFIED
    state.window = Phase.WINDOW_NONE
    state.ClearField("pending")
    state.turn = NO_SEAT
    del state.awaiting[:]
    events.append(Event(displays_discarded=Event.DisplaysDiscarded(count=count)))
    if state.day == DAYS[-1]:
        return Next(Step.END_GAME)
    if state.last_winner != NO_SEAT:
        state.first_player = state.last_winner
    state.day = DAYS[DAYS.index(state.day) + 1]
    begin_day(state, events)
    return None
