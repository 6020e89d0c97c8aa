"""What only a Redis Cluster adds: keys spread over the primaries yet each
game's keys on one slot, scripts reloaded on every node, a cluster node used
without the cluster client refused clearly, a cluster that is down
unavailable. The store contract, the end-to-end games and the races run on
the cluster through the ``store`` fixture (tests/service/conftest.py)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import pytest
import redis
from throneroom.v1 import game_pb2, nim_pb2, storage_pb2
from throneroom_server.store import Committed, StoreUnavailable
from throneroom_server.store.notify import channel_name
from throneroom_server.store.redis import RedisStore, game_key, log_key

from tests.waiting import until


def _state(pile: int) -> game_pb2.GameState:
    return game_pb2.GameState(nim=nim_pb2.NimState(pile=pile, num_seats=2))


def _meta() -> storage_pb2.StoredGameMeta:
    return storage_pb2.StoredGameMeta(game_type="nim", num_seats=2)


async def test_games_spread_over_the_primaries_each_on_one_slot(
    clean_cluster: str, redis_cluster_urls: list[str]
) -> None:
    store = RedisStore(clean_cluster, cluster=True)
    ids = [f"g{n}" for n in range(30)]
    for game_id in ids:
        await store.create_game(game_id, _meta(), _state(3))
        assert await store.commit(
            game_id, 0, _state(2), storage_pb2.StoredEntry(version=1), "k"
        ) == Committed(1)
    await store.close()
    holders: dict[str, set[int]] = {}
    for node, url in enumerate(redis_cluster_urls):
        client = redis.Redis.from_url(url)
        for key in client.keys("*"):
            holders.setdefault(key.decode(), set()).add(node)
        client.close()
    for game_id in ids:
        # Both keys of a game live on one node (one hash tag, one slot).
        assert holders[game_key(game_id)] == holders[log_key(game_id)]
        assert len(holders[game_key(game_id)]) == 1
    assert len({n for nodes in holders.values() for n in nodes}) == 3, "one primary holds all"


async def test_scripts_reload_on_every_node_after_script_flush(
    clean_cluster: str, redis_cluster_urls: list[str]
) -> None:
    store = RedisStore(clean_cluster, cluster=True)
    ids = [f"s{n}" for n in range(12)]
    for game_id in ids:
        await store.create_game(game_id, _meta(), _state(3))
    for url in redis_cluster_urls:
        client = redis.Redis.from_url(url)
        client.script_flush()
        client.close()
    for game_id in ids:
        result = await store.commit(game_id, 0, _state(2), storage_pb2.StoredEntry(version=1), "k")
        assert result == Committed(1)
    await store.close()


async def test_a_cluster_node_without_the_cluster_setting_is_refused_clearly(
    clean_cluster: str,
) -> None:
    """Redirections are not followed by the single-node client: the store says
    what setting is missing (UNAVAILABLE to callers), never an internal error."""
    store = RedisStore(clean_cluster)  # cluster=False
    refused = 0
    for n in range(12):  # each id has a 2 in 3 chance of living on another node
        try:
            await store.create_game(f"m{n}", _meta(), _state(3))
        except StoreUnavailable as exc:
            assert "THRONEROOM_REDIS_CLUSTER" in str(exc)
            refused += 1
    assert refused > 0
    await store.close()


async def test_an_unreachable_cluster_is_unavailable() -> None:
    store = RedisStore("redis://127.0.0.1:1/0", cluster=True)
    with pytest.raises(StoreUnavailable):
        await store.load("g")
    with pytest.raises(StoreUnavailable):
        await store.commit("g", 0, _state(1), storage_pb2.StoredEntry(version=1), "k")
    await store.close()


def _node_ids(urls: list[str]) -> dict[str, str]:
    """URL -> cluster node id."""
    ids = {}
    for url in urls:
        client = redis.Redis.from_url(url)
        ids[url] = client.execute_command("CLUSTER", "MYID").decode()
        client.close()
    return ids


def _owner(urls: list[str], slot: int) -> str:
    client = redis.Redis.from_url(urls[0])
    slots = client.execute_command("CLUSTER", "SLOTS")
    client.close()
    for start, end, primary, *_ in slots:
        if start <= slot <= end:
            port = int(primary[1])
            return next(url for url in urls if url.endswith(f":{port}/0"))
    raise AssertionError(f"no node serves slot {slot}")


def _begin_move(urls: list[str], game_id: str) -> tuple[int, str, dict[str, str]]:
    """Migrate the game's slot's keys to another primary, the slot still
    assigned to its owner (MIGRATING/IMPORTING: ASK redirections). Returns
    (slot, target URL, node ids)."""
    admin = redis.Redis.from_url(urls[0])
    slot = int(admin.execute_command("CLUSTER", "KEYSLOT", game_key(game_id)))
    admin.close()
    source = _owner(urls, slot)
    target = next(url for url in urls if url != source)
    ids = _node_ids(urls)
    src, dst = redis.Redis.from_url(source), redis.Redis.from_url(target)
    dst.execute_command("CLUSTER", "SETSLOT", slot, "IMPORTING", ids[source])
    src.execute_command("CLUSTER", "SETSLOT", slot, "MIGRATING", ids[target])
    host, port = target.removeprefix("redis://").removesuffix("/0").split(":")
    keys = src.execute_command("CLUSTER", "GETKEYSINSLOT", slot, 100)
    assert sorted(keys) == sorted([game_key(game_id).encode(), log_key(game_id).encode()])
    src.execute_command("MIGRATE", host, port, "", 0, 5000, "KEYS", *keys)
    src.close()
    dst.close()
    return slot, target, ids


def _finish_move(urls: list[str], slot: int, target: str, ids: dict[str, str]) -> None:
    """Assign the slot to the target on every node (the old owner: MOVED)."""
    for url in urls:
        node = redis.Redis.from_url(url)
        node.execute_command("CLUSTER", "SETSLOT", slot, "NODE", ids[target])
        node.close()


async def test_a_game_moved_to_another_primary_mid_game_is_followed(
    clean_cluster: str, redis_cluster_urls: list[str]
) -> None:
    """Resharding while a game is played: the slot is migrated key by key
    (ASK redirections while it is half moved) then reassigned (MOVED); the
    cluster client follows both and no commit is lost or doubled."""
    store = RedisStore(clean_cluster, cluster=True)
    await store.create_game("moving", _meta(), _state(9))
    assert await store.commit(
        "moving", 0, _state(8), storage_pb2.StoredEntry(version=1), "k1"
    ) == Committed(1)
    slot, target, ids = _begin_move(redis_cluster_urls, "moving")
    # Half moved: the source answers ASK, the client asks the target.
    assert await store.commit(
        "moving", 1, _state(7), storage_pb2.StoredEntry(version=2), "k2"
    ) == Committed(2)
    _finish_move(redis_cluster_urls, slot, target, ids)
    # Moved: the old owner answers MOVED, the client learns the new map.
    assert await store.commit(
        "moving", 2, _state(6), storage_pb2.StoredEntry(version=3), "k3"
    ) == Committed(3)
    loaded = await store.load("moving")
    assert loaded.version == 3 and loaded.state.nim.pile == 6
    assert [e.version for e in await store.read_entries("moving", 0, 10)] == [1, 2, 3]
    await store.close()


def _last_is(held: list[int], version: int) -> Callable[[], bool]:
    return lambda: held[-1:] == [version]


async def test_a_watcher_follows_its_game_to_another_primary(
    clean_cluster: str, redis_cluster_urls: list[str]
) -> None:
    """Watching rides on shard channels, one subscriber connection per
    primary: when the game's slot moves, the old primary ends the
    subscription, and the waits that follow subscribe on the new primary
    (after a refused subscription: the slot map refreshed) and are woken by
    the commits made there. Every version reaches the watcher once, in order."""
    watcher = RedisStore(clean_cluster, cluster=True)  # another replica's store
    mover = RedisStore(clean_cluster, cluster=True)
    await mover.create_game("moving", _meta(), _state(9))
    held: list[int] = []

    async def watch() -> None:
        while len(held) < 4:
            entries = await watcher.wait_entries("moving", held[-1] if held else 0, timeout=30)
            held.extend(entry.version for entry in entries)

    watching = asyncio.create_task(watch())
    await until(lambda: watcher.waiting("moving") == 1, "the first wait asleep")
    assert await mover.commit(
        "moving", 0, _state(8), storage_pb2.StoredEntry(version=1), "k1"
    ) == Committed(1)
    await until(lambda: held == [1], "version 1 notified on the first primary")
    slot, target, ids = _begin_move(redis_cluster_urls, "moving")
    _finish_move(redis_cluster_urls, slot, target, ids)
    for version in (2, 3, 4):
        assert await mover.commit(
            "moving",
            version - 1,
            _state(9 - version),
            storage_pb2.StoredEntry(version=version),
            f"k{version}",
        ) == Committed(version)
        await until(_last_is(held, version), f"version {version} on the new primary")
    await asyncio.wait_for(watching, 10)
    assert held == [1, 2, 3, 4]
    assert watcher._route is not None and watcher._route.refreshes >= 1  # the map was refreshed
    target_node = redis.Redis.from_url(target)
    name = channel_name("moving")
    assert target_node.execute_command("PUBSUB", "SHARDNUMSUB", name) == [name.encode(), 1]
    target_node.close()
    await watcher.close()
    await mover.close()
