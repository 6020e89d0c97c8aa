"""Throneroom and boardgame.io side by side: moves/s, latency, server CPU per move.

Runs the boardgame.io harness of ``../shared/peer-bgio`` (a stock boardgame.io
0.50.2 server and its load generator, both Node) and the same shape of load
against Throneroom, interleaved in one run, for M = 1, 8 and 32 concurrent
2-seat matches, with Throneroom on its in-memory store and on Redis.

The Throneroom load has boardgame.io's shape (see the harness's README):

* one round: create M two-seat King Is Dead games and join both seats
  (untimed), open one watch stream per seat (``with_legal_moves`` and
  ``include_current``: the stream is the seat's view, as a boardgame.io
  client's socket is) and wait until every stream has delivered the start;
* timed: play the M games to the end at once. In a game a move is sent only
  when both seats' streams hold the same, newest version; the seat to act
  picks a random move among the legal moves its stream carried and sends one
  ApplyMove; its latency is send -> the ApplyMove acknowledgement;
* ``--apis`` says how the seats play: ``play`` (rows without a suffix), one
  gRPC ``Play`` stream per seat, a move one message whose result rides on the
  mover's update; ``websocket``, the same session on a WebSocket
  (``GET /v1/play`` on the REST port, binary frames; the SDK's
  ``throneroom.play_socket`` stream, aiohttp on both sides);
  ``unary``, WatchGame streams and one ApplyMove call per move;
* rounds are played back to back until at least ``--min-moves`` moves are
  counted, after one warm-up round that is not counted.

The service's CPU is read from /proc (its process and any worker processes,
user + system) over the timed parts; on Redis, redis-server's own CPU (INFO
cpu) is printed beside it, since boardgame.io's storage is in its process.
Each run's row also gives how busy the server's event loop was (its main
thread's CPU over the timed seconds; with workers, the sum of theirs): a loop
near 100% is what bounds one process's moves/s.
Each figure is the median over ``--runs`` runs; ratios are Throneroom over
boardgame.io (moves/s: higher is better; CPU/move: lower is better).

Usage: ``python bench/peer.py [--runs 3] [--sizes 1 8 32] [--min-moves 8000]
[--stores memory redis] [--workers 1 2] [--apis play websocket unary] [--game nim]
[--no-bgio] [--floor]`` (``make bench-peer``). ``--game nim``: the bots play Nim
(96 stones, about 48 moves, rules that cost next to nothing, like the harness's game) instead of
King Is Dead: what the service itself costs per move. ``--floor`` first
measures a bare grpc.aio server (no application, raw bytes, the grpc settings
``throneroom-server`` runs with) under the same shape: what the transport
alone costs, and the same bare sessions over aiohttp WebSockets beside it.
Needs ``node`` and ``npm`` for the boardgame.io side; its dependencies go to
``$BGIO_DEPS`` (default /tmp/peer-bgio-deps), never into this repository.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import grpc
import redis

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "sdk"), str(ROOT / "service")]

from peer_processes import (  # noqa: E402
    Totals,
    cpu_seconds,
    main_thread_seconds,
    process_tree,
    redis_cpu_seconds,
    throneroom_server,
)
from throneroom import AsyncClient  # noqa: E402
from throneroom.play_socket import SocketStream  # noqa: E402
from throneroom.v1 import service_pb2  # noqa: E402

from throneroom_dev.processes import free_port, throwaway_redis, wait_for_port  # noqa: E402

PEER = Path(
    os.environ.get("PEER_BGIO")
    or next(
        (p for p in (ROOT.parent / "shared", ROOT.parent.parent / "shared") if p.is_dir()),
        ROOT.parent / "shared",
    )
    / "peer-bgio"
)
BGIO_DEPS = Path(os.environ.get("BGIO_DEPS", "/tmp/peer-bgio-deps"))
GAMES: dict[str, dict[str, int] | None] = {
    "king_is_dead": None,  # its default options
    "nim": {"pile": 96, "max_take": 3},  # about 48 moves, as boardgame.io's match
}
"""The games the Throneroom load can play (``--game``): King Is Dead, a real
game, or the test game Nim, whose rules cost next to nothing (as the
harness's game does): what the service itself costs per move."""
KEYS = ("moves_per_s", "p50_ms", "p99_ms", "server_cpu_ms_per_move", "store_cpu_ms_per_move")


# -- the Throneroom load ----------------------------------------------------------


@dataclass
class Seat:
    token: str
    version: int = -1
    update: service_pb2.GameUpdate | None = None
    session: Any = None  # the seat's Play stream (--play)
    sent_at: float = 0.0


@dataclass
class Match:
    game_id: str
    seats: list[Seat]
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    calls: list[Any] = field(default_factory=list)


class ThroneroomLoad:
    """M concurrent 2-seat King Is Dead games between random bots, through the SDK."""

    def __init__(
        self,
        address: str,
        pids: list[int],
        store: redis.Redis | None,
        seed: int,
        *,
        play: bool = False,
        websocket: str = "",
        game: str = "king_is_dead",
    ) -> None:
        self.game = game
        self.websocket = websocket
        """The REST face's address: play sessions on WebSockets (``GET /v1/play``)."""
        self.address = address
        self.pids = pids
        self.store = store
        self.rng = random.Random(seed)
        self.play_sessions = play
        self.latencies: list[float] = []

    async def run(self, matches: int, min_moves: int, warmup_rounds: int = 1) -> dict[str, Any]:
        # One connection per seat, as boardgame.io's clients have one websocket
        # each (and so that several server workers share the load).
        clients = [
            AsyncClient(
                self.address,
                channel=grpc.aio.insecure_channel(
                    self.address, options=[("grpc.use_local_subchannel_pool", 1)]
                ),
            )
            for _ in range(2 * matches)
        ]
        try:
            for _ in range(warmup_rounds):
                await self.round(clients, matches, Totals())
            totals = Totals()
            while len(totals.latencies) < min_moves:
                await self.round(clients, matches, totals)
        finally:
            await asyncio.gather(*(c.close() for c in clients))
        lat = sorted(totals.latencies)
        moves = len(lat)
        return {
            "matches": matches,
            "moves": moves,
            "seconds": round(totals.seconds, 3),
            "moves_per_s": round(moves / totals.seconds, 1),
            "p50_ms": round(1000 * lat[len(lat) // 2], 3),
            "p99_ms": round(1000 * lat[min(moves - 1, int(0.99 * moves))], 3),
            "server_cpu_ms_per_move": round(1000 * totals.server_cpu / moves, 3),
            "store_cpu_ms_per_move": round(1000 * totals.store_cpu / moves, 3),
            "load_cpu_ms_per_move": round(1000 * totals.load_cpu / moves, 3),
            "loop_busy": round(totals.loop_cpu / totals.seconds, 3),
            "setup_s": round(totals.setup, 3),
        }

    async def round(self, clients: list[AsyncClient], m: int, totals: Totals) -> None:
        t_setup = time.perf_counter()
        games = []
        for i in range(m):
            client = clients[2 * i]
            game_id = await client.create_game(
                self.game, seats=2, options=GAMES[self.game], seed=self.rng.getrandbits(32)
            )
            seats = []
            for s in range(2):
                joined = await clients[2 * i + s].call(
                    client.stub.JoinGame, service_pb2.JoinGameRequest(game_id=game_id, seat=s)
                )
                seats.append(Seat(joined.seat_token))
            games.append(Match(game_id, seats))
        self.latencies = totals.latencies
        readers = [
            asyncio.create_task(self.watch(clients[2 * i + s], game, s))
            for i, game in enumerate(games)
            for s in range(2)
        ]
        while not all(seat.version >= 0 for game in games for seat in game.seats):
            await asyncio.sleep(0.002)
        totals.setup += time.perf_counter() - t_setup

        cpu0 = (
            cpu_seconds(self.pids),
            redis_cpu_seconds(self.store),
            time.process_time(),
            main_thread_seconds(self.pids),
        )
        t0 = time.perf_counter()
        await asyncio.gather(
            *(
                self.play(clients[2 * i : 2 * i + 2], g, totals.latencies)
                for i, g in enumerate(games)
            )
        )
        totals.seconds += time.perf_counter() - t0
        totals.server_cpu += cpu_seconds(self.pids) - cpu0[0]
        totals.store_cpu += redis_cpu_seconds(self.store) - cpu0[1]
        totals.load_cpu += time.process_time() - cpu0[2]
        totals.loop_cpu += main_thread_seconds(self.pids) - cpu0[3]
        await asyncio.gather(*readers)

    async def watch(self, client: AsyncClient, game: Match, s: int) -> None:
        """Seat ``s``'s stream: every version, with its legal moves when it must act."""
        seat = game.seats[s]
        request = service_pb2.WatchGameRequest(
            game_id=game.game_id,
            seat_token=seat.token,
            with_legal_moves=True,
            include_current=True,
            heartbeat_seconds=30,
        )
        if self.websocket:
            call = seat.session = await SocketStream.open(self.websocket)  # the SDK's
            await call.write(service_pb2.PlayRequest(open=request))
        elif self.play_sessions:
            call = seat.session = client.stub.Play()
            await call.write(service_pb2.PlayRequest(open=request))
        else:
            call = client.stub.WatchGame(request)
        async for response in call:
            for result in getattr(response, "results", ()):
                if result.HasField("error"):
                    raise RuntimeError(f"seat {s}'s move was rejected: {result.error}")
                self.latencies.append(time.perf_counter() - seat.sent_at)
            if response.HasField("update"):
                update = response.update
                if update.version != seat.version + 1:
                    raise RuntimeError(
                        f"seat {s} got version {update.version} after {seat.version}"
                    )
                seat.update, seat.version = update, update.version
                game.changed.set()
                if update.snapshot.finished:
                    break
        if self.websocket:
            await call.close()
        elif self.play_sessions:
            call.cancel()

    async def play(self, clients: list[AsyncClient], game: Match, latencies: list[float]) -> None:
        """Play one game to the end; returns when both seats have seen it finish."""
        seats = game.seats
        while True:
            await game.changed.wait()
            game.changed.clear()
            version = seats[0].version
            if seats[1].version != version:
                continue  # wait for both seats
            snapshot = seats[0].update.snapshot  # type: ignore[union-attr]
            if snapshot.finished:
                return
            mover = snapshot.to_act[0]
            moves = seats[mover].update.legal_moves  # type: ignore[union-attr]
            if not moves:
                raise RuntimeError(f"seat {mover} must act at {version} but got no legal moves")
            if self.play_sessions:  # one message; the result rides on the mover's update
                seats[mover].sent_at = time.perf_counter()
                await seats[mover].session.write(
                    service_pb2.PlayRequest(
                        move=service_pb2.PlayMove(
                            expected_version=version,
                            move=self.rng.choice(moves),
                            idempotency_key=f"{game.game_id}-{version}",
                        )
                    )
                )
                continue
            request = service_pb2.ApplyMoveRequest(
                game_id=game.game_id,
                seat_token=seats[mover].token,
                expected_version=version,
                move=self.rng.choice(moves),
                idempotency_key=f"{game.game_id}-{version}",
            )
            t0 = time.perf_counter()
            await clients[mover].stub.ApplyMove(request)
            latencies.append(time.perf_counter() - t0)


# -- servers --------------------------------------------------------------------------


def bgio_install() -> None:
    package = PEER / "package.json"
    installed = BGIO_DEPS / "package.json"
    if (BGIO_DEPS / "node_modules/boardgame.io/package.json").exists() and (
        installed.exists() and installed.read_bytes() == package.read_bytes()
    ):
        return
    BGIO_DEPS.mkdir(parents=True, exist_ok=True)
    shutil.copy(package, installed)
    subprocess.run(
        ["npm", "install", "--no-audit", "--no-fund", "--loglevel=error"],
        cwd=BGIO_DEPS,
        check=True,
        timeout=600,
    )


@contextlib.contextmanager
def bgio_server() -> Iterator[tuple[int, int]]:
    env = dict(os.environ, NODE_PATH=str(BGIO_DEPS / "node_modules"), NODE_ENV="production")
    proc = subprocess.Popen(
        ["node", str(PEER / "server.js"), "0"],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        found = re.match(r"listening 127\.0\.0\.1:(\d+)", line)
        if not found:
            raise RuntimeError(f"boardgame.io server did not start: {line!r}")
        yield int(found.group(1)), proc.pid
    finally:
        proc.terminate()
        proc.wait(20)


def bgio_load(port: int, pid: int, matches: int, min_moves: int) -> dict[str, Any]:
    env = dict(os.environ, NODE_PATH=str(BGIO_DEPS / "node_modules"))
    out = subprocess.run(
        [
            *("node", str(PEER / "load.js"), "--port", str(port), "--server-pid", str(pid)),
            *("--matches", str(matches), "--min-moves", str(min_moves), "--timeout-s", "120"),
        ],
        env=env,
        capture_output=True,
        text=True,
        timeout=150,
        check=False,
    )
    row: dict[str, Any] = json.loads(out.stdout.strip().splitlines()[-1])
    if "error" in row:
        raise RuntimeError(f"boardgame.io load failed: {row}")
    row["store_cpu_ms_per_move"] = 0.0
    return row


# -- the run ----------------------------------------------------------------------------


GOAL_MOVES_PER_S = 1.0
GOAL_CPU_PER_MOVE = 1.5
"""The goal of the comparison (docs/performance.md): moves/s at least
boardgame.io's, and the server's CPU per move within 1.5x of boardgame.io's."""


def goal(speed: float, cpu: float) -> str:
    """Whether a row's ratios (moves/s, CPU per move) meet the goal, or which fall short."""
    short = [
        what
        for what, ok in (
            ("moves/s", speed >= GOAL_MOVES_PER_S),
            ("CPU/move", cpu <= GOAL_CPU_PER_MOVE),
        )
        if not ok
    ]
    return "goal met" if not short else f"goal short: {', '.join(short)}"


def median_rows(rows: list[dict[str, Any]]) -> dict[str, float]:
    return {k: statistics.median(r[k] for r in rows) for k in KEYS}


def show(name: str, m: int, row: dict[str, Any]) -> None:
    print(
        f"  {name:<24} M={m:<3} {row['moves_per_s']:8.0f} moves/s   p50 {row['p50_ms']:6.2f} ms"
        f"   p99 {row['p99_ms']:6.2f} ms   server CPU {row['server_cpu_ms_per_move']:5.3f} ms/move"
        + (
            f" (+ redis {row['store_cpu_ms_per_move']:5.3f})"
            if row.get("store_cpu_ms_per_move")
            else ""
        )
        + (f"   event loop {row['loop_busy']:.0%} busy" if "loop_busy" in row else ""),
        flush=True,
    )


Server = tuple[str, list[int], redis.Redis | None, str, str]
"""A Throneroom server as a row of the table: its address, its processes, the
Redis it stores in (None: memory), the API its bots use, its REST address."""


def parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--sizes", type=int, nargs="+", default=[1, 8, 32])
    parser.add_argument("--min-moves", type=int, default=8000)
    parser.add_argument("--stores", nargs="+", default=["memory", "redis"])
    parser.add_argument(
        "--workers",
        type=int,
        nargs="+",
        default=[1],
        help="server processes on Redis (one Throneroom server per count given: --workers 1 2)",
    )
    parser.add_argument(
        "--apis",
        nargs="+",
        choices=["play", "unary", "websocket"],
        default=["play", "websocket", "unary"],
        help="how the Throneroom bots play: Play sessions on gRPC streams (one per seat),"
        " the same sessions on WebSockets, and/or WatchGame + ApplyMove",
    )
    parser.add_argument(
        "--game",
        choices=sorted(GAMES),
        default="king_is_dead",
        help="what Throneroom's bots play: King Is Dead, or Nim (96 stones, about 48 moves,"
        " rules that cost next to nothing, like the boardgame.io harness's game)",
    )
    parser.add_argument("--no-bgio", action="store_true", help="measure Throneroom alone")
    parser.add_argument("--json", action="store_true", help="also print every run as JSON")
    parser.add_argument(
        "--floor", action="store_true", help="also measure a bare grpc.aio server's cost per move"
    )
    return parser


def start_bgio(stack: contextlib.ExitStack) -> tuple[int, int] | None:
    """boardgame.io's server (its port and pid), or None where it cannot run."""
    try:
        bgio_install()
        return stack.enter_context(bgio_server())
    except (OSError, subprocess.SubprocessError, RuntimeError) as exc:
        print(f"# boardgame.io unavailable ({exc}); measuring Throneroom alone")
        return None


def start_throneroom(stack: contextlib.ExitStack, ns: argparse.Namespace) -> dict[str, Server]:
    """One Throneroom server per store (and per worker count on Redis), one row
    per API its bots use, by row name."""
    servers: dict[str, Server] = {}
    for store in ns.stores:
        url = stack.enter_context(throwaway_redis()) if store == "redis" else None
        for workers in ns.workers if url else [1]:
            http = f"127.0.0.1:{free_port()}" if "websocket" in ns.apis else ""
            address, pid = stack.enter_context(
                throneroom_server(url, workers, fixtures=ns.game == "nim", http=http)
            )
            if http:
                wait_for_port(int(http.rsplit(":", 1)[1]))
            client = redis.Redis.from_url(url) if url else None
            if client is not None:
                stack.callback(client.close)
            name = f"throneroom/{store}" + (f" x{workers}" if workers > 1 else "")
            for api in ns.apis:
                suffix = f" {api}" if api != "play" and len(ns.apis) > 1 else ""
                servers[name + suffix] = (address, process_tree(pid), client, api, http)
    return servers


def show_medians(
    ns: argparse.Namespace,
    names: list[str],
    results: dict[tuple[str, int], list[dict[str, Any]]],
    bgio: bool,
) -> None:
    """Each row's medians over the runs, with its ratios to boardgame.io's."""
    print(f"# medians over {ns.runs} runs (ratios: Throneroom / boardgame.io)")
    for m in ns.sizes:
        base = median_rows(results[("boardgame.io", m)]) if bgio else None
        for name in names:
            med = median_rows(results[(name, m)])
            ratio = ""
            if base and name != "boardgame.io":
                cpu = med["server_cpu_ms_per_move"] / base["server_cpu_ms_per_move"]
                total = (med["server_cpu_ms_per_move"] + med["store_cpu_ms_per_move"]) / base[
                    "server_cpu_ms_per_move"
                ]
                speed = med["moves_per_s"] / base["moves_per_s"]
                ratio = (
                    f"   moves/s {speed:4.2f}x"
                    f"   CPU/move {cpu:4.2f}x"
                    + (f" ({total:4.2f}x with redis)" if med["store_cpu_ms_per_move"] else "")
                    + f"   {goal(speed, cpu)}"
                )
            print(
                f"  {name:<24} M={m:<3} {med['moves_per_s']:8.0f} moves/s   p50 "
                f"{med['p50_ms']:6.2f} ms   CPU {med['server_cpu_ms_per_move']:5.3f} ms/move"
                + ratio
            )


def main() -> int:
    ns = parser().parse_args()
    if ns.floor:
        from peer_floor import floor  # noqa: PLC0415  (a rare option)

        floor(ns.sizes, ns.min_moves)

    with contextlib.ExitStack() as stack:
        bgio = None if ns.no_bgio else start_bgio(stack)
        servers = start_throneroom(stack, ns)

        def run_one(name: str, m: int, min_moves: int) -> dict[str, Any]:
            if name == "boardgame.io":
                assert bgio is not None
                return bgio_load(bgio[0], bgio[1], m, min_moves)
            address, pids, client, api, http = servers[name]
            load = ThroneroomLoad(
                address,
                pids,
                client,
                seed=m,
                play=api != "unary",
                websocket=http if api == "websocket" else "",
                game=ns.game,
            )
            return asyncio.run(load.run(m, min_moves))

        names = (["boardgame.io"] if bgio else []) + list(servers)
        print(
            f"# peer benchmark: {', '.join(names)}; Throneroom plays {ns.game}; M = {ns.sizes};"
            f" >= {ns.min_moves} moves "
            f"per run; {ns.runs} runs, interleaved; {os.cpu_count()} CPUs, "
            f"load average {os.getloadavg()[0]:.1f}",
            flush=True,
        )
        for name in names:  # warm-up, not counted
            run_one(name, 8, 500)
        results: dict[tuple[str, int], list[dict[str, Any]]] = {}
        for r in range(ns.runs):
            print(f"# run {r + 1}", flush=True)
            for m in ns.sizes:
                for name in names:
                    row = run_one(name, m, ns.min_moves)
                    results.setdefault((name, m), []).append(row)
                    show(name, m, row)
                    if ns.json:
                        print(json.dumps({"server": name, "run": r + 1, **row}), flush=True)

    show_medians(ns, names, results, bgio is not None)
    return 0


if __name__ == "__main__":
    sys.exit(main())
