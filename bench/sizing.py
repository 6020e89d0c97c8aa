"""Sizing figures for docs/scaling.md, measured on a throwaway redis-server.

    python bench/sizing.py                 # all three parts
    python bench/sizing.py --seconds 5     # longer commit run

1. Redis bytes per game: every real game (its golden variants) played with
   random legal moves through the App on a RedisStore; ``MEMORY USAGE`` of the
   game's hash and stream (samples 0: exact) at version 0, half way, right
   after the last move and once finished (the stream expired beside the
   packed log, ``Retention.finished_log_seconds``, set short here), the
   bytes per version and the goal of each game's largest variants ("ok" or
   "OVER": issue 30's bytes per finished game).
2. Lua commits one Redis core sustains: CONCURRENCY clients commit moves
   carrying a 2-seat King Is Dead state (commit.lua through the service's own
   store: one EVALSHA each, multiplexed)
   for a few seconds (each entry with a move, so one in CHECKPOINT_EVERY
   keeps the state); commits/s and redis-server CPU seconds per commit
   (utime + stime from /proc), so commits per CPU-second of Redis.
3. Service CPU per move: The King Is Dead moves through the App on the memory
   store and on Redis in this process (CPU time of this process, engine and
   service path without gRPC); the gRPC transport's share is in
   docs/performance.md (bench/peer.py).
4. Server memory per watch stream: one server process (``--workers 1``) on
   Redis; WATCH_GAMES 2-seat games, two gRPC ``WatchGame`` streams each
   (the plan's clients: one stream per seat), first on a few shared
   connections, then each on a connection of its own; the server's resident
   memory (``VmRSS``) before and after each, per stream and per connection.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import sys
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import grpc
import redis

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "sdk"), str(ROOT / "service")]

from throneroom.envelopes import wrap_options  # noqa: E402
from throneroom.v1 import (  # noqa: E402
    service_pb2,
    service_pb2_grpc,
    storage_pb2,
)
from throneroom_server.app.service import App  # noqa: E402
from throneroom_server.games.registry import build_registry, service_games  # noqa: E402
from throneroom_server.store.base import Committed, Retention, Store  # noqa: E402
from throneroom_server.store.memory import MemoryStore  # noqa: E402
from throneroom_server.store.redis import RedisStore, game_key, log_key  # noqa: E402

from throneroom_dev.processes import server_process, throwaway_redis  # noqa: E402

GAMES = service_games(include_fixtures=True)
TICKS = os.sysconf("SC_CLK_TCK")
GOALS = {
    ("king_is_dead", 2, ""): 6_000,
    ("king_is_dead", 4, "mordred=True"): 12_000,
    ("kings_life", 8, ""): 45_000,
    ("kill_the_king", 2, ""): 200_000,
    ("kill_the_king", 2, "advanced=True"): 200_000,
    ("kill_the_king", 4, "mode=3"): 700_000,
}
"""Bytes per finished game (issue 30): each game and mode at its largest seat count."""
LOG_GRACE = 1.0
"""Seconds a finished game's stream outlives its packed log, here (long enough
for the "last move" column to be read before it expires on a loaded machine)."""
TOP_LEVEL = frozenset({"evalsha", "eval", "hmget", "xrange", "xread", "zadd", "zrangebyscore"})
"""Commands the service sends itself (the rest run inside its scripts)."""


def _bytes(client: redis.Redis, game_id: str) -> int:
    total = 0
    for key in (game_key(game_id), log_key(game_id)):
        used = client.memory_usage(key, samples=0)
        total += int(used or 0)
    return total


async def _play(
    app: App,
    game: str,
    seats: int,
    values: Mapping[str, bool | int | float | str],
    *,
    seed: int,
    on_version: Callable[[str, int], None],
) -> int:
    game_id, _ = await app.create_game(wrap_options(game, values), seats, seed)
    tokens = [(await app.join_game(game_id, None, f"p{n}"))[1] for n in range(seats)]
    rng = random.Random(seed)
    while True:
        snapshot = await app.get_game(game_id, "")
        on_version(game_id, snapshot.version)
        if snapshot.finished:
            return snapshot.version
        seat = snapshot.to_act[rng.randrange(len(snapshot.to_act))]
        version, _, moves = await app.legal_moves(game_id, tokens[seat])
        await app.apply_move(
            game_id, tokens[seat], version, moves[rng.randrange(len(moves))], f"k{version}"
        )


async def bytes_per_game(url: str, games: int) -> None:
    print("1. Redis bytes per game (MEMORY USAGE of its hash + stream, exact)")
    print(f"{'game':<16}{'seats':>6}{'options':>22}{'versions':>9}{'start':>7}"
          f"{'half way':>10}{'last move':>11}{'finished':>10}{'/version':>9}"
          f"{'goal':>9}")  # fmt: skip
    client = redis.Redis.from_url(url)
    store = RedisStore(url, retention=Retention(finished_log_seconds=LOG_GRACE))
    app = App(store, GAMES)
    for name, game in build_registry().items():
        for golden in game.testing.golden:
            seats, values = golden.variant.seats, dict(golden.variant.options)
            rows = []
            for seed in range(games):
                seen: dict[int, int] = {}

                last: list[str] = [""]

                def note(
                    game_id: str, version: int, seen: dict[int, int] = seen, last: list[str] = last
                ) -> None:
                    seen[version] = _bytes(client, game_id)
                    last[0] = game_id

                versions = await _play(app, name, seats, values, seed=100 + seed, on_version=note)
                game_id = last[0]
                deadline = time.monotonic() + 10
                while client.exists(log_key(game_id)) and time.monotonic() < deadline:
                    await asyncio.sleep(LOG_GRACE)  # (EXISTS expires the stream once due)
                kept = _bytes(client, game_id)
                rows.append((versions, seen[0], seen[versions // 2], seen[versions], kept))
            versions = int(statistics.median(r[0] for r in rows))
            start, half, end, kept = (
                int(statistics.median(r[i] for r in rows)) for i in (1, 2, 3, 4)
            )
            label = ",".join(f"{k}={v}" for k, v in values.items())
            goal = GOALS.get((name, seats, label))
            met = "" if goal is None else f"{goal:,}" + (" ok" if kept <= goal else " OVER")
            print(f"{name:<16}{seats:>6}{label or '-':>22}{versions:>9}{start:>7,}{half:>10,}"
                  f"{end:>11,}{kept:>10,}{(kept - start) / max(1, versions):>9,.0f}"
                  f"{met:>12}")  # fmt: skip
    await store.close()
    client.close()
    print()


def _redis_cpu(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


async def commits_per_core(url: str, seconds: float, concurrency: int) -> None:
    client = redis.Redis.from_url(url)
    pid = int(client.info("server")["process_id"])
    store: Store = RedisStore(url)
    kid = GAMES["king_is_dead"]
    state = kid.setup(wrap_options("king_is_dead", {}), 2, 1)
    move = kid.legal_moves(state, kid.to_act(state)[0])[0]
    size = state.ByteSize()
    print(f"2. Lua commits on one Redis ({concurrency} clients, {seconds:g} s, "
          f"a {size}-byte King Is Dead state per commit)")  # fmt: skip
    meta = storage_pb2.StoredGameMeta(game_type="king_is_dead", num_seats=2, seed=1)
    for n in range(concurrency):
        await store.create_game(f"c{n}", meta, state)
    done = 0
    stop = time.monotonic() + seconds

    async def committer(n: int) -> None:
        nonlocal done
        version = 0
        while time.monotonic() < stop:
            entry = storage_pb2.StoredEntry(version=version + 1, seat=version % 2, move=move)
            result = await store.commit(f"c{n}", version, state, entry, f"k{version}")
            assert isinstance(result, Committed)
            version = result.version
            done += 1

    cpu0, wall0 = _redis_cpu(pid), time.monotonic()
    await asyncio.gather(*(committer(n) for n in range(concurrency)))
    cpu, wall = _redis_cpu(pid) - cpu0, time.monotonic() - wall0
    await store.close()
    client.close()
    print(f"   {done / wall:,.0f} commits/s with this one Python client process; "
          f"redis-server CPU {cpu / done * 1e6:,.1f} us per commit -> "
          f"{done / cpu:,.0f} commits per Redis CPU-second (one core)")  # fmt: skip
    print()


async def cpu_per_move(url: str, games: int) -> None:
    print("3. Service CPU per move, The King Is Dead 2 seats, App in this process (no gRPC)")
    client = redis.Redis.from_url(url)
    for label, store in (("memory", MemoryStore()), ("redis", RedisStore(url))):
        app = App(store, GAMES)
        client.config_resetstat()
        moves = 0
        cpu0 = time.process_time()
        for seed in range(games):
            moves += await _play(
                app, "king_is_dead", 2, {}, seed=500 + seed, on_version=lambda *_: None
            )
        cpu = time.process_time() - cpu0
        await store.close()
        print(f"   {label:<7} {cpu / moves * 1000:.3f} ms CPU per move "
              f"(legal moves + apply + snapshot per move, {moves} moves)")  # fmt: skip
        if label == "redis":
            stats = client.info("commandstats")
            spent = {k.removeprefix("cmdstat_"): v for k, v in stats.items()}
            # Commands run inside a script count in the script's time too:
            # add up the round trips only.
            total = sum(v["usec"] for k, v in spent.items() if k in TOP_LEVEL)
            parts = ", ".join(
                f"{name} {v['calls'] / moves:.2f}x {v['usec_per_call']:.1f} us"
                for name, v in sorted(spent.items(), key=lambda kv: -kv[1]["usec"])[:5]
            )
            print(f"   redis-server: {total / moves:.1f} us of round-trip command time per move "
                  f"({parts}; the game played by a test harness: every move also reads "
                  "the snapshot and the legal moves)")  # fmt: skip
    client.close()
    print()


SHARED_CONNECTIONS = 8
OPEN_BATCH = 500
"""Streams opened at once: gRPC's server cancels the calls of a burst beyond
its queue of calls not yet taken by the application (about 1,000)."""


def _rss_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError(f"no VmRSS for {pid}")


async def _open_streams(
    channels: list[grpc.aio.Channel], game_ids: list[str]
) -> list[grpc.aio.UnaryStreamCall[Any, Any]]:
    """Two streams per game (one per seat, as spectators: the same reader and
    fan-out), spread over ``channels``; each has had its first update."""
    calls = []
    todo = game_ids * 2
    for start in range(0, len(todo), OPEN_BATCH):  # within gRPC's queue of calls not yet taken
        batch = []
        for n, game_id in enumerate(todo[start : start + OPEN_BATCH], start):
            stub = service_pb2_grpc.ThroneroomStub(channels[n % len(channels)])
            request = service_pb2.WatchGameRequest(
                game_id=game_id, include_current=True, heartbeat_seconds=300
            )
            batch.append(stub.WatchGame(request))
        await asyncio.gather(*(call.read() for call in batch))
        calls += batch
    return calls


async def _streams_rss(url: str, games: int, connections: int) -> tuple[int, int]:
    """A fresh server process's RSS (KB) with the games created, then with
    two streams per game open over ``connections`` connections."""
    streams = 2 * games
    env = {
        "THRONEROOM_MAX_STREAMS": str(streams + 100),
        "THRONEROOM_MAX_STREAMS_PER_CLIENT": str(streams + 100),
        "THRONEROOM_MAX_WATCHED_GAMES": str(games + 100),
        "THRONEROOM_MAX_CONNECTIONS": str(streams + 100),
        "THRONEROOM_MAX_CALLS": str(streams + 1000),
        "THRONEROOM_ACCESS_LOG": "0",
    }
    redis.Redis.from_url(url).flushall()
    with server_process(url, env=env) as (address, pid):
        admin = grpc.aio.insecure_channel(address)
        stub = service_pb2_grpc.ThroneroomStub(admin)
        options = wrap_options("king_is_dead", None)
        game_ids = []
        for seed in range(games):
            created = await stub.CreateGame(
                service_pb2.CreateGameRequest(num_seats=2, seed=seed, options=options)
            )
            game_ids.append(created.game_id)
        warm = await _open_streams([admin], game_ids[:20])  # lazy imports, first buffers
        for call in warm:
            call.cancel()
        await asyncio.sleep(1.0)
        before = _rss_kb(pid)
        channels = [grpc.aio.insecure_channel(address) for _ in range(connections)]
        calls = await _open_streams(channels, game_ids)
        await asyncio.sleep(1.0)
        after = _rss_kb(pid)
        for call in calls:
            call.cancel()
        await asyncio.gather(*(channel.close(None) for channel in channels))
        await admin.close(None)
    return before, after


async def memory_per_stream(url: str, games: int) -> None:
    streams = 2 * games
    print(f"\n## 4. Server memory per watch stream ({streams:,} streams on {games:,} games)\n")
    print("| streams on | connections | server RSS before | after | per stream |")
    print("|---|---|---|---|---|")
    for label, count in (
        (f"{SHARED_CONNECTIONS} shared connections", SHARED_CONNECTIONS),
        ("one connection per stream", streams),
    ):
        before, after = await _streams_rss(url, games, count)
        per = (after - before) / streams
        print(
            f"| {label} | {count:,} | {before / 1024:.0f} MB | {after / 1024:.0f} MB |"
            f" {per:.1f} KB |"
        )


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="commit run (default: 3)")
    parser.add_argument("--games", type=int, default=3, help="games per variant (default: 3)")
    parser.add_argument("--concurrency", type=int, default=64, help="committers (default: 64)")
    parser.add_argument(
        "--watch-games", type=int, default=2000, help="games watched in part 4 (default: 2000)"
    )
    parser.add_argument("--parts", default="1234", help="which parts to run (default: 1234)")
    args = parser.parse_args()
    with throwaway_redis() as url:
        if "1" in args.parts:
            await bytes_per_game(url, args.games)
            redis.Redis.from_url(url).flushall()
        if "2" in args.parts:
            await commits_per_core(url, args.seconds, args.concurrency)
            redis.Redis.from_url(url).flushall()
        if "3" in args.parts:
            await cpu_per_move(url, args.games)
            redis.Redis.from_url(url).flushall()
        if "4" in args.parts:
            await memory_per_stream(url, args.watch_games)


if __name__ == "__main__":
    asyncio.run(main())
