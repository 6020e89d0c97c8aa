"""Evaluate KingIsDeadBot: 200 seeded 2-player games against RandomBot.

Usage: python scripts/bot_eval_king_is_dead.py [--games 200] [--seats 2] [--mordred]

The games run on the embedded engine (no server). The heuristic bot sits in
seat 0 in even games and seat 1 in odd ones; each bot sees only its own view
and legal moves, exactly as through the service. A win is being among the
winners. The goal is a win rate of at least 70%.
"""

from __future__ import annotations

import argparse
import sys
import time

from throneroom.bots import Bot, RandomBot
from throneroom.bots.king_is_dead import KingIsDeadBot
from throneroom.envelopes import unwrap, wrap
from throneroom.v1 import game_pb2
from throneroom_server.games.king_is_dead import KingIsDead

GOAL = 0.70


def play(engine: KingIsDead, bots: list[Bot], seed: int, mordred: bool) -> tuple[list[int], int]:
    """One game to its end: (winners, decisions)."""
    options = engine.default_options()
    options.mordred = mordred
    state = engine.setup(options, len(bots), seed)
    decisions = 0
    while acting := engine.to_act(state):
        seat = acting[0]
        view = wrap(game_pb2.View, "king_is_dead", engine.view(state, seat))
        legal = [wrap(game_pb2.Move, "king_is_dead", m) for m in engine.legal_moves(state, seat)]
        chosen = bots[seat].choose("king_is_dead", seat, view, legal)
        state, _ = engine.apply(state, seat, unwrap(chosen))  # type: ignore[arg-type]
        decisions += 1
    outcome = engine.outcome(state)
    assert outcome is not None
    return list(outcome.winners), decisions


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seats", type=int, default=2)
    parser.add_argument("--mordred", action="store_true")
    ns = parser.parse_args()
    engine = KingIsDead()
    wins = shared = decisions = 0
    start = time.perf_counter()
    for game in range(ns.games):
        hero = game % ns.seats
        bots: list[Bot] = [RandomBot(seed=game * 100 + s) for s in range(ns.seats)]
        bots[hero] = KingIsDeadBot(seed=game)
        winners, moves = play(engine, bots, seed=game, mordred=ns.mordred)
        decisions += moves
        if hero in winners:
            wins += 1
            shared += len(winners) > 1
    elapsed = time.perf_counter() - start
    rate = wins / ns.games
    print(
        f"KingIsDeadBot vs {ns.seats - 1} RandomBot(s), {ns.games} games"
        f"{' (Mordred)' if ns.mordred else ''} ({decisions} decisions, {elapsed:.1f} s): "
        f"won {wins} ({rate:.1%}), of which {shared} shared; a random seat wins "
        f"~{1 / ns.seats:.0%}"
    )
    verdict = "PASS" if rate >= GOAL else "FAIL"
    print(f"verdict: {verdict} (goal: at least {GOAL:.0%} of the games)")
    return 0 if rate >= GOAL else 1


if __name__ == "__main__":
    sys.exit(main())
