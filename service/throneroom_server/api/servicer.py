"""The Throneroom gRPC servicer: translate requests, delegate to the App, map errors.

Requests are decoded by ``decoder`` (installed by ``add_servicer_to_server``):
unknown fields are discarded as each request is decoded, and bytes that are
not a valid message become an ``Undecodable`` marker that every RPC answers
with INVALID_ARGUMENT (reason MALFORMED_REQUEST). grpcio's own handling of a
failing deserializer would answer UNKNOWN or INTERNAL instead.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncGenerator, AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from functools import wraps
from typing import Any, NoReturn, TypeVar

import grpc
import structlog
from google.protobuf.message import DecodeError, Message
from throneroom.v1 import service_pb2, service_pb2_grpc

from throneroom_server.api import play
from throneroom_server.api.errors import REFUSED, to_status
from throneroom_server.app import calls, updates
from throneroom_server.app.access import API_KEY_HEADER, Caller, peer_address
from throneroom_server.app.errors import AppError, invalid, shutting_down
from throneroom_server.app.limits import discard_unknown
from throneroom_server.app.service import App

log = structlog.get_logger("throneroom.api")

Req = TypeVar("Req")
Resp = TypeVar("Resp")
Item = TypeVar("Item")
Context = grpc.aio.ServicerContext[Any, Any]

SERVICE = service_pb2.DESCRIPTOR.services_by_name["Throneroom"]


@dataclass(frozen=True)
class Undecodable:
    """What a request decodes to when its bytes are not a valid message."""

    message_type: str
    detail: str

    def error(self) -> AppError:
        """The client's error; the decoder's own words go to the log only."""
        log.info("request_undecodable", message_type=self.message_type, detail=self.detail)
        return invalid(
            "MALFORMED_REQUEST", f"the request is not a valid {self.message_type} message"
        )


def decoder(message_class: type[Message]) -> Callable[[bytes], Message | Undecodable]:
    """A request deserializer: the message without its unknown fields, or an
    ``Undecodable`` marker (never an exception, which grpcio would turn into
    UNKNOWN)."""

    def decode(data: bytes) -> Message | Undecodable:
        try:
            message = message_class.FromString(data)
        except DecodeError as exc:
            return Undecodable(message_class.DESCRIPTOR.full_name, str(exc))
        discard_unknown(message)
        return message

    return decode


def add_servicer_to_server(servicer: ThroneroomServicer, server: grpc.aio.Server) -> None:
    """Register ``servicer`` as ``service_pb2_grpc.add_ThroneroomServicer_to_server``
    does, but with ``decoder`` as every method's request deserializer."""
    handlers: dict[str, grpc.RpcMethodHandler[Any, Any]] = {}
    for method in SERVICE.methods:
        behaviour = getattr(servicer, method.name)
        request_class: Any = getattr(service_pb2, method.input_type.name)
        response_class: Any = getattr(service_pb2, method.output_type.name)
        if method.client_streaming:  # Play: its responses are serialized by play.py
            handlers[method.name] = grpc.stream_stream_rpc_method_handler(
                behaviour,
                request_deserializer=decoder(request_class),
                response_serializer=play.serialize,
            )
            continue
        make = (
            grpc.unary_stream_rpc_method_handler
            if method.server_streaming
            else grpc.unary_unary_rpc_method_handler
        )
        handlers[method.name] = make(
            behaviour,
            request_deserializer=decoder(request_class),
            # WatchGame's updates may come serialized already (updates.watch).
            response_serializer=(
                updates.serialized
                if method.name == "WatchGame"
                else response_class.SerializeToString
            ),
        )
    server.add_generic_rpc_handlers(
        (grpc.method_handlers_generic_handler(SERVICE.full_name, handlers),)
    )
    server.add_registered_method_handlers(SERVICE.full_name, handlers)  # type: ignore[attr-defined]


async def abort_with(context: Context, error: AppError) -> None:
    status = to_status(error)
    REFUSED.set(error.reason)
    log.info("rpc_rejected", reason=error.reason, detail=error.message)
    await context.abort(status.code, status.details, status.trailing_metadata)


def _unary(
    fn: Callable[[Any, Req, Context], Awaitable[Resp]],
) -> Callable[[Any, Req, Context], Awaitable[Resp]]:
    @wraps(fn)
    async def wrapper(self: Any, request: Req, context: Context) -> Resp:
        game_id = getattr(request, "game_id", "")
        if game_id:
            structlog.contextvars.bind_contextvars(game_id=game_id)
        try:
            if isinstance(request, Undecodable):
                raise request.error()
            return await fn(self, request, context)
        except Exception as error:
            await _fail(context, error)

    return wrapper


async def _fail(context: Context, error: Exception) -> NoReturn:
    """End the call with ``error`` (awaited in the block handling it): an
    AppError told as its status; anything else is a bug, logged whole and
    told as little as INTERNAL."""
    if isinstance(error, AppError):
        await abort_with(context, error)
    else:
        log.exception("rpc_failed")
        await context.abort(grpc.StatusCode.INTERNAL, "internal error")
    raise AssertionError("unreachable: abort raises") from error


async def _written(items: AsyncGenerator[Item, None], context: Context, app: App) -> None:
    """A streaming call's ``items``, each written to the stream as it comes
    (the call's own task writes: no generator between it and grpc), their
    errors told as ``_unary`` tells them (``_fail``); ``items`` closed at once when the
    call ends (giving back its stream slot). A failed write is grpc's to
    report (the client went away), not the service's. A stream that ends
    because the server shuts down ends with UNAVAILABLE ``SHUTTING_DOWN`` (and
    a RetryInfo), never with OK, which means "the game is over"."""
    async with contextlib.aclosing(items):
        while True:
            try:
                item = await anext(items)
            except StopAsyncIteration:
                if app.closing:
                    await abort_with(context, shutting_down())
                return
            except Exception as error:
                await _fail(context, error)
            await context.write(item)


def _metadata_value(context: Context, name: str) -> str:
    for key, value in context.invocation_metadata() or ():
        if key == name:
            return value if isinstance(value, str) else ""
    return ""


class ThroneroomServicer(service_pb2_grpc.ThroneroomServicer):
    def __init__(self, app: App) -> None:
        self.app = app

    def _caller(self, context: Context) -> Caller:
        """The peer's address and the API key it sent (metadata ``x-api-key``)."""
        access = self.app.access
        client = access.client_address(
            peer_address(context.peer()), _metadata_value(context, "x-forwarded-for")
        )
        return access.identify(client, _metadata_value(context, API_KEY_HEADER))

    @_unary
    async def ListGameTypes(
        self, request: service_pb2.ListGameTypesRequest, context: Context
    ) -> service_pb2.ListGameTypesResponse:
        return calls.list_game_types(self.app)

    @_unary
    async def CreateGame(
        self, request: service_pb2.CreateGameRequest, context: Context
    ) -> service_pb2.CreateGameResponse:
        return await calls.create_game(self.app, request, caller=self._caller(context))

    @_unary
    async def JoinGame(
        self, request: service_pb2.JoinGameRequest, context: Context
    ) -> service_pb2.JoinGameResponse:
        return await calls.join_game(self.app, request, caller=self._caller(context))

    @_unary
    async def GetGame(
        self, request: service_pb2.GetGameRequest, context: Context
    ) -> service_pb2.GetGameResponse:
        return await calls.get_game(self.app, request, caller=self._caller(context))

    @_unary
    async def ListLegalMoves(
        self, request: service_pb2.ListLegalMovesRequest, context: Context
    ) -> service_pb2.ListLegalMovesResponse:
        return await calls.list_legal_moves(self.app, request, caller=self._caller(context))

    @_unary
    async def ApplyMove(
        self, request: service_pb2.ApplyMoveRequest, context: Context
    ) -> service_pb2.ApplyMoveResponse:
        return await calls.apply_move(self.app, request, caller=self._caller(context))

    async def WatchGame(  # type: ignore[override]
        self, request: service_pb2.WatchGameRequest, context: Context
    ) -> None:
        """A watch (updates.py); its items are serialized by ``updates.serialized``."""
        if isinstance(request, Undecodable):
            await abort_with(context, request.error())
        structlog.contextvars.bind_contextvars(game_id=request.game_id)
        watching = calls.watch_game(self.app, request, caller=self._caller(context))
        await _written(watching, context, self.app)

    async def Play(  # type: ignore[override]
        self, request_iterator: AsyncIterator[Any], context: Context
    ) -> None:
        """A play session (api/play.py); its items are serialized by ``play.serialize``."""
        await _written(
            play.session(self.app, request_iterator, self._caller(context)), context, self.app
        )

    @_unary
    async def GetHistory(
        self, request: service_pb2.GetHistoryRequest, context: Context
    ) -> service_pb2.GetHistoryResponse:
        return await calls.get_history(self.app, request, caller=self._caller(context))

    @_unary
    async def ListGames(
        self, request: service_pb2.ListGamesRequest, context: Context
    ) -> service_pb2.ListGamesResponse:
        return await calls.list_games(self.app, request, caller=self._caller(context))

    @_unary
    async def ExportGame(
        self, request: service_pb2.ExportGameRequest, context: Context
    ) -> service_pb2.ExportGameResponse:
        return await calls.export_game(self.app, request, caller=self._caller(context))

    @_unary
    async def ReplayRecord(
        self, request: service_pb2.ReplayRecordRequest, context: Context
    ) -> service_pb2.ReplayRecordResponse:
        return await calls.replay_record(self.app, request, caller=self._caller(context))

    @_unary
    async def Ping(
        self, request: service_pb2.PingRequest, context: Context
    ) -> service_pb2.PingResponse:
        return service_pb2.PingResponse()
