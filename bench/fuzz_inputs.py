"""Inputs for bench/fuzz.py: hypothesis strategies built from the proto
descriptors (any message of the service, any game's move), unknown fields,
mangled wire bytes, and hostile JSON, headers and text.

Every strategy here draws a sequence whose shape depends only on earlier draws,
never on the server's state (hypothesis requires it): where the server decides
a length (legal moves, seats to act), ``index`` draws a number of fixed range.
"""

from __future__ import annotations

import json
import urllib.parse
from collections.abc import Callable
from typing import Any

from google.protobuf import json_format
from google.protobuf.descriptor import FieldDescriptor
from google.protobuf.message import Message
from hypothesis import strategies as st

FD = FieldDescriptor
Draw = Callable[[st.SearchStrategy[Any]], Any]
MAX_DEPTH = 4

# -- values from the proto descriptors ------------------------------------------------

_INT_RANGES = {
    FD.TYPE_INT32: (-(2**31), 2**31 - 1),
    FD.TYPE_SINT32: (-(2**31), 2**31 - 1),
    FD.TYPE_SFIXED32: (-(2**31), 2**31 - 1),
    FD.TYPE_INT64: (-(2**63), 2**63 - 1),
    FD.TYPE_SINT64: (-(2**63), 2**63 - 1),
    FD.TYPE_SFIXED64: (-(2**63), 2**63 - 1),
    FD.TYPE_UINT32: (0, 2**32 - 1),
    FD.TYPE_FIXED32: (0, 2**32 - 1),
    FD.TYPE_UINT64: (0, 2**64 - 1),
    FD.TYPE_FIXED64: (0, 2**64 - 1),
}

# Text a hostile client likes: Unicode digits and letters, controls, long runs.
TRICKY_TEXT = st.one_of(
    st.text(max_size=12),
    st.sampled_from(["", "0", "00", "01", "\u00b2", "\u0661", "\u00e9t\u00e9", "-1", " 1", "1e3"]),
    st.text(alphabet="0123456789.-_=/+ \u00b2\u0663", max_size=50),
    st.integers(0, 300).map(lambda n: "x" * n),
)


def ints(low: int, high: int) -> st.SearchStrategy[int]:
    return st.one_of(st.integers(max(low, -3), min(high, 60)), st.integers(low, high))


def scalar(fd: FD) -> st.SearchStrategy[Any]:
    if fd.type in _INT_RANGES:
        return ints(*_INT_RANGES[fd.type])
    if fd.type == FD.TYPE_BOOL:
        return st.booleans()
    if fd.type == FD.TYPE_FLOAT:
        return st.floats(width=32)
    if fd.type == FD.TYPE_DOUBLE:
        return st.floats()
    if fd.type == FD.TYPE_ENUM:  # proto3 enums are open: unknown numbers are legal
        known = [v.number for v in fd.enum_type.values]
        return st.one_of(st.sampled_from(known), ints(-(2**31), 2**31 - 1))
    if fd.type == FD.TYPE_STRING:
        return TRICKY_TEXT
    if fd.type == FD.TYPE_BYTES:
        return st.binary(max_size=40)
    raise AssertionError(f"no strategy for field type {fd.type}")


def fill(draw: Draw, message: Message, depth: int = 0) -> None:
    """Set a random selection of ``message``'s fields (oneofs: at most one)."""
    chosen: dict[str, str | None] = {}
    for oneof in message.DESCRIPTOR.oneofs:
        chosen[oneof.name] = draw(st.sampled_from([None, *[f.name for f in oneof.fields]]))
    for fd in message.DESCRIPTOR.fields:
        if fd.containing_oneof is not None:
            if chosen[fd.containing_oneof.name] != fd.name:
                continue
        elif not draw(st.booleans()):
            continue
        if fd.message_type is not None and fd.message_type.GetOptions().map_entry:
            continue
        value = getattr(message, fd.name)
        if fd.is_repeated:
            count = draw(st.integers(0, 4 if depth < 2 else 1))
            if fd.message_type is not None:
                if depth < MAX_DEPTH:
                    for _ in range(count):
                        fill(draw, value.add(), depth + 1)
            else:
                value.extend(draw(st.lists(scalar(fd), max_size=count)))
        elif fd.message_type is not None:
            if depth < MAX_DEPTH:
                fill(draw, value, depth + 1)
                value.SetInParent()
        else:
            setattr(message, fd.name, draw(scalar(fd)))


def tweak(draw: Draw, message: Message, name: str) -> None:
    """Change a legal move a little: merge a sparse random decision of the same
    game into it (fields overwritten, items appended, or another oneof entry)."""
    noise = type(message)()
    fill(draw, getattr(noise, name), MAX_DEPTH - 2)
    getattr(message, name).MergeFrom(getattr(noise, name))


INDEX = st.integers(0, 2**16)


def index(draw: Draw, size: int) -> int:
    """An index into a sequence whose length the server's state decides. Always
    one draw of the same shape, so the case's data does not depend on that state
    (hypothesis requires it); -1 for an empty sequence."""
    i: int = draw(INDEX)
    return i % size if size else -1


def varint(n: int) -> bytes:
    out = bytearray()
    while True:
        byte, n = n & 0x7F, n >> 7
        out.append(byte | (0x80 if n else 0))
        if not n:
            return bytes(out)


def unknown_field(draw: Draw) -> bytes:
    """One field this server does not know (a newer client's, or padding)."""
    number = draw(st.one_of(st.integers(50, 200), st.integers(1000, 2**29 - 1)))
    kind = draw(st.sampled_from([0, 1, 2, 5]))
    if kind == 0:
        payload = varint(draw(st.integers(0, 2**64 - 1)))
    elif kind == 1:
        payload = draw(st.binary(min_size=8, max_size=8))
    elif kind == 5:
        payload = draw(st.binary(min_size=4, max_size=4))
    else:
        size = draw(st.one_of(st.integers(0, 64), st.sampled_from([5000, 70_000, 600_000])))
        payload = varint(size) + b"\x5a" * size
    return varint(number << 3 | kind) + payload


def padded(draw: Draw, message: Message) -> Message:
    """``message`` with unknown fields appended (at its own level)."""
    out = type(message)()
    out.MergeFromString(message.SerializeToString() + unknown_field(draw))
    return out


def mangle(draw: Draw, data: bytes) -> bytes:
    """Bytes that may or may not still decode: flips, cuts, junk, bad UTF-8."""
    how = draw(st.sampled_from(["random", "flip", "cut", "junk", "bad_utf8", "deep"]))
    if how == "random":
        out: bytes = draw(st.binary(max_size=64))
        return out
    i = index(draw, len(data))
    if how == "flip":
        flip = draw(st.integers(1, 255))
        return data[:i] + bytes([data[i] ^ flip]) + data[i + 1 :] if data else data
    if how == "cut":
        return data[: max(i, 0)]
    if how == "junk":
        junk: bytes = draw(st.binary(min_size=1, max_size=16))
        return data + junk
    if how == "bad_utf8":  # field 1 (a string in every request that has one)
        return varint(1 << 3 | 2) + varint(2) + b"\xff\xfe" + data
    # A group of nested length-delimited fields far deeper than any message.
    inner = b""
    for _ in range(draw(st.integers(50, 200))):
        inner = varint(4 << 3 | 2) + varint(len(inner)) + inner
    return data + inner


def header_value(text: str) -> bytes:
    """``text`` as header bytes (UTF-8; no line breaks, which http.client refuses)."""
    cleaned = "".join(c for c in text if c not in "\r\n\x00")
    return cleaned.strip().encode("utf-8", "surrogatepass")


# JSON text may also spell what no UTF-8 can: unpaired surrogates ("\\ud800").
JSON_TEXT = st.one_of(
    TRICKY_TEXT, st.text(st.characters(categories=["Cs", "Nd", "Lu"]), max_size=4)
)
JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | JSON_TEXT,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(JSON_TEXT, inner, max_size=3),
    max_leaves=8,
)


def json_body(draw: Draw, data: dict[str, Any]) -> bytes:
    pick = draw(st.integers(0, 19))
    if pick < 12:
        return json.dumps(data).encode()
    if pick == 12:  # an unknown or misspelt field
        return json.dumps({**data, draw(JSON_TEXT): draw(JSON_VALUES)}).encode()
    names = [*sorted(data), "move", "options"]
    name = names[index(draw, len(names))]
    if pick == 13:  # a known field with a value of any type
        return json.dumps({**data, name: draw(JSON_VALUES)}).encode()
    if pick == 14:  # nesting: a little, a lot, or past the decoder's recursion limit
        depth = draw(st.sampled_from([2, 8, 31, 33, 200, 5000, 100_000]))
        return b'{"' + name.encode() + b'":' + b"[" * depth + b"]" * depth + b"}"
    if pick == 15:
        return json.dumps(draw(JSON_VALUES)).encode()
    if pick == 16:
        return b""
    if pick == 17:
        text: bytes = draw(st.binary(max_size=40))
        return text
    if pick == 18:  # a lone surrogate, escaped as JSON allows
        return b'{"displayName":"\\ud800","idempotencyKey":"\\udfff"}'
    return json.dumps(data).encode("utf-16")


def rest_request(
    draw: Draw, method: str, request: Message
) -> tuple[str, str, bytes | None, dict[str, bytes]]:
    """(HTTP method, path, body, headers) for ``request``, variously mangled."""
    gid = urllib.parse.quote(getattr(request, "game_id", ""), safe="")
    routes = {
        "ListGameTypes": ("GET", "/v1/game-types"),
        "CreateGame": ("POST", "/v1/games"),
        "JoinGame": ("POST", f"/v1/games/{gid}/seats"),
        "GetGame": ("GET", f"/v1/games/{gid}"),
        "ListLegalMoves": ("GET", f"/v1/games/{gid}/legal-moves"),
        "ApplyMove": ("POST", f"/v1/games/{gid}/moves"),
        "GetHistory": ("GET", f"/v1/games/{gid}/history"),
        "WatchGame": ("GET", f"/v1/games/{gid}/watch"),
        "Ping": ("GET", "/healthz"),
        "ListGames": ("GET", "/v1/games"),
        "ExportGame": ("GET", f"/v1/games/{gid}/record"),
    }
    verb, path = routes[method]
    headers: dict[str, bytes] = {}
    token = getattr(request, "seat_token", "")
    scheme = draw(st.sampled_from(["Bearer", "Bearer", "Bearer", "bearer", "Basic", "", "-"]))
    if token or scheme == "-":
        headers["Authorization"] = header_value(f"{scheme} {token}")
    data = json_format.MessageToDict(request)
    data.pop("seatToken", None)
    data.pop("gameId", None)
    if verb == "GET":
        query = {k: str(v) for k, v in data.items() if not isinstance(v, dict | list)}
        if draw(st.integers(0, 4)) == 0:
            query[draw(st.sampled_from(["fromVersion", "pageSize", "colour", "seatToken"]))] = draw(
                TRICKY_TEXT
            )
        if query:
            path += "?" + urllib.parse.urlencode(query)
        if method == "WatchGame" and draw(st.booleans()):
            headers["Last-Event-ID"] = header_value(draw(TRICKY_TEXT))
        return verb, path, None, headers
    body = json_body(draw, data)
    pick = draw(st.integers(0, 14))
    content_type = (
        "application/json"
        if pick < 10
        else [
            "application/json; charset=utf-8",
            "text/plain",
            "application/x-www-form-urlencoded",
            "application/json; charset=latin-1",
            "",
        ][pick - 10]
    )
    if content_type:
        headers["Content-Type"] = content_type.encode()
    if method == "ApplyMove" and draw(st.integers(0, 9)) == 0:
        headers["Idempotency-Key"] = header_value(draw(TRICKY_TEXT))
        if draw(st.booleans()):  # bytes that are not UTF-8
            headers["Idempotency-Key"] += (
                draw(st.binary(min_size=1, max_size=4))
                .replace(b"\r", b".")
                .replace(b"\n", b".")
                .replace(b"\x00", b".")
                + b"\xff"
            )
    return verb, path, body, headers
