"""Kill the King: the position notation (see the package's __init__ and docs/notation.md).

One line of ``key=value`` fields; every unit is one field ``u<id>=`` whose
value packs what the counter is and where it stands::

    u7=swordsmen:a0:c8:n:moved:mp=2      u12=archer:d1:e10#:s      u20=knight:d1:reserve
"""

from __future__ import annotations

import re
from collections.abc import Callable

from throneroom.games.kill_the_king.notation.moves import (
    DIRECTIONS,
    LEVELS,
    NO_UNIT,
    SQUARE_RE,
    UNIT_ALIASES,
    State,
    read_square,
    square_text,
)
from throneroom.notation.base import (
    Fields,
    FieldWriter,
    Names,
    NotationError,
    Value,
    enum_words,
    format_rng,
    ints_text,
    parse_rng,
    read_outcome,
    seat_keys,
    write_outcome,
)
from throneroom.v1 import kill_the_king_pb2 as pb
from throneroom.v1.kill_the_king_pb2 import KillTheKingState

Unit = pb.KillTheKingUnit

MODES = Names(
    "mode",
    enum_words(pb.KillTheKingMode.DESCRIPTOR, "KILL_THE_KING_MODE_", skip_zero=False),
    {
        "ktk": pb.KILL_THE_KING_MODE_KILL_THE_KING,
        "ad": pb.KILL_THE_KING_MODE_ATTACK_AND_DEFENSE,
        "ktk_giga": pb.KILL_THE_KING_MODE_KILL_THE_KING_GIGA,
        "ad_giga": pb.KILL_THE_KING_MODE_ATTACK_AND_DEFENSE_GIGA,
    },
)
PHASES = Names("phase", enum_words(State.Phase.DESCRIPTOR, "PHASE_", skip_zero=False))
STATUSES = Names("unit status", enum_words(Unit.Status.DESCRIPTOR, "STATUS_", skip_zero=False))
ANY_UNIT_TYPE = Names(
    "unit type",
    enum_words(pb.UnitType.DESCRIPTOR, "UNIT_TYPE_", skip_zero=False),
    UNIT_ALIASES,
    pb.UnitType.DESCRIPTOR,
    "unit_type_",
)
SEAT_SIDES = Names("side", {0: "-", **enum_words(pb.Side.DESCRIPTOR, "SIDE_", skip_zero=True)})
SIDE_LETTERS = Names("side letter", {0: "x", pb.SIDE_ATTACKER: "a", pb.SIDE_DEFENDER: "d"})
ANY_DIRECTION = Names("direction", {0: "unspecified", **DIRECTIONS.canonical})
LEVEL_MARKS: dict[int, str] = {
    pb.LEVEL_UNSPECIFIED: "?",
    pb.LEVEL_GROUND: "",
    pb.LEVEL_WALL: "#",
    pb.LEVEL_STAIRS: "/",
}
"""How a square in a position says the level: ``c3`` on the ground, ``e10#``
on the wall, ``e14/`` on stairs, ``c3?`` level unspecified."""
_MARK_LEVELS: dict[str, int] = {mark: level for level, mark in LEVEL_MARKS.items() if mark}


# -- small parts ----------------------------------------------------------------------------


def owner_text(side: int, seat: int) -> str:
    """``a0``: the side's letter (``a``, ``d``, ``x`` for none), then the seat."""
    return f"{SIDE_LETTERS.word(side)}{seat}"


_OWNER = re.compile(r"([a-z])(-?\d+)")


def read_owner(value: Value, text: str, offset: int) -> tuple[int, int]:
    match = _OWNER.fullmatch(text)
    if not match:
        raise value.error(f"side and seat like a0 or d1 expected, not {text!r}", offset)
    side = value.name(SIDE_LETTERS, match[1], offset)
    return side, value.int_part(match[2], offset + 1)


def _read_square(value: Value, text: str, offset: int, into: pb.Square) -> None:
    found = read_square(text)
    if isinstance(found, str):
        raise value.error(found, offset + (1 if SQUARE_RE.fullmatch(text) else 0))
    into.row, into.col = found


def _square_or_none(value: Value, text: str, offset: int, into: pb.Square) -> None:
    if text != "-":
        _read_square(value, text, offset, into)


def _level_mark(level: int) -> str:
    try:
        return LEVEL_MARKS[level]
    except KeyError:
        raise NotationError(f"no level has the value {level}") from None


def _read_placed_square(value: Value, text: str, offset: int, unit: Unit) -> None:
    """``c3``, ``e10#``, ``e14/``, ``c3?``: a square with its level mark."""
    mark = text[-1:] if text[-1:] in ("#", "/", "?") else ""
    _read_square(value, text[: len(text) - len(mark)], offset, unit.square)
    unit.level = _MARK_LEVELS.get(mark, pb.LEVEL_GROUND)  # type: ignore[assignment]


# -- units ----------------------------------------------------------------------------------


def unit_value(index: int, unit: Unit) -> str:
    """``swordsmen:a0:c8:n:moved:mp=2``: type, owner, place, facing, then flags."""
    if unit.HasField("square"):
        where = square_text(unit.square) + _level_mark(unit.level)
        if unit.status != Unit.STATUS_ON_FIELD:
            where = f"{STATUSES.word(unit.status)}@{where}"
    else:
        where = STATUSES.word(unit.status)
    parts = [ANY_UNIT_TYPE.word(unit.type), owner_text(unit.side, unit.seat), where]
    if unit.facing:
        parts.append(DIRECTIONS.word(unit.facing))
    if unit.id != index:
        parts.append(f"id={unit.id}")
    if unit.level and not unit.HasField("square"):
        parts.append(f"level={LEVELS.word(unit.level)}")
    for flag in ("dismounted", "free"):
        if getattr(unit, flag):
            parts.append(flag)
    if unit.carried_by != NO_UNIT:
        parts.append(f"in={unit.carried_by}")
    if unit.movement_used:
        parts.append(f"mp={unit.movement_used}")
    if unit.bonus_movement:
        parts.append(f"bonus={unit.bonus_movement}")
    for flag in ("moved", "rotated", "attacked"):
        if getattr(unit, flag):
            parts.append(flag)
    if unit.HasField("climb"):
        parts.append(f"climb={ANY_DIRECTION.word(unit.climb)}")
    if unit.immobile:
        parts.append("immobile")
    if unit.stack:
        parts.append(f"stack={unit.stack}")
    return ":".join(parts)


_UNIT_FLAGS = ("dismounted", "free", "moved", "rotated", "attacked", "immobile")
_UNIT_NUMBERS = {
    "id": "id",
    "in": "carried_by",
    "mp": "movement_used",
    "bonus": "bonus_movement",
    "stack": "stack",
}
_FLAG_CHOICES = ", ".join([*_UNIT_FLAGS, *(f"{k}=N" for k in _UNIT_NUMBERS), "level=L", "climb=D"])


def read_unit(value: Value, index: int, unit: Unit) -> None:
    parts = value.parts(":")
    if len(parts) < 3:
        raise value.error("type:owner:place expected (like swordsmen:a0:c8:n)")
    (type_text, o1), (owner, o2), (where, o3), *rest = parts
    unit.id = index
    unit.carried_by = NO_UNIT
    unit.type = value.name(ANY_UNIT_TYPE, type_text, o1)  # type: ignore[assignment]
    unit.side, unit.seat = read_owner(value, owner, o2)  # type: ignore[assignment]
    status_text, at, square = where.rpartition("@")
    if not at and SQUARE_RE.match(where):
        unit.status = Unit.STATUS_ON_FIELD
        _read_placed_square(value, where, o3, unit)
    else:
        unit.status = value.name(STATUSES, status_text if at else where, o3)  # type: ignore[assignment]
        if at:
            _read_placed_square(value, square, o3 + len(status_text) + 1, unit)
    if rest and "=" not in rest[0][0] and DIRECTIONS.lookup(rest[0][0]) is not None:
        unit.facing = value.name(DIRECTIONS, *rest[0])  # type: ignore[assignment]
        rest = rest[1:]
    seen: set[str] = set()
    for part, offset in rest:
        key, eq, text = part.partition("=")
        if key in seen:
            raise value.error(f"{key} is given twice", offset)
        seen.add(key)
        at_value = offset + len(key) + 1
        if not eq and key in _UNIT_FLAGS:
            setattr(unit, key, True)
        elif eq and key in _UNIT_NUMBERS:
            setattr(unit, _UNIT_NUMBERS[key], value.int_part(text, at_value))
        elif eq and key == "level":
            if unit.HasField("square"):
                raise value.error("the level of a unit on a square is its mark (c3#)", offset)
            unit.level = value.name(LEVELS, text, at_value)  # type: ignore[assignment]
        elif eq and key == "climb":
            unit.climb = value.name(ANY_DIRECTION, text, at_value)  # type: ignore[assignment]
        else:
            raise value.error(f"unknown unit flag {part!r} (one of {_FLAG_CHOICES})", offset)


# -- the rest of the board ------------------------------------------------------------------


def _gate_text(gate: pb.KillTheKingGate) -> str:
    square = square_text(gate.square) if gate.HasField("square") else "-"
    text = f"{square}:{SIDE_LETTERS.word(gate.controlled_by)}"
    return text + (":destroyed" if gate.destroyed else "")


def _read_gate(value: Value, text: str, offset: int, gate: pb.KillTheKingGate) -> None:
    parts = value.parts(":", text, offset)
    if len(parts) not in (2, 3):
        raise value.error(f"a gate like f10:d or f10:a:destroyed expected, not {text!r}", offset)
    _square_or_none(value, *parts[0], gate.square)
    gate.controlled_by = value.name(SIDE_LETTERS, *parts[1])  # type: ignore[assignment]
    if len(parts) == 3:
        if parts[2][0] != "destroyed":
            raise value.error(f"destroyed expected, not {parts[2][0]!r}", parts[2][1])
        gate.destroyed = True


def _ruin_text(ruin: pb.KillTheKingRuin) -> str:
    square = square_text(ruin.square) if ruin.HasField("square") else "-"
    return f"{square}:{ruin.round}"


def _read_ruin(value: Value, text: str, offset: int, ruin: pb.KillTheKingRuin) -> None:
    parts = value.parts(":", text, offset)
    if len(parts) != 2:
        raise value.error(f"a ruin like e10:3 (square:round) expected, not {text!r}", offset)
    _square_or_none(value, *parts[0], ruin.square)
    ruin.round = value.int_part(*parts[1])


def _follow_text(follow: pb.KillTheKingFollowUp) -> str:
    vacated = f"@{square_text(follow.vacated)}" if follow.HasField("vacated") else ""
    return f"{follow.unit}{vacated}"


def _read_follow(value: Value, follow: pb.KillTheKingFollowUp) -> None:
    unit, at, square = value.text.partition("@")
    follow.SetInParent()
    follow.unit = value.int_part(unit, 0)
    if at:
        _read_square(value, square, len(unit) + 1, follow.vacated)


# -- seats ----------------------------------------------------------------------------------

Seat = pb.KillTheKingSeat
SeatField = tuple[str, Callable[[Seat], str], Callable[[Value, Seat], None], str]


def _set_int(name: str) -> Callable[[Value, Seat], None]:
    def read(value: Value, seat: Seat) -> None:
        setattr(seat, name, value.integer())

    return read


def _set_bool(name: str) -> Callable[[Value, Seat], None]:
    def read(value: Value, seat: Seat) -> None:
        setattr(seat, name, value.boolean())

    return read


def _read_side(value: Value, seat: Seat) -> None:
    seat.side = value.name(SEAT_SIDES)  # type: ignore[assignment]


def _read_rolls(value: Value, seat: Seat) -> None:
    seat.initiative_rolls.extend(value.int_list())


def _yes(flag: bool) -> str:
    return "yes" if flag else "no"


SEAT_FIELDS: tuple[SeatField, ...] = (
    ("side", lambda s: SEAT_SIDES.word(s.side), _read_side, "-"),
    ("team", lambda s: str(s.team), _set_int("team"), "0"),
    ("coins", lambda s: str(s.coins), _set_int("coins"), "0"),
    ("extra", lambda s: str(s.extra_coins), _set_int("extra_coins"), "0"),
    ("rolls", lambda s: ints_text(s.initiative_rolls), _read_rolls, "-"),
    ("placed", lambda s: _yes(s.placed), _set_bool("placed"), "no"),
    ("locked", lambda s: _yes(s.movement_locked), _set_bool("movement_locked"), "no"),
    ("disband", lambda s: str(s.disband_value_left), _set_int("disband_value_left"), "0"),
)
"""(key, writer, reader, default) of each ``p<seat>.<key>`` field, in order."""


# -- positions ------------------------------------------------------------------------------


def format_position(state: KillTheKingState) -> str:
    out = FieldWriter()

    def put(key: str, text: str, default: str) -> None:
        if text != default:
            out.put(key, text)

    out.put("seats", str(state.num_seats))
    out.put("mode", MODES.word(state.mode))
    put("advanced", _yes(state.advanced), "no")
    out.put("phase", PHASES.word(state.phase))
    put("round", str(state.round), "0")
    out.put("turn", owner_text(state.turn_side, state.to_move))
    put("active", str(state.active_unit), str(NO_UNIT))
    put("initiative", str(state.initiative_seat), "0")
    reinf = (state.reinforcement_cavalry, state.reinforcement_value, state.reinforcement_half)
    put("reinf", "/".join(str(n) for n in reinf), "0/0/0")
    put("resume", PHASES.word(state.resume_phase), "unspecified")
    if state.HasField("follow_up"):
        out.put("follow", _follow_text(state.follow_up))
    put("gates", ",".join(_gate_text(g) for g in state.gates) or "-", "-")
    put("ruins", ",".join(_ruin_text(r) for r in state.ruins) or "-", "-")
    put("door", "destroyed" if state.door_destroyed else "intact", "intact")
    put("reinforced", ints_text(state.reinforced_halves), "-")
    penalty = ",".join(SIDE_LETTERS.word(s) for s in state.defence_penalty)
    put("penalty", penalty or "-", "-")
    put("lockednow", _yes(state.movement_locked_now), "no")
    put("turnseat", str(state.turn_seat), "0")
    if len(state.seats) != state.num_seats:
        raise NotationError(f"{len(state.seats)} seat records for {state.num_seats} seats")
    for index, seat in enumerate(state.seats):
        for key, get, _, default in SEAT_FIELDS:
            put(f"p{index}.{key}", get(seat), default)
    for index, unit in enumerate(state.units):
        out.put(f"u{index}", unit_value(index, unit))
    if state.HasField("rng"):
        out.put("rng", format_rng(state.rng))
    write_outcome(out, state.HasField("outcome"), state.outcome)
    return out.text()


_UNIT_KEY = re.compile(r"u(0|[1-9]\d*)")


def _read_units(fields: Fields, state: KillTheKingState) -> None:
    found: dict[int, Value] = {}
    for key in fields.keys_starting("u"):
        match = _UNIT_KEY.fullmatch(key)
        if match:
            found[int(match[1])] = fields.values[key]
    for index in range(len(found)):
        if index not in found:
            value = found[min(i for i in found if i > index)]
            raise value.error(
                f"u{index} is missing (units are numbered from u0 without gaps)",
                -len(value.key) - 1,
            )
        value = found[index]
        fields.take(value.key)
        read_unit(value, index, state.units.add())


def _read_seats(fields: Fields, state: KillTheKingState) -> None:
    seats = [Seat() for _ in range(state.num_seats)]
    readers = {key: read for key, _, read, _ in SEAT_FIELDS}
    for seat, sub, value in seat_keys(fields, "p", state.num_seats):
        if sub not in readers:
            raise value.error(
                f"unknown seat field {sub!r} (one of {', '.join(readers)})", -len(value.key) - 1
            )
        readers[sub](value, seats[seat])
    state.seats.extend(seats)


def _read_reinf(value: Value, state: KillTheKingState) -> None:
    parts = value.parts("/")
    if len(parts) != 3:
        raise value.error("cavalry/value/half expected (like 5/0/0)")
    state.reinforcement_cavalry = value.int_part(*parts[0])
    state.reinforcement_value = value.int_part(*parts[1])
    state.reinforcement_half = value.int_part(*parts[2])


def _read_door(value: Value, state: KillTheKingState) -> None:
    if value.text not in ("destroyed", "intact"):
        raise value.error(f"destroyed or intact expected, not {value.text!r}")
    state.door_destroyed = value.text == "destroyed"


def parse_position(text: str) -> KillTheKingState:
    fields = Fields(text)
    state = State(active_unit=NO_UNIT)
    state.num_seats = fields.require("seats").integer(lo=0, hi=64)
    if (value := fields.take("mode")) is not None:
        state.mode = value.name(MODES)  # type: ignore[assignment]
    if (value := fields.take("advanced")) is not None:
        state.advanced = value.boolean()
    if (value := fields.take("phase")) is not None:
        state.phase = value.name(PHASES)  # type: ignore[assignment]
    if (value := fields.take("round")) is not None:
        state.round = value.integer()
    if (value := fields.take("turn")) is not None:
        state.turn_side, state.to_move = read_owner(value, value.text, 0)  # type: ignore[assignment]
    if (value := fields.take("active")) is not None:
        state.active_unit = value.integer()
    if (value := fields.take("initiative")) is not None:
        state.initiative_seat = value.integer()
    if (value := fields.take("reinf")) is not None:
        _read_reinf(value, state)
    if (value := fields.take("resume")) is not None:
        state.resume_phase = value.name(PHASES)  # type: ignore[assignment]
    if (value := fields.take("follow")) is not None:
        _read_follow(value, state.follow_up)
    if (value := fields.take("gates")) is not None and value.text != "-":
        for part, offset in value.parts(","):
            _read_gate(value, part, offset, state.gates.add())
    if (value := fields.take("ruins")) is not None and value.text != "-":
        for part, offset in value.parts(","):
            _read_ruin(value, part, offset, state.ruins.add())
    if (value := fields.take("door")) is not None:
        _read_door(value, state)
    if (value := fields.take("reinforced")) is not None:
        state.reinforced_halves.extend(value.int_list())
    if (value := fields.take("penalty")) is not None:
        state.defence_penalty.extend(value.names_in(SIDE_LETTERS))  # type: ignore[arg-type]
    if (value := fields.take("lockednow")) is not None:
        state.movement_locked_now = value.boolean()
    if (value := fields.take("turnseat")) is not None:
        state.turn_seat = value.integer()
    _read_seats(fields, state)
    _read_units(fields, state)
    if (value := fields.take("rng")) is not None:
        parse_rng(value, state.rng)
    read_outcome(fields, lambda: state.outcome)
    fields.finish()
    return state
