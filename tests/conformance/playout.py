"""One checked random playout of one game: the heart of the conformance suite.

``Playout(...).run()`` plays a game from setup to its outcome, choosing seats
and moves with a ``random.Random(choice_seed)``, and checks the engine's
contract at every step (the numbers are those of docs/conformance.md):

1. purity            legal_moves, apply, view, redact_event, randomize_hidden
                     never change their inputs
2. determinism       setup and apply give the same bytes twice; the whole game
                     replays byte for byte in a fresh engine from stored bytes
3. termination       the outcome comes within max_decisions
4. to_act            seats to act have legal moves, the others none and get
                     NotYourTurnError; outcome set exactly when nobody acts
5. legal moves       sorted by move_key, keys unique, every one applies
6. rejection         mutated and stale moves not in legal_moves are rejected
                     with InvalidMoveError/IllegalMoveError, state unchanged
7. round trip        states, moves, events, views parse back equal
8. invariants        check_invariants after setup and every move
9. no leaks          (b) no RNG bytes in views or events, (c) views and a
                     seat's legal moves survive randomize_hidden, (d) a
                     viewer's events do not depend on what it cannot know

Every failure is a ``ConformanceError`` naming the check, the game, the
variant, the seeds and the moves so far, with a snippet that replays them.
"""

from __future__ import annotations

import random
import re
import traceback
from typing import Any, NoReturn

from google.protobuf.message import Message
from throneroom_server.games.core import (
    GameError,
    GameFinishedError,
    IllegalMoveError,
    InvalidMoveError,
    NotYourTurnError,
    Viewer,
)
from throneroom_server.games.registry import AnyGame

from .messages import (
    Mutant,
    encode,
    mutants,
    one_line,
    round_trip_problem,
)
from .profiles import Case, Variant
from .report import ConformanceError, Stats, replay_snippet, seat_name, text_diff
from .step import Step
from .viewers import ViewerChecks

EVERY_LEGAL_LIMIT = 12
"""At a deep step, at most this many legal moves per acting seat are applied."""
MUTATED_BASES = 3
MUTANTS_PER_BASE = 8
STALE_MOVES = 6
POOL_SIZE = 64
SENTENCE = re.compile(r"[A-Za-z]+\W+[A-Za-z]+")


class Playout(ViewerChecks):
    """A game played from ``seed`` with moves chosen by ``random.Random(choice_seed)``,
    every step checked; ``run()`` returns what was checked or raises ConformanceError.
    ``stop_after`` ends the playout early (no end-of-game checks)."""

    def __init__(
        self,
        game: AnyGame,
        *,
        name: str,
        variant: Variant,
        options: Message,
        seed: int,
        choice_seed: int,
        deep_rate: float = 1.0,
        event_only_reveals: frozenset[str] = frozenset(),
        unordered_event_fields: frozenset[str] = frozenset(),
        stop_after: int | None = None,
    ) -> None:
        self.game = game
        self.name = name
        self.variant = variant
        self.seats = variant.seats
        self.options = options
        self.seed = seed
        self.choice_seed = choice_seed
        self.deep_rate = deep_rate
        self.event_only_reveals = event_only_reveals
        self.unordered_event_fields = unordered_event_fields
        self.stop_after = stop_after
        self.chooser = random.Random(choice_seed)
        self.viewers: list[Viewer] = [*range(self.seats), None]
        self.moves: list[tuple[int, Message]] = []
        self.state_bytes: list[bytes] = []
        self.event_bytes: list[list[bytes]] = []
        self.pool: dict[bytes, Message] = {}
        self.stats = Stats()
        self.where = "setup"
        self.move_type: type[Message] | None = None

    @classmethod
    def of(cls, case: Case, seed: int, choice_seed: int, **kwargs: Any) -> Playout:
        kwargs.setdefault("deep_rate", case.profile.deep_rate)
        kwargs.setdefault("event_only_reveals", case.profile.event_only_reveals)
        kwargs.setdefault("unordered_event_fields", case.profile.unordered_event_fields)
        return cls(
            case.game,
            name=case.name,
            variant=case.variant,
            options=case.options,
            seed=seed,
            choice_seed=choice_seed,
            **kwargs,
        )

    # --- reporting ----------------------------------------------------------------------

    def fail(self, check: str, problem: str) -> NoReturn:
        replay = replay_snippet(
            name=self.name,
            variant=self.variant,
            options=self.options,
            seed=self.seed,
            choice_seed=self.choice_seed,
            moves=self.moves,
            move_type=self.move_type,
        )
        raise ConformanceError(check, f"{problem}\n  at {self.where}\n{replay}")

    # --- the playout ----------------------------------------------------------------------

    def run(self) -> Stats:
        try:
            self._play()
        except ConformanceError:
            raise
        except Exception as error:
            trace = "".join(traceback.format_exception(error, limit=-6))
            self.fail("engine crash", f"{type(error).__name__}: {error}\n{trace}")
        return self.stats

    def _play(self) -> None:
        state = self._setup()
        limit = self.game.max_decisions(self.options, self.seats)
        step = 0
        while True:
            self.where = f"version {step}"
            acting = self._check_turn(state)
            if not acting:
                break
            if self.stop_after is not None and step >= self.stop_after:
                return
            if step >= limit:
                self.fail(
                    "3 termination",
                    f"no outcome after {step} decisions; max_decisions() promised at most {limit}",
                )
            deep = step == 0 or self.chooser.random() < self.deep_rate
            state = self._step(state, acting, deep)
            step += 1
        self._check_finished(state)
        self._check_replay()

    def _setup(self) -> Message:
        options_before = encode(self.options)
        state: Message = self.game.setup(self.options, self.seats, self.seed)
        if encode(self.options) != options_before:
            self.fail("1 purity", "setup() changed the options it was given")
        again = self.game.setup(self.options, self.seats, self.seed)
        if encode(again) != encode(state):
            self.fail("2 determinism", "setup() twice with the same seed gave different states")
        self._invariants(state, "the initial state")
        self._round_trip(state, "the initial state")
        self.state_bytes.append(encode(state))
        return state

    def _check_turn(self, state: Message) -> list[int]:
        acting = list(self.game.to_act(state))
        if acting != sorted(set(acting)) or any(not 0 <= s < self.seats for s in acting):
            self.fail("4 to_act", f"to_act() = {acting} is not ascending, unique seats")
        outcome = self.game.outcome(state)
        if acting and outcome is not None:
            self.fail("4 to_act", f"seats {acting} are to act but the game has an outcome")
        if not acting and outcome is None:
            self.fail("4 to_act", "nobody is to act, yet the game has no outcome")
        return acting

    def _step(self, state: Message, acting: list[int], deep: bool) -> Message:
        self.stats.steps += 1
        before = encode(state)
        legal = {seat: list(self.game.legal_moves(state, seat)) for seat in range(self.seats)}
        self._unchanged(state, before, "legal_moves()")
        self._check_legal_lists(legal, acting)
        seat = self.chooser.choice(acting)
        move = legal[seat][self.chooser.randrange(len(legal[seat]))]
        self.move_type = type(move)
        self.where = f"version {len(self.moves)}, seat {seat} moving {one_line(move)}"
        after, events = self._apply_legal(state, before, seat, move, twice=True)
        step = Step(state, before, acting, legal, seat, move, after, events)
        self._check_not_your_turn(step, every_seat=deep)
        self._redact_all(step)
        if deep:
            self.stats.deep_steps += 1
            self._apply_every_legal_move(step)
            self._check_rejections(step)
            step.views = self._check_views(state, before)
            for viewer in self.viewers:
                self._compare_events(step, viewer, self._world(step, viewer))
        self._remember(legal)
        self.moves.append((seat, move))
        self.state_bytes.append(encode(after))
        self.event_bytes.append([encode(e) for e in events])
        return after

    # --- checks 1, 2, 5, 7, 8 on the chosen move -------------------------------------

    def _unchanged(self, state: Message, before: bytes, call: str) -> None:
        if encode(state) != before:
            self.fail("1 purity", f"{call} changed the state it was given")

    def _invariants(self, state: Message, what: str) -> None:
        try:
            self.game.check_invariants(state)
        except AssertionError as error:
            self.fail("8 invariants", f"{what} breaks an invariant: {error}")

    def _round_trip(self, message: Message, what: str) -> None:
        problem = round_trip_problem(message)
        if problem is not None:
            self.fail("7 round trip", f"{what}: {problem}")

    def _check_legal_lists(self, legal: dict[int, list[Message]], acting: list[int]) -> None:
        for seat, moves in legal.items():
            if seat not in acting:
                if moves:
                    self.fail(
                        "4 to_act",
                        f"seat {seat} is not in to_act {acting} but has {len(moves)} legal "
                        f"moves, e.g. {one_line(moves[0])}",
                    )
                continue
            if not moves:
                self.fail("4 to_act", f"seat {seat} is to act but has no legal move")
            keys = [self.game.move_key(m) for m in moves]
            for i in range(1, len(keys)):
                if not keys[i - 1] < keys[i]:
                    relation = "the same key as" if keys[i - 1] == keys[i] else "sorted after"
                    self.fail(
                        "5 legal moves",
                        f"legal moves of seat {seat} are not strictly ascending by move_key: "
                        f"{one_line(moves[i - 1])} (key {keys[i - 1]}) has {relation} "
                        f"{one_line(moves[i])} (key {keys[i]})",
                    )
            if len({encode(m) for m in moves}) != len(moves):
                self.fail("5 legal moves", f"seat {seat} has the same legal move twice")

    def _apply_legal(
        self, state: Message, before: bytes, seat: int, move: Message, *, twice: bool = False
    ) -> tuple[Message, list[Message]]:
        move_before = encode(move)
        try:
            after, events = self.game.apply(state, seat, move)
        except GameError as error:
            self.fail(
                "5 legal moves",
                f"the legal move {one_line(move)} of seat {seat} was rejected: {error!r}",
            )
        self._unchanged(state, before, f"apply() of {one_line(move)}")
        if encode(move) != move_before:
            self.fail("1 purity", f"apply() changed the move {one_line(move)} it was given")
        if after is state:
            self.fail("1 purity", "apply() returned its input state instead of a new one")
        self._invariants(after, f"the state after seat {seat} played {one_line(move)}")
        if twice:
            again, again_events = self.game.apply(state, seat, move)
            if encode(again) != encode(after):
                self.fail("2 determinism", "the same move from the same state gave two states")
            if [encode(e) for e in again_events] != [encode(e) for e in events]:
                self.fail("2 determinism", "the same move from the same state gave two event lists")
            self._round_trip(after, "the state after the move")
            self._round_trip(move, "the move")
            for event in events:
                self._round_trip(event, f"the event {one_line(event)}")
        return after, events

    # --- check 4: turn order --------------------------------------------------------------

    def _check_not_your_turn(self, step: Step, every_seat: bool) -> None:
        idle = [s for s in range(self.seats) if s not in step.acting]
        if idle and not every_seat:
            idle = [self.chooser.choice(idle)]
        for seat in idle:
            error = self._expect_rejection(step.state, step.before, seat, step.move, "4 to_act")
            if not isinstance(error, NotYourTurnError):
                self.fail(
                    "4 to_act",
                    f"seat {seat} (not to act) playing {one_line(step.move)} raised "
                    f"{type(error).__name__} ({error}), not NotYourTurnError",
                )
        if every_seat:
            for seat in (-1, self.seats):
                self._expect_rejection(step.state, step.before, seat, step.move, "4 to_act")

    def _expect_rejection(
        self, state: Message, before: bytes, seat: int, move: Message, check: str
    ) -> GameError:
        """apply() must reject the move with InvalidMoveError or IllegalMoveError, an
        English sentence, and no change to the state."""
        try:
            self.game.apply(state, seat, move)
        except (InvalidMoveError, IllegalMoveError) as error:
            self._unchanged(state, before, f"a rejected apply() of {one_line(move)}")
            if not SENTENCE.search(error.message):
                self.fail(check, f"the rejection of {one_line(move)} says only {error.message!r}")
            self.stats.rejections += 1
            return error
        except Exception as error:
            self.fail(
                check,
                f"apply() by seat {seat} of {one_line(move)} raised {type(error).__name__}: "
                f"{error} (expected InvalidMoveError or IllegalMoveError)",
            )
        self.fail(
            check,
            f"apply() accepted {one_line(move)} from seat {seat}, which is not one of its "
            "legal moves",
        )

    # --- check 5: every legal move ---------------------------------------------------------

    def _apply_every_legal_move(self, step: Step) -> None:
        for seat in step.acting:
            moves = step.legal[seat]
            if len(moves) > EVERY_LEGAL_LIMIT:
                moves = self.chooser.sample(moves, EVERY_LEGAL_LIMIT)
            for move in moves:
                self._apply_legal(step.state, step.before, seat, move)
                self.stats.legal_moves_applied += 1

    # --- check 6: everything else is rejected -------------------------------------------

    def _check_rejections(self, step: Step) -> None:
        acting, legal = step.acting, step.legal
        legal_bytes = {seat: {encode(m) for m in legal[seat]} for seat in acting}
        candidates: list[tuple[int, Mutant]] = []
        current = [(seat, move) for seat in acting for move in legal[seat]]
        bases = self.chooser.sample(current, min(MUTATED_BASES, len(current)))
        stale = list(self.pool.values())
        if stale:
            bases.append((self.chooser.choice(acting), self.chooser.choice(stale)))
        for seat, base in bases:
            candidates += [(seat, m) for m in mutants(base, self.chooser, MUTANTS_PER_BASE)]
        for move in self.chooser.sample(stale, min(STALE_MOVES, len(stale))):
            candidates.append((self.chooser.choice(acting), Mutant(move, "an earlier move", False)))
        for seat, mutant in candidates:
            if encode(mutant.move) in legal_bytes[seat]:
                continue
            error = self._expect_rejection(
                step.state, step.before, seat, mutant.move, "6 rejection"
            )
            if mutant.malformed and not isinstance(error, InvalidMoveError):
                self.fail(
                    "6 rejection",
                    f"{one_line(mutant.move)} ({mutant.what}) is malformed, yet apply() raised "
                    f"{type(error).__name__} ({error}), not InvalidMoveError",
                )
        first = acting[0]
        empty = type(legal[first][0])()
        if encode(empty) in legal_bytes[first]:
            self.fail("6 rejection", "the empty move is a legal move")
        error = self._expect_rejection(step.state, step.before, first, empty, "6 rejection")
        if not isinstance(error, InvalidMoveError):
            self.fail(
                "6 rejection",
                f"the empty move raised {type(error).__name__} ({error}), not InvalidMoveError",
            )

    def _remember(self, legal: dict[int, list[Message]]) -> None:
        """Keep a bounded pool of moves legal at some earlier state (stale moves)."""
        for moves in legal.values():
            for move in moves:
                if len(self.pool) >= POOL_SIZE:
                    self.pool.pop(self.chooser.choice(list(self.pool)))
                self.pool.setdefault(encode(move), move)

    # --- the end ------------------------------------------------------------------------

    def _check_finished(self, state: Message) -> None:
        self.where = f"the final state (version {len(self.moves)})"
        before = encode(state)
        for seat in range(self.seats):
            moves = self.game.legal_moves(state, seat)
            if moves:
                self.fail("4 to_act", f"the game is over but seat {seat} has legal moves")
        outcome = self.game.outcome(state)
        assert outcome is not None
        self._round_trip(outcome, "the outcome")
        winners = list(outcome.winners)
        if len(set(winners)) != len(winners) or any(not 0 <= w < self.seats for w in winners):
            self.fail("4 to_act", f"the outcome's winners {winners} are not distinct seats")
        if not outcome.termination or not SENTENCE.search(outcome.summary):
            self.fail("4 to_act", f"the outcome needs a termination and a summary: {outcome}")
        views = self._check_views(state, before)
        for viewer in self.viewers:
            world = self.game.randomize_hidden(state, viewer, self.chooser.getrandbits(64))
            self._unchanged(state, before, f"randomize_hidden() for {seat_name(viewer)}")
            seen = self.game.view(world, viewer)
            if encode(seen) != encode(views[viewer]):
                self.fail(
                    "9c leak",
                    f"{seat_name(viewer)}'s final view shows something randomize_hidden "
                    f"calls hidden\n{text_diff(views[viewer], seen)}",
                )
        stale = list(self.pool.values())
        for seat in range(self.seats):
            for move in self.chooser.sample(stale, min(3, len(stale))):
                error = self._expect_rejection(state, before, seat, move, "6 rejection")
                if not isinstance(error, GameFinishedError):
                    self.fail(
                        "6 rejection",
                        f"{one_line(move)} by seat {seat} after the end raised "
                        f"{type(error).__name__} ({error}), not GameFinishedError",
                    )

    def _check_replay(self) -> None:
        """Replay the game in a fresh engine from stored bytes, as the service does."""
        self.where = "the replay"
        engine = type(self.game)()
        options = type(self.options)()
        options.ParseFromString(encode(self.options))
        state: Message = engine.setup(options, self.seats, self.seed)
        if encode(state) != self.state_bytes[0]:
            self.fail("2 determinism", "setup() in a fresh engine gave another initial state")
        for index, (seat, move) in enumerate(self.moves):
            stored = type(state)()
            stored.ParseFromString(self.state_bytes[index])
            parsed_move = type(move)()
            parsed_move.ParseFromString(encode(move))
            state, events = engine.apply(stored, seat, parsed_move)
            if encode(state) != self.state_bytes[index + 1]:
                self.fail(
                    "2 determinism",
                    f"replaying move {index + 1} ({one_line(move)} by seat {seat}) from the "
                    "stored state gave another state",
                )
            if [encode(e) for e in events] != self.event_bytes[index]:
                self.fail(
                    "2 determinism",
                    f"replaying move {index + 1} ({one_line(move)} by seat {seat}) gave "
                    "other events",
                )
