"""Moves as keys: a move's sort key is its kind's field number, then its
fields; the busy phases (placement, movement) list keys and build a message
only when a move is read (``LazyMoves``), as King Is Dead does.

``move_key`` is the definition's sort key; ``move_from_key`` its inverse.
"""

from __future__ import annotations

from throneroom.v1 import kill_the_king_pb2 as pb

from throneroom_server.games.kit.keyed import KeyedMoves

Move = pb.KillTheKingMove
Key = tuple[int, ...]

_ONEOF = Move.DESCRIPTOR.oneofs_by_name["decision"]
NUMBER = {f.name: f.number for f in _ONEOF.fields}
NAME = {f.number: f.name for f in _ONEOF.fields}
_FIELDS = {
    f.name: tuple(g.name for g in (f.message_type.fields if f.message_type else ()))
    for f in _ONEOF.fields
}
PLACE, REINFORCE, STEP, ROTATE = (
    NUMBER["place"],
    NUMBER["reinforce"],
    NUMBER["step"],
    NUMBER["rotate"],
)
CLIMB, PREPARE_CLIMB, DISMOUNT = NUMBER["climb"], NUMBER["prepare_climb"], NUMBER["dismount"]
ATTACK, END_PHASE = NUMBER["attack"], NUMBER["end_phase"]
_SQUARED = ("place", "reinforce")


def move_key(move: Move) -> Key:
    """The sort key of a move: its kind's field number, then its fields in order."""
    kind = move.WhichOneof("decision")
    if kind is None:
        return (0,)
    number = NUMBER[kind]
    body = getattr(move, kind)
    if kind in _SQUARED:
        return (number, body.unit, body.square.row, body.square.col, body.facing)
    if kind == "attack":
        return (number, body.unit, body.target.row, body.target.col, body.level)
    return (number, *(int(getattr(body, f)) for f in _FIELDS[kind]))


def move_from_key(key: Key) -> Move:
    number, *values = key
    kind = NAME[number]
    move = Move()
    body = getattr(move, kind)
    body.SetInParent()
    if kind in _SQUARED:
        body.unit, body.square.row, body.square.col, body.facing = values
    elif kind == "attack":
        body.unit, body.target.row, body.target.col, body.level = values
    else:
        for name, value in zip(_FIELDS[kind], values, strict=True):
            setattr(body, name, value)
    return move


class LazyMoves(KeyedMoves[Move]):
    """Legal moves ascending by key; each message built when it is read."""

    __slots__ = ()

    message = Move
    from_key = staticmethod(move_from_key)
    key_of = staticmethod(move_key)
