"""Evaluate a game's heuristic bot against RandomBots on the embedded engine.

Usage:
  python scripts/bot_eval.py king_is_dead [--games 200] [--seats 2] [--mordred]
  python scripts/bot_eval.py kings_life   [--games 200] [--seats 5]

The heuristic bot takes seat ``game % seats`` in game number ``game`` (so it
sits in every seat in turn); the other seats are seeded RandomBots. Each bot
sees only its own view and legal moves, exactly as through the service. A win
is being among the winners. Goals (issues #3 and #4): King Is Dead, 2 players:
at least 70%; King's Life, 5 players: at least 40%.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from throneroom.bots import Bot, RandomBot
from throneroom.bots.king_is_dead import KingIsDeadBot
from throneroom.bots.kings_life import KingsLifeBot
from throneroom.envelopes import unwrap, wrap
from throneroom.v1 import game_pb2
from throneroom_server.games.registry import AnyGame, build_registry


@dataclass(frozen=True)
class Evaluation:
    bot: Callable[[int], Bot]
    seats: int
    goal: float


EVALUATIONS = {
    "king_is_dead": Evaluation(lambda seed: KingIsDeadBot(seed=seed), seats=2, goal=0.70),
    "kings_life": Evaluation(lambda seed: KingsLifeBot(seed=seed), seats=5, goal=0.40),
}


def play(game: AnyGame, options: Any, bots: list[Bot], seed: int) -> tuple[list[int], int]:
    """One game to its end: (winners, decisions)."""
    name = game.info.name
    state = game.setup(options, len(bots), seed)
    decisions = 0
    while acting := game.to_act(state):
        seat = acting[0]
        view = wrap(game_pb2.View, name, game.view(state, seat))
        legal = [wrap(game_pb2.Move, name, m) for m in game.legal_moves(state, seat)]
        chosen = bots[seat].choose(name, seat, view, legal)
        state, _ = game.apply(state, seat, unwrap(chosen))
        decisions += 1
    outcome = game.outcome(state)
    assert outcome is not None
    return list(outcome.winners), decisions


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", choices=sorted(EVALUATIONS))
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seats", type=int, help="default: the goal's seat count")
    parser.add_argument("--mordred", action="store_true", help="King Is Dead's Mordred variant")
    ns = parser.parse_args()
    evaluation = EVALUATIONS[ns.game]
    seats = ns.seats or evaluation.seats
    game = build_registry()[ns.game]
    options = game.default_options()
    if ns.mordred:
        options.mordred = True
    wins = shared = decisions = 0
    start = time.perf_counter()
    for number in range(ns.games):
        hero = number % seats
        bots: list[Bot] = [RandomBot(seed=number * 100 + s) for s in range(seats)]
        bots[hero] = evaluation.bot(number)
        winners, moves = play(game, options, bots, seed=number)
        decisions += moves
        if hero in winners:
            wins += 1
            shared += len(winners) > 1
    elapsed = time.perf_counter() - start
    rate = wins / ns.games
    hero_name = type(evaluation.bot(0)).__name__
    print(
        f"{hero_name} vs {seats - 1} RandomBot(s), {ns.games} games"
        f"{' (Mordred)' if ns.mordred else ''} ({decisions} decisions, {elapsed:.1f} s): "
        f"won {wins} ({rate:.1%}), of which {shared} shared; a random seat wins ~{1 / seats:.0%}"
    )
    passed = rate >= evaluation.goal
    print(f"verdict: {'PASS' if passed else 'FAIL'} (goal: at least {evaluation.goal:.0%})")
    return 0 if passed else 1


if __name__ == "__main__":
    sys.exit(main())
