"""OpenAPI 3 for the REST face, derived at run time from the proto descriptors.

Nothing here is written by hand per message: the REST face's route table
(``rest.ROUTES``, each route naming its RPC's request and response message)
and the message descriptors give every path, parameter and schema, so the
document cannot drift from the face. Schemas follow the proto3 JSON mapping
as the face emits it: lowerCamelCase names, enums as their value names,
64-bit integers as decimal strings, bytes as base64, a ``oneof`` as at most
one of its fields. Served at ``GET /openapi.json``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from google.protobuf.descriptor import FieldDescriptor
from google.protobuf.message import Message

from throneroom_server.app.limits import MAX_GAME_ID_CHARS

OPENAPI_VERSION = "3.0.3"
PATH_FIELDS = frozenset({"game_id"})
"""Request fields the REST face takes from the path."""
HEADER_FIELDS = frozenset({"seat_token"})
"""Request fields the REST face takes from a header (Authorization)."""

ERROR_TEXT: Mapping[int, str] = {
    400: "Bad request (INVALID_ARGUMENT): malformed request, invalid move or options",
    401: "No or malformed Authorization header where a seat token is needed (UNAUTHENTICATED)",
    403: "Seat token or API key not valid (PERMISSION_DENIED)",
    404: "No such game, or no such resource (NOT_FOUND)",
    409: "Rejected by the game's state (FAILED_PRECONDITION) or a stale version (ABORTED)",
    413: "The body is larger than the server accepts",
    415: "A body that is not declared 'Content-Type: application/json'",
    429: "Rate or stream limit reached (RESOURCE_EXHAUSTED); see Retry-After",
    503: "The store is unavailable or the server is shutting down (UNAVAILABLE)",
}

Schema = dict[str, Any]
# protobuf's stubs type descriptors as a union of the Python and upb classes,
# which share no base; these walk them by duck typing.
Descriptor = Any
EnumDescriptor = Any
FieldDescriptorT = Any


@dataclass(frozen=True)
class Route:
    """One REST route: what registers it and what documents it."""

    method: str
    path: str
    handler: Callable[..., Any]
    rpc: str
    summary: str
    request: type[Message] | None = None
    response: type[Message] | None = None
    status: int = 200
    seat_token: str = "none"
    """"none", "optional" (absent: a spectator) or "required"."""
    errors: tuple[int, ...] = ()
    headers: Mapping[str, str] = field(default_factory=dict)
    """Request headers besides Authorization: name -> description."""
    query_words: Mapping[str, Sequence[str]] = field(default_factory=dict)
    """Per query parameter, short words accepted besides the enum names."""
    stream: bool = False
    response_schema: Schema | None = None
    """For a route whose answer is not a proto message."""
    extra_status: Mapping[int, str] = field(default_factory=dict)
    """Other answers without a body (e.g. 204)."""
    websocket: str = ""
    """A WebSocket's route: what its frames are (the answer is 101, then frames)."""
    example: Mapping[str, Any] | None = None
    """A valid request body."""


def _schema_name(descriptor: Descriptor | EnumDescriptor) -> str:
    return str(descriptor.full_name).removeprefix("throneroom.v1.")


def _ref(descriptor: Descriptor | EnumDescriptor) -> Schema:
    return {"$ref": f"#/components/schemas/{_schema_name(descriptor)}"}


_INT32 = {FieldDescriptor.TYPE_INT32, FieldDescriptor.TYPE_SINT32, FieldDescriptor.TYPE_SFIXED32}
_UINT32 = {FieldDescriptor.TYPE_UINT32, FieldDescriptor.TYPE_FIXED32}
_INT64 = {FieldDescriptor.TYPE_INT64, FieldDescriptor.TYPE_SINT64, FieldDescriptor.TYPE_SFIXED64}
_UINT64 = {FieldDescriptor.TYPE_UINT64, FieldDescriptor.TYPE_FIXED64}
_FLOATS = {FieldDescriptor.TYPE_DOUBLE, FieldDescriptor.TYPE_FLOAT}


def scalar_schema(fd: FieldDescriptorT) -> Schema:
    """The JSON schema of one value of a non-message field."""
    kind = fd.type
    if kind in _INT32:
        return {"type": "integer", "format": "int32"}
    if kind in _UINT32:
        return {"type": "integer", "format": "int32", "minimum": 0, "maximum": 2**32 - 1}
    if kind in _INT64:
        return {"type": "string", "format": "int64", "pattern": r"^-?[0-9]{1,19}$"}
    if kind in _UINT64:
        return {"type": "string", "format": "uint64", "pattern": r"^[0-9]{1,20}$"}
    if kind in _FLOATS:
        return {"type": "number"}
    if kind == FieldDescriptor.TYPE_BOOL:
        return {"type": "boolean"}
    if kind == FieldDescriptor.TYPE_STRING:
        return {"type": "string"}
    if kind == FieldDescriptor.TYPE_BYTES:
        return {"type": "string", "format": "byte"}
    if kind == FieldDescriptor.TYPE_ENUM:
        return _ref(fd.enum_type)
    raise ValueError(f"no JSON schema for field {fd.full_name} of type {kind}")


def _value_schema(fd: FieldDescriptorT) -> Schema:
    if fd.type == FieldDescriptor.TYPE_MESSAGE:
        if fd.message_type.full_name.startswith("google.protobuf."):
            raise ValueError(f"{fd.full_name}: well-known types have no schema here yet")
        return _ref(fd.message_type)
    return scalar_schema(fd)


def _field_schema(fd: FieldDescriptorT) -> Schema:
    if fd.message_type is not None and fd.message_type.GetOptions().map_entry:
        key, value = fd.message_type.fields_by_name["key"], fd.message_type.fields_by_name["value"]
        del key  # JSON object keys are strings whatever the key type
        return {"type": "object", "additionalProperties": _value_schema(value)}
    if fd.is_repeated:
        return {"type": "array", "items": _value_schema(fd)}
    return _value_schema(fd)


def _message_schema(descriptor: Descriptor) -> Schema:
    properties: dict[str, Schema] = {}
    for fd in descriptor.fields:
        properties[fd.json_name] = _field_schema(fd)
    schema: Schema = {
        "type": "object",
        "properties": properties,
        "additionalProperties": False,
        "description": f"protobuf {descriptor.full_name} (proto3 JSON mapping)",
    }
    # (A proto3 optional field's hidden oneof has one field: nothing to exclude.)
    exclusive = [[f.json_name for f in o.fields] for o in descriptor.oneofs if len(o.fields) > 1]
    if exclusive:
        # At most one member of each oneof: no two of them together.
        pairs = [
            {"required": [a, b]}
            for names in exclusive
            for i, a in enumerate(names)
            for b in names[i + 1 :]
        ]
        schema["not"] = {"anyOf": pairs}
        schema["description"] += "; at most one of each: " + "; ".join(
            ", ".join(names) for names in exclusive
        )
    return schema


def _enum_schema(descriptor: EnumDescriptor) -> Schema:
    return {
        "type": "string",
        "enum": [v.name for v in descriptor.values],
        "description": f"protobuf enum {descriptor.full_name}, by value name",
    }


def collect_schemas(roots: Iterable[Descriptor]) -> dict[str, Schema]:
    """The schemas of ``roots`` and of every message and enum they reach."""
    out: dict[str, Schema] = {}
    pending = list(roots)
    while pending:
        descriptor = pending.pop()
        name = _schema_name(descriptor)
        if name in out:
            continue
        out[name] = _message_schema(descriptor)
        for fd in descriptor.fields:
            if fd.enum_type is not None and _schema_name(fd.enum_type) not in out:
                out[_schema_name(fd.enum_type)] = _enum_schema(fd.enum_type)
            if fd.message_type is not None:
                target = fd.message_type
                if target.GetOptions().map_entry:
                    value = target.fields_by_name["value"]
                    if value.message_type is not None:
                        pending.append(value.message_type)
                    elif value.enum_type is not None:
                        out.setdefault(_schema_name(value.enum_type), _enum_schema(value.enum_type))
                elif not target.full_name.startswith("google.protobuf."):
                    pending.append(target)
    return dict(sorted(out.items()))


ERROR_SCHEMA: Schema = {
    "type": "object",
    "required": ["error"],
    "additionalProperties": False,
    "properties": {
        "error": {
            "type": "object",
            "required": ["code", "reason", "message", "metadata"],
            "additionalProperties": False,
            "properties": {
                "code": {"type": "string", "description": "the gRPC status code's name"},
                "reason": {"type": "string", "description": "stable machine-readable reason"},
                "message": {"type": "string", "description": "one English sentence"},
                "metadata": {"type": "object", "additionalProperties": {"type": "string"}},
            },
        }
    },
}

_REQUEST_ID_HEADER = {
    "X-Request-Id": {
        "description": "the request's id (the client's X-Request-Id, or a new one)",
        "schema": {"type": "string"},
    }
}


def _query_parameters(route: Route) -> list[Schema]:
    assert route.request is not None
    out = []
    for fd in route.request.DESCRIPTOR.fields:
        if fd.name in PATH_FIELDS or fd.name in HEADER_FIELDS:
            continue
        if fd.type == FieldDescriptor.TYPE_MESSAGE or fd.is_repeated:
            raise ValueError(f"{fd.full_name}: a query string carries scalar fields only")
        if fd.type == FieldDescriptor.TYPE_ENUM:
            enum: EnumDescriptor = fd.enum_type
            names = [v.name for v in enum.values]
            schema: Schema = {
                "type": "string",
                "enum": [*names, *route.query_words.get(fd.name, ())],
            }
        else:
            schema = scalar_schema(fd)
        out.append(
            {
                "name": fd.json_name,
                "in": "query",
                "required": False,
                "schema": schema,
                "description": f"{route.request.DESCRIPTOR.name}.{fd.name}"
                + (
                    f" (the field name {fd.name!r} is accepted too)"
                    if fd.name != fd.json_name
                    else ""
                ),
            }
        )
    return out


def _parameters(route: Route) -> list[Schema]:
    params: list[Schema] = []
    if "{game_id}" in route.path:
        params.append(
            {
                "name": "game_id",
                "in": "path",
                "required": True,
                "schema": {"type": "string", "pattern": f"^[A-Za-z0-9]{{1,{MAX_GAME_ID_CHARS}}}$"},
            }
        )
    if route.request is not None and route.method == "GET":
        params.extend(_query_parameters(route))
    for name, text in route.headers.items():
        params.append(
            {
                "name": name,
                "in": "header",
                "required": False,
                "schema": {"type": "string"},
                "description": text,
            }
        )
    return params


def _error_responses(route: Route) -> dict[str, Schema]:
    codes = set(route.errors) | {400, 429, 503}
    if route.method == "POST":
        codes |= {413, 415}
    if "{game_id}" in route.path:
        codes.add(404)
    if route.seat_token != "none":
        codes |= {401, 403}
    return {
        str(code): {
            "description": ERROR_TEXT[code],
            "headers": _REQUEST_ID_HEADER
            | (
                {"Retry-After": {"description": "seconds to wait", "schema": {"type": "integer"}}}
                if code in (429, 503)
                else {}
            ),
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}},
        }
        for code in sorted(codes)
    }


def _game_id_pointer(response: type[Message] | None) -> str | None:
    """Where a response names a game: its gameId, or its first listed game's."""
    if response is None:
        return None
    fields = response.DESCRIPTOR.fields_by_name
    if "game_id" in fields:
        return "$response.body#/gameId"
    for fd in response.DESCRIPTOR.fields:
        if (
            fd.is_repeated
            and fd.message_type is not None
            and "game_id" in fd.message_type.fields_by_name
        ):
            return f"$response.body#/{fd.json_name}/0/gameId"
    return None


def _links(route: Route, routes: Sequence[Route]) -> Schema:
    """OpenAPI links from an answer naming a game to every operation on a game
    (clients and fuzzers follow them from a created or listed game)."""
    pointer = _game_id_pointer(route.response)
    if pointer is None or route.stream:
        return {}
    return {
        other.rpc: {"operationId": other.rpc, "parameters": {"path.game_id": pointer}}
        for other in routes
        if "{game_id}" in other.path
    }


def _operation(route: Route, routes: Sequence[Route] = ()) -> Schema:
    operation: Schema = {
        "operationId": route.rpc,
        "summary": route.summary,
        "parameters": _parameters(route),
    }
    if route.method == "POST" and route.request is not None:
        operation["requestBody"] = {
            "required": False,
            "description": "an empty body is the message with every field at its default",
            "content": {"application/json": {"schema": _ref(route.request.DESCRIPTOR)}},
        }
        if route.example is not None:
            operation["requestBody"]["content"]["application/json"]["example"] = dict(route.example)
    if route.stream:
        assert route.response is not None
        content: Schema = {
            "text/event-stream": {
                "schema": {
                    "type": "string",
                    "description": "Server-Sent Events: 'event: update' or 'event: heartbeat' "
                    "with 'id:' the version and 'data:' one WatchGameResponse in JSON "
                    "(schema: WatchGameResponse); 'event: failure' with an error body "
                    "(schema: Error) ends the stream",
                }
            }
        }
    elif route.response is not None:
        content = {"application/json": {"schema": _ref(route.response.DESCRIPTOR)}}
    else:
        content = {"application/json": {"schema": route.response_schema or {"type": "object"}}}
    responses: Schema = {
        str(route.status): {"description": "OK", "headers": _REQUEST_ID_HEADER, "content": content}
    }
    if route.websocket:
        responses = {"101": {"description": f"Switching Protocols: {route.websocket}"}}
    links = _links(route, routes)
    if links:
        responses[str(route.status)]["links"] = links
    for status, text in route.extra_status.items():
        responses[str(status)] = {"description": text, "headers": _REQUEST_ID_HEADER}
    responses.update(_error_responses(route))
    operation["responses"] = responses
    if route.seat_token == "required":
        operation["security"] = [{"seatToken": []}]
    elif route.seat_token == "optional":
        operation["security"] = [{"seatToken": []}, {}]
    return operation


def build_spec(routes: Sequence[Route], *, title: str, version: str) -> Schema:
    """The OpenAPI 3 document of ``routes``."""
    paths: dict[str, Schema] = {}
    roots: list[Descriptor] = []
    for route in routes:
        for message in (route.request, route.response):
            if message is not None:
                roots.append(message.DESCRIPTOR)
        paths.setdefault(route.path, {})[route.method.lower()] = _operation(route, routes)
    schemas = collect_schemas(roots)
    schemas["Error"] = ERROR_SCHEMA
    return {
        "openapi": OPENAPI_VERSION,
        "info": {
            "title": title,
            "version": version,
            "description": "The REST/JSON face of the Throneroom game-state service "
            "(docs/rest.md); bodies are the proto3 JSON mapping of throneroom.v1 messages. "
            "Generated from the proto descriptors at run time.",
        },
        "paths": paths,
        "components": {
            "schemas": schemas,
            "securitySchemes": {
                "seatToken": {
                    "type": "http",
                    "scheme": "bearer",
                    "description": "the seat token JoinGame returned; absent for a spectator",
                },
                "apiKey": {"type": "apiKey", "in": "header", "name": "X-Api-Key"},
            },
        },
    }
