"""Moves <-> move keys, and the lazy, sorted sequence of legal moves.

Legal moves are enumerated as keys (tuples of ints, see cards.py) and turned
into KingIsDeadMove messages only when read: a Garrison can have hundreds of
executions and a caller usually picks one. Every message handed out is a fresh
object, so callers may keep or change it freely.
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Any

from throneroom.v1 import king_is_dead_pb2 as pb

from throneroom_server.games.core import InvalidMoveError
from throneroom_server.games.king_is_dead.board import (
    CARDS,
    COLOURS,
    REGIONS,
)
from throneroom_server.games.king_is_dead.cards import (
    K_AMBASSADOR,
    K_CROWN,
    K_GARRISON,
    K_PASS,
    K_PLACE,
    K_PLAY,
    K_SETTLE,
    K_SUMMON,
    PASS_KEY,
    Key,
)
from throneroom_server.games.king_is_dead.methods import which_oneof
from throneroom_server.games.kit.keyed import KeyedMoves

Move = pb.KingIsDeadMove
_M: Any = pb.KingIsDeadMove
"""The move class, untyped: keys hold plain ints where the stubs want enum types."""

KIND_OF_FIELD = MappingProxyType(
    {
        "pass_turn": K_PASS,
        "play_card": K_PLAY,
        "crown": K_CROWN,
        "garrison": K_GARRISON,
        "ambassador": K_AMBASSADOR,
        "settle": K_SETTLE,
        "place": K_PLACE,
        "summon": K_SUMMON,
    }
)
FIELD_OF_KIND = MappingProxyType({kind: name for name, kind in KIND_OF_FIELD.items()})


def move_from_key(key: Key) -> Move:
    """The KingIsDeadMove message of a key (a fresh object). Filled in field by
    field (quicker than nested keyword arguments; the same message): the first
    field set sets the body in the move, so only the pass, which has no field,
    is set explicitly."""
    kind = key[0]
    if kind not in FIELD_OF_KIND:
        raise ValueError(f"not a move key: {key!r}")
    move: Move = _M()
    body: Any = getattr(move, FIELD_OF_KIND[kind])
    if kind == K_PASS:
        body.SetInParent()
    elif kind == K_PLAY:
        body.card = key[1]
    elif kind == K_SUMMON:
        body.region = key[1]
        body.faction = key[2]
    elif kind in (K_SETTLE, K_PLACE):
        body.region = key[1]
    elif kind == K_CROWN:
        body.region_a, body.region_b, body.crowned = key[1:4]
    elif kind == K_GARRISON:
        _, a, b, o1, o2, back = key
        body.from_region = a
        body.to_region = b
        body.outgoing.extend((o1, o2) if o2 else (o1,))
        if back:
            body.returning = back
    elif kind == K_AMBASSADOR:
        _, a, b, fa, fb = key
        body.region_a = a
        body.region_b = b
        if fa:
            body.from_a = fa
        if fb:
            body.from_b = fb
    return move


def move_key(move: Move) -> Key:
    """The sort key of a move (lenient: never raises; see ``key_of``)."""
    name = move.WhichOneof("decision")
    if name is None:
        return (-1,)
    kind = KIND_OF_FIELD[name]
    if kind == K_PASS:
        return (K_PASS,)
    if kind == K_PLAY:
        return (K_PLAY, move.play_card.card)
    if kind == K_SUMMON:
        return (K_SUMMON, move.summon.region, move.summon.faction)
    if kind == K_SETTLE:
        return (K_SETTLE, move.settle.region)
    if kind == K_PLACE:
        return (K_PLACE, move.place.region)
    if kind == K_CROWN:
        c = move.crown
        return (K_CROWN, c.region_a, c.region_b, c.crowned)
    if kind == K_GARRISON:
        g = move.garrison
        out = list(g.outgoing)
        o1 = out[0] if out else 0
        o2 = out[1] if len(out) > 1 else 0
        return (K_GARRISON, g.from_region, g.to_region, o1, o2, g.returning, *out[2:])
    a = move.ambassador
    return (K_AMBASSADOR, a.region_a, a.region_b, a.from_a, a.from_b)


_REGIONS = frozenset(REGIONS)
_COLOURS = frozenset(COLOURS)
_CARDS = frozenset(CARDS)
"""The values a move may hold (sets: tested at every checked apply)."""


def _not_region(value: int, what: str) -> InvalidMoveError:
    return InvalidMoveError(f"{what} must be a region (REGION_CALEDONIA..), not {value}")


def _not_colour(value: int, what: str) -> InvalidMoveError:
    return InvalidMoveError(f"{what} must be a follower colour (FACTION_SCOTS..), not {value}")


Checked = tuple[str, Key]
"""What ``checked_key`` reads of a move: its kind's field name and its key."""


def key_of(move: Move) -> Key:
    """The key of a well-formed move; InvalidMoveError for a malformed one (no
    decision set, an UNSPECIFIED or unknown enum value, colours not ascending,
    a region paired with itself, a movement not in its one writing...)."""
    return checked_key(None, move)[1]


def checked_key(state: object, move: Move) -> Checked:
    """The move's kind (its field of the ``decision`` oneof) and ``key_of(move)``,
    with the signature of the kit's ``check_move`` (the state is not read), so
    that the checked apply calls it directly and takes the kind from it
    (``kind_of_checked``: the oneof is read once). Read at every move, so each
    value is tested where it is read (no call per field); the errors name the
    field."""
    name = which_oneof(move, "decision")
    if name is None:
        raise InvalidMoveError(
            "the move is empty: set one of pass_turn, play_card, crown, garrison, "
            "ambassador, settle, place, summon"
        )
    kind = KIND_OF_FIELD[name]
    if kind == K_PASS:
        return name, PASS_KEY
    if kind == K_PLAY:
        card = move.play_card.card
        if card not in _CARDS:
            raise InvalidMoveError(f"play_card.card must be an action card, not {card}")
        return name, (K_PLAY, card)
    if kind == K_SUMMON:
        s = move.summon
        region = s.region
        if region not in _REGIONS:
            raise _not_region(region, "summon.region")
        faction = s.faction
        if faction not in _COLOURS:
            raise _not_colour(faction, "summon.faction")
        return name, (K_SUMMON, region, faction)
    if kind in (K_SETTLE, K_PLACE):
        region = (move.settle if kind == K_SETTLE else move.place).region
        if region not in _REGIONS:
            raise _not_region(region, f"{name}.region")
        return name, (kind, region)
    if kind == K_CROWN:
        return name, _crown_key(move)
    if kind == K_GARRISON:
        return name, _garrison_key(move)
    return name, _ambassador_key(move)


def _crown_key(move: Move) -> Key:
    """The Crown's key (its regions checked)."""
    c = move.crown
    a, b, crowned = c.region_a, c.region_b, c.crowned
    if a not in _REGIONS:
        raise _not_region(a, "crown.region_a")
    if b not in _REGIONS:
        raise _not_region(b, "crown.region_b")
    if crowned not in _REGIONS:
        raise _not_region(crowned, "crown.crowned")
    if a >= b:
        raise InvalidMoveError("crown: region_a must come before region_b (region_a < region_b)")
    if crowned not in (a, b):
        raise InvalidMoveError("crown: the crowned card must be one of the two swapped")
    return (K_CROWN, a, b, crowned)


def _garrison_key(move: Move) -> Key:
    """The Garrison's key (its regions and colours checked)."""
    g = move.garrison
    a, b = g.from_region, g.to_region
    if a not in _REGIONS:
        raise _not_region(a, "garrison.from_region")
    if b not in _REGIONS:
        raise _not_region(b, "garrison.to_region")
    if a == b:
        raise InvalidMoveError("garrison: from_region and to_region must differ")
    out = list(g.outgoing)
    for f in out:
        if f not in _COLOURS:
            raise _not_colour(f, "garrison.outgoing")
    if not 1 <= len(out) <= 2:
        raise InvalidMoveError(f"garrison: 1 or 2 followers go out of from_region, not {len(out)}")
    if len(out) == 2 and out[0] > out[1]:
        raise InvalidMoveError("garrison: list the outgoing colours in ascending order")
    back = 0
    if g.HasField("returning"):
        back = g.returning
        if back not in _COLOURS:
            raise _not_colour(back, "garrison.returning")
    if len(out) == 1 and back and a > b:
        # The same movement as one follower out of to_region and one back:
        # each movement has one writing (canonical_exchange).
        raise InvalidMoveError(
            "garrison: one follower each way is written from the lower region: "
            f"from_region={b}, to_region={a}, outgoing=[{back}], returning={out[0]}"
        )
    return (K_GARRISON, a, b, out[0], out[1] if len(out) == 2 else 0, back)


def _ambassador_key(move: Move) -> Key:
    """The Ambassador's key (its regions and colours checked)."""
    m = move.ambassador
    a, b = m.region_a, m.region_b
    if a not in _REGIONS:
        raise _not_region(a, "ambassador.region_a")
    if b not in _REGIONS:
        raise _not_region(b, "ambassador.region_b")
    if a >= b:
        raise InvalidMoveError(
            "ambassador: region_a must come before region_b (region_a < region_b)"
        )
    fa = fb = 0
    if m.HasField("from_a"):
        fa = m.from_a
        if fa not in _COLOURS:
            raise _not_colour(fa, "ambassador.from_a")
    if m.HasField("from_b"):
        fb = m.from_b
        if fb not in _COLOURS:
            raise _not_colour(fb, "ambassador.from_b")
    if not fa and not fb:
        raise InvalidMoveError("ambassador: at least one of from_a and from_b must be set")
    return (K_AMBASSADOR, a, b, fa, fb)


class LegalMoves(KeyedMoves[Move]):
    """The legal moves of a seat, ascending by key; messages built on access."""

    __slots__ = ()

    message = Move
    from_key = staticmethod(move_from_key)
    key_of = staticmethod(key_of)
