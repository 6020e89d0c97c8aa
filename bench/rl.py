"""PettingZoo environment steps per second, next to PettingZoo's own chess_v6.

    python bench/rl.py                   # every game's first variant, ~3 s a row
    python bench/rl.py --seconds 10      # longer, steadier rows
    python bench/rl.py --all             # every variant (mode and seat count)

A step is what a learning loop does per decision: ``env.last()`` (the agent's
observation tensor and action mask), a uniform choice among the mask's legal
actions with a seeded numpy generator, and ``env.step(action)``; games are
played to the end and reset (``reset(seed=n)``, the deal included in the
time), as many as fit in the time budget (the last one is finished). The
closing steps of terminated agents (``step(None)``) are not counted.
PettingZoo's chess_v6 (wrapped as ``chess_v6.env()``) is measured the same
way in the same run, so the ratios are comparable across machines. Both are
wrapped the classic way (``throneroom_rl.pettingzoo.env``). One core.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from typing import Any

import numpy as np
from pettingzoo.classic import chess_v6
from throneroom_rl.pettingzoo import env
from throneroom_rl.table import rl_game_names, variants


def steps_per_second(make: Callable[[], Any], seconds: float, seed: int = 0) -> tuple[float, int]:
    """(steps per second, games played) of random legal actions within ``seconds``."""
    rng = np.random.default_rng(seed)
    game = make()
    steps = games = 0
    started = time.perf_counter()
    while time.perf_counter() - started < seconds:
        game.reset(seed=seed + games)
        for _ in game.agent_iter():
            observation, _, termination, truncation, _ = game.last()
            if termination or truncation:
                game.step(None)
                continue
            game.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
            steps += 1
        games += 1
    return steps / (time.perf_counter() - started), games


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="time budget a row")
    parser.add_argument("--all", action="store_true", help="every variant of every game")
    args = parser.parse_args(argv)
    chess, chess_games = steps_per_second(chess_v6.env, args.seconds)
    print(f"{'environment':<36} {'steps/s':>9} {'games':>6} {'vs chess_v6':>12}")
    print(f"{'chess_v6':<36} {chess:>9.0f} {chess_games:>6} {1.0:>11.2f}x")
    for name in rl_game_names():
        rows = variants(name) if args.all else variants(name)[:1]
        for variant in rows:
            options = dict(variant.options)
            rate, games = steps_per_second(
                lambda name=name, variant=variant, options=options: env(
                    name, variant.seats, options
                ),
                args.seconds,
            )
            label = f"{name} {variant.label}"
            print(f"{label:<36} {rate:>9.0f} {games:>6} {rate / chess:>11.2f}x")


if __name__ == "__main__":
    main()
