"""What only the Redis store has: key layout, script reloading, unreachable Redis."""

from __future__ import annotations

import zlib

import pytest
import redis
from throneroom.v1 import game_pb2, nim_pb2, storage_pb2
from throneroom_server.store import Committed, StoreUnavailable
from throneroom_server.store.base import CHECKPOINT_EVERY, Retention
from throneroom_server.store.redis import RedisStore, game_key, log_key


def _state(pile: int) -> game_pb2.GameState:
    return game_pb2.GameState(nim=nim_pb2.NimState(pile=pile, num_seats=2))


async def test_keys_share_one_hash_tag(clean_redis: str) -> None:
    store = RedisStore(clean_redis)
    await store.create_game(
        "abc", storage_pb2.StoredGameMeta(game_type="nim", num_seats=2), _state(3)
    )
    await store.commit("abc", 0, _state(2), storage_pb2.StoredEntry(version=1), "k")
    client = redis.Redis.from_url(clean_redis)
    keys = sorted(k.decode() for k in client.keys("*") if not k.startswith(b"{lobby}"))
    assert keys == sorted([game_key("abc"), log_key("abc")])
    slots = {k.split("}")[0] for k in keys}
    assert slots == {"{g:abc"}
    # The lobby index (store/lobby.py) has a slot of its own.
    lobby = sorted(k.decode() for k in client.keys("{lobby}*"))
    assert lobby == sorted(
        ["{lobby}:all", "{lobby}:open", "{lobby}:type:nim:all", "{lobby}:type:nim:open"]
    )
    # The stream IDs are the versions.
    assert [i for i, _ in client.xrange(log_key("abc"))] == [b"1-0"]
    client.close()
    await store.close()


async def test_scripts_reload_after_script_flush(clean_redis: str) -> None:
    store = RedisStore(clean_redis)
    await store.create_game(
        "g", storage_pb2.StoredGameMeta(game_type="nim", num_seats=2), _state(3)
    )
    client = redis.Redis.from_url(clean_redis)
    client.script_flush()
    client.close()
    result = await store.commit("g", 0, _state(2), storage_pb2.StoredEntry(version=1), "k")
    assert result == Committed(1)
    await store.close()


async def test_unreachable_redis_is_unavailable() -> None:
    store = RedisStore("redis://127.0.0.1:1/0")
    with pytest.raises(StoreUnavailable):
        await store.ping()
    with pytest.raises(StoreUnavailable):
        await store.load("g")
    with pytest.raises(StoreUnavailable):
        await store.commit("g", 0, _state(1), storage_pb2.StoredEntry(version=1), "k")
    await store.close()


def _entry(version: int) -> storage_pb2.StoredEntry:
    move = game_pb2.Move(nim=nim_pb2.NimMove(take=1))
    return storage_pb2.StoredEntry(version=version, seat=version % 2, move=move)


def _unpacked(entries: list[storage_pb2.StoredEntry]) -> bytes:
    """The finished game's field ``log`` as the finishing commit writes it
    (and as an earlier release left it): each row's entry without its state,
    then its state zlib-compressed (b"" for none), each after its length."""
    rows = []
    for entry in entries:
        bare = storage_pb2.StoredEntry()
        bare.CopyFrom(entry)
        bare.ClearField("state")
        data = bare.SerializeToString(deterministic=True)
        state = zlib.compress(entry.state.SerializeToString()) if entry.HasField("state") else b""
        rows.append(len(data).to_bytes(4, "big") + data + len(state).to_bytes(4, "big") + state)
    return b"".join(rows)


async def test_a_finished_game_log_is_packed_and_read_alike(clean_redis: str) -> None:
    """The finishing commit compacts the log into the hash, the store packs
    it (field ``logz``); once the stream is gone every version reads as
    before, a page at a time, and so does an unpacked ``log`` (a game
    finished by an earlier release, or whose packing failed)."""
    store = RedisStore(clean_redis, retention=Retention(finished_log_seconds=600))
    versions = 2 * CHECKPOINT_EVERY + 3
    await store.create_game(
        "f", storage_pb2.StoredGameMeta(game_type="nim", num_seats=2), _state(99)
    )
    for version in range(1, versions + 1):
        result = await store.commit(
            "f",
            version - 1,
            _state(99 - version),
            _entry(version),
            f"k{version}",
            finished=version == versions,
        )
        assert result == Committed(version)
    streamed = list(await store.read_entries("f", 0, 1000))
    assert [e.version for e in streamed] == list(range(1, versions + 1))
    assert [e.version for e in streamed if e.HasField("state")] == [16, 32]
    assert streamed[15].state == _state(99 - 16)
    client = redis.Redis.from_url(clean_redis)
    assert client.hexists(game_key("f"), "logz")
    assert not client.hexists(game_key("f"), "log")
    assert 590_000 < client.pttl(log_key("f")) <= 600_000  # packing keeps the TTLs
    client.delete(log_key("f"))  # (its grace over)

    async def pages(limit: int) -> list[storage_pb2.StoredEntry]:
        found: list[storage_pb2.StoredEntry] = []
        while page := await store.read_entries("f", len(found), limit):
            found += page
        return found

    assert await pages(1000) == streamed
    assert await pages(7) == streamed
    assert list(await store.read_entries("f", versions - 2, 1000)) == streamed[-2:]
    assert list(await store.read_entries("f", versions, 1000)) == []
    packed = client.hget(game_key("f"), "logz") or b""
    unpacked = _unpacked(streamed)
    assert len(packed) < len(unpacked)
    client.hdel(game_key("f"), "logz")
    client.hset(game_key("f"), "log", unpacked)
    assert await pages(1000) == streamed
    assert await pages(5) == streamed
    assert (await store.load("f", idempotency_key="k3")).idempotent_version == 3
    client.close()
    await store.close()


async def test_a_failed_packing_leaves_the_move_committed_and_its_log_read(
    clean_redis: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Redis lost right after the finishing commit: the move is committed all
    the same, and its compacted log (field ``log``) serves every version."""
    store = RedisStore(clean_redis)
    await store.create_game(
        "f", storage_pb2.StoredGameMeta(game_type="nim", num_seats=2), _state(9)
    )
    for version in range(1, 5):
        await store.commit("f", version - 1, _state(9 - version), _entry(version), f"k{version}")
    before = list(await store.read_entries("f", 0, 100))

    async def lost(*_: object) -> None:
        raise redis.exceptions.ConnectionError("connection lost")

    monkeypatch.setattr(store._redis, "hget", lost)
    result = await store.commit("f", 4, _state(4), _entry(5), "k5", finished=True)
    assert result == Committed(5)
    client = redis.Redis.from_url(clean_redis)
    assert client.hexists(game_key("f"), "log")
    assert not client.hexists(game_key("f"), "logz")
    client.delete(log_key("f"))
    found = list(await store.read_entries("f", 0, 100))
    assert found[:4] == before
    assert [e.version for e in found] == [1, 2, 3, 4, 5]
    client.close()
    await store.close()
