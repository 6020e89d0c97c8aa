"""Reading a message's bytes as clients in other languages do.

The protobuf encoding says a parser *merges* the occurrences of a singular
message field (``snapshot``, ``view``...) that appear more than once in a
message's bytes; Python's parser does. Not every parser does: protobufjs 7
(what ``@grpc/proto-loader`` and so most Node.js gRPC clients decode with)
keeps the last occurrence only, dropping the fields of the earlier ones.
``last_occurrence`` reads bytes that way, so a test can check that what the
service sends reads the same in either kind of client (issue 34).
"""

from __future__ import annotations

from typing import TypeVar

from google.protobuf.descriptor import FieldDescriptor
from google.protobuf.message import Message

M = TypeVar("M", bound=Message)

_VARINT, _FIXED64, _LENGTH_DELIMITED, _FIXED32 = 0, 1, 2, 5


def last_occurrence(message_class: type[M], data: bytes) -> M:
    """``data`` parsed as a parser that keeps only the last occurrence of each
    singular message field (protobufjs 7); every other field as protobuf
    says (a scalar's last value, a repeated field's entries appended)."""
    message = message_class()
    _decode_into(message, data)
    return message


def _decode_into(message: Message, data: bytes) -> None:
    fields = message.DESCRIPTOR.fields_by_number
    pos = 0
    while pos < len(data):
        start = pos
        key, pos = _varint(data, pos)
        number, wire_type = key >> 3, key & 7
        payload_at = pos
        if wire_type == _VARINT:
            _, pos = _varint(data, pos)
        elif wire_type == _FIXED64:
            pos += 8
        elif wire_type == _FIXED32:
            pos += 4
        elif wire_type == _LENGTH_DELIMITED:
            length, payload_at = _varint(data, pos)
            pos = payload_at + length
        else:
            raise ValueError(f"wire type {wire_type} (groups) is not used by these messages")
        if pos > len(data):
            raise ValueError("truncated message")
        field = fields.get(number)
        if (
            field is None
            or field.type != FieldDescriptor.TYPE_MESSAGE
            or wire_type != _LENGTH_DELIMITED
            or field.message_type.GetOptions().map_entry
        ):
            message.MergeFromString(data[start:pos])  # as protobuf says
            continue
        if field.is_repeated:
            target = getattr(message, field.name).add()
        else:
            message.ClearField(field.name)  # the earlier occurrences are lost
            target = getattr(message, field.name)
            target.SetInParent()
        _decode_into(target, data[payload_at:pos])


def _varint(data: bytes, pos: int) -> tuple[int, int]:
    result = shift = 0
    while True:
        if pos >= len(data):
            raise ValueError("truncated varint")
        byte = data[pos]
        pos += 1
        result |= (byte & 0x7F) << shift
        if not byte & 0x80:
            return result, pos
        shift += 7
