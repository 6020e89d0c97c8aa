"""The suite's own test: each check must catch the bug it exists for.

Every engine below is Nim with one deliberate defect; a checked playout of it
must fail with the matching check, and a failure must carry what is needed to
replay it. (Nim itself passes: the control case.) Two leaks are also planted
in every registered game with hidden information.
"""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest
from throneroom.v1 import nim_pb2
from throneroom_server.games.core import IllegalMoveError, Seat, Viewer
from throneroom_server.games.nim import Nim

from .playout import Playout
from .profiles import Case, Variant, first_case, registry
from .report import ConformanceError

SEEDS = range(4)


class MutatesItsInput(Nim):
    def apply(
        self, state: nim_pb2.NimState, seat: Seat, move: nim_pb2.NimMove
    ) -> tuple[nim_pb2.NimState, list[nim_pb2.NimEvent]]:
        new, events = super().apply(state, seat, move)
        state.last_mover = seat
        return new, events


class ViewMutatesTheState(Nim):
    def view(self, state: nim_pb2.NimState, viewer: Viewer) -> nim_pb2.NimView:
        state.rng.state ^= 1
        return super().view(state, viewer)


class UsesTheGlobalRandom(Nim):
    def apply(
        self, state: nim_pb2.NimState, seat: Seat, move: nim_pb2.NimMove
    ) -> tuple[nim_pb2.NimState, list[nim_pb2.NimEvent]]:
        new, events = super().apply(state, seat, move)
        new.secrets[seat] = random.randrange(1_000_000)
        return new, events


class PromisesTooFewDecisions(Nim):
    def max_decisions(self, options: nim_pb2.NimOptions, num_seats: int) -> int:
        return 3


class LetsEverySeatMove(Nim):
    def legal_moves(self, state: nim_pb2.NimState, seat: Seat) -> list[nim_pb2.NimMove]:
        return super().legal_moves(state, state.to_move)


class ForgetsWhoIsToAct(Nim):
    def to_act(self, state: nim_pb2.NimState) -> tuple[Seat, ...]:
        return () if state.pile < 10 else tuple(super().to_act(state))


class TurnErrorIsPlainIllegal(Nim):
    def apply(
        self, state: nim_pb2.NimState, seat: Seat, move: nim_pb2.NimMove
    ) -> tuple[nim_pb2.NimState, list[nim_pb2.NimEvent]]:
        if move.take > 0 and seat != state.to_move and not state.HasField("outcome"):
            raise IllegalMoveError(f"seat {seat} may not move now")
        return super().apply(state, seat, move)


class ListsMovesDescending(Nim):
    def legal_moves(self, state: nim_pb2.NimState, seat: Seat) -> list[nim_pb2.NimMove]:
        return list(reversed(super().legal_moves(state, seat)))


class RejectsALegalMove(Nim):
    def apply(
        self, state: nim_pb2.NimState, seat: Seat, move: nim_pb2.NimMove
    ) -> tuple[nim_pb2.NimState, list[nim_pb2.NimEvent]]:
        if move.take == 2 and state.pile > 2:
            raise IllegalMoveError("taking two stones is frowned upon")
        return super().apply(state, seat, move)


class AcceptsTooManyStones(Nim):
    def apply(
        self, state: nim_pb2.NimState, seat: Seat, move: nim_pb2.NimMove
    ) -> tuple[nim_pb2.NimState, list[nim_pb2.NimEvent]]:
        if 0 < move.take <= state.pile and seat == state.to_move:
            capped = nim_pb2.NimMove(take=min(move.take, state.max_take))
            return super().apply(state, seat, capped)
        return super().apply(state, seat, move)


class CrashesOnBadMoves(Nim):
    def apply(
        self, state: nim_pb2.NimState, seat: Seat, move: nim_pb2.NimMove
    ) -> tuple[nim_pb2.NimState, list[nim_pb2.NimEvent]]:
        if move.take > state.pile:
            raise IndexError("no such stone")
        return super().apply(state, seat, move)


class EmptyMoveIsIllegalNotInvalid(Nim):
    def apply(
        self, state: nim_pb2.NimState, seat: Seat, move: nim_pb2.NimMove
    ) -> tuple[nim_pb2.NimState, list[nim_pb2.NimEvent]]:
        if move.take == 0:
            raise IllegalMoveError("taking nothing is not a move in this position")
        return super().apply(state, seat, move)


class SaysNothing(Nim):
    def apply(
        self, state: nim_pb2.NimState, seat: Seat, move: nim_pb2.NimMove
    ) -> tuple[nim_pb2.NimState, list[nim_pb2.NimEvent]]:
        if move.take > state.max_take:
            raise IllegalMoveError("E42")
        return super().apply(state, seat, move)


class FinishedGameSaysIllegal(Nim):
    def apply(
        self, state: nim_pb2.NimState, seat: Seat, move: nim_pb2.NimMove
    ) -> tuple[nim_pb2.NimState, list[nim_pb2.NimEvent]]:
        if state.HasField("outcome") and move.take > 0:
            raise IllegalMoveError("no stones are left to take")
        return super().apply(state, seat, move)


class LosesASecret(Nim):
    def apply(
        self, state: nim_pb2.NimState, seat: Seat, move: nim_pb2.NimMove
    ) -> tuple[nim_pb2.NimState, list[nim_pb2.NimEvent]]:
        new, events = super().apply(state, seat, move)
        if new.pile < 12:
            del new.secrets[-1]
        return new, events


class ViewIsTheWholeState(Nim):
    def view(self, state: nim_pb2.NimState, viewer: Viewer) -> nim_pb2.NimState:  # type: ignore[override]
        return state


class ShowsSeatZerosSecret(Nim):
    def view(self, state: nim_pb2.NimState, viewer: Viewer) -> nim_pb2.NimView:
        view = super().view(state, viewer)
        view.my_secret = state.secrets[0]
        return view


class MovesDependOnAnotherSeatsSecret(Nim):
    def legal_moves(self, state: nim_pb2.NimState, seat: Seat) -> list[nim_pb2.NimMove]:
        moves = super().legal_moves(state, seat)
        neighbour = state.secrets[(seat + 1) % state.num_seats]
        return moves[: 1 + neighbour % len(moves)] if moves else moves

    def apply(
        self, state: nim_pb2.NimState, seat: Seat, move: nim_pb2.NimMove
    ) -> tuple[nim_pb2.NimState, list[nim_pb2.NimEvent]]:
        allowed = len(self.legal_moves(state, seat))
        if allowed and seat == state.to_move and move.take > allowed:
            raise IllegalMoveError(f"seat {seat} may take at most {allowed} stones now")
        return super().apply(state, seat, move)


class RandomizesWhatTheViewerKnows(Nim):
    def randomize_hidden(
        self, state: nim_pb2.NimState, viewer: Viewer, seed: int
    ) -> nim_pb2.NimState:
        new = super().randomize_hidden(state, viewer, seed)
        if viewer is not None:
            new.secrets[viewer] = (new.secrets[viewer] + 1) % 1000
        return new


class ClaimsNoHiddenInformation(Nim):
    info = dataclasses.replace(Nim.info, hidden_information=False)


class TellsEveryoneEverySecret(Nim):
    def redact_event(self, event: nim_pb2.NimEvent, viewer: Viewer) -> nim_pb2.NimEvent:
        return event


BROKEN = [
    (MutatesItsInput, "1 purity"),
    (ViewMutatesTheState, "1 purity"),
    (UsesTheGlobalRandom, "2 determinism"),
    (PromisesTooFewDecisions, "3 termination"),
    (LetsEverySeatMove, "4 to_act"),
    (ForgetsWhoIsToAct, "4 to_act"),
    (TurnErrorIsPlainIllegal, "4 to_act"),
    (ListsMovesDescending, "5 legal moves"),
    (RejectsALegalMove, "5 legal moves"),
    (AcceptsTooManyStones, "6 rejection"),
    (CrashesOnBadMoves, "6 rejection"),
    (EmptyMoveIsIllegalNotInvalid, "6 rejection"),
    (SaysNothing, "6 rejection"),
    (FinishedGameSaysIllegal, "6 rejection"),
    (LosesASecret, "8 invariants"),
    (ViewIsTheWholeState, "9b leak"),
    (ShowsSeatZerosSecret, "9c leak"),
    (MovesDependOnAnotherSeatsSecret, "9c leak"),
    (RandomizesWhatTheViewerKnows, "9c leak"),
    (ClaimsNoHiddenInformation, "9c leak"),
    (TellsEveryoneEverySecret, "9d leak"),
]


def _playout(engine: Nim, seed: int, seats: int = 3) -> Playout:
    return Playout(
        engine,
        name="nim",
        variant=Variant(seats),
        options=engine.default_options(),
        seed=seed,
        choice_seed=seed,
    )


@pytest.mark.parametrize(("engine_type", "check"), BROKEN, ids=[b[0].__name__ for b in BROKEN])
def test_each_check_catches_its_defect(engine_type: type[Nim], check: str) -> None:
    failures = []
    for seed in SEEDS:
        try:
            _playout(engine_type(), seed).run()
        except ConformanceError as error:
            failures.append(error)
    assert failures, f"{engine_type.__name__} passed the suite with seeds {list(SEEDS)}"
    assert {f.check for f in failures} == {check}, [str(f).splitlines()[0] for f in failures]


def test_a_failure_says_how_to_replay_it() -> None:
    with pytest.raises(ConformanceError) as caught:
        _playout(PromisesTooFewDecisions(), 1).run()
    text = str(caught.value)
    assert "game 'nim', variant 3p, 3 seats" in text
    assert "seed 1, choice seed 1" in text
    assert "MOVES = [(" in text
    assert "game.setup(options, 3, 1)" in text


def test_the_replay_snippet_reproduces_the_failing_position() -> None:
    with pytest.raises(ConformanceError) as caught:
        _playout(PromisesTooFewDecisions(), 2).run()
    error = caught.value
    snippet = str(error).split("  replay:\n", 1)[1]
    namespace: dict[str, object] = {}
    exec("\n".join(line[4:] for line in snippet.splitlines()), namespace)
    state = namespace["state"]
    assert isinstance(state, nim_pb2.NimState)
    moves = namespace["MOVES"]
    assert isinstance(moves, list) and len(moves) == 3, "the failure came after 3 moves"
    assert 21 - state.pile == sum(int(text.split()[-1]) for _, text in moves)


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_nim_itself_passes(seats: int) -> None:
    for seed in SEEDS:
        stats = _playout(Nim(), seed, seats).run()
        assert stats.deep_steps == stats.steps > 0
        assert stats.rejections > 0 and stats.legal_moves_applied > 0
        assert stats.worlds_with_hidden_changes > 0 and stats.event_comparisons > 0


# --- the same defects planted in every registered game with hidden information ----------

HIDDEN_CASES = [first_case(name) for name, g in registry().items() if g.info.hidden_information]


def _planted(case: Case, **methods: Any) -> Case:
    """The case with its engine replaced by a subclass overriding ``methods``."""
    engine_type = type(case.game)
    leaky = type(f"Leaky{engine_type.__name__}", (engine_type,), methods)
    return dataclasses.replace(case, game=leaky())


def _checks_failed(case: Case) -> list[str]:
    failed = []
    for seed in range(3):
        try:
            Playout.of(case, seed, seed, deep_rate=1.0, stop_after=60).run()
        except ConformanceError as error:
            failed.append(error.check)
    return failed


@pytest.mark.parametrize("case", HIDDEN_CASES, ids=[c.name for c in HIDDEN_CASES])
def test_every_seat_seeing_seat_zeros_view_is_caught(case: Case) -> None:
    engine_type = type(case.game)
    planted = _planted(case, view=lambda self, state, viewer: engine_type.view(self, state, 0))
    assert _checks_failed(planted) == ["9c leak"] * 3


@pytest.mark.parametrize("case", HIDDEN_CASES, ids=[c.name for c in HIDDEN_CASES])
def test_unredacted_events_are_caught_unless_the_game_never_redacts(case: Case) -> None:
    planted = _planted(case, redact_event=lambda self, event, viewer: event)
    failed = _checks_failed(planted)
    if failed:
        assert failed == ["9d leak"] * 3
        return
    # Not caught: then the game itself must show every event whole to every viewer.
    game, seats = case.game, case.variant.seats
    for seed in range(3):
        state = game.setup(case.options, seats, seed)
        chooser = random.Random(seed)
        for _ in range(60):
            acting = game.to_act(state)
            if not acting:
                break
            seat = acting[0]
            moves = game.legal_moves(state, seat)
            state, events = game.apply(state, seat, moves[chooser.randrange(len(moves))])
            for event in events:
                for viewer in [*range(seats), None]:
                    assert game.redact_event(event, viewer) == event, (
                        f"{case.name} redacts events, yet unredacted events went unnoticed"
                    )
