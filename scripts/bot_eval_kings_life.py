"""Evaluate KingsLifeBot: 200 seeded 5-player games against four RandomBots.

Usage: python scripts/bot_eval_kings_life.py [--games 200] [--seats 5]

The games run on the embedded engine (no server). The heuristic bot takes
seat ``game % seats`` so it plays every position equally often; each bot sees
only its own view and legal moves, exactly as through the service. A win is
being among the winners (a shared victory counts, and is also reported
apart). The goal is a win rate of at least 40% (a random seat wins ~20%).
"""

from __future__ import annotations

import argparse
import sys
import time

from throneroom.bots import Bot, RandomBot
from throneroom.bots.kings_life import KingsLifeBot
from throneroom.envelopes import unwrap, wrap
from throneroom.v1 import game_pb2
from throneroom.v1.kings_life_pb2 import KingsLifeMove
from throneroom_server.games.kings_life import KingsLife

GOAL = 0.40


def play(engine: KingsLife, bots: list[Bot], seed: int) -> tuple[list[int], int]:
    """One game to its end: (winners, decisions)."""
    state = engine.setup(engine.default_options(), len(bots), seed)
    decisions = 0
    while acting := engine.to_act(state):
        seat = acting[0]
        view = wrap(game_pb2.View, "kings_life", engine.view(state, seat))
        legal = [wrap(game_pb2.Move, "kings_life", m) for m in engine.legal_moves(state, seat)]
        chosen = bots[seat].choose("kings_life", seat, view, legal)
        move = unwrap(chosen)
        assert isinstance(move, KingsLifeMove)
        state, _ = engine.apply(state, seat, move)
        decisions += 1
    outcome = engine.outcome(state)
    assert outcome is not None
    return list(outcome.winners), decisions


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seats", type=int, default=5)
    ns = parser.parse_args()
    engine = KingsLife()
    wins = shared = decisions = 0
    start = time.perf_counter()
    for game in range(ns.games):
        hero = game % ns.seats
        bots: list[Bot] = [RandomBot(seed=game * 100 + s) for s in range(ns.seats)]
        bots[hero] = KingsLifeBot(seed=game)
        winners, moves = play(engine, bots, seed=game)
        decisions += moves
        if hero in winners:
            wins += 1
            shared += len(winners) > 1
    elapsed = time.perf_counter() - start
    rate = wins / ns.games
    print(
        f"KingsLifeBot vs {ns.seats - 1} RandomBots, {ns.games} games ({decisions} decisions, "
        f"{elapsed:.1f} s): won {wins} ({rate:.1%}), of which {shared} shared; "
        f"outright {wins - shared} ({(wins - shared) / ns.games:.1%}); "
        f"a random seat wins ~{1 / ns.seats:.0%}"
    )
    verdict = "PASS" if rate >= GOAL else "FAIL"
    print(f"verdict: {verdict} (goal: at least {GOAL:.0%} of the games)")
    return 0 if rate >= GOAL else 1


if __name__ == "__main__":
    sys.exit(main())
