"""The kit's KeyedMoves: the legal moves as keys, messages built on access."""

from __future__ import annotations

from throneroom.v1 import nim_pb2
from throneroom_server.games.core import InvalidMoveError
from throneroom_server.games.kit import Key, KeyedMoves

built: list[Key] = []


def _from_key(key: Key) -> nim_pb2.NimMove:
    built.append(key)
    return nim_pb2.NimMove(take=key[0])


def _key_of(move: nim_pb2.NimMove) -> Key:
    if move.take <= 0:
        raise InvalidMoveError("take at least one stone")
    return (move.take,)


class Takes(KeyedMoves[nim_pb2.NimMove]):
    __slots__ = ()
    message = nim_pb2.NimMove
    from_key = staticmethod(_from_key)
    key_of = staticmethod(_key_of)


def test_messages_are_built_only_when_read() -> None:
    built.clear()
    moves = Takes([(1,), (2,), (3,)])
    assert len(moves) == 3 and built == []
    assert moves[1] == nim_pb2.NimMove(take=2) and built == [(2,)]
    assert list(moves) == [nim_pb2.NimMove(take=n) for n in (1, 2, 3)]
    assert moves[1:] == [nim_pb2.NimMove(take=2), nim_pb2.NimMove(take=3)]


def test_membership_is_the_listed_message() -> None:
    moves = Takes([(1,), (3,)])
    assert nim_pb2.NimMove(take=3) in moves
    assert nim_pb2.NimMove(take=2) not in moves  # not listed
    assert nim_pb2.NimMove(take=0) not in moves  # malformed
    assert nim_pb2.NimOptions(pile=3) not in moves  # another message
    padded = nim_pb2.NimMove(take=3)
    padded.MergeFromString(b"\xf8\x3f\x01")  # an unknown field 1023
    assert padded not in moves


def test_equality() -> None:
    assert Takes([(1,), (2,)]) == Takes([(1,), (2,)])
    assert Takes([(1,), (2,)]) == [nim_pb2.NimMove(take=1), nim_pb2.NimMove(take=2)]
    assert Takes([(1,)]) != [nim_pb2.NimMove(take=2)]
    assert repr(Takes([(1,)])) == "Takes(1 moves)"
