"""What only the Redis store has: key layout, script reloading, unreachable Redis."""

from __future__ import annotations

import pytest
import redis
from throneroom.v1 import game_pb2, nim_pb2, storage_pb2
from throneroom_server.store import Committed, StoreUnavailable
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
