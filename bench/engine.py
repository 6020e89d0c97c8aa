"""Engine benchmark: random-play decisions per second, next to python-chess.

    python bench/engine.py                      # every real game (and Nim), ~3 s a row
    python bench/engine.py --seconds 10         # longer, steadier rows
    python bench/engine.py --profile GAME [--seats 4]   # cProfile, top 25 lines

The rows are each game's own test variants (its definition's
``testing.variants``: seat counts and options, the ones the conformance suite
plays), so a game declares once what is worth measuring; a game declaring
none is measured at every seat count with its default options.

A decision is one legal_moves() call for a seat to act, a uniform choice with a
seeded random.Random, and one apply(); games are played to their outcome
(setup included in the time), as many as fit in the time budget (the last
one is finished). python-chess is measured the same way in the same run
(list(board.legal_moves), random choice, push, board.is_game_over(); games
capped at 300 plies) so the ratio is comparable across machines. One core:
nothing runs in parallel.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import random
import sys
import time
from dataclasses import dataclass

import chess
from google.protobuf.message import Message
from throneroom_server.games.kit import Variant
from throneroom_server.games.registry import AnyGame, build_registry, real_game_names

CHESS_PLY_CAP = 300


@dataclass(frozen=True)
class Rate:
    games: int
    decisions: int
    seconds: float

    @property
    def per_second(self) -> float:
        return self.decisions / self.seconds if self.seconds else 0.0


Values = tuple[tuple[str, bool | int | str], ...]


def options_of(game: AnyGame, values: Values) -> Message:
    options: Message = game.default_options()
    for name, value in values:
        setattr(options, name, value)
    return options


def play_one(
    game: AnyGame,
    seats: int,
    seed: int,
    chooser: random.Random,
    values: Values = (),
) -> int:
    """Play one random game to its outcome; the number of decisions made."""
    state = game.setup(options_of(game, values), seats, seed)
    decisions = 0
    while acting := game.to_act(state):
        seat = acting[chooser.randrange(len(acting))] if len(acting) > 1 else acting[0]
        moves = game.legal_moves(state, seat)
        state, _ = game.apply(state, seat, moves[chooser.randrange(len(moves))])
        decisions += 1
    return decisions


def measure_game(
    game: AnyGame,
    seats: int,
    seconds: float,
    seed: int = 1,
    values: Values = (),
) -> Rate:
    chooser = random.Random(seed)
    games = decisions = 0
    start = time.perf_counter()
    while True:
        decisions += play_one(game, seats, seed + games, chooser, values)
        games += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return Rate(games, decisions, elapsed)


def measure_chess(seconds: float, seed: int = 1) -> Rate:
    chooser = random.Random(seed)
    games = plies = 0
    start = time.perf_counter()
    while True:
        board = chess.Board()
        for _ in range(CHESS_PLY_CAP):
            if board.is_game_over():
                break
            moves = list(board.legal_moves)
            board.push(moves[chooser.randrange(len(moves))])
            plies += 1
        games += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return Rate(games, plies, elapsed)


Row = tuple[str, int, str, Values]


def variants_of(game: AnyGame) -> tuple[Variant, ...]:
    """The game's declared test variants (default: every seat count, default options)."""
    declared: tuple[Variant, ...] = game.testing.variants
    info = game.info
    return declared or tuple(Variant(n) for n in range(info.min_seats, info.max_seats + 1))


def rows() -> list[Row]:
    """(game, seats, options label, options) to measure: the real games' test
    variants, then the fixture games' as a reference."""
    games = build_registry(include_fixtures=True)
    real = real_game_names()
    out: list[Row] = []
    for name in [*real, *(n for n in games if n not in real)]:
        for variant in variants_of(games[name]):
            label = variant.label.partition("-")[2]
            out.append((name, variant.seats, label, variant.options))
    return out


def run_table(seconds: float) -> None:
    games = build_registry(include_fixtures=True)
    print(
        f"Random play on one core, {seconds:g} s a row: decisions/s = legal_moves + uniform "
        "choice + apply over complete games; chess = python-chess random plies/s "
        f"(<= {CHESS_PLY_CAP} plies a game) in this run; ratio = decisions/s / chess plies/s."
    )
    chess_rate = measure_chess(seconds)
    header = f"{'game':<28}{'seats':>6}{'games':>8}{'decisions/game':>16}"
    print(header + f"{'decisions/s':>13}{'chess plies/s':>15}{'ratio':>8}")
    for name, seats, options_label, values in rows():
        game = games[name]
        info = game.info
        shown = f"{name} {options_label}" if options_label else name
        label = f"{shown:<28}{seats:>6}"
        if not info.min_seats <= seats <= info.max_seats:
            print(f"{label}  skipped: the engine plays {info.min_seats}..{info.max_seats} seats")
            continue
        rate = measure_game(game, seats, seconds, values=values)
        ratio = rate.per_second / chess_rate.per_second
        print(
            f"{label}{rate.games:>8}{rate.decisions / rate.games:>16.1f}"
            f"{rate.per_second:>13,.0f}{chess_rate.per_second:>15,.0f}{ratio:>8.2f}"
        )


def run_profile(name: str, seats: int | None, seconds: float, sort: str) -> None:
    games = build_registry(include_fixtures=True)
    if name not in games:
        raise SystemExit(f"no game named {name!r}; registered: {', '.join(games)}")
    game = games[name]
    seats = seats or max(variant.seats for variant in variants_of(game))
    profiler = cProfile.Profile()
    profiler.enable()
    rate = measure_game(game, seats, seconds)
    profiler.disable()
    print(
        f"{name}, {seats} seats: {rate.games} games, {rate.decisions} decisions in "
        f"{rate.seconds:.1f} s under cProfile (slower than unprofiled); top 25 by {sort}:"
    )
    pstats.Stats(profiler, stream=sys.stdout).strip_dirs().sort_stats(sort).print_stats(25)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="time budget per row")
    parser.add_argument("--profile", metavar="GAME", help="profile random play of one game")
    parser.add_argument("--seats", type=int, help="seat count for --profile")
    parser.add_argument(
        "--sort", default="cumulative", help="pstats sort key for --profile (e.g. tottime)"
    )
    args = parser.parse_args(argv)
    if args.profile:
        run_profile(args.profile, args.seats, args.seconds, args.sort)
    else:
        run_table(args.seconds)
    return 0


if __name__ == "__main__":
    sys.exit(main())
