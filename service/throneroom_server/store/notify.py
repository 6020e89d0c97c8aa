"""Which versions exist, told by Redis: one pub/sub connection per process.

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
        "epoch",
        "game_id",
        "latest",
        "name",
        "notes",
        "readers",
        "recheck",
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
        self.epoch = -1  # the connection it was sent on
        self.readers: list[_Reader] = []  # those asleep
        self.recheck = False  # check the readers when this process's commit settles
        self.users = 0
        self.used = 0.0  # loop time of the last use


class _Subscriber(asyncio.Protocol):
    def __init__(self, notifier: Notifier) -> None:
        self.notifier = notifier
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
                if kind == b"message":
                    if channel is not None:
                        channel.notes += 1
                        version = int(value)
                        if version > channel.latest:
                            channel.latest = version
                            if channel.readers:
                                notifier.check(channel)
                    continue
                if kind == b"subscribe":
                    confirmed = None if channel is None else channel.confirmed
                    if confirmed is not None and not confirmed.done():
                        confirmed.set_result(None)
                    continue
                if kind == b"unsubscribe":
                    continue
            if self.replies:  # AUTH's reply
                waiter = self.replies.pop(0)
                if not waiter.done():
                    if isinstance(reply, hiredis.ReplyError):
                        waiter.set_exception(ResponseError(str(reply)))
                    else:
                        waiter.set_result(reply)

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


class Notifier:
    """The subscriber connection (lazily connected, again after a loss), the
    channels of the games this process reads, and ``wait``: the stream's rows
    after what a reader holds, read when a notification says there are some."""

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
    ) -> None:
        self._host, self._port, self._db = host, port, db
        self._username, self._password = username, password
        self._timeout = timeout
        self._read = read
        self.channels: dict[bytes, Channel] = {}
        self._games: dict[str, Channel] = {}
        self._committing: dict[str, int] = {}
        self._subscriber: _Subscriber | None = None
        self._connecting: asyncio.Lock | None = None
        self.epoch = 0  # counts connections: a channel synced on an older one is not
        self._sweeper: asyncio.TimerHandle | None = None
        self._closed = False

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
                if confirmed is None or not confirmed.done() or channel.epoch != self.epoch:
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
        epoch, notes, confirmed = self.epoch, channel.notes, channel.confirmed
        rows = await self._read(channel.game_id, after, limit)
        if channel.confirmed is confirmed and channel.epoch == epoch == self.epoch:
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

    # -- the connection --------------------------------------------------------

    async def _subscribe(self, channel: Channel) -> None:
        """Until the channel's subscription is confirmed on the live connection."""
        subscriber = self._subscriber
        if subscriber is None or subscriber.lost:
            if self._closed:
                raise RedisConnectionError("the store is closed")
            subscriber = await self._connect()
        if channel.confirmed is None or channel.epoch != self.epoch:
            channel.confirmed = asyncio.get_running_loop().create_future()
            channel.epoch = self.epoch
            channel.synced = False
            subscriber.send("SUBSCRIBE", channel.name)
        confirmed = channel.confirmed
        if not confirmed.done():
            try:
                await asyncio.wait_for(asyncio.shield(confirmed), self._timeout)
            except TimeoutError as exc:
                self._drop()  # an unanswering connection: the next use connects afresh
                raise RedisTimeoutError("Redis did not confirm a subscription") from exc
        confirmed.result()  # raises the connection's loss

    def lost(self, subscriber: _Subscriber) -> None:
        if subscriber is not self._subscriber:
            return
        self._subscriber = None
        failure = RedisConnectionError("Redis subscriber connection lost")
        for channel in self.channels.values():
            channel.synced = False
            confirmed, channel.confirmed = channel.confirmed, None
            if confirmed is not None and not confirmed.done():
                confirmed.set_exception(failure)
                confirmed.exception()  # retrieved: its waiter may be gone
            for reader in channel.readers:
                reader.wake()

    async def _connect(self) -> _Subscriber:
        if self._connecting is None:
            self._connecting = asyncio.Lock()
        async with self._connecting:
            if self._subscriber is not None and not self._subscriber.lost:
                return self._subscriber
            loop = asyncio.get_running_loop()
            try:
                _, subscriber = await asyncio.wait_for(
                    loop.create_connection(lambda: _Subscriber(self), self._host, self._port),
                    self._timeout,
                )
            except (OSError, TimeoutError) as exc:
                raise RedisConnectionError(
                    f"cannot connect to Redis at {self._host}:{self._port}: {exc}"
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
            self.epoch += 1
            self._subscriber = subscriber
            return subscriber

    def _sweep(self) -> None:
        """Unsubscribe the channels nobody used for ``LINGER`` seconds."""
        loop = asyncio.get_running_loop()
        idle_since = loop.time() - LINGER
        subscriber = self._subscriber
        for channel in list(self._games.values()):
            if channel.users or channel.used > idle_since:
                continue
            del self._games[channel.game_id]
            del self.channels[channel.name]
            live = subscriber is not None and not subscriber.lost
            if live and channel.epoch == self.epoch and subscriber is not None:
                subscriber.send("UNSUBSCRIBE", channel.name)
        self._sweeper = loop.call_later(LINGER, self._sweep) if self._games else None

    def _drop(self) -> None:
        subscriber = self._subscriber
        if subscriber is not None:
            if subscriber.transport is not None:
                subscriber.transport.close()
            subscriber.connection_lost(None)

    def close(self) -> None:
        self._closed = True
        if self._sweeper is not None:
            self._sweeper.cancel()
            self._sweeper = None
        self._drop()
