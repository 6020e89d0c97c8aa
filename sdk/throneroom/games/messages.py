"""A game's five messages, typed, and their envelopes (game.proto).

Every game-specific message travels inside one of five envelopes of
``throneroom.v1`` (``GameOptions``, ``GameState``, ``Move``, ``Event``,
``View``), each with one oneof ``game`` whose field name is the game's
registered name. :class:`GameMessages` names one game's five message classes
once (checked against game.proto) and wraps and unwraps with their own types.

This module imports only the generated messages and the protobuf runtime, so
the server's rules engines share it with the SDK; ``throneroom.envelopes``
re-exports it with the SDK's untyped helpers.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Generic, TypeVar, cast

from google.protobuf import descriptor
from google.protobuf.message import Message

from throneroom.v1 import game_pb2

GAME_ONEOF = "game"

OptionsT = TypeVar("OptionsT", bound=Message)
StateT = TypeVar("StateT", bound=Message)
MoveT = TypeVar("MoveT", bound=Message)
EventT = TypeVar("EventT", bound=Message)
ViewT = TypeVar("ViewT", bound=Message)

ENVELOPES: tuple[type[Message], ...] = (
    game_pb2.GameOptions,
    game_pb2.GameState,
    game_pb2.Move,
    game_pb2.Event,
    game_pb2.View,
)
"""The five envelopes, in the order of GameMessages' fields."""


class WrongGameError(ValueError):
    """An envelope that carries another game's message, or none at all.

    ``expected`` is the game type asked for; ``given`` the one the envelope
    carries (``""`` for an empty envelope)."""

    def __init__(self, envelope: Message, expected: str) -> None:
        self.expected = expected
        self.given = game_type_of(envelope)
        kind = envelope.DESCRIPTOR.name
        if self.given:
            text = f"this game is {expected!r}; a {self.given!r} {kind} does not apply to it"
        else:
            text = f"the {kind} is empty: set its {expected!r} entry"
        super().__init__(text)


@dataclass(frozen=True)
class GameMessages(Generic[OptionsT, StateT, MoveT, EventT, ViewT]):
    """One game type's five messages, and typed wrapping into and out of the
    envelopes of game.proto.

    Construction checks the classes against game.proto: each must be the
    message of the envelope entry named ``name`` (``TypeError`` otherwise), so a
    game whose messages and envelope entries disagree fails at import.
    """

    name: str
    options: type[OptionsT]
    state: type[StateT]
    move: type[MoveT]
    event: type[EventT]
    view: type[ViewT]

    def __post_init__(self) -> None:
        classes: tuple[type[Message], ...] = (
            self.options,
            self.state,
            self.move,
            self.event,
            self.view,
        )
        for envelope_cls, cls in zip(ENVELOPES, classes, strict=True):
            field = field_named(envelope_cls, self.name)
            envelope_name = envelope_cls.DESCRIPTOR.name
            if field is None or field.containing_oneof is None or field.message_type is None:
                raise TypeError(f"game.proto's {envelope_name} has no entry named {self.name!r}")
            if cls.DESCRIPTOR.full_name != field.message_type.full_name:
                raise TypeError(
                    f"{self.name}: game.proto's {envelope_name}.{self.name} is a "
                    f"{field.message_type.full_name}, not a {cls.DESCRIPTOR.full_name}"
                )

    @staticmethod
    def of(name: str) -> GameMessages[Message, Message, Message, Message, Message]:
        """The messages of any game type in game.proto, derived from its entries
        (``ValueError`` for a name game.proto does not have)."""
        classes = [message_class(envelope_cls, name) for envelope_cls in ENVELOPES]
        return GameMessages(name, *classes)

    # -- wrapping ------------------------------------------------------------------

    def wrap_options(self, options: OptionsT | None = None) -> game_pb2.GameOptions:
        """A GameOptions envelope (an empty entry when ``options`` is None)."""
        envelope = game_pb2.GameOptions()
        entry = self._entry(envelope)
        if options is None:
            entry.SetInParent()
        else:
            entry.CopyFrom(options)
        return envelope

    def wrap_state(self, state: StateT) -> game_pb2.GameState:
        envelope = game_pb2.GameState()
        self._entry(envelope).CopyFrom(state)
        return envelope

    def wrap_move(self, move: MoveT) -> game_pb2.Move:
        envelope = game_pb2.Move()
        self._entry(envelope).CopyFrom(move)
        return envelope

    def wrap_event(self, event: EventT) -> game_pb2.Event:
        envelope = game_pb2.Event()
        self._entry(envelope).CopyFrom(event)
        return envelope

    def wrap_view(self, view: ViewT) -> game_pb2.View:
        envelope = game_pb2.View()
        self._entry(envelope).CopyFrom(view)
        return envelope

    # -- unwrapping ----------------------------------------------------------------
    # Each returns the entry itself (no copy): copy it before changing it.

    def unwrap_options(self, envelope: game_pb2.GameOptions) -> OptionsT:
        return cast(OptionsT, self._carried(envelope))

    def unwrap_state(self, envelope: game_pb2.GameState) -> StateT:
        return cast(StateT, self._carried(envelope))

    def unwrap_move(self, envelope: game_pb2.Move) -> MoveT:
        return cast(MoveT, self._carried(envelope))

    def unwrap_event(self, envelope: game_pb2.Event) -> EventT:
        return cast(EventT, self._carried(envelope))

    def unwrap_view(self, envelope: game_pb2.View) -> ViewT:
        return cast(ViewT, self._carried(envelope))

    def _entry(self, envelope: Message) -> Message:
        entry: Message = getattr(envelope, self.name)
        return entry

    def _carried(self, envelope: Message) -> Message:
        if envelope.WhichOneof(GAME_ONEOF) != self.name:
            raise WrongGameError(envelope, self.name)
        return self._entry(envelope)


def varint(value: int) -> bytes:
    """``value`` (>= 0) as a protobuf base-128 varint: the length prefix of a
    length-delimited field, or a field's tag (``number << 3 | wire type``),
    for framing already serialized messages without building their parent
    (protobuf messages merge when their serializations are concatenated).
    One and two bytes (below 16,384: tags, most lengths) without the loop."""
    if 0 <= value < 0x80:
        return _ONE_BYTE[value]
    if value < 0x4000:
        return bytes((value & 0x7F | 0x80, value >> 7))
    out = bytearray()
    while value > 0x7F:
        out.append(value & 0x7F | 0x80)
        value >>= 7
    out.append(value)
    return bytes(out)


_ONE_BYTE = [bytes((value,)) for value in range(0x80)]
"""The varints of 0 to 127: one byte each."""


def game_types_of(envelope_cls: type[Message]) -> list[str]:
    """The game types an envelope class can carry, in field order."""
    return [f.name for f in envelope_cls.DESCRIPTOR.oneofs_by_name[GAME_ONEOF].fields]


def game_type_of(envelope: Message) -> str:
    """The game type an envelope carries, or ``""`` when it is empty."""
    return envelope.WhichOneof(GAME_ONEOF) or ""


def field_named(message: Message | type[Message], name: str) -> descriptor.FieldDescriptor | None:
    """The field of that name, or None. (The upb backend's descriptors are typed
    apart from the pure-Python ones.)"""
    desc = cast(descriptor.Descriptor, message.DESCRIPTOR)
    return desc.fields_by_name.get(name)


def envelope_field(envelope_cls: type[Message], game_type: str) -> descriptor.FieldDescriptor:
    """The envelope's oneof entry of a game type; ValueError naming the known ones."""
    field = field_named(envelope_cls, game_type)
    if field is None or field.containing_oneof is None:
        known = ", ".join(game_types_of(envelope_cls))
        raise ValueError(f"unknown game type {game_type!r} (this SDK knows: {known})")
    return field


def message_class(envelope_cls: type[Message], game_type: str) -> type[Message]:
    """The game's own message class inside an envelope, e.g. ``(Move, "nim") -> NimMove``."""
    envelope_field(envelope_cls, game_type)
    cls: type[Message] = type(getattr(envelope_cls(), game_type))
    return cls
