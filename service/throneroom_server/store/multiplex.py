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


def _encode(arg: Any) -> bytes:
    if isinstance(arg, bytes):
        return arg
    if isinstance(arg, str):
        return arg.encode()
    if isinstance(arg, int):
        return str(arg).encode()
    raise TypeError(f"cannot send {type(arg).__name__} to Redis")


def pack(args: tuple[Any, ...]) -> bytes:
    """A command in the RESP wire format."""
    parts = [b"*%d\r\n" % len(args)]
    for arg in args:
        data = _encode(arg)
        parts.append(b"$%d\r\n%s\r\n" % (len(data), data))
    return b"".join(parts)


def _error(reply: hiredis.ReplyError) -> ResponseError:
    message = str(reply)
    if message.startswith("NOSCRIPT"):
        return NoScriptError(message)
    return ResponseError(message)


class _Protocol(asyncio.Protocol):
    def __init__(self) -> None:
        self.reader = hiredis.Reader()
        self.waiters: collections.deque[asyncio.Future[Any]] = collections.deque()
        self.transport: asyncio.Transport | None = None
        self.lost: BaseException | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport

    def data_received(self, data: bytes) -> None:
        self.reader.feed(data)
        while (reply := self.reader.gets()) is not False:
            waiter = self.waiters.popleft()
            if waiter.done():  # its caller gave up (cancelled or timed out)
                continue
            if isinstance(reply, hiredis.ReplyError):
                waiter.set_exception(_error(reply))
            else:
                waiter.set_result(reply)

    def connection_lost(self, exc: Exception | None) -> None:
        self.lost = RedisConnectionError(f"connection to Redis lost: {exc or 'closed'}")
        while self.waiters:
            waiter = self.waiters.popleft()
            if not waiter.done():
                waiter.set_exception(self.lost)

    def send(self, payload: bytes) -> asyncio.Future[Any]:
        assert self.transport is not None
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self.waiters.append(future)
        self.transport.write(payload)
        return future


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
        future = protocol.send(pack(args))
        try:
            return await asyncio.wait_for(future, self._timeout)
        except TimeoutError as exc:
            # The reply may still come; the FIFO skips this waiter then.
            raise RedisTimeoutError(f"Redis did not answer within {self._timeout} s") from exc

    async def _connect(self) -> _Protocol:
        if self._connecting is None:
            self._connecting = asyncio.Lock()
        async with self._connecting:
            if self._protocol is not None and self._protocol.lost is None:
                return self._protocol
            loop = asyncio.get_running_loop()
            try:
                _, protocol = await asyncio.wait_for(
                    loop.create_connection(_Protocol, self._host, self._port), self._timeout
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
