"""The MCTS bot against a game's heuristic bot, in a seeded tournament.

Usage:
  python scripts/mcts_eval.py examples/tournaments/mcts_king_is_dead.toml [--check]

Plays the tournament file (a gauntlet: the MCTS bot in every seat in turn
against the heuristic bot) through the embedded server, exactly as
``throneroom tournament`` does, and prints the MCTS bot's win rate, the
heuristic bot's win rate per seat it held, both with 95% Wilson intervals,
and whether the MCTS bot won more often. ``--check`` exits 1 when it did not.
Same file, same seed: same games, same figures.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

from throneroom.tournament import load_config, run_tournament
from throneroom.tournament.standings import wilson_interval


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file")
    parser.add_argument("--check", action="store_true", help="exit 1 unless MCTS wins more")
    ns = parser.parse_args()
    config = load_config(ns.file)
    start = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        records = run_tournament(config, Path(tmp) / "results.jsonl")
    elapsed = time.perf_counter() - start
    hero = config.hero
    hero_games = hero_wins = field_seats = field_wins = 0
    for record in records:
        for seat, name in enumerate(record.entrants):
            won = seat in record.winners
            if name == hero:
                hero_games += 1
                hero_wins += won
            else:
                field_seats += 1
                field_wins += won
    failures = sum(len(r.failures) for r in records)
    low, high = wilson_interval(hero_wins, hero_games)
    f_low, f_high = wilson_interval(field_wins, field_seats)
    hero_rate, field_rate = hero_wins / hero_games, field_wins / field_seats
    print(f"{config.name}: {len(records)} games, seed {config.seed}, {elapsed:.0f} s")
    print(f"  {hero}: {hero_wins}/{hero_games} = {hero_rate:.0%} [{low:.0%}, {high:.0%}]")
    print(
        f"  field (per seat): {field_wins}/{field_seats} = {field_rate:.0%} "
        f"[{f_low:.0%}, {f_high:.0%}]   failures: {failures}"
    )
    beats = hero_rate > field_rate
    print(f"  {hero} {'beats' if beats else 'does NOT beat'} the field")
    return 1 if ns.check and not beats else 0


if __name__ == "__main__":
    sys.exit(main())
