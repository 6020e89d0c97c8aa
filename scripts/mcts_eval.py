"""The MCTS bot against a game's heuristic bot, in a seeded tournament.

Usage:
  python scripts/mcts_eval.py examples/tournaments/mcts_king_is_dead.toml [--check]
  python scripts/mcts_eval.py examples/tournaments/mcts_kings_life.toml --seats 5
  python scripts/mcts_eval.py FILE --results kid.jsonl --concurrency 1   # resumable, one core

Plays the tournament file (a gauntlet: the MCTS bot in every seat in turn
against the heuristic bot in all the others) through the embedded server,
exactly as ``throneroom tournament`` does, and prints the MCTS bot's win
rate, the field's win rate per seat it held (the heuristic bots' average share
in the same games), both with 95% Wilson intervals, and the time taken.

The criterion ("the MCTS bot beats the heuristic bot"), over the N games of
the file: a game is won by each seat among its winners (a shared victory
counts for each); the MCTS bot's win rate is its wins / N, the field's is its
wins / its seats ((seats - 1) N); the fair share is 1 / seats (what a bot as
strong as the field wins, but for shared victories). The MCTS bot beats the
field when BOTH
  1. the lower bound of the 95% Wilson interval of its win rate is above the
     fair share (its advantage is not luck at the 2.5% level), and
  2. its win rate is above the field's per-seat win rate.
``--check`` exits 1 when it does not. Same file, same seed: same games, same
figures (at any concurrency: the bots are seeded, the clock is generous).
With ``--results FILE`` the records are kept there and a rerun resumes from
them (the figures then cover every game in the file; the time, only this
run's).
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
import tempfile
import time
from pathlib import Path

from throneroom.tournament import ResultsFile, load_config, run_tournament
from throneroom.tournament.standings import wilson_interval


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file")
    parser.add_argument("--check", action="store_true", help="exit 1 unless MCTS beats the field")
    parser.add_argument("--seats", type=int, help="play at this seat count instead of the file's")
    parser.add_argument(
        "--results",
        type=Path,
        help="keep the results in this file (a rerun resumes from it; default: a temporary file)",
    )
    parser.add_argument("--concurrency", type=int, help="matches at a time instead of the file's")
    ns = parser.parse_args()
    config = load_config(ns.file)
    if ns.seats:
        config = dataclasses.replace(config, seats=ns.seats)
    if ns.concurrency:
        config = dataclasses.replace(config, concurrency=ns.concurrency)
    start, cpu = time.perf_counter(), time.process_time()
    before = 0
    if ns.results:
        before = len(ResultsFile(ns.results, config).records)  # resumed: not timed here
        records = run_tournament(config, ns.results)
    else:
        with tempfile.TemporaryDirectory() as tmp:
            records = run_tournament(config, Path(tmp) / "results.jsonl")
    elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu
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
    verdict = judge(hero_wins, hero_games, field_wins, field_seats, config.seats)
    played = len(records) - before
    print(
        f"{config.name}: {len(records)} games at {config.seats} seats, seed {config.seed}, "
        f"{elapsed:.0f} s for {played} ({elapsed / max(1, played):.1f} s a game; CPU "
        f"{cpu / max(1, played):.1f} s a game), failures: {failures}"
    )
    print(f"  {hero}: {verdict.hero}")
    print(f"  field (per seat): {verdict.field}   fair share: {verdict.fair:.0%}")
    print(f"  {hero} {'beats' if verdict.beats else 'does NOT beat'} the field ({verdict.reason})")
    return 1 if ns.check and not verdict.beats else 0


@dataclasses.dataclass(frozen=True)
class Rate:
    wins: int
    games: int

    def __str__(self) -> str:
        low, high = wilson_interval(self.wins, self.games)
        rate = self.wins / self.games if self.games else 0.0
        return f"{self.wins}/{self.games} = {rate:.0%} [{low:.0%}, {high:.0%}]"


@dataclasses.dataclass(frozen=True)
class Verdict:
    hero: Rate
    field: Rate
    fair: float
    beats: bool
    reason: str


def judge(
    hero_wins: int, hero_games: int, field_wins: int, field_seats: int, seats: int
) -> Verdict:
    """The criterion of the module docstring."""
    hero, field = Rate(hero_wins, hero_games), Rate(field_wins, field_seats)
    fair = 1 / seats
    low, _ = wilson_interval(hero_wins, hero_games)
    hero_rate = hero_wins / hero_games if hero_games else 0.0
    field_rate = field_wins / field_seats if field_seats else 0.0
    if low <= fair:
        return Verdict(hero, field, fair, False, f"interval's lower bound {low:.1%} <= {fair:.0%}")
    if hero_rate <= field_rate:
        return Verdict(hero, field, fair, False, "win rate not above the field's")
    return Verdict(hero, field, fair, True, f"lower bound {low:.1%} > {fair:.0%}")


if __name__ == "__main__":
    sys.exit(main())
