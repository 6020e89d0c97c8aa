"""How a game's records are laid out in Redis (``redis.py`` has the keys).

Stream rows: field ``e`` is the serialized StoredEntry without its state;
a checkpoint (``base.keeps_state``) adds field ``s``, the zlib-compressed
serialized state after its move. Rows written by earlier releases hold one
field ``e`` with the state inside the entry; both are read alike.

A finished game's log: the commit that finishes a game copies every row
into the hash's field ``log`` (every version from 1 on, each row as: the
length of ``e``, ``e``, the length of ``s``, ``s``; the lengths 4 bytes
big-endian) and lets the stream expire ``Retention.finished_log_seconds``
later (its watchers get the last move from it meanwhile). A read that finds
no row in the stream reads the compacted log.

Idempotency records: 8 hash fields ``i0`` .. ``i7`` of the game's hash; a
key's 8-byte digest (``base.key_digest``) goes to field ``i<b>``, b = its
first byte mod 8, as a 12-byte record: the digest, then the version its
move created (4 bytes, big-endian). Earlier releases kept one field
``idem:<key>`` per key (holding the version); those are still read.
"""

from __future__ import annotations

import zlib

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


def compressed(state_bytes: bytes) -> bytes:
    """A checkpoint's state as its row's field ``s`` keeps it."""
    return zlib.compress(state_bytes, LEVEL)


def rows_of_log(log: bytes, after_version: int, limit: int) -> list[tuple[int, bytes]]:
    """Up to ``limit`` (version, serialized entry) of a compacted log, after
    ``after_version``."""
    rows: list[tuple[int, bytes]] = []
    at, version = 0, 0
    while at < len(log) and len(rows) < limit:
        version += 1
        size = int.from_bytes(log[at : at + 4], "big")
        at += 4 + size
        state_size = int.from_bytes(log[at : at + 4], "big")
        if version > after_version:
            data = log[at - size : at]
            state = log[at + 4 : at + 4 + state_size]
            rows.append((version, with_state(data, zlib.decompress(state)) if state else data))
        at += 4 + state_size
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
