"""Client connections: how many a replica holds open, and how long one may idle.

Every other resource a client can hold is bounded (streams, games, bytes);
connections are bounded here, on each face, per replica:

* **REST face** (aiohttp, which bounds nothing itself): it listens through
  ``LimitedSite``, whose accept hands a new connection to aiohttp only while
  fewer than ``limit`` are open. Over the limit the connection gets one
  answer, ``503`` with the error body ``UNAVAILABLE`` / ``TOO_MANY_CONNECTIONS``
  (``Retry-After: 1``), and is closed: the client learns why instead of
  finding its connection reset. A connection with no request in progress
  (none sent yet, or idle between requests) is closed after the idle time
  (aiohttp's keep-alive timeout, set by ``start_rest``); a WebSocket session
  or an SSE watch is a request in progress, however quiet.
* **gRPC face**: grpc core's own bounds, set by ``grpc_options`` (a connection
  over the limit is closed at once and the client's call fails UNAVAILABLE;
  an idle connection is sent GOAWAY, and a gRPC client reconnects on its next
  call; a connection must finish the HTTP/2 handshake within
  ``HANDSHAKE_SECONDS``), and ``max_calls`` calls in progress at once.

The defaults and settings are in docs/operations.md ("Connections").
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from aiohttp import web
from aiohttp.web_protocol import RequestHandler

from throneroom_server.api.rest_io import error_body

__all__ = [
    "ConnectionGate",
    "LimitedSite",
    "grpc_options",
    "refusal_response",
]

HANDSHAKE_SECONDS = 10.0
"""How long a new gRPC connection may take to finish its HTTP/2 handshake."""

REFUSAL_LINGER_SECONDS = 2.0
"""How long a refused REST connection stays open for its answer to be read
(closed sooner when the client closes its side)."""

MAX_REFUSING = 256
"""Refused connections lingering at once; beyond, a refused connection is
closed without an answer (a flood must not hold more than this)."""

_STARTING_SECONDS = 1.0
"""How long a connection handed to aiohttp counts before aiohttp lists it (it
does so within the same loop turn; a connection lost before is forgotten then)."""


def grpc_options(max_connections: int, idle_seconds: float) -> list[tuple[str, int]]:
    """grpc core's channel arguments bounding the gRPC face's connections."""
    return [
        ("grpc.max_allowed_incoming_connections", max_connections),
        ("grpc.max_connection_idle_ms", round(idle_seconds * 1000)),
        ("grpc.server_handshake_timeout_ms", round(HANDSHAKE_SECONDS * 1000)),
    ]


def refusal_response() -> bytes:
    """The whole HTTP answer of a connection over the limit."""
    body = error_body(
        "UNAVAILABLE",
        "TOO_MANY_CONNECTIONS",
        "this server holds as many connections as it may (THRONEROOM_MAX_CONNECTIONS); "
        "retry in a moment",
        {},
    ).encode()
    head = (
        "HTTP/1.1 503 Service Unavailable\r\n"
        "Content-Type: application/json\r\n"
        f"Content-Length: {len(body)}\r\n"
        "Retry-After: 1\r\n"
        "Connection: close\r\n\r\n"
    )
    return head.encode() + body


class _Refusal(asyncio.Protocol):
    """A connection over the limit: the answer, the write side closed, and the
    connection closed once the client closes its side (or the linger ends).
    What the client sends is not read."""

    def __init__(self, answer: bytes, done: Callable[[], None], *, answered: bool) -> None:
        self._answer = answer
        self._done = done
        self._answered = answered
        self._timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        if not self._answered:
            transport.abort()
            return
        transport.write(self._answer)
        if transport.can_write_eof():
            transport.write_eof()
        self._timer = asyncio.get_running_loop().call_later(REFUSAL_LINGER_SECONDS, transport.abort)

    def data_received(self, data: bytes) -> None:
        pass  # the request is not read: it is refused whatever it says

    def eof_received(self) -> bool:
        return False  # the client closed its side: close ours

    def connection_lost(self, exc: Exception | None) -> None:
        if self._timer is not None:
            self._timer.cancel()
        self._done()


class ConnectionGate:
    """The REST face's protocol factory: aiohttp's while fewer than ``limit``
    connections are open, else a refusal."""

    def __init__(self, server: web.Server, limit: int) -> None:
        self.server = server
        self.limit = limit
        self.refused = 0
        """Connections refused since the start."""
        self._refusing = 0
        self._starting: list[tuple[RequestHandler, float]] = []
        self._answer = refusal_response()

    @property
    def open(self) -> int:
        """Connections open now (those aiohttp lists, and those handed to it
        that it has not listed yet)."""
        now = asyncio.get_running_loop().time()
        self._starting = [
            (handler, since)
            for handler, since in self._starting
            if handler.transport is None and now - since < _STARTING_SECONDS
        ]
        return len(self.server.connections) + len(self._starting)

    def __call__(self) -> asyncio.BaseProtocol:
        if self.open >= self.limit:
            self.refused += 1
            answered = self._refusing < MAX_REFUSING
            if answered:
                self._refusing += 1
            done = self._refused_done if answered else _nothing
            return _Refusal(self._answer, done, answered=answered)
        handler = self.server()
        self._starting.append((handler, asyncio.get_running_loop().time()))
        return handler

    def _refused_done(self) -> None:
        self._refusing -= 1


def _nothing() -> None:
    pass


class LimitedSite(web.BaseSite):
    """A TCP site whose connections go through a ``ConnectionGate`` (aiohttp's
    ``TCPSite`` hands every accepted connection to the server)."""

    __slots__ = ("_bound_port", "_host", "_port", "_reuse_port", "gate")

    def __init__(
        self,
        runner: web.AppRunner,
        host: str | None,
        port: int,
        *,
        max_connections: int,
        reuse_port: bool = False,
    ) -> None:
        super().__init__(runner)
        self._host = host
        self._port = port
        self._reuse_port = reuse_port
        self._bound_port = port
        server = runner.server
        assert server is not None, "set the runner up first"
        self.gate = ConnectionGate(server, max_connections)

    @property
    def port(self) -> int:
        """The bound port (the one asked for until started)."""
        return self._bound_port

    @property
    def name(self) -> str:
        return f"http://{self._host or '0.0.0.0'}:{self.port}"

    async def start(self) -> None:
        await super().start()
        listener = await asyncio.get_running_loop().create_server(
            self.gate,
            self._host,
            self._port,
            backlog=self._backlog,
            reuse_port=self._reuse_port or None,
        )
        self._server = listener
        if listener.sockets:
            self._bound_port = int(listener.sockets[0].getsockname()[1])
