"""ApplyMove throughput and latency through gRPC + Redis, against a no-op RPC.

Starts a throwaway redis-server and a throneroom-server process on it, then
drives it from this process with CONCURRENCY async clients:

1. Ping (a no-op RPC through the same server, interceptors included): the
   ceiling for any RPC on this machine;
2. ApplyMove on Nim games (the fixture game: engine cost near zero, so this
   measures the service path: load, apply, Lua commit, response);
3. ApplyMove on The King Is Dead (a real engine; bots pick random legal moves,
   with ListLegalMoves outside the timed ApplyMove calls).

Prints throughput (calls/s), p50/p99 latency, the ratio to Ping, and the Redis
commands per ApplyMove from INFO commandstats (top-level round trips and all
commands including those run inside the Lua script).
Goal (issue #2): ApplyMove >= 0.6x Ping throughput, <= 2 round trips per move.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

import grpc
import redis

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "sdk"), str(ROOT / "service")]

from throneroom.v1 import game_pb2, nim_pb2, service_pb2, service_pb2_grpc  # noqa: E402

from throneroom_dev.processes import SERVER_COMMAND, server_process, throwaway_redis  # noqa: E402

SERVER_CMD = os.environ.get("BENCH_SERVER_CMD", " ".join(SERVER_COMMAND)).split()
TOP_LEVEL = {"hmget", "evalsha", "eval"}


def commandstats(url: str) -> dict[str, int]:
    client = redis.Redis.from_url(url)
    stats = client.info("commandstats")
    client.close()
    return {name.removeprefix("cmdstat_"): int(v["calls"]) for name, v in stats.items()}


def diff(after: dict[str, int], before: dict[str, int]) -> dict[str, int]:
    return {k: v - before.get(k, 0) for k, v in after.items() if v - before.get(k, 0)}


async def timed(
    concurrency: int, seconds: float, call: Callable[[int], Awaitable[None]]
) -> tuple[int, list[float]]:
    latencies: list[float] = []
    stop_at = time.perf_counter() + seconds

    async def worker(n: int) -> None:
        while time.perf_counter() < stop_at:
            t0 = time.perf_counter()
            await call(n)
            latencies.append(time.perf_counter() - t0)

    await asyncio.gather(*(worker(n) for n in range(concurrency)))
    return len(latencies), latencies


def line(
    name: str, count: int, latencies: list[float], seconds: float, ceiling: float | None
) -> float:
    rate = count / seconds
    q = statistics.quantiles(latencies, n=100)
    ratio = f"{rate / ceiling:5.2f}x" if ceiling else "  1.00x"
    print(
        f"  {name:<28} {rate:9.0f}/s   p50 {q[49] * 1000:7.2f} ms"
        f"   p99 {q[98] * 1000:7.2f} ms   {ratio}"
    )
    return rate


class NimPlayer:
    """One game of Nim with a huge pile; plays both seats alternately."""

    def __init__(self, stub: service_pb2_grpc.ThroneroomStub) -> None:
        self.stub = stub
        self.game_id = ""
        self.tokens: list[str] = []
        self.version = 0

    async def start(self) -> None:
        created = await self.stub.CreateGame(
            service_pb2.CreateGameRequest(
                options=game_pb2.GameOptions(nim=nim_pb2.NimOptions(pile=1000, max_take=1)),
                num_seats=2,
            )
        )
        self.game_id = created.game_id
        self.tokens = [
            (await self.stub.JoinGame(service_pb2.JoinGameRequest(game_id=self.game_id))).seat_token
            for _ in range(2)
        ]
        self.version = 0

    async def move(self) -> None:
        if self.version >= 999:
            await self.start()
        reply = await self.stub.ApplyMove(
            service_pb2.ApplyMoveRequest(
                game_id=self.game_id,
                seat_token=self.tokens[self.version % 2],
                expected_version=self.version,
                move=game_pb2.Move(nim=nim_pb2.NimMove(take=1)),
                idempotency_key=f"{self.game_id}-{self.version}",
            )
        )
        self.version = reply.version


class KingIsDeadPlayer:
    """One game of The King Is Dead (3 seats); random legal moves."""

    def __init__(self, stub: service_pb2_grpc.ThroneroomStub, rng: random.Random) -> None:
        self.stub = stub
        self.rng = rng
        self.game_id = ""
        self.tokens: list[str] = []
        self.version = 0
        self.next: service_pb2.ApplyMoveRequest | None = None

    async def start(self) -> None:
        created = await self.stub.CreateGame(
            service_pb2.CreateGameRequest(
                options=game_pb2.GameOptions(king_is_dead={}),
                num_seats=3,
                seed=self.rng.getrandbits(32),
            )
        )
        self.game_id = created.game_id
        self.tokens = [
            (await self.stub.JoinGame(service_pb2.JoinGameRequest(game_id=self.game_id))).seat_token
            for _ in range(3)
        ]
        self.version = 0
        await self.prepare(None)

    async def prepare(self, snapshot: service_pb2.GameSnapshot | None) -> None:
        """Choose the next move (untimed)."""
        if snapshot is None:
            snapshot = (
                await self.stub.GetGame(service_pb2.GetGameRequest(game_id=self.game_id))
            ).snapshot
        if snapshot.finished:
            self.next = None
            return
        token = self.tokens[snapshot.to_act[0]]
        moves = await self.stub.ListLegalMoves(
            service_pb2.ListLegalMovesRequest(game_id=self.game_id, seat_token=token)
        )
        self.next = service_pb2.ApplyMoveRequest(
            game_id=self.game_id,
            seat_token=token,
            expected_version=self.version,
            move=self.rng.choice(list(moves.moves)),
            idempotency_key=f"{self.game_id}-{self.version}",
        )


async def run(address: str, url: str, seconds: float, concurrency: int) -> None:
    channel = grpc.aio.insecure_channel(address)
    stub = service_pb2_grpc.ThroneroomStub(channel)
    await stub.Ping(service_pb2.PingRequest())
    print(
        f"throneroom service benchmark: {concurrency} concurrent clients, "
        f"{seconds:.0f} s per figure,"
    )
    print("server and redis-server in their own processes on this machine (2 cores shared).")

    async def ping(_: int) -> None:
        await stub.Ping(service_pb2.PingRequest())

    await timed(concurrency, 1.0, ping)  # warm-up
    count, lat = await timed(concurrency, seconds, ping)
    ceiling = line("Ping (no-op ceiling)", count, lat, seconds, None)

    players = [NimPlayer(stub) for _ in range(concurrency)]
    for p in players:
        await p.start()

    async def nim(n: int) -> None:
        await players[n].move()

    await timed(concurrency, 1.0, nim)
    before = commandstats(url)
    count, lat = await timed(concurrency, seconds, nim)
    after = diff(commandstats(url), before)
    line("ApplyMove (Nim, service path)", count, lat, seconds, ceiling)
    top = sum(v for k, v in after.items() if k in TOP_LEVEL)
    per_command = ", ".join(f"{k}={v / count:.2f}" for k, v in sorted(after.items()))
    total = sum(after.values())
    print(
        f"  Redis per ApplyMove: {top / count:.2f} round trips (top-level commands), "
        f"{total / count:.2f} commands in all  [{per_command}]"
    )

    rng = random.Random(1)
    kid = [KingIsDeadPlayer(stub, random.Random(rng.random())) for _ in range(concurrency)]
    for p in kid:
        await p.start()
    applied = [0]

    async def kid_move(n: int) -> None:
        player = kid[n]
        if player.next is None:
            await player.start()
        assert player.next is not None
        reply = await stub.ApplyMove(player.next)
        player.version = reply.version
        applied[0] += 1
        # Choosing the next move is not ApplyMove's cost; it still takes the
        # event loop's time, so this figure is a lower bound.
        await player.prepare(reply.snapshot)

    t0 = time.perf_counter()
    count, lat = await timed(concurrency, seconds, kid_move)
    elapsed = time.perf_counter() - t0
    print(
        f"  ApplyMove (King Is Dead)     {count / elapsed:9.0f}/s"
        f"   p50 {statistics.median(lat) * 1000:7.2f} ms"
        "   (includes choosing the next move: one ListLegalMoves per move)"
    )
    await channel.close()


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--concurrency", type=int, default=32)
    ns = parser.parse_args()
    env = {"THRONEROOM_FIXTURE_GAMES": "1", "THRONEROOM_LOG_FORMAT": "json"}
    with throwaway_redis() as url, server_process(url, env=env, command=SERVER_CMD) as (address, _):
        asyncio.run(run(address, url, ns.seconds, ns.concurrency))
    return 0


if __name__ == "__main__":
    sys.exit(main())
