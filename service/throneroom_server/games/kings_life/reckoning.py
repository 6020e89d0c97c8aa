"""Winning the day and the game: program values, the king's choice, the Duke,
the rewards, and the final victory points with their tie-breaks.
"""

from __future__ import annotations

from typing import NamedTuple

from throneroom.v1 import kings_life_pb2 as pb

from throneroom_server.games.core import Outcome
from throneroom_server.games.kings_life.choices import Node, Pick, Rule
from throneroom_server.games.kings_life.data import (
    CARD_ACTIVITY,
    CARD_CHARACTER,
    CARD_VALUE,
    DAY_POINTS,
    DAYS,
    DUCHESS_VALUE,
    DUKE,
    FACE_DOWN_POSITION,
    KEPT_CARD_POINTS,
    LITTLE_PRINCE,
    PRIEST,
    PRIEST_VALUE,
    PRINCESS,
    TOP_BONUS,
)
from throneroom_server.games.kings_life.queen import open_window, window_participants
from throneroom_server.games.kings_life.steps import Follow, Next, Step
from throneroom_server.games.kings_life.table import (
    NO_SEAT,
    Event,
    Events,
    State,
    leave_hand,
    owner_of_display_card,
)

Move = pb.KingsLifeMove
Phase = pb.KingsLifeState
Record = pb.KingsLifeDayRecord
Status = pb.KingsLifeToken


class Program(NamedTuple):
    """A display as the king sees it."""

    has_program: bool
    activity: pb.Activity.ValueType
    value: int
    rank: int
    """The activity's position on the board (0 = top); 9 without a program."""


NO_PROGRAM = Program(False, pb.ACTIVITY_UNSPECIFIED, 0, 9)


def program_of(
    display: list[int] | tuple[int, ...],
    preferences: list[pb.Activity.ValueType],
    *,
    priest: bool,
    merchant_on: int,
    sorcerer_on: int,
    sorcerer_activity: pb.Activity.ValueType,
) -> Program:
    """The best program of a display.

    Per face-up activity: the sum of its cards (the Merchant doubles its card,
    the Sorcerer changes its card's activity, under the Priest every face
    value 5 counts 0), plus every Duchess (wild: she adds to any activity,
    so she joins the best one), plus 1 at the top of the board. Cards of the
    face-down activity count nothing. Ties inside a display go to the activity
    the king prefers (the higher position).
    """
    face_up = preferences[:FACE_DOWN_POSITION]
    sums = [0, 0, 0]
    present = [False, False, False]
    wild = 0
    for card in display:
        activity = CARD_ACTIVITY[card]
        if activity:
            if card == sorcerer_on:
                activity = sorcerer_activity
            if activity not in face_up:
                continue
            value = CARD_VALUE[card]
            if priest and value == PRIEST_VALUE:
                value = 0
            if card == merchant_on:
                value *= 2
            index = face_up.index(activity)
            sums[index] += value
            present[index] = True
        elif CARD_CHARACTER[card] == pb.CHARACTER_DUCHESS:
            wild += DUCHESS_VALUE
    best = NO_PROGRAM
    for rank in range(FACE_DOWN_POSITION):
        if not (present[rank] or wild):
            continue
        value = sums[rank] + wild + (TOP_BONUS if rank == 0 else 0)
        if not best.has_program or value > best.value:
            best = Program(True, face_up[rank], value, rank)
    return best


def programs(state: State) -> list[Program]:
    """Every player's program as the king would reckon it now."""
    prefs = list(state.preferences)
    displays = [tuple(p.display) for p in state.players]
    priest = any(PRIEST in d for d in displays)
    return [
        program_of(
            d,
            prefs,
            priest=priest,
            merchant_on=state.merchant_on,
            sorcerer_on=state.sorcerer_on,
            sorcerer_activity=state.sorcerer_activity,
        )
        for d in displays
    ]


def program_messages(progs: list[Program]) -> list[pb.KingsLifeProgram]:
    return [
        pb.KingsLifeProgram(
            seat=seat, has_program=p.has_program, activity=p.activity, value=p.value
        )
        for seat, p in enumerate(progs)
    ]


def kings_choice(progs: list[Program]) -> tuple[int, list[int]]:
    """(winner, []) or (NO_SEAT, tied seats) -- tied is empty when nobody has a
    program. Best value wins; equal values in different activities go to the
    king's preference; the best shared in the same activity cancels the day."""
    best: tuple[int, int] | None = None
    for p in progs:
        if p.has_program and (best is None or (p.value, -p.rank) > best):
            best = (p.value, -p.rank)
    if best is None:
        return NO_SEAT, []
    leaders = [s for s, p in enumerate(progs) if p.has_program and (p.value, -p.rank) == best]
    if len(leaders) == 1:
        return leaders[0], []
    return NO_SEAT, leaders


# --- End of the day -----------------------------------------------------------------


def end_day(state: State, events: Events, *, rainy: bool) -> Follow:
    """All players passed (or the Rainy day ended the day): the king decides."""
    day = state.day
    state.turn = NO_SEAT
    if rainy:
        return _cancel_day(state, events, Record.RESULT_RAINY_DAY, [])
    progs = programs(state)
    events.append(Event(day_reckoned=Event.DayReckoned(day=day, programs=program_messages(progs))))
    winner, tied = kings_choice(progs)
    if winner == NO_SEAT:
        return _cancel_day(
            state, events, Record.RESULT_TIE if tied else Record.RESULT_NO_PROGRAM, tied
        )
    supporter = state.players[winner].supporter
    state.days.add(day=day, result=Record.RESULT_WON, winner=winner, supporter=supporter)
    state.last_winner = winner
    events.append(Event(day_won=Event.DayWon(day=day, winner=winner, supporter=supporter)))
    if supporter != NO_SEAT and state.players[supporter].hand:
        # Asked whenever the supporter holds cards, so the question does not
        # tell who holds the Duke.
        state.phase = Phase.PHASE_DUKE
        state.turn = supporter
        return None
    return take_rewards(state, events, duke=False)


def _cancel_day(
    state: State, events: Events, result: pb.KingsLifeDayRecord.Result.ValueType, tied: list[int]
) -> Follow:
    """No winner: the day card and the day's token are discarded, the token
    unseen."""
    day = state.day
    state.days.add(day=day, result=result, winner=NO_SEAT, supporter=NO_SEAT, tied=tied)
    events.append(Event(day_cancelled=Event.DayCancelled(day=day, reason=result, tied=tied)))
    _discard_token(state, events)
    return Next(Step.FINISH_DAY)


def _discard_token(state: State, events: Events) -> None:
    token = state.tokens[DAYS.index(state.day)]
    token.status = Status.STATUS_DISCARDED
    token.holder = NO_SEAT
    events.append(Event(token_discarded=Event.TokenDiscarded(day=state.day)))


def duke_tree(state: State, seat: int) -> Node:
    """Let the rewards be taken, or (holding the Duke) play it."""
    holds_duke = DUKE in state.players[seat].hand
    return Pick(
        read=lambda m: m.duke.play,
        domain=(False, True),
        outside=lambda play: "a Duke answer plays it or not",
        then=lambda play: Move(duke=Move.Duke(play=play)),
        leaf=True,
        rules=(
            Rule(
                lambda play: not play or holds_duke,
                lambda play: f"seat {seat} does not hold the Duke",
            ),
        ),
    )


def answer_duke(state: State, seat: int, move: pb.KingsLifeMove, events: Events) -> Follow:
    """The winner's supporter plays the Duke (the Queen may still cancel it) or
    lets the rewards be taken."""
    if not move.duke.play:
        events.append(
            Event(answered=Event.Answered(seat=seat, move=Move(duke=Move.Duke(play=False))))
        )
        return take_rewards(state, events, duke=False)
    leave_hand(state.players[seat], DUKE)
    played = Move.Play(card=DUKE)
    events.append(Event(card_played=Event.CardPlayed(seat=seat, play=played)))
    participants = window_participants(state, seat)
    if participants:
        state.pending.CopyFrom(played)
        open_window(state, Phase.WINDOW_DUKE, seat, participants)
        return None
    return duke_resolved(state, events, cancelled=False)


def duke_resolved(state: State, events: Events, *, cancelled: bool) -> Follow:
    """After the Duke's Queen window: the Duke leaves the game and the rewards
    are swapped, unless the Queen cancelled it (then it is simply discarded)."""
    if not cancelled:
        record = state.days[-1]
        state.removed.append(DUKE)
        record.duke = True
        events.append(
            Event(card_took_effect=Event.CardTookEffect(seat=record.supporter, card=DUKE))
        )
    return take_rewards(state, events, duke=not cancelled)


def take_rewards(state: State, events: Events, *, duke: bool) -> Follow:
    """The winner takes the day card, the supporter the day's token (a winner
    without supporter: the token is discarded unseen); the Duke swaps those
    two rewards. The Princess goes to the winner and the Little Prince to the
    supporter (if any), each kept for 1 victory point."""
    record = state.days[-1]
    winner = record.winner
    supporter = record.supporter
    day = state.day
    players = state.players
    card_taker = supporter if duke else winner
    players[card_taker].days_won.append(day)
    events.append(Event(reward_taken=Event.RewardTaken(seat=card_taker, day_card=day)))
    if supporter == NO_SEAT:
        _discard_token(state, events)
    else:
        token_taker = winner if duke else supporter
        token = state.tokens[DAYS.index(day)]
        token.status = Status.STATUS_WON
        token.holder = token_taker
        events.append(
            Event(
                reward_taken=Event.RewardTaken(
                    seat=token_taker, token_day=day, token_value=token.value
                )
            )
        )
    for card, taker in ((PRINCESS, winner), (LITTLE_PRINCE, supporter)):
        owner = owner_of_display_card(state, card)
        if NO_SEAT not in (owner, taker):
            players[owner].display.remove(card)
            players[taker].kept.append(card)
            events.append(Event(reward_taken=Event.RewardTaken(seat=taker, kept_card=card)))
    return Next(Step.FINISH_DAY)


# --- End of the game ---------------------------------------------------------------


def scores(state: State) -> tuple[list[int], list[int]]:
    """(victory points, support points) per seat: day cards, support tokens
    and kept Princess / Little Prince."""
    n = state.num_seats
    support = [0] * n
    for token in state.tokens:
        if token.status == Status.STATUS_WON:
            support[token.holder] += token.value
    points = [
        sum(DAY_POINTS[d] for d in p.days_won) + support[s] + KEPT_CARD_POINTS * len(p.kept)
        for s, p in enumerate(state.players)
    ]
    return points, support


def final_outcome(points: list[int], support: list[int]) -> Outcome:
    """Highest total wins; ties: most support points; then a shared victory."""
    best = max(points)
    leaders = [s for s, v in enumerate(points) if v == best]
    tiebreaks: list[str] = []
    if len(leaders) > 1:
        tiebreaks.append("support_points")
        top = max(support[s] for s in leaders)
        leaders = [s for s in leaders if support[s] == top]
        if len(leaders) > 1:
            tiebreaks.append("shared_victory")
    names = ", ".join(f"seat {s}" for s in leaders)
    if len(leaders) == 1:
        summary = f"seat {leaders[0]} wins with {best} victory points"
    else:
        summary = f"{names} share the victory with {best} victory points"
    if tiebreaks:
        summary += f" (tie broken by support points: {max(support[s] for s in leaders)})"
        if "shared_victory" in tiebreaks:
            summary = f"{names} share the victory: {best} victory points and " + (
                f"{support[leaders[0]]} support points each"
            )
    return Outcome(winners=leaders, termination="points", summary=summary, tiebreaks=tiebreaks)


def end_game(state: State, events: Events) -> Follow:
    points, support = scores(state)
    outcome = final_outcome(points, support)
    state.outcome.CopyFrom(outcome)
    state.phase = Phase.PHASE_GAME_OVER
    state.turn = NO_SEAT
    events.append(
        Event(game_ended=Event.GameEnded(scores=points, support_points=support, outcome=outcome))
    )
    return None
