"""One contract, two stores: MemoryStore and RedisStore behave the same."""

from __future__ import annotations

import asyncio

import pytest
from throneroom.v1 import game_pb2, nim_pb2, storage_pb2
from throneroom_server.store import (
    Committed,
    Duplicate,
    GameAlreadyExists,
    GameFull,
    SeatTaken,
    Stale,
    Store,
    StoreGameNotFound,
)
from throneroom_server.store.base import CHECKPOINT_EVERY
from throneroom_server.store.memory import MemoryStore
from throneroom_server.store.notify import channel_name
from throneroom_server.store.redis import RedisStore

from tests.waiting import until


def _state(pile: int) -> game_pb2.GameState:
    return game_pb2.GameState(nim=nim_pb2.NimState(pile=pile, num_seats=2))


def _meta(seats: int = 2) -> storage_pb2.StoredGameMeta:
    return storage_pb2.StoredGameMeta(game_type="nim", num_seats=seats, seed=7)


def _entry(version: int, pile: int) -> storage_pb2.StoredEntry:
    del pile  # the state is passed to commit() beside the entry
    return storage_pb2.StoredEntry(version=version, seat=version % 2)


async def _until_waiting(store: Store, game_id: str) -> None:
    """Until a ``wait_entries`` of the game is asleep in the store, so that what
    is committed next must wake it (else it would just be read). The store
    says so (Store.waiting); on a Redis Cluster the primary of the game's slot
    is asked too: it must hold the subscription of the game's shard channel."""
    await until(lambda: store.waiting(game_id) == 1, "the wait asleep in the store")
    if isinstance(store, RedisStore) and store.cluster:
        await until(lambda: _shard_subscribed(store, game_id), "the shard channel subscribed")


async def _shard_subscribed(store: RedisStore, game_id: str) -> bool:
    channel = channel_name(game_id)
    node = store._redis.get_node_from_key(channel)
    reply = await store._redis.execute_command("PUBSUB", "SHARDNUMSUB", channel, target_nodes=node)
    name, count = reply  # [channel, subscribers]
    return bool(name == channel.encode() and int(count) == 1)


async def test_create_and_load(store: Store) -> None:
    await store.create_game("g1", _meta(), _state(21))
    loaded = await store.load("g1")
    assert loaded.version == 0
    assert loaded.state.nim.pile == 21
    assert loaded.meta.seed == 7
    assert loaded.seats == {}
    assert loaded.idempotent_version is None


async def test_create_twice_is_rejected(store: Store) -> None:
    await store.create_game("g1", _meta(), _state(21))
    with pytest.raises(GameAlreadyExists):
        await store.create_game("g1", _meta(), _state(5))
    assert (await store.load("g1")).state.nim.pile == 21


async def test_unknown_game(store: Store) -> None:
    with pytest.raises(StoreGameNotFound):
        await store.load("nope")
    with pytest.raises(StoreGameNotFound):
        await store.claim_seat("nope", None, 2, storage_pb2.StoredSeat())


async def test_claim_seats(store: Store) -> None:
    await store.create_game("g1", _meta(3), _state(21))
    rec = storage_pb2.StoredSeat(display_name="a", token_sha256=b"h" * 32)
    assert await store.claim_seat("g1", 1, 3, rec) == 1
    with pytest.raises(SeatTaken):
        await store.claim_seat("g1", 1, 3, rec)
    assert await store.claim_seat("g1", None, 3, rec) == 0
    assert await store.claim_seat("g1", None, 3, rec) == 2
    with pytest.raises(GameFull):
        await store.claim_seat("g1", None, 3, rec)
    loaded = await store.load("g1")
    assert sorted(loaded.seats) == [0, 1, 2]
    assert loaded.seats[1].display_name == "a"


async def test_concurrent_claims_give_distinct_seats(store: Store) -> None:
    await store.create_game("g1", _meta(4), _state(21))
    rec = storage_pb2.StoredSeat(display_name="x")

    async def claim() -> int | None:
        try:
            return await store.claim_seat("g1", None, 4, rec)
        except GameFull:
            return None

    got = await asyncio.gather(*(claim() for _ in range(10)))
    assert sorted(s for s in got if s is not None) == [0, 1, 2, 3]
    assert got.count(None) == 6


async def test_commit_checks_version_and_appends(store: Store) -> None:
    await store.create_game("g1", _meta(), _state(21))
    assert await store.commit("g1", 0, _state(20), _entry(1, 20), "k1") == Committed(1)
    assert await store.commit("g1", 0, _state(19), _entry(1, 19), "k2") == Stale(1)
    assert await store.commit("g1", 1, _state(18), _entry(2, 18), "k3") == Committed(2)
    loaded = await store.load("g1", idempotency_key="k1")
    assert loaded.version == 2
    assert loaded.state.nim.pile == 18
    assert loaded.idempotent_version == 1
    assert (await store.load("g1", idempotency_key="k2")).idempotent_version is None
    entries = await store.read_entries("g1", 0, 10)
    assert [e.version for e in entries] == [1, 2]
    assert [e.state.nim.pile for e in entries] == [20, 18]
    assert [e.version for e in await store.read_entries("g1", 1, 10)] == [2]
    assert [e.version for e in await store.read_entries("g1", 0, 1)] == [1]
    assert await store.read_entries("g1", 2, 10) == []


async def test_commit_with_used_key_is_a_duplicate_and_writes_nothing(store: Store) -> None:
    await store.create_game("g1", _meta(), _state(21))
    assert await store.commit("g1", 0, _state(20), _entry(1, 20), "k1") == Committed(1)
    assert await store.commit("g1", 1, _state(10), _entry(2, 10), "k1") == Duplicate(1)
    loaded = await store.load("g1")
    assert loaded.version == 1
    assert loaded.state.nim.pile == 20
    assert len(await store.read_entries("g1", 0, 10)) == 1


async def test_commit_unknown_game(store: Store) -> None:
    with pytest.raises(StoreGameNotFound):
        await store.commit("nope", 0, _state(1), _entry(1, 1), "k")


async def test_racing_commits_exactly_one_wins(store: Store) -> None:
    await store.create_game("g1", _meta(), _state(21))
    results = await asyncio.gather(
        *(store.commit("g1", 0, _state(20 - i), _entry(1, 20 - i), f"k{i}") for i in range(8))
    )
    assert sum(isinstance(r, Committed) for r in results) == 1
    assert all(r == Stale(1) for r in results if not isinstance(r, Committed))
    assert len(await store.read_entries("g1", 0, 10)) == 1


async def test_wait_entries_wakes_on_commit(store: Store) -> None:
    await store.create_game("g1", _meta(), _state(21))
    waited = asyncio.create_task(store.wait_entries("g1", 0, timeout=30))
    await _until_waiting(store, "g1")
    await store.commit("g1", 0, _state(20), _entry(1, 20), "k1")
    entries = await asyncio.wait_for(waited, 10)  # woken by the commit, not the timeout
    assert [e.version for e in entries] == [1]
    assert store.waiting("g1") == 0


async def test_wait_entries_times_out_empty(store: Store) -> None:
    await store.create_game("g1", _meta(), _state(21))
    assert await store.wait_entries("g1", 0, timeout=0.1) == []


async def test_wait_entries_returns_existing_at_once(store: Store) -> None:
    await store.create_game("g1", _meta(), _state(21))
    await store.commit("g1", 0, _state(20), _entry(1, 20), "k1")
    assert [e.version for e in await store.wait_entries("g1", 0, timeout=5)] == [1]


async def test_wait_entries_leaves_out_what_the_caller_has_seen(store: Store) -> None:
    # ``seen`` is asked when the read returns: a version that reached the
    # caller another way while it waited (watch.py's publish) is left out.
    # (A store may return at once when that version is committed, or go on
    # waiting for one the caller lacks: Redis's notifications do.)
    await store.create_game("g1", _meta(), _state(21))
    held = [0]
    waited = asyncio.create_task(store.wait_entries("g1", 0, timeout=1, seen=lambda: held[0]))
    await _until_waiting(store, "g1")
    held[0] = 1
    await store.commit("g1", 0, _state(20), _entry(1, 20), "k1")
    assert await asyncio.wait_for(waited, 10) == []  # version 1 committed, but held
    await store.commit("g1", 1, _state(19), _entry(2, 19), "k2")
    entries = await store.wait_entries("g1", 0, timeout=5, seen=lambda: 1)
    assert [(e.version, e.state) for e in entries] == [(2, _state(19))]
    assert await store.wait_entries("g1", 0, timeout=0.1, seen=lambda: 2) == []
    assert [e.version for e in await store.wait_entries("g1", 1, timeout=5, seen=lambda: 0)] == [2]


async def test_the_memory_stores_feed_sleeps_through_a_version_it_holds() -> None:
    """The memory store wakes a waiting feed only for a version it lacks: a
    commit whose version the feed's ``seen`` already holds (its replica
    published it) leaves it waiting, and the next commit wakes it."""
    store = MemoryStore()
    await store.create_game("g1", _meta(), _state(21))
    held = [0]
    waited = asyncio.create_task(store.wait_entries("g1", 0, timeout=30, seen=lambda: held[0]))
    await asyncio.sleep(0)
    await store.commit("g1", 0, _state(20), _entry(1, 20), "k1")
    held[0] = 1  # published by this replica, in the committing task's step
    for _ in range(5):
        await asyncio.sleep(0)
    assert not waited.done()
    await store.commit("g1", 1, _state(19), _entry(2, 19), "k2")
    entries = await asyncio.wait_for(waited, 5)
    assert [e.version for e in entries] == [2]


async def test_only_checkpoints_keep_the_state(store: Store) -> None:
    """An entry with a move keeps its state only every CHECKPOINT_EVERY-th
    version; one without a move (a timeout's forfeit) always does."""
    await store.create_game("g1", _meta(), _state(99))
    for version in range(1, CHECKPOINT_EVERY + 3):
        entry = _entry(version, 99 - version)
        if version != CHECKPOINT_EVERY + 2:
            entry.move.CopyFrom(game_pb2.Move(nim=nim_pb2.NimMove(take=1)))
        assert await store.commit(
            "g1", version - 1, _state(99 - version), entry, f"k{version}"
        ) == Committed(version)
    entries = await store.read_entries("g1", 0, 100)
    kept = {e.version: e.state.nim.pile for e in entries if e.HasField("state")}
    assert kept == {
        CHECKPOINT_EVERY: 99 - CHECKPOINT_EVERY,
        CHECKPOINT_EVERY + 2: 97 - CHECKPOINT_EVERY,
    }
    assert (await store.load("g1", idempotency_key="k3")).idempotent_version == 3
    assert await store.commit("g1", 0, _state(1), _entry(1, 1), "k3") == Duplicate(3)
