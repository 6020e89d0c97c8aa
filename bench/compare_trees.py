"""Random-play speed of two source trees, run alternately: decisions/s and ratios.

    python bench/compare_trees.py --base /path/to/other/tree           # this tree vs another
    python bench/compare_trees.py --base ../base --rows king_is_dead:3 --runs 5
    python bench/compare_trees.py --base ../base --callgrind --games 40   # instruction counts
    python bench/compare_trees.py --base ../base --rows kill_the_king:2:mode=2,advanced=1
    python bench/compare_trees.py --base ../base --digest --views --games 100   # views checked too

Each measurement is a fresh process whose ``PYTHONPATH`` is one tree's
``service`` and ``sdk`` directories (it prints the file it imported the
registry from, so a wrong path shows); the driver is this file in both, so
both trees play the same loop as ``bench/engine.py``'s ``play_one`` (legal
moves, a seeded uniform choice, apply) over the same seeds. Time is the
process's CPU time (``time.process_time``), so other jobs on the machine slow
a run less than wall time would; the trees alternate run by run and the
table gives every run, the best and the median, and this tree's ratio to the
base (> 1: faster).

``--digest`` checks that both trees play the same games: a fixed number of
games (``--games``) from seed 1 per row, hashing every decision's legal-move
list, the move chosen, the state after it and its events (a differential
check of a speed change: the digests must be equal).

``--views`` adds, at every decision (in every mode), the views of the state
after the move through the game's public API, as the service builds them:
``view(state, None)`` (the spectator's) and ``view(state, seat)`` for every
seat; and, for a game declaring ``seat_view``, a copy of the spectator's view
turned into each seat's by ``seat_view`` (the service's shared snapshot),
which must equal that seat's own view (the worker stops if not). With
``--digest`` they are hashed too; with ``--callgrind`` they are counted too.

``--callgrind`` counts instructions instead (``--phase NAME``: only the
decisions of that phase, each inside ``operator.call``) (valgrind's callgrind, repeatable
under load): a fixed number of games (``--games``) from seed 1, per decision.
Only the games are counted (not the imports): the worker plays them inside
``operator.call``, the one C function callgrind is told to collect within
(``--toggle-collect``); neither tree calls it otherwise.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import operator
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent.parent
VIEWS_TOO = "; every decision's views built too (--views)"
DEFAULT_ROWS = (
    "king_is_dead:2",
    "king_is_dead:3",
    "king_is_dead:4",
    "kings_life:4",
    "kings_life:8",
    "nim:2",
)


# -- the worker: runs inside one tree ------------------------------------------------------


def new_game(game: Any, seats: int, seed: int, values: dict[str, int] | None) -> Any:
    """A new game of ``seats`` with the default options but ``values``."""
    options = game.default_options()
    for name, value in (values or {}).items():
        setattr(options, name, value)
    return game.setup(options, seats, seed)


def views_of(game: Any, state: Any, seats: int) -> list[Any]:
    """``state``'s views as the service builds them (``--views``): the spectator's,
    each seat's own, and (a game with ``seat_view``) each seat's from a copy of the
    spectator's, which must equal the seat's own."""
    spectator = game.view(state, None)
    views = [spectator, *(game.view(state, seat) for seat in range(seats))]
    seat_view = getattr(game, "seat_view", None)
    if seat_view is not None:
        for seat in range(seats):
            shared = type(spectator)()
            shared.CopyFrom(spectator)
            seat_view(state, seat, shared)
            if shared != views[1 + seat]:
                raise SystemExit(f"seat {seat}: seat_view differs from the seat's own view")
            views.append(shared)
    return views


def play_one(
    game: Any,
    seats: int,
    seed: int,
    chooser: random.Random,
    values: dict[str, int] | None = None,
    *,
    views: bool = False,
) -> int:
    """One random game to its outcome (``bench/engine.py``'s loop, with ``views``
    each state's views built after the move); its decisions."""
    state = new_game(game, seats, seed, values)
    decisions = 0
    while acting := game.to_act(state):
        seat = acting[chooser.randrange(len(acting))] if len(acting) > 1 else acting[0]
        moves = game.legal_moves(state, seat)
        state, _ = game.apply(state, seat, moves[chooser.randrange(len(moves))])
        if views:
            views_of(game, state, seats)
        decisions += 1
    return decisions


def digest_games(
    game: Any, seats: int, games: int, values: dict[str, int] | None = None, *, views: bool = False
) -> tuple[str, int]:
    """``play_one``'s games from seed 1, every decision's legal moves, move,
    state after and events (and with ``views`` its views) hashed: (hex digest,
    decisions)."""
    chooser = random.Random(1)
    digest = hashlib.sha256()
    decisions = 0
    for played in range(games):
        state = new_game(game, seats, 1 + played, values)
        digest.update(state.SerializeToString(deterministic=True))
        while acting := game.to_act(state):
            seat = acting[chooser.randrange(len(acting))] if len(acting) > 1 else acting[0]
            moves = game.legal_moves(state, seat)
            for m in moves:
                digest.update(m.SerializeToString(deterministic=True))
            digest.update(b"|%d|" % len(moves))
            state, events = game.apply(state, seat, moves[chooser.randrange(len(moves))])
            digest.update(state.SerializeToString(deterministic=True))
            for e in events:
                digest.update(e.SerializeToString(deterministic=True))
            digest.update(b"|%d|" % len(events))
            if views:
                for view in views_of(game, state, seats):
                    digest.update(view.SerializeToString(deterministic=True))
                digest.update(b"|views|")
            decisions += 1
    return digest.hexdigest(), decisions


def phase_games(
    game: Any,
    seats: int,
    games: int,
    values: dict[str, int] | None,
    phase: str,
    *,
    views: bool = False,
) -> int:
    """``play_one``'s games from seed 1 (the same choices), each decision of
    ``phase`` (its legal moves, the choice, the apply, with ``views`` the views
    after it) played inside ``operator.call`` (what --callgrind counts): that
    phase's decisions."""
    chooser = random.Random(1)
    counted = 0
    for played in range(games):
        state = new_game(game, seats, 1 + played, values)
        while acting := game.to_act(state):
            seat = acting[chooser.randrange(len(acting))] if len(acting) > 1 else acting[0]

            def decide(state: Any = state, seat: int = seat) -> Any:
                moves = game.legal_moves(state, seat)
                after = game.apply(state, seat, moves[chooser.randrange(len(moves))])[0]
                if views:
                    views_of(game, after, seats)
                return after

            if game.phase(state).name == phase:
                state = operator.call(decide)
                counted += 1
            else:
                state = decide()
    return counted


def parse_row(row: str) -> tuple[str, str, dict[str, int]]:
    """``game:seats`` or ``game:seats:option=value,...`` -> (game, seats, options)."""
    name, seats, *rest = row.split(":")
    values = {}
    for pair in rest[0].split(",") if rest and rest[0] else []:
        option, value = pair.split("=")
        values[option] = int(value)
    return name, seats, values


def worker(
    name: str,
    seats: int,
    seconds: float,
    games: int,
    values: dict[str, int] | None = None,
    *,
    digest: bool = False,
    phase: str = "",
    views: bool = False,
) -> dict[str, Any]:
    """Play ``games`` games (or, with 0, until ``seconds`` of CPU time) from seed 1."""
    # Imported here: the worker's PYTHONPATH picks the tree; the driver imports no tree.
    from throneroom_server.games import registry  # noqa: PLC0415

    game = registry.build_registry(include_fixtures=True)[name]
    chooser = random.Random(1)

    def play() -> tuple[int, int]:
        played = decisions = 0
        while games or seconds > 0:
            if games and played >= games:
                break
            decisions += play_one(game, seats, 1 + played, chooser, values, views=views)
            played += 1
            if not games and time.process_time() - start >= seconds:
                break
        return played, decisions

    if digest:
        hexdigest, decisions = digest_games(game, seats, games, values, views=views)
        return {
            "games": games,
            "decisions": decisions,
            "digest": hexdigest,
            "module": registry.__file__,
        }
    if phase:
        decisions = phase_games(game, seats, games, values, phase, views=views)
        return {"games": games, "decisions": decisions, "module": registry.__file__}
    start = time.process_time()
    played, decisions = operator.call(play)  # what --callgrind counts
    cpu = time.process_time() - start
    return {"games": played, "decisions": decisions, "cpu": cpu, "module": registry.__file__}


# -- the driver ------------------------------------------------------------------------------


def tree_env(tree: Path) -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(tree / "service"), str(tree / "sdk")])
    env.pop("PYTHONHASHSEED", None)
    return env


def worker_args(row: str, seconds: float, games: int, phase: str, views: bool) -> list[str]:
    """The worker's command line after this file's path."""
    name, seats, values = parse_row(row)
    command = ["--worker", name, seats, "--seconds", str(seconds), "--games", str(games)]
    command += ["--options", json.dumps(values)]
    command += ["--phase", phase] if phase else []
    command += ["--views"] if views else []
    return command


def run_worker(
    tree: Path,
    row: str,
    seconds: float,
    games: int,
    *,
    digest: bool = False,
    phase: str = "",
    views: bool = False,
) -> dict[str, Any]:
    command = [sys.executable, str(Path(__file__).resolve())]
    command += worker_args(row, seconds, games, phase, views)
    command += ["--digest"] if digest else []
    out = subprocess.run(
        command, env=tree_env(tree), check=True, capture_output=True, text=True, cwd=tree
    ).stdout
    result: dict[str, Any] = json.loads(out.strip().splitlines()[-1])
    expected = (tree / "service").resolve()
    if not Path(result["module"]).resolve().is_relative_to(expected):
        raise SystemExit(f"{tree}: imported {result['module']}, not the tree's own code")
    return result


def callgrind_instructions(
    tree: Path, row: str, games: int, phase: str = "", *, views: bool = False
) -> int:
    """Instructions of one worker process under callgrind (``games`` games)."""
    with tempfile.TemporaryDirectory() as scratch:
        out_file = Path(scratch) / "callgrind.out"
        command = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out_file}"]
        command += ["--collect-atstart=no", "--toggle-collect=*operator_call*"]
        command += [sys.executable, str(Path(__file__).resolve())]
        command += worker_args(row, 0, games, phase, views)
        env = tree_env(tree)
        env["PYTHONHASHSEED"] = "0"
        subprocess.run(command, env=env, check=True, capture_output=True, text=True, cwd=tree)
        for line in out_file.read_text().splitlines():
            if line.startswith("summary:") or line.startswith("totals:"):
                return int(line.split()[1])
    raise SystemExit("callgrind wrote no totals")


def compare_time(
    base: Path, head: Path, rows: list[str], runs: int, seconds: float, *, views: bool = False
) -> None:
    print(
        f"CPU time, {seconds:g} s a run, the trees alternating, {runs} runs each; "
        f"base = {base}, this = {head}; decisions/s per run{VIEWS_TOO if views else ''}"
    )
    for row in rows:
        rates: dict[str, list[float]] = {"base": [], "this": []}
        for _ in range(runs):
            for label, tree in (("base", base), ("this", head)):
                r = run_worker(tree, row, seconds, 0, views=views)
                rates[label].append(r["decisions"] / r["cpu"])
        for label in ("base", "this"):
            each = " ".join(f"{rate:>8,.0f}" for rate in rates[label])
            print(
                f"{row:<16} {label:<5} runs {each}   best {max(rates[label]):>8,.0f}"
                f"   median {statistics.median(rates[label]):>8,.0f}"
            )
        best = max(rates["this"]) / max(rates["base"])
        median = statistics.median(rates["this"]) / statistics.median(rates["base"])
        print(f"{row:<16} this/base: best {best:.3f}, median {median:.3f}")
        sys.stdout.flush()


def compare_callgrind(
    base: Path, head: Path, rows: list[str], games: int, phase: str = "", *, views: bool = False
) -> None:
    only = f", the {phase} phase's decisions only" if phase else ""
    print(
        f"callgrind instructions per decision over {games} games from seed 1 "
        f"(games only{only}){VIEWS_TOO if views else ''}"
    )
    for row in rows:
        per: dict[str, float] = {}
        for label, tree in (("base", base), ("this", head)):
            decisions = run_worker(tree, row, 0, games, phase=phase, views=views)["decisions"]
            if not decisions:
                sys.exit(f"{row}: no decision of the phase {phase!r} in {games} games")
            per[label] = callgrind_instructions(tree, row, games, phase, views=views) / decisions
            print(
                f"{row:<16} {label:<5} {decisions:>7} decisions {per[label]:>10,.0f} instr/decision"
            )
        print(f"{row:<16} this/base instructions: {per['this'] / per['base']:.3f}")
        sys.stdout.flush()


def compare_digests(
    base: Path, head: Path, rows: list[str], games: int, *, views: bool = False
) -> int:
    """Play the same games in both trees; 1 if any row's digests differ."""
    print(
        f"digests of {games} games a row from seed 1 "
        f"(moves, states, events{', views' if views else ''})"
    )
    differ = 0
    for row in rows:
        found = {
            label: run_worker(tree, row, 0, games, digest=True, views=views)
            for label, tree in (("base", base), ("this", head))
        }
        same = found["base"]["digest"] == found["this"]["digest"]
        same = same and found["base"]["decisions"] == found["this"]["decisions"]
        differ += not same
        verdict = "same" if same else "DIFFERENT from " + found["base"]["digest"][:16]
        print(
            f"{row:<28} {found['this']['decisions']:>8} decisions "
            f"{found['this']['digest'][:16]} {verdict}"
        )
        sys.stdout.flush()
    return 1 if differ else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base", type=Path, help="the other source tree (its service/, sdk/)")
    parser.add_argument("--head", type=Path, default=HERE, help="this tree (default: here)")
    parser.add_argument(
        "--rows",
        nargs="+",
        default=list(DEFAULT_ROWS),
        help="game:seats or game:seats:option=value,... (e.g. kill_the_king:2:mode=2,advanced=1)",
    )
    parser.add_argument("--runs", type=int, default=3, help="runs per tree and row")
    parser.add_argument("--seconds", type=float, default=3.0, help="CPU seconds per run")
    parser.add_argument("--games", type=int, default=0, help="fixed games per run (callgrind)")
    parser.add_argument("--callgrind", action="store_true", help="count instructions instead")
    parser.add_argument(
        "--digest", action="store_true", help="check both trees play the same games (a digest)"
    )
    parser.add_argument(
        "--phase", default="", help="with --callgrind: count only this phase's decisions"
    )
    parser.add_argument(
        "--views",
        action="store_true",
        help="also build every view of the state after each decision (and hash or count them)",
    )
    parser.add_argument("--worker", nargs=2, metavar=("GAME", "SEATS"), help=argparse.SUPPRESS)
    parser.add_argument("--options", default="{}", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        name, seats = args.worker
        values = json.loads(args.options)
        found = worker(
            name,
            int(seats),
            args.seconds,
            args.games,
            values,
            digest=args.digest,
            phase=args.phase,
            views=args.views,
        )
        print(json.dumps(found))
        return 0
    if args.base is None:
        parser.error("--base is required")
    base, head = args.base.resolve(), args.head.resolve()
    if args.digest:
        return compare_digests(base, head, args.rows, args.games or 100, views=args.views)
    if args.callgrind:
        compare_callgrind(base, head, args.rows, args.games or 40, args.phase, views=args.views)
    else:
        compare_time(base, head, args.rows, args.runs, args.seconds, views=args.views)
    return 0


if __name__ == "__main__":
    sys.exit(main())
