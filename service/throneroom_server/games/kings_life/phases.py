"""The phases of a day as the kit's phase table, and the steps between decisions.

``TABLE`` (a ``kit.PhaseTable``) says, for every phase: who acts (the seat
whose turn it is, or every seat in ``awaiting`` at once, unseen by the
others), which move kinds they may play, what ends the phase and which
phases a move may leave the game in; the kit enforces it at every move.
Each move kind is a ``Decision``: its decision tree (``choices``) gives the
kind's legal moves, the membership test and the refusal sentence, and its
effect starts the steps that follow. ``CONTINUATIONS`` maps each step a
decision may lead to (``steps.Step``) to the function carrying it out;
``decide`` follows the steps until a decision is awaited again.

This module sits on top of the phase modules (days, suggestions, queen,
characters, reckoning); none of them imports it or each other in a circle.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import partial

from throneroom.v1 import kings_life_pb2 as pb

from throneroom_server.games.core import Seat
from throneroom_server.games.kings_life import characters, days, queen, reckoning, suggestions
from throneroom_server.games.kings_life.choices import Node, TreeMoves, moves, refusal, walk
from throneroom_server.games.kings_life.steps import Follow, Next, Step
from throneroom_server.games.kings_life.table import Events, State
from throneroom_server.games.kit import MoveKind, PhaseField, PhaseTable, end, simultaneous, turn

Move = pb.KingsLifeMove
Phase = pb.KingsLifeState


@dataclass(frozen=True, slots=True)
class Decision:
    """One kind of move: its legal moves (a decision tree) and its effect."""

    kind: str
    """The field of the move's ``kind`` oneof."""
    what: str
    """How refusal sentences name it ('Play: ...')."""
    tree: Callable[[State, int], Node]
    apply: Callable[[State, int, pb.KingsLifeMove, Events], Follow]

    def generate(self, state: State, seat: Seat) -> TreeMoves:
        """Every legal move of this kind, in ``move_key`` order (the tree's order)."""
        return moves(self.tree(state, seat))

    def narrow(self, state: State, seat: Seat, move: Move) -> tuple[Move, ...]:
        """The one legal move that can equal ``move`` (the tree walked along its
        choices), or nothing."""
        found = walk(self.tree(state, seat), move)
        return (found,) if isinstance(found, Move) else ()

    def member(self, state: State, seat: Seat, move: Move, checked: object) -> Move | None:
        """The legal move equal to ``move`` (the tree walked along its choices),
        or None: ``narrow`` and the kit's comparison in one."""
        found = walk(self.tree(state, seat), move)
        return found if isinstance(found, Move) and found == move else None

    def explain(self, state: State, seat: Seat, move: Move) -> str:
        """Why the tree refuses ``move``: the first rule it breaks."""
        why = refusal(self.tree(state, seat), move)
        return f"{self.what}: {why}" if why is not None else ""

    def move_kind(self) -> MoveKind[State, Move, pb.KingsLifeEvent]:
        return MoveKind(
            self.kind,
            play=partial(decide, self),
            generate=self.generate,
            narrow=self.narrow,
            explain=self.explain,
            member=self.member,
            ordered=True,
        )


EXCHANGE = Decision("exchange", "Exchange", days.exchange_tree, days.exchange)
MULLIGAN = Decision("mulligan", "Mulligan", days.mulligan_tree, days.answer_mulligan)
COMMIT = Decision("commit", "Initial round", suggestions.commit_tree, suggestions.commit)
QUEEN_ANSWER = Decision("queen", "Queen window", queen.queen_tree, queen.answer_queen)
PLAY = Decision("play", "Play", characters.play_tree, suggestions.play_card)
PASS = Decision("passing", "Pass", suggestions.pass_tree, suggestions.pass_turn)
TAKE_BACK = Decision("take_back", "Fool", characters.take_back_tree, characters.take_back)
DUKE_ANSWER = Decision("duke", "Duke", reckoning.duke_tree, reckoning.answer_duke)

DECISIONS: tuple[Decision, ...] = (
    EXCHANGE,
    MULLIGAN,
    COMMIT,
    QUEEN_ANSWER,
    PASS,
    PLAY,
    DUKE_ANSWER,
    TAKE_BACK,
)
"""Every move kind, in ``move_key`` order of the kinds."""

# --- The table ---------------------------------------------------------------------------

PHASE_NAMES: Mapping[int, str] = {
    value: Phase.Phase.Name(value).removeprefix("PHASE_").lower() for value in Phase.Phase.values()
}
"""The phase enum's values by their names in the table ('queen_window')."""


phase_of: PhaseField[State] = PhaseField("phase", PHASE_NAMES)
"""The phase of a state: its ``phase`` field's (read by the kit in C)."""


def pass_or_play(state: State, seat: Seat) -> TreeMoves:
    """A turn's legal moves: the passes, then the plays (in ``move_key`` order:
    the kit hands the sequence out as it is)."""
    return moves(PASS.tree(state, seat), PLAY.tree(state, seat))


def _turn(state: State) -> Seat:
    return state.turn


def _awaiting(state: State) -> Sequence[Seat]:
    return state.awaiting


_END_OF_DAY = ("duke", "mulligan", "game_over")

TABLE: PhaseTable[State] = PhaseTable(
    phase_of=phase_of,
    phases=(
        turn(
            "exchange",
            seat=_turn,
            moves=["exchange"],
            ends="every seat, clockwise from the first player, has exchanged (Tuesday)",
            follows=["mulligan"],
        ),
        simultaneous(
            "mulligan",
            seats=_awaiting,
            moves=["mulligan"],
            ends="every seat has answered take or keep; the mulligans are taken from the first "
            "player on",
            follows=["initial_round"],
        ),
        simultaneous(
            "initial_round",
            seats=_awaiting,
            moves=["commit"],
            ends="every seat has committed a sun card (or none); the cards are revealed together",
            follows=["queen_window", "turns"],
        ),
        simultaneous(
            "queen_window",
            seats=_awaiting,
            moves=["queen"],
            ends="every seat asked has answered cancel or decline; the card is cancelled or "
            "takes effect",
            follows=["turns", "fool_take_back", *_END_OF_DAY],
        ),
        turn(
            "turns",
            seat=_turn,
            moves=["passing", "play"],
            generate=pass_or_play,
            ordered=True,
            ends="every seat has passed (or a Rainy day); the king reckons the programs",
            follows=["queen_window", "fool_take_back", *_END_OF_DAY],
        ),
        turn(
            "fool_take_back",
            seat=_turn,
            moves=["take_back"],
            ends="the Fool's player stops taking display cards back",
            follows=["fool_pass"],
        ),
        turn(
            "fool_pass",
            seat=_turn,
            moves=["passing", "play"],
            generate=pass_or_play,
            ordered=True,
            ends="the Fool's player has passed (or played a Guard as the pass)",
            follows=["turns", "queen_window", *_END_OF_DAY],
        ),
        turn(
            "duke",
            seat=_turn,
            moves=["duke"],
            ends="the day's winner's supporter has played the Duke or not; the rewards are taken",
            follows=["queen_window", "mulligan", "game_over"],
        ),
        end("game_over", ends="never: Saturday is over and the victory points are counted"),
    ),
    start=("exchange",),
)
"""The phases of King's Life (docs/rules/kings_life.md). Simultaneous phases
need no epoch: each closes only on the answer of the last seat asked."""

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


def decide(decision: Decision, state: State, seat: int, move: Move, events: Events) -> None:
    """Carry out a legal ``move`` of ``decision`` on ``state`` (changed in place),
    then every step that follows until a decision is awaited (the kit checks
    the phase the game is left in against ``TABLE``)."""
    follow = decision.apply(state, seat, move, events)
    while follow is not None:
        follow = CONTINUATIONS[follow.step](state, follow, events)
