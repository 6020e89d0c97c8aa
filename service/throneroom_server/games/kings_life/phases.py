"""The phases of a day as data, and the steps between decisions.

``PHASES`` says, for every phase: who acts (the seat whose turn it is, or
every seat in ``awaiting`` at once), which decisions they may take (each a
move kind with its decision tree and its effect), what ends the phase and
which phases may follow. ``CONTINUATIONS`` maps each step a decision may lead
to (``steps.Step``) to the function carrying it out; ``decide`` follows the
steps until a decision is awaited again, checking that every phase change is
one the table lists.

This module sits on top of the phase modules (days, suggestions, queen,
characters, reckoning); none of them imports it or each other in a circle.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TypeAlias

from throneroom.v1 import kings_life_pb2 as pb

from throneroom_server.games.kings_life import characters, days, queen, reckoning, suggestions
from throneroom_server.games.kings_life.choices import Node
from throneroom_server.games.kings_life.steps import Follow, Next, Step
from throneroom_server.games.kings_life.table import Events, State

Move = pb.KingsLifeMove
Phase = pb.KingsLifeState
PhaseId: TypeAlias = pb.KingsLifeState.Phase.ValueType


@dataclass(frozen=True, slots=True)
class Decision:
    """One kind of move: its legal moves (a decision tree) and its effect."""

    what: str
    """How error sentences name it ('Play: ...')."""
    tree: Callable[[State, int], Node]
    apply: Callable[[State, int, pb.KingsLifeMove, Events], Follow]


@dataclass(frozen=True, slots=True)
class PhaseRule:
    text: str
    """The decision, in words (for error sentences)."""
    simultaneous: bool
    """True: every seat in ``awaiting`` answers, hidden until all have; False:
    the seat in ``turn`` decides."""
    decisions: Mapping[str, Decision]
    """Move kind (the Move oneof's field name) -> decision, in ``move_key``
    order of the kinds."""
    ends: str
    follows: frozenset[PhaseId]
    """The phases that may come next."""


EXCHANGE = Decision("Exchange", days.exchange_tree, days.exchange)
MULLIGAN = Decision("Mulligan", days.mulligan_tree, days.answer_mulligan)
COMMIT = Decision("Initial round", suggestions.commit_tree, suggestions.commit)
QUEEN_ANSWER = Decision("Queen window", queen.queen_tree, queen.answer_queen)
PLAY = Decision("Play", characters.play_tree, suggestions.play_card)
PASS = Decision("Pass", suggestions.pass_tree, suggestions.pass_turn)
TAKE_BACK = Decision("Fool", characters.take_back_tree, characters.take_back)
DUKE_ANSWER = Decision("Duke", reckoning.duke_tree, reckoning.answer_duke)

_END_OF_DAY = frozenset({Phase.PHASE_DUKE, Phase.PHASE_MULLIGAN, Phase.PHASE_GAME_OVER})

PHASES: Mapping[PhaseId, PhaseRule] = {
    Phase.PHASE_EXCHANGE: PhaseRule(
        text="Tuesday's exchange: discard up to 3 cards",
        simultaneous=False,
        decisions={"exchange": EXCHANGE},
        ends="every seat, clockwise from the first player, has exchanged",
        follows=frozenset({Phase.PHASE_MULLIGAN}),
    ),
    Phase.PHASE_MULLIGAN: PhaseRule(
        text="the mulligan round: take or keep",
        simultaneous=True,
        decisions={"mulligan": MULLIGAN},
        ends="every seat has answered; the mulligans are taken from the first player on",
        follows=frozenset({Phase.PHASE_INITIAL_ROUND}),
    ),
    Phase.PHASE_INITIAL_ROUND: PhaseRule(
        text="the initial round: commit a sun card",
        simultaneous=True,
        decisions={"commit": COMMIT},
        ends="every seat has committed; the cards are revealed together",
        follows=frozenset({Phase.PHASE_QUEEN_WINDOW, Phase.PHASE_TURNS}),
    ),
    Phase.PHASE_QUEEN_WINDOW: PhaseRule(
        text="the Queen window: cancel or decline",
        simultaneous=True,
        decisions={"queen": QUEEN_ANSWER},
        ends="every seat asked has answered; the card is cancelled or takes effect",
        follows=frozenset({Phase.PHASE_TURNS, Phase.PHASE_FOOL_TAKE_BACK} | _END_OF_DAY),
    ),
    Phase.PHASE_TURNS: PhaseRule(
        text="a turn: play a card or pass",
        simultaneous=False,
        decisions={"passing": PASS, "play": PLAY},
        ends="every seat has passed (or a Rainy day); the king reckons the programs",
        follows=frozenset({Phase.PHASE_QUEEN_WINDOW, Phase.PHASE_FOOL_TAKE_BACK} | _END_OF_DAY),
    ),
    Phase.PHASE_FOOL_TAKE_BACK: PhaseRule(
        text="the Fool: take back a display card or stop",
        simultaneous=False,
        decisions={"take_back": TAKE_BACK},
        ends="the Fool's player stops taking cards back",
        follows=frozenset({Phase.PHASE_FOOL_PASS}),
    ),
    Phase.PHASE_FOOL_PASS: PhaseRule(
        text="the Fool's pass: pass, or play a Guard as the pass",
        simultaneous=False,
        decisions={"passing": PASS, "play": PLAY},
        ends="the Fool's player has passed",
        follows=frozenset({Phase.PHASE_TURNS, Phase.PHASE_QUEEN_WINDOW} | _END_OF_DAY),
    ),
    Phase.PHASE_DUKE: PhaseRule(
        text="the end of the day: play the Duke or not",
        simultaneous=False,
        decisions={"duke": DUKE_ANSWER},
        ends="the winner's supporter has answered; the rewards are taken",
        follows=frozenset({Phase.PHASE_QUEEN_WINDOW, Phase.PHASE_MULLIGAN, Phase.PHASE_GAME_OVER}),
    ),
    Phase.PHASE_GAME_OVER: PhaseRule(
        text="the game is over",
        simultaneous=False,
        decisions={},
        ends="never",
        follows=frozenset(),
    ),
}


# --- The steps between decisions ------------------------------------------------------


def _open_initial_round(state: State, step: Next, events: Events) -> Follow:
    suggestions.open_initial_round(state)
    return None


def _resolve_play(state: State, step: Next, events: Events) -> Follow:
    assert step.play is not None
    return suggestions.resolve_play(state, step.seat, step.play, events)


CONTINUATIONS: Mapping[Step, Callable[[State, Next, Events], Follow]] = {
    Step.OPEN_INITIAL_ROUND: _open_initial_round,
    Step.RESOLVE_INITIAL_ROUND: lambda state, step, events: suggestions.resolve_initial_round(
        state, events
    ),
    Step.RESOLVE_PLAY: _resolve_play,
    Step.ADVANCE_TURN: lambda state, step, events: suggestions.advance_turn(state, step.seat),
    Step.END_DAY: lambda state, step, events: reckoning.end_day(state, events, rainy=step.flag),
    Step.DUKE_RESOLVED: lambda state, step, events: reckoning.duke_resolved(
        state, events, cancelled=step.flag
    ),
    Step.FINISH_DAY: lambda state, step, events: days.finish_day(state, events),
    Step.END_GAME: lambda state, step, events: reckoning.end_game(state, events),
}


def _entered(before: PhaseId, state: State) -> PhaseId:
    after = state.phase
    if after != before and after not in PHASES[before].follows:
        raise AssertionError(
            f"King's Life: {Phase.Phase.Name(after)} cannot follow {Phase.Phase.Name(before)} "
            "(phases.PHASES)"
        )
    return after


def decide(state: State, seat: int, decision: Decision, move: pb.KingsLifeMove) -> Events:
    """Carry out a legal ``move`` of ``decision`` on ``state`` (changed in
    place), then every step that follows until a decision is awaited."""
    events: Events = []
    phase = state.phase
    follow = decision.apply(state, seat, move, events)
    phase = _entered(phase, state)
    while follow is not None:
        follow = CONTINUATIONS[follow.step](state, follow, events)
        phase = _entered(phase, state)
    return events
