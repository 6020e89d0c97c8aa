"""Kill the King: the names of things in the notation, squares, and the move
notation (see the package's __init__ and docs/notation.md)."""

from __future__ import annotations

import re

from google.protobuf.message import Message

from throneroom.games.kill_the_king.data import UNITS
from throneroom.games.kill_the_king.squares import COLUMNS
from throneroom.notation.base import INT32_MAX, Names, NotationError, Word, Words, enum_words
from throneroom.v1 import kill_the_king_pb2 as pb
from throneroom.v1.kill_the_king_pb2 import KillTheKingMove, KillTheKingState

Move = KillTheKingMove
State = KillTheKingState
NO_UNIT = -1

UNIT_ALIASES: dict[str, int] = {
    # the chart's one-letter counters (board.py, KK-7) and short names
    **{spec.letter.lower(): unit for unit, spec in UNITS.items()},
    "elephant": pb.UNIT_TYPE_WAR_ELEPHANT,
    "pigs": pb.UNIT_TYPE_FLAMING_PIGS,
    "ram": pb.UNIT_TYPE_BATTERING_RAM,
    "tower": pb.UNIT_TYPE_SIEGE_TOWER,
    "spearman": pb.UNIT_TYPE_SPEARMEN,
    "swordsman": pb.UNIT_TYPE_SWORDSMEN,
}
UNIT_TYPES = Names(
    "unit type",
    enum_words(pb.UnitType.DESCRIPTOR, "UNIT_TYPE_", skip_zero=True),
    UNIT_ALIASES,
    pb.UnitType.DESCRIPTOR,
    "unit_type_",
)
SIDES = Names(
    "side",
    enum_words(pb.Side.DESCRIPTOR, "SIDE_", skip_zero=True),
    {
        "a": pb.SIDE_ATTACKER,
        "d": pb.SIDE_DEFENDER,
        "black": pb.SIDE_ATTACKER,
        "white": pb.SIDE_DEFENDER,
    },
    pb.Side.DESCRIPTOR,
    "side_",
)
DIRECTIONS = Names(
    "direction",
    {
        pb.DIRECTION_NORTH: "n",
        pb.DIRECTION_EAST: "e",
        pb.DIRECTION_SOUTH: "s",
        pb.DIRECTION_WEST: "w",
    },
    {
        "north": pb.DIRECTION_NORTH,
        "east": pb.DIRECTION_EAST,
        "south": pb.DIRECTION_SOUTH,
        "west": pb.DIRECTION_WEST,
    },
    pb.Direction.DESCRIPTOR,
    "direction_",
)
LEVELS = Names(
    "level",
    enum_words(pb.Level.DESCRIPTOR, "LEVEL_", skip_zero=True),
    {"stair": pb.LEVEL_STAIRS},
    pb.Level.DESCRIPTOR,
    "level_",
)

# -- squares --------------------------------------------------------------------------------


SQUARE_RE = re.compile(r"([a-z])(\d+)")


def square_text(square: pb.Square) -> str:
    """``c3``: the column's letter (``a`` = col 0, west), the row counted from 1
    (``1`` = row 0, the attacker's edge)."""
    if not 0 <= square.col < len(COLUMNS) or not 0 <= square.row < INT32_MAX:
        raise NotationError(f"the square (row {square.row}, col {square.col}) has no name")
    return f"{COLUMNS[square.col]}{square.row + 1}"


def read_square(text: str) -> tuple[int, int] | str:
    """(row, col) of a square's name, or why it is not one (the problem's offset
    in ``text`` is always 0 or 1: the letter, or the number)."""
    match = SQUARE_RE.fullmatch(text)
    if not match:
        return f"a square like c3 expected (column a-k, row from 1), not {text!r}"
    number = match[2]
    if number.startswith("0"):
        return f"rows are numbered from 1, without leading zeros: not {number!r}"
    row = int(number)
    if row > INT32_MAX:
        return f"row {number} is out of range"
    return row - 1, COLUMNS.index(match[1])


def _square(words: Words, into: pb.Square, expected: str = "a square (like c3)") -> None:
    word = words.next(expected)
    found = read_square(word.text)
    if isinstance(found, str):
        offset = 1 if SQUARE_RE.fullmatch(word.text) else 0
        raise words.error(found, Word(word.text, word.column + offset))
    into.row, into.col = found


# -- units ----------------------------------------------------------------------------------

UNIT_RE = re.compile(r"u?(\d+)")


def unit_text(unit: int) -> str:
    if unit < 0:
        raise NotationError(f"no unit has the id {unit}")
    return f"u{unit}"


def _unit(words: Words) -> int:
    word = words.next("a unit (like u7)")
    match = UNIT_RE.fullmatch(word.text)
    if not match:
        raise words.error(f"a unit id like u7 expected, not {word.text!r}", word)
    digits = Word(word.text, word.column + len(word.text) - len(match[1]))
    return words.int_of(digits, match[1], "a unit id", lo=0)


# -- moves ----------------------------------------------------------------------------------


def _direction(direction: int) -> str:
    return DIRECTIONS.word(direction)


def _move_square(move: Message, field: str) -> str:
    """The square of a move, which every move that has one needs."""
    if not move.HasField(field):
        raise NotationError(f"a {move.DESCRIPTOR.name} move without its {field}")
    return square_text(getattr(move, field))


def format_move(move: KillTheKingMove) -> str:
    kind = move.WhichOneof("decision")
    if kind == "choose_side":
        return f"side {SIDES.word(move.choose_side.side)}"
    if kind == "buy":
        return f"buy {UNIT_TYPES.word(move.buy.unit)}"
    if kind == "buy_suggested_army":
        return "buy suggested"
    if kind == "choose_leader":
        return f"leader {UNIT_TYPES.word(move.choose_leader.leader)}"
    if kind == "place":
        p = move.place
        return f"place {unit_text(p.unit)} {_move_square(p, 'square')} {_direction(p.facing)}"
    if kind == "reinforce":
        r = move.reinforce
        unit = UNIT_TYPES.word(r.unit)
        return f"reinforce {unit} {_move_square(r, 'square')} {_direction(r.facing)}"
    if kind == "step":
        return f"step {unit_text(move.step.unit)} {_direction(move.step.direction)}"
    if kind == "rotate":
        return f"rotate {unit_text(move.rotate.unit)} {_direction(move.rotate.facing)}"
    if kind == "climb":
        return f"climb {unit_text(move.climb.unit)} {_direction(move.climb.direction)}"
    if kind == "prepare_climb":
        c = move.prepare_climb
        return f"prepare {unit_text(c.unit)} {_direction(c.direction)}"
    if kind == "dismount":
        return f"dismount {unit_text(move.dismount.unit)}"
    if kind == "attack":
        a = move.attack
        level = f" {LEVELS.word(a.level)}" if a.level else ""
        return f"attack {unit_text(a.unit)} {_move_square(a, 'target')}{level}"
    if kind == "follow_up":
        return "advance" if move.follow_up.advance else "stay"
    if kind == "disband":
        return f"disband {unit_text(move.disband.unit)}"
    if kind == "end_phase":
        return "end"
    raise NotationError("an empty move (no decision) has no notation")


VERBS = (
    "side, buy, leader, place, reinforce, step, rotate, climb, prepare, dismount, "
    "attack, advance, stay, disband, end"
)
_UNIT_AND_DIRECTION = {
    "step": ("step", "direction"),
    "rotate": ("rotate", "facing"),
    "climb": ("climb", "direction"),
    "prepare": ("prepare_climb", "direction"),
    "prepare_climb": ("prepare_climb", "direction"),
    "prepare-climb": ("prepare_climb", "direction"),
}
_SUGGESTED = ("suggested", "army")


def parse_move(text: str) -> KillTheKingMove:
    words = Words(text)
    verb = words.next(f"a move ({VERBS})")
    move = Move()
    if verb.text == "side":
        move.choose_side.side = words.name(SIDES)  # type: ignore[assignment]
    elif verb.text == "buy":
        word = words.next("a unit type (or suggested)")
        if word.text in _SUGGESTED:
            move.buy_suggested_army.SetInParent()
        else:
            move.buy.unit = words.named(word, UNIT_TYPES)  # type: ignore[assignment]
    elif verb.text == "leader":
        move.choose_leader.leader = words.name(UNIT_TYPES, "a leader")  # type: ignore[assignment]
    elif verb.text == "place":
        move.place.unit = _unit(words)
        _square(words, move.place.square)
        move.place.facing = words.name(DIRECTIONS, "a facing (n, e, s, w)")  # type: ignore[assignment]
    elif verb.text == "reinforce":
        move.reinforce.unit = words.name(UNIT_TYPES)  # type: ignore[assignment]
        _square(words, move.reinforce.square)
        move.reinforce.facing = words.name(DIRECTIONS, "a facing (n, e, s, w)")  # type: ignore[assignment]
    elif verb.text in _UNIT_AND_DIRECTION:
        field, direction = _UNIT_AND_DIRECTION[verb.text]
        sub = getattr(move, field)
        sub.unit = _unit(words)
        setattr(sub, direction, words.name(DIRECTIONS, f"a {direction} (n, e, s, w)"))
    elif verb.text == "dismount":
        move.dismount.unit = _unit(words)
    elif verb.text == "attack":
        move.attack.unit = _unit(words)
        _square(words, move.attack.target, "the square attacked (like c3)")
        if not words.at_end():
            move.attack.level = words.name(LEVELS)  # type: ignore[assignment]
    elif verb.text in ("advance", "stay"):
        move.follow_up.advance = verb.text == "advance"
    elif verb.text == "disband":
        move.disband.unit = _unit(words)
    elif verb.text == "end":
        move.end_phase.SetInParent()
    else:
        raise words.error(f"unknown move {verb.text!r} ({VERBS})", verb)
    words.finish()
    return move
