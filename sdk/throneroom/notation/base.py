"""What every game's notation shares: the protocol, the error, and the two
small grammars the games build on.

* Moves are words separated by spaces (``garrison cal>din sw/r``), read with
  :class:`Words`, case-insensitive.
* Positions are one line of ``key=value`` fields (``seats=3 turn=0 ...``),
  read with :class:`Fields` and written with :class:`FieldWriter`. A value is
  either a run of non-space characters or a JSON string (``"..."``) when it
  holds spaces. An omitted field takes its documented default; keys are
  case-insensitive, values too except inside quoted text.

Errors are :class:`NotationError` (a ``ValueError``) naming the column (1-based)
of the problem. The grammars of the games are in docs/notation.md.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol, TypeVar

from google.protobuf import descriptor
from google.protobuf.message import Message

from throneroom.v1 import common_pb2

MoveT = TypeVar("MoveT", bound=Message)
StateT = TypeVar("StateT", bound=Message)
ViewT = TypeVar("ViewT", bound=Message)

Viewer = int | None
"""A seat, or None for a spectator."""


class NotationError(ValueError):
    """Text that is not valid notation (or a message the notation cannot spell).

    ``column`` is 1-based in ``text`` (0 when the problem is a message being
    formatted, not text being read); both appear in the message.
    """

    def __init__(self, reason: str, text: str = "", column: int = 0) -> None:
        where = f"at column {column} of {text!r}: " if column else ""
        super().__init__(f"{where}{reason}")
        self.reason = reason
        self.text = text
        self.column = column


class GameNotation(Protocol[MoveT, StateT, ViewT]):
    """One game's notation: moves, positions and a readable board."""

    game_type: str
    """The registered game name (``"nim"``, ``"king_is_dead"``, ``"kings_life"``)."""
    move_class: type[MoveT]
    state_class: type[StateT]
    view_class: type[ViewT]

    def format_move(self, move: MoveT) -> str:
        """The move in notation; ``NotationError`` if it cannot be spelled."""
        ...

    def parse_move(self, text: str) -> MoveT:
        """The move written in ``text``; ``NotationError`` naming the column."""
        ...

    def format_position(self, state: StateT) -> str:
        """The full state (hidden information and RNG included) on one line."""
        ...

    def parse_position(self, text: str) -> StateT:
        """The state written in ``text``; ``NotationError`` naming the column."""
        ...

    def render_view(self, view: ViewT, viewer: Viewer) -> str:
        """A multi-line board for a terminal, as ``viewer`` sees it."""
        ...


# -- names ----------------------------------------------------------------------------------


class Names:
    """Canonical words for the values of one enum, with their accepted aliases.

    ``lookup`` accepts the canonical word, an alias, the enum value's name
    with or without the enum prefix (any case, ``-`` or ``_``), or a unique
    prefix of at least two letters of a canonical word.
    """

    def __init__(
        self,
        what: str,
        canonical: Mapping[int, str],
        aliases: Mapping[str, int] | None = None,
        enum: descriptor.EnumDescriptor | None = None,
        prefix: str = "",
    ) -> None:
        self.what = what
        self.canonical = dict(canonical)
        self.values = {word: value for value, word in canonical.items()}
        accepted: dict[str, int] = dict(self.values)
        if enum is not None:
            for enum_value in enum.values:
                if enum_value.number in canonical:
                    name = enum_value.name.lower()
                    accepted.setdefault(name, enum_value.number)
                    accepted.setdefault(name.removeprefix(prefix.lower()), enum_value.number)
        for alias, number in (aliases or {}).items():
            accepted[alias] = number
        self.accepted = {_fold(word): value for word, value in accepted.items()}

    def word(self, value: int) -> str:
        try:
            return self.canonical[value]
        except KeyError:
            raise NotationError(f"no {self.what} has the value {value}") from None

    def lookup(self, text: str) -> int | None:
        key = _fold(text)
        if key in self.accepted:
            return self.accepted[key]
        if len(key) >= 2:
            hits = {v for w, v in self.values.items() if _fold(w).startswith(key)}
            if len(hits) == 1:
                return hits.pop()
        return None

    def choices(self) -> str:
        return ", ".join(self.canonical.values())


def _fold(word: str) -> str:
    return word.lower().replace("-", "_")


def enum_words(enum: descriptor.EnumDescriptor, prefix: str, *, skip_zero: bool) -> dict[int, str]:
    """Canonical words from an enum's value names: ``PHASE_FOOL_PASS`` -> ``fool_pass``."""
    return {
        v.number: v.name.removeprefix(prefix).lower()
        for v in enum.values
        if not (skip_zero and v.number == 0)
    }


INT32_MIN, INT32_MAX = -(2**31), 2**31 - 1
"""Every number in the notation lands in an int32 field."""


def _in_range(value: int, lo: int | None, hi: int | None) -> bool:
    low = INT32_MIN if lo is None else max(lo, INT32_MIN)
    high = INT32_MAX if hi is None else min(hi, INT32_MAX)
    return low <= value <= high


# -- moves: words separated by spaces --------------------------------------------------------


@dataclass(frozen=True)
class Word:
    text: str
    """Lower-cased."""
    column: int
    """1-based column in the whole text."""


class Words:
    """The words of one move, read left to right with precise errors."""

    def __init__(self, text: str, offset: int = 0, original: str | None = None) -> None:
        self.text = original if original is not None else text
        self.words = [
            Word(m.group().lower(), m.start() + 1 + offset) for m in re.finditer(r"\S+", text)
        ]
        self.index = 0

    def error(self, reason: str, word: Word | None = None) -> NotationError:
        column = word.column if word else len(self.text.rstrip()) + 1
        return NotationError(reason, self.text, column)

    def at_end(self) -> bool:
        return self.index >= len(self.words)

    def peek(self) -> Word | None:
        return None if self.at_end() else self.words[self.index]

    def next(self, expected: str) -> Word:
        if self.at_end():
            raise self.error(f"{expected} expected")
        word = self.words[self.index]
        self.index += 1
        return word

    def name(self, names: Names, expected: str | None = None) -> int:
        word = self.next(expected or names.what)
        return self.named(word, names)

    def named(self, word: Word, names: Names, text: str | None = None) -> int:
        value = names.lookup(word.text if text is None else text)
        if value is None:
            raise self.error(
                f"unknown {names.what} {text or word.text!r} (one of {names.choices()})", word
            )
        return value

    def integer(self, expected: str, lo: int | None = None, hi: int | None = None) -> int:
        word = self.next(expected)
        return self.int_of(word, word.text, expected, lo, hi)

    def int_of(
        self, word: Word, text: str, what: str, lo: int | None = None, hi: int | None = None
    ) -> int:
        if not re.fullmatch(r"-?\d+", text):
            raise self.error(f"{what} expected, not {text!r}", word)
        value = int(text)
        if not _in_range(value, lo, hi):
            raise self.error(f"{what} out of range: {value}", word)
        return value

    def integers(self, expected: str, lo: int | None = None) -> list[int]:
        """Every remaining leading word that is a number (possibly none)."""
        values = []
        while (word := self.peek()) is not None and re.fullmatch(r"-?\d+", word.text):
            values.append(self.integer(expected, lo))
        return values

    def finish(self) -> None:
        if not self.at_end():
            word = self.words[self.index]
            raise self.error(f"unexpected {word.text!r} after a complete move", word)


# -- positions: key=value fields ---------------------------------------------------------------


@dataclass(frozen=True)
class Value:
    """One field's value, with where it came from for errors."""

    key: str
    text: str
    """Lower-cased unless it was quoted."""
    column: int
    source: str
    quoted: bool = False

    def error(self, reason: str, offset: int = 0) -> NotationError:
        return NotationError(f"{self.key}: {reason}", self.source, self.column + offset)

    def integer(self, lo: int | None = None, hi: int | None = None) -> int:
        return self.int_part(self.text, 0, lo, hi)

    def int_part(self, text: str, offset: int, lo: int | None = None, hi: int | None = None) -> int:
        if not re.fullmatch(r"-?\d+", text):
            raise self.error(f"a whole number expected, not {text!r}", offset)
        value = int(text)
        if not _in_range(value, lo, hi):
            raise self.error(f"{value} is out of range", offset)
        return value

    def parts(self, sep: str, text: str | None = None, offset: int = 0) -> list[tuple[str, int]]:
        """``text`` (default: the value) split on ``sep``, each part with its offset."""
        source = self.text if text is None else text
        out = []
        start = 0
        for piece in source.split(sep):
            out.append((piece, offset + start))
            start += len(piece) + len(sep)
        return out

    def int_list(self, lo: int | None = None, hi: int | None = None) -> list[int]:
        return self.ints_in(self.text, 0, lo, hi)

    def ints_in(
        self, text: str, offset: int, lo: int | None = None, hi: int | None = None
    ) -> list[int]:
        """A comma-separated list of numbers; ``-`` (or nothing) is the empty list."""
        if text in ("", "-"):
            return []
        return [self.int_part(p, o, lo, hi) for p, o in self.parts(",", text, offset)]

    def name(self, names: Names, text: str | None = None, offset: int = 0) -> int:
        word = self.text if text is None else text
        value = names.lookup(word)
        if value is None:
            raise self.error(f"unknown {names.what} {word!r} (one of {names.choices()})", offset)
        return value

    def names_in(self, names: Names, text: str | None = None, offset: int = 0) -> list[int]:
        source = self.text if text is None else text
        if source in ("", "-"):
            return []
        return [self.name(names, p, o) for p, o in self.parts(",", source, offset)]

    def boolean(self) -> bool:
        if self.text in ("yes", "true", "1"):
            return True
        if self.text in ("no", "false", "0"):
            return False
        raise self.error(f"yes or no expected, not {self.text!r}")


_KEY = re.compile(r"[A-Za-z][A-Za-z0-9_.]*")


class Fields:
    """The ``key=value`` fields of a position; ``take`` each known one, then ``finish``."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.values: dict[str, Value] = {}
        self.order: list[str] = []
        pos = 0
        while True:
            while pos < len(text) and text[pos].isspace():
                pos += 1
            if pos >= len(text):
                break
            key_match = _KEY.match(text, pos)
            if not key_match or text[key_match.end() : key_match.end() + 1] != "=":
                raise NotationError("a field (key=value) expected", text, pos + 1)
            key = key_match.group().lower()
            if key in self.values:
                raise NotationError(f"{key} is given twice", text, pos + 1)
            pos = key_match.end() + 1
            if text[pos : pos + 1] == '"':
                try:
                    decoded, end = json.JSONDecoder().raw_decode(text, pos)
                except json.JSONDecodeError as err:
                    raise NotationError(
                        f"{key}: bad quoted text ({err.msg})", text, pos + 1
                    ) from None
                if not isinstance(decoded, str):
                    raise NotationError(f"{key}: quoted text expected", text, pos + 1)
                value = Value(key, decoded, pos + 2, text, quoted=True)
            else:
                end = pos
                while end < len(text) and not text[end].isspace():
                    end += 1
                value = Value(key, text[pos:end].lower(), pos + 1, text)
            if end < len(text) and not text[end].isspace():
                raise NotationError("a space expected between fields", text, end + 1)
            self.values[key] = value
            self.order.append(key)
            pos = end

    def take(self, key: str) -> Value | None:
        return self.values.pop(key, None)

    def require(self, key: str) -> Value:
        value = self.take(key)
        if value is None:
            raise NotationError(f"the field {key}= is required", self.text, 1)
        return value

    def keys_starting(self, prefix: str) -> list[str]:
        return [k for k in self.order if k.startswith(prefix) and k in self.values]

    def finish(self) -> None:
        for key in self.order:
            if key in self.values:
                value = self.values[key]
                raise NotationError(
                    f"unknown field {key!r}", self.text, value.column - len(key) - 1
                )


class FieldWriter:
    """Collects ``key=value`` fields in order and writes one line."""

    def __init__(self) -> None:
        self.fields: list[tuple[str, str]] = []

    def put(self, key: str, value: str) -> None:
        self.fields.append((key, value))

    def text(self) -> str:
        return " ".join(f"{key}={quote(value)}" for key, value in self.fields)


def quote(value: str) -> str:
    """The value as written in a position: quoted when it is empty or holds spaces,
    quotes or upper-case letters (which unquoted values would lose)."""
    if value and value == value.lower() and re.fullmatch(r'[^\s"]+', value):
        return value
    return json.dumps(value, ensure_ascii=False)


# -- pieces several games use ----------------------------------------------------------------


def ints_text(values: Iterable[int]) -> str:
    """``1,2,3``; ``-`` for none."""
    return ",".join(str(v) for v in values) or "-"


def format_rng(rng: common_pb2.RngState) -> str:
    return f"{rng.state:016x}/{rng.inc:016x}"


def parse_rng(value: Value, into: common_pb2.RngState) -> None:
    parts = value.parts("/")
    if len(parts) != 2:
        raise value.error("two hexadecimal numbers state/inc expected")
    numbers = []
    for text, offset in parts:
        if not re.fullmatch(r"[0-9a-f]{1,16}", text):
            raise value.error(
                f"a hexadecimal number of at most 16 digits expected, not {text!r}", offset
            )
        numbers.append(int(text, 16))
    into.state, into.inc = numbers


OUTCOME_KEYS = ("winners", "end", "tiebreaks", "summary")


def write_outcome(writer: FieldWriter, has: bool, outcome: common_pb2.Outcome) -> None:
    """``winners=0,2 end=control tiebreaks=a,b summary="..."``; nothing while the game goes on.

    ``end`` (the termination) marks a finished game and is always written then.
    """
    if not has:
        return
    if outcome.winners:
        writer.put("winners", ints_text(outcome.winners))
    writer.put("end", outcome.termination)
    if outcome.tiebreaks:
        for code in outcome.tiebreaks:
            if not re.fullmatch(r"[a-z0-9_]+", code):
                raise NotationError(f"tie-break code {code!r} is not a lower-case word")
        writer.put("tiebreaks", ",".join(outcome.tiebreaks))
    if outcome.summary:
        writer.put("summary", outcome.summary)


def read_outcome(fields: Fields, into: Callable[[], common_pb2.Outcome]) -> None:
    """Read the outcome fields; ``into()`` gives the (then present) outcome message."""
    end = fields.take("end")
    others = {k: fields.take(k) for k in ("winners", "tiebreaks", "summary")}
    if end is None:
        stray = next((v for v in others.values() if v is not None), None)
        if stray is not None:
            raise stray.error("only a finished game (end=...) has this field")
        return
    outcome = into()
    outcome.SetInParent()
    outcome.termination = end.text
    if (winners := others["winners"]) is not None:
        outcome.winners.extend(winners.int_list(lo=0))
    if (tiebreaks := others["tiebreaks"]) is not None and tiebreaks.text not in ("", "-"):
        outcome.tiebreaks.extend(p for p, _ in tiebreaks.parts(","))
    if (summary := others["summary"]) is not None:
        outcome.summary = summary.text


def seat_keys(fields: Fields, prefix: str, num_seats: int) -> Iterator[tuple[int, str, Value]]:
    """Fields ``p<seat>.<name>`` (or ``p<seat>`` with name ``""``) for seats below ``num_seats``."""
    pattern = re.compile(rf"{re.escape(prefix)}(0|[1-9]\d*)(?:\.([a-z_]+))?")
    for key in fields.keys_starting(prefix):
        match = pattern.fullmatch(key)
        if not match:
            continue
        seat = int(match[1])
        value = fields.values[key]
        if seat >= num_seats:
            raise value.error(f"there is no seat {seat} in a {num_seats}-seat game", -len(key) - 1)
        fields.take(key)
        yield seat, match[2] or "", value


def check_len(items: Sequence[object], n: int, what: str) -> None:
    if len(items) != n:
        raise NotationError(f"{len(items)} {what} in a {n}-seat game: not a position")


def outcome_line(outcome: common_pb2.Outcome) -> str:
    """``game over: seat 1 wins (last_stone): seat 1 took the last stone``."""
    winners = list(outcome.winners)
    if not winners:
        who = "nobody wins"
    elif len(winners) == 1:
        who = f"seat {winners[0]} wins"
    else:
        who = "seats " + ", ".join(str(w) for w in winners) + " win"
    text = f"game over: {who}"
    if outcome.termination:
        text += f" ({outcome.termination})"
    if outcome.summary:
        text += f": {outcome.summary}"
    return text


def viewer_name(viewer: Viewer) -> str:
    return "spectator" if viewer is None else f"seat {viewer}"
