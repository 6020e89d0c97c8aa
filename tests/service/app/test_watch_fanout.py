"""Watching under load and abuse: idle watches at the shipped defaults, one
store reader per game for many spectators, slow consumers dropped, limits."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator

import grpc
import pytest
import redis.asyncio as aioredis
from throneroom.v1 import game_pb2, nim_pb2, service_pb2, service_pb2_grpc
from throneroom_server.app import updates
from throneroom_server.app.access import Caller
from throneroom_server.app.service import App, AppConfig
from throneroom_server.app.watch import WatchLimits
from throneroom_server.games.registry import service_games
from throneroom_server.runtime.config import Config
from throneroom_server.runtime.server import create_server
from throneroom_server.store.base import Store
from throneroom_server.store.memory import MemoryStore
from throneroom_server.store.redis import RedisStore

from tests.service.helpers import Service, error_info, new_nim, nim_move, start_service
from tests.waiting import until


async def _move(service: Service, game_id: str, token: str, version: int) -> int:
    reply = await service.stub.ApplyMove(
        service_pb2.ApplyMoveRequest(
            game_id=game_id,
            seat_token=token,
            expected_version=version,
            move=nim_move(1),
            idempotency_key=f"k{version}",
        )
    )
    return reply.version


@pytest.mark.slow  # 60 s at the shipped defaults
async def test_an_idle_watch_lives_60_seconds_at_the_shipped_defaults(clean_redis: str) -> None:
    """Nothing shortened: the default heartbeat (15 s), the default blocking
    read and the Redis client library's own defaults. The watch must outlive
    any socket timeout of the library (redis-py 8: 5 s) and then deliver."""
    defaults = Config()
    assert defaults.heartbeat_seconds == 15.0
    store = RedisStore(clean_redis)
    service = await start_service(store)
    rest_config = Config(listen="127.0.0.1:0", http_listen="127.0.0.1:0", fixture_games=True)
    rest_server = await create_server(rest_config, RedisStore(clean_redis))
    try:
        game_id, players = await new_nim(service.stub, pile=10)
        grpc_items: list[service_pb2.WatchGameResponse] = []
        sse_events: list[str] = []

        async def watch_grpc() -> None:
            stream = service.stub.WatchGame(service_pb2.WatchGameRequest(game_id=game_id))
            async for item in stream:
                grpc_items.append(item)
                if item.WhichOneof("kind") == "update":
                    return

        async def watch_sse() -> None:
            import aiohttp

            url = f"http://127.0.0.1:{rest_server.http_port}/v1/games/{game_id}/watch"
            timeout = aiohttp.ClientTimeout(total=None, sock_read=None)
            async with (
                aiohttp.ClientSession(timeout=timeout) as session,
                session.get(url) as response,
            ):
                assert response.status == 200
                async for raw in response.content:
                    line = raw.decode().strip()
                    if line.startswith("event: "):
                        sse_events.append(line.removeprefix("event: "))
                        if line == "event: update":
                            return
                    if line.startswith("data: ") and sse_events[-1] == "failure":
                        raise AssertionError(json.loads(line.removeprefix("data: ")))

        watchers = [asyncio.create_task(watch_grpc()), asyncio.create_task(watch_sse())]
        hubs = (service.running.app.watch_hub, rest_server.app.watch_hub)
        await until(lambda: all(hub.open_streams == 1 for hub in hubs), "both watches open")
        await asyncio.sleep(60)  # silence is what is tested: 60 s idle at the shipped defaults
        assert not any(w.done() for w in watchers), [w.exception() for w in watchers if w.done()]
        await _move(service, game_id, players[0].token, 0)
        await asyncio.wait_for(asyncio.gather(*watchers), 30)
        kinds = [item.WhichOneof("kind") for item in grpc_items]
        assert kinds[-1] == "update" and grpc_items[-1].update.version == 1
        assert kinds.count("heartbeat") >= 3  # every 15 s for 60 s
        assert sse_events[-1] == "update" and sse_events.count("heartbeat") >= 3
        assert "failure" not in sse_events
    finally:
        await service.channel.close()
        await service.running.stop(None)
        await rest_server.stop(None)


async def test_a_thousand_idle_spectators_share_one_reader(clean_redis: str) -> None:
    """1,000 spectators of one game on one replica hold one blocking Redis
    connection between them, and creates, joins and moves still succeed."""
    config = Config(
        listen="127.0.0.1:0",
        fixture_games=True,
        heartbeat_seconds=15.0,
        max_streams_per_client=2000,
    )
    running = await create_server(config, RedisStore(clean_redis))
    channel = grpc.aio.insecure_channel(f"127.0.0.1:{running.port}")
    service = Service(running, channel, service_pb2_grpc.ThroneroomStub(channel), "")
    admin = aioredis.Redis.from_url(clean_redis)
    try:
        game_id, players = await new_nim(service.stub, pile=30)
        baseline = len(await admin.client_list())
        streams = [
            service.stub.WatchGame(service_pb2.WatchGameRequest(game_id=game_id))
            for _ in range(1000)
        ]
        await until(
            lambda: running.app.watch_hub.open_streams == 1000,
            "every stream registered on the server",
        )
        assert running.app.watch_hub.feeds == 1
        connections = len(await admin.client_list())
        assert connections <= baseline + 2, (baseline, connections)
        # The service still serves everyone else.
        other_id, others = await new_nim(service.stub, pile=5)
        version = await _move(service, other_id, others[0].token, 0)
        assert version == 1
        version = await _move(service, game_id, players[0].token, 0)
        firsts = await asyncio.gather(*(s.read() for s in streams))
        assert {f.update.version for f in firsts} == {1}
        for stream in streams:
            stream.cancel()
        await until(lambda: running.app.watch_hub.open_streams == 0, "every stream closed")
        assert running.app.watch_hub.feeds == 0
    finally:
        await admin.aclose()
        await channel.close()
        await running.stop(None)


@pytest.fixture
async def small_limits() -> AsyncIterator[Service]:
    store: Store = MemoryStore()
    config = Config(
        listen="127.0.0.1:0",
        fixture_games=True,
        max_streams_per_client=3,
        max_streams_per_game=4,
    )
    running = await create_server(config, store)
    channel = grpc.aio.insecure_channel(f"127.0.0.1:{running.port}")
    yield Service(running, channel, service_pb2_grpc.ThroneroomStub(channel), "")
    await channel.close()
    await running.stop(None)


async def _open(service: Service, game_id: str) -> grpc.aio.UnaryStreamCall:  # type: ignore[type-arg]
    stream = service.stub.WatchGame(
        service_pb2.WatchGameRequest(game_id=game_id, heartbeat_seconds=1)
    )
    await stream.read()  # a heartbeat: the stream is open and counted
    return stream


async def test_streams_per_client_are_limited(small_limits: Service) -> None:
    game_id, _ = await new_nim(small_limits.stub)
    held = [await _open(small_limits, game_id) for _ in range(3)]
    refused = small_limits.stub.WatchGame(service_pb2.WatchGameRequest(game_id=game_id))
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        await refused.read()
    assert caught.value.code() is grpc.StatusCode.RESOURCE_EXHAUSTED
    assert error_info(caught.value).reason == "TOO_MANY_STREAMS"
    assert "per client" in (caught.value.details() or "")
    held.pop().cancel()
    await until(  # the slot comes back once the server sees the cancel
        lambda: small_limits.running.app.watch_hub.open_streams == 2, "the cancelled slot back"
    )
    held.append(await _open(small_limits, game_id))
    for stream in held:
        stream.cancel()


async def test_streams_per_game_are_limited() -> None:
    """Counted per game whoever the clients are (here: four addresses)."""
    app = App(
        MemoryStore(),
        service_games(include_fixtures=True),
        config=AppConfig(watch=WatchLimits(streams_per_game=4)),
    )
    game_id, _ = await app.create_game(_nim_options(), 2, 1)
    watches = [
        updates.watch(app, game_id, "", 0, 0.05, caller=Caller(f"10.0.0.{n}")) for n in range(5)
    ]
    for watch in watches[:4]:
        assert updates.parsed(await anext(watch)).WhichOneof("kind") == "heartbeat"
    with pytest.raises(Exception) as caught:
        await anext(watches[4])
    assert getattr(caught.value, "reason", None) == "TOO_MANY_STREAMS"
    for watch in watches[:4]:
        await watch.aclose()
    assert app.watch_hub.open_streams == 0


async def test_a_watcher_too_slow_is_dropped_and_resumes_without_a_gap() -> None:
    app = App(
        MemoryStore(),
        service_games(include_fixtures=True),
        config=AppConfig(watch=WatchLimits(buffer_entries=3)),
    )
    game_id, _ = await app.create_game(_nim_options(pile=20), 2, 1)
    tokens = [(await app.join_game(game_id, None, f"p{n}"))[1] for n in range(2)]
    watch = updates.watch(app, game_id, "", 0, 30)
    version = 0
    version = await _app_move(app, game_id, tokens, version)
    first = updates.parsed(await anext(watch))
    assert first.update.version == 1
    # The watcher does not read while five more moves are made (buffer: 3).
    for _ in range(5):
        version = await _app_move(app, game_id, tokens, version)
        await asyncio.sleep(0)  # let the feed deliver each one
    with pytest.raises(Exception) as caught:
        await anext(watch)
    error = caught.value
    assert getattr(error, "reason", None) == "WATCH_TOO_SLOW"
    assert getattr(error, "metadata", {}).get("resume_from_version") == "1"
    assert app.watch_hub.open_streams == 0
    # Resuming from the version it names delivers the rest, once each.
    resumed = updates.watch(app, game_id, "", 1, 30)
    versions = [updates.parsed(await anext(resumed)).update.version for _ in range(5)]
    assert versions == [2, 3, 4, 5, 6]
    await resumed.aclose()


def _nim_options(pile: int = 10) -> game_pb2.GameOptions:
    return game_pb2.GameOptions(nim=nim_pb2.NimOptions(pile=pile, max_take=3))


async def _app_move(app: App, game_id: str, tokens: list[str], version: int) -> int:
    reply = await app.apply_move(game_id, tokens[version % 2], version, nim_move(1), f"m{version}")
    return reply.version
