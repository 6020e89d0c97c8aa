"""Which versions exist, told by Redis: one pub/sub connection per Redis node.

``commit.lua`` publishes each new version of a game on the game's channel
(``{g:<id>}:v:<db>``, the version in decimal). A process that watches games
holds one subscriber connection carrying the channels of all of them, so a
move costs the watching process no command: the notification arrives and is
checked against what each waiting reader holds (``seen``). A reader is woken,
and reads the stream (XRANGE), only for a version it does not hold; mostly
it holds it already, because this process committed it and
``WatchHub.publish`` delivered it. When the notification beats the reply of
this process's own commit of the game, the check waits for that commit to
settle (``committing``/``committed``) and is made again just after, once
its caller had the chance to publish it.

A notification is a hint, never the data: entries are only ever read from
the stream, in order, after the version the reader holds, so a lost, late,
duplicated or foreign notification can delay a watcher but never give it a
gap or a wrong entry. What bounds the delay:

* a channel is *synced* once a stream read reached the stream's end after
  its subscription was confirmed: from then on every version committed is in
  that read or notified on this connection (Redis delivers a connection's
  messages in order; the script appends and publishes atomically), so
  ``latest`` is the stream's newest version, up to notifications on the way;
* a lost connection un-syncs every channel and wakes its readers, which
  connect again, subscribe again and read from the version they hold;
* a wait that times out reads the stream once anyway: a periodic re-read, so
  even a committer that does not publish (a replica of an older release
  during a rolling upgrade) delays a watcher by at most the wait's timeout
  (the feed's ``read_block_seconds``).

Channels no reader has used for ``LINGER`` seconds are unsubscribed.

On a Redis Cluster (``ShardedNotifier`` settings: ``route`` and
``sharded``) the channels are shard channels: ``commit.lua`` publishes with
SPUBLISH, which stays on the primary of the game's slot (the channel has the
game's hash tag), and a process holds one subscriber connection per primary
it watches games on (SSUBSCRIBE), each channel on the connection of its
slot's primary. So watching costs a node one connection per process,
whatever the number of games watched. A slot that moves (resharding, a
failover) is followed: Redis ends the shard subscriptions of a slot it no
longer serves (an unrequested ``sunsubscribe``), a subscription sent to the
wrong node is refused (MOVED), a primary's loss closes its connection; each
un-syncs the channels concerned and wakes their readers, and the next
subscription goes to the node the refreshed slot map names (``rerouted``).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

import hiredis
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import ResponseError
from redis.exceptions import TimeoutError as RedisTimeoutError

from throneroom_server.store.multiplex import COMMAND_TIMEOUT, pack

Address = tuple[str, int]
"""A Redis node's (host, port)."""

Route = Callable[[str], Address]
"""game id -> the node whose connection carries the game's channel."""


class SubscriptionMoved(RedisConnectionError):
    """A node refused a subscription (MOVED: the slot is another node's)."""


LINGER = 30.0
"""Seconds an unused channel stays subscribed (a feed waits again at once)."""

Row = tuple[int, bytes]
"""A stream row: (version, the serialized StoredEntry)."""

Read = Callable[[str, int, int], Awaitable[list[Row]]]
"""(game id, after version, limit) -> the stream's rows after that version."""


def channel_name(game_id: str, db: int = 0) -> str:
    """The game's channel (channels are server-wide: the database is in the name)."""
    return f"{{g:{game_id}}}:v:{db}"


class _Reader:
    """One ``wait`` call: what it holds, and its wake-up while it sleeps."""

    __slots__ = ("after", "expired", "future", "seen")

    def __init__(self, after: int, seen: Callable[[], int] | None) -> None:
        self.after = after
        self.seen = seen
        self.future: asyncio.Future[None] | None = None
        self.expired = False

    def held(self) -> int:
        seen = self.seen
        return self.after if seen is None else max(self.after, seen())

    def wake(self) -> None:
        future = self.future
        if future is not None and not future.done():
            future.set_result(None)

    def expire(self) -> None:
        self.expired = True
        self.wake()


class Channel:
    """One game's notifications on this process's subscriber connection."""

    __slots__ = (
        "confirmed",
        "game_id",
        "latest",
        "name",
        "notes",
        "readers",
        "recheck",
        "subscriber",
        "synced",
        "used",
        "users",
    )

    def __init__(self, game_id: str, name: bytes) -> None:
        self.game_id = game_id
        self.name = name
        self.latest = 0
        """The newest version known to exist (notified, or read while synced)."""
        self.notes = 0  # notifications received
        self.synced = False
        self.confirmed: asyncio.Future[None] | None = None  # the subscription
        self.subscriber: _Subscriber | None = None  # the connection it was sent on
        self.readers: list[_Reader] = []  # those asleep
        self.recheck = False  # check the readers when this process's commit settles
        self.users = 0
        self.used = 0.0  # loop time of the last use


class _Subscriber(asyncio.Protocol):
    def __init__(self, notifier: Notifier, address: Address) -> None:
        self.notifier = notifier
        self.address = address
        self.reader = hiredis.Reader()
        self.transport: asyncio.Transport | None = None
        self.replies: list[asyncio.Future[Any]] = []  # the handshake's, in order
        self.lost = False

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport

    def data_received(self, data: bytes) -> None:
        self.reader.feed(data)
        notifier = self.notifier
        channels = notifier.channels
        while (reply := self.reader.gets()) is not False:
            if isinstance(reply, list) and len(reply) == 3:
                kind, name, value = reply
                channel = channels.get(name)
                if kind in _MESSAGE:
                    if channel is not None:
                        channel.notes += 1
                        version = int(value)
                        if version > channel.latest:
                            channel.latest = version
                            if channel.readers:
                                notifier.check(channel)
                    continue
                if kind in _SUBSCRIBED:
                    mine = channel is not None and channel.subscriber is self
                    confirmed = channel.confirmed if mine and channel is not None else None
                    if confirmed is not None and not confirmed.done():
                        confirmed.set_result(None)
                    continue
                if kind in _UNSUBSCRIBED:
                    if channel is not None and channel.subscriber is self:
                        notifier.ended(channel)
                    continue
            if self.replies:  # AUTH's reply
                waiter = self.replies.pop(0)
                if not waiter.done():
                    if isinstance(reply, hiredis.ReplyError):
                        waiter.set_exception(ResponseError(str(reply)))
                    else:
                        waiter.set_result(reply)
            elif isinstance(reply, hiredis.ReplyError):  # a subscription refused (MOVED)
                notifier.refused(self, str(reply))

    def connection_lost(self, exc: Exception | None) -> None:
        self.lost = True
        failure = RedisConnectionError(f"Redis subscriber connection lost: {exc or 'closed'}")
        for waiter in self.replies:
            if not waiter.done():
                waiter.set_exception(failure)
        self.replies.clear()
        self.notifier.lost(self)

    def send(self, *args: Any) -> None:
        assert self.transport is not None
        self.transport.write(pack(args))

    def close(self) -> None:
        if self.transport is not None:
            self.transport.close()
        self.connection_lost(None)


_MESSAGE = (b"message", b"smessage")
_SUBSCRIBED = (b"subscribe", b"ssubscribe")
_UNSUBSCRIBED = (b"unsubscribe", b"sunsubscribe")


class Notifier:
    """The subscriber connections (lazily connected, again after a loss), the
    channels of the games this process reads, and ``wait``: the stream's rows
    after what a reader holds, read when a notification says there are some.

    One connection to ``host:port``; with ``route``, one per node it names
    (``ShardedNotifier``), and with ``sharded`` shard channels (SSUBSCRIBE).
    ``rerouted`` is called when a channel's node may have changed (a refused
    or ended subscription, a lost connection): the route's map is stale;
    ``settled`` waits for its refresh, after which a refused subscription is
    sent once more (to the node the map names then)."""

    def __init__(
        self,
        host: str,
        port: int,
        read: Read,
        *,
        db: int = 0,
        username: str | None = None,
        password: str | None = None,
        timeout: float = COMMAND_TIMEOUT,
        route: Route | None = None,
        sharded: bool = False,
        rerouted: Callable[[], None] | None = None,
        settled: Callable[[], Awaitable[None]] | None = None,
    ) -> None:
        self._address: Address = (host, port)
        self._route = route
        self._rerouted = rerouted
        self._settled = settled
        self._subscribe_command, self._unsubscribe_command = (
            ("SSUBSCRIBE", "SUNSUBSCRIBE") if sharded else ("SUBSCRIBE", "UNSUBSCRIBE")
        )
        self._db = db
        self._username, self._password = username, password
        self._timeout = timeout
        self._read = read
        self.channels: dict[bytes, Channel] = {}
        self._games: dict[str, Channel] = {}
        self._committing: dict[str, int] = {}
        self._subscribers: dict[Address, _Subscriber] = {}
        self._connecting: dict[Address, asyncio.Lock] = {}
        self._sweeper: asyncio.TimerHandle | None = None
        self._closed = False

    @property
    def _subscriber(self) -> _Subscriber | None:
        """The live connection of a notifier with one node (tests)."""
        return self._subscribers.get(self._address)

    # -- this process's commits ------------------------------------------------

    def committing(self, game_id: str) -> None:
        """A commit of the game is sent (its notification may come before its reply)."""
        committing = self._committing
        committing[game_id] = committing.get(game_id, 0) + 1

    def committed(self, game_id: str) -> None:
        """Its reply came (or it failed): the readers a notification found
        behind are checked again once the caller went on (published it)."""
        left = self._committing.pop(game_id) - 1
        if left:
            self._committing[game_id] = left
            return
        channel = self._games.get(game_id)
        if channel is not None and channel.recheck:
            channel.recheck = False
            asyncio.get_running_loop().call_soon(self.check, channel)

    def check(self, channel: Channel) -> None:
        """Wake the readers that lack the channel's newest version."""
        if channel.game_id in self._committing:
            channel.recheck = True  # maybe this process's own: after it settles
            return
        latest = channel.latest
        for reader in channel.readers:
            if latest > reader.held():
                reader.wake()

    # -- waiting ---------------------------------------------------------------

    async def wait(
        self,
        game_id: str,
        after: int,
        timeout: float,
        limit: int,
        seen: Callable[[], int] | None,
    ) -> list[Row]:
        """Up to ``limit`` rows after what the caller holds (``after``, or
        ``seen()`` when newer), as soon as there is one; after ``timeout``,
        what one more read finds (maybe []). Raises RedisConnectionError or
        RedisTimeoutError (and the read's errors)."""
        channel = self._use(game_id)
        reader = _Reader(after, seen)
        loop = asyncio.get_running_loop()
        timer: asyncio.TimerHandle | None = None
        try:
            while True:
                confirmed = channel.confirmed
                if confirmed is None or not confirmed.done() or not self._current(channel):
                    await self._subscribe(channel)
                held = reader.held()
                if not channel.synced or (
                    channel.latest > held and game_id not in self._committing
                ):
                    rows = await self._read_synced(channel, held, limit)
                    held = reader.held()
                    fresh = [row for row in rows if row[0] > held]
                    if fresh:
                        return fresh
                    continue
                if reader.expired:  # the periodic re-read
                    rows = await self._read(game_id, held, limit)
                    held = reader.held()
                    return [row for row in rows if row[0] > held]
                if channel.latest > held:
                    channel.recheck = True  # this process's commit is in flight
                if timer is None:
                    if timeout <= 0:
                        reader.expired = True
                        continue
                    timer = loop.call_later(timeout, reader.expire)
                reader.future = loop.create_future()
                channel.readers.append(reader)
                try:
                    await reader.future
                finally:
                    reader.future = None
                    channel.readers.remove(reader)
        finally:
            if timer is not None:
                timer.cancel()
            channel.users -= 1
            channel.used = loop.time()

    def waiting(self, game_id: str) -> int:
        """The game's ``wait`` calls asleep now until a notification or their
        timeout (subscribed and synced: a commit from now on wakes them), not
        counting those woken but not yet running: for tests and operators."""
        channel = self._games.get(game_id)
        if channel is None:
            return 0
        return sum(
            reader.future is not None and not reader.future.done() for reader in channel.readers
        )

    async def _read_synced(self, channel: Channel, after: int, limit: int) -> list[Row]:
        """A read sent after the channel's subscription was confirmed: when it
        reaches the stream's end the channel is synced and ``latest`` is the
        stream's newest version (or newer, when notifications came meanwhile)."""
        subscriber, notes, confirmed = channel.subscriber, channel.notes, channel.confirmed
        rows = await self._read(channel.game_id, after, limit)
        if (
            channel.confirmed is confirmed
            and channel.subscriber is subscriber
            and subscriber is not None
            and not subscriber.lost
        ):
            top = rows[-1][0] if rows else after
            if len(rows) < limit:
                channel.synced = True
                channel.latest = top if channel.notes == notes else max(channel.latest, top)
            elif top > channel.latest:
                channel.latest = top
        return rows

    def _use(self, game_id: str) -> Channel:
        channel = self._games.get(game_id)
        if channel is None:
            name = channel_name(game_id, self._db).encode()
            channel = self._games[game_id] = self.channels[name] = Channel(game_id, name)
            if self._sweeper is None:
                self._sweeper = asyncio.get_running_loop().call_later(LINGER, self._sweep)
        channel.users += 1
        return channel

    # -- the connections -------------------------------------------------------

    def _where(self, game_id: str) -> Address:
        return self._address if self._route is None else self._route(game_id)

    def _current(self, channel: Channel) -> bool:
        """Subscribed on the live connection of the node the route names now."""
        subscriber = channel.subscriber
        return (
            subscriber is not None
            and not subscriber.lost
            and subscriber is self._subscribers.get(self._where(channel.game_id))
        )

    async def _subscribe(self, channel: Channel) -> None:
        """Until the channel's subscription is confirmed on the live
        connection of its node (once more after a refusal, where the
        refreshed route says)."""
        try:
            await self._subscribe_once(channel)
        except SubscriptionMoved:
            if self._settled is None:
                raise
            await self._settled()
            await self._subscribe_once(channel)

    async def _subscribe_once(self, channel: Channel) -> None:
        address = self._where(channel.game_id)
        subscriber = self._subscribers.get(address)
        if subscriber is None or subscriber.lost:
            if self._closed:
                raise RedisConnectionError("the store is closed")
            subscriber = await self._connect(address)
        if channel.confirmed is None or channel.subscriber is not subscriber:
            before = channel.subscriber
            if before is not None and not before.lost and before is not subscriber:
                before.send(self._unsubscribe_command, channel.name)  # its old node's
            channel.confirmed = asyncio.get_running_loop().create_future()
            channel.subscriber = subscriber
            channel.synced = False
            subscriber.send(self._subscribe_command, channel.name)
        confirmed = channel.confirmed
        if not confirmed.done():
            try:
                await asyncio.wait_for(asyncio.shield(confirmed), self._timeout)
            except TimeoutError as exc:
                subscriber.close()  # an unanswering connection: the next use connects afresh
                raise RedisTimeoutError("Redis did not confirm a subscription") from exc
        confirmed.result()  # raises the connection's loss, or the node's refusal

    def _unsync(self, channel: Channel, failure: BaseException) -> None:
        channel.synced = False
        channel.subscriber = None
        confirmed, channel.confirmed = channel.confirmed, None
        if confirmed is not None and not confirmed.done():
            confirmed.set_exception(failure)
            confirmed.exception()  # retrieved: its waiter may be gone
        for reader in channel.readers:
            reader.wake()

    def lost(self, subscriber: _Subscriber) -> None:
        if self._subscribers.get(subscriber.address) is not subscriber:
            return
        del self._subscribers[subscriber.address]
        failure = RedisConnectionError("Redis subscriber connection lost")
        for channel in self.channels.values():
            if channel.subscriber is subscriber:
                self._unsync(channel, failure)
        if self._rerouted is not None and not self._closed:
            self._rerouted()

    def ended(self, channel: Channel) -> None:
        """Redis ended a confirmed subscription nobody asked to end (its slot
        moved to another node): subscribe again, where the route says."""
        confirmed = channel.confirmed
        if confirmed is None or not confirmed.done():
            return  # the reply to an earlier unsubscription of the name
        self._unsync(channel, RedisConnectionError("Redis ended the subscription"))
        if self._rerouted is not None:
            self._rerouted()

    def refused(self, subscriber: _Subscriber, message: str) -> None:
        """The node refused a subscription (MOVED: not its slot): the
        channels waiting for a confirmation there fail, to be routed again."""
        failure = SubscriptionMoved(f"Redis refused a subscription: {message}")
        for channel in self.channels.values():
            confirmed = channel.confirmed
            if channel.subscriber is subscriber and confirmed is not None and not confirmed.done():
                self._unsync(channel, failure)
        if self._rerouted is not None:
            self._rerouted()

    async def _connect(self, address: Address) -> _Subscriber:
        lock = self._connecting.setdefault(address, asyncio.Lock())
        async with lock:
            live = self._subscribers.get(address)
            if live is not None and not live.lost:
                return live
            if self._closed:
                raise RedisConnectionError("the store is closed")
            loop = asyncio.get_running_loop()
            host, port = address
            try:
                _, subscriber = await asyncio.wait_for(
                    loop.create_connection(lambda: _Subscriber(self, address), host, port),
                    self._timeout,
                )
            except (OSError, TimeoutError) as exc:
                if self._rerouted is not None:
                    self._rerouted()
                raise RedisConnectionError(
                    f"cannot connect to Redis at {host}:{port}: {exc}"
                ) from exc
            if self._password:
                auth = ("AUTH", self._username, self._password) if self._username else None
                reply: asyncio.Future[Any] = loop.create_future()
                subscriber.replies.append(reply)
                subscriber.send(*(auth or ("AUTH", self._password)))
                try:
                    await asyncio.wait_for(reply, self._timeout)
                except BaseException:
                    subscriber.lost = True
                    if subscriber.transport is not None:
                        subscriber.transport.close()
                    raise
            self._subscribers[address] = subscriber
            return subscriber

    def _sweep(self) -> None:
        """Unsubscribe the channels nobody used for ``LINGER`` seconds."""
        loop = asyncio.get_running_loop()
        idle_since = loop.time() - LINGER
        for channel in list(self._games.values()):
            if channel.users or channel.used > idle_since:
                continue
            del self._games[channel.game_id]
            del self.channels[channel.name]
            subscriber = channel.subscriber
            if subscriber is not None and not subscriber.lost:
                subscriber.send(self._unsubscribe_command, channel.name)
        self._sweeper = loop.call_later(LINGER, self._sweep) if self._games else None

    def close(self) -> None:
        self._closed = True
        if self._sweeper is not None:
            self._sweeper.cancel()
            self._sweeper = None
        for subscriber in list(self._subscribers.values()):
            subscriber.close()
