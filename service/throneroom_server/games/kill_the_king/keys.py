"""Moves as keys: a move's sort key is its kind's field number, then its
fields; the busy phases (placement, movement) list keys and build a message
only when a move is read (``LazyMoves``), as King Is Dead does.

``move_key`` is the definition's sort key; ``move_from_key`` its inverse.
"""

from __future__ import annotations

from collections.abc import Callable

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
    if kind in _UNIT_AND:  # the movement phase's kinds, read directly
        body = getattr(move, kind)
        return (NUMBER[kind], body.unit, getattr(body, _UNIT_AND[kind]))
    if kind == "dismount":
        return (DISMOUNT, move.dismount.unit)
    number = NUMBER[kind]
    body = getattr(move, kind)
    if kind in _SQUARED:
        return (number, body.unit, body.square.row, body.square.col, body.facing)
    if kind == "attack":
        return (number, body.unit, body.target.row, body.target.col, body.level)
    return (number, *(int(getattr(body, f)) for f in _FIELDS[kind]))


_UNIT_AND = {"step": "direction", "rotate": "facing", "climb": "direction"}
_UNIT_AND["prepare_climb"] = "direction"
"""The kinds of two fields, a unit and a direction or facing (keys read directly)."""


def _unit_and(kind: str, second: str) -> Callable[[Key], Move]:
    def build(key: Key) -> Move:
        move = Move()
        body = getattr(move, kind)
        body.SetInParent()
        body.unit = key[1]
        setattr(body, second, key[2])
        return move

    return build


def _dismount(key: Key) -> Move:
    move = Move()
    body = move.dismount
    body.SetInParent()
    body.unit = key[1]
    return move


_BUILD = {NUMBER[kind]: _unit_and(kind, second) for kind, second in _UNIT_AND.items()}
_BUILD[DISMOUNT] = _dismount


def move_from_key(key: Key) -> Move:
    build = _BUILD.get(key[0])
    if build is not None:
        return build(key)
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
