"""Watching games: one store reader per game per replica, fanned out to every
local watcher, with bounded buffers and stream limits.

A watcher costs the store nothing extra: the first watcher of a game on this
replica starts the game's *feed*, one task that waits on the store
(``wait_entries``: on Redis, a notification of a version the feed lacks, or
``XREAD BLOCK`` on a cluster) and pushes each new entry to the subscriptions
of every local watcher; the last one to leave stops it. 1,000 spectators of
one game hold one reader, not 1,000.

The feed hands out entries with their states: one it committed itself
(``publish``) carries it, and one it reads from the store (a move another
replica committed) gets it from the feed's state before it, by one apply of
its move (``history.py``; the store keeps states only at checkpoints).

Each subscription buffers at most ``WatchLimits.buffer_entries`` entries (the
parsed entries are shared by every subscription, so a buffer holds
references, not copies). A watcher that falls further behind than that (its
client does not read) is *dropped*: its stream ends with ``WatcherTooSlow``
carrying the last version it delivered, and the client resumes from there
(the SDK does so on its own). A feed whose store read fails fails every
subscription with the store's error; the next watcher starts a new feed.

Streams are counted per client, per game and per replica; over a limit,
``subscribe`` raises ``TooManyStreams`` and nothing is held.
"""

from __future__ import annotations

import asyncio
from collections import Counter, deque
from dataclasses import dataclass

import structlog
from throneroom.v1 import game_pb2, storage_pb2

from throneroom_server.app.history import History
from throneroom_server.store.base import Store, StoreError

log = structlog.get_logger("throneroom.watch")


@dataclass(frozen=True)
class WatchLimits:
    """Bounds on watch streams (configuration: ``THRONEROOM_MAX_STREAMS_*``)."""

    streams_per_client: int = 100
    """Open watch streams of one client (an API key, else a peer address)."""
    streams_per_game: int = 5000
    """Open watch streams of one game on this replica."""
    streams_total: int = 20000
    """Open watch streams on this replica."""
    buffer_entries: int = 256
    """Entries a watcher may fall behind before it is dropped (it resumes)."""
    watched_games: int = 2000
    """Games with a feed on this replica (on a Redis Cluster, one blocking
    store connection each)."""
    read_block_seconds: float = 10.0
    """How long one store wait lasts before it is renewed (on Redis
    notifications, ending with a read of the stream: the periodic re-read)."""


class TooManyStreams(Exception):
    """A stream limit is reached; ``scope`` says which (client, game, server)."""

    def __init__(self, scope: str, limit: int) -> None:
        super().__init__(f"at most {limit} open watch streams per {scope}")
        self.scope = scope
        self.limit = limit


class WatcherTooSlow(Exception):
    """The watcher fell more than the buffer behind the game and was dropped."""


class Subscription:
    """One watcher's view of a feed: new entries, in version order."""

    __slots__ = (
        "_closing",
        "_deadline",
        "_failure",
        "_limit",
        "_pending",
        "_timer",
        "_waiter",
        "_woken",
        "client_id",
        "dropped",
        "feed",
    )

    def __init__(self, limit: int, feed: _Feed, client_id: str) -> None:
        self.feed = feed
        self.client_id = client_id
        self._pending: deque[storage_pb2.StoredEntry] = deque()
        self._woken = False
        self._waiter: asyncio.Future[None] | None = None  # the watcher's wait, while it waits
        self._timer: asyncio.TimerHandle | None = None  # ends a wait at ``_deadline``
        self._deadline = 0.0
        self._limit = limit
        self._failure: BaseException | None = None
        self._closing: asyncio.Task[None] | None = None  # wakes this watcher on shutdown
        self.dropped = False

    def _push(self, entry: storage_pb2.StoredEntry) -> None:
        if self.dropped:
            return
        if len(self._pending) >= self._limit:
            self.dropped = True
            self._pending.clear()
        else:
            self._pending.append(entry)
        self._wake()

    def nudge(self) -> None:
        """Wake the watcher without an entry (a play session's move result)."""
        self._wake()

    def _fail(self, failure: BaseException) -> None:
        self._failure = failure
        self._wake()

    def _wake(self) -> None:
        self._woken = True
        waiter = self._waiter
        if waiter is not None and not waiter.done():
            waiter.set_result(None)

    @property
    def latest(self) -> int:
        """The newest version the game's feed has seen."""
        return self.feed.after

    @property
    def woken(self) -> bool:
        """Something was pushed (or failed) since the last drain."""
        return self._woken

    def drain(self) -> list[storage_pb2.StoredEntry]:
        """The entries pushed since the last drain (raises when dropped or failed)."""
        if self.dropped:
            raise WatcherTooSlow
        if self._failure is not None:
            raise self._failure
        entries = list(self._pending)
        self._pending.clear()
        self._woken = False
        return entries

    async def wait(self, timeout: float, closing: asyncio.Event) -> None:
        """Until something was pushed (or failed), ``closing`` is set or ``timeout`` passes.

        A wait is on the hot path (once per update of every watcher), so it
        makes no task and, mostly, no timer: one task per subscription
        watches ``closing``, and one timer per subscription ends a wait at its
        deadline. A wait whose deadline is not before the timer's leaves the
        timer as it is; when it fires early (an earlier wait's deadline) it
        sets itself again for the newest deadline."""
        if self._woken or closing.is_set():
            return
        loop = asyncio.get_running_loop()
        if self._closing is None:
            self._closing = loop.create_task(self._wake_on(closing))
        self._deadline = deadline = loop.time() + timeout
        timer = self._timer
        if timer is None or timer.when() > deadline:
            if timer is not None:
                timer.cancel()
            self._timer = loop.call_at(deadline, self._expire)
        self._waiter = waiter = loop.create_future()
        try:
            await waiter
        finally:
            self._waiter = None

    def _expire(self) -> None:
        self._timer = None
        waiter = self._waiter
        if waiter is None or waiter.done():
            return  # nobody waits: the next wait sets a timer
        loop = waiter.get_loop()
        if loop.time() < self._deadline:
            self._timer = loop.call_at(self._deadline, self._expire)
        else:
            waiter.set_result(None)

    async def _wake_on(self, closing: asyncio.Event) -> None:
        await closing.wait()
        self._wake()

    def _close(self) -> None:
        if self._closing is not None:
            self._closing.cancel()
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None


class _Feed:
    __slots__ = ("after", "game_id", "state", "subscriptions", "task")

    def __init__(self, game_id: str, after: int, state: game_pb2.GameState | None) -> None:
        self.game_id = game_id
        self.after = after
        self.state = state
        """The state after version ``after``, once known."""
        self.subscriptions: set[Subscription] = set()
        self.task: asyncio.Task[None] | None = None

    def seen(self) -> int:
        """The newest version delivered (the store's read leaves out, unparsed,
        the versions ``publish`` delivered while it waited)."""
        return self.after


class WatchHub:
    """The feeds of this replica and the stream counters."""

    def __init__(
        self, store: Store, limits: WatchLimits | None = None, history: History | None = None
    ) -> None:
        self.store = store
        self.limits = limits or WatchLimits()
        self.history = history or History(store, {})
        """Gives read entries their states (the App's knows every game)."""
        self._feeds: dict[str, _Feed] = {}
        self._per_client: Counter[str] = Counter()
        self._per_game: Counter[str] = Counter()
        self._total = 0

    @property
    def open_streams(self) -> int:
        return self._total

    @property
    def feeds(self) -> int:
        """Games with a running store reader on this replica."""
        return len(self._feeds)

    def subscribe(
        self,
        game_id: str,
        client_id: str,
        after_version: int,
        per_client: int | None = None,
        *,
        state: game_pb2.GameState | None = None,
    ) -> Subscription:
        """A stream slot and a subscription to the game's feed (started at
        ``after_version``, whose state is ``state`` when given, when this is
        the game's first watcher here); close it with ``unsubscribe``.
        ``per_client`` overrides the per-client stream limit (API key
        quotas). Raises TooManyStreams, holding nothing."""
        limits = self.limits
        client_limit = limits.streams_per_client if per_client is None else per_client
        if self._total >= limits.streams_total:
            raise TooManyStreams("server", limits.streams_total)
        if self._per_game[game_id] >= limits.streams_per_game:
            raise TooManyStreams("game", limits.streams_per_game)
        if self._per_client[client_id] >= client_limit:
            raise TooManyStreams("client", client_limit)
        feed = self._feeds.get(game_id)
        if feed is None:
            if len(self._feeds) >= limits.watched_games:
                raise TooManyStreams("server (watched games)", limits.watched_games)
            feed = self._feeds[game_id] = _Feed(game_id, after_version, state)
            feed.task = asyncio.get_running_loop().create_task(
                self._read(feed), name=f"feed:{game_id}"
            )
        self._total += 1
        self._per_game[game_id] += 1
        self._per_client[client_id] += 1
        subscription = Subscription(limits.buffer_entries, feed, client_id)
        feed.subscriptions.add(subscription)
        return subscription

    def unsubscribe(self, subscription: Subscription) -> None:
        """Give the slot back; the game's feed stops with its last watcher."""
        feed = subscription.feed
        subscription._close()
        if subscription not in feed.subscriptions:
            return
        feed.subscriptions.discard(subscription)
        if not feed.subscriptions and self._feeds.get(feed.game_id) is feed:
            del self._feeds[feed.game_id]
            if feed.task is not None:
                feed.task.cancel()
        self._total -= 1
        _decrement(self._per_game, feed.game_id)
        _decrement(self._per_client, subscription.client_id)

    def publish(
        self, game_id: str, entry: storage_pb2.StoredEntry, state: game_pb2.GameState
    ) -> None:
        """A version this replica has just committed (``entry`` without its
        state, and ``state``): pushed to the game's local watchers at once, so
        they need not wait for the store's read nor parse the record again.
        Only when it follows the last version the feed delivered (else the
        feed brings it, in order); the feed skips it when the store brings it.
        Watchers on other replicas get it from the store, as before."""
        feed = self._feeds.get(game_id)
        if feed is None or entry.version != feed.after + 1:
            return
        published = storage_pb2.StoredEntry()
        published.CopyFrom(entry)
        published.state.CopyFrom(state)
        feed.after = entry.version
        feed.state = published.state
        for subscription in tuple(feed.subscriptions):
            subscription._push(published)

    async def _read(self, feed: _Feed) -> None:
        try:
            while feed.subscriptions:
                entries = await self.store.wait_entries(
                    feed.game_id, feed.after, self.limits.read_block_seconds, seen=feed.seen
                )
                for entry in entries:
                    if entry.version <= feed.after:
                        continue
                    if not entry.HasField("state"):
                        base = feed.state
                        if base is None or entry.version != feed.after + 1:
                            before = entry.version - 1
                            base = await self.history.state_at(feed.game_id, before)
                            if entry.version <= feed.after:
                                continue  # published while that was read
                        entry.state.CopyFrom(self.history.after(base, entry))
                    feed.after = entry.version
                    feed.state = entry.state
                    for subscription in tuple(feed.subscriptions):
                        subscription._push(entry)
        except asyncio.CancelledError:
            raise
        except (StoreError, OSError) as exc:
            log.warning("watch_feed_failed", game_id=feed.game_id, error=type(exc).__name__)
            self._stop(feed, exc)
        except Exception as exc:  # a bug: never leave watchers waiting forever
            log.exception("watch_feed_crashed", game_id=feed.game_id)
            self._stop(feed, exc)

    def _stop(self, feed: _Feed, failure: BaseException) -> None:
        """The feed failed: its watchers fail (and unsubscribe); the next
        watcher of the game starts a new feed."""
        if self._feeds.get(feed.game_id) is feed:
            del self._feeds[feed.game_id]
        for subscription in tuple(feed.subscriptions):
            subscription._fail(failure)


def _decrement(counter: Counter[str], key: str) -> None:
    counter[key] -= 1
    if counter[key] <= 0:
        del counter[key]
