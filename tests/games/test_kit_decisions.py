"""Simultaneous decisions: the decision clock, ``earliest_version`` and the promise
that one seat's answer does not change what another asked seat may decide."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterator
from typing import Any

import pytest
from throneroom.v1 import game_pb2, kill_the_king_pb2, nim_pb2
from throneroom_server.games.core import InvalidMoveError, InvalidOptionsError
from throneroom_server.games.kit import Engine, EnvelopeGame, MoveKind
from throneroom_server.games.kit.checks import independence_problems, playout_states
from throneroom_server.games.kit.decisions import advance_clock
from throneroom_server.games.kit.service import ServiceGame
from throneroom_server.games.nim import Nim
from throneroom_server.games.registry import build_registry, serve, service_games

from tests.games.kit_games import SEALED, SealedTakes, Snap, SnapWithoutEpoch, choose

Move = nim_pb2.NimMove


def _move(game: ServiceGame, take: int) -> game_pb2.Move:
    return game_pb2.Move(nim=Move(take=take))


def test_a_seat_keeps_the_version_its_decision_opened_at_while_others_answer() -> None:
    game = serve(SealedTakes())
    state = game.setup(game_pb2.GameOptions(nim=nim_pb2.NimOptions(pile=12)), 3, 1)
    assert list(state.clock.opened_at) == [0, 0, 0] and state.clock.moves == 0
    state, events = game.apply(state, 1, _move(game, 2))  # version 1
    assert events == [], "a sealed answer shows nothing"
    assert [game.earliest_version(state, seat, 1) for seat in range(3)] == [0, 1, 0]
    state, _ = game.apply(state, 2, _move(game, 1))  # version 2
    assert [game.earliest_version(state, seat, 2) for seat in range(3)] == [0, 2, 2]
    state, events = game.apply(state, 0, _move(game, 3))  # version 3: revealed, next round
    assert len(events) == 3 and game.to_act(state) == [0, 1, 2]
    assert [game.earliest_version(state, seat, 3) for seat in range(3)] == [3, 3, 3]
    assert list(state.clock.opened_at) == [3, 3, 3] and state.clock.moves == 3


def test_sequential_turns_accept_only_the_current_version() -> None:
    game = serve(Nim())
    state = game.setup(game_pb2.GameOptions(nim=nim_pb2.NimOptions()), 2, 1)
    for version in range(1, 6):
        seat = game.to_act(state)[0]
        state, _ = game.apply(state, seat, _move(game, 1))
        assert [game.earliest_version(state, s, version) for s in range(2)] == [version] * 2


@pytest.mark.parametrize(("engine", "opened"), [(Snap, 1), (SnapWithoutEpoch, 0)])
def test_a_phase_that_reopens_in_one_move_needs_its_epoch(
    engine: type[Engine], opened: int
) -> None:  # type: ignore[type-arg]
    """Seat 0 snaps: the round closes and the next one opens at once, in the same
    phase. With the epoch, seat 1's decision reopens at version 1; without it, the
    clock would wrongly accept seat 1's answer to the previous round."""
    game = serve(engine())
    state = game.setup(game_pb2.GameOptions(nim=nim_pb2.NimOptions(pile=12)), 3, 1)
    state, _ = game.apply(state, 0, _move(game, 3))
    assert game.to_act(state) == [0, 1, 2]
    assert game.earliest_version(state, 1, 1) == opened


def _service_rule(
    game: ServiceGame, state: game_pb2.GameState, seat: int, chosen_at: int, current: int
) -> bool:
    """What app.py must do with ApplyMove's expected_version (the contract)."""
    return game.earliest_version(state, seat, current) <= chosen_at <= current


def test_every_seat_answers_from_the_version_it_was_asked_at_and_none_is_refused() -> None:
    game = serve(SealedTakes())
    rng = random.Random(5)
    state = game.setup(game_pb2.GameOptions(nim=nim_pb2.NimOptions(pile=30)), 4, 5)
    version, refused, accepted = 0, 0, 0
    while game.to_act(state):
        asked_at = version  # every asked seat looks at the game now...
        answers = {seat: rng.choice(game.legal_moves(state, seat)) for seat in game.to_act(state)}
        order = list(answers)
        rng.shuffle(order)
        for seat in order:  # ...and their answers arrive in any order
            if _service_rule(game, state, seat, asked_at, version):
                state, _ = game.apply(state, seat, answers[seat])
                version += 1
                accepted += 1
            else:
                refused += 1
    assert refused == 0 and accepted == version > 4


def _strict_rule(
    game: ServiceGame, state: game_pb2.GameState, seat: int, chosen_at: int, current: int
) -> bool:
    return chosen_at == current


def _play_with_answers_chosen_together(
    game: ServiceGame, seats: int, seed: int, rule: Any = _service_rule
) -> tuple[int, int]:
    """A whole game in which every seat asked at a version chooses at that version,
    and the answers reach the service in a random order: (moves, refusals).
    A refused seat asks again (it chooses anew at the next round of asking)."""
    rng = random.Random(seed)
    state = game.setup(game_pb2.GameOptions(**{game.name: {}}), seats, seed)
    version = refused = 0
    while acting := game.to_act(state):
        asked_at = version
        answers = {seat: rng.choice(game.legal_moves(state, seat)) for seat in acting}
        order = list(answers)
        rng.shuffle(order)
        for seat in order:
            if rule(game, state, seat, asked_at, version):
                state, _ = game.apply(state, seat, answers[seat])
                version += 1
            else:
                refused += 1
    return version, refused


@pytest.mark.parametrize(
    "name",
    [n for n, g in build_registry(include_fixtures=True).items() if g.info.simultaneous_decisions],
)
def test_a_registered_game_never_refuses_a_simultaneous_answer(name: str) -> None:
    game = service_games(include_fixtures=True)[name]
    seats = min(game.info.min_seats + 1, game.info.max_seats)
    try:
        game.validate_options(game_pb2.GameOptions(**{name: {}}), seats)
    except InvalidOptionsError:  # Kill the King: 3-4 seats only in its Giga modes
        seats = game.info.min_seats
    for seed in range(2):
        moves, refused = _play_with_answers_chosen_together(game, seats, seed)
        assert moves > 0 and refused == 0


def test_without_the_clock_simultaneous_answers_would_be_refused() -> None:
    """The control: the same play with a plain version check refuses answers."""
    game = service_games()["kings_life"]
    _, refused = _play_with_answers_chosen_together(game, 5, 0, rule=_strict_rule)
    assert refused > 0


def test_a_stale_sequential_move_is_refused_by_the_same_rule() -> None:
    game = serve(Nim())
    state = game.setup(game_pb2.GameOptions(nim=nim_pb2.NimOptions()), 2, 1)
    state, _ = game.apply(state, 0, _move(game, 1))
    assert not _service_rule(game, state, 1, 0, 1)
    assert _service_rule(game, state, 1, 1, 1)


def test_a_game_stored_before_the_clock_is_strict() -> None:
    game = serve(SealedTakes())
    state = game.setup(game_pb2.GameOptions(nim=nim_pb2.NimOptions(pile=12)), 3, 1)
    state.ClearField("clock")
    assert game.earliest_version(state, 0, 0) == 0
    state, _ = game.apply(state, 1, _move(game, 2))
    assert [game.earliest_version(state, seat, 7) for seat in range(3)] == [7, 7, 7]
    assert list(state.clock.opened_at) == [1, 1, 1], "the clock starts from here"


@pytest.mark.parametrize("name", ["king_is_dead", "nim"])
def test_a_game_without_simultaneous_decisions_keeps_the_clock_advance_clock_gives(
    name: str,
) -> None:
    # The envelope face skips to_act and decision_key for such games: the same clock.
    game = build_registry(include_fixtures=True)[name]
    assert isinstance(game, Engine) and not game.definition.phases.has_simultaneous
    envelope = EnvelopeGame(game)
    state = envelope.setup(envelope.game_type().default_options, 2, 5)
    stored_before_the_clock = True
    for inner in playout_states(game, game.default_options(), 2, 5, limit=60):
        if game.outcome(inner) is not None:
            break
        seat = game.to_act(inner)[0]
        move = game.legal_moves(inner, seat)[0]
        wrapped = envelope.messages.wrap_state(inner)
        wrapped.clock.CopyFrom(state.clock)
        if stored_before_the_clock:  # once: a state stored before the clock existed
            wrapped.ClearField("clock")
            stored_before_the_clock = False
        after, _ = envelope.apply(wrapped, seat, envelope.messages.wrap_move(move))
        expected = advance_clock(
            wrapped.clock,
            num_seats=2,
            mover=seat,
            acting_before=game.to_act(inner),
            acting_after=game.to_act(envelope.messages.unwrap_state(after)),
            decision_before=None,
            decision_after=None,
        )
        assert after.clock == expected
        state = after


def test_the_envelope_face_refuses_another_games_messages() -> None:
    game = serve(SealedTakes())
    with pytest.raises(InvalidOptionsError, match="'king_is_dead' GameOptions"):
        game.validate_options(game_pb2.GameOptions(king_is_dead={}), 2)
    state = game.setup(game_pb2.GameOptions(nim={}), 2, 1)
    with pytest.raises(InvalidMoveError, match="Move is empty"):
        game.apply(state, 0, game_pb2.Move())
    with pytest.raises(InvalidMoveError, match="'kings_life' Move"):
        game.apply(state, 0, game_pb2.Move(kings_life={}))


def test_an_option_holding_an_undefined_enum_number_is_refused() -> None:
    """proto3 keeps an enum number it does not know: options carrying one are
    invalid, named as such (found by bench/fuzz.py: Kill the King's mode 47
    reached the engine's table and failed as an internal error)."""
    game = service_games()["kill_the_king"]
    options = game_pb2.GameOptions()
    options.kill_the_king.mode = 47
    with pytest.raises(InvalidOptionsError, match="option mode has no value 47: one of "):
        game.validate_options(options, 2)
    options.kill_the_king.mode = kill_the_king_pb2.KILL_THE_KING_MODE_ATTACK_AND_DEFENSE
    game.validate_options(options, 2)


# --- the promise behind the clock ---------------------------------------------------------------


def _copycat_choices(state: nim_pb2.NimState, seat: int) -> Iterator[Move]:
    """Once someone has chosen, the others may only copy the first choice: an
    answer that changes what the other asked seats may decide."""
    first = next((c for c in state.secrets if c), 0)
    for stones in range(1, state.max_take + 1):
        if not first or stones == first:
            yield Move(take=stones)


class Copycat(SealedTakes):
    definition = dataclasses.replace(
        SEALED, moves=(MoveKind("take", generate=_copycat_choices, play=choose),)
    )


def _problems(game: Any, seats: int, seeds: range) -> tuple[int, list[str]]:
    states, problems = 0, []
    for seed in seeds:
        for state in playout_states(game, game.default_options(), seats, seed, limit=200):
            if game.decision_key(state) is not None:
                states += 1
                problems += independence_problems(game, state)
    return states, problems


def test_an_answer_that_changes_another_seats_choices_is_caught() -> None:
    states, problems = _problems(Copycat(), 3, range(2))
    assert states and problems and "changed the legal moves of seat" in problems[0]
    states, problems = _problems(SealedTakes(), 3, range(2))
    assert states > 5 and problems == []


@pytest.mark.parametrize(
    "name",
    [n for n, g in build_registry(include_fixtures=True).items() if g.info.simultaneous_decisions],
)
def test_registered_simultaneous_decisions_keep_the_promise(name: str) -> None:
    game = build_registry(include_fixtures=True)[name]
    seats = game.testing.variants[0].seats if game.testing.variants else game.info.min_seats
    states, problems = _problems(game, seats, range(2))
    assert states > 0, f"{name} declares simultaneous decisions but none came up"
    assert problems == [], problems[:3]


def test_envelope_game_is_what_the_registry_serves() -> None:
    nim = build_registry(include_fixtures=True)["nim"]
    assert isinstance(serve(nim), EnvelopeGame) and serve(nim).name == "nim"


def test_a_shared_phase_lets_several_seats_act_but_checks_versions_strictly() -> None:
    from throneroom_server.games.kit import PhaseTable, shared

    from tests.games.kit_games import choosing

    table = PhaseTable(
        phase_of=SEALED.phases.phase_of,
        phases=(
            shared("choose", seats=choosing, moves=["take"], ends="all chose", follows=["over"]),
            SEALED.phases["over"],
        ),
        start=("choose",),
    )

    class Together(SealedTakes):
        definition = dataclasses.replace(SEALED, phases=table)

    assert not Together.definition.info.simultaneous_decisions
    game = serve(Together())
    state = game.setup(game_pb2.GameOptions(nim={}), 3, 1)
    state, _ = game.apply(state, 1, _move(game, 2))
    assert game.to_act(state) == [0, 2]
    assert [game.earliest_version(state, seat, 1) for seat in range(3)] == [1, 1, 1]
    assert "| choose | shared | take |" in table.describe()
