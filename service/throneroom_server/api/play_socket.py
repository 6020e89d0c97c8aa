"""Play sessions over a WebSocket: ``GET /v1/play`` on the REST face's port.

The same session as the gRPC ``Play`` stream (api/play.py), for clients that
speak WebSockets rather than gRPC (browsers, and anything with a WebSocket
library), and cheaper per message for the server than a gRPC stream (see
docs/performance.md). The protocol, in full (docs/api.md, "Play sessions
over a WebSocket"):

* every frame the client sends is **binary**: one serialized ``PlayRequest``
  (the first ``open``, every later one a ``move``), as on the gRPC stream;
* every binary frame the server sends is one serialized ``PlayResponse``
  (updates, heartbeats, move results), as on the gRPC stream;
* **or, JSON**: a session whose ``open`` comes as a **text** frame speaks
  the REST face's JSON (the proto3 JSON mapping: lowerCamelCase names, 64-bit
  integers as strings, unknown fields refused) both ways: every request a
  text frame holding one ``PlayRequest``, every response a text frame holding
  one ``PlayResponse`` (for browsers and other clients without protobuf);
* an error that ends the session (what the gRPC stream ends with as its
  status) is one **text** frame holding the REST face's error body
  (``{"error": {"code", "reason", "message", "metadata"}}``: a top-level key a
  ``PlayResponse`` never has), then a close frame with code ``4000 + the gRPC
  status code`` (e.g. 4005 NOT_FOUND, 4016 UNAUTHENTICATED) and the reason; a
  session that simply ends (the game delivered to its end, the client's
  close) closes with 1000, a server shutting down with 1001;
* a frame over ``max_message_bytes`` closes the session with 1009 (message
  too big) and the reason ``MESSAGE_TOO_BIG: ...``; the server then reads and
  discards what the client still sends of that frame (up to
  ``LINGER_SECONDS``) before it closes the connection, so that the close
  frame reaches the client (a connection closed with unread data is reset,
  and the reset would discard it); a frame of the other kind than the session's (text in a binary
  session, binary in a JSON one) ends it with the MALFORMED_REQUEST error.

Nothing else differs: the seat token travels in the ``open`` request, the
stream limits, the outbox, exactly-once moves and resumption are the
session's own. The server pings every ``PING_SECONDS`` and drops a peer whose
pong does not come back in time (aiohttp's ``heartbeat``).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncGenerator
from dataclasses import dataclass
from typing import Any

import structlog
from aiohttp import WSCloseCode, WSMsgType, web
from throneroom.v1 import service_pb2

from throneroom_server.api import play
from throneroom_server.api.errors import grpc_code
from throneroom_server.api.rest_io import error_body, message_json, parse_json
from throneroom_server.api.servicer import decoder
from throneroom_server.app.access import Caller
from throneroom_server.app.errors import AppError, invalid
from throneroom_server.app.service import App

log = structlog.get_logger("throneroom.http")

PATH = "/v1/play"
PING_SECONDS = 30.0
"""How often the server pings an open session (a peer that does not answer is
dropped: aiohttp closes it when the pong is late by half this)."""

OPEN_SECONDS = 10.0
"""How long a new WebSocket may wait before sending its ``open`` request (a
connection is held only by a session: one that never opens is closed)."""

LINGER_SECONDS = 5.0
"""How long a session closed for a frame too large keeps reading (and
discarding) the rest of that frame, for its close frame to be read."""

PROTOCOL = "throneroom.v1"
"""The subprotocol the server answers with when the client offers subprotocols
(browsers fail a connection whose offered subprotocols get no answer)."""

KEY_PROTOCOL_PREFIX = "throneroom.key."
"""A browser cannot send ``X-Api-Key`` on a WebSocket: it may offer the key as
the subprotocol ``throneroom.key.<key>`` beside ``throneroom.v1``
(``new WebSocket(url, ["throneroom.v1", "throneroom.key." + key])``); the
server never echoes it."""

CLOSED_WITH_ERROR = 4000
"""A close code at or above this ends a session with an error: 4000 + its gRPC code."""

_decode = decoder(service_pb2.PlayRequest)


def key_protocol(offered: str) -> str:
    """The API key offered as a subprotocol in ``Sec-WebSocket-Protocol``, or ""."""
    for offer in offered[:4096].split(","):
        protocol = offer.strip()
        if protocol.startswith(KEY_PROTOCOL_PREFIX):
            return protocol[len(KEY_PROTOCOL_PREFIX) :]
    return ""


def close_code(error: AppError) -> int:
    """The close code of a session ended by ``error``: 4000 + its gRPC status code."""
    status: tuple[int, str] = grpc_code(error.kind).value
    return CLOSED_WITH_ERROR + status[0]


@dataclass(frozen=True)
class _Refused:
    """What a text frame, or no frame in time, reads as: a request refused."""

    reason: str
    message: str

    def error(self) -> AppError:
        return invalid(self.reason, self.message)


_TEXT_FRAME = _Refused(
    "MALFORMED_REQUEST",
    "this play session's frames are binary (one serialized PlayRequest each), "
    "as its open request was",
)
_BINARY_FRAME = _Refused(
    "MALFORMED_REQUEST",
    "this play session's frames are text (one PlayRequest in JSON each), as its open request was",
)


def _decode_json(text: str) -> service_pb2.PlayRequest | _Refused:
    """A text frame's PlayRequest, read as the REST face reads a body."""
    try:
        return parse_json(text, service_pb2.PlayRequest(), "frame")
    except AppError as error:
        return _Refused(error.reason, error.message)


def json_response(sent: play.Sent) -> str:
    """A JSON session's frame: the PlayResponse ``play.serialize`` would send, in JSON."""
    return message_json(service_pb2.PlayResponse.FromString(play.serialize(sent)))


_NOT_OPENED = _Refused(
    "OPEN_TIMEOUT", f"a play session must send its open request within {OPEN_SECONDS:g} s"
)


class _Discarding(asyncio.Protocol):
    """What reads a connection after its session was closed for a frame too
    large: everything is discarded until the client closes its side (or the
    linger ends); then the connection is closed with nothing unread."""

    def __init__(self, transport: asyncio.Transport, done: asyncio.Future[None]) -> None:
        self._transport = transport
        self._done = done
        self._timer = asyncio.get_running_loop().call_later(LINGER_SECONDS, self._end)

    def data_received(self, data: bytes) -> None:
        pass  # the rest of the frame too large, then the client's close frame

    def eof_received(self) -> bool:
        self._end()
        return True

    def connection_lost(self, exc: Exception | None) -> None:
        self._end()

    def _end(self) -> None:
        self._timer.cancel()
        if not self._transport.is_closing():
            self._transport.close()
        if not self._done.done():
            self._done.set_result(None)


class PlaySocket(web.WebSocketResponse):
    """aiohttp's WebSocket response, but a frame over the size limit ends
    with a close frame that carries its reason and reaches the client: aiohttp
    would close the connection at once with the rest of the frame unread,
    and the kernel's reset would discard the close frame (the client then
    sees 1006)."""

    def __init__(self, *, max_msg_size: int, **kwargs: Any) -> None:
        super().__init__(max_msg_size=max_msg_size, **kwargs)
        self._limit = max_msg_size
        self._too_big = False
        self.lingered: asyncio.Future[None] | None = None
        """Set when the connection reads out a frame too large: done once closed."""

    async def close(
        self, *, code: int = WSCloseCode.OK, message: bytes = b"", drain: bool = True
    ) -> bool:
        if code == WSCloseCode.MESSAGE_TOO_BIG:
            self._too_big = True
            message = message or (
                f"MESSAGE_TOO_BIG: a frame is larger than {self._limit} bytes".encode()
            )
        return await super().close(code=code, message=message, drain=drain)

    def _close_transport(self) -> None:
        transport = self._req.transport if self._req is not None else None
        if not self._too_big or not isinstance(transport, asyncio.Transport):
            super()._close_transport()
            return
        if self.lingered is None and not transport.is_closing():
            self.lingered = asyncio.get_running_loop().create_future()
            transport.set_protocol(_Discarding(transport, self.lingered))


class _Session:
    """One WebSocket's session: the task that writes it, and the client's frames
    as the session's requests."""

    def __init__(self, ws: web.WebSocketResponse) -> None:
        self.ws = ws
        self.writer: asyncio.Task[None] | None = None
        self.gone = False
        self.json = False
        """The session speaks JSON (its open request came as a text frame)."""

    async def requests(self) -> AsyncGenerator[Any, None]:
        """Each binary frame decoded (an ``Undecodable`` for bytes that are no
        PlayRequest, as on the gRPC face); the client's close (or a frame too
        large, which aiohttp answers with 1009) ends the session at once: the
        writer is stopped, nobody is left to read what it would send."""
        opened = False
        while True:
            try:
                message = await self.ws.receive(timeout=None if opened else OPEN_SECONDS)
            except TimeoutError:
                yield _NOT_OPENED
                return
            if message.type is WSMsgType.TEXT and not opened:
                self.json = True
            opened = True
            if message.type is WSMsgType.BINARY:
                yield _BINARY_FRAME if self.json else _decode(message.data)
            elif message.type is WSMsgType.TEXT:
                yield _decode_json(message.data) if self.json else _TEXT_FRAME
            else:  # CLOSE, CLOSING, CLOSED, ERROR
                self.gone = True
                if self.writer is not None and self.writer is not asyncio.current_task():
                    self.writer.cancel()
                return

    async def write(self, app: App, caller: Caller) -> None:
        items = play.session(app, self.requests(), caller)
        async with contextlib.aclosing(items):
            async for sent in items:
                if self.json:
                    await self.ws.send_str(json_response(sent))
                else:
                    await self.ws.send_bytes(play.serialize(sent))


async def play_socket(
    request: web.Request, app: App, caller: Caller, max_message_bytes: int
) -> web.StreamResponse:
    """One play session on the WebSocket ``request`` upgrades to."""
    ws = PlaySocket(
        max_msg_size=max_message_bytes,
        heartbeat=PING_SECONDS,
        autoping=True,
        compress=False,
        protocols=(PROTOCOL,),
    )
    if not ws.can_prepare(request).ok:
        raise invalid("MALFORMED_REQUEST", f"{PATH} is a WebSocket: send an upgrade request")
    await ws.prepare(request)
    session = _Session(ws)
    session.writer = asyncio.get_running_loop().create_task(session.write(app, caller))
    try:
        await session.writer
    except asyncio.CancelledError:
        if not session.gone:
            raise
    except AppError as error:
        structlog.contextvars.bind_contextvars(reason=error.reason)
        body = error_body(error.kind.value, error.reason, error.message, error.metadata)
        await _close(ws, body, close_code(error), error.reason)
    except ConnectionResetError:
        log.debug("player_gone")
    except Exception:
        log.exception("http_failed")
        body = error_body("INTERNAL", "INTERNAL", "internal error", {})
        await _close(ws, body, WSCloseCode.INTERNAL_ERROR, "INTERNAL")
    if not ws.closed:
        await ws.close(code=WSCloseCode.GOING_AWAY if app.closing else WSCloseCode.OK)
    if ws.lingered is not None:
        await ws.lingered  # the rest of a frame too large read out: nothing reset
    return ws


async def _close(ws: web.WebSocketResponse, body: str, code: int, reason: str) -> None:
    """The error's body as a text frame, then the close frame carrying its code."""
    with contextlib.suppress(ConnectionResetError):
        if not ws.closed:
            await ws.send_str(body)
            await ws.close(code=code, message=reason.encode()[:123])
