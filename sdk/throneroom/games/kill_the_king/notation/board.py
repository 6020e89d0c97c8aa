"""Kill the King: the field as text, for a terminal (see the package's __init__).

The terrain comes from the SDK's board data (``throneroom.games.kill_the_king``)
for the view's mode, with its rubble; every counter on the field is drawn as
its letter (upper case: attacker, lower case: defender) and an arrow for its
facing, and listed below with the id a move names it by (``u7``).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Container, Sequence

from throneroom.games.kill_the_king.board import RUBBLE_CHAR, Board, Coord
from throneroom.games.kill_the_king.data import MODES, UNITS, Mode, Side, UnitType, mode_of
from throneroom.games.kill_the_king.field import field_for
from throneroom.games.kill_the_king.notation.moves import NO_UNIT, State, square_text
from throneroom.games.kill_the_king.notation.position import PHASES
from throneroom.games.kill_the_king.squares import COLUMNS
from throneroom.notation.base import Viewer, outcome_line, viewer_name
from throneroom.v1 import kill_the_king_pb2 as pb
from throneroom.v1.kill_the_king_pb2 import KillTheKingView

Unit = pb.KillTheKingUnit

ARROWS = {
    pb.DIRECTION_NORTH: "^",
    pb.DIRECTION_EAST: ">",
    pb.DIRECTION_SOUTH: "v",
    pb.DIRECTION_WEST: "<",
}
_DIRECTION_NAMES = {
    pb.DIRECTION_NORTH: "north",
    pb.DIRECTION_EAST: "east",
    pb.DIRECTION_SOUTH: "south",
    pb.DIRECTION_WEST: "west",
}
_SIDE_NAMES = {pb.SIDE_ATTACKER: "attacker", pb.SIDE_DEFENDER: "defender"}
_LEVEL_NOTES = {pb.LEVEL_WALL: " (on the wall)", pb.LEVEL_STAIRS: " (stairs)"}

LEGEND = (
    "Counters: upper case attacker, lower case defender; the arrow is the facing",
    "  (^ north, > east, v south, < west); + more counters on the space (a crew,",
    "  a tower's stack, both levels of the gate). Moves name counters by id (u7).",
    "Terrain: . grass  = road  : reinforcement edge  _ castle ground  + castle road",
    "  # wall  ^ gate  / stairs  @ King's Door  * rubble",
)


_TO_DO = {
    State.PHASE_CHOOSE_SIDE: "choose a side (side attacker | side defender)",
    State.PHASE_PURCHASE: "buy a unit (buy <unit> | buy suggested)",
    State.PHASE_LEADER: "choose a leader (leader <leader>)",
    State.PHASE_EXTRA_PURCHASE: "spend the Treasurer's coins (buy <unit>)",
    State.PHASE_PLACEMENT: "place a counter (place u<id> <square> <facing>)",
    State.PHASE_REINFORCEMENT: "place reinforcements (reinforce <unit> <square> <facing> | end)",
    State.PHASE_MOVEMENT: (
        "move a unit (step|rotate|climb|prepare u<id> <n|e|s|w>, dismount u<id>) or end"
    ),
    State.PHASE_ATTACK: "attack (attack u<id> <square> [level] | end)",
    State.PHASE_FOLLOW_UP: "the Cavalry may follow up (advance | stay)",
    State.PHASE_DISBAND: "remove a unit (disband u<id>)",
}


def _type_name(unit_type: int) -> str:
    try:
        return UNITS[UnitType(unit_type)].name
    except ValueError:
        return f"unit type {unit_type}"


def unit_letter(unit: Unit) -> str:
    """The counter's letter: upper case for the attacker, lower case for the defender."""
    try:
        letter = UNITS[UnitType(unit.type)].letter
    except ValueError:
        letter = "?"
    return letter.lower() if unit.side == pb.SIDE_DEFENDER else letter.upper()


def _square(square: pb.Square) -> str:
    try:
        return square_text(square)
    except ValueError:
        return f"(row {square.row}, col {square.col})"


def _spec_of(view: KillTheKingView) -> tuple[Mode, str, int]:
    """The mode, its name and its round limit (an unknown mode: the default's)."""
    try:
        spec = mode_of(view.mode)
    except ValueError:
        spec = MODES[Mode.KILL_THE_KING]
    return spec.mode, spec.name, spec.rounds


def _field(mode: Mode, view: KillTheKingView) -> Board:
    """The mode's field with the destroyed wall and gate spaces as rubble."""
    board = field_for(mode)
    wrecked = [(r.square.row, r.square.col) for r in view.ruins]
    wrecked += [(g.square.row, g.square.col) for g in view.gates if g.destroyed]
    return board.ruined({c for c in wrecked if board.contains(c) and board.space(*c).is_wall})


def _on_top(units: Sequence[Unit]) -> Unit:
    """The counter drawn on a space holding several: the one above the gate, a
    siege engine rather than its crew, the top of a tower's stack."""
    return max(
        units,
        key=lambda u: (u.level == pb.LEVEL_WALL, u.carried_by == NO_UNIT, u.stack, -u.id),
    )


def render_grid(
    board: Board, units: Sequence[Unit], in_play: Container[Coord] | None = None
) -> list[str]:
    """The field, northmost row first, four characters a space, labelled like
    the notation's squares (columns a.., rows from 1 at the attacker's edge).
    Spaces not ``in_play`` in the mode are blank, rows of them left out."""
    here: dict[Coord, list[Unit]] = defaultdict(list)
    for unit in units:
        if unit.status == Unit.STATUS_ON_FIELD and unit.HasField("square"):
            here[Coord(unit.square.row, unit.square.col)].append(unit)
    header = "    " + "".join(f"{COLUMNS[c]:<4}" for c in range(min(board.cols, len(COLUMNS))))
    lines = [header.rstrip()]
    for row in reversed(range(board.rows)):
        cells = []
        playing = [in_play is None or Coord(row, c) in in_play for c in range(board.cols)]
        if not any(playing) and not any(Coord(row, c) in here for c in range(board.cols)):
            continue
        for col in range(board.cols):
            coord = Coord(row, col)
            space = board.space(row, col)
            if here.get(coord):
                counters = here[coord]
                top = _on_top(counters)
                more = "+" if len(counters) > 1 else " "
                cells.append(f"{unit_letter(top)}{ARROWS.get(top.facing, ' ')}{more} ")
            elif not playing[col]:
                cells.append("    ")
            else:
                cells.append(f"{RUBBLE_CHAR if space.rubble else space.char}   ")
        label = f"{row + 1:>2}"
        body = "".join(cells).rstrip().ljust(4 * board.cols)
        lines.append(f"{label}  {body}{label}")
    lines.append(header.rstrip())
    off_field = sorted(c for c in here if not board.contains(c))
    if off_field:
        lines.append("Off the field: " + ", ".join(f"({r}, {c})" for r, c in off_field))
    return lines


def _unit_line(unit: Unit, units: Sequence[Unit]) -> str:
    text = f"    u{unit.id:<3} {unit_letter(unit)}  {_type_name(unit.type):<14}"
    if unit.HasField("square"):
        text += f" {_square(unit.square)}{_LEVEL_NOTES.get(unit.level, '')}"
    if unit.facing:
        text += f", facing {_DIRECTION_NAMES.get(unit.facing, '?')}"
    notes = []
    if unit.dismounted:
        notes.append("dismounted Cavalry")
    if unit.carried_by != NO_UNIT:
        engine = next((u for u in units if u.id == unit.carried_by), None)
        what = _type_name(engine.type) if engine is not None else "counter"
        notes.append(f"in {what} u{unit.carried_by}")
    if unit.stack:
        notes.append(f"level {unit.stack} of the tower")
    if unit.movement_used:
        notes.append(f"{unit.movement_used} movement used")
    for flag in ("moved", "rotated", "attacked", "immobile", "free"):
        if getattr(unit, flag):
            notes.append(flag)
    if unit.HasField("climb"):
        notes.append(f"climbs {_DIRECTION_NAMES.get(unit.climb, '?')} in the attack phase")
    return text.rstrip() + (f"  [{', '.join(notes)}]" if notes else "")


def _seat_lines(view: KillTheKingView, viewer: Viewer, mode: Mode) -> list[str]:
    lines = []
    spec = MODES[mode]
    for index, seat in enumerate(view.seats):
        you = " (you)" if index == viewer else ""
        side = _SIDE_NAMES.get(seat.side, "no side yet")
        team = f", team {seat.team}" if spec.giga else ""
        money = f"{seat.coins} coins left"
        if seat.side in _SIDE_NAMES:
            money += f" of {spec.budget(Side(seat.side))}"
        if seat.extra_coins:
            money += f", {seat.extra_coins} extra (Treasurer)"
        notes = []
        if seat.initiative_rolls:
            notes.append("initiative " + ", ".join(str(r) for r in seat.initiative_rolls))
        if seat.placed:
            notes.append("placed")
        if seat.movement_locked:
            notes.append("may not move this turn (its Ranger died)")
        if seat.disband_value_left:
            notes.append(f"must remove units worth {seat.disband_value_left} coins")
        extra = f"  [{'; '.join(notes)}]" if notes else ""
        lines.append(f"Seat {index}{you}: {side}{team}, {money}{extra}")
        own = [u for u in view.units if u.seat == index]
        for status, label in (
            (Unit.STATUS_ON_FIELD, None),
            (Unit.STATUS_RESERVE, "in reserve"),
            (Unit.STATUS_DEAD, "dead"),
            (Unit.STATUS_UNSPECIFIED, "status unknown"),
        ):
            group = [u for u in own if u.status == status]
            if not group:
                continue
            if label is not None:
                lines.append(f"  {label}:")
            lines.extend(_unit_line(u, view.units) for u in group)
    strays = [u for u in view.units if not 0 <= u.seat < len(view.seats)]
    if strays:
        lines.append("Counters of no seat:")
        lines.extend(_unit_line(u, view.units) for u in strays)
    return lines


def _state_lines(view: KillTheKingView, board: Board, uses_castle: bool) -> list[str]:
    lines = []
    for gate in view.gates:
        held = _SIDE_NAMES.get(gate.controlled_by, "nobody")
        what = "destroyed" if gate.destroyed else f"held by the {held}"
        lines.append(f"Outer gate {_square(gate.square)}: {what}")
    if uses_castle:
        doors = ", ".join(square_text(pb.Square(row=r, col=c)) for r, c in board.doors)
        lines.append(f"King's Door {doors}: {'destroyed' if view.door_destroyed else 'standing'}")
    if view.ruins:
        lines.append(
            "Rubble: " + ", ".join(f"{_square(r.square)} (round {r.round})" for r in view.ruins)
        )
    if view.reinforced_halves:
        halves = ", ".join(str(h) for h in view.reinforced_halves)
        lines.append(f"Reinforcements received (board half): {halves}")
    if view.phase == State.PHASE_REINFORCEMENT:
        lines.append(
            f"Reinforcements to place: {view.reinforcement_cavalry} Cavalry and "
            f"{view.reinforcement_value} coins of other units, on board half "
            f"{view.reinforcement_half}"
        )
    for side in view.defence_penalty:
        lines.append(f"The {_SIDE_NAMES.get(side, '?')}'s Knight died: -1 defence this turn")
    if view.HasField("follow_up"):
        into = (
            f" into {_square(view.follow_up.vacated)}" if view.follow_up.HasField("vacated") else ""
        )
        lines.append(f"Cavalry u{view.follow_up.unit} may advance{into} and attack again")
    if view.active_unit != NO_UNIT:
        lines.append(f"Moving now: u{view.active_unit}")
    return lines


def render_view(view: KillTheKingView, viewer: Viewer) -> str:
    mode, name, rounds = _spec_of(view)
    phase = PHASES.word(view.phase) if view.phase in PHASES.canonical else str(view.phase)
    turn = ""
    if view.round:
        side = _SIDE_NAMES.get(view.turn_side, "nobody")
        turn = f"round {view.round} of {rounds}, {side}'s turn, "
    advanced = " (advanced units)" if view.advanced else ""
    lines = [
        f"{name}{advanced}, {view.num_seats} seats, as {viewer_name(viewer)}: "
        f"{turn}{phase.replace('_', ' ')} phase",
        "",
    ]
    board = _field(mode, view)
    lines.extend(render_grid(board, view.units, board.in_play(MODES[mode].zone_layer)))
    lines.append("")
    lines.extend(_state_lines(view, board, MODES[mode].uses_castle))
    lines.extend(_seat_lines(view, viewer, mode))
    lines.append("")
    lines.extend(LEGEND)
    if view.HasField("outcome"):
        lines.append(outcome_line(view.outcome))
    elif view.to_act:
        seats = ", ".join(f"seat {s}" for s in view.to_act)
        lines.append(f"To act: {seats}: {_TO_DO.get(view.phase, 'decide')}")
    return "\n".join(lines)
