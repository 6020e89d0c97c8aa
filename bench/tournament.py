"""A random-bot tournament through the service: games per minute and RPCs per decision.

Starts a throwaway redis-server and a throneroom-server process on it, then
runs a round robin of RandomBots (The King Is Dead, 2 seats, by default
4 entrants x every seat order x GAMES games) with CONCURRENCY matches at once,
through the SDK exactly as a tournament file would. Counts every RPC the
tournament's client makes (a counting proxy around its stub) and prints games
per minute, decisions per second, and RPCs per decision: ApplyMove alone
(goal: exactly 1) and every RPC including each game's setup (create, joins,
one watch stream per seat) spread over its decisions.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "sdk"), str(ROOT / "service")]

from throneroom import Client  # noqa: E402
from throneroom.tournament import parse_config, run_tournament  # noqa: E402

from throneroom_dev.processes import SERVER_COMMAND, server_process, throwaway_redis  # noqa: E402

SERVER_CMD = os.environ.get("BENCH_SERVER_CMD", " ".join(SERVER_COMMAND)).split()


class CountingStub:
    """The client's stub, counting each RPC by name (thread-safe enough: Counter += under GIL)."""

    def __init__(self, stub: Any) -> None:
        self._stub = stub
        self.calls: Counter[str] = Counter()

    def __getattr__(self, name: str) -> Any:
        method = getattr(self._stub, name)
        counts = self.calls

        class Counted:
            def __call__(self, *args: Any, **kwargs: Any) -> Any:
                counts[name] += 1
                return method(*args, **kwargs)

            def __getattr__(self, attr: str) -> Any:
                return getattr(method, attr)

        return Counted()


def run(address: str, ns: argparse.Namespace) -> None:
    game, concurrency = ns.game, ns.concurrency
    config = parse_config(
        {
            "name": "bench",
            "game": game,
            "seats": ns.seats,
            "games_per_pairing": ns.games,
            "concurrency": concurrency,
            "seed": 1,
            "server": address,
            "time_control": {"per_decision_seconds": 60},
            "entrants": [
                {"name": f"random{i}", "bot": "throneroom.bots:RandomBot"}
                for i in range(ns.entrants)
            ],
        }
    )
    with Client(address) as client, tempfile.TemporaryDirectory() as tmp:
        counting = CountingStub(client.stub)
        client.stub = counting  # type: ignore[assignment]
        start = time.perf_counter()
        records = run_tournament(config, Path(tmp) / "results.jsonl", client=client)
        elapsed = time.perf_counter() - start
    decisions = sum(r.moves for r in records)
    failures = sum(len(r.failures) for r in records)
    calls = counting.calls
    print(f"{game}: {len(records)} games, {decisions} decisions, concurrency {concurrency}")
    print(
        f"  {len(records) / elapsed * 60:8.1f} games/min   {decisions / elapsed:8.1f} decisions/s"
    )
    print(f"  ApplyMove per decision:  {calls['ApplyMove'] / decisions:.3f} (goal: exactly 1)")
    print(f"  all RPCs per decision:   {sum(calls.values()) / decisions:.3f}  {dict(calls)}")
    print(f"  failures: {failures}")


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--game", default="king_is_dead")
    parser.add_argument("--seats", type=int, default=2)
    parser.add_argument("--entrants", type=int, default=4)
    parser.add_argument("--games", type=int, default=4, help="games per seat order")
    parser.add_argument("--concurrency", type=int, default=4)
    ns = parser.parse_args()
    env = {"THRONEROOM_LOG_FORMAT": "json", "THRONEROOM_LOG_LEVEL": "warning"}
    with throwaway_redis() as url, server_process(url, env=env, command=SERVER_CMD) as (address, _):
        print("server and redis-server in their own processes on this machine (2 cores shared).")
        run(address, ns)
    return 0


if __name__ == "__main__":
    sys.exit(main())
