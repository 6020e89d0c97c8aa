"""Watching (resume, heartbeats, across server processes) and concurrent movers."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Iterator

import grpc
import pytest
from throneroom.v1 import service_pb2, service_pb2_grpc
from throneroom_server.store.base import Store
from throneroom_server.store.redis import RedisStore

from tests.service.helpers import Service, new_nim, nim_move, race_nim_seat, start_service
from tests.service.processes import replicas
from tests.waiting import until


async def _play(
    stub: service_pb2_grpc.ThroneroomStub, game_id: str, token: str, version: int, take: int
) -> int:
    result = await stub.ApplyMove(
        service_pb2.ApplyMoveRequest(
            game_id=game_id,
            seat_token=token,
            expected_version=version,
            move=nim_move(take),
            idempotency_key=f"v{version}",
        )
    )
    return result.version


async def test_watch_streams_every_version_and_resumes(service: Service) -> None:
    stub = service.stub
    game_id, players = await new_nim(stub, pile=6)
    await _play(stub, game_id, players[0].token, 0, 1)
    await _play(stub, game_id, players[1].token, 1, 1)

    stream = stub.WatchGame(
        service_pb2.WatchGameRequest(game_id=game_id, seat_token=players[1].token, from_version=0)
    )
    seen = []
    async for item in stream:
        assert item.WhichOneof("kind") == "update"
        seen.append(item.update.version)
        assert item.update.snapshot.version == item.update.version
        assert item.update.snapshot.viewer_seat == 1
        if item.update.version == 2:
            break
    stream.cancel()
    assert seen == [1, 2]
    # Resume from version 1 while the game goes on: 2 again, then the new ones.
    stream = stub.WatchGame(service_pb2.WatchGameRequest(game_id=game_id, from_version=1))
    versions: list[int] = []

    async def consume() -> None:
        async for item in stream:
            if item.WhichOneof("kind") == "update":
                versions.append(item.update.version)
                assert not item.update.snapshot.view.nim.HasField("my_secret")

    task = asyncio.create_task(consume())
    await until(lambda: versions, "the resumed stream's first update (version 2)")
    await _play(stub, game_id, players[0].token, 2, 3)
    await _play(stub, game_id, players[1].token, 3, 1)  # pile 0: finished
    await asyncio.wait_for(task, 10)  # the stream ends after the finishing update
    assert versions == [2, 3, 4]


async def test_watch_sends_heartbeats_while_idle(store: Store) -> None:
    svc = await start_service(store, heartbeat_seconds=0.1)
    try:
        game_id, _ = await new_nim(svc.stub)
        stream = svc.stub.WatchGame(
            service_pb2.WatchGameRequest(game_id=game_id, heartbeat_seconds=0)
        )
        kinds = []
        async for item in stream:
            kinds.append(item.WhichOneof("kind"))
            assert item.heartbeat.version == 0
            if len(kinds) == 2:
                break
        stream.cancel()
        assert kinds == ["heartbeat", "heartbeat"]
    finally:
        await svc.channel.close()
        await svc.running.stop(None)


async def test_shutdown_ends_streams_with_a_resume_hint(store: Store) -> None:
    """A stream ended by shutdown ends UNAVAILABLE SHUTTING_DOWN (OK would say
    the game is over) and gives its stream slot back."""
    svc = await start_service(store, heartbeat_seconds=30)
    game_id, _ = await new_nim(svc.stub)
    stream = svc.stub.WatchGame(service_pb2.WatchGameRequest(game_id=game_id))

    async def drain() -> list[str]:
        return [item.WhichOneof("kind") async for item in stream]

    task = asyncio.create_task(drain())
    await until(lambda: svc.running.app.watch_hub.open_streams == 1, "the stream open")
    await svc.running.stop(5)
    with pytest.raises(grpc.aio.AioRpcError) as ended:
        await asyncio.wait_for(task, 10)
    assert ended.value.code() == grpc.StatusCode.UNAVAILABLE
    assert "shutting down" in (ended.value.details() or "")
    assert svc.running.app.watch_hub.open_streams == 0
    await svc.channel.close()


async def test_many_clients_racing_on_the_same_games(service: Service) -> None:
    """Versions stay gapless and every acknowledged move is in history exactly once."""
    stub = service.stub
    games = [await new_nim(stub, pile=40, seed=n) for n in range(4)]
    acknowledged: dict[str, list[tuple[int, int]]] = {gid: [] for gid, _ in games}

    rng = random.Random(5)
    tasks = []
    for gid, players in games:
        for player in players:
            # Three clients per seat compete with each other and with the other seat.
            for _ in range(3):
                tasks.append(
                    race_nim_seat(
                        stub,
                        gid,
                        player.seat,
                        player.token,
                        rng=random.Random(rng.random()),
                        acknowledged=acknowledged[gid],
                    )
                )
    await asyncio.wait_for(asyncio.gather(*tasks), 60)
    for gid, _ in games:
        history = await stub.GetHistory(service_pb2.GetHistoryRequest(game_id=gid, page_size=1000))
        versions = [e.version for e in history.entries]
        assert versions == list(range(1, len(versions) + 1)), "versions have a gap"
        assert sorted(acknowledged[gid]) == [(e.version, e.seat) for e in history.entries]
        snap = (await stub.GetGame(service_pb2.GetGameRequest(game_id=gid))).snapshot
        assert snap.finished and snap.version == len(versions)


@pytest.fixture
def second_server(clean_redis: str) -> Iterator[str]:
    """Another throneroom-server process on the same Redis."""
    with replicas(clean_redis, 1) as (replica,):
        yield replica.address
    assert '"event": "listening"' in replica.logs and '"store": "redis"' in replica.logs
    assert '"event": "stopped"' in replica.logs


async def test_watch_on_another_process_sees_moves(clean_redis: str, second_server: str) -> None:
    """A watcher on replica B sees the moves made through replica A (shared Redis)."""
    replica_a = await start_service(RedisStore(clean_redis))
    channel_b = grpc.aio.insecure_channel(second_server)
    stub_b = service_pb2_grpc.ThroneroomStub(channel_b)
    try:
        game_id, players = await new_nim(replica_a.stub, pile=4)
        stream = stub_b.WatchGame(
            service_pb2.WatchGameRequest(
                game_id=game_id, seat_token=players[0].token, from_version=0, include_current=True
            )
        )
        watching = asyncio.Event()  # version 0: replica B's watch is subscribed
        got: list[int] = []

        async def consume() -> None:
            async for item in stream:
                if item.WhichOneof("kind") == "update":
                    if item.update.version == 0:
                        watching.set()
                        continue
                    got.append(item.update.version)

        task = asyncio.create_task(consume())
        await asyncio.wait_for(watching.wait(), 30)
        await _play(replica_a.stub, game_id, players[0].token, 0, 1)
        await _play(replica_a.stub, game_id, players[1].token, 1, 3)  # finished
        await asyncio.wait_for(task, 15)
        assert got == [1, 2]
        # History and views agree across replicas.
        history_b = await stub_b.GetHistory(service_pb2.GetHistoryRequest(game_id=game_id))
        history_a = await replica_a.stub.GetHistory(service_pb2.GetHistoryRequest(game_id=game_id))
        assert history_a == history_b
    finally:
        await channel_b.close()
        await replica_a.channel.close()
        await replica_a.running.stop(None)


async def test_shutdown_turns_health_not_serving_first(store: Store) -> None:
    """Load balancers watching health see NOT_SERVING before the server goes away."""
    from grpc_health.v1 import health_pb2, health_pb2_grpc

    svc = await start_service(store)
    health = health_pb2_grpc.HealthStub(svc.channel)
    stream = health.Watch(health_pb2.HealthCheckRequest(service="throneroom.v1.Throneroom"))
    statuses: list[int] = []

    async def follow() -> None:
        try:
            async for reply in stream:
                statuses.append(reply.status)
        except grpc.aio.AioRpcError:
            pass  # the server closed the stream while stopping

    task = asyncio.create_task(follow())
    await until(lambda: statuses, "the first health status")
    await svc.running.stop(2)
    await asyncio.wait_for(task, 10)
    assert statuses[0] == health_pb2.HealthCheckResponse.SERVING
    assert health_pb2.HealthCheckResponse.NOT_SERVING in statuses
    await svc.channel.close()
