"""Kill the King's field drawn with rich, as the viewer's seat sees it.

The grid is the mode's field from the SDK's board data
(``throneroom.games.kill_the_king``: no second copy of the geometry), with the
destroyed walls and gate as rubble: grass, the road, reinforcement edges,
walls, the gate, stairs, castle ground and the King's Door each in their own
colours. A counter is its letter (upper case attacker, lower case defender,
in its side's colour) and an arrow for its facing; ``+`` marks a space with
more counters (a Ram's crew, a tower's stack, both levels of the gate); a
counter on the wall level is underlined. Below: the round and who acts, the
gate, the door and the rubble, and every counter on the field with the id
moves name it by, the viewer's reserve by type with its ids, the seats'
initiative rolls, and in the purchase phases what each unit costs. Before
the reveal another seat's placement is hidden: the view has no square for
it, and the board says so.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

from rich import box
from rich.console import RenderableType
from rich.table import Table
from rich.text import Text

from throneroom.games.kill_the_king.board import Board, Coord
from throneroom.games.kill_the_king.data import MODES, UNITS, Mode, Side, UnitType, mode_of
from throneroom.games.kill_the_king.enums import Category
from throneroom.games.kill_the_king.field import field_for
from throneroom.games.kill_the_king.notation.board import ARROWS, unit_letter
from throneroom.games.kill_the_king.notation.moves import NO_UNIT, square_text
from throneroom.games.kill_the_king.squares import COLUMNS
from throneroom.v1 import kill_the_king_pb2 as pb

__all__ = [
    "SIDE_STYLES",
    "TERRAIN_STYLES",
    "counter_lines",
    "counters_by_square",
    "head",
    "kill_the_king_board",
    "on_top",
    "prices",
    "spec",
    "status",
    "type_name",
    "wrecked_field",
]

Unit = pb.KillTheKingUnit
State = pb.KillTheKingState

#: The sides' colours (the rulebook's black attacker and white defender would
#: vanish on a terminal: red and blue instead).
SIDE_STYLES = {Side.ATTACKER: "bold bright_red", Side.DEFENDER: "bold bright_cyan"}
SIDE_NAMES = {Side.ATTACKER: "attacker", Side.DEFENDER: "defender"}

#: Each kind of space: (style, character drawn when no counter stands there).
TERRAIN_STYLES: dict[str, str] = {
    ".": "green on grey11",  # grass
    "=": "yellow on grey11",  # road on grass
    ":": "bright_green on grey11",  # reinforcement edge
    "_": "dark_orange3 on grey19",  # castle ground
    "+": "yellow on grey19",  # castle road
    "#": "bold white on grey42",  # wall
    "^": "bold yellow on grey42",  # the outer gate
    "/": "bold white on grey30",  # stairs
    "@": "bold white on magenta",  # the King's Door
    "*": "grey58 on grey11",  # rubble
}
OUT_OF_PLAY = "grey23"
LEGEND = (
    "Counters: UPPER attacker (red), lower defender (cyan); the arrow is the facing;"
    " + more counters on the space; underlined: on the wall level.\n"
    "Terrain: . grass  = road  : reinforcement edge  _ castle ground  + castle road"
    "  # wall  ^ gate  / stairs  @ King's Door  * rubble (a destroyed wall or gate)"
)
PHASE_WORDS = {
    State.PHASE_CHOOSE_SIDE: "choosing sides",
    State.PHASE_PURCHASE: "purchases",
    State.PHASE_LEADER: "leaders",
    State.PHASE_EXTRA_PURCHASE: "the Treasurer's purchases",
    State.PHASE_PLACEMENT: "hidden placement",
    State.PHASE_REINFORCEMENT: "reinforcements",
    State.PHASE_MOVEMENT: "movement phase",
    State.PHASE_ATTACK: "attack phase",
    State.PHASE_FOLLOW_UP: "a Cavalry's follow-up",
    State.PHASE_DISBAND: "disbanding",
    State.PHASE_OVER: "game over",
}
DIRECTION_NAMES = {
    pb.DIRECTION_NORTH: "north",
    pb.DIRECTION_EAST: "east",
    pb.DIRECTION_SOUTH: "south",
    pb.DIRECTION_WEST: "west",
}


def spec(view: pb.KillTheKingView) -> tuple[Mode, str, int, str, bool]:
    try:
        spec = mode_of(view.mode)
    except ValueError:
        spec = MODES[Mode.KILL_THE_KING]
    return spec.mode, spec.name, spec.rounds, spec.zone_layer, spec.uses_castle


def wrecked_field(mode: Mode, view: pb.KillTheKingView) -> Board:
    """The mode's field with its destroyed wall and gate spaces as rubble."""
    board = field_for(mode)
    wrecked = [(r.square.row, r.square.col) for r in view.ruins]
    wrecked += [(g.square.row, g.square.col) for g in view.gates if g.destroyed]
    return board.ruined({c for c in wrecked if board.contains(c) and board.space(*c).is_wall})


def _side(unit: Unit) -> Side | None:
    try:
        return Side(unit.side)
    except ValueError:
        return None


def type_name(unit_type: int) -> str:
    try:
        return UNITS[UnitType(unit_type)].name
    except ValueError:
        return f"unit type {unit_type}"


def on_top(units: Sequence[Unit]) -> Unit:
    """The counter drawn on a space holding several (as the text board)."""
    return max(
        units,
        key=lambda u: (u.level == pb.LEVEL_WALL, u.carried_by == NO_UNIT, u.stack, -u.id),
    )


def _cell(board: Board, coord: Coord, counters: Sequence[Unit], playing: bool) -> Text:
    space = board.space(*coord)
    char = "*" if space.rubble else space.char
    background = TERRAIN_STYLES.get(char, "")
    on = background[background.index(" on ") :] if " on " in background else ""
    if not playing:
        return Text("   ", style=OUT_OF_PLAY)
    if not counters:
        return Text(f" {char} ", style=background)
    top = on_top(counters)
    side = _side(top)
    style = SIDE_STYLES.get(side, "bold") if side is not None else "bold"
    if top.level == pb.LEVEL_WALL:
        style += " underline"
    text = Text(unit_letter(top), style=style + on)
    text.append(ARROWS.get(top.facing, " "), style=style + on)
    text.append("+" if len(counters) > 1 else " ", style="bold white" + on)
    return text


def counters_by_square(view: pb.KillTheKingView, board: Board) -> dict[Coord, list[Unit]]:
    """The counters on the field by the space they stand on."""
    here: dict[Coord, list[Unit]] = defaultdict(list)
    for unit in view.units:
        if unit.status == Unit.STATUS_ON_FIELD and unit.HasField("square"):
            coord = Coord(unit.square.row, unit.square.col)
            if board.contains(coord):
                here[coord].append(unit)
    return here


def field_grid(view: pb.KillTheKingView) -> Table:
    """The field, northmost row first (the castle at the top), labelled as the
    notation's squares: columns a.., rows from 1 at the attacker's edge."""
    mode, _name, _rounds, layer, _castle = spec(view)
    board = wrecked_field(mode, view)
    in_play = board.in_play(layer)
    here = counters_by_square(view, board)
    grid = Table(box=box.SQUARE, show_header=True, padding=0, show_edge=True, pad_edge=False)
    grid.add_column("", justify="right", style="dim")
    for col in range(board.cols):
        grid.add_column(COLUMNS[col] if col < len(COLUMNS) else "?", justify="center", width=3)
    grid.add_column("", justify="left", style="dim")
    for row in reversed(range(board.rows)):
        playing = [Coord(row, c) in in_play for c in range(board.cols)]
        if not any(playing):
            continue
        cells = [
            _cell(board, Coord(row, c), here.get(Coord(row, c), ()), playing[c])
            for c in range(board.cols)
        ]
        grid.add_row(f"{row + 1} ", *cells, f" {row + 1}")
    return grid


def head(view: pb.KillTheKingView, viewer: int | None, *, separator: str = "   ") -> Text:
    """The mode, the round, whose turn and the phase, then (after
    ``separator``) the viewer's side."""
    _mode, name, rounds, _layer, _castle = spec(view)
    text = Text(name + (" (advanced units)" if view.advanced else ""), style="bold")
    if view.round:
        turn = SIDE_NAMES.get(Side(view.turn_side), "nobody") if view.turn_side else "nobody"
        text.append(f": round {view.round} of {rounds}, the {turn}'s turn, ")
    else:
        text.append(": setup, ")
    text.append(PHASE_WORDS.get(view.phase, "phase ?"))
    if viewer is not None and 0 <= viewer < len(view.seats) and view.seats[viewer].side:
        side = Side(view.seats[viewer].side)
        text.append(f"{separator}you: the ")
        text.append(SIDE_NAMES[side], style=SIDE_STYLES[side])
    return text


def status(
    view: pb.KillTheKingView, board: Board, uses_castle: bool, *, separator: str = "   "
) -> Text:
    """The gates, the door, the rubble and what the phase waits for, in a line
    (parts joined by ``separator``)."""
    parts: list[str] = []
    for gate in view.gates:
        if gate.destroyed:
            state = "destroyed"
        else:
            holder = SIDE_NAMES.get(Side(gate.controlled_by)) if gate.controlled_by else None
            state = f"held by the {holder or 'nobody'}"
        parts.append(f"Outer gate {square_text(gate.square)}: {state}")
    if uses_castle:
        doors = ", ".join(square_text(pb.Square(row=r, col=c)) for r, c in board.doors)
        parts.append(f"King's Door {doors}: {'destroyed' if view.door_destroyed else 'standing'}")
    if view.ruins:
        parts.append("rubble: " + ", ".join(square_text(r.square) for r in view.ruins))
    for side in view.defence_penalty:
        parts.append(f"the {SIDE_NAMES.get(Side(side), '?')}'s Knight died: -1 defence this turn")
    if view.phase == State.PHASE_REINFORCEMENT:
        parts.append(
            f"reinforcements to place: {view.reinforcement_cavalry} Cavalry and "
            f"{view.reinforcement_value} coins of other units"
        )
    if view.HasField("follow_up"):
        parts.append(f"Cavalry u{view.follow_up.unit} may advance and attack again")
    if view.active_unit != NO_UNIT:
        parts.append(f"moving now: u{view.active_unit}")
    return Text(separator.join(parts))


def _notes(unit: Unit) -> str:
    notes = []
    if unit.level == pb.LEVEL_WALL:
        notes.append("on the wall")
    elif unit.level == pb.LEVEL_STAIRS:
        notes.append("stairs")
    if unit.dismounted:
        notes.append("dismounted")
    if unit.carried_by != NO_UNIT:
        notes.append(f"crew of u{unit.carried_by}")
    for flag in ("moved", "attacked", "immobile"):
        if getattr(unit, flag):
            notes.append(flag)
    if unit.HasField("climb"):
        notes.append(f"climbs {DIRECTION_NAMES.get(unit.climb, '?')}")
    return ", ".join(notes)


def counter_lines(view: pb.KillTheKingView, viewer: int | None) -> list[RenderableType]:
    table = Table(title="Counters on the field", box=box.SIMPLE_HEAD, show_edge=False)
    for column in ("seat", "id", "counter", "square", "facing", "notes"):
        table.add_column(column)
    lines: list[RenderableType] = [table]
    for index, seat in enumerate(view.seats):
        side = Side(seat.side) if seat.side else None
        style = SIDE_STYLES.get(side, "") if side is not None else ""
        name = f"seat {index}" + (" (you)" if index == viewer else "")
        if index in view.to_act:
            name = "▶ " + name
        own = [u for u in view.units if u.seat == index]
        for unit in own:
            if unit.status != Unit.STATUS_ON_FIELD or not unit.HasField("square"):
                continue
            table.add_row(
                Text(name, style=style),
                f"u{unit.id}",
                Text(f"{unit_letter(unit)} {type_name(unit.type)}", style=style),
                square_text(unit.square),
                DIRECTION_NAMES.get(unit.facing, "-"),
                _notes(unit),
            )
        reserve = [u for u in own if u.status == Unit.STATUS_RESERVE]
        dead = sum(1 for u in own if u.status == Unit.STATUS_DEAD)
        summary = Text(f"{name}: ", style=style)
        summary.append(f"the {SIDE_NAMES[side]}" if side is not None else "no side yet")
        summary.append(f", {seat.coins} coins left")
        if seat.initiative_rolls:
            summary.append(f", initiative rolls {', '.join(map(str, seat.initiative_rolls))}")
        if reserve:
            summary.append(f", {len(reserve)} in reserve")
            if index == viewer:
                summary.append(": " + _reserve(reserve))
                if view.phase == State.PHASE_PLACEMENT:
                    summary.append(" (a placement may name any id of a type: the next is placed)")
            elif view.phase == State.PHASE_PLACEMENT:
                summary.append(" (its placement is hidden until every seat has placed)")
        if dead:
            summary.append(f", {dead} dead")
        lines.append(summary)
    return lines


def _reserve(units: Sequence[Unit]) -> str:
    """The counters in reserve by type, with their ids: ``Swordsmen u17 u18``.
    Any id of a type may be named in a placement; the next one is placed."""
    by_type: dict[int, list[int]] = defaultdict(list)
    for unit in units:
        by_type[unit.type].append(unit.id)
    return "; ".join(
        f"{type_name(kind)} " + " ".join(f"u{i}" for i in sorted(ids))
        for kind, ids in sorted(by_type.items(), key=lambda item: min(item[1]))
    )


def prices(view: pb.KillTheKingView) -> Text:
    """What each unit costs, for the purchase phases."""
    priced = [
        spec
        for spec in UNITS.values()
        if spec.category is not Category.LEADER
        and spec.cost > 0
        and (view.advanced or not spec.advanced)
    ]
    return Text(
        "Prices (coins): " + ", ".join(f"{spec.name} {spec.cost}" for spec in priced),
        style="dim",
    )


def kill_the_king_board(view: pb.KillTheKingView, viewer: int | None) -> list[RenderableType]:
    """The drawn board: the head line, the field, the state of the castle and
    every counter on the field."""
    mode, _name, _rounds, _layer, uses_castle = spec(view)
    board = wrecked_field(mode, view)
    parts: list[RenderableType] = [head(view, viewer), field_grid(view)]
    parts.append(Text(LEGEND, style="dim"))
    castle = status(view, board, uses_castle)
    if castle.plain:
        parts.append(castle)
    if view.phase in (State.PHASE_PURCHASE, State.PHASE_EXTRA_PURCHASE):
        parts.append(prices(view))
    parts.extend(counter_lines(view, viewer))
    return parts
