"""One Redis Cluster primary's failover, seen by the games on every shard.

A throwaway cluster (3 primaries, 1 replica each, ``cluster-node-timeout``
``--node-timeout-ms``) behind one server; GAMES Nim games per shard played
at once through ``ApplyMove`` (each call with a 5 s deadline), a few seconds
of steady load, then one primary SIGKILLed; its replica is promoted by the
cluster itself after the node timeout. Prints, per phase (before the kill,
from the kill until the promoted replica answers, after), the moves per
second on the healthy shards and on the dead one, the calls that failed
and with which code, and the longest call of each. A failover confined to
its shard keeps the healthy shards' rate and fails the dead shard's calls
fast (UNAVAILABLE) until the promotion, then serves them again.

    python bench/failover.py [--games 4] [--node-timeout-ms 2000] [--after 5]
"""

from __future__ import annotations

import argparse
import asyncio
import signal
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "sdk"), str(ROOT / "service")]

import grpc  # noqa: E402
import redis  # noqa: E402
import redis.asyncio as aioredis  # noqa: E402
from redis.crc import key_slot  # noqa: E402
from throneroom.v1 import game_pb2, nim_pb2, service_pb2, service_pb2_grpc  # noqa: E402
from throneroom_server.runtime.config import Config  # noqa: E402
from throneroom_server.runtime.logs import configure_logging  # noqa: E402
from throneroom_server.runtime.server import create_server, make_store  # noqa: E402
from throneroom_server.store.redis import RedisStore, log_key  # noqa: E402

from throneroom_dev.processes import redis_cluster_processes  # noqa: E402

PILE = 1000
CALL_DEADLINE = 5.0


@dataclass
class Call:
    """One ApplyMove: when it started and ended, on which shard, its code."""

    start: float
    end: float
    dead_shard: bool
    code: str  # "OK" or the gRPC status name


@dataclass
class Failover:
    """What one failover did to the calls, by phase."""

    killed_at: float
    promoted_at: float
    stopped_at: float
    calls: list[Call] = field(default_factory=list)
    acknowledged: dict[str, int] = field(default_factory=dict)
    """Per game, the newest version a call acknowledged."""
    stored: dict[str, int] = field(default_factory=dict)
    """Per game, its version in the cluster after the run."""

    def phase(self, call: Call) -> str:
        if call.start < self.killed_at:
            return "before"
        return "during" if call.start < self.promoted_at else "after"

    def bounds(self, phase: str) -> tuple[float, float]:
        first = min(c.start for c in self.calls)
        return {
            "before": (first, self.killed_at),
            "during": (self.killed_at, self.promoted_at),
            "after": (self.promoted_at, self.stopped_at),
        }[phase]

    def moves(self, phase: str, dead_shard: bool) -> int:
        return sum(
            1
            for c in self.calls
            if c.code == "OK" and c.dead_shard == dead_shard and self.phase(c) == phase
        )

    def rate(self, phase: str, dead_shard: bool) -> float:
        start, end = self.bounds(phase)
        return self.moves(phase, dead_shard) / max(end - start, 1e-9)

    def failures(self, phase: str, dead_shard: bool) -> Counter[str]:
        return Counter(
            c.code
            for c in self.calls
            if c.code != "OK" and c.dead_shard == dead_shard and self.phase(c) == phase
        )

    def longest(self, phase: str, dead_shard: bool) -> float:
        spans = [
            c.end - c.start
            for c in self.calls
            if c.dead_shard == dead_shard and self.phase(c) == phase
        ]
        return max(spans, default=0.0)


async def _new_game(stub: service_pb2_grpc.ThroneroomStub, seed: int) -> tuple[str, list[str]]:
    created = await stub.CreateGame(
        service_pb2.CreateGameRequest(
            options=game_pb2.GameOptions(nim=nim_pb2.NimOptions(pile=PILE, max_take=1)),
            num_seats=2,
            seed=seed,
        ),
        timeout=CALL_DEADLINE,
    )
    tokens = []
    for n in range(2):
        joined = await stub.JoinGame(
            service_pb2.JoinGameRequest(game_id=created.game_id, display_name=f"p{n}"),
            timeout=CALL_DEADLINE,
        )
        tokens.append(joined.seat_token)
    return created.game_id, tokens


async def _game_on(
    stub: service_pb2_grpc.ThroneroomStub, slots: dict[int, int], port: int, seed: int
) -> tuple[str, list[str]]:
    """A new game whose keys live on the primary at ``port``."""
    while True:
        seed += 1000
        game_id, tokens = await _new_game(stub, seed)
        if slots[key_slot(log_key(game_id).encode())] == port:
            return game_id, tokens


async def _play(
    stub: service_pb2_grpc.ThroneroomStub,
    first: tuple[str, list[str]],
    *,
    shard: tuple[dict[int, int], int],
    dead_shard: bool,
    calls: list[Call],
    acknowledged: dict[str, int],
    stop: asyncio.Event,
) -> None:
    """One stone at a time, each move retried with its key after a failure;
    a finished game is followed by a new one on the same shard."""
    game_id, tokens = first
    version = 0
    while not stop.is_set():
        request = service_pb2.ApplyMoveRequest(
            game_id=game_id,
            seat_token=tokens[version % 2],
            expected_version=version,
            move=game_pb2.Move(nim=nim_pb2.NimMove(take=1)),
            idempotency_key=f"{game_id}-{version}",
        )
        start = time.monotonic()
        try:
            response = await stub.ApplyMove(request, timeout=CALL_DEADLINE)
        except grpc.aio.AioRpcError as exc:
            calls.append(Call(start, time.monotonic(), dead_shard, exc.code().name))
            await asyncio.sleep(0.05)  # the client's back-off before its retry
            continue
        calls.append(Call(start, time.monotonic(), dead_shard, "OK"))
        version = response.snapshot.version
        acknowledged[game_id] = version
        if response.snapshot.finished:
            game_id, tokens = await _game_on(stub, *shard, seed=version)
            version = 0


async def _stored(url: str, game_ids: list[str]) -> dict[str, int]:
    """Each game's version as the cluster keeps it."""
    store = RedisStore(url, cluster=True)
    try:
        return {game_id: (await store.load(game_id)).version for game_id in game_ids}
    finally:
        await store.close()


def _shard_ports(urls: list[str]) -> dict[int, int]:
    """Slot -> the port of the primary serving it, from a node's CLUSTER SLOTS."""
    client = redis.Redis.from_url(urls[0])
    try:
        slots: dict[int, int] = {}
        for first, last, primary, *_ in client.execute_command("CLUSTER SLOTS"):
            for slot in range(int(first), int(last) + 1):
                slots[slot] = int(primary[1])
        return slots
    finally:
        client.close()


async def _promoted(url: str, killed_port: int, deadline: float) -> None:
    """Until CLUSTER SLOTS on a live node names another primary for the
    killed one's slots (the replica was promoted)."""
    client = aioredis.Redis.from_url(url)
    try:
        while time.monotonic() < deadline:
            ports = {int(row[2][1]) for row in await client.execute_command("CLUSTER SLOTS")}
            state = (await client.execute_command("CLUSTER INFO")).get("cluster_state")
            if killed_port not in ports and state in ("ok", b"ok"):
                return
            await asyncio.sleep(0.05)
        raise RuntimeError("the replica was not promoted in time")
    finally:
        await client.aclose()


async def measure(
    games: int = 4, node_timeout_ms: int = 2000, after: float = 5.0, full_coverage: bool = False
) -> Failover:
    """Run one failover under load (see the module's doc); what the calls saw.
    ``full_coverage``: the nodes keep Redis's default ``cluster-require-full-coverage
    yes`` (every shard refuses while one has no primary) instead of the ``no``
    docs/operations.md asks for."""
    coverage = ("--cluster-require-full-coverage", "yes" if full_coverage else "no")
    with redis_cluster_processes(
        3, replicas=1, node_timeout_ms=node_timeout_ms, extra_args=coverage
    ) as nodes:
        urls = [url for url, _ in nodes]
        procs = {int(url.rsplit(":", 1)[1].split("/")[0]): proc for url, proc in nodes}
        slots = _shard_ports(urls)
        primaries = sorted(set(slots.values()))
        victim = primaries[0]
        config = Config(
            listen="127.0.0.1:0", fixture_games=True, redis_url=urls[1], redis_cluster=True
        )
        running = await create_server(config, make_store(config))
        calls: list[Call] = []
        acknowledged: dict[str, int] = {}
        stop = asyncio.Event()
        try:
            async with grpc.aio.insecure_channel(f"127.0.0.1:{running.port}") as channel:
                stub = service_pb2_grpc.ThroneroomStub(channel)
                per_shard: Counter[int] = Counter()
                tasks = []
                seed = 0
                while min(per_shard[p] for p in primaries) < games:
                    seed += 1
                    game_id, tokens = await _new_game(stub, seed)
                    port = slots[key_slot(log_key(game_id).encode())]
                    if per_shard[port] >= games:
                        continue
                    per_shard[port] += 1
                    shard = (slots, port)
                    play = _play(
                        stub,
                        (game_id, tokens),
                        shard=shard,
                        dead_shard=port == victim,
                        calls=calls,
                        acknowledged=acknowledged,
                        stop=stop,
                    )
                    tasks.append(asyncio.create_task(play))
                await asyncio.sleep(3.0)
                killed_at = time.monotonic()
                procs[victim].send_signal(signal.SIGKILL)
                alive = next(u for u in urls if not u.endswith(f":{victim}/0"))
                await _promoted(alive, victim, killed_at + 60)
                promoted_at = time.monotonic()
                await asyncio.sleep(after)
                stop.set()
                await asyncio.gather(*tasks)
                stopped_at = time.monotonic()
        finally:
            await running.stop(None)
        return Failover(
            killed_at,
            promoted_at,
            stopped_at,
            calls,
            acknowledged,
            await _stored(alive, list(acknowledged)),
        )


def timeline(failover: Failover, step: float = 0.5) -> list[str]:
    """Moves per second in ``step`` buckets from 2 s before the kill to the
    end, healthy and dead shards (the kill at 0.0, the promotion marked)."""
    lines = [f"{'t s':>6}{'healthy/s':>11}{'dead/s':>8}{'failed':>8}"]
    t = -2.0
    while failover.killed_at + t < failover.stopped_at:
        start = failover.killed_at + t
        inside = [c for c in failover.calls if start <= c.end < start + step]
        ok = [c for c in inside if c.code == "OK"]
        healthy = sum(1 for c in ok if not c.dead_shard) / step
        dead = sum(1 for c in ok if c.dead_shard) / step
        failed = len(inside) - len(ok)
        mark = "  <- promoted" if start <= failover.promoted_at < start + step else ""
        lines.append(f"{t:>6.1f}{healthy:>11.1f}{dead:>8.1f}{failed:>8}{mark}")
        t += step
    return lines


def report(failover: Failover) -> list[str]:
    lost = sum(
        max(0, version - failover.stored[game_id])
        for game_id, version in failover.acknowledged.items()
    )
    lines = [
        f"kill -> promotion: {failover.promoted_at - failover.killed_at:.2f} s;"
        f" acknowledged moves lost: {lost}",
        f"{'phase':<8}{'shard':<9}{'moves/s':>9}{'longest s':>11}  failed calls",
    ]
    for phase in ("before", "during", "after"):
        for dead, name in ((False, "healthy"), (True, "dead")):
            failed = dict(failover.failures(phase, dead)) or "-"
            lines.append(
                f"{phase:<8}{name:<9}{failover.rate(phase, dead):>9.1f}"
                f"{failover.longest(phase, dead):>11.2f}  {failed}"
            )
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=4, help="games per shard")
    parser.add_argument("--node-timeout-ms", type=int, default=2000)
    parser.add_argument("--after", type=float, default=5.0, help="seconds after the promotion")
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--timeline", action="store_true", help="moves per half second too")
    parser.add_argument(
        "--require-full-coverage",
        action="store_true",
        help="keep Redis's default cluster-require-full-coverage yes",
    )
    args = parser.parse_args()
    configure_logging(level="warning")
    for run in range(args.runs):
        failover = asyncio.run(
            measure(args.games, args.node_timeout_ms, args.after, args.require_full_coverage)
        )
        print(f"run {run + 1}")
        for line in report(failover) + (timeline(failover) if args.timeline else []):
            print("  " + line)


if __name__ == "__main__":
    main()
