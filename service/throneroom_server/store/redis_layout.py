"""How a game's records are laid out in Redis (``redis.py`` has the keys).

Stream rows: field ``e`` is the serialized StoredEntry without its state;
a checkpoint (``base.keeps_state``) adds field ``s``, the zlib-compressed
serialized state after its move. Rows written by earlier releases hold one
field ``e`` with the state inside the entry; both are read alike.

A finished game's log: the commit that finishes a game copies every row
into the hash's field ``log`` (every version from 1 on, each row as: the
length of ``e``, ``e``, the length of ``s``, ``s``; the lengths 4 bytes
big-endian) and lets the stream expire ``Retention.finished_log_seconds``
later (its watchers get the last move from it meanwhile). Right after
that commit the store packs it (``pack_log.lua``): field ``logz`` replaces
``log``, holding the zlib-compressed rows in the same framing with each
checkpoint's state uncompressed (``packed``: consecutive entries and states
compress together, 2-3.5x smaller than ``log``). A read that finds no row in
the stream reads ``logz``, else ``log`` (a game whose packing failed, or one
finished by an earlier release).

Idempotency records: 8 hash fields ``i0`` .. ``i7`` of the game's hash; a
key's 8-byte digest (``base.key_digest``) goes to field ``i<b>``, b = its
first byte mod 8, as a 12-byte record: the digest, then the version its
move created (4 bytes, big-endian). Earlier releases kept one field
``idem:<key>`` per key (holding the version); those are still read.
"""

from __future__ import annotations

import zlib
from collections.abc import Iterator
from typing import Any

from throneroom_server.store.base import with_state

RECORD_BYTES = 12
RECORD_FIELDS = 8
LEVEL = 6
"""zlib's level for checkpoint states."""


def records_field(digest: bytes) -> str:
    """The hash field holding the records of keys with this digest."""
    return f"i{digest[0] % RECORD_FIELDS}"


def legacy_field(idempotency_key: str) -> str:
    """A key's own field in the layout of earlier releases."""
    return f"idem:{idempotency_key}"


def recorded_version(records: bytes | None, digest: bytes) -> int | None:
    """The version recorded for ``digest`` in a records field, if any."""
    if not records or not digest:
        return None
    at = records.find(digest)
    while at >= 0:
        if at % RECORD_BYTES == 0:
            return int.from_bytes(records[at + len(digest) : at + RECORD_BYTES], "big")
        at = records.find(digest, at + 1)
    return None


def idempotent_version(digest: bytes, records: bytes | None, legacy: bytes | None) -> int | None:
    """The version a key's move created: in its records field, else in the
    field an earlier release kept for it."""
    if not digest:
        return None
    found = recorded_version(records, digest)
    if found is None and legacy is not None:
        found = int(legacy)
    return found


def script_status(raw: Any) -> tuple[str, int, str]:
    """A script's ``{status, value}`` reply, with the lobby member some
    replies add as a third element ("" when absent)."""
    status, value, *more = raw
    if isinstance(status, bytes):
        status = status.decode()
    noted = more[0] if more else b""
    return str(status), int(value), noted.decode() if isinstance(noted, bytes) else str(noted)


def compressed(state_bytes: bytes) -> bytes:
    """A checkpoint's state as its row's field ``s`` keeps it."""
    return zlib.compress(state_bytes, LEVEL)


def _framed(log: bytes, after_version: int = 0) -> Iterator[tuple[int, bytes, bytes]]:
    """(version, entry, state) of each row of a compacted or unpacked log
    after ``after_version`` (state: b"" when the row keeps none)."""
    at, version = 0, 0
    while at < len(log):
        version += 1
        size = int.from_bytes(log[at : at + 4], "big")
        at += 4 + size
        state_size = int.from_bytes(log[at : at + 4], "big")
        if version > after_version:
            yield version, log[at - size : at], log[at + 4 : at + 4 + state_size]
        at += 4 + state_size


def _frame(data: bytes) -> bytes:
    return len(data).to_bytes(4, "big") + data


def packed(log: bytes) -> bytes:
    """A compacted log (field ``log``) as field ``logz`` keeps it."""
    rows = (
        _frame(data) + _frame(zlib.decompress(state) if state else b"")
        for _, data, state in _framed(log)
    )
    return zlib.compress(b"".join(rows), LEVEL)


def rows_of_log(
    log: bytes | None, logz: bytes | None, after_version: int, limit: int
) -> list[tuple[int, bytes]]:
    """Up to ``limit`` (version, serialized entry) of a finished game's log
    after ``after_version``: the packed one (``logz``), else the compacted
    one (``log``), else none."""
    rows: list[tuple[int, bytes]] = []
    if logz:
        unpacked, inflate = zlib.decompress(logz), False
    elif log:
        unpacked, inflate = log, True
    else:
        return rows
    for version, data, kept in _framed(unpacked, after_version):
        if len(rows) == limit:
            break
        state = zlib.decompress(kept) if inflate and kept else kept
        rows.append((version, with_state(data, state) if state else data))
    return rows


def version_of(row_id: bytes) -> int:
    """A stream row's version: its ID is "<version>-0"."""
    return int(row_id.split(b"-", 1)[0])


def entry_of_pairs(fields: list[bytes]) -> bytes:
    """The serialized entry (its state inside, at a checkpoint) of a row's
    fields as a flat list ([b"e", data] or [b"e", data, b"s", state])."""
    data = fields[fields.index(b"e") + 1]
    if len(fields) > 2 and b"s" in fields:
        return with_state(data, zlib.decompress(fields[fields.index(b"s") + 1]))
    return data


def entry_of_dict(fields: dict[bytes, bytes]) -> bytes:
    """``entry_of_pairs`` for a row's fields as redis-py parses them."""
    state = fields.get(b"s")
    data = fields[b"e"]
    return data if state is None else with_state(data, zlib.decompress(state))
