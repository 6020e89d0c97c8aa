"""Action codecs: a bijection between a game's moves and the integers ``0..N-1``.

Reinforcement-learning platforms (PettingZoo's ``Discrete(N)``, OpenSpiel's
``num_distinct_actions``) number a game's decisions. Each game's SDK package
declares its move space in ``actions.py`` as a list of :class:`Shape` (one or
more per kind of move, the oneof field of the game's move message), each a
product of :class:`Axis` (the values of one field, or of several fields taken
together when only some combinations can ever be legal). :class:`ActionCodec`
numbers them in order: shape after shape, and inside a shape in mixed radix,
the first axis most significant::

    >>> from throneroom.v1 import king_is_dead_pb2 as pb
    >>> codec = ActionCodec(
    ...     pb.KingIsDeadMove,
    ...     (Shape("pass_turn"),
    ...      Shape("summon", (Axis(("region",), [(r,) for r in range(1, 9)]),))),
    ... )
    >>> codec.size
    9
    >>> codec.encode(pb.KingIsDeadMove(summon=pb.KingIsDeadMove.Summon(region=3)))
    3
    >>> codec.decode(0) == pb.KingIsDeadMove(pass_turn=pb.KingIsDeadMove.Pass())
    True

A field's value is read as a Python value: a scalar, ``None`` for an unset
``optional`` field, a tuple for a repeated field, and a tuple of its fields for
a nested message (a square ``(row, col)``). Several shapes of one kind are told
apart by their first axis (the same field in each, disjoint values): King's
Life's ``play`` has one shape per kind of card choice, routed by ``card``.
``encode`` raises :class:`UnknownAction` for a move outside the declared space
(the round-trip test over every legal move of the conformance playouts proves
the space covers the game).
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from google.protobuf.message import Message

__all__ = ["ActionCodec", "Axis", "Shape", "UnknownAction"]

MoveT = TypeVar("MoveT", bound=Message)
Value = Hashable


class UnknownAction(ValueError):
    """A move outside the codec's declared space, or a number outside 0..N-1."""


@dataclass(frozen=True)
class Axis:
    """The values of ``fields`` (of the kind's sub-message) taken together."""

    fields: tuple[str, ...]
    values: Sequence[tuple[Value, ...]]
    index: dict[tuple[Value, ...], int] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        index = {value: i for i, value in enumerate(self.values)}
        if len(index) != len(self.values):
            raise ValueError(f"axis {self.fields} lists a value twice")
        object.__setattr__(self, "index", index)


@dataclass(frozen=True)
class Shape:
    """One kind of move (``kind``: the oneof field) as a product of axes."""

    kind: str
    axes: tuple[Axis, ...] = ()

    @property
    def size(self) -> int:
        size = 1
        for axis in self.axes:
            size *= len(axis.values)
        return size


def read_field(message: Message, name: str) -> Value:
    """A field as a Python value (see the module docstring)."""
    descriptor = message.DESCRIPTOR.fields_by_name[name]
    value = getattr(message, name)
    if descriptor.is_repeated:
        return tuple(value)
    if descriptor.has_presence and descriptor.message_type is None:
        return value if message.HasField(name) else None
    if descriptor.message_type is not None:
        return tuple(getattr(value, f.name) for f in descriptor.message_type.fields)
    return value  # type: ignore[no-any-return]


def write_field(message: Message, name: str, value: Any) -> None:
    descriptor = message.DESCRIPTOR.fields_by_name[name]
    if value is None:
        return
    if descriptor.is_repeated:
        getattr(message, name).extend(value)
    elif descriptor.message_type is not None:
        sub = getattr(message, name)
        names = [f.name for f in descriptor.message_type.fields]
        for field_name, v in zip(names, value, strict=True):
            setattr(sub, field_name, v)
    else:
        setattr(message, name, value)


class ActionCodec(Generic[MoveT]):
    """Moves of ``move_type`` <-> ``0..size-1`` over the declared shapes."""

    def __init__(self, move_type: type[MoveT], shapes: Iterable[Shape]) -> None:
        self.move_type = move_type
        self.shapes: tuple[Shape, ...] = tuple(shapes)
        self._oneof = move_type.DESCRIPTOR.oneofs[0].name
        self._offsets: list[int] = []
        self._routes: dict[str, dict[Value, int] | int] = {}
        offset = 0
        for number, shape in enumerate(self.shapes):
            self._offsets.append(offset)
            offset += shape.size
            self._route(number, shape)
        self.size = offset

    def _route(self, number: int, shape: Shape) -> None:
        known = self._routes.get(shape.kind)
        if known is None:
            self._routes[shape.kind] = number
            return
        if isinstance(known, int):
            known = self._by_first_value(known, {})
            self._routes[shape.kind] = known
        self._by_first_value(number, known)

    def _by_first_value(self, number: int, routes: dict[Value, int]) -> dict[Value, int]:
        axis = self.shapes[number].axes[0]
        if len(axis.fields) != 1:
            raise ValueError(f"{self.shapes[number].kind}: a routing axis names one field")
        for (value,) in axis.values:
            if value in routes:
                raise ValueError(f"{self.shapes[number].kind}: two shapes take {value!r}")
            routes[value] = number
        return routes

    def _shape_of(self, kind: str, sub: Message) -> int:
        route = self._routes.get(kind)
        if route is None:
            raise UnknownAction(f"no action for a {kind} move")
        if isinstance(route, int):
            return route
        first = self.shapes[next(iter(route.values()))].axes[0].fields[0]
        number = route.get(read_field(sub, first))
        if number is None:
            value = read_field(sub, first)
            raise UnknownAction(f"no action for a {kind} move with {first}={value}")
        return number

    def encode(self, move: MoveT) -> int:
        """The action number of ``move`` (:class:`UnknownAction` if none)."""
        kind = move.WhichOneof(self._oneof)
        if kind is None:
            raise UnknownAction("an empty move has no action")
        sub = getattr(move, kind)
        number = self._shape_of(kind, sub)
        code = 0
        for axis in self.shapes[number].axes:
            value = tuple(read_field(sub, name) for name in axis.fields)
            at = axis.index.get(value)
            if at is None:
                raise UnknownAction(f"{kind}: {dict(zip(axis.fields, value, strict=True))}")
            code = code * len(axis.values) + at
        return self._offsets[number] + code

    def decode(self, action: int) -> MoveT:
        """The move of action number ``action``."""
        if not 0 <= action < self.size:
            raise UnknownAction(f"action {action} is outside 0..{self.size - 1}")
        number = _last_at_most(self._offsets, action)
        shape = self.shapes[number]
        code = action - self._offsets[number]
        picks: list[tuple[Value, ...]] = []
        for axis in reversed(shape.axes):
            code, at = divmod(code, len(axis.values))
            picks.append(axis.values[at])
        move = self.move_type()
        sub = getattr(move, shape.kind)
        sub.SetInParent()
        for axis, value in zip(shape.axes, reversed(picks), strict=True):
            for name, v in zip(axis.fields, value, strict=True):
                write_field(sub, name, v)
        return move

    def mask(self, moves: Iterable[MoveT]) -> list[int]:
        """The action numbers of ``moves`` (e.g. the legal moves), in their order."""
        return [self.encode(move) for move in moves]


def _last_at_most(offsets: Sequence[int], value: int) -> int:
    low, high = 0, len(offsets) - 1
    while low < high:
        middle = (low + high + 1) // 2
        if offsets[middle] <= value:
            low = middle
        else:
            high = middle - 1
    return low
