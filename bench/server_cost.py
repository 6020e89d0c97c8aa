"""Instructions per play-session move of a real server, gRPC included (callgrind).

Starts ``throneroom_server.main`` under valgrind's callgrind with
instrumentation off, plays one warm-up round of ``bench/peer.py``'s load
(M concurrent 2-seat King Is Dead games on play sessions, seeded random bots),
switches instrumentation on (``callgrind_control -i on``) for the counted
rounds only, and prints the server's instructions per move: a figure that,
unlike CPU time, does not move with the machine's load. Kernel time (socket
system calls) is not counted, nor the once-a-second background sweeper
(``THRONEROOM_CLOCK_SWEEP_SECONDS=0`` unless set: a per-second cost that
callgrind's slowness would spread over a few dozen moves).

    python bench/server_cost.py                            # this tree, memory store
    python bench/server_cost.py --base ../base             # and another tree, side by side
    python bench/server_cost.py --redis-url redis://127.0.0.1:6379/0 --moves 500
    python bench/server_cost.py --websocket        # the sessions on WebSockets (GET /v1/play)
    python bench/server_cost.py --unary            # WatchGame streams + one ApplyMove per move

Each tree's server runs with ``PYTHONPATH`` set to its ``service`` and
``sdk``; the load is this tree's ``bench/peer.py``. Slow: a server under
callgrind applies a few dozen moves a second.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(HERE), str(HERE / "bench"), str(HERE / "sdk"), str(HERE / "service")]

import peer  # noqa: E402

from throneroom_dev.processes import free_port, wait_for_port  # noqa: E402


def measure(
    tree: Path,
    redis_url: str | None,
    matches: int,
    moves: int,
    *,
    websocket: bool = False,
    unary: bool = False,
) -> dict[str, Any]:
    port, http_port = free_port(), free_port()
    env = dict(
        os.environ,
        PYTHONPATH=f"{tree / 'service'}{os.pathsep}{tree / 'sdk'}",
        THRONEROOM_LOG_FORMAT="json",
        # The background sweeper (clocks, the lobby's retention sweep) runs
        # once a second of wall time, not per move: under callgrind a second
        # holds a few dozen moves, so on Redis its step (a lobby listing and
        # up to 100 index notes) was counted as 0.3-1 M instructions per move,
        # more the busier the machine. Off (the load has no time control);
        # THRONEROOM_CLOCK_SWEEP_SECONDS=1 in the environment counts it.
        THRONEROOM_CLOCK_SWEEP_SECONDS=os.environ.get("THRONEROOM_CLOCK_SWEEP_SECONDS", "0"),
    )
    if websocket:
        env["THRONEROOM_HTTP_LISTEN"] = f"127.0.0.1:{http_port}"
    with tempfile.TemporaryDirectory() as scratch:
        out_file = Path(scratch) / "callgrind.out"
        command = ["valgrind", "--tool=callgrind", "--instr-atstart=no"]
        command += [f"--callgrind-out-file={out_file}", sys.executable, "-m"]
        command += ["throneroom_server.main", "--listen", f"127.0.0.1:{port}"]
        if redis_url:
            command += ["--redis-url", redis_url]
        proc = subprocess.Popen(
            command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        try:
            wait_for_port(port, timeout=900, proc=proc)  # type: ignore[arg-type]
            address = f"127.0.0.1:{port}"
            socket = ""
            if websocket:
                wait_for_port(http_port, timeout=900, proc=proc)  # type: ignore[arg-type]
                socket = f"127.0.0.1:{http_port}"
            load = peer.ThroneroomLoad(
                address, [proc.pid], None, seed=matches, play=not unary, websocket=socket
            )
            asyncio.run(load.run(matches, 1, warmup_rounds=0))  # warm-up: one round
            control = ["callgrind_control", "-i"]
            subprocess.run([*control, "on", str(proc.pid)], check=True, capture_output=True)
            row = asyncio.run(load.run(matches, moves, warmup_rounds=0))
            subprocess.run([*control, "off", str(proc.pid)], check=True, capture_output=True)
        finally:
            proc.terminate()
            proc.wait(600)
        totals = [line for line in out_file.read_text().splitlines() if line.startswith("totals:")]
        instructions = int(totals[0].split()[1])
    return {"moves": row["moves"], "per_move": instructions / row["moves"]}


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--base", type=Path, help="another source tree, measured beside")
    parser.add_argument("--redis-url", help="the server on Redis (default: the memory store)")
    parser.add_argument("--matches", type=int, default=8)
    parser.add_argument("--moves", type=int, default=500, help="at least this many counted")
    parser.add_argument(
        "--websocket", action="store_true", help="play on WebSockets (GET /v1/play), not gRPC"
    )
    parser.add_argument(
        "--unary",
        action="store_true",
        help="WatchGame streams and one ApplyMove call per move (bench/peer.py --apis unary)",
    )
    args = parser.parse_args()
    if args.unary and args.websocket:
        parser.error("--unary and --websocket are two different faces: choose one")
    trees = {"this tree": HERE} | ({"base": args.base.resolve()} if args.base else {})
    with ThreadPoolExecutor(len(trees)) as pool:
        rows = pool.map(
            lambda tree: measure(
                tree,
                args.redis_url,
                args.matches,
                args.moves,
                websocket=args.websocket,
                unary=args.unary,
            ),
            trees.values(),
        )
        results = dict(zip(trees, rows, strict=True))
    store = "Redis" if args.redis_url else "memory store"
    transport = (
        "WebSockets" if args.websocket else "gRPC WatchGame + ApplyMove" if args.unary else "gRPC"
    )
    print(f"# server instructions per move (callgrind), M={args.matches}, {store}, {transport}")
    for name, row in results.items():
        print(f"  {name:<10} {row['per_move']:12,.0f}  ({row['moves']} moves)")
    if args.base:
        ratio = results["this tree"]["per_move"] / results["base"]["per_move"]
        print(f"this tree / base: {ratio:.3f}")
    print(json.dumps({k: v["per_move"] for k, v in results.items()}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
