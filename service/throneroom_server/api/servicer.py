"""The Throneroom gRPC servicer: translate requests, delegate to the App, map errors."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from functools import wraps
from typing import Any, TypeVar

import grpc
import structlog
from throneroom.v1 import service_pb2, service_pb2_grpc

from throneroom_server.access import API_KEY_HEADER, Caller, peer_address
from throneroom_server.api.errors import to_status
from throneroom_server.app import App
from throneroom_server.errors import AppError

log = structlog.get_logger("throneroom.api")

Req = TypeVar("Req")
Resp = TypeVar("Resp")
Context = grpc.aio.ServicerContext[Any, Any]


async def _abort(context: Context, error: AppError) -> None:
    status = to_status(error)
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
            return await fn(self, request, context)
        except AppError as error:
            await _abort(context, error)
            raise AssertionError("unreachable: abort raises") from error
        except Exception:
            # A bug, not a client error: log it whole, tell the client little.
            log.exception("rpc_failed")
            await context.abort(grpc.StatusCode.INTERNAL, "internal error")
            raise

    return wrapper


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
        return self.app.access.identify(
            peer_address(context.peer()), _metadata_value(context, API_KEY_HEADER)
        )

    @_unary
    async def ListGameTypes(
        self, request: service_pb2.ListGameTypesRequest, context: Context
    ) -> service_pb2.ListGameTypesResponse:
        return service_pb2.ListGameTypesResponse(game_types=self.app.list_game_types())

    @_unary
    async def CreateGame(
        self, request: service_pb2.CreateGameRequest, context: Context
    ) -> service_pb2.CreateGameResponse:
        seed = request.seed if request.HasField("seed") else None
        game_id, version = await self.app.create_game(
            request.options, request.num_seats, seed, caller=self._caller(context)
        )
        return service_pb2.CreateGameResponse(game_id=game_id, version=version)

    @_unary
    async def JoinGame(
        self, request: service_pb2.JoinGameRequest, context: Context
    ) -> service_pb2.JoinGameResponse:
        seat = request.seat if request.HasField("seat") else None
        seat, token = await self.app.join_game(
            request.game_id, seat, request.display_name, caller=self._caller(context)
        )
        return service_pb2.JoinGameResponse(seat=seat, seat_token=token)

    @_unary
    async def GetGame(
        self, request: service_pb2.GetGameRequest, context: Context
    ) -> service_pb2.GetGameResponse:
        snapshot = await self.app.get_game(
            request.game_id, request.seat_token, caller=self._caller(context)
        )
        return service_pb2.GetGameResponse(snapshot=snapshot)

    @_unary
    async def ListLegalMoves(
        self, request: service_pb2.ListLegalMovesRequest, context: Context
    ) -> service_pb2.ListLegalMovesResponse:
        version, seat, moves = await self.app.legal_moves(
            request.game_id, request.seat_token, caller=self._caller(context)
        )
        return service_pb2.ListLegalMovesResponse(version=version, seat=seat, moves=moves)

    @_unary
    async def ApplyMove(
        self, request: service_pb2.ApplyMoveRequest, context: Context
    ) -> service_pb2.ApplyMoveResponse:
        return await self.app.apply_move(
            request.game_id,
            request.seat_token,
            request.expected_version,
            request.move,
            request.idempotency_key,
            with_legal_moves=request.with_legal_moves,
            caller=self._caller(context),
        )

    async def WatchGame(
        self, request: service_pb2.WatchGameRequest, context: Context
    ) -> AsyncIterator[service_pb2.WatchGameResponse]:
        structlog.contextvars.bind_contextvars(game_id=request.game_id)
        try:
            async for item in self.app.watch(
                request.game_id,
                request.seat_token,
                request.from_version,
                float(request.heartbeat_seconds),
                with_legal_moves=request.with_legal_moves,
                include_current=request.include_current,
                caller=self._caller(context),
            ):
                yield item
        except AppError as error:
            await _abort(context, error)

    @_unary
    async def GetHistory(
        self, request: service_pb2.GetHistoryRequest, context: Context
    ) -> service_pb2.GetHistoryResponse:
        return await self.app.history(
            request.game_id,
            request.seat_token,
            request.from_version,
            request.page_size,
            caller=self._caller(context),
        )

    @_unary
    async def Ping(
        self, request: service_pb2.PingRequest, context: Context
    ) -> service_pb2.PingResponse:
        return service_pb2.PingResponse()
