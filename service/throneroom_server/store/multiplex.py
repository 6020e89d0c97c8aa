"""One Redis connection carrying many concurrent commands (multiplexing).

Redis answers the commands of a connection in the order it received them, so
one TCP connection can carry every in-flight command of the process: each
command's bytes are written at once and a FIFO of futures pairs the replies
(parsed by hiredis) with their callers. Compared with a pool of connections
driven by redis-py, a command costs one ``transport.write`` and one future:
no pool checkout, no per-command stream reads, no retry wrapper. That is the
bulk of ApplyMove's service-path cost, so the two hot commands (HMGET to
load, EVALSHA to commit) go through here; everything else (scripts loading,
seats, streams, blocking XREAD) uses redis-py. StackExchange.Redis and
Lettuce multiplex the same way.

A lost connection fails every command in flight with ConnectionError (the
caller maps it to UNAVAILABLE; a commit whose reply was lost is safe to retry
with the same idempotency key) and the next command reconnects.
"""

from __future__ import annotations

import asyncio
import collections
from typing import Any

import hiredis
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import NoScriptError, ResponseError
from redis.exceptions import TimeoutError as RedisTimeoutError

COMMAND_TIMEOUT = 10.0


def pack(args: tuple[Any, ...]) -> bytes:
    """A command in the RESP wire format (str, bytes, int and float arguments;
    hiredis's encoder, in C: a few microseconds per move less than Python's)."""
    packed: bytes = hiredis.pack_command(args)
    return packed


def _error(reply: hiredis.ReplyError) -> ResponseError:
    message = str(reply)
    if message.startswith("NOSCRIPT"):
        return NoScriptError(message)
    return ResponseError(message)


class _Protocol(asyncio.Protocol):
    """Commands written once per loop iteration (all those sent in one tick go
    out in one ``write``: one system call), replies paired in order, and one
    timer for the connection that fails the commands older than ``timeout``
    (instead of one ``wait_for`` per command)."""

    def __init__(self, timeout: float = COMMAND_TIMEOUT) -> None:
        self.reader = hiredis.Reader()
        self.waiters: collections.deque[tuple[asyncio.Future[Any], float]] = collections.deque()
        self.transport: asyncio.Transport | None = None
        self.lost: BaseException | None = None
        self.timeout = timeout
        self._outgoing: list[bytes] = []
        self._timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport

    def data_received(self, data: bytes) -> None:
        self.reader.feed(data)
        while (reply := self.reader.gets()) is not False:
            waiter, _ = self.waiters.popleft()
            if waiter.done():  # its caller gave up (cancelled or timed out)
                continue
            if isinstance(reply, hiredis.ReplyError):
                waiter.set_exception(_error(reply))
            else:
                waiter.set_result(reply)

    def connection_lost(self, exc: Exception | None) -> None:
        self.lost = RedisConnectionError(f"connection to Redis lost: {exc or 'closed'}")
        self._outgoing.clear()
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        while self.waiters:
            waiter, _ = self.waiters.popleft()
            if not waiter.done():
                waiter.set_exception(self.lost)

    def send(self, payload: bytes) -> asyncio.Future[Any]:
        assert self.transport is not None
        loop = asyncio.get_running_loop()
        future: asyncio.Future[Any] = loop.create_future()
        if self.lost is not None:
            future.set_exception(self.lost)
            return future
        self.waiters.append((future, loop.time() + self.timeout))
        if not self._outgoing:
            loop.call_soon(self._flush)
        self._outgoing.append(payload)
        if self._timer is None:
            self._timer = loop.call_later(self.timeout, self._expire)
        return future

    def _flush(self) -> None:
        transport = self.transport
        if self._outgoing and transport is not None and not transport.is_closing():
            transport.write(b"".join(self._outgoing))
        self._outgoing.clear()

    def _expire(self) -> None:
        """Fail the commands whose time is up (the FIFO skips them when their
        replies come) and wake again at the next command's deadline."""
        self._timer = None
        loop = asyncio.get_running_loop()
        now = loop.time()
        for waiter, deadline in self.waiters:
            if deadline > now:  # deadlines ascend with the FIFO
                self._timer = loop.call_at(deadline, self._expire)
                return
            if not waiter.done():
                waiter.set_exception(
                    RedisTimeoutError(f"Redis did not answer within {self.timeout} s")
                )


class MultiplexedConnection:
    """Lazily connected; safe for any number of concurrent callers on one loop."""

    def __init__(
        self,
        host: str,
        port: int,
        *,
        db: int = 0,
        username: str | None = None,
        password: str | None = None,
        timeout: float = COMMAND_TIMEOUT,
    ) -> None:
        self._host, self._port, self._db = host, port, db
        self._username, self._password = username, password
        self._timeout = timeout
        self._protocol: _Protocol | None = None
        self._connecting: asyncio.Lock | None = None

    async def execute(self, *args: Any) -> Any:
        protocol = self._protocol
        if protocol is None or protocol.lost is not None:
            protocol = await self._connect()
        # A command not answered within the timeout fails with
        # RedisTimeoutError (_Protocol._expire); its reply, if it still
        # comes, is skipped.
        return await protocol.send(pack(args))

    def submit(self, args: tuple[Any, ...]) -> asyncio.Future[Any] | None:
        """``execute`` without a coroutine of its own: the reply's future, or
        None when not connected (then ``execute`` connects)."""
        protocol = self._protocol
        if protocol is None or protocol.lost is not None:
            return None
        return protocol.send(pack(args))

    async def _connect(self) -> _Protocol:
        if self._connecting is None:
            self._connecting = asyncio.Lock()
        async with self._connecting:
            if self._protocol is not None and self._protocol.lost is None:
                return self._protocol
            loop = asyncio.get_running_loop()
            try:
                _, protocol = await asyncio.wait_for(
                    loop.create_connection(
                        lambda: _Protocol(self._timeout), self._host, self._port
                    ),
                    self._timeout,
                )
            except (OSError, TimeoutError) as exc:
                raise RedisConnectionError(
                    f"cannot connect to Redis at {self._host}:{self._port}: {exc}"
                ) from exc
            handshake: list[tuple[Any, ...]] = []
            if self._password:
                auth = ("AUTH", self._username, self._password) if self._username else None
                handshake.append(auth or ("AUTH", self._password))
            if self._db:
                handshake.append(("SELECT", self._db))
            for command in handshake:
                await asyncio.wait_for(protocol.send(pack(command)), self._timeout)
            self._protocol = protocol
            return protocol

    def close(self) -> None:
        if self._protocol is not None and self._protocol.transport is not None:
            self._protocol.transport.close()
        self._protocol = None
