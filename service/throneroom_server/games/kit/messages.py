"""What the kit reads from a game's move messages, whatever the game.

* the move's kind: the set field of the move message's oneof (a move message
  without a oneof has one kind);
* whether it is malformed whatever the state: empty, or holding an enum value
  its enum does not declare (proto3 enums are open, so such values parse);
* its sort key, derived from the fields in field-number order when the game
  does not write its own ``move_key``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import cast

from google.protobuf.descriptor import Descriptor, FieldDescriptor
from google.protobuf.message import Message

Key = tuple[int, ...]
"""A move's sort key: ``legal_moves`` lists moves in ascending key order."""

_INTEGRAL = frozenset(
    {
        FieldDescriptor.TYPE_INT32,
        FieldDescriptor.TYPE_INT64,
        FieldDescriptor.TYPE_UINT32,
        FieldDescriptor.TYPE_UINT64,
        FieldDescriptor.TYPE_SINT32,
        FieldDescriptor.TYPE_SINT64,
        FieldDescriptor.TYPE_FIXED32,
        FieldDescriptor.TYPE_FIXED64,
        FieldDescriptor.TYPE_SFIXED32,
        FieldDescriptor.TYPE_SFIXED64,
        FieldDescriptor.TYPE_BOOL,
        FieldDescriptor.TYPE_ENUM,
    }
)


def descriptor(message: Message | type[Message]) -> Descriptor:
    # The upb backend's descriptors are typed apart from the pure-Python ones.
    return cast(Descriptor, message.DESCRIPTOR)


def kinds_oneof(move_cls: type[Message]) -> str | None:
    """The name of the oneof whose fields are the move kinds, or None when the
    move message has none. More than one (real) oneof is ambiguous: TypeError."""
    oneofs = [
        o.name
        for o in descriptor(move_cls).oneofs
        if not (len(o.fields) == 1 and o.fields[0].has_presence and o.name.startswith("_"))
    ]
    if len(oneofs) > 1:
        raise TypeError(
            f"{move_cls.DESCRIPTOR.name} has several oneofs ({', '.join(oneofs)}): the kit "
            "reads the move kind from exactly one"
        )
    return oneofs[0] if oneofs else None


def oneof_kinds(move_cls: type[Message]) -> tuple[str, ...]:
    """The move kinds a move message can carry: its oneof's fields, in order."""
    oneof = kinds_oneof(move_cls)
    if oneof is None:
        return ()
    return tuple(f.name for f in descriptor(move_cls).oneofs_by_name[oneof].fields)


def undeclared_enum(message: Message, where: str = "") -> str | None:
    """The path of the first enum value in ``message`` its enum does not declare,
    or None (checks nested messages too)."""
    for field, value in message.ListFields():
        path = f"{where}{field.name}"
        if field.type == FieldDescriptor.TYPE_ENUM:
            enum = field.enum_type
            assert enum is not None
            values = value if field.is_repeated else [value]
            for item in values:
                if item not in enum.values_by_number:
                    return f"{path} = {item} (not a {enum.name})"
        elif field.type == FieldDescriptor.TYPE_MESSAGE:
            assert field.message_type is not None
            if field.message_type.GetOptions().map_entry:
                continue
            children = value if field.is_repeated else [value]
            for child in children:
                found = undeclared_enum(child, f"{path}.")
                if found is not None:
                    return found
    return None


_ENUM_CHECKERS: dict[str, Callable[[Message], str | None]] = {}


def enum_checker(move_cls: type[Message]) -> Callable[[Message], str | None]:
    """:func:`undeclared_enum` for one message class, specialised once (and
    cached): it visits only the fields that can hold an enum value at some
    depth, in field-number order, and finds the same first undeclared value
    (an unset field holds its default, which proto3 always declares)."""
    desc = descriptor(move_cls)
    found = _ENUM_CHECKERS.get(desc.full_name)
    if found is None:
        found = _ENUM_CHECKERS[desc.full_name] = _specialised_enum_check(desc, "")
    return found


def _specialised_enum_check(desc: Descriptor, where: str) -> Callable[[Message], str | None]:
    checks: list[Callable[[Message], str | None]] = []
    # The fields of a (real) oneof with several fields to check are checked by
    # one look at which is set: at most one of them holds anything (an unset
    # one holds a declared default).
    by_oneof: dict[str, dict[str, Callable[[Message], str | None]]] = {}
    crowded = _crowded_oneofs(desc)
    for field in sorted(desc.fields, key=lambda f: f.number):
        path = f"{where}{field.name}"
        if field.type == FieldDescriptor.TYPE_ENUM:
            assert field.enum_type is not None
            one = _enum_field_check(field, path, field.enum_type.name)
        elif field.type == FieldDescriptor.TYPE_MESSAGE:
            assert field.message_type is not None
            if field.message_type.GetOptions().map_entry or not _has_enums(
                field.message_type, set()
            ):
                continue
            one = _message_field_check(field, path)
        else:
            continue
        oneof = field.containing_oneof
        if oneof is None or oneof.name not in crowded:
            checks.append(one)
            continue
        members = by_oneof.get(oneof.name)
        if members is None:
            members = by_oneof[oneof.name] = {}
            checks.append(_oneof_check(oneof.name, members))
        members[field.name] = one

    def check(message: Message) -> str | None:
        for one in checks:
            found = one(message)
            if found is not None:
                return found
        return None

    return check


ONEOF_DISPATCH_FROM = 3
"""Fields to check in one oneof from which one ``WhichOneof`` costs less than
looking at each (measured on the three games' moves)."""


def _crowded_oneofs(desc: Descriptor) -> frozenset[str]:
    """The oneofs of ``desc`` with at least ``ONEOF_DISPATCH_FROM`` fields that
    can hold an enum value (a proto3 ``optional`` field's own oneof never has)."""
    counts: dict[str, int] = {}
    for field in desc.fields:
        oneof = field.containing_oneof
        if oneof is None:
            continue
        holds = field.type == FieldDescriptor.TYPE_ENUM or (
            field.type == FieldDescriptor.TYPE_MESSAGE
            and field.message_type is not None
            and not field.message_type.GetOptions().map_entry
            and _has_enums(field.message_type, set())
        )
        counts[oneof.name] = counts.get(oneof.name, 0) + holds
    return frozenset(name for name, n in counts.items() if n >= ONEOF_DISPATCH_FROM)


def _oneof_check(
    oneof: str, members: dict[str, Callable[[Message], str | None]]
) -> Callable[[Message], str | None]:
    """The check of the oneof's field that is set (``members``: by field name,
    filled after this is made), or None when none of those is set."""

    def check(message: Message) -> str | None:
        which = message.WhichOneof(oneof)
        one = members.get(which) if which is not None else None
        return one(message) if one is not None else None

    return check


def _enum_field_check(
    field: FieldDescriptor, path: str, enum_name: str
) -> Callable[[Message], str | None]:
    assert field.enum_type is not None
    declared = frozenset(field.enum_type.values_by_number)
    name = field.name
    if field.is_repeated:

        def repeated(message: Message) -> str | None:
            for item in getattr(message, name):
                if item not in declared:
                    return f"{path} = {item} (not a {enum_name})"
            return None

        return repeated

    def singular(message: Message) -> str | None:
        value = getattr(message, name)
        return None if value in declared else f"{path} = {value} (not a {enum_name})"

    return singular


def _message_field_check(field: FieldDescriptor, path: str) -> Callable[[Message], str | None]:
    assert field.message_type is not None
    # Built on first use: a message type may contain itself.
    inner: list[Callable[[Message], str | None]] = []
    child_desc = field.message_type
    name = field.name

    def child_check(child: Message) -> str | None:
        if not inner:
            inner.append(_specialised_enum_check(child_desc, f"{path}."))
        return inner[0](child)

    if field.is_repeated:

        def repeated(message: Message) -> str | None:
            for child in getattr(message, name):
                found = child_check(child)
                if found is not None:
                    return found
            return None

        return repeated

    def singular(message: Message) -> str | None:
        return child_check(getattr(message, name)) if message.HasField(name) else None

    return singular


def has_enums(move_cls: type[Message]) -> bool:
    """Whether the message can hold an enum value at any depth (else
    :func:`undeclared_enum` has nothing to find)."""
    return _has_enums(descriptor(move_cls), set())


def _has_enums(desc: Descriptor, seen: set[str]) -> bool:
    if desc.full_name in seen:
        return False
    seen.add(desc.full_name)
    for field in desc.fields:
        if field.type == FieldDescriptor.TYPE_ENUM:
            return True
        if field.type == FieldDescriptor.TYPE_MESSAGE:
            assert field.message_type is not None
            if _has_enums(field.message_type, seen):
                return True
    return False


def check_keyable(move_cls: type[Message]) -> None:
    """TypeError unless :func:`derived_key` can order this move message (only
    integer, bool and enum fields, and messages of them)."""
    _check_keyable(descriptor(move_cls), move_cls.DESCRIPTOR.name, set())


def _check_keyable(desc: Descriptor, where: str, seen: set[str]) -> None:
    if desc.full_name in seen:
        raise TypeError(f"{where}: a recursive move message needs its own move_key")
    seen = seen | {desc.full_name}
    for field in desc.fields:
        if field.type == FieldDescriptor.TYPE_MESSAGE:
            assert field.message_type is not None
            _check_keyable(field.message_type, f"{where}.{field.name}", seen)
        elif field.type not in _INTEGRAL:
            raise TypeError(
                f"{where}.{field.name} is not an integer, bool or enum: write the game's "
                "move_key yourself"
            )


def derived_key(message: Message) -> Key:
    """A sort key read from the fields in field-number order: for a oneof, the
    position of the set field, then that field's key; a field with presence adds
    0 (unset) or 1 before its value; a repeated field adds its length before its
    items. Distinct well-formed moves of one game get distinct keys."""
    return key_function(type(message))(message)


_KEY_FUNCTIONS: dict[str, Callable[[Message], Key]] = {}


def key_function(move_cls: type[Message]) -> Callable[[Message], Key]:
    """:func:`derived_key` for one message class, specialised once (and cached): a
    message of plain singular scalars is read field by field, without the walk."""
    desc = descriptor(move_cls)
    found = _KEY_FUNCTIONS.get(desc.full_name)
    if found is None:
        found = _KEY_FUNCTIONS[desc.full_name] = _specialised_key(desc)
    return found


def _specialised_key(desc: Descriptor) -> Callable[[Message], Key]:
    plain = all(
        not f.is_repeated
        and not f.has_presence
        and f.type != FieldDescriptor.TYPE_MESSAGE
        and f.containing_oneof is None
        for f in desc.fields
    )
    if plain and desc.fields:
        names = [f.name for f in sorted(desc.fields, key=lambda f: f.number)]
        if len(names) == 1:
            name = names[0]

            def one(message: Message) -> Key:
                return (int(getattr(message, name)),)

            return one

        def several(message: Message) -> Key:
            return tuple(int(getattr(message, n)) for n in names)

        return several

    def general(message: Message) -> Key:
        out: list[int] = []
        _key_into(message, out)
        return tuple(out)

    return general


def _key_into(message: Message, out: list[int]) -> None:
    desc = descriptor(message)
    for oneof in desc.oneofs:
        if len(oneof.fields) == 1 and oneof.name.startswith("_"):
            continue  # a proto3 `optional` field: handled with the fields
        chosen = message.WhichOneof(oneof.name)
        names = [f.name for f in oneof.fields]
        out.append(names.index(chosen) if chosen else -1)
    for field in sorted(desc.fields, key=lambda f: f.number):
        real_oneof = field.containing_oneof is not None and not (
            len(field.containing_oneof.fields) == 1 and field.containing_oneof.name.startswith("_")
        )
        value = getattr(message, field.name)
        if real_oneof:
            if message.HasField(field.name):
                _value_into(field, value, out)
            continue
        if field.is_repeated:
            out.append(len(value))
            for item in value:
                _value_into(field, item, out)
            continue
        if field.has_presence:
            present = message.HasField(field.name)
            out.append(int(present))
            if present:
                _value_into(field, value, out)
            continue
        _value_into(field, value, out)


def _value_into(field: FieldDescriptor, value: object, out: list[int]) -> None:
    if field.type == FieldDescriptor.TYPE_MESSAGE:
        _key_into(cast(Message, value), out)
    else:
        out.append(int(cast(int, value)))
