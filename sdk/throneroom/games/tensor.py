"""A seat's view as a fixed-size vector of numbers, for learning agents.

:class:`ViewTensor` reads nothing but the game's own view message (what
``view(state, seat)`` gives a seat), so an agent trained on it knows only
what its seat may know. The layout follows the view's descriptor, field by
field in declaration order:

* a number or a bool: one slot, its value;
* an enum: one slot per value of the enum, 1 at the value's (one-hot);
* an ``optional`` scalar: a presence slot (1 when set) then its slots;
* a nested message: its fields' slots, in order;
* a repeated field: a count slot, then ``bounds[path]`` elements' slots
  (zeros past the count; the elements past the bound are left out, the count
  still says how many there are: each game's bounds keep every element its
  rules allow, or say in docs/rl.md what they leave out);
* strings: no slot (views carry none that a seat must read).

``path`` names a field by its names from the view down, joined by dots
(``players.display``). ``layout`` lists ``(path, offset, width)`` for every
field, which docs/rl.md prints per game::

    >>> from throneroom.v1 import king_is_dead_pb2 as pb
    >>> tensor = ViewTensor(pb.Followers)
    >>> tensor.size, tensor.encode(pb.Followers(scots=2, welsh=1))[:2]
    (4, [2.0, 1.0])
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, MutableSequence
from dataclasses import dataclass
from typing import Any

from google.protobuf.descriptor import Descriptor, FieldDescriptor
from google.protobuf.message import Message

__all__ = ["ViewTensor"]

Out = MutableSequence[float]
Writer = Callable[[Any, Out, int], None]


@dataclass(frozen=True)
class Slot:
    path: str
    offset: int
    width: int


class ViewTensor:
    """The vector of one game's views (see the module docstring)."""

    def __init__(
        self,
        view_type: type[Message],
        bounds: Mapping[str, int] | None = None,
        skip: frozenset[str] = frozenset(),
    ) -> None:
        self.view_type = view_type
        self.bounds = dict(bounds or {})
        self.skip = skip
        self.layout: list[Slot] = []
        self._writer, self.size = self._message(view_type.DESCRIPTOR, "", 0)  # type: ignore[arg-type]  # upb's descriptor is the same class
        unused = set(self.bounds) - {slot.path for slot in self.layout}
        if unused:
            raise ValueError(f"bounds name no repeated field: {sorted(unused)}")

    def encode(self, view: Message) -> list[float]:
        """The view's vector, as a list of floats."""
        out = [0.0] * self.size
        self._writer(view, out, 0)
        return out

    def encode_into(self, view: Message, out: Out) -> None:
        """Write the view's vector into ``out`` (``size`` zeros, e.g. a numpy array)."""
        self._writer(view, out, 0)

    # -- building the writers ----------------------------------------------------------

    def _message(self, descriptor: Descriptor, prefix: str, offset: int) -> tuple[Writer, int]:
        writers: list[Writer] = []
        for field in descriptor.fields:
            path = f"{prefix}{field.name}"
            if path in self.skip or field.type == FieldDescriptor.TYPE_STRING:
                continue
            if field.type == FieldDescriptor.TYPE_BYTES:
                continue
            if field.is_repeated:
                writer, offset = self._repeated(field, path, offset)
            else:
                writer, offset = self._single(field, path, offset)
            writers.append(writer)

        def write(message: Any, out: Out, base: int) -> None:
            for writer in writers:
                writer(message, out, base)

        return write, offset

    def _element(self, field: FieldDescriptor, path: str, offset: int) -> tuple[Writer, int]:
        """A writer of one value of ``field`` (not its presence) at ``offset``."""
        if field.message_type is not None:
            inner, end = self._message(field.message_type, f"{path}.", offset)
            return inner, end
        if field.enum_type is not None:
            index = {v.number: i for i, v in enumerate(field.enum_type.values)}
            at = offset

            def one_hot(value: Any, out: Out, base: int) -> None:
                out[base + at + index[value]] = 1.0

            return one_hot, offset + len(index)
        at = offset

        def number(value: Any, out: Out, base: int) -> None:
            out[base + at] = float(value)

        return number, offset + 1

    def _single(self, field: FieldDescriptor, path: str, offset: int) -> tuple[Writer, int]:
        name = field.name
        start = offset
        if field.has_presence and field.message_type is None:
            element, end = self._element(field, path, offset + 1)

            def optional(message: Any, out: Out, base: int) -> None:
                if message.HasField(name):
                    out[base + start] = 1.0
                    element(getattr(message, name), out, base)

            self.layout.append(Slot(path, start, end - start))
            return optional, end
        element, end = self._element(field, path, offset)

        def single(message: Any, out: Out, base: int) -> None:
            element(getattr(message, name), out, base)

        if field.message_type is None:
            self.layout.append(Slot(path, start, end - start))
        return single, end

    def _repeated(self, field: FieldDescriptor, path: str, offset: int) -> tuple[Writer, int]:
        bound = self.bounds.get(path)
        if bound is None:
            raise ValueError(f"{self.view_type.__name__}: no bound for repeated {path}")
        name = field.name
        start = offset
        element, end = self._element(field, path, offset + 1)
        width = end - offset - 1
        end = offset + 1 + bound * width

        def repeated(message: Any, out: Out, base: int) -> None:
            values = getattr(message, name)
            out[base + start] = float(len(values))
            for i, value in enumerate(values[:bound]):
                element(value, out, base + i * width)

        self.layout.append(Slot(path, start, end - start))
        return repeated, end
