"""Random playouts: invariants, purity, determinism, termination (rules 7-8)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from .helpers import GAME, State

VARIANTS = [(n, mordred) for n in (2, 3, 4) for mordred in (False, True)]


def _playout(
    num_seats: int, mordred: bool, seed: int, deep_every: int
) -> tuple[State, list[bytes]]:
    options = GAME.default_options()
    options.mordred = mordred
    chooser = random.Random(seed)
    state = GAME.setup(options, num_seats, seed)
    history: list[bytes] = []
    limit = GAME.max_decisions(options, num_seats)
    steps = 0
    while GAME.to_act(state):
        GAME.check_invariants(state)
        (seat,) = GAME.to_act(state)
        before = state.SerializeToString(deterministic=True)
        moves = GAME.legal_moves(state, seat)
        assert len(moves) > 0
        for other in range(num_seats):
            if other != seat:
                assert len(GAME.legal_moves(state, other)) == 0
        if steps % deep_every == 0:
            for move in list(moves)[:20]:  # every (first) legal move applies
                GAME.apply(state, seat, move)
            for viewer in [None, *range(num_seats)]:
                GAME.view(state, viewer)
        move = moves[chooser.randrange(len(moves))]
        history.append(move.SerializeToString())
        new, events = GAME.apply(state, seat, move)
        assert state.SerializeToString(deterministic=True) == before, "apply changed its input"
        assert events, "every decision causes an event"
        state = new
        steps += 1
        assert steps <= limit, "more decisions than max_decisions"
    GAME.check_invariants(state)
    assert GAME.outcome(state) is not None
    assert state.outcome.termination in ("control", "invasion", "loyalist")
    assert mordred or state.outcome.termination != "loyalist"
    return state, history


@pytest.mark.parametrize(("num_seats", "mordred"), VARIANTS)
@settings(max_examples=6, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**64 - 1))
def test_random_playouts(num_seats: int, mordred: bool, seed: int) -> None:
    final, history = _playout(num_seats, mordred, seed, deep_every=7)
    # Determinism: the same seed and moves give the same bytes.
    options = GAME.default_options()
    options.mordred = mordred
    state = GAME.setup(options, num_seats, seed)
    for raw in history:
        move = type(GAME.legal_moves(state, GAME.to_act(state)[0])[0])()
        move.ParseFromString(raw)
        state, _ = GAME.apply(state, GAME.to_act(state)[0], move)
    assert state.SerializeToString(deterministic=True) == final.SerializeToString(
        deterministic=True
    )


def test_many_quick_playouts_end_well() -> None:
    terminations = set()
    for seed in range(60):
        num_seats, mordred = VARIANTS[seed % len(VARIANTS)]
        final, _ = _playout(num_seats, mordred, seed, deep_every=10**6)
        terminations.add(final.outcome.termination)
    assert terminations == {"control", "invasion", "loyalist"}
