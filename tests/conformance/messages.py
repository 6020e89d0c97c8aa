"""Game-agnostic tools over protobuf messages: encoding, descriptor walks, and
the generic move mutator of check 6."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import cast

from google.protobuf import text_format
from google.protobuf.descriptor import Descriptor, FieldDescriptor, OneofDescriptor
from google.protobuf.message import Message
from throneroom.v1 import common_pb2

RNG_STATE = common_pb2.RngState.DESCRIPTOR.full_name
MIN_SECRET_RNG_STATE = 1 << 40
"""Smaller RNG states are not searched for in views: their few varint bytes
could occur by chance."""


def encode(message: Message) -> bytes:
    return message.SerializeToString(deterministic=True)


def one_line(message: Message) -> str:
    return text_format.MessageToString(message, as_one_line=True)


def round_trip_problem(message: Message) -> str | None:
    """None if the message parses back from its bytes to an equal message."""
    data = encode(message)
    parsed = type(message)()
    parsed.ParseFromString(data)
    if parsed != message:
        return f"{type(message).__name__} does not parse back equal from its bytes"
    if encode(parsed) != data:
        return f"{type(message).__name__} re-encodes to different bytes"
    return None


def varint(value: int) -> bytes:
    out = bytearray()
    while True:
        byte = value & 0x7F
        value >>= 7
        if value:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


def descriptor_of(message: Message) -> Descriptor:
    return cast(Descriptor, message.DESCRIPTOR)


def is_synthetic_oneof(oneof: OneofDescriptor) -> bool:
    """True for the oneof protoc makes for a proto3 ``optional`` field."""
    return len(oneof.fields) == 1 and oneof.name == "_" + oneof.fields[0].name


def real_oneofs(descriptor: Descriptor) -> list[OneofDescriptor]:
    return [o for o in descriptor.oneofs if not is_synthetic_oneof(o)]


def kind(message: Message) -> str:
    """The set field of the message's first (real) oneof, e.g. an event's kind; "" if none."""
    oneofs = real_oneofs(descriptor_of(message))
    if not oneofs:
        return ""
    return message.WhichOneof(oneofs[0].name) or ""


def with_unordered_fields_sorted(message: Message, paths: frozenset[str]) -> Message:
    """A copy of the message whose repeated fields at the given "a.b.field" paths are
    sorted (scalars by value, messages by their bytes), to compare them as multisets."""
    copy = type(message)()
    copy.CopyFrom(message)
    for path in paths:
        *parents, name = path.split(".")
        target = copy
        for parent in parents:
            if not target.HasField(parent):
                break
            target = getattr(target, parent)
        else:
            values = getattr(target, name)
            if values and isinstance(values[0], Message):
                kept = sorted(encode(entry) for entry in values)
                del values[:]
                for data in kept:
                    values.add().ParseFromString(data)
            else:
                ordered = sorted(values)
                del values[:]
                values.extend(ordered)
    return copy


def _is_map(field: FieldDescriptor) -> bool:
    return field.message_type is not None and field.message_type.GetOptions().map_entry


def reachable_types(descriptor: Descriptor) -> set[str]:
    """Full names of every message type that a message of this type can hold, at any depth
    (the type itself included)."""
    seen: set[str] = set()
    stack = [descriptor]
    while stack:
        current = stack.pop()
        if current.full_name in seen:
            continue
        seen.add(current.full_name)
        stack.extend(f.message_type for f in current.fields if f.message_type is not None)
    return seen


_RNG_REACH: dict[str, bool] = {}


def _reaches_rng(descriptor: Descriptor) -> bool:
    name = descriptor.full_name
    if name not in _RNG_REACH:
        _RNG_REACH[name] = RNG_STATE in reachable_types(descriptor)
    return _RNG_REACH[name]


def _submessages(message: Message, field: FieldDescriptor) -> Iterator[Message]:
    value = getattr(message, field.name)
    if _is_map(field):
        assert field.message_type is not None
        if field.message_type.fields_by_name["value"].message_type is not None:
            yield from value.values()
    elif field.is_repeated:
        yield from value
    elif message.HasField(field.name):
        yield value


def rng_states(message: Message) -> list[Message]:
    """Every RngState inside the message (any depth), by reference."""
    found: list[Message] = []
    for field in descriptor_of(message).fields:
        if field.message_type is None or not _reaches_rng(field.message_type):
            continue
        for sub in _submessages(message, field):
            if sub.DESCRIPTOR.full_name == RNG_STATE:
                found.append(sub)
            else:
                found.extend(rng_states(sub))
    return found


def secret_rng_patterns(*messages: Message) -> list[bytes]:
    """Byte strings that would betray the RNG states inside these messages: the
    varint encoding of each (large enough) ``RngState.state``."""
    patterns = []
    for message in messages:
        for rng in rng_states(message):
            state = getattr(rng, "state", 0)
            if state >= MIN_SECRET_RNG_STATE:
                patterns.append(varint(state))
    return patterns


def without_rng(message: Message) -> bytes:
    """The message's bytes with every RngState inside it reset (to compare states
    apart from their random generators)."""
    if not _reaches_rng(descriptor_of(message)):
        return encode(message)
    copy = type(message)()
    copy.CopyFrom(message)
    for rng in rng_states(copy):
        rng.Clear()
    return encode(copy)


# --- the mutator --------------------------------------------------------------------------

_INT_RANGES = {
    FieldDescriptor.TYPE_INT32: (-(1 << 31), (1 << 31) - 1),
    FieldDescriptor.TYPE_SINT32: (-(1 << 31), (1 << 31) - 1),
    FieldDescriptor.TYPE_SFIXED32: (-(1 << 31), (1 << 31) - 1),
    FieldDescriptor.TYPE_INT64: (-(1 << 63), (1 << 63) - 1),
    FieldDescriptor.TYPE_SINT64: (-(1 << 63), (1 << 63) - 1),
    FieldDescriptor.TYPE_SFIXED64: (-(1 << 63), (1 << 63) - 1),
    FieldDescriptor.TYPE_UINT32: (0, (1 << 32) - 1),
    FieldDescriptor.TYPE_FIXED32: (0, (1 << 32) - 1),
    FieldDescriptor.TYPE_UINT64: (0, (1 << 64) - 1),
    FieldDescriptor.TYPE_FIXED64: (0, (1 << 64) - 1),
}
_FLOATS = (FieldDescriptor.TYPE_FLOAT, FieldDescriptor.TYPE_DOUBLE)

ScalarValue = int | float | bool | str | bytes


@dataclass(frozen=True)
class Mutant:
    move: Message
    what: str
    """How it was made from the original, for failure messages."""
    malformed: bool
    """True when the move is malformed whatever the state (an enum value the
    enum does not declare): the engine must raise InvalidMoveError."""


def _element_default(field: FieldDescriptor) -> ScalarValue:
    """The default value of one element of a repeated scalar field."""
    if field.type == FieldDescriptor.TYPE_BOOL:
        return False
    if field.type in _FLOATS:
        return 0.0
    if field.type == FieldDescriptor.TYPE_STRING:
        return ""
    if field.type == FieldDescriptor.TYPE_BYTES:
        return b""
    return 0


def _undeclared_enum_value(field: FieldDescriptor) -> int:
    assert field.enum_type is not None
    return max(v.number for v in field.enum_type.values) + 1


def _scalar_alternatives(field: FieldDescriptor, current: ScalarValue) -> list[ScalarValue]:
    """Other values for a scalar field, each different from the current one."""
    candidates: list[ScalarValue]
    if field.type == FieldDescriptor.TYPE_BOOL:
        candidates = [not current]
    elif field.type == FieldDescriptor.TYPE_ENUM:
        assert field.enum_type is not None
        candidates = [v.number for v in field.enum_type.values]
        candidates.append(_undeclared_enum_value(field))
    elif field.type in _INT_RANGES:
        low, high = _INT_RANGES[field.type]
        assert isinstance(current, int)
        wanted = [current + 1, current - 1, 0, -1, high, low]
        candidates = [v for v in wanted if low <= v <= high]
    elif field.type in _FLOATS:
        assert isinstance(current, float)
        candidates = [current + 1.0, current - 1.0, 0.0, -1.0]
    elif field.type == FieldDescriptor.TYPE_STRING:
        assert isinstance(current, str)
        candidates = [current + "?", ""]
    elif field.type == FieldDescriptor.TYPE_BYTES:
        assert isinstance(current, bytes)
        candidates = [current + b"?", b""]
    else:
        candidates = []
    unique: list[ScalarValue] = []
    for value in candidates:
        if value != current and value not in unique:
            unique.append(value)
    return unique


Edit = Callable[[Message], None]
Path = tuple[tuple[str, int | None], ...]


def _navigate(root: Message, path: Path) -> Message:
    message = root
    for name, index in path:
        value = getattr(message, name)
        message = value[index] if index is not None else value
    return message


def _edits(message: Message, path: Path) -> Iterator[tuple[Path, str, Edit, bool]]:
    """(path, description, edit of the message at path, malformed) for every single-field
    change of ``message``."""
    where = ".".join(n if i is None else f"{n}[{i}]" for n, i in path) or "<move>"
    for oneof in real_oneofs(descriptor_of(message)):
        which = message.WhichOneof(oneof.name)
        if which is not None:
            yield path, f"{where}: oneof {oneof.name} cleared", _clear(oneof.name), False
        for member in oneof.fields:
            if member.name == which:
                continue
            yield path, f"{where}: oneof {oneof.name} set to {member.name}", _switch(member), False
    for field in descriptor_of(message).fields:
        if _is_map(field):
            continue  # maps are not mutated (no game move uses one)
        in_real_oneof = field.containing_oneof is not None and not is_synthetic_oneof(
            field.containing_oneof
        )
        if field.is_repeated:
            yield from _repeated_edits(message, field, path, where)
        elif field.message_type is not None:
            if not message.HasField(field.name):
                continue
            sub = getattr(message, field.name)
            if not in_real_oneof and sub.ByteSize() > 0:
                yield path, f"{where}: {field.name} cleared", _clear(field.name), False
            yield from _edits(sub, (*path, (field.name, None)))
        else:
            container = field.containing_oneof
            if in_real_oneof and container and message.WhichOneof(container.name) != field.name:
                continue  # a different member is set: covered by the oneof switch
            current = getattr(message, field.name)
            for value in _scalar_alternatives(field, current):
                malformed = (
                    field.type == FieldDescriptor.TYPE_ENUM
                    and value == _undeclared_enum_value(field)
                )
                yield path, f"{where}: {field.name} = {value!r}", _set(field.name, value), malformed
            if field.has_presence and not in_real_oneof and message.HasField(field.name):
                yield path, f"{where}: {field.name} cleared", _clear(field.name), False


def _repeated_edits(
    message: Message, field: FieldDescriptor, path: Path, where: str
) -> Iterator[tuple[Path, str, Edit, bool]]:
    values = getattr(message, field.name)
    count = len(values)
    for index in range(count):
        yield path, f"{where}: {field.name}[{index}] removed", _remove(field.name, index), False
    if count:
        yield path, f"{where}: {field.name}[0] repeated", _duplicate(field.name), False
    if field.message_type is not None:
        yield path, f"{where}: empty entry added to {field.name}", _add_message(field.name), False
        for index in range(count):
            yield from _edits(values[index], (*path, (field.name, index)))
        return
    for value in _scalar_alternatives(field, _element_default(field))[:2]:
        malformed = field.type == FieldDescriptor.TYPE_ENUM and value == _undeclared_enum_value(
            field
        )
        yield (
            path,
            f"{where}: {value!r} added to {field.name}",
            _append(field.name, value),
            malformed,
        )
    for index in range(count):
        for value in _scalar_alternatives(field, values[index]):
            malformed = field.type == FieldDescriptor.TYPE_ENUM and value == (
                _undeclared_enum_value(field)
            )
            edit = _set_item(field.name, index, value)
            yield path, f"{where}: {field.name}[{index}] = {value!r}", edit, malformed


def _clear(name: str) -> Edit:
    return lambda m: m.ClearField(name)


def _switch(member: FieldDescriptor) -> Edit:
    def edit(m: Message) -> None:
        if member.message_type is not None:
            getattr(m, member.name).SetInParent()
        elif member.type == FieldDescriptor.TYPE_BOOL:
            setattr(m, member.name, True)
        elif member.type in (FieldDescriptor.TYPE_STRING,):
            setattr(m, member.name, "?")
        elif member.type == FieldDescriptor.TYPE_BYTES:
            setattr(m, member.name, b"?")
        else:
            setattr(m, member.name, 1)

    return edit


def _set(name: str, value: ScalarValue) -> Edit:
    return lambda m: setattr(m, name, value)


def _remove(name: str, index: int) -> Edit:
    return lambda m: getattr(m, name).__delitem__(index)


def _duplicate(name: str) -> Edit:
    def edit(m: Message) -> None:
        values = getattr(m, name)
        if isinstance(values[0], Message):
            values.add().CopyFrom(values[0])
        else:
            values.append(values[0])

    return edit


def _add_message(name: str) -> Edit:
    return lambda m: getattr(m, name).add()


def _append(name: str, value: ScalarValue) -> Edit:
    return lambda m: getattr(m, name).append(value)


def _set_item(name: str, index: int, value: ScalarValue) -> Edit:
    return lambda m: getattr(m, name).__setitem__(index, value)


def mutants(move: Message, chooser: random.Random, limit: int) -> list[Mutant]:
    """Up to ``limit`` distinct moves that each differ from ``move`` in one field
    (a scalar or enum value changed, a repeated entry removed/added/changed, a
    present field or oneof cleared, another oneof member chosen), sampled with
    ``chooser``."""
    edits = list(_edits(move, ()))
    chooser.shuffle(edits)
    out: list[Mutant] = []
    seen = {encode(move)}
    for path, what, edit, malformed in edits:
        copy = type(move)()
        copy.CopyFrom(move)
        try:
            edit(_navigate(copy, path))
        except (ValueError, TypeError):
            continue  # a value this runtime refuses to hold (e.g. a closed enum)
        data = encode(copy)
        if data in seen:
            continue
        seen.add(data)
        out.append(Mutant(copy, what, malformed))
        if len(out) >= limit:
            break
    return out
