"""Three server processes on one store (a single Redis, and a Redis Cluster):
the SDK balances over them, and clients racing through different replicas
keep every guarantee (gapless versions, every acknowledged move exactly once,
watchers on any replica see every move)."""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import Iterator

import grpc
import pytest
from throneroom import AsyncClient
from throneroom.v1 import service_pb2, service_pb2_grpc

from tests.service.helpers import new_nim, race_nim_seat
from tests.service.processes import Replica, replicas
from tests.waiting import until

STORES = [
    pytest.param("redis", marks=pytest.mark.redis),
    pytest.param("cluster", marks=pytest.mark.cluster),
]


@pytest.fixture(params=STORES)
def store_url(request: pytest.FixtureRequest) -> Iterator[tuple[str, bool]]:
    """An emptied single Redis or Redis Cluster: (URL, is a cluster)."""
    cluster = request.param == "cluster"
    yield request.getfixturevalue("clean_cluster" if cluster else "clean_redis"), cluster


def _calls(replica: Replica, method: str) -> int:
    """How many calls of ``method`` the replica's access log recorded."""
    count = 0
    for line in replica.logs.splitlines():
        if not line.startswith("{"):
            continue
        record = json.loads(line)
        if record.get("event") == "rpc" and str(record.get("method", "")).endswith(method):
            count += 1
    return count


async def test_three_replicas_on_one_store(store_url: tuple[str, bool]) -> None:
    """The SDK given three addresses spreads its calls over them (gRPC
    round_robin), and movers and watchers spread over the replicas keep every
    guarantee."""
    url, cluster = store_url
    with replicas(url, 3, cluster=cluster) as started:
        async with AsyncClient([r.address for r in started]) as client:
            for _ in range(30):
                await client.ping()
        channels = [grpc.aio.insecure_channel(r.address) for r in started]
        stubs = [service_pb2_grpc.ThroneroomStub(c) for c in channels]
        try:
            await _race(stubs)
        finally:
            for channel in channels:
                await channel.close()
    pings = [_calls(replica, "Ping") for replica in started]
    assert sum(pings) == 30, pings
    # round_robin: every replica served a share (exact thirds once all three
    # subchannels are ready; the first calls may go to the first one ready).
    assert all(count >= 3 for count in pings), pings


async def _race(stubs: list[service_pb2_grpc.ThroneroomStub]) -> None:
    games = [await new_nim(stubs[n % 3], pile=30, seed=n) for n in range(3)]
    acknowledged: dict[str, list[tuple[int, int]]] = {gid: [] for gid, _ in games}
    watched: dict[tuple[str, int], list[int]] = {}
    watching: list[tuple[str, int]] = []  # the watches their replica has subscribed

    async def watch(gid: str, replica: int) -> None:
        seen = watched.setdefault((gid, replica), [])
        request = service_pb2.WatchGameRequest(game_id=gid, from_version=0, include_current=True)
        stream = stubs[replica].WatchGame(request)
        async for item in stream:
            if item.WhichOneof("kind") == "update":
                if item.update.version == 0:  # the current version: subscribed
                    watching.append((gid, replica))
                    continue
                seen.append(item.update.version)
                if item.update.snapshot.finished:
                    stream.cancel()
                    return

    rng = random.Random(11)
    watchers = [
        asyncio.create_task(watch(gid, replica)) for gid, _ in games for replica in range(3)
    ]
    await until(lambda: len(watching) == len(watchers), "every watch subscribed")
    movers = [
        race_nim_seat(
            stubs[replica],
            gid,
            player.seat,
            player.token,
            rng=random.Random(rng.random()),
            acknowledged=acknowledged[gid],
        )
        for gid, players in games
        for player in players
        for replica in range(3)  # each seat plays through every replica at once
    ]
    await asyncio.wait_for(asyncio.gather(*movers), 90)
    await asyncio.wait_for(asyncio.gather(*watchers), 30)
    for gid, _ in games:
        history = await stubs[0].GetHistory(
            service_pb2.GetHistoryRequest(game_id=gid, page_size=1000)
        )
        versions = [e.version for e in history.entries]
        assert versions == list(range(1, len(versions) + 1)), "versions have a gap"
        assert sorted(acknowledged[gid]) == [(e.version, e.seat) for e in history.entries]
        for replica in range(3):
            assert watched[(gid, replica)] == versions, f"replica {replica} missed a move"
