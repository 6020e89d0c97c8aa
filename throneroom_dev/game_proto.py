"""game.proto's per-game lines, written from its games block (``make proto``).

proto/throneroom/v1/game.proto names each game on one hand-written line of
its games block, a run of comment lines::

    // games:
    //   <name> <Prefix> <number>
    // end of games

``<name>`` is the game's registered name (the field name of its entries; its
messages are in ``throneroom/v1/<name>.proto``), ``<Prefix>`` starts its
messages' names (``<Prefix>Options`` ... ``<Prefix>View``) and ``<number>`` is
the field number of its entry in every envelope. From the block, ``render``
writes the lines between each ``// generated from the games above ...`` marker
and the ``// end of generated lines`` that follows it: the games' imports, in
the block's order, and each envelope's ``oneof game`` entries, in field-number
order. ``stale`` says which of those lines differ from what the block
generates (``scripts/gen_proto.py --check``). A malformed block (a line not in
the format, a name, prefix or number used twice, a number or name that an
envelope's own fields already use) or misplaced markers raise
``GameProtoError``. Nothing here runs protoc: scripts/gen_proto.py does.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

BLOCK_START = "// games:"
BLOCK_END = "// end of games"
BEGIN = "// generated from the games above (make proto); do not edit"
END = "// end of generated lines"
ENVELOPES: dict[str, str] = {
    "GameOptions": "Options",
    "GameState": "State",
    "Move": "Move",
    "Event": "Event",
    "View": "View",
}
"""The envelopes, each with the suffix of its entries' messages."""
MAX_FIELD_NUMBER = 2**29 - 1
RESERVED_NUMBERS = range(19000, 20000)
"""Field numbers protobuf keeps for itself."""

_GAME_LINE = re.compile(r"//   ([a-z][a-z0-9]*(?:_[a-z0-9]+)*) ([A-Z][A-Za-z0-9]*) ([1-9][0-9]*)")
_MESSAGE = re.compile(r"message (\w+) \{")
_ONEOF_BEGIN = re.compile(r"(\s*)oneof game \{  " + re.escape(BEGIN))
_ONEOF_END = re.compile(r"\s*\}  " + re.escape(END))
_FIELD = re.compile(r"\s*(?:repeated |optional )?[\w.]+ (\w+) = (\d+);")


class GameProtoError(ValueError):
    """game.proto's games block or markers are malformed (the message says where)."""


@dataclass(frozen=True)
class Game:
    """One line of the games block."""

    name: str
    prefix: str
    number: int
    line: int
    """Its line number in game.proto (from 1)."""


@dataclass(frozen=True)
class Region:
    """Generated lines: the games' imports (``envelope`` None) or one envelope's entries."""

    envelope: str | None
    begin: int
    """Index (from 0) of the line holding the BEGIN marker."""
    end: int
    """Index of the line holding the END marker; the generated lines are between."""
    indent: str
    """The indentation of the generated lines."""

    def describe(self) -> str:
        return "the games' imports" if self.envelope is None else f"{self.envelope}'s entries"


def games(text: str) -> list[Game]:
    """The games block's lines, checked against each other (not against the envelopes)."""
    lines = text.splitlines()
    starts = [i for i, line in enumerate(lines) if line == BLOCK_START]
    ends = [i for i, line in enumerate(lines) if line == BLOCK_END]
    if len(starts) != 1 or len(ends) != 1 or ends[0] < starts[0]:
        raise GameProtoError(
            f"game.proto needs one games block: a line {BLOCK_START!r}, one line per game,"
            f" then a line {BLOCK_END!r}"
        )
    found: list[Game] = []
    for index in range(starts[0] + 1, ends[0]):
        match = _GAME_LINE.fullmatch(lines[index])
        if match is None:
            raise GameProtoError(
                f"game.proto:{index + 1}: {lines[index]!r} is not a game line"
                " ('//   <name> <Prefix> <number>', e.g. '//   chess Chess 16')"
            )
        found.append(Game(match[1], match[2], int(match[3]), index + 1))
    if not found:
        raise GameProtoError(f"game.proto:{starts[0] + 1}: the games block lists no game")
    for game in found:
        if game.number > MAX_FIELD_NUMBER or game.number in RESERVED_NUMBERS:
            raise GameProtoError(
                f"game.proto:{game.line}: {game.number} is not a usable field number (1 to"
                f" {MAX_FIELD_NUMBER}, but not {RESERVED_NUMBERS[0]} to {RESERVED_NUMBERS[-1]})"
            )
    for attribute, what in (("name", "name"), ("prefix", "prefix"), ("number", "field number")):
        seen: dict[object, Game] = {}
        for game in found:
            value = getattr(game, attribute)
            if value in seen:
                raise GameProtoError(
                    f"game.proto:{game.line}: {what} {value!r} is already"
                    f" used on line {seen[value].line}"
                )
            seen[value] = game
    return found


def regions(text: str) -> list[Region]:
    """The generated regions, checked: one for the imports and one in each envelope."""
    found: list[Region] = []
    message: str | None = None
    opened: tuple[str | None, int, str] | None = None
    for index, line in enumerate(text.splitlines()):
        where = f"game.proto:{index + 1}"
        if match := _MESSAGE.fullmatch(line):
            message = match[1]
        elif line == "}":
            message = None
        if BEGIN in line:
            oneof = _ONEOF_BEGIN.fullmatch(line)
            if opened is not None:
                raise GameProtoError(f"{where}: a generated region opens inside another")
            if line == BEGIN and message is None:
                opened = (None, index, "")
            elif oneof is not None and message in ENVELOPES:
                opened = (message, index, oneof[1] + "  ")
            else:
                raise GameProtoError(
                    f"{where}: the marker must be a line of its own (the imports) or end"
                    " the 'oneof game {' line of an envelope"
                )
        elif END in line:
            if opened is None:
                raise GameProtoError(f"{where}: a generated region ends that never began")
            envelope, begin, indent = opened
            if line != (END if envelope is None else f"{indent[:-2]}}}  {END}"):
                raise GameProtoError(
                    f"{where}: the imports end with {END!r} on its own line, an envelope's"
                    f" entries with '}}  {END}' closing its oneof"
                )
            found.append(Region(envelope, begin, index, indent))
            opened = None
    if opened is not None:
        raise GameProtoError(f"game.proto:{opened[1] + 1}: a generated region never ends")
    kinds = [region.envelope for region in found]
    if sorted(kinds, key=str) != sorted([None, *ENVELOPES], key=str):
        raise GameProtoError(
            "game.proto needs one generated region for the imports and one in each of"
            f" {', '.join(ENVELOPES)}; it has them for {kinds}"
        )
    return found


def own_fields(text: str, found: list[Region]) -> dict[int, tuple[str, int]]:
    """The envelopes' hand-written fields (outside the generated lines): number to
    (name, line number)."""
    inside = {i for region in found for i in range(region.begin, region.end + 1)}
    fields: dict[int, tuple[str, int]] = {}
    message: str | None = None
    for index, line in enumerate(text.splitlines()):
        if match := _MESSAGE.fullmatch(line):
            message = match[1]
        elif line == "}":
            message = None
        elif message in ENVELOPES and index not in inside:
            field = _FIELD.match(line.split("//", 1)[0])
            if field is not None:
                fields[int(field[2])] = (field[1], index + 1)
    return fields


def checked_games(text: str) -> tuple[list[Game], list[Region]]:
    """The games block and the generated regions, checked together: no game takes
    a field number or a name that an envelope's own fields use."""
    listed = games(text)
    found = regions(text)
    own = own_fields(text, found)
    names = {name: line for name, line in own.values()}
    for game in listed:
        if game.number in own:
            name, line = own[game.number]
            raise GameProtoError(
                f"game.proto:{game.line}: {game.name}'s number {game.number} is already"
                f" {name}'s (line {line})"
            )
        if game.name in names:
            raise GameProtoError(
                f"game.proto:{game.line}: {game.name} is already the name of a field"
                f" (line {names[game.name]})"
            )
    return listed, found


def generated_lines(region: Region, listed: list[Game]) -> list[str]:
    """What the games block puts in one region."""
    if region.envelope is None:
        return [f'import "throneroom/v1/{game.name}.proto";' for game in listed]
    suffix = ENVELOPES[region.envelope]
    return [
        f"{region.indent}{game.prefix}{suffix} {game.name} = {game.number};"
        for game in sorted(listed, key=lambda game: game.number)
    ]


def render(text: str) -> str:
    """game.proto's text with every generated region rewritten from its games block."""
    listed, found = checked_games(text)
    lines = text.splitlines()
    out: list[str] = []
    kept = 0
    for region in found:
        out += lines[kept : region.begin + 1]
        out += generated_lines(region, listed)
        kept = region.end
    out += lines[kept:]
    return "\n".join(out) + "\n"


def stale(text: str) -> list[str]:
    """The generated regions whose lines differ from what the games block
    generates, each said in a sentence (none: game.proto is up to date)."""
    listed, found = checked_games(text)
    lines = text.splitlines()
    return [
        f"game.proto:{region.begin + 1}: {region.describe()} differ from the games block"
        for region in found
        if lines[region.begin + 1 : region.end] != generated_lines(region, listed)
    ]
