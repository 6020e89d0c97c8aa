"""The REST/JSON face of the Throneroom service: an aiohttp application over the App.

Like the gRPC servicer, it only translates: bodies and replies are the proto3
JSON mapping (lowerCamelCase names) of the service's own request and response
messages, so the two faces match field for field; every rule and every store
access stays in ``App``. See docs/rest.md for the guide.

    GET  /v1/game-types                     ListGameTypesResponse
    GET  /v1/games                          ListGamesResponse (?gameType=&status=&pageSize=...)
    POST /v1/games                          CreateGameRequest  -> CreateGameResponse (201)
    POST /v1/games/{id}/seats               JoinGameRequest    -> JoinGameResponse
    GET  /v1/games/{id}                     GetGameResponse
    GET  /v1/games/{id}/legal-moves         ListLegalMovesResponse
    POST /v1/games/{id}/moves               ApplyMoveRequest   -> ApplyMoveResponse
    GET  /v1/games/{id}/history             GetHistoryResponse (?fromVersion=&pageSize=)
    GET  /v1/games/{id}/watch               Server-Sent Events of WatchGameResponse
    GET  /v1/play                           a play session on a WebSocket (api/play_socket.py)
    GET  /healthz                           {"status": "SERVING"} or 503

The seat token travels in ``Authorization: Bearer <token>`` (absent means a
spectator), never in a body or a query string.
"""

from __future__ import annotations

import importlib.metadata
import json
import logging
import sys
import time
import uuid
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

import structlog
from aiohttp import web
from aiohttp.http_exceptions import HttpProcessingError
from aiohttp.typedefs import Middleware
from throneroom.v1 import game_pb2, service_pb2

from throneroom_server.api.connections import LimitedSite
from throneroom_server.api.cors import CorsPolicy, cors_headers, cors_middleware
from throneroom_server.api.openapi import Route, build_spec
from throneroom_server.api.play_socket import PATH as PLAY_PATH
from throneroom_server.api.play_socket import key_protocol, play_socket
from throneroom_server.api.rest_io import (
    JSON_MEDIA_TYPE,
    error_body,
    error_response,
    header_text,
    json_response,
    malformed,
    message_json,
    read_body,
    read_query,
    seat_token,
    version_header,
)
from throneroom_server.api.web import add_web_routes
from throneroom_server.app import calls, updates
from throneroom_server.app.access import API_KEY_HEADER, Caller
from throneroom_server.app.describe import check_language
from throneroom_server.app.errors import AppError
from throneroom_server.app.limits import DEFAULT_IDLE_CONNECTION_SECONDS, DEFAULT_MAX_CONNECTIONS
from throneroom_server.app.metrics import Metrics
from throneroom_server.app.service import App

log = structlog.get_logger("throneroom.http")

APP_KEY = web.AppKey("throneroom_app", App)
ACCESS_LOG_KEY = web.AppKey("throneroom_access_log", bool)
METRICS_KEY: web.AppKey[Metrics | None] = web.AppKey("throneroom_metrics")
MAX_BODY_KEY = web.AppKey("throneroom_max_body_bytes", int)

DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024  # the gRPC face's default message limit
MAX_REQUEST_ID = 128


# Errors raised by aiohttp itself before a handler runs: (code, reason) by HTTP status.
_HTTP_ERRORS: dict[int, tuple[str, str]] = {
    403: ("PERMISSION_DENIED", "CORS_ORIGIN_NOT_ALLOWED"),
    404: ("NOT_FOUND", "ROUTE_NOT_FOUND"),
    405: ("UNIMPLEMENTED", "METHOD_NOT_ALLOWED"),
    413: ("RESOURCE_EXHAUSTED", "REQUEST_TOO_LARGE"),
    415: ("INVALID_ARGUMENT", "UNSUPPORTED_MEDIA_TYPE"),
}


_QUIET = frozenset({"/healthz"})  # probes: no access-log line
OPENAPI_KEY = web.AppKey("throneroom_openapi", str)
_HEALTH_SCHEMA = {
    "type": "object",
    "required": ["status"],
    "additionalProperties": False,
    "properties": {"status": {"type": "string", "enum": ["SERVING", "NOT_SERVING"]}},
}

_STATUS_FILTER = service_pb2.GameStatusFilter
_STATUS_WORDS: dict[str, dict[str, str]] = {
    "status": {
        word: _STATUS_FILTER.Name(_STATUS_FILTER.Value(f"GAME_STATUS_FILTER_{word.upper()}"))
        for word in ("any", "open", "started", "finished")
    }
}

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


# -- handlers ----------------------------------------------------------------------------


def _app(request: web.Request) -> App:
    return request.app[APP_KEY]


def _caller(request: web.Request) -> Caller:
    """The client's address (the peer's, or behind a trusted proxy the one it
    forwards) and the API key it sent (header ``X-Api-Key``; on a WebSocket,
    which browsers cannot give headers, also the subprotocol
    ``throneroom.key.<key>``: ``play_socket.key_protocol``)."""
    access = _app(request).access
    client = access.client_address(
        request.remote or "unknown", request.headers.get("X-Forwarded-For", "")
    )
    key = request.headers.get(API_KEY_HEADER, "").strip() or key_protocol(
        request.headers.get("Sec-WebSocket-Protocol", "")
    )
    return access.identify(client, key)


async def list_game_types(request: web.Request) -> web.StreamResponse:
    read_query(request, service_pb2.ListGameTypesRequest())
    return json_response(calls.list_game_types(_app(request)))


async def list_games(request: web.Request) -> web.StreamResponse:
    """The lobby; ``status`` may also be written short: any, open, started, finished."""
    query = read_query(request, service_pb2.ListGamesRequest(), short_enums=_STATUS_WORDS)
    return json_response(await calls.list_games(_app(request), query, caller=_caller(request)))


async def create_game(request: web.Request) -> web.StreamResponse:
    body = await read_body(request, service_pb2.CreateGameRequest())
    created = await calls.create_game(_app(request), body, caller=_caller(request))
    structlog.contextvars.bind_contextvars(game_id=created.game_id)
    response = json_response(created, status=201)
    response.headers["Location"] = f"/v1/games/{created.game_id}"
    return response


async def join_game(request: web.Request) -> web.StreamResponse:
    body = await read_body(request, service_pb2.JoinGameRequest())
    return json_response(await calls.join_game(_app(request), body, caller=_caller(request)))


async def get_game(request: web.Request) -> web.StreamResponse:
    query = read_query(request, service_pb2.GetGameRequest())
    query.seat_token = seat_token(request)
    return json_response(await calls.get_game(_app(request), query, caller=_caller(request)))


async def list_legal_moves(request: web.Request) -> web.StreamResponse:
    query = read_query(request, service_pb2.ListLegalMovesRequest())
    query.seat_token = seat_token(request)
    moves = await calls.list_legal_moves(_app(request), query, caller=_caller(request))
    return json_response(moves)


async def apply_move(request: web.Request) -> web.StreamResponse:
    """The idempotency key may come in the body or in the Idempotency-Key header;
    when both are given they must be equal (400 otherwise), so a client never
    has a key silently ignored."""
    body = await read_body(request, service_pb2.ApplyMoveRequest())
    header_key = header_text(request, "Idempotency-Key")
    if header_key and body.idempotency_key and header_key != body.idempotency_key:
        raise malformed(
            "the Idempotency-Key header and the body's idempotencyKey differ; send one key"
        )
    body.seat_token = seat_token(request)
    body.idempotency_key = body.idempotency_key or header_key
    return json_response(await calls.apply_move(_app(request), body, caller=_caller(request)))


async def get_history(request: web.Request) -> web.StreamResponse:
    query = read_query(request, service_pb2.GetHistoryRequest())
    query.seat_token = seat_token(request)
    return json_response(await calls.get_history(_app(request), query, caller=_caller(request)))


async def export_game(request: web.Request) -> web.StreamResponse:
    query = read_query(request, service_pb2.ExportGameRequest())
    return json_response(await calls.export_game(_app(request), query, caller=_caller(request)))


async def replay_record(request: web.Request) -> web.StreamResponse:
    body = await read_body(request, service_pb2.ReplayRecordRequest())
    return json_response(await calls.replay_record(_app(request), body, caller=_caller(request)))


async def watch_game(request: web.Request) -> web.StreamResponse:
    """Server-Sent Events: ``event: update`` / ``event: heartbeat`` with ``id:``
    the version and ``data:`` the WatchGameResponse JSON.

    A Last-Event-ID header (sent by EventSource when it reconnects) wins over
    ``fromVersion``. Errors found before the stream opens get their HTTP status;
    a later one is sent as ``event: failure`` (data: the error body) and ends the
    stream. A finished game with nothing after the resume point answers 204,
    which tells EventSource to stop reconnecting.
    """
    app = _app(request)
    query = read_query(request, service_pb2.WatchGameRequest())
    check_language(query.describe_language)  # before the stream opens: a 400, not a failure event
    token = seat_token(request)
    resume = version_header(request, "Last-Event-ID")
    from_version = query.from_version if resume is None else resume
    # Fail with a proper status (404, 403 ...) before the 200 stream starts.
    caller = _caller(request)
    snapshot = await app.get_game(query.game_id, token, caller=caller)
    if snapshot.finished and from_version >= snapshot.version and not query.include_current:
        return web.Response(status=204)
    response = web.StreamResponse(
        status=200,
        headers={
            "Content-Type": "text/event-stream; charset=utf-8",
            "Cache-Control": "no-cache",
            "X-Accel-Buffering": "no",  # tell nginx-style proxies not to buffer
        },
    )
    await response.prepare(request)
    query.seat_token, query.from_version = token, from_version
    items = calls.watch_game(app, query, caller=caller)
    try:
        async for sent in items:
            item = updates.parsed(sent)
            kind = item.WhichOneof("kind")
            version = item.update.version if kind == "update" else item.heartbeat.version
            await response.write(sse_frame(str(kind), message_json(item), version))
    except ConnectionResetError:
        log.debug("watcher_gone")
    except AppError as error:
        structlog.contextvars.bind_contextvars(reason=error.reason)
        body = error_body(error.kind.value, error.reason, error.message, error.metadata)
        await _write_quietly(response, sse_frame("failure", body))
    except Exception:
        log.exception("http_failed")
        body = error_body("INTERNAL", "INTERNAL", "internal error", {})
        await _write_quietly(response, sse_frame("failure", body))
    finally:
        aclose = getattr(items, "aclose", None)
        if aclose is not None:
            await aclose()
    return response


def sse_frame(event: str, data: str, event_id: int | None = None) -> bytes:
    """One Server-Sent Event; ``data`` must be one line (compact JSON is)."""
    lines = [f"event: {event}"]
    if event_id is not None:
        lines.append(f"id: {event_id}")
    lines.append(f"data: {data}")
    return ("\n".join(lines) + "\n\n").encode()


async def _write_quietly(response: web.StreamResponse, frame: bytes) -> None:
    try:
        await response.write(frame)
    except ConnectionResetError:
        log.debug("watcher_gone")


async def play_over_websocket(request: web.Request) -> web.StreamResponse:
    """A play session on a WebSocket (api/play_socket.py)."""
    app = _app(request)
    return await play_socket(request, app, _caller(request), request.app[MAX_BODY_KEY])


async def healthz(request: web.Request) -> web.StreamResponse:
    serving = not _app(request).draining
    return web.json_response(
        {"status": "SERVING" if serving else "NOT_SERVING"}, status=200 if serving else 503
    )


# -- request context, errors and the access log --------------------------------------------


def _request_id(request: web.Request) -> str:
    given = request.headers.get("X-Request-Id", "")
    if 0 < len(given) <= MAX_REQUEST_ID and given.isascii() and given.isprintable():
        return given
    return uuid.uuid4().hex


def _transport_error(request: web.Request, exc: web.HTTPException) -> tuple[str, web.Response]:
    """An error aiohttp raised itself (no route, wrong method, body too large),
    in the same JSON shape as the service's errors."""
    code, reason = _HTTP_ERRORS.get(exc.status, ("INVALID_ARGUMENT", "HTTP_ERROR"))
    allowed = exc.headers.get("Allow", "")
    if exc.status == 404:
        message = f"there is no resource at {request.path}; see docs/rest.md"
    elif exc.status == 405:
        message = f"{request.method} is not allowed on {request.path}; use {allowed}"
    elif exc.status == 413:
        message = f"the body is larger than {request.app[MAX_BODY_KEY]} bytes"
    elif exc.status == 403:
        message = "this origin may not call the service from a browser (THRONEROOM_CORS_ORIGINS)"
    elif exc.status == 415:
        message = "a request body must be JSON: send 'Content-Type: application/json'"
    else:
        message = exc.reason
    structlog.contextvars.bind_contextvars(reason=reason)
    response = web.Response(
        text=error_body(code, reason, message, {}),
        status=exc.status,
        content_type="application/json",
    )
    if allowed:
        response.headers["Allow"] = allowed
    return code, response


@web.middleware
async def request_context(request: web.Request, handler: Handler) -> web.StreamResponse:
    """Binds request_id, method, path and game_id to the log context (the App
    binds the seat), turns errors into JSON error bodies, and writes one access
    log line per request with its HTTP status, error code and duration. Never
    logs bodies, query strings or tokens."""
    start = time.perf_counter()
    structlog.contextvars.clear_contextvars()
    structlog.contextvars.bind_contextvars(
        request_id=_request_id(request), method=request.method, path=request.path
    )
    game_id = request.match_info.get("game_id")
    if game_id:
        structlog.contextvars.bind_contextvars(game_id=game_id)
    code, reason = "OK", ""
    try:
        response = await handler(request)
    except AppError as error:
        code, reason = error.kind.value, error.reason
        structlog.contextvars.bind_contextvars(reason=error.reason)
        response = error_response(error)
    except web.HTTPException as exc:
        code, response = _transport_error(request, exc)
    except Exception:
        # A bug, not a client error: log it whole, tell the client little.
        log.exception("http_failed")
        code = "INTERNAL"
        response = web.Response(
            text=error_body("INTERNAL", "INTERNAL", "internal error", {}),
            status=500,
            content_type="application/json",
        )
    if request.path not in _QUIET:
        seconds = time.perf_counter() - start
        if request.app[ACCESS_LOG_KEY]:
            log.info("http", status=response.status, code=code, ms=round(seconds * 1000, 3))
        metrics = request.app[METRICS_KEY]
        if metrics is not None:
            metrics.observe_request("rest", _route_label(request), str(response.status), seconds)
            if reason:
                metrics.refused("rest", reason)
    return response


def _route_label(request: web.Request) -> str:
    """``GET /v1/games/{game_id}``: the route's template, never the path itself
    (bounded labels); ``other`` for a path no route has."""
    resource = request.match_info.route.resource
    if resource is None:
        return "other"
    return f"{request.method} {resource.canonical}"


async def _stamp_request_id(request: web.Request, response: web.StreamResponse) -> None:
    """Echo the request id on every reply, streams included (before headers go out)."""
    request_id = structlog.contextvars.get_contextvars().get("request_id")
    if isinstance(request_id, str):
        response.headers["X-Request-Id"] = request_id


# -- building and running -----------------------------------------------------------------


def create_rest_app(
    app: App,
    *,
    access_log: bool = True,
    max_body_bytes: int = DEFAULT_MAX_BODY_BYTES,
    cors: CorsPolicy | None = None,
    metrics: Metrics | None = None,
) -> web.Application:
    """The aiohttp application of the REST face over ``app`` (``cors``: the
    origins browsers may call it from, api/cors.py, None: CORS off;
    ``metrics``: count every request into them)."""
    middlewares: list[Middleware] = [request_context]
    if cors is not None:
        middlewares.append(cors_middleware(cors))
    web_app = web.Application(middlewares=middlewares, client_max_size=max_body_bytes)
    web_app[APP_KEY] = app
    web_app[ACCESS_LOG_KEY] = access_log
    web_app[METRICS_KEY] = metrics
    web_app[MAX_BODY_KEY] = max_body_bytes
    web_app.on_response_prepare.append(_stamp_request_id)
    if cors is not None:
        web_app.on_response_prepare.append(cors_headers(cors))
    for route in ROUTES:
        if route.method == "GET":
            head = not (route.stream or route.websocket)
            web_app.router.add_get(route.path, route.handler, allow_head=head)
        else:
            web_app.router.add_route(route.method, route.path, route.handler)
    web_app[OPENAPI_KEY] = json.dumps(
        build_spec(ROUTES, title="Throneroom REST/JSON API", version=_version()),
        separators=(",", ":"),
    )
    add_web_routes(web_app)  # the web client at / (api/web.py)
    return web_app


async def openapi_json(request: web.Request) -> web.StreamResponse:
    """The OpenAPI 3 document of this face (api/openapi.py)."""
    return web.Response(text=request.app[OPENAPI_KEY], content_type=JSON_MEDIA_TYPE)


def _version() -> str:
    try:
        return importlib.metadata.version("throneroom-server")
    except importlib.metadata.PackageNotFoundError:
        return "0"


_LANG = "describeLanguage: also describe moves and events (en, es, pt)"
_FIRST_GAME = game_pb2.GameOptions.DESCRIPTOR.oneofs_by_name["game"].fields[0].json_name
"""The example game of CreateGame's description: game.proto's first."""

ROUTES: tuple[Route, ...] = (
    Route("GET", "/v1/game-types", list_game_types, "ListGameTypes",
          "The game types this server plays", service_pb2.ListGameTypesRequest,
          service_pb2.ListGameTypesResponse),
    Route("GET", "/v1/games", list_games, "ListGames",
          "The lobby: games newest first, by type and status, a page at a time",
          service_pb2.ListGamesRequest, service_pb2.ListGamesResponse,
          errors=(403,), query_words={"status": tuple(_STATUS_WORDS["status"])}),
    Route("POST", "/v1/games", create_game, "CreateGame", "Create a game with empty seats",
          service_pb2.CreateGameRequest, service_pb2.CreateGameResponse, status=201, errors=(403,),
          example={"options": {_FIRST_GAME: {}}, "numSeats": 2}),
    Route("POST", "/v1/games/{game_id}/seats", join_game, "JoinGame",
          "Take a seat; the answer holds the seat's token (shown once)",
          service_pb2.JoinGameRequest, service_pb2.JoinGameResponse, errors=(403, 409)),
    Route("GET", "/v1/games/{game_id}", get_game, "GetGame",
          "The game as a seat (with its token) or a spectator sees it",
          service_pb2.GetGameRequest, service_pb2.GetGameResponse, seat_token="optional"),
    Route("GET", "/v1/games/{game_id}/legal-moves", list_legal_moves, "ListLegalMoves",
          "The token's seat's legal moves at the current version; " + _LANG,
          service_pb2.ListLegalMovesRequest, service_pb2.ListLegalMovesResponse,
          seat_token="required"),
    Route("POST", "/v1/games/{game_id}/moves", apply_move, "ApplyMove",
          "Apply one move for the token's seat", service_pb2.ApplyMoveRequest,
          service_pb2.ApplyMoveResponse, seat_token="required", errors=(409,),
          headers={"Idempotency-Key": "the move's key (or idempotencyKey in the body)"}),
    Route("GET", "/v1/games/{game_id}/history", get_history, "GetHistory",
          "The events a seat or spectator may see, oldest first, a page at a time; " + _LANG,
          service_pb2.GetHistoryRequest, service_pb2.GetHistoryResponse, seat_token="optional"),
    Route("GET", "/v1/games/{game_id}/record", export_game, "ExportGame",
          "A finished game's full record (every move and event, the seed)",
          service_pb2.ExportGameRequest, service_pb2.ExportGameResponse, errors=(409,)),
    Route("POST", "/v1/records/replay", replay_record, "ReplayRecord",
          "A game record replayed through this release's engines, nothing stored: each "
          "version's update as a seat or a spectator sees it, a page at a time; " + _LANG,
          service_pb2.ReplayRecordRequest, service_pb2.ReplayRecordResponse),
    Route("GET", "/v1/games/{game_id}/watch", watch_game, "WatchGame",
          "Server-Sent Events of every version after fromVersion, then new ones; " + _LANG,
          service_pb2.WatchGameRequest, service_pb2.WatchGameResponse, seat_token="optional",
          stream=True, errors=(409,),
          headers={"Last-Event-ID": "resume after this version (wins over fromVersion)"},
          extra_status={204: "The game is finished and nothing follows the resume point"}),
    Route("GET", PLAY_PATH, play_over_websocket, "Play",
          "A seat's play session on a WebSocket: its moves in, its updates out (docs/api.md)",
          websocket="binary frames, each one PlayRequest (client) or PlayResponse (server) "
          "serialized; or, when the open request comes as a text frame, text frames holding "
          "their JSON (this document's mapping) both ways; an error that ends the session is "
          "a text frame holding an Error body, then a close frame with code 4000 + the gRPC "
          "status code"),
    Route("GET", "/healthz", healthz, "Health", "SERVING, or 503 while shutting down",
          response_schema=_HEALTH_SCHEMA),
    Route("GET", "/openapi.json", openapi_json, "OpenApi", "This document",
          response_schema={"type": "object"}),
)  # fmt: skip


class ProtocolLog(logging.Logger):
    """aiohttp's own log of what goes wrong on a connection. A request it
    cannot parse (a malformed request line or header: a NUL byte, say) is the
    client's fault, answered 400 by aiohttp before any handler: one info line
    without a traceback, so no client can fill the log with them. Anything
    else stays an error with its traceback."""

    def __init__(self) -> None:
        super().__init__("throneroom.http.protocol")
        self.parent = logging.getLogger("aiohttp.server")

    def exception(
        self,
        msg: object,
        *args: object,
        exc_info: Any = True,
        stack_info: bool = False,
        stacklevel: int = 1,
        extra: Mapping[str, object] | None = None,
    ) -> None:
        error = exc_info if isinstance(exc_info, BaseException) else sys.exc_info()[1]
        if isinstance(error, HttpProcessingError):
            log.info("http_malformed", status=error.code, detail=str(error.message)[:200])
            return
        log.error("http_protocol_failed", detail=str(msg) % args, exc_info=error or True)


def split_listen(listen: str) -> tuple[str | None, int]:
    """``host:port`` (``[::1]:8080`` for IPv6, ``:8080`` for every interface)."""
    host, sep, port = listen.rpartition(":")
    if not sep or not port.isdigit():
        raise ValueError(f"listen address must be host:port, not {listen!r}")
    host = host.removeprefix("[").removesuffix("]")
    return host or None, int(port)


async def start_rest(
    app: App,
    listen: str,
    *,
    access_log: bool = True,
    max_body_bytes: int = DEFAULT_MAX_BODY_BYTES,
    shutdown_timeout: float = 10.0,
    reuse_port: bool = False,
    cors: CorsPolicy | None = None,
    metrics: Metrics | None = None,
    max_connections: int = DEFAULT_MAX_CONNECTIONS,
    idle_seconds: float = DEFAULT_IDLE_CONNECTION_SECONDS,
) -> tuple[web.AppRunner, int]:
    """Serve the REST face on ``listen`` (port 0 picks a free port; ``reuse_port``:
    share it with the other worker processes of this host, SO_REUSEPORT), at
    most ``max_connections`` connections at once, each closed after
    ``idle_seconds`` without a request in progress (api/connections.py).

    Returns the runner and the bound port. To stop: ``app.begin_shutdown()``
    (health turns 503, watch streams end), then ``await runner.cleanup()``,
    which lets in-flight requests finish within ``shutdown_timeout`` seconds.
    """
    host, port = split_listen(listen)
    runner = web.AppRunner(
        create_rest_app(
            app,
            access_log=access_log,
            max_body_bytes=max_body_bytes,
            cors=cors,
            metrics=metrics,
        ),
        access_log=None,  # our middleware writes the access log line
        shutdown_timeout=shutdown_timeout,
        logger=ProtocolLog(),
        keepalive_timeout=idle_seconds,
    )
    await runner.setup()
    site = LimitedSite(runner, host, port, max_connections=max_connections, reuse_port=reuse_port)
    try:
        await site.start()
    except OSError:
        await runner.cleanup()
        raise
    if metrics is not None:
        gate = site.gate
        metrics.count_rest_connections(lambda: gate.open)
    bound = int(runner.addresses[0][1])
    return runner, bound
