"""What a play-session move costs the service's own code, without gRPC.

Drives the App in-process the way ``bench/peer.py`` drives the server: M
concurrent 2-seat King Is Dead games between random bots, each seat on its own
play session (``api.play.session``, opened with ``with_legal_moves`` and
``include_current``), a move sent when both seats hold the newest version,
each response serialized as the server would (``play.serialize``) and each
request decoded from bytes (the servicer's decoder). What it leaves out is the
transport: grpc.aio's own cost (``bench/peer.py --floor``).

    python bench/session_cost.py                      # CPU ms per move, memory store
    python bench/session_cost.py --redis-url redis://127.0.0.1:6379/0
    python bench/session_cost.py --base ../base --runs 3          # two trees, alternating
    python bench/session_cost.py --base ../base --callgrind       # instructions per move
    python bench/session_cost.py --unary --callgrind   # WatchGame streams + ApplyMove calls

With ``--unary`` each seat watches on its own stream (``updates.watch``, as
WatchGame: ``with_legal_moves``, ``include_current``, each item serialized as
the servicer's serializer does) and each move is one ApplyMove call
(``calls.apply_move``, its request decoded from bytes and its response
serialized), as ``bench/peer.py --apis unary`` plays.

Time is the process's CPU time per move (the bots included, each reading the
bytes the transport would send as a client does: a few percent).
On a shared machine that swings with the load; ``--callgrind`` counts
instructions instead (valgrind, repeatable under load), of the timed games
only: they run inside ``operator.call``, the one function callgrind collects
within. With ``--base`` each measurement is a fresh process whose
``PYTHONPATH`` is one tree's ``service`` and ``sdk`` (the driver is this file
in both), alternating.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import operator
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent.parent


class _Requests:
    """A session's request stream: bytes decoded as the servicer decodes them."""

    def __init__(self, decode: Any) -> None:
        self.queue: asyncio.Queue[bytes | None] = asyncio.Queue()
        self.decode = decode

    def __aiter__(self) -> _Requests:
        return self

    async def __anext__(self) -> Any:
        data = await self.queue.get()
        if data is None:
            raise StopAsyncIteration
        return self.decode(data)


async def _watching(
    app: Any, opened: Any, updates: list[Any], seat: int, changed: asyncio.Event
) -> None:
    """A seat's WatchGame stream (``--unary``), each item read as the client reads it."""
    from throneroom.v1 import service_pb2  # noqa: PLC0415
    from throneroom_server.app import calls  # noqa: PLC0415
    from throneroom_server.app.access import LOCAL  # noqa: PLC0415
    from throneroom_server.app.updates import serialized  # noqa: PLC0415

    async for item in calls.watch_game(app, opened, caller=LOCAL):
        watched = service_pb2.WatchGameResponse.FromString(serialized(item))
        if watched.HasField("update"):
            updates[seat] = watched.update
            changed.set()
            if watched.update.snapshot.finished:
                return


async def _apply(app: Any, game_id: str, token: str, version: int, move: Any, key: str) -> None:  # noqa: PLR0917
    """One ApplyMove call (``--unary``): the request decoded from bytes, the response serialized."""
    from throneroom.v1 import service_pb2  # noqa: PLC0415
    from throneroom_server.api.servicer import decoder  # noqa: PLC0415
    from throneroom_server.app import calls  # noqa: PLC0415
    from throneroom_server.app.access import LOCAL  # noqa: PLC0415

    applied = service_pb2.ApplyMoveRequest(
        game_id=game_id,
        seat_token=token,
        expected_version=version,
        move=move,
        idempotency_key=key,
    )
    request = decoder(service_pb2.ApplyMoveRequest)(applied.SerializeToString())
    assert isinstance(request, service_pb2.ApplyMoveRequest)
    response = await calls.apply_move(app, request, caller=LOCAL)
    response.SerializeToString()


async def _play(store: Any, matches: int, min_moves: int, seed: int, unary: bool = False) -> int:
    """Rounds of ``matches`` concurrent games until ``min_moves`` moves; the moves."""
    from throneroom.v1 import service_pb2  # noqa: PLC0415
    from throneroom_server.api import play  # noqa: PLC0415
    from throneroom_server.api.servicer import decoder  # noqa: PLC0415
    from throneroom_server.app.access import LOCAL  # noqa: PLC0415
    from throneroom_server.app.service import App  # noqa: PLC0415
    from throneroom_server.games.registry import service_games  # noqa: PLC0415

    app = App(store, service_games())
    decode = decoder(service_pb2.PlayRequest)
    options = app.games["king_is_dead"].game_type().default_options
    rng = random.Random(seed)
    moves = 0

    async def one_game() -> None:
        nonlocal moves
        game_id, _ = await app.create_game(options, 2, rng.getrandbits(32))
        tokens = [(await app.join_game(game_id, s, ""))[1] for s in range(2)]
        requests = [_Requests(decode), _Requests(decode)]
        updates: list[Any] = [None, None]
        changed = asyncio.Event()

        async def seat(s: int) -> None:
            opened = service_pb2.WatchGameRequest(
                game_id=game_id,
                seat_token=tokens[s],
                with_legal_moves=True,
                include_current=True,
                heartbeat_seconds=30,
            )
            if unary:
                await _watching(app, opened, updates, s, changed)
                return
            requests[s].queue.put_nowait(service_pb2.PlayRequest(open=opened).SerializeToString())
            async for sent in play.session(app, requests[s], LOCAL):
                # What the transport sends, read as the client reads it.
                response = service_pb2.PlayResponse.FromString(play.serialize(sent))
                for result in response.results:
                    if result.HasField("error"):
                        raise RuntimeError(f"a move was rejected: {result.error}")
                if response.HasField("update"):
                    updates[s] = response.update
                    changed.set()
                    if response.update.snapshot.finished:
                        return

        readers = [asyncio.create_task(seat(s)) for s in range(2)]
        while True:
            await changed.wait()
            changed.clear()
            if None in updates or updates[0].version != updates[1].version:
                continue
            snapshot = updates[0].snapshot
            if snapshot.finished:
                break
            mover, version = snapshot.to_act[0], updates[0].version
            move, key = rng.choice(updates[mover].legal_moves), f"{game_id}-{version}"
            moves += 1
            if unary:
                await _apply(app, game_id, tokens[mover], version, move, key)
                continue
            played = service_pb2.PlayMove(expected_version=version, move=move, idempotency_key=key)
            requests[mover].queue.put_nowait(
                service_pb2.PlayRequest(move=played).SerializeToString()
            )
        for r in requests:
            r.queue.put_nowait(None)
        await asyncio.gather(*readers)

    while moves < min_moves:
        await asyncio.gather(*(one_game() for _ in range(matches)))
    app.begin_shutdown()
    return moves


def _store(redis_url: str | None) -> Any:
    if redis_url:
        from throneroom_server.store.redis import RedisStore  # noqa: PLC0415

        return RedisStore(redis_url)
    from throneroom_server.store.memory import MemoryStore  # noqa: PLC0415

    return MemoryStore()


async def _timed(
    redis_url: str | None, matches: int, min_moves: int, unary: bool
) -> tuple[int, float]:
    store = _store(redis_url)
    try:
        start = time.process_time()
        moves = await _play(store, matches, min_moves, seed=2, unary=unary)
        return moves, time.process_time() - start
    finally:
        await store.close()


def worker(redis_url: str | None, matches: int, min_moves: int, unary: bool) -> None:
    """One measurement in this process: a warm-up, then the timed games."""
    from throneroom_server.runtime.logs import configure_logging  # noqa: PLC0415

    configure_logging("json", "warning")

    async def warm_up() -> None:
        store = _store(redis_url)
        await _play(store, matches, 1, seed=1, unary=unary)
        await store.close()

    asyncio.run(warm_up())
    moves, seconds = operator.call(asyncio.run, _timed(redis_url, matches, min_moves, unary))
    import throneroom_server  # noqa: PLC0415

    print(json.dumps({"tree": throneroom_server.__file__, "moves": moves, "cpu_s": seconds}))


def measure(tree: Path, args: argparse.Namespace) -> dict[str, Any]:
    env = dict(os.environ, PYTHONPATH=f"{tree / 'service'}{os.pathsep}{tree / 'sdk'}")
    command = [sys.executable, __file__, "--worker", "--matches", str(args.matches)]
    command += ["--min-moves", str(args.min_moves)]
    if args.redis_url:
        command += ["--redis-url", args.redis_url]
    if args.unary:
        command.append("--unary")
    with tempfile.TemporaryDirectory() as scratch:
        out_file = Path(scratch) / "callgrind.out"
        if args.callgrind:
            command = [
                *("valgrind", "--tool=callgrind", f"--callgrind-out-file={out_file}"),
                *("--collect-atstart=no", "--toggle-collect=*operator_call*"),
                *command,
            ]
        done = subprocess.run(command, env=env, capture_output=True, text=True, check=True)
        row: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
        if args.callgrind:
            totals = [
                line for line in out_file.read_text().splitlines() if line.startswith("totals:")
            ]
            row["instructions"] = int(totals[0].split()[1])
    if not row["tree"].startswith(str(tree)):
        raise SystemExit(f"{tree} imported {row['tree']}: check PYTHONPATH")
    return row


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--base", type=Path, help="another source tree, measured alternately")
    parser.add_argument("--redis-url", help="measure on Redis (default: the memory store)")
    parser.add_argument("--matches", type=int, default=8)
    parser.add_argument("--min-moves", type=int, default=0, help="default 3000 (callgrind 300)")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--callgrind", action="store_true", help="count instructions instead")
    parser.add_argument(
        "--unary", action="store_true", help="WatchGame streams and ApplyMove calls, not Play"
    )
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    args.min_moves = args.min_moves or (300 if args.callgrind else 3000)
    if args.worker:
        worker(args.redis_url, args.matches, args.min_moves, args.unary)
        return 0
    trees = {"this tree": HERE} | ({"base": args.base.resolve()} if args.base else {})
    unit = "instructions per move" if args.callgrind else "CPU ms per move"
    print(
        f"# {unit}, M={args.matches}, {'Redis' if args.redis_url else 'memory store'}, "
        f"{'WatchGame + ApplyMove' if args.unary else 'Play sessions'}, "
        f"load average {os.getloadavg()[0]:.1f}",
        flush=True,
    )
    figures: dict[str, list[float]] = {name: [] for name in trees}
    if args.callgrind:  # repeatable counts: the trees' runs go side by side
        with ThreadPoolExecutor(len(trees)) as pool:
            measured = pool.map(lambda tree: measure(tree, args), trees.values())
            rows = dict(zip(trees, measured, strict=True))
        for name, row in rows.items():
            figures[name].append(row["instructions"] / row["moves"])
            print(f"  {name:<10} {figures[name][0]:12,.0f}  ({row['moves']} moves)")
    for run in range(0 if args.callgrind else args.runs):
        for name, tree in reversed(trees.items()):  # base first
            row = measure(tree, args)
            figures[name].append(1000 * row["cpu_s"] / row["moves"])
            print(f"  run {run + 1} {name:<10} {figures[name][-1]:8.3f}  ({row['moves']} moves)")
    for name, values in figures.items():
        print(f"{name:<10} median {statistics.median(values):12,.3f}", flush=True)
    if args.base:
        ratio = statistics.median(figures["this tree"]) / statistics.median(figures["base"])
        print(f"this tree / base: {ratio:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
