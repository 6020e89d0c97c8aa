"""Kill the King, two source trees, the same random games: identical play?

    python bench/ktk_diff.py --base /work/main                  # 100 games a variant
    python bench/ktk_diff.py --base /work/main --games 20 --variants 1:2 2:2

Each tree plays the same seeded random games in its own process (its
``PYTHONPATH`` is the tree's ``service`` and ``sdk``, as
``bench/compare_trees.py`` does): at every decision it hashes the seat's
legal-move list (every move's bytes, in order), the move chosen, the state
after the checked apply and its events. The two trees must give the same
hash game by game; the first game that differs is named (replay it with
``--variants`` and ``--first``). A variant is ``mode:seats`` or
``mode:seats:advanced``.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent.parent
DEFAULT_VARIANTS = ("1:2", "2:2", "1:2:advanced", "2:2:advanced", "3:4", "4:3")


def play(variant: str, seed: int) -> tuple[str, int]:
    """One random game of ``variant`` from ``seed``: its digest and decisions."""
    from throneroom_server.games import registry  # noqa: PLC0415 (the tree's own)

    game = registry.build_registry(include_fixtures=True)["kill_the_king"]
    mode, seats, *rest = variant.split(":")
    options = game.default_options()
    options.mode = int(mode)
    options.advanced = "advanced" in rest
    state = game.setup(options, int(seats), seed)
    chooser = random.Random(seed)
    digest = hashlib.sha256(state.SerializeToString(deterministic=True))
    decisions = 0
    while acting := game.to_act(state):
        seat = acting[chooser.randrange(len(acting))] if len(acting) > 1 else acting[0]
        moves = game.legal_moves(state, seat)
        for m in moves:
            digest.update(m.SerializeToString(deterministic=True))
        choice = chooser.randrange(len(moves))
        digest.update(b"|%d|%d|" % (seat, choice))
        state, events = game.apply(state, seat, moves[choice])
        digest.update(state.SerializeToString(deterministic=True))
        for e in events:
            digest.update(e.SerializeToString(deterministic=True))
        digest.update(b";")
        decisions += 1
    return digest.hexdigest(), decisions


def worker(variants: list[str], games: int, first: int) -> dict[str, Any]:
    from throneroom_server.games import registry  # noqa: PLC0415

    out: dict[str, Any] = {"module": registry.__file__, "games": {}}
    for variant in variants:
        out["games"][variant] = [play(variant, seed) for seed in range(first, first + games)]
    return out


def run(tree: Path, variants: list[str], games: int, first: int) -> subprocess.Popen[str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(tree / "service"), str(tree / "sdk")])
    command = [sys.executable, str(Path(__file__).resolve()), "--worker"]
    command += ["--games", str(games), "--first", str(first), "--variants", *variants]
    return subprocess.Popen(command, env=env, stdout=subprocess.PIPE, text=True, cwd=tree)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--base", type=Path, help="the other tree")
    parser.add_argument("--head", type=Path, default=HERE, help="this tree (default: here)")
    parser.add_argument("--games", type=int, default=100, help="games a variant")
    parser.add_argument("--first", type=int, default=1, help="the first seed")
    parser.add_argument("--variants", nargs="+", default=list(DEFAULT_VARIANTS))
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        sys.stdout.write(json.dumps(worker(args.variants, args.games, args.first)) + "\n")
        return 0
    if args.base is None:
        parser.error("--base is required")
    procs = {
        tree: run(tree, args.variants, args.games, args.first) for tree in (args.base, args.head)
    }
    results = {}
    for tree, proc in procs.items():
        stdout, _ = proc.communicate()
        if proc.returncode:
            raise SystemExit(f"{tree}: the worker failed")
        results[tree] = json.loads(stdout.strip().splitlines()[-1])
        expected = (tree / "service").resolve()
        if not Path(results[tree]["module"]).resolve().is_relative_to(expected):
            raise SystemExit(f"{tree}: imported {results[tree]['module']}, not its own code")
    base, head = results[args.base]["games"], results[args.head]["games"]
    failed = False
    for variant in args.variants:
        total = sum(d for _, d in head[variant])
        differ = [
            args.first + i
            for i, (a, b) in enumerate(zip(base[variant], head[variant], strict=True))
            if a != b
        ]
        verdict = "identical" if not differ else f"DIFFER from seed {differ[0]} ({len(differ)})"
        print(f"{variant:16} {len(head[variant])} games {total:8} decisions: {verdict}")
        failed = failed or bool(differ)
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
