"""Retention (games expire, all their keys with them) and a store that refuses
writes (out of memory, read-only): clear errors, nothing half written."""

from __future__ import annotations

import grpc
import pytest
import redis.asyncio as aioredis
from throneroom.v1 import game_pb2, nim_pb2, service_pb2, service_pb2_grpc, storage_pb2
from throneroom_server.runtime.config import Config
from throneroom_server.runtime.server import create_server
from throneroom_server.store.base import Retention, StoreGameNotFound
from throneroom_server.store.memory import MemoryStore
from throneroom_server.store.redis import RedisStore, game_key, log_key

from tests.service.helpers import error_info, new_nim, nim_move, start_service
from throneroom_dev.processes import throwaway_redis

HOUR_MS = 3600 * 1000


async def test_redis_keys_live_the_idle_then_the_finished_retention(clean_redis: str) -> None:
    retention = Retention(idle_seconds=3600, finished_seconds=600)
    config = Config(listen="127.0.0.1:0", fixture_games=True)
    running = await create_server(config, RedisStore(clean_redis, retention=retention))
    channel = grpc.aio.insecure_channel(f"127.0.0.1:{running.port}")
    stub = service_pb2_grpc.ThroneroomStub(channel)
    admin = aioredis.Redis.from_url(clean_redis)
    try:
        game_id, players = await new_nim(stub, pile=2)
        assert 0.99 * HOUR_MS < await admin.pttl(game_key(game_id)) <= HOUR_MS
        await stub.ApplyMove(
            service_pb2.ApplyMoveRequest(
                game_id=game_id,
                seat_token=players[0].token,
                expected_version=0,
                move=nim_move(1),
                idempotency_key="a",
            )
        )
        for key in (game_key(game_id), log_key(game_id)):
            assert 0.99 * HOUR_MS < await admin.pttl(key) <= HOUR_MS
        reply = await stub.ApplyMove(
            service_pb2.ApplyMoveRequest(
                game_id=game_id,
                seat_token=players[1].token,
                expected_version=1,
                move=nim_move(1),
                idempotency_key="b",
            )
        )
        assert reply.snapshot.finished
        assert 590_000 < await admin.pttl(game_key(game_id)) <= 600_000
        # The finished game's entries are compacted into its hash and packed
        # (field "logz"); its stream outlives that by the log's grace only.
        assert await admin.hexists(game_key(game_id), "logz")
        assert not await admin.hexists(game_key(game_id), "log")
        assert 50_000 < await admin.pttl(log_key(game_id)) <= 60_000
        # Everything of a game lives in those two keys (idempotency records too);
        # the lobby index, in a slot of its own, is bounded by its sweep
        # (test_lobby_contract).
        assert sorted(await admin.keys("{g:*")) == sorted(
            k.encode() for k in (game_key(game_id), log_key(game_id))
        )
    finally:
        await admin.aclose()
        await channel.close()
        await running.stop(None)


async def test_memory_games_expire_on_the_injected_clock() -> None:
    now = [0.0]
    store = MemoryStore(
        retention=Retention(idle_seconds=100, finished_seconds=10), clock=lambda: now[0]
    )
    meta_state = game_pb2.GameState()
    await store.create_game("g1", storage_pb2.StoredGameMeta(game_type="nim"), meta_state)
    now[0] = 99.0
    await store.load("g1")
    await store.claim_seat("g1", None, 2, storage_pb2.StoredSeat())  # renews: alive until 199
    now[0] = 150.0
    await store.load("g1")
    entry = storage_pb2.StoredEntry(version=1)
    await store.commit("g1", 0, meta_state, entry, "k", finished=True)  # until 160
    now[0] = 159.0
    assert (await store.load("g1", idempotency_key="k")).idempotent_version == 1
    now[0] = 160.0
    with pytest.raises(StoreGameNotFound):
        await store.load("g1")
    # The id is free again.
    await store.create_game("g1", storage_pb2.StoredGameMeta(game_type="nim"), meta_state)


NIM = service_pb2.CreateGameRequest(
    options=game_pb2.GameOptions(nim=nim_pb2.NimOptions(pile=5, max_take=3)), num_seats=2
)


@pytest.mark.redis  # its own throwaway redis-servers
async def test_a_full_redis_refuses_with_resource_exhausted_and_writes_nothing() -> None:
    with throwaway_redis("--maxmemory", "3mb", "--maxmemory-policy", "noeviction") as url:
        service = await start_service(RedisStore(url))
        stub = service.stub
        admin = aioredis.Redis.from_url(url)
        try:
            game_id, players = await new_nim(stub, pile=50)
            move = service_pb2.ApplyMoveRequest(
                game_id=game_id,
                seat_token=players[0].token,
                expected_version=0,
                move=nim_move(1),
                idempotency_key="full",
            )
            # Fill Redis to its cap with unrelated data.
            filler = b"x" * 10_000
            n = 0
            while True:
                try:
                    await admin.set(f"filler:{n}", filler)
                except Exception:
                    break
                n += 1
            before = await admin.hgetall(game_key(game_id))
            stream_before = await admin.xlen(log_key(game_id))
            with pytest.raises(grpc.aio.AioRpcError) as refused:
                await stub.ApplyMove(move)
            assert refused.value.code() is grpc.StatusCode.RESOURCE_EXHAUSTED
            assert error_info(refused.value).reason == "STORE_FULL"
            assert "127.0.0.1" not in (refused.value.details() or "")
            with pytest.raises(grpc.aio.AioRpcError) as create:
                await stub.CreateGame(NIM)
            assert create.value.code() is grpc.StatusCode.RESOURCE_EXHAUSTED
            assert await admin.hgetall(game_key(game_id)) == before
            assert await admin.xlen(log_key(game_id)) == stream_before
            # Reading still works, and once memory is freed the same move goes through once.
            await stub.GetGame(service_pb2.GetGameRequest(game_id=game_id))
            await admin.delete(*[f"filler:{i}" for i in range(n)])
            reply = await stub.ApplyMove(move)
            assert reply.version == 1 and not reply.replayed
        finally:
            await admin.aclose()
            await service.channel.close()
            await service.running.stop(None)


@pytest.mark.redis  # its own throwaway redis-servers
async def test_a_read_only_redis_is_unavailable_not_internal() -> None:
    with throwaway_redis() as primary_url, throwaway_redis() as replica_url:
        primary_port = primary_url.rsplit(":", 1)[1].split("/")[0]
        replica = aioredis.Redis.from_url(replica_url)
        await replica.execute_command("REPLICAOF", "127.0.0.1", primary_port)
        service = await start_service(RedisStore(replica_url))
        try:
            with pytest.raises(grpc.aio.AioRpcError) as caught:
                await service.stub.CreateGame(NIM)
            assert caught.value.code() is grpc.StatusCode.UNAVAILABLE
            assert error_info(caught.value).reason == "STORE_UNAVAILABLE"
        finally:
            await replica.aclose()
            await service.channel.close()
            await service.running.stop(None)
