"""OpenSpiel's MCTS against the shipped heuristic bot on The King Is Dead, then a
random policy through every game's PettingZoo environment (docs/rl.md).

    .venv/bin/python examples/rl_mcts.py                  # a few seconds a game
    .venv/bin/python examples/rl_mcts.py --games 4 --simulations 200

The MCTS bot (``open_spiel.python.algorithms.mcts.MCTSBot`` with random
rollouts) plays through the OpenSpiel adapter; it searches the state it is
given, which is the whole game (hidden piles included): an oracle baseline,
not a fair player. The heuristic bot (``game_client("king_is_dead").bot()``)
sees only its seat's view and legal moves, as through the service. Seats
alternate game by game.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import numpy as np
import pyspiel
import throneroom_rl.openspiel  # registers the games with OpenSpiel
from open_spiel.python.algorithms import mcts
from throneroom.envelopes import wrap, wrap_move
from throneroom.games.protocol import game_client
from throneroom.v1 import game_pb2
from throneroom_rl.pettingzoo import env
from throneroom_rl.table import rl_game_names

GAME = "king_is_dead"


def heuristic_action(state: Any, bot: Any) -> int:
    """The heuristic bot's choice at an OpenSpiel state, as an action number."""
    tbl = state.table
    seat = state.current_player()
    legal = tbl.legal(state.engine_state, seat)
    moves = list(legal.values())
    view = wrap(game_pb2.View, GAME, tbl.view(state.engine_state, seat))
    chosen = bot.choose(GAME, seat, view, [wrap_move(GAME, move) for move in moves])
    return list(legal)[[wrap_move(GAME, move) for move in moves].index(chosen)]


def mcts_against_heuristic(games: int, simulations: int, seed: int) -> list[float]:
    """Each game's return for the MCTS seat."""
    game = pyspiel.load_game(throneroom_rl.openspiel.game_name(GAME), {"players": 2})
    rng = np.random.RandomState(seed)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    searcher = mcts.MCTSBot(
        game, uct_c=2.0, max_simulations=simulations, evaluator=evaluator, random_state=rng
    )
    results = []
    for number in range(games):
        mcts_seat = number % 2
        heuristic = game_client(GAME).bot(seed + number)
        state = game.new_initial_state()
        started = time.perf_counter()
        while not state.is_terminal():
            if state.is_chance_node():
                actions, probabilities = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(int(rng.choice(actions, p=probabilities)))
            elif state.current_player() == mcts_seat:
                state.apply_action(searcher.step(state))
            else:
                state.apply_action(heuristic_action(state, heuristic))
        mine = state.returns()[mcts_seat]
        results.append(mine)
        outcome = "won" if mine > 0 else "lost" if mine < 0 else "drew"
        seconds = time.perf_counter() - started
        print(f"game {number + 1}: MCTS (seat {mcts_seat}) {outcome} in {seconds:.1f} s")
    return results


def random_policy_loops(max_steps: int, seed: int) -> None:
    """One game of every game's environment with random legal actions."""
    rng = np.random.default_rng(seed)
    for name in rl_game_names():
        game = env(name, max_steps=max_steps)
        game.reset(seed=seed)
        steps, totals = 0, dict.fromkeys(game.possible_agents, 0.0)
        started = time.perf_counter()
        for agent in game.agent_iter():
            observation, reward, termination, truncation, _ = game.last()
            totals[agent] += reward
            if termination or truncation:
                game.step(None)
                continue
            game.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
            steps += 1
        seconds = time.perf_counter() - started
        print(f"{name}: {steps} random steps in {seconds:.2f} s, rewards {totals}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2, help="MCTS-vs-heuristic games")
    parser.add_argument("--simulations", type=int, default=20, help="MCTS simulations a move")
    parser.add_argument("--steps", type=int, default=2000, help="random steps a game at most")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    results = mcts_against_heuristic(args.games, args.simulations, args.seed)
    wins = sum(1 for r in results if r > 0)
    print(f"MCTS ({args.simulations} simulations) vs heuristic: {wins}/{len(results)} won")
    random_policy_loops(args.steps, args.seed)


if __name__ == "__main__":
    main()
