"""The Play RPC: a seat's play session on one bidirectional stream.

The first request opens the session (a WatchGameRequest); the responses are
that watch's updates and heartbeats (``updates.stream``), and each later
request is one move, applied by ``App.play_move`` exactly as ApplyMove applies
it and answered by one PlayMoveResult, riding on the update of the version it
made when it can. A move's rejection is a result (the session goes on); a
malformed request, like any error of the watch, ends the session with its
status.

One task reads the session's moves, one at a time, while the handler writes
the stream: a seat's moves are sequential anyway, and the next one is read
only when the outbox has room (``Outbox.limit``), so a client that sends and
never reads holds a bounded amount. The responses are serialized by
concatenation: a PlayResponse's ``update``/``heartbeat`` have the field
numbers of WatchGameResponse's, so the watch's message is written as it is,
followed by the results (protobuf messages merge when concatenated).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncGenerator, AsyncIterator
from typing import Any

import structlog
from throneroom.games.messages import varint
from throneroom.v1 import service_pb2

from throneroom_server.api.errors import to_play_error
from throneroom_server.app.access import Caller
from throneroom_server.app.errors import AppError, invalid
from throneroom_server.app.service import App
from throneroom_server.app.updates import Outbox, Sent, serialized, stream

__all__ = ["Sent", "serialize", "session"]

log = structlog.get_logger("throneroom.api")

OUTBOX_LIMIT = 64
"""Move results a session may hold unsent before it stops reading moves."""


def serialize(sent: Sent) -> bytes:
    """A PlayResponse's bytes: the watch's message, then the results, each
    framed as an entry of ``results`` (what the PlayResponse holding them
    would serialize to, without building it: that copies each result)."""
    response, results = sent
    data = serialized(response) if response is not None else b""
    for result in results:
        body = result.SerializeToString()
        data += _RESULTS_TAG + varint(len(body)) + body
    return data


_RESULTS_TAG = bytes(
    [service_pb2.PlayResponse.DESCRIPTOR.fields_by_name["results"].number << 3 | 2]
)
"""The key of a ``results`` entry (length-delimited; one byte: field 3)."""


async def session(
    app: App, requests: AsyncIterator[Any], caller: Caller, outbox_limit: int = OUTBOX_LIMIT
) -> AsyncGenerator[Sent, None]:
    """The responses of one play session (raises AppError to end it)."""
    try:
        first = await anext(requests)
    except StopAsyncIteration:
        return
    if not isinstance(first, service_pb2.PlayRequest):
        raise first.error()  # Undecodable
    if first.WhichOneof("kind") != "open":
        raise invalid("MALFORMED_REQUEST", "the first request of a play session must be `open`")
    opened = first.open
    structlog.contextvars.bind_contextvars(game_id=opened.game_id)
    outbox = Outbox(outbox_limit)
    reader = asyncio.get_running_loop().create_task(
        _read_moves(app, requests, opened, outbox, caller)
    )
    items = stream(
        app,
        opened.game_id,
        opened.seat_token,
        opened.from_version,
        float(opened.heartbeat_seconds),
        with_legal_moves=opened.with_legal_moves,
        include_current=opened.include_current,
        describe_language=opened.describe_language,
        caller=caller,
        outbox=outbox,
    )
    try:
        async with contextlib.aclosing(items):
            async for sent in items:
                yield sent
    finally:
        reader.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await reader


async def _read_moves(
    app: App,
    requests: AsyncIterator[Any],
    opened: service_pb2.WatchGameRequest,
    outbox: Outbox,
    caller: Caller,
) -> None:
    """Apply the session's moves in order; each result goes to the outbox."""
    try:
        async for request in requests:
            if not isinstance(request, service_pb2.PlayRequest):
                outbox.fail(request.error())  # Undecodable
                return
            if request.WhichOneof("kind") != "move":
                outbox.fail(
                    invalid(
                        "MALFORMED_REQUEST",
                        "a play session is opened once: every later request must be a move",
                    )
                )
                return
            await outbox.wait_room()
            move = request.move
            result = service_pb2.PlayMoveResult(idempotency_key=move.idempotency_key)
            outbox.applying(move.move)
            try:
                done = await app.play_move(
                    opened.game_id,
                    opened.seat_token,
                    move.expected_version,
                    move.move,
                    move.idempotency_key,
                    caller=caller,
                    known=outbox.known_at(move.expected_version),
                )
            except AppError as error:
                log.info("move_rejected", reason=error.reason, detail=error.message)
                if app.metrics is not None:
                    app.metrics.refused("play", error.reason)
                result.error.CopyFrom(to_play_error(error))
            else:
                result.version = done.version
                result.replayed = done.replayed
                # The session's access line is logged when it ends; each move at debug.
                log.debug("move_applied", version=done.version, replayed=done.replayed)
            outbox.put(result)
    except asyncio.CancelledError:
        raise
    except Exception as exc:  # a bug, or the transport failing under us: end the session
        log.exception("play_session_reader_failed")
        outbox.fail(exc)
