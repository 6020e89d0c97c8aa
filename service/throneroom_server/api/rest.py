"""The REST/JSON face of the Throneroom service: an aiohttp application over the App.

Like the gRPC servicer, it only translates: bodies and replies are the proto3
JSON mapping (lowerCamelCase names) of the service's own request and response
messages, so the two faces match field for field; every rule and every store
access stays in ``App``. See docs/rest.md for the guide.

    GET  /v1/game-types                     ListGameTypesResponse
    POST /v1/games                          CreateGameRequest  -> CreateGameResponse (201)
    POST /v1/games/{id}/seats               JoinGameRequest    -> JoinGameResponse
    GET  /v1/games/{id}                     GetGameResponse
    GET  /v1/games/{id}/legal-moves         ListLegalMovesResponse
    POST /v1/games/{id}/moves               ApplyMoveRequest   -> ApplyMoveResponse
    GET  /v1/games/{id}/history             GetHistoryResponse (?fromVersion=&pageSize=)
    GET  /v1/games/{id}/watch               Server-Sent Events of WatchGameResponse
    GET  /healthz                           {"status": "SERVING"} or 503

The seat token travels in ``Authorization: Bearer <token>`` (absent means a
spectator), never in a body or a query string.
"""

from __future__ import annotations

import json
import math
import time
import uuid
from collections.abc import Awaitable, Callable, Mapping
from typing import Any, TypeVar

import structlog
from aiohttp import web
from google.protobuf import json_format
from google.protobuf.message import Message
from throneroom.v1 import service_pb2

from throneroom_server import updates
from throneroom_server.access import API_KEY_HEADER, Caller
from throneroom_server.app import App
from throneroom_server.errors import AppError, ErrorKind, invalid
from throneroom_server.limits import MAX_JSON_DEPTH, parse_version
from throneroom_server.metrics import Metrics

log = structlog.get_logger("throneroom.http")

APP_KEY = web.AppKey("throneroom_app", App)
ACCESS_LOG_KEY = web.AppKey("throneroom_access_log", bool)
METRICS_KEY: web.AppKey[Metrics | None] = web.AppKey("throneroom_metrics")
MAX_BODY_KEY = web.AppKey("throneroom_max_body_bytes", int)

DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024  # the gRPC face's default message limit
MAX_REQUEST_ID = 128
JSON_MEDIA_TYPE = "application/json"

HTTP_STATUS: dict[ErrorKind, int] = {
    ErrorKind.INVALID_ARGUMENT: 400,
    ErrorKind.FAILED_PRECONDITION: 409,
    ErrorKind.ABORTED: 409,
    ErrorKind.UNAUTHENTICATED: 401,
    ErrorKind.PERMISSION_DENIED: 403,
    ErrorKind.NOT_FOUND: 404,
    ErrorKind.UNAVAILABLE: 503,
    ErrorKind.RESOURCE_EXHAUSTED: 429,
}

# Errors raised by aiohttp itself before a handler runs: (code, reason) by HTTP status.
_HTTP_ERRORS: dict[int, tuple[str, str]] = {
    404: ("NOT_FOUND", "ROUTE_NOT_FOUND"),
    405: ("UNIMPLEMENTED", "METHOD_NOT_ALLOWED"),
    413: ("RESOURCE_EXHAUSTED", "REQUEST_TOO_LARGE"),
    415: ("INVALID_ARGUMENT", "UNSUPPORTED_MEDIA_TYPE"),
}

# Request fields the REST face takes from the path and the Authorization header.
_GAME_ID = "game_id"
_SEAT_TOKEN = "seat_token"

_QUIET = frozenset({"/healthz"})  # probes: no access-log line

Msg = TypeVar("Msg", bound=Message)
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


# -- JSON in and out --------------------------------------------------------------------


def message_json(message: Message) -> str:
    """The proto3 JSON of ``message`` on one line: lowerCamelCase names, enums by
    name, 64-bit integers as strings, and scalar and repeated fields printed even
    when they hold their default (``"seat": 0``, ``"moves": []``), in the order
    the .proto declares them."""
    data = json_format.MessageToDict(message, always_print_fields_with_no_presence=True)
    return json.dumps(_in_declared_order(message, data), separators=(",", ":"), ensure_ascii=False)


def _in_declared_order(message: Message, data: dict[str, Any]) -> dict[str, Any]:
    """``data`` (the JSON of ``message``) with its keys in the .proto's field order
    (MessageToDict appends the fields holding defaults after the others)."""
    out: dict[str, Any] = {}
    for field in message.DESCRIPTOR.fields:
        name = field.json_name
        if name not in data:
            continue
        value = data[name]
        kind = field.message_type
        if kind is not None and not kind.full_name.startswith("google.protobuf."):
            inner = getattr(message, field.name)
            if isinstance(value, list):
                value = [_in_declared_order(m, v) for m, v in zip(inner, value, strict=True)]
            elif not kind.GetOptions().map_entry:
                value = _in_declared_order(inner, value)
        out[name] = value
    return out


def _json_response(message: Message, status: int = 200) -> web.Response:
    return web.Response(text=message_json(message), status=status, content_type="application/json")


def error_body(code: str, reason: str, message: str, metadata: Mapping[str, str]) -> str:
    return json.dumps(
        {"error": {"code": code, "reason": reason, "message": message, "metadata": metadata}},
        separators=(",", ":"),
        ensure_ascii=False,
    )


def _error_response(error: AppError) -> web.Response:
    response = web.Response(
        text=error_body(error.kind.value, error.reason, error.message, error.metadata),
        status=HTTP_STATUS[error.kind],
        content_type="application/json",
    )
    if error.kind is ErrorKind.UNAUTHENTICATED:
        response.headers["WWW-Authenticate"] = 'Bearer realm="throneroom"'
    if error.retry_after is not None:
        response.headers["Retry-After"] = str(max(1, math.ceil(error.retry_after)))
    return response


def _malformed(message: str) -> AppError:
    return invalid("MALFORMED_REQUEST", message)


def _require_json(request: web.Request) -> None:
    """Every POST declares ``Content-Type: application/json`` (a ``charset``
    parameter, if any, must be utf-8), even with an empty body: a browser
    sends a cross-origin text/plain or form POST without asking first, but
    not a JSON one."""
    declared = request.headers.get("Content-Type")
    charset = (request.charset or "utf-8").lower()
    if declared is None or request.content_type != JSON_MEDIA_TYPE or charset != "utf-8":
        raise web.HTTPUnsupportedMediaType()


def _check_json(data: Any) -> None:
    """Refuse parsed JSON nested more than ``MAX_JSON_DEPTH`` deep, or holding a
    string that is not Unicode text (JSON's escapes can spell an unpaired
    surrogate, ``"\\ud800"``, which protobuf cannot take as a field name)."""
    stack: list[tuple[Any, int]] = [(data, 1)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, dict):
            _check_text(*value)
            children: Any = value.values()
        elif isinstance(value, list):
            children = value
        else:
            if isinstance(value, str):
                _check_text(value)
            continue
        if depth > MAX_JSON_DEPTH:
            raise _too_deep()
        stack.extend((child, depth + 1) for child in children)


def _check_text(*texts: str) -> None:
    for text in texts:
        try:
            text.encode()
        except UnicodeEncodeError as exc:
            raise _malformed("the body holds a string that is not Unicode text") from exc


async def _body(request: web.Request, message: Msg) -> Msg:
    """Parse the JSON body into ``message`` (an empty body is ``{}``).

    Unknown fields are refused, so a misspelt field is an error, not a silent
    default. The seat token belongs in the Authorization header, and a game id
    in the body, if given at all, must be the one in the path. The body is
    bounded in size (413, by aiohttp's ``client_max_size``) and in nesting
    (``MAX_JSON_DEPTH``, 400) before the JSON mapping sees it.
    """
    _require_json(request)
    raw = await request.read()
    if raw.strip():
        try:
            data = json.loads(raw)
        except RecursionError as exc:
            raise _too_deep() from exc
        except ValueError as exc:
            raise _malformed(f"the body is not valid JSON: {exc}") from exc
    else:
        data = {}
    if not isinstance(data, dict):
        raise _malformed("the body must be a JSON object")
    _check_json(data)
    _parse(data, message, "body field")
    _claim_path_fields(request, message, "body")
    return message


def _too_deep() -> AppError:
    return _malformed(f"the body nests arrays and objects more than {MAX_JSON_DEPTH} deep")


def _query(request: web.Request, message: Msg) -> Msg:
    """Map the query string onto the request message's fields (as bodies are)."""
    data: dict[str, str | bool] = {}
    flags = {f.json_name for f in message.DESCRIPTOR.fields if f.type == f.TYPE_BOOL}
    for name, value in request.query.items():
        if name in data:
            raise _malformed(f"the query parameter {name!r} is given twice")
        # Query strings carry text; a flag is written true or false.
        data[name] = {"true": True, "false": False}.get(value, value) if name in flags else value
    _parse(data, message, "query parameter")
    _claim_path_fields(request, message, "query string")
    return message


def _parse(data: dict[str, Any], message: Message, what: str) -> None:
    try:
        json_format.ParseDict(data, message)
    except json_format.ParseError as exc:
        raise _malformed(f"bad {what}: {exc}") from exc


def _claim_path_fields(request: web.Request, message: Message, where: str) -> None:
    fields = message.DESCRIPTOR.fields_by_name
    if _SEAT_TOKEN in fields and getattr(message, _SEAT_TOKEN):
        raise _malformed(
            f"the seat token goes in the 'Authorization: Bearer <token>' header, not the {where}"
        )
    if _GAME_ID in fields:
        path_id = request.match_info["game_id"]
        given = getattr(message, _GAME_ID)
        if given and given != path_id:
            raise _malformed(f"the {where} names game {given!r} but the path names {path_id!r}")
        setattr(message, _GAME_ID, path_id)


def _token(request: web.Request) -> str:
    """The bearer token, or "" for a spectator (no Authorization header)."""
    header = request.headers.get("Authorization")
    if header is None:
        return ""
    scheme, _, token = header.strip().partition(" ")
    token = token.strip()
    if scheme.lower() != "bearer" or not token:
        raise AppError(
            ErrorKind.UNAUTHENTICATED,
            "SEAT_TOKEN_REQUIRED",
            "the Authorization header must read 'Bearer <seat token>'",
        )
    return token


def _header_text(request: web.Request, name: str) -> str:
    """A header's value ("" when absent); refused when its bytes are not UTF-8
    (aiohttp hands such bytes over as surrogate escapes, which no store can
    encode)."""
    text = request.headers.get(name, "")
    try:
        text.encode()
    except UnicodeEncodeError as exc:
        raise _malformed(f"the {name} header is not UTF-8 text") from exc
    return text


def _version_header(request: web.Request, name: str) -> int | None:
    text = request.headers.get(name, "").strip()
    if not text:
        return None
    return parse_version(text, f"the {name} header")


# -- handlers ----------------------------------------------------------------------------


def _app(request: web.Request) -> App:
    return request.app[APP_KEY]


def _caller(request: web.Request) -> Caller:
    """The peer's address and the API key it sent (header ``X-Api-Key``)."""
    return _app(request).access.identify(
        request.remote or "unknown", request.headers.get(API_KEY_HEADER, "").strip()
    )


async def list_game_types(request: web.Request) -> web.StreamResponse:
    _query(request, service_pb2.ListGameTypesRequest())
    return _json_response(
        service_pb2.ListGameTypesResponse(game_types=_app(request).list_game_types())
    )


async def create_game(request: web.Request) -> web.StreamResponse:
    body = await _body(request, service_pb2.CreateGameRequest())
    seed = body.seed if body.HasField("seed") else None
    game_id, version = await _app(request).create_game(
        body.options,
        body.num_seats,
        seed,
        time_control=body.time_control if body.HasField("time_control") else None,
        caller=_caller(request),
    )
    structlog.contextvars.bind_contextvars(game_id=game_id)
    response = _json_response(
        service_pb2.CreateGameResponse(game_id=game_id, version=version), status=201
    )
    response.headers["Location"] = f"/v1/games/{game_id}"
    return response


async def join_game(request: web.Request) -> web.StreamResponse:
    body = await _body(request, service_pb2.JoinGameRequest())
    seat = body.seat if body.HasField("seat") else None
    seat, token = await _app(request).join_game(
        body.game_id, seat, body.display_name, caller=_caller(request)
    )
    return _json_response(service_pb2.JoinGameResponse(seat=seat, seat_token=token))


async def get_game(request: web.Request) -> web.StreamResponse:
    query = _query(request, service_pb2.GetGameRequest())
    snapshot = await _app(request).get_game(query.game_id, _token(request), caller=_caller(request))
    return _json_response(service_pb2.GetGameResponse(snapshot=snapshot))


async def list_legal_moves(request: web.Request) -> web.StreamResponse:
    query = _query(request, service_pb2.ListLegalMovesRequest())
    version, seat, moves = await _app(request).legal_moves(
        query.game_id, _token(request), caller=_caller(request)
    )
    return _json_response(
        service_pb2.ListLegalMovesResponse(version=version, seat=seat, moves=moves)
    )


async def apply_move(request: web.Request) -> web.StreamResponse:
    """The idempotency key may come in the body or in the Idempotency-Key header;
    when both are given they must be equal (400 otherwise), so a client never
    has a key silently ignored."""
    body = await _body(request, service_pb2.ApplyMoveRequest())
    header_key = _header_text(request, "Idempotency-Key")
    if header_key and body.idempotency_key and header_key != body.idempotency_key:
        raise _malformed(
            "the Idempotency-Key header and the body's idempotencyKey differ; send one key"
        )
    result = await _app(request).apply_move(
        body.game_id,
        _token(request),
        body.expected_version,
        body.move,
        body.idempotency_key or header_key,
        with_legal_moves=body.with_legal_moves,
        caller=_caller(request),
    )
    return _json_response(result)


async def get_history(request: web.Request) -> web.StreamResponse:
    query = _query(request, service_pb2.GetHistoryRequest())
    history = await _app(request).history(
        query.game_id, _token(request), query.from_version, query.page_size, caller=_caller(request)
    )
    return _json_response(history)


async def export_game(request: web.Request) -> web.StreamResponse:
    query = _query(request, service_pb2.ExportGameRequest())
    record = await _app(request).export_game(query.game_id, caller=_caller(request))
    return _json_response(service_pb2.ExportGameResponse(record=record))


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
    query = _query(request, service_pb2.WatchGameRequest())
    token = _token(request)
    resume = _version_header(request, "Last-Event-ID")
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
    items = updates.watch(
        app,
        query.game_id,
        token,
        from_version,
        float(query.heartbeat_seconds),
        with_legal_moves=query.with_legal_moves,
        include_current=query.include_current,
        caller=caller,
    )
    try:
        async for item in items:
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


async def healthz(request: web.Request) -> web.StreamResponse:
    serving = not _app(request).closing
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
    code = "OK"
    try:
        response = await handler(request)
    except AppError as error:
        code = error.kind.value
        structlog.contextvars.bind_contextvars(reason=error.reason)
        response = _error_response(error)
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
    metrics: Metrics | None = None,
) -> web.Application:
    """The aiohttp application of the REST face over ``app`` (``metrics``: count
    every request into them)."""
    web_app = web.Application(middlewares=[request_context], client_max_size=max_body_bytes)
    web_app[APP_KEY] = app
    web_app[ACCESS_LOG_KEY] = access_log
    web_app[METRICS_KEY] = metrics
    web_app[MAX_BODY_KEY] = max_body_bytes
    web_app.on_response_prepare.append(_stamp_request_id)
    routes = web_app.router
    routes.add_get("/v1/game-types", list_game_types)
    routes.add_post("/v1/games", create_game)
    routes.add_post("/v1/games/{game_id}/seats", join_game)
    routes.add_get("/v1/games/{game_id}", get_game)
    routes.add_get("/v1/games/{game_id}/legal-moves", list_legal_moves)
    routes.add_post("/v1/games/{game_id}/moves", apply_move)
    routes.add_get("/v1/games/{game_id}/history", get_history)
    routes.add_get("/v1/games/{game_id}/record", export_game)
    routes.add_get("/v1/games/{game_id}/watch", watch_game, allow_head=False)
    routes.add_get("/healthz", healthz)
    return web_app


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
    metrics: Metrics | None = None,
) -> tuple[web.AppRunner, int]:
    """Serve the REST face on ``listen`` (port 0 picks a free port; ``reuse_port``:
    share it with the other worker processes of this host, SO_REUSEPORT).

    Returns the runner and the bound port. To stop: ``app.begin_shutdown()``
    (health turns 503, watch streams end), then ``await runner.cleanup()``,
    which lets in-flight requests finish within ``shutdown_timeout`` seconds.
    """
    host, port = split_listen(listen)
    runner = web.AppRunner(
        create_rest_app(app, access_log=access_log, max_body_bytes=max_body_bytes, metrics=metrics),
        access_log=None,  # our middleware writes the access log line
        shutdown_timeout=shutdown_timeout,
    )
    await runner.setup()
    site = web.TCPSite(runner, host, port, reuse_port=reuse_port or None)
    try:
        await site.start()
    except OSError:
        await runner.cleanup()
        raise
    bound = int(runner.addresses[0][1])
    return runner, bound
