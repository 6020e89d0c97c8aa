"""Legal moves as sort keys, each message built only when it is read.

Enumerating a seat's moves mostly means comparing and sorting small integer
tuples; most of the listed moves are never read (a bot reads one, the kit's
checked apply reads one). ``KeyedMoves`` holds the ascending keys and builds a
move message on access; a game subclasses it once, naming its move message and
its own ``from_key``/``key_of`` pair (class attributes: constructing one on the
enumeration's hot path stores only the keys)::

    class LegalMoves(KeyedMoves[Move]):
        __slots__ = ()
        message = Move
        from_key = staticmethod(move_from_key)
        key_of = staticmethod(key_of)
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Generic, TypeVar, overload

from google.protobuf.message import Message

from throneroom_server.games.core import InvalidMoveError
from throneroom_server.games.kit.messages import Key

MoveT = TypeVar("MoveT", bound=Message)


class KeyedMoves(Sequence[MoveT], Generic[MoveT]):
    """The legal moves of a seat, ascending by key; messages built on access.

    A move is in it when its key is listed and the message of that key equals
    it (so a move carrying unknown fields is not); a malformed move is not."""

    __slots__ = ("_keys",)

    message: type[MoveT]
    from_key: Callable[[Key], MoveT]
    key_of: Callable[[MoveT], Key]
    """A malformed move raises InvalidMoveError."""

    def __init__(self, keys: list[Key]) -> None:
        self._keys = keys

    @property
    def keys(self) -> list[Key]:
        """The keys, ascending (do not modify)."""
        return self._keys

    def __len__(self) -> int:
        return len(self._keys)

    @overload
    def __getitem__(self, index: int) -> MoveT: ...

    @overload
    def __getitem__(self, index: slice) -> list[MoveT]: ...

    def __getitem__(self, index: int | slice) -> MoveT | list[MoveT]:
        if isinstance(index, slice):
            return [self.from_key(k) for k in self._keys[index]]
        return self.from_key(self._keys[index])

    def __iter__(self) -> Iterator[MoveT]:
        from_key = self.from_key
        for key in self._keys:
            yield from_key(key)

    def __contains__(self, move: object) -> bool:
        if not isinstance(move, self.message):
            return False
        try:
            key = self.key_of(move)
        except InvalidMoveError:
            return False
        return key in self._keys and self.from_key(key) == move

    def __eq__(self, other: object) -> bool:
        if isinstance(other, KeyedMoves):
            return bool(self._keys == other._keys)
        if isinstance(other, list | tuple):
            return len(other) == len(self._keys) and all(
                a == b for a, b in zip(self, other, strict=True)
            )
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"{type(self).__name__}({len(self._keys)} moves)"
