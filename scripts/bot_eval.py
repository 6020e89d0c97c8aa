"""Evaluate a game's heuristic bot against RandomBots on the embedded engine.

Usage:
  python scripts/bot_eval.py GAME [--trial N] [--games N] [--seats N] [--option NAME=VALUE]
                             [--jobs N]
  python scripts/bot_eval.py --all       # every game's trials that `make bots` runs
  python scripts/bot_eval.py --list      # every game's trials

Each game declares the evaluations its heuristic bot must pass, as
``BotTrial``s (``throneroom.games.protocol``), from its own package: which
bots sit where in game number ``n`` (seeded ``n``), what counts as a win,
which tally a game counts in (Kill the King: the side the bot played) and the
goal. Nothing here names a game. Games go on, with seeds 0, 1, 2, ..., until
each tally has ``--games`` games; a tally's games beyond that are played but
not counted (so every tally counts its first games in seed order). Each bot
sees only its own view and legal moves, exactly as through the service.
Games are independent and seeded, so ``--jobs`` processes play them at once
(default: the CPU count) and the counts never depend on it; the speed printed
is games per CPU second, summed over the processes.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import sys
import time
from typing import Any

from throneroom.bots import Bot
from throneroom.envelopes import unwrap, wrap
from throneroom.games.protocol import BotTrial, game_client, game_clients
from throneroom.tournament.standings import wilson_interval
from throneroom.v1 import game_pb2
from throneroom_server.games.registry import AnyGame, build_registry


def play_state(
    game: AnyGame, options: Any, bots: list[Bot], seed: int, *, take_turns: bool = False
) -> tuple[list[int], int, Any]:
    """One game to its end: (winners, decisions, the final state). Several seats
    to act: the first, or with ``take_turns`` each in turn (Giga teams place
    their pool together)."""
    name = game.info.name
    state = game.setup(options, len(bots), seed)
    decisions = 0
    while acting := game.to_act(state):
        seat = acting[decisions % len(acting)] if take_turns else acting[0]
        view = wrap(game_pb2.View, name, game.view(state, seat))
        legal = [wrap(game_pb2.Move, name, m) for m in game.legal_moves(state, seat)]
        chosen = bots[seat].choose(name, seat, view, legal)
        state, _ = game.apply(state, seat, unwrap(chosen))
        decisions += 1
    outcome = game.outcome(state)
    assert outcome is not None
    return list(outcome.winners), decisions, state


def _trial(name: str, index: int) -> BotTrial:
    return game_client(name).bot_trials()[index]


Job = tuple[str, int, int, int, tuple[tuple[str, Any], ...]]


def _game(job: Job) -> tuple[str, bool, bool, int, float]:
    """Game ``number`` of a trial: (its tally, won, shared, decisions, CPU s)."""
    name, index, number, seats, options = job
    start = time.process_time()
    trial = _trial(name, index)
    game = build_registry(include_fixtures=True)[name]
    message = game.default_options()
    for option, value in options:
        setattr(message, option, value)
    bots = trial.bots(number, seats)
    winners, moves, state = play_state(game, message, bots, number, take_turns=trial.take_turns)
    won = trial.won(winners, number, seats)
    return (
        trial.group(state, number),
        won,
        won and len(winners) > 1,
        moves,
        time.process_time() - start,
    )


def evaluate(
    name: str, index: int, games: int | None, seats: int | None, jobs: int, **options: Any
) -> bool:
    """Play one trial; print its tallies; whether each reached the goal."""
    trial = _trial(name, index)
    games = games or trial.games
    seats = seats or trial.seats
    chosen = tuple(sorted({**trial.options, **options}.items()))
    wins = dict.fromkeys(trial.groups, 0)
    shared = dict.fromkeys(trial.groups, 0)
    counted = dict.fromkeys(trial.groups, 0)
    decisions = played = number = 0
    cpu = 0.0
    with multiprocessing.Pool(jobs) as pool:
        while min(counted.values()) < games:
            batch = [(name, index, n, seats, chosen) for n in range(number, number + 4 * jobs)]
            number += len(batch)
            for group, won, both, moves, seconds in pool.imap(_game, batch):
                if min(counted.values()) >= games:
                    break  # games past the last one counted do not count either
                decisions += moves
                played += 1
                cpu += seconds
                if counted[group] < games:
                    counted[group] += 1
                    wins[group] += won
                    shared[group] += both
    hero = next(bot.name for bot in trial.bots(0, seats) if bot.name != "random")
    print(
        f"{trial.label}: {hero} vs RandomBots at {seats} seats"
        f"{''.join(f', {k}={v}' for k, v in options.items())}, {played} games played "
        f"({decisions} decisions, {cpu:.1f} s CPU in {jobs} processes, "
        f"{played / cpu:.2f} games per CPU second)"
    )
    passed = True
    for group in trial.groups:
        rate = wins[group] / counted[group]
        low, high = wilson_interval(wins[group], counted[group])
        ok = rate >= trial.goal
        passed &= ok
        print(
            f"  {f'as the {group}: ' if group else ''}won {wins[group]} of {counted[group]} "
            f"({rate:.1%}, 95% Wilson {low:.1%}-{high:.1%}; {shared[group]} shared): "
            f"{'PASS' if ok else 'FAIL'}"
        )
    each = " for each side" if len(trial.groups) > 1 else ""
    print(f"verdict: {'PASS' if passed else 'FAIL'} (goal: at least {trial.goal:.0%}{each})")
    return passed


def _value(text: str) -> Any:
    if text.lower() in ("true", "false"):
        return text.lower() == "true"
    try:
        return int(text)
    except ValueError:
        return text


def main() -> int:
    with_trials = [n for n, c in game_clients().items() if c.bot_trials()]
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", nargs="?", choices=with_trials)
    parser.add_argument("--all", action="store_true", help="every trial `make bots` runs")
    parser.add_argument("--list", action="store_true", help="list every game's trials")
    parser.add_argument("--trial", type=int, default=0, help="which of the game's trials (--list)")
    parser.add_argument("--games", type=int, help="counted games per tally (default: the trial's)")
    parser.add_argument("--seats", type=int, help="default: the trial's seat count")
    parser.add_argument(
        "--option", action="append", default=[], metavar="NAME=VALUE", help="a game option"
    )
    parser.add_argument(
        "--jobs",
        type=int,
        default=os.cpu_count() or 1,
        help="games played at once, in processes (default: the CPU count); "
        "the results do not depend on it",
    )
    ns = parser.parse_args()
    if ns.list:
        for name in with_trials:
            for i, trial in enumerate(game_client(name).bot_trials()):
                where = "" if trial.make_target else " (not in make bots)"
                print(f"{name} --trial {i}: {trial.label}, {trial.seats} seats{where}")
        return 0
    if ns.all:
        runs = [
            (name, i)
            for name in with_trials
            for i, trial in enumerate(game_client(name).bot_trials())
            if trial.make_target
        ]
        results = [evaluate(name, i, ns.games, ns.seats, ns.jobs) for name, i in runs]
        return 0 if all(results) else 1
    if ns.game is None:
        parser.error("name a game, or --all or --list")
    trials = game_client(ns.game).bot_trials()
    if not 0 <= ns.trial < len(trials):
        parser.error(f"{ns.game} has trials 0..{len(trials) - 1} (--list)")
    options = dict(o.split("=", 1) for o in ns.option)
    passed = evaluate(
        ns.game,
        ns.trial,
        ns.games,
        ns.seats,
        ns.jobs,
        **{k: _value(v) for k, v in options.items()},
    )
    return 0 if passed else 1


if __name__ == "__main__":
    sys.exit(main())
