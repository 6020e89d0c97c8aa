"""The Kill the King board as data: a text map, its loader and its rendering.

The rulebook's pictures are not in its text, so the board is our own design
(RULES-NOTES.md, "Kill the King"), kept here as a text map: one character per
space, one layer for the terrain and one zone layer per mode family. Nothing
else in the code knows the geometry: walls, the gate, stairs, the King's
Door, the road, reinforcement edges and setup zones all come from the map.

Coordinates: ``(row, col)``, 0-based. Row 0 is the attacker's edge and rows
grow towards the castle ("north"); the text lists the northmost row first,
so the castle is drawn at the top. Terrain legend (docs/rules/kill_the_king.md
KK-B1)::

    .  grass                      _  castle ground (brown, inside the walls)
    =  road on grass              +  road on castle ground
    :  grass on a reinforcement edge
    #  wall (its top is the wall level)
    ^  the outer gate (a passage on the ground, a wall space above it)
    /  stairs (both levels at once)
    @  the King's Door

Zone legend (one layer per mode family, ``[zones kill_the_king]`` and
``[zones attack_and_defense]``)::

    A  the attacker's setup rows      a  the attacker's extra row (row 4)
    D  the defender's setup zone      d  the defender's extra zone
    .  in play, no setup              x  not in play in this mode

    >>> board = DEFAULT_BOARD
    >>> (board.rows, board.cols)
    (16, 11)
    >>> board.space(9, 5).terrain
    <Terrain.GATE: '^'>
    >>> load_board(board.render_map()) == board
    True
"""

from __future__ import annotations

import enum
from collections.abc import Container, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import NamedTuple

from throneroom.games.kill_the_king.enums import Direction, Level

# -- the map ----------------------------------------------------------------------------

STANDARD_MAP = """\
[terrain]
:#__/@/__#:
:#__///__#:
:#__///__#:
:#___+___#:
:#___+___#:
:#/__+__/#:
:####^####:
.....=.....
.....=.....
.....=.....
.....=.....
.....=.....
.....=.....
.....=.....
.....=.....
.....=.....

[zones kill_the_king]
dDDDD.DDDDd
dDDDDDDDDDd
dDDDDDDDDDd
dDDDDDDDDDd
dDDDDDDDDDd
dDDDDDDDDDd
dDDDDDDDDDd
.ddddddddd.
...........
...........
...........
...........
aaaaaaaaaaa
AAAAAAAAAAA
AAAAAAAAAAA
AAAAAAAAAAA

[zones attack_and_defense]
xxxxxxxxxxx
xxxxxxxxxxx
xxxxxxxxxxx
xxxxxxxxxxx
xxxxxxxxxxx
xxxxxxxxxxx
xxxxxxxxxxx
DDDDDDDDDDD
DDDDDDDDDDD
DDDDDDDDDDD
ddddddddddd
...........
aaaaaaaaaaa
AAAAAAAAAAA
AAAAAAAAAAA
AAAAAAAAAAA
"""
"""The default board: 11 columns x 16 rows (RULES-NOTES' example layout)."""

KILL_THE_KING_ZONES = "kill_the_king"
ATTACK_AND_DEFENSE_ZONES = "attack_and_defense"
ZONE_LAYERS = (KILL_THE_KING_ZONES, ATTACK_AND_DEFENSE_ZONES)
"""The zone layers every map must have (ModeSpec.zone_layer names one)."""


class MapError(ValueError):
    """A malformed text map; the message says where (line, row, col) and why."""


class Terrain(enum.Enum):
    """What a space is (its map character for plain spaces)."""

    GRASS = "."
    GROUND = "_"
    WALL = "#"
    GATE = "^"
    STAIRS = "/"
    DOOR = "@"


class Zone(enum.Enum):
    ATTACKER = "A"
    ATTACKER_EXTRA = "a"
    DEFENDER = "D"
    DEFENDER_EXTRA = "d"
    NONE = "."
    OUT = "x"


RUBBLE_CHAR = "*"
"""How render() draws a destroyed wall or gate space (grass with a broken-wall tile)."""

# map character -> (terrain, road, reinforcement edge)
_TERRAIN_CHARS: Mapping[str, tuple[Terrain, bool, bool]] = MappingProxyType(
    {
        ".": (Terrain.GRASS, False, False),
        "=": (Terrain.GRASS, True, False),
        ":": (Terrain.GRASS, False, True),
        "_": (Terrain.GROUND, False, False),
        "+": (Terrain.GROUND, True, False),
        "#": (Terrain.WALL, False, False),
        "^": (Terrain.GATE, False, False),
        "/": (Terrain.STAIRS, False, False),
        "@": (Terrain.DOOR, False, False),
    }
)
_ZONE_CHARS: Mapping[str, Zone] = MappingProxyType({z.value: z for z in Zone})


class Coord(NamedTuple):
    """A space of the field: (row, col)."""

    row: int
    col: int

    def step(self, direction: Direction, distance: int = 1) -> Coord:
        d_row, d_col = direction.delta
        return Coord(self.row + d_row * distance, self.col + d_col * distance)


class Position(NamedTuple):
    """Where a unit can stand: a space and a level (only the gate's space has two)."""

    coord: Coord
    level: Level


@dataclass(frozen=True)
class Space:
    """One space of the field."""

    coord: Coord
    terrain: Terrain
    local: Coord
    """Its coordinates on its own board's map (its coord on a one-board field)."""
    road: bool = False
    reinforcement: bool = False
    """On a reinforcement edge (KK-40)."""
    rubble: bool = False
    """A destroyed wall or gate space, now grass (KK-52)."""
    board: int = 0
    """Which board of a Giga field it belongs to (0 on one board)."""

    @property
    def char(self) -> str:
        """Its map character (rubble: the character of the grass it now is)."""
        if self.reinforcement:
            return ":"
        if self.road:
            return "=" if self.terrain is Terrain.GRASS else "+"
        return self.terrain.value

    @property
    def inside(self) -> bool:
        """Inside the castle walls (castle ground, the road there, stairs, the door): KK-38."""
        return self.terrain in (Terrain.GROUND, Terrain.STAIRS, Terrain.DOOR)

    @property
    def is_wall(self) -> bool:
        """An intact wall space or the gate (both have a wall level)."""
        return self.terrain in (Terrain.WALL, Terrain.GATE)

    @property
    def levels(self) -> tuple[Level, ...]:
        """The levels a unit can stand on here (the gate: the passage, then above)."""
        if self.terrain is Terrain.WALL:
            return (Level.WALL,)
        if self.terrain is Terrain.GATE:
            return (Level.GROUND, Level.WALL)
        if self.terrain is Terrain.STAIRS:
            return (Level.STAIRS,)
        if self.terrain is Terrain.DOOR:
            return ()
        return (Level.GROUND,)


def _joined(a: Level, b: Level) -> bool:
    """Whether one orthogonal step may go between these levels (KK-5, KK-42, KK-60)."""
    if Level.STAIRS in (a, b):
        return True
    return a == b


@dataclass(frozen=True)
class Board:
    """A field of play: one board, or two joined (Giga). Immutable."""

    rows: int
    cols: int
    spaces: tuple[Space, ...]
    """Row-major: spaces[row * cols + col]."""
    layers: tuple[tuple[str, tuple[Zone, ...]], ...]
    """(zone layer name, row-major zones) pairs, sorted by name."""
    boards: int = 1
    _steps: Mapping[Position, tuple[tuple[Direction, Position], ...]] = field(
        init=False, repr=False, compare=False
    )

    def __post_init__(self) -> None:
        steps: dict[Position, tuple[tuple[Direction, Position], ...]] = {}
        for space in self.spaces:
            for level in space.levels:
                here = Position(space.coord, level)
                out: list[tuple[Direction, Position]] = []
                for direction in Direction:
                    target = space.coord.step(direction)
                    if not self.contains(target):
                        continue
                    for other in self.space(*target).levels:
                        if _joined(level, other):
                            out.append((direction, Position(target, other)))
                steps[here] = tuple(out)
        object.__setattr__(self, "_steps", MappingProxyType(steps))

    # -- spaces ---------------------------------------------------------------------------

    def contains(self, coord: tuple[int, int]) -> bool:
        row, col = coord
        return 0 <= row < self.rows and 0 <= col < self.cols

    def space(self, row: int, col: int) -> Space:
        if not self.contains((row, col)):
            raise KeyError(f"({row}, {col}) is off the {self.rows}x{self.cols} field")
        return self.spaces[row * self.cols + col]

    def __iter__(self) -> Iterator[Space]:
        return iter(self.spaces)

    def of(self, terrain: Terrain) -> tuple[Coord, ...]:
        """Every space of a terrain, row-major."""
        return tuple(s.coord for s in self.spaces if s.terrain is terrain)

    @property
    def gates(self) -> tuple[Coord, ...]:
        return self.of(Terrain.GATE)

    @property
    def doors(self) -> tuple[Coord, ...]:
        return self.of(Terrain.DOOR)

    @property
    def stairs(self) -> tuple[Coord, ...]:
        return self.of(Terrain.STAIRS)

    @property
    def walls(self) -> tuple[Coord, ...]:
        """Wall spaces (not the gate)."""
        return self.of(Terrain.WALL)

    @property
    def road(self) -> tuple[Coord, ...]:
        return tuple(s.coord for s in self.spaces if s.road)

    def reinforcement_edge(self, board: int | None = None) -> tuple[Coord, ...]:
        """The reinforcement spaces (of one board of a Giga field, if given)."""
        return tuple(s.coord for s in self.spaces if s.reinforcement and board in (None, s.board))

    def corner_stairs(self) -> tuple[Coord, ...]:
        """Stairs next to a wall space: the only way down from the walls (KK-42)."""
        return tuple(c for c in self.stairs if any(self.space(*n).is_wall for n in self.around(c)))

    def king_stairs(self, door: Coord) -> tuple[Coord, ...]:
        """The block of stairs in front of a door: stairs connected to it (KK-113)."""
        seen: set[Coord] = set()
        todo = [n for n in self.around(door) if self.space(*n).terrain is Terrain.STAIRS]
        while todo:
            coord = todo.pop()
            if coord in seen:
                continue
            seen.add(coord)
            for n in self.around(coord):
                if self.space(*n).terrain is Terrain.STAIRS and not any(
                    self.space(*m).is_wall for m in self.around(n)
                ):
                    todo.append(n)
        return tuple(sorted(seen))

    def around(self, coord: Coord) -> tuple[Coord, ...]:
        """The orthogonal neighbours on the field, in Direction order."""
        out = (coord.step(d) for d in Direction)
        return tuple(c for c in out if self.contains(c))

    # -- lines of attack ---------------------------------------------------------------------

    def line(
        self, coord: Coord, direction: Direction, distances: Iterable[int]
    ) -> tuple[tuple[int, Coord], ...]:
        """(distance, space) straight ahead of ``coord`` at each distance that is on
        the field (KK-64): what a unit facing ``direction`` can reach."""
        out = ((d, coord.step(direction, d)) for d in distances)
        return tuple((d, c) for d, c in out if self.contains(c))

    def between(self, a: Coord, b: Coord) -> tuple[Coord, ...]:
        """The spaces strictly between two spaces of one row or column, from ``a``."""
        if a.row != b.row and a.col != b.col:
            raise ValueError(f"{a} and {b} are not on one row or column")
        steps = max(abs(a.row - b.row), abs(a.col - b.col))
        if steps == 0:
            return ()
        d_row, d_col = (b.row - a.row) // steps, (b.col - a.col) // steps
        return tuple(Coord(a.row + d_row * i, a.col + d_col * i) for i in range(1, steps))

    def walls_between(self, a: Coord, b: Coord) -> bool:
        """Whether an intact wall or gate space lies strictly between two spaces of
        one line: a shot from ``a`` at ``b`` goes over a wall (KK-49, KK-50)."""
        return any(self.space(*c).is_wall for c in self.between(a, b))

    def cross(self, centre: Coord) -> tuple[Coord, ...]:
        """A Catapult's cross: the centre, then its neighbours on the field in the
        order North, East, South, West (KK-67, the order of the dice KK-37)."""
        return (centre, *self.around(centre))

    # -- movement graph ---------------------------------------------------------------------

    def positions(self) -> tuple[Position, ...]:
        """Every place a unit can be, row-major (the gate: passage, then above)."""
        return tuple(Position(s.coord, level) for s in self.spaces for level in s.levels)

    def steps(
        self, position: Position, within: Container[Coord] | None = None
    ) -> tuple[tuple[Direction, Position], ...]:
        """The orthogonal steps from a position that the terrain allows, ignoring
        units, the gate's owner and climbing (KK-5, KK-42, KK-55, KK-60): along
        the ground, along the walls, on and off stairs; never from a wall down to
        the ground or from the ground up a wall; never onto the King's Door.
        ``within``: only onto these spaces (a mode's ``in_play`` spaces, KK-8)."""
        steps = self._steps.get(position, ())
        if within is None:
            return steps
        return tuple((d, p) for d, p in steps if p.coord in within)

    def climbs(self, coord: Coord) -> tuple[tuple[Direction, Coord], ...]:
        """The wall spaces a unit standing on the ground at ``coord`` may climb (KK-44)."""
        here = self.space(*coord)
        if here.terrain not in (Terrain.GRASS, Terrain.GROUND):
            return ()
        return tuple(
            (d, coord.step(d))
            for d in Direction
            if self.contains(coord.step(d)) and self.space(*coord.step(d)).is_wall
        )

    def level_of(self, coord: Coord) -> Level:
        """The level of a unit at rest on this space (on the gate's space: above it)."""
        levels = self.space(*coord).levels
        if not levels:
            raise KeyError(f"no unit can stand on {coord}")
        return levels[-1]

    # -- zones ----------------------------------------------------------------------------

    def zone(self, layer: str, coord: Coord) -> Zone:
        return self.zones(layer)[coord.row * self.cols + coord.col]

    def zones(self, layer: str) -> tuple[Zone, ...]:
        """One zone layer, row-major."""
        for name, zones in self.layers:
            if name == layer:
                return zones
        raise KeyError(f"the map has no zone layer {layer!r}")

    def in_play(self, layer: str) -> frozenset[Coord]:
        """The spaces a mode uses (KK-B3): all but those marked 'x'."""
        return frozenset(s.coord for s in self.spaces if self.zone(layer, s.coord) is not Zone.OUT)

    def zone_squares(self, layer: str, zone: Zone, board: int | None = None) -> frozenset[Coord]:
        """The spaces of one zone of a layer (of one board of a Giga field, if given)."""
        return frozenset(
            s.coord
            for s in self.spaces
            if self.zone(layer, s.coord) is zone and board in (None, s.board)
        )

    # -- destroyed walls ------------------------------------------------------------------------

    def ruined(self, coords: Iterable[tuple[int, int]]) -> Board:
        """This field with the given wall and gate spaces destroyed: grass with
        rubble, which any unit may enter (KK-52). Other coordinates are refused."""
        wrecked = {Coord(*c) for c in coords}
        for coord in wrecked:
            if not self.contains(coord) or not self.space(*coord).is_wall:
                raise ValueError(f"{coord} is no wall or gate space: it cannot be destroyed")
        if not wrecked:
            return self
        spaces = tuple(
            Space(s.coord, Terrain.GRASS, s.local, rubble=True, board=s.board)
            if s.coord in wrecked
            else s
            for s in self.spaces
        )
        return Board(self.rows, self.cols, spaces, self.layers, self.boards)

    # -- text -------------------------------------------------------------------------------

    def render(self, overlay: Mapping[tuple[int, int], str] | None = None) -> str:
        """The terrain as text, northmost row first; ``overlay`` puts one character
        on a space (a unit's letter); rubble shows as '*'."""
        lines = []
        for row in reversed(range(self.rows)):
            chars = []
            for col in range(self.cols):
                space = self.spaces[row * self.cols + col]
                mark = overlay.get((row, col)) if overlay else None
                if mark is not None:
                    if len(mark) != 1:
                        raise ValueError(f"overlay on ({row}, {col}) is not one character")
                    chars.append(mark)
                else:
                    chars.append(RUBBLE_CHAR if space.rubble else space.char)
            lines.append("".join(chars))
        return "\n".join(lines) + "\n"

    def render_map(self) -> str:
        """The whole text map (terrain and zone layers): load_board() reads it back."""
        parts = ["[terrain]\n" + self.render()]
        for layer, zones in self.layers:
            rows = (
                "".join(zones[row * self.cols + col].value for col in range(self.cols))
                for row in reversed(range(self.rows))
            )
            parts.append(f"[zones {layer}]\n" + "\n".join(rows) + "\n")
        return "\n".join(parts)


# -- the loader -------------------------------------------------------------------------------


def _sections(text: str) -> dict[str, list[tuple[int, str]]]:
    sections: dict[str, list[tuple[int, str]]] = {}
    current: list[tuple[int, str]] | None = None
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.rstrip()
        if not line:
            continue
        if line.startswith("["):
            if not line.endswith("]"):
                raise MapError(f"line {number}: a section header is written [name]: {line!r}")
            name = " ".join(line[1:-1].split())
            if name != "terrain" and not name.startswith("zones "):
                raise MapError(
                    f"line {number}: unknown section [{name}] (expected [terrain] or [zones NAME])"
                )
            if name in sections:
                raise MapError(f"line {number}: section [{name}] appears twice")
            current = sections[name] = []
            continue
        if current is None:
            raise MapError(f"line {number}: map text before the first [section]")
        current.append((number, line))
    return sections


def _grid(name: str, lines: list[tuple[int, str]], cols: int | None) -> tuple[int, int]:
    if not lines:
        raise MapError(f"section [{name}] has no rows")
    width = cols if cols is not None else len(lines[0][1])
    for number, line in lines:
        if len(line) != width:
            raise MapError(
                f"line {number}: section [{name}] row has {len(line)} spaces, expected {width}"
            )
    return len(lines), width


def load_board(text: str) -> Board:
    """Read a text map (module docstring) into a Board; MapError says what is wrong."""
    sections = _sections(text)
    if "terrain" not in sections:
        raise MapError("the map has no [terrain] section")
    terrain_lines = sections["terrain"]
    rows, cols = _grid("terrain", terrain_lines, None)
    cells: dict[Coord, Space] = {}
    for index, (number, line) in enumerate(terrain_lines):
        row = rows - 1 - index
        for col, char in enumerate(line):
            if char not in _TERRAIN_CHARS:
                known = "".join(_TERRAIN_CHARS)
                raise MapError(
                    f"line {number}: unknown terrain {char!r} at row {row}, col {col} "
                    f"(legend: {known})"
                )
            terrain, road, reinforcement = _TERRAIN_CHARS[char]
            coord = Coord(row, col)
            cells[coord] = Space(coord, terrain, coord, road, reinforcement)
    spaces = tuple(cells[Coord(r, c)] for r in range(rows) for c in range(cols))
    zones: dict[str, tuple[Zone, ...]] = {}
    for name, lines in sections.items():
        if name == "terrain":
            continue
        layer = name.split(" ", 1)[1]
        if len(lines) != rows:
            raise MapError(f"section [{name}] has {len(lines)} rows, the terrain has {rows}")
        _grid(name, lines, cols)
        grid: dict[Coord, Zone] = {}
        for index, (number, line) in enumerate(lines):
            row = rows - 1 - index
            for col, char in enumerate(line):
                if char not in _ZONE_CHARS:
                    raise MapError(
                        f"line {number}: unknown zone {char!r} at row {row}, col {col} "
                        f"(legend: {''.join(_ZONE_CHARS)})"
                    )
                grid[Coord(row, col)] = _ZONE_CHARS[char]
        zones[layer] = tuple(grid[Coord(r, c)] for r in range(rows) for c in range(cols))
    for layer in ZONE_LAYERS:
        if layer not in zones:
            raise MapError(f"the map has no [zones {layer}] section")
    board = Board(rows, cols, spaces, tuple(sorted(zones.items())))
    _check(board)
    return board


def _check(board: Board) -> None:
    """The rules' demands on a map (KK-B2), each with a clear message."""
    last = board.cols - 1
    for space in board:
        where = f"row {space.coord.row}, col {space.coord.col}"
        around = [board.space(*c) for c in board.around(space.coord)]
        if space.reinforcement and space.coord.col not in (0, last):
            raise MapError(f"reinforcement edge at {where} is not on the west or east edge")
        if space.terrain is Terrain.GATE:
            row, col = space.coord
            west_east = all(
                board.contains(c) and board.space(*c).terrain is Terrain.WALL
                for c in ((row, col - 1), (row, col + 1))
            )
            north_south = all(
                board.contains(c) and board.space(*c).terrain is Terrain.WALL
                for c in ((row - 1, col), (row + 1, col))
            )
            if not (west_east or north_south):
                raise MapError(f"the gate at {where} must stand between two wall spaces")
        if space.terrain is Terrain.DOOR and not any(a.terrain is Terrain.STAIRS for a in around):
            raise MapError(f"the King's Door at {where} has no stairs in front of it")
    if board.walls and not board.corner_stairs():
        raise MapError("no stairs next to the walls: units on a wall could never leave it")
    if board.doors and not board.gates:
        raise MapError("a castle with a King's Door needs an outer gate")
    for layer, zones in board.layers:
        for space, zone in zip(board.spaces, zones, strict=True):
            where = f"[zones {layer}] row {space.coord.row}, col {space.coord.col}"
            if zone in (Zone.NONE, Zone.OUT):
                continue
            if space.terrain is Terrain.DOOR:
                raise MapError(f"{where}: no unit can be placed on the King's Door")
            if zone in (Zone.ATTACKER, Zone.ATTACKER_EXTRA) and (space.is_wall or space.inside):
                raise MapError(f"{where}: the attacker sets up outside the castle")


DEFAULT_BOARD: Board = load_board(STANDARD_MAP)
"""The standard board, loaded once."""
