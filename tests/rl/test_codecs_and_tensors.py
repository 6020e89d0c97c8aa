"""The action codecs and view tensors of every game (docs/rl.md).

Over a random playout of every conformance variant: every legal move of every
step round-trips through its game's codec to a distinct number below N, and a
seat's tensor is the same for every state that gives the same view (the
conformance suite's hidden-state randomisation) and changes when the view does.
"""

from __future__ import annotations

import random

import pytest
from throneroom.games.protocol import game_client

from tests.conformance.profiles import Case, conformance_cases

CASES = [c for c in conformance_cases() if not c.game.fixture]
LONG = {"kill_the_king"}
"""Games whose playouts take ~1000-2000 decisions (the slow tier plays all their variants)."""


def _param(case: Case) -> object:
    slow = case.name in LONG and case.variant.options != ()
    return pytest.param(case, id=case.id, marks=[pytest.mark.slow] if slow else [])


def _playout(case: Case, seed: int) -> list[object]:
    """The states of one random playout (every one, the final included)."""
    game, rng = case.game, random.Random(seed)
    state = game.setup(case.options, case.variant.seats, seed)
    states = [state]
    while game.outcome(state) is None:
        seat = rng.choice(game.to_act(state))
        state, _ = game.apply(state, seat, rng.choice(game.legal_moves(state, seat)))
        states.append(state)
    return states


@pytest.mark.parametrize("case", [_param(c) for c in CASES])
def test_every_legal_move_round_trips(case: Case) -> None:
    codec = game_client(case.name).actions(case.variant.seats, dict(case.variant.options))
    assert codec is not None
    for state in _playout(case, 1):
        for seat in case.game.to_act(state):
            moves = case.game.legal_moves(state, seat)
            numbers = codec.mask(moves)
            assert len(set(numbers)) == len(moves)
            assert all(0 <= n < codec.size for n in numbers)
            assert [codec.decode(n) for n in numbers] == list(moves)


@pytest.mark.parametrize("case", [_param(c) for c in CASES])
def test_tensor_is_a_function_of_the_view(case: Case) -> None:
    tensor = game_client(case.name).observations(case.variant.seats, dict(case.variant.options))
    assert tensor is not None
    game, seats = case.game, case.variant.seats
    states = _playout(case, 2)
    changed = 0
    for step, state in enumerate(states[:: max(1, len(states) // 12)]):
        for seat in range(seats):
            mine = tensor.encode(game.view(state, seat))
            assert len(mine) == tensor.size
            other = game.randomize_hidden(state, seat, step * 31 + seat)
            assert game.view(other, seat) == game.view(state, seat)
            assert tensor.encode(game.view(other, seat)) == mine
            changed += tensor.encode(game.view(states[0], seat)) != mine
    assert changed > 0, "the tensor never changed over a whole game"
