"""Every game registered with OpenSpiel: its declared facts, OpenSpiel's own
random_sim_test over every game, mode and seat count, explicit chance nodes,
the observers."""

from __future__ import annotations

import math
import random
from typing import Any

import pyspiel
import pytest
import throneroom_rl.openspiel as adapter
from throneroom_rl.table import rl_game_names, table

from tests.rl.variants import rl_variants

# Kill the King's games (hundreds of decisions, each with its dice as chance
# nodes) take half a minute and more a simulation: slow tier.
VARIANTS = rl_variants(slow_past=10_000)


def test_every_game_is_registered_under_its_name() -> None:
    names = {game.short_name for game in pyspiel.registered_games()}
    for name in rl_game_names():
        assert adapter.game_name(name) in names
    assert set(adapter.registered.values()) == set(rl_game_names())


def test_load_game_by_string_with_parameters() -> None:
    game = pyspiel.load_game("throneroom_king_is_dead(players=3)")
    assert game.num_players() == 3
    assert game.num_distinct_actions() == table("king_is_dead", 3).num_actions
    assert game.max_game_length() == table("king_is_dead", 3).max_decisions
    mordred = pyspiel.load_game("throneroom_king_is_dead(players=4,mordred=True)")
    assert mordred.num_players() == 4


@pytest.mark.parametrize("name", rl_game_names())
def test_declared_facts(name: str) -> None:
    game = pyspiel.load_game(adapter.game_name(name))
    kind = game.get_type()
    assert kind.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert kind.utility == pyspiel.GameType.Utility.GENERAL_SUM
    assert kind.provides_information_state_tensor and kind.provides_observation_tensor
    assert game.max_chance_outcomes() == table(name).engine.max_chance_outcomes
    assert (game.min_utility(), game.max_utility()) == (-1.0, 1.0)


@pytest.mark.parametrize(("name", "seats", "options"), VARIANTS)
def test_random_sim_test(name: str, seats: int, options: dict[str, Any]) -> None:
    game = pyspiel.load_game(adapter.game_name(name), {"players": seats, **options})
    pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)


def _play_to_end(state: Any, rng: random.Random) -> Any:
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            assert math.isclose(sum(p for _, p in outcomes), 1.0)
            assert len(outcomes) <= state.get_game().max_chance_outcomes()
            state.apply_action(rng.choice([a for a, _ in outcomes]))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state


def test_the_deal_is_chance_and_the_chance_outcomes_decide_the_game() -> None:
    game = pyspiel.load_game("throneroom_king_is_dead(players=2)")
    state = game.new_initial_state()
    assert state.is_chance_node()  # the followers are drawn onto the map
    first = _play_to_end(game.new_initial_state(), random.Random(3))
    again = _play_to_end(game.new_initial_state(), random.Random(3))
    assert first.history() == again.history() and str(first) == str(again)
    assert sorted(set(first.returns())) in ([-1.0, 1.0], [0.0])
    other = _play_to_end(game.new_initial_state(), random.Random(4))
    assert other.history() != first.history()


def test_observers_see_a_seats_view_only() -> None:
    game = pyspiel.load_game("throneroom_kings_life(players=4)")
    state = game.new_initial_state()
    rng = random.Random(1)
    while state.is_chance_node():
        state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
    tbl = table("kings_life", 4)
    view = tbl.view(state.engine_state, 2)
    assert state.observation_tensor(2) == pytest.approx(tbl.tensor.encode(view))
    assert adapter.view_of(tbl, state.observation_string(2)) == view
    before = state.information_state_string(0)
    state.apply_action(state.legal_actions()[0])
    assert state.information_state_string(0) != before  # seat 0 recalls its decision
    assert len(state.information_state_tensor(0)) == tbl.tensor.size
