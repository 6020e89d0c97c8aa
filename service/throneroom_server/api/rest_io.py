"""The REST face's JSON in and out: proto3 JSON bodies, query strings, headers
and error bodies, shared by the handlers of ``rest.py``."""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from typing import Any, TypeVar

from aiohttp import web
from google.protobuf import json_format
from google.protobuf.message import Message

from throneroom_server.app.errors import AppError, ErrorKind, invalid
from throneroom_server.app.limits import MAX_JSON_DEPTH, parse_version

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

# Request fields the REST face takes from the path and the Authorization header.
_GAME_ID = "game_id"
_SEAT_TOKEN = "seat_token"

Msg = TypeVar("Msg", bound=Message)


def message_json(message: Message) -> str:
    """The proto3 JSON of ``message`` on one line: lowerCamelCase names, enums by
    name, 64-bit integers as strings, and scalar and repeated fields printed even
    when they hold their default (``"seat": 0``, ``"moves": []``), in the order
    the .proto declares them."""
    data = json_format.MessageToDict(message, always_print_fields_with_no_presence=True)
    return json.dumps(in_declared_order(message, data), separators=(",", ":"), ensure_ascii=False)


def in_declared_order(message: Message, data: dict[str, Any]) -> dict[str, Any]:
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
                value = [in_declared_order(m, v) for m, v in zip(inner, value, strict=True)]
            elif not kind.GetOptions().map_entry:
                value = in_declared_order(inner, value)
        out[name] = value
    return out


def json_response(message: Message, status: int = 200) -> web.Response:
    return web.Response(text=message_json(message), status=status, content_type="application/json")


def error_body(code: str, reason: str, message: str, metadata: Mapping[str, str]) -> str:
    return json.dumps(
        {"error": {"code": code, "reason": reason, "message": message, "metadata": metadata}},
        separators=(",", ":"),
        ensure_ascii=False,
    )


def error_response(error: AppError) -> web.Response:
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


def malformed(message: str) -> AppError:
    return invalid("MALFORMED_REQUEST", message)


def require_json(request: web.Request) -> None:
    """Every POST declares ``Content-Type: application/json`` (a ``charset``
    parameter, if any, must be utf-8), even with an empty body: a browser
    sends a cross-origin text/plain or form POST without asking first, but
    not a JSON one."""
    declared = request.headers.get("Content-Type")
    charset = (request.charset or "utf-8").lower()
    if declared is None or request.content_type != JSON_MEDIA_TYPE or charset != "utf-8":
        raise web.HTTPUnsupportedMediaType()


def check_json(data: Any, what: str = "body") -> None:
    """Refuse parsed JSON nested more than ``MAX_JSON_DEPTH`` deep, or holding a
    string that is not Unicode text (JSON's escapes can spell an unpaired
    surrogate, ``"\\ud800"``, which protobuf cannot take as a field name)."""
    stack: list[tuple[Any, int]] = [(data, 1)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, dict):
            check_text(*value, what=what)
            children: Any = value.values()
        elif isinstance(value, list):
            children = value
        else:
            if isinstance(value, str):
                check_text(value, what=what)
            continue
        if depth > MAX_JSON_DEPTH:
            raise too_deep(what)
        stack.extend((child, depth + 1) for child in children)


def check_text(*texts: str, what: str = "body") -> None:
    for text in texts:
        try:
            text.encode()
        except UnicodeEncodeError as exc:
            raise malformed(f"the {what} holds a string that is not Unicode text") from exc


async def read_body(request: web.Request, message: Msg) -> Msg:
    """Parse the JSON body into ``message`` (an empty body is ``{}``).

    Unknown fields are refused, so a misspelt field is an error, not a silent
    default. The seat token belongs in the Authorization header, and a game id
    in the body, if given at all, must be the one in the path. The body is
    bounded in size (413, by aiohttp's ``client_max_size``) and in nesting
    (``MAX_JSON_DEPTH``, 400) before the JSON mapping sees it.
    """
    require_json(request)
    parse_json(await request.read(), message, "body")
    claim_path_fields(request, message, "body")
    return message


def parse_json(raw: str | bytes, message: Msg, what: str) -> Msg:
    """Parse ``raw``, a JSON object (empty: ``{}``), into ``message``, as the
    REST face reads a body: nesting bounded (``MAX_JSON_DEPTH``), text that is
    Unicode, unknown fields refused; MALFORMED_REQUEST naming ``what`` (the
    body, a frame) otherwise."""
    if raw.strip():
        try:
            data = json.loads(raw)
        except RecursionError as exc:
            raise too_deep(what) from exc
        except ValueError as exc:
            raise malformed(f"the {what} is not valid JSON: {exc}") from exc
    else:
        data = {}
    if not isinstance(data, dict):
        raise malformed(f"the {what} must be a JSON object")
    check_json(data, what)
    parse_into(data, message, f"{what} field")
    return message


def too_deep(what: str = "body") -> AppError:
    return malformed(f"the {what} nests arrays and objects more than {MAX_JSON_DEPTH} deep")


def read_query(
    request: web.Request,
    message: Msg,
    *,
    short_enums: Mapping[str, Mapping[str, str]] | None = None,
) -> Msg:
    """Map the query string onto the request message's fields (as bodies are).
    ``short_enums``: per parameter, short words for enum value names."""
    data: dict[str, str | bool] = {}
    flags = {f.json_name for f in message.DESCRIPTOR.fields if f.type == f.TYPE_BOOL}
    flags |= {f.name for f in message.DESCRIPTOR.fields if f.type == f.TYPE_BOOL}
    for name, value in request.query.items():
        if name in data:
            raise malformed(f"the query parameter {name!r} is given twice")
        # Query strings carry text; a flag is written true or false.
        data[name] = {"true": True, "false": False}.get(value, value) if name in flags else value
        if short_enums and name in short_enums:
            data[name] = short_enums[name].get(value, value)
    parse_into(data, message, "query parameter")
    claim_path_fields(request, message, "query string")
    return message


def parse_into(data: dict[str, Any], message: Message, what: str) -> None:
    try:
        json_format.ParseDict(data, message)
    except json_format.ParseError as exc:
        raise malformed(f"bad {what}: {exc}") from exc


def claim_path_fields(request: web.Request, message: Message, where: str) -> None:
    fields = message.DESCRIPTOR.fields_by_name
    if _SEAT_TOKEN in fields and getattr(message, _SEAT_TOKEN):
        raise malformed(
            f"the seat token goes in the 'Authorization: Bearer <token>' header, not the {where}"
        )
    if _GAME_ID in fields:
        path_id = request.match_info["game_id"]
        given = getattr(message, _GAME_ID)
        if given and given != path_id:
            raise malformed(f"the {where} names game {given!r} but the path names {path_id!r}")
        setattr(message, _GAME_ID, path_id)


def seat_token(request: web.Request) -> str:
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


def header_text(request: web.Request, name: str) -> str:
    """A header's value ("" when absent); refused when its bytes are not UTF-8
    (aiohttp hands such bytes over as surrogate escapes, which no store can
    encode)."""
    text = request.headers.get(name, "")
    try:
        text.encode()
    except UnicodeEncodeError as exc:
        raise malformed(f"the {name} header is not UTF-8 text") from exc
    return text


def version_header(request: web.Request, name: str) -> int | None:
    text = request.headers.get(name, "").strip()
    if not text:
        return None
    return parse_version(text, f"the {name} header")
