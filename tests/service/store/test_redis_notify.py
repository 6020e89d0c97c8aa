"""Watching on Redis notifications (store/notify.py): a commit publishes its
version, a reader reads the stream only for versions it lacks, and nothing a
notification does (lost, missing, foreign) can cost a watcher a version."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Sequence

import pytest
import redis
from throneroom.v1 import game_pb2, nim_pb2, storage_pb2
from throneroom_server.app.watch import WatchHub, WatchLimits
from throneroom_server.store import Committed, StoreUnavailable
from throneroom_server.store.notify import LINGER, Notifier, channel_name
from throneroom_server.store.redis import COMMIT_LUA, RedisStore, game_key, log_key

from tests.waiting import until


def _state(pile: int) -> game_pb2.GameState:
    return game_pb2.GameState(nim=nim_pb2.NimState(pile=pile, num_seats=2))


def _meta() -> storage_pb2.StoredGameMeta:
    return storage_pb2.StoredGameMeta(game_type="nim", num_seats=2, seed=7)


def _entry(version: int) -> storage_pb2.StoredEntry:
    return storage_pb2.StoredEntry(version=version, seat=version % 2)


async def _commit(store: RedisStore, version: int) -> None:
    """Version ``version`` of game "g" (pile 21 - version)."""
    result = await store.commit("g", version - 1, _state(1000 - version), _entry(version), "")
    assert result == Committed(version)


def _notes(store: RedisStore) -> Notifier:
    notes = store._notes
    assert notes is not None
    return notes


def _count_reads(store: RedisStore) -> list[int]:
    """The stream reads the store's notifier makes (the ``after`` of each)."""
    notes = _notes(store)
    read, reads = notes._read, []

    async def counted(game_id: str, after: int, limit: int) -> list[tuple[int, bytes]]:
        reads.append(after)
        return await read(game_id, after, limit)

    notes._read = counted
    return reads


@pytest.fixture
async def stores(clean_redis: str) -> AsyncIterator[tuple[RedisStore, RedisStore]]:
    """Two replicas' stores on one Redis, with game "g" created."""
    one, two = RedisStore(clean_redis), RedisStore(clean_redis)
    await one.create_game("g", _meta(), _state(1000))
    yield one, two
    await one.close()
    await two.close()


async def _until_waiting(*stores: RedisStore) -> None:
    """Until a wait on game "g" is asleep on each store's notifier: subscribed,
    synced and waiting for a notification (a commit from now on wakes it)."""
    await until(lambda: all(store.waiting("g") == 1 for store in stores), "the waits asleep")


def _versions(entries: Sequence[storage_pb2.StoredEntry]) -> list[int]:
    return [e.version for e in entries]


async def test_a_commit_publishes_its_version_on_the_games_channel(
    stores: tuple[RedisStore, RedisStore], clean_redis: str
) -> None:
    one, _ = stores
    client = redis.Redis.from_url(clean_redis)
    pubsub = client.pubsub()
    pubsub.subscribe(channel_name("g", 0))
    assert pubsub.get_message(timeout=5)["type"] == "subscribe"  # type: ignore[index]
    await _commit(one, 1)
    message = pubsub.get_message(timeout=5)
    assert message is not None and (message["type"], message["data"]) == ("message", b"1")
    pubsub.close()
    client.close()


async def test_a_wait_wakes_on_another_replicas_commit_and_reads_once(
    stores: tuple[RedisStore, RedisStore],
) -> None:
    one, two = stores
    reads = _count_reads(one)
    waited = asyncio.create_task(one.wait_entries("g", 0, timeout=30))
    await _until_waiting(one)  # subscribed, synced (one read), asleep
    assert reads == [0] and not waited.done()
    await _commit(two, 1)
    # Within 10 s, and the wait's timeout is 30 s: the notification woke it.
    assert _versions(await asyncio.wait_for(waited, 10)) == [1]
    assert reads == [0, 0]


@pytest.mark.parametrize("late_reply", [False, True])
async def test_versions_the_reader_holds_are_never_read(
    stores: tuple[RedisStore, RedisStore], monkeypatch: pytest.MonkeyPatch, late_reply: bool
) -> None:
    """A replica's feed holds what it committed (WatchHub.publish): neither the
    notification nor the commit's reply, whichever comes first, makes it
    read the stream again (``late_reply``: the commit's reply is handled well
    after its notification)."""
    one, two = stores
    notes = _notes(one)
    if late_reply:
        hot = one._hot
        assert hot is not None
        execute = hot.execute

        async def late(*args: object) -> object:
            reply = await execute(*args)
            if args[0] == "EVALSHA" and isinstance(reply, list) and reply[0] == b"OK":
                version = int(reply[1])  # a commit's: handled once its notification is in
                await until(lambda: notes._games["g"].notes >= version, "the notification")
            return reply

        monkeypatch.setattr(hot, "execute", late)
        monkeypatch.setattr(hot, "submit", lambda args: None)  # every script through execute
    hub = WatchHub(one)
    subscription = hub.subscribe("g", "client", 0)
    await _until_waiting(one)  # the feed is subscribed and synced
    reads = _count_reads(one)
    for version in range(1, 21):
        await _commit(one, version)
        hub.publish("g", _entry(version), _state(1000 - version))
    assert _versions(subscription.drain()) == list(range(1, 21))
    # The other replica's commit is the first version the feed lacks: its
    # notification comes after those of 1-20 (one connection, in order), and
    # the one read it costs is the first read of all.
    await _commit(two, 21)
    await until(lambda: subscription.woken, "version 21 delivered")
    assert _versions(subscription.drain()) == [21]
    assert reads == [20]
    hub.unsubscribe(subscription)


async def test_a_lost_subscriber_connection_loses_no_version(
    stores: tuple[RedisStore, RedisStore], clean_redis: str
) -> None:
    one, two = stores
    await _commit(two, 1)
    assert _versions(await one.wait_entries("g", 0, timeout=5)) == [1]
    client = redis.Redis.from_url(clean_redis)
    killed = client.client_kill_filter(_type="pubsub")
    assert killed == 1
    # Committed while the connection is down: no notification reaches it.
    await _commit(two, 2)
    await _commit(two, 3)
    # Read at once after subscribing again, not at the wait's 30 s timeout.
    assert _versions(await asyncio.wait_for(one.wait_entries("g", 1, timeout=30), 10)) == [2, 3]
    waited = asyncio.create_task(one.wait_entries("g", 3, timeout=30))
    await _until_waiting(one)
    await _commit(two, 4)
    assert _versions(await asyncio.wait_for(waited, 10)) == [4]
    client.close()


async def test_a_commit_that_publishes_nothing_is_read_when_the_wait_times_out(
    stores: tuple[RedisStore, RedisStore], clean_redis: str
) -> None:
    """A committer that does not publish (an older release during a rolling
    upgrade): the periodic re-read at the end of each wait still brings it."""
    one, _ = stores
    waited = asyncio.create_task(one.wait_entries("g", 0, timeout=2.0))
    await _until_waiting(one)
    client = redis.Redis.from_url(clean_redis)
    entry = _entry(1)
    entry.state.CopyFrom(_state(20))
    args = ["0", _state(20).SerializeToString(), entry.SerializeToString(), "", "0", "", "", ""]
    args += ["", "", "60000"]  # no checkpoint state, no earlier key field, the log grace
    assert client.eval(COMMIT_LUA, 2, game_key("g"), log_key("g"), *args) == [b"OK", 1]
    # Nothing woke the wait: the re-read at its end (2 s) brings the version.
    assert one.waiting("g") == 1 and not waited.done()
    assert _versions(await asyncio.wait_for(waited, 10)) == [1]
    client.close()


async def test_a_foreign_notification_costs_one_read_and_no_entry(
    stores: tuple[RedisStore, RedisStore], clean_redis: str
) -> None:
    one, two = stores
    reads = _count_reads(one)
    waited = asyncio.create_task(one.wait_entries("g", 0, timeout=30))
    await _until_waiting(one)
    client = redis.Redis.from_url(clean_redis)
    client.publish(channel_name("g", 0), "7")  # no such version
    await until(
        lambda: waited.done() or (len(reads) >= 2 and one.waiting("g") == 1),
        "the notification read and the wait asleep again",
    )
    assert not waited.done() and reads == [0, 0]
    await _commit(two, 1)  # version 1 < 7: still noticed
    assert _versions(await asyncio.wait_for(waited, 10)) == [1]
    client.close()


async def test_idle_channels_are_unsubscribed(
    stores: tuple[RedisStore, RedisStore], clean_redis: str
) -> None:
    one, two = stores
    notes = _notes(one)
    await _commit(two, 1)
    assert _versions(await one.wait_entries("g", 0, timeout=5)) == [1]
    client = redis.Redis.from_url(clean_redis)
    assert client.pubsub_channels() == [channel_name("g", 0).encode()]
    notes._sweep()  # used just now: kept
    assert client.pubsub_channels() == [channel_name("g", 0).encode()]
    notes._games["g"].used -= LINGER + 1  # the clock: last used LINGER + 1 s ago
    notes._sweep()
    await until(lambda: client.pubsub_channels() == [], "the channel unsubscribed")
    # Used again: subscribed again, and read from the version the reader holds.
    await _commit(two, 2)
    assert _versions(await one.wait_entries("g", 1, timeout=5)) == [2]
    client.close()


@pytest.mark.slow  # the shipped catch-up period
async def test_a_feed_catches_up_with_silent_commits_at_its_shipped_period(
    stores: tuple[RedisStore, RedisStore], clean_redis: str
) -> None:
    """A hub with the shipped limits (a 10 s wait): a version whose commit
    published nothing reaches its watchers with the periodic re-read."""
    one, _ = stores
    hub = WatchHub(one)
    assert hub.limits.read_block_seconds == 10.0
    subscription = hub.subscribe("g", "client", 0)
    await _until_waiting(one)
    client = redis.Redis.from_url(clean_redis)
    entry = _entry(1)
    entry.state.CopyFrom(_state(999))
    args = ["0", _state(999).SerializeToString(), entry.SerializeToString(), "", "0", "", "", ""]
    args += ["", "", "60000"]  # no checkpoint state, no earlier key field, the log grace
    client.eval(COMMIT_LUA, 2, game_key("g"), log_key("g"), *args)
    # Nothing woke the hub's read: the periodic re-read (10 s) brings it.
    assert one.waiting("g") == 1 and not subscription.woken
    await until(lambda: subscription.woken, "version 1 delivered")
    assert _versions(subscription.drain()) == [1]
    hub.unsubscribe(subscription)
    client.close()


async def test_the_subscriber_authenticates(clean_redis: str) -> None:
    client = redis.Redis.from_url(clean_redis)
    client.acl_setuser("watcher", enabled=True, passwords=["+s3cret"], commands=["+@all"])
    client.execute_command("ACL SETUSER watcher ~* &*")
    host = clean_redis.removeprefix("redis://").split("/")[0]
    store = RedisStore(f"redis://watcher:s3cret@{host}/0")
    try:
        await store.create_game("g", _meta(), _state(1000))
        waited = asyncio.create_task(store.wait_entries("g", 0, timeout=30))
        await _until_waiting(store)
        await _commit(store, 1)
        assert _versions(await asyncio.wait_for(waited, 10)) == [1]
    finally:
        await store.close()
        client.acl_deluser("watcher")
        client.close()


async def test_a_feed_on_notifications_is_gapless_under_racing_replicas(
    stores: tuple[RedisStore, RedisStore],
) -> None:
    """Two replicas commit in turns as fast as they can; a hub on each sees
    every version once, in order (its own published, the other's read)."""
    one, two = stores
    hubs = [
        WatchHub(one, WatchLimits(buffer_entries=1000)),
        WatchHub(two, WatchLimits(buffer_entries=1000)),
    ]
    subs = [hub.subscribe("g", "c", 0) for hub in hubs]
    await _until_waiting(one, two)
    for version in range(1, 101):
        n = version % 2
        await _commit((one, two)[n], version)
        hubs[n].publish("g", _entry(version), _state(1000 - version))
    seen: list[list[int]] = [[], []]

    def delivered() -> bool:
        for sub, got in zip(subs, seen, strict=True):
            got.extend(_versions(sub.drain()))
        return all(len(got) >= 100 for got in seen)

    await until(delivered, "every version on both hubs")
    assert seen == [list(range(1, 101))] * 2
    for hub, sub in zip(hubs, subs, strict=True):
        hub.unsubscribe(sub)


async def test_a_closed_store_ends_its_waits(clean_redis: str) -> None:
    store = RedisStore(clean_redis)
    await store.create_game("g", _meta(), _state(1000))
    waited = asyncio.create_task(store.wait_entries("g", 0, timeout=30))
    await _until_waiting(store)
    await store.close()
    with pytest.raises(StoreUnavailable):
        await asyncio.wait_for(waited, 10)
    assert _notes(store)._subscriber is None  # not connected again
