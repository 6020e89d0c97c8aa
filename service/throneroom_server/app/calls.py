"""The service's calls as messages, translated once for every face.

A face (the gRPC servicer, the REST/JSON handlers) decodes a request message,
sets what it carries outside the message (REST's bearer token, its
``Idempotency-Key`` header, SSE's ``Last-Event-ID``) into it, and calls the
function of the same name here, which answers with the response message. The
translation between the messages and the use cases' arguments lives only
here: optional fields (CreateGame's seed and time control, JoinGame's seat),
the tuples that ``App.create_game``, ``join_game`` and ``legal_moves``
return, the language checked before any work.
"""

from __future__ import annotations

from collections.abc import AsyncGenerator, Awaitable

from throneroom.v1 import service_pb2

from throneroom_server.app import updates
from throneroom_server.app.access import Caller
from throneroom_server.app.describe import check_language, legal_moves_response
from throneroom_server.app.service import App


def list_game_types(app: App) -> service_pb2.ListGameTypesResponse:
    return service_pb2.ListGameTypesResponse(game_types=app.list_game_types())


async def create_game(
    app: App, request: service_pb2.CreateGameRequest, *, caller: Caller
) -> service_pb2.CreateGameResponse:
    game_id, version = await app.create_game(
        request.options,
        request.num_seats,
        request.seed if request.HasField("seed") else None,
        time_control=request.time_control if request.HasField("time_control") else None,
        caller=caller,
    )
    return service_pb2.CreateGameResponse(game_id=game_id, version=version)


async def join_game(
    app: App, request: service_pb2.JoinGameRequest, *, caller: Caller
) -> service_pb2.JoinGameResponse:
    seat, token = await app.join_game(
        request.game_id,
        request.seat if request.HasField("seat") else None,
        request.display_name,
        caller=caller,
    )
    return service_pb2.JoinGameResponse(seat=seat, seat_token=token)


async def get_game(
    app: App, request: service_pb2.GetGameRequest, *, caller: Caller
) -> service_pb2.GetGameResponse:
    snapshot = await app.get_game(request.game_id, request.seat_token, caller=caller)
    return service_pb2.GetGameResponse(snapshot=snapshot)


async def list_legal_moves(
    app: App, request: service_pb2.ListLegalMovesRequest, *, caller: Caller
) -> service_pb2.ListLegalMovesResponse:
    lang = check_language(request.describe_language)
    version, seat, moves = await app.legal_moves(request.game_id, request.seat_token, caller=caller)
    return legal_moves_response(version, seat, moves, lang)


def apply_move(
    app: App, request: service_pb2.ApplyMoveRequest, *, caller: Caller
) -> Awaitable[service_pb2.ApplyMoveResponse]:
    """(Not a coroutine of its own: the use case's, handed on, on the hot path.)"""
    return app.apply_move(
        request.game_id,
        request.seat_token,
        request.expected_version,
        request.move,
        request.idempotency_key,
        with_legal_moves=request.with_legal_moves,
        caller=caller,
    )


def watch_game(
    app: App, request: service_pb2.WatchGameRequest, *, caller: Caller
) -> AsyncGenerator[updates.Response, None]:
    """The watch (``updates.watch``): messages or their bytes."""
    return updates.watch(
        app,
        request.game_id,
        request.seat_token,
        request.from_version,
        float(request.heartbeat_seconds),
        with_legal_moves=request.with_legal_moves,
        include_current=request.include_current,
        describe_language=request.describe_language,
        caller=caller,
    )


async def get_history(
    app: App, request: service_pb2.GetHistoryRequest, *, caller: Caller
) -> service_pb2.GetHistoryResponse:
    return await app.history(
        request.game_id,
        request.seat_token,
        request.from_version,
        request.page_size,
        describe_language=request.describe_language,
        caller=caller,
    )


def list_games(
    app: App, request: service_pb2.ListGamesRequest, *, caller: Caller
) -> Awaitable[service_pb2.ListGamesResponse]:
    return app.lobby.list_games(request, caller=caller)


async def export_game(
    app: App, request: service_pb2.ExportGameRequest, *, caller: Caller
) -> service_pb2.ExportGameResponse:
    record = await app.export_game(request.game_id, caller=caller)
    return service_pb2.ExportGameResponse(record=record)


def replay_record(
    app: App, request: service_pb2.ReplayRecordRequest, *, caller: Caller
) -> Awaitable[service_pb2.ReplayRecordResponse]:
    return app.replay_record(request, caller=caller)
