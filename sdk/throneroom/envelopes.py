"""The game envelopes: wrapping a game's own messages and unwrapping them.

Every game-specific message travels inside one of five envelopes of
``throneroom.v1`` (``GameOptions``, ``Move``, ``Event``, ``View`` and, inside
the service only, ``GameState``). Each envelope has one oneof ``game`` whose
field name is the game's registered name (``"nim"``, ``"king_is_dead"`` ...),
so a game type *is* a field name::

    >>> move = wrap_move("nim", nim_pb2.NimMove(take=2))
    >>> move.WhichOneof("game")
    'nim'
    >>> unwrap(move)
    take: 2

Typed code names a game's five messages once, as a :class:`GameMessages`, and
wraps and unwraps through it with the game's own types (no ``getattr``, no
``Any``)::

    NIM = GameMessages("nim", NimOptions, NimState, NimMove, NimEvent, NimView)
    envelope = NIM.wrap_move(NimMove(take=2))      # a throneroom.v1.Move
    move: NimMove = NIM.unwrap_move(envelope)      # WrongGameError if another game's

``GameMessages.of(name)`` gives the same helpers for any game in game.proto,
typed with plain ``Message``. The rules engines of the server use these very
helpers (the engine kit declares each game's ``GameMessages``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TypeVar

from google.protobuf import descriptor, text_format
from google.protobuf.message import Message

from throneroom.games.messages import (
    ENVELOPES,
    GAME_ONEOF,
    GameMessages,
    WrongGameError,
    envelope_field,
    field_named,
    game_type_of,
    game_types_of,
    message_class,
)
from throneroom.v1 import game_pb2

__all__ = [
    "ENVELOPES",
    "GAME_ONEOF",
    "GameMessages",
    "WrongGameError",
    "game_type_of",
    "game_types_of",
    "message_class",
    "one_line",
    "parse_option_assignments",
    "parse_text",
    "set_option",
    "unwrap",
    "wrap",
    "wrap_move",
    "wrap_options",
]

Envelope = TypeVar("Envelope", game_pb2.Move, game_pb2.GameOptions, game_pb2.View, game_pb2.Event)

OptionValue = bool | int | float | str


def wrap(envelope_cls: type[Envelope], game_type: str, message: Message | None) -> Envelope:
    """Put a game's own message into the envelope's ``game_type`` entry.

    ``None`` gives an envelope with an empty entry (for options: the defaults).
    Raises ``TypeError`` when the message is not the game's message for this
    envelope (a ``NimMove`` cannot be a ``king_is_dead`` move).
    """
    field = envelope_field(envelope_cls, game_type)
    envelope = envelope_cls()
    entry: Message = getattr(envelope, game_type)
    if message is None:
        entry.SetInParent()
        return envelope
    if isinstance(message, envelope_cls):
        if game_type_of(message) != game_type:
            raise TypeError(
                f"a {game_type_of(message) or 'empty'} {envelope_cls.DESCRIPTOR.name} "
                f"is not a {game_type} one"
            )
        envelope.CopyFrom(message)
        return envelope
    assert field.message_type is not None
    if message.DESCRIPTOR.full_name != field.message_type.full_name:
        raise TypeError(
            f"{game_type} expects a {field.message_type.name} in its "
            f"{envelope_cls.DESCRIPTOR.name}, not a {message.DESCRIPTOR.name}"
        )
    entry.CopyFrom(message)
    return envelope


def wrap_move(game_type: str, move: Message) -> game_pb2.Move:
    """A ``Move`` envelope for a game's move message (or a copy of a ``Move``)."""
    return wrap(game_pb2.Move, game_type, move)


def wrap_options(
    game_type: str, options: Message | Mapping[str, OptionValue] | None = None
) -> game_pb2.GameOptions:
    """A ``GameOptions`` envelope from a game's options message, a mapping or ``None``.

    A mapping sets fields by name (``{"pile": 7}``), converting strings the way
    :func:`set_option` does; ``None`` or ``{}`` selects the game's defaults.
    """
    if options is None or isinstance(options, Message):
        return wrap(game_pb2.GameOptions, game_type, options)
    envelope = wrap(game_pb2.GameOptions, game_type, None)
    entry: Message = getattr(envelope, game_type)
    for name, value in options.items():
        set_option(entry, name, value)
    return envelope


def unwrap(envelope: Message) -> Message:
    """The game's own message inside an envelope (``Move``, ``View``, ``Event`` ...)."""
    game_type = game_type_of(envelope)
    if not game_type:
        raise ValueError(f"empty {envelope.DESCRIPTOR.name} envelope: it carries no game")
    entry: Message = getattr(envelope, game_type)
    return entry


_INT_TYPES = {
    descriptor.FieldDescriptor.TYPE_INT32,
    descriptor.FieldDescriptor.TYPE_INT64,
    descriptor.FieldDescriptor.TYPE_UINT32,
    descriptor.FieldDescriptor.TYPE_UINT64,
    descriptor.FieldDescriptor.TYPE_SINT32,
    descriptor.FieldDescriptor.TYPE_SINT64,
    descriptor.FieldDescriptor.TYPE_FIXED32,
    descriptor.FieldDescriptor.TYPE_FIXED64,
    descriptor.FieldDescriptor.TYPE_SFIXED32,
    descriptor.FieldDescriptor.TYPE_SFIXED64,
}
_FLOAT_TYPES = {descriptor.FieldDescriptor.TYPE_FLOAT, descriptor.FieldDescriptor.TYPE_DOUBLE}
_TRUE = {"true", "yes", "on", "1"}
_FALSE = {"false", "no", "off", "0"}


def _scalar(field: descriptor.FieldDescriptor, value: OptionValue) -> OptionValue:
    """``value`` converted to what ``field`` holds; ``ValueError`` with a sentence if it cannot."""
    where = f"option {field.name}"
    if field.type == descriptor.FieldDescriptor.TYPE_BOOL:
        if isinstance(value, bool):
            return value
        text = str(value).strip().lower()
        if text in _TRUE | _FALSE:
            return text in _TRUE
        raise ValueError(f"{where} is true or false, not {value!r}")
    if field.type == descriptor.FieldDescriptor.TYPE_ENUM:
        enum = field.enum_type
        assert enum is not None
        if isinstance(value, int) and not isinstance(value, bool):
            if value in enum.values_by_number:
                return value
        else:
            text = str(value).strip()
            candidates = {text, text.upper(), f"{enum.name}_{text}".upper()}
            for name in candidates:
                if name in enum.values_by_name:
                    return enum.values_by_name[name].number
            if text.lstrip("-").isdigit() and int(text) in enum.values_by_number:
                return int(text)
        names = ", ".join(v.name for v in enum.values)
        raise ValueError(f"{where} is one of {names}, not {value!r}")
    if field.type in _INT_TYPES:
        if isinstance(value, bool | float):
            raise ValueError(f"{where} is a whole number, not {value!r}")
        try:
            return int(value, 0) if isinstance(value, str) else int(value)
        except ValueError:
            raise ValueError(f"{where} is a whole number, not {value!r}") from None
    if field.type in _FLOAT_TYPES:
        try:
            return float(value)
        except ValueError:
            raise ValueError(f"{where} is a number, not {value!r}") from None
    if field.type == descriptor.FieldDescriptor.TYPE_STRING:
        return str(value)
    raise ValueError(f"{where} cannot be set from a command line value")


def set_option(options: Message, name: str, value: OptionValue) -> None:
    """Set one field of a game's options message from a Python or text value.

    Booleans accept true/false/yes/no/on/off/1/0, enums their value name (with
    or without the enum's prefix, any case) or number, integers decimal or
    ``0x`` hex, repeated scalar fields a comma-separated list. Nested message
    fields are set with a dotted name (``"scoring.bonus=3"``). Raises
    ``ValueError`` with a sentence naming the option.
    """
    head, _, rest = name.partition(".")
    field = field_named(options, head)
    if field is None:
        known = ", ".join(f.name for f in options.DESCRIPTOR.fields) or "none"
        raise ValueError(f"{options.DESCRIPTOR.name} has no option {head!r} (its options: {known})")
    if field.type == descriptor.FieldDescriptor.TYPE_MESSAGE:
        if not rest or field.is_repeated:
            raise ValueError(f"option {head} is a group of options: set {head}.<name>=value")
        set_option(getattr(options, head), rest, value)
        return
    if rest:
        raise ValueError(f"option {head} has no sub-option {rest!r}")
    if field.is_repeated:
        items = (
            [v for v in str(value).split(",") if v.strip()] if isinstance(value, str) else [value]
        )
        container = getattr(options, head)
        del container[:]
        container.extend(_scalar(field, v) for v in items)
        return
    setattr(options, head, _scalar(field, value))


def parse_option_assignments(assignments: list[str]) -> dict[str, str]:
    """``["pile=7", "max_take=2"]`` -> ``{"pile": "7", "max_take": "2"}``.

    Raises ``ValueError`` for an item without ``=``.
    """
    result: dict[str, str] = {}
    for item in assignments:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise ValueError(f"an option is written name=value, not {item!r}")
        result[key.strip()] = value.strip()
    return result


def parse_text(cls: type[Message], text: str) -> Message:
    """A message parsed from protobuf text format (``"take: 2"``); ``ValueError`` if bad."""
    message = cls()
    try:
        text_format.Parse(text, message)
    except text_format.ParseError as err:
        raise ValueError(f"not a {cls.DESCRIPTOR.name} in text format ({err})") from None
    return message


def one_line(message: Message) -> str:
    """A message in protobuf text format on one line (``"take: 2"``)."""
    return text_format.MessageToString(message, as_one_line=True)
