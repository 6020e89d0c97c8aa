"""Every game, mode and seat count as a PettingZoo AEC environment: PettingZoo's
own API test and seed test, rewards from the outcome, the ansi board."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test
from throneroom_rl.pettingzoo import env, raw_env

from tests.rl.variants import rl_variants


@pytest.mark.parametrize(("name", "seats", "options"), rl_variants())
def test_pettingzoo_api_test(name: str, seats: int, options: dict[str, Any]) -> None:
    api_test(env(name, seats, options), num_cycles=1000)


@pytest.mark.parametrize(("name", "seats", "options"), rl_variants())
def test_pettingzoo_seed_test(name: str, seats: int, options: dict[str, Any]) -> None:
    seed_test(lambda: env(name, seats, options), num_cycles=200)


def _play(game: Any, seed: int) -> tuple[list[int], dict[str, float]]:
    """A whole game with seeded random legal actions: the actions and the rewards."""
    rng = np.random.default_rng(seed)
    game.reset(seed=seed)
    actions: list[int] = []
    totals = dict.fromkeys(game.possible_agents, 0.0)
    for agent in game.agent_iter():
        observation, reward, termination, truncation, _ = game.last()
        totals[agent] += reward
        if termination or truncation:
            game.step(None)
            continue
        assert observation["observation"].dtype == np.float32
        action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
        actions.append(action)
        game.step(action)
    return actions, totals


@pytest.mark.parametrize(("name", "seats"), [("king_is_dead", 3), ("kings_life", 4)])
def test_a_game_ends_with_the_outcomes_rewards_and_replays_from_its_seed(
    name: str, seats: int
) -> None:
    first = raw_env(name, seats)
    actions, totals = _play(first, seed=5)
    again, totals_again = _play(raw_env(name, seats), seed=5)
    assert actions == again and totals == totals_again
    expected = first.table.rewards(first._state)
    assert [totals[agent] for agent in first.possible_agents] == expected
    assert sorted(set(expected)) in ([-1.0, 1.0], [0.0])


def test_kill_the_king_teams_share_their_result() -> None:
    game = raw_env("kill_the_king", 4, {"mode": 3})
    _, totals = _play(game, seed=2)
    for team in game.table.teams:
        assert len({totals[f"seat_{seat}"] for seat in team}) == 1
    assert len(game.table.teams) == 2


def test_simultaneous_decisions_give_each_asked_seat_its_turn() -> None:
    game = raw_env("kings_life", 4)
    game.reset(seed=3)
    while len(game.table.to_act(game._state)) < 2:  # on to a decision of several seats
        observation = game.observe(game.agent_selection)
        game.step(int(np.flatnonzero(observation["action_mask"])[0]))
    asked = list(game.table.to_act(game._state))
    turns = []
    for agent in game.agent_iter(max_iter=len(asked)):
        observation, *_ = game.last()
        turns.append(agent)
        game.step(int(np.flatnonzero(observation["action_mask"])[0]))
    assert turns == [f"seat_{seat}" for seat in asked]


def test_max_steps_truncates_every_seat() -> None:
    game = raw_env("king_is_dead", 2, max_steps=5)
    game.reset(seed=1)
    steps = 0
    for _ in game.agent_iter():
        observation, _, termination, truncation, _ = game.last()
        if termination or truncation:
            assert truncation and not termination
            game.step(None)
            continue
        game.step(int(np.flatnonzero(observation["action_mask"])[0]))
        steps += 1
    assert steps == 5


def test_an_illegal_action_is_refused() -> None:
    game = raw_env("king_is_dead", 2)
    game.reset(seed=1)
    mask = game.observe(game.agent_selection)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(ValueError, match="not legal"):
        game.step(illegal)
    wrapped = env("king_is_dead", 2)
    wrapped.reset(seed=1)
    agent = wrapped.agent_selection
    wrapped.step(illegal)  # the classic wrapper: the game ends, -1 for the agent
    assert wrapped.rewards[agent] == -1 and all(wrapped.terminations.values())


@pytest.mark.parametrize(("name", "seats", "options"), rl_variants()[:1] + rl_variants()[-5:-4])
def test_ansi_render_draws_the_terminal_board(
    name: str, seats: int, options: dict[str, Any]
) -> None:
    game = raw_env(name, seats, options, render_mode="ansi")
    game.reset(seed=4)
    text = game.render()
    assert isinstance(text, str) and "to act: seat" in text
    assert "\x1b[" not in text  # plain text
    assert raw_env(name, seats, options).render() is None  # no render_mode: a warning only
