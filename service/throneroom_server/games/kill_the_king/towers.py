"""Siege Towers (KK-95..KK-98, KK-140..KK-144): boarding, the stack, the tower
that reaches a wall and turns into a staircase, the crew that leaves it.

* Up to three infantry or leaders of the tower's side are inside it, stacked
  (``stack`` 1 at the bottom, the last in on top). They board by stepping onto
  the tower's space from any side, which ends their move (as manning a Ram),
  or start inside it (KK-26).
* A tower moves only while manned, moved by its side; when its move ends next
  to an intact wall or gate space (or it is placed there) it is ``immobile``
  for the rest of the game and works as a staircase: its crew stand on both
  levels (``LEVEL_STAIRS``) and the unit on top is *exposed*: it attacks
  from the tower without a penalty and may be attacked, as a unit on stairs
  on the tower's space (KK-97). Crews of a tower away from the walls neither
  attack nor are attacked.
* Only the unit on top leaves the tower: one step onto a free adjacent ground
  position (or stairs), or, from a tower at a wall, onto a free adjacent wall
  position ("the unit on top enters the wall first ... if there are no enemy
  units in their way").

Everything here reads the state; the functions that change it say so.
"""

from __future__ import annotations

from collections.abc import Iterator

from throneroom.games.kill_the_king.board import Board, Coord, Position
from throneroom.games.kill_the_king.data import UNITS, Direction, Level, UnitType
from throneroom.games.kill_the_king.rules.table import top_of
from throneroom.v1 import kill_the_king_pb2 as pb

from throneroom_server.games.kill_the_king import state as st

State = pb.KillTheKingState
Unit = pb.KillTheKingUnit
TOWER = int(UnitType.SIEGE_TOWER)
CAPACITY = UNITS[UnitType.SIEGE_TOWER].capacity


def is_tower(u: Unit) -> bool:
    return u.type == TOWER


def may_board(u: Unit) -> bool:
    """Infantry and leaders (the units that may stand on walls) board towers (KK-95)."""
    return UNITS[UnitType(u.type)].may_stand_on_wall and u.carried_by < 0


def has_room(crew: list[Unit] | None) -> bool:
    return len(crew or ()) < CAPACITY


def next_to_wall(board: Board, in_play: frozenset[Coord], where: Coord) -> bool:
    """An intact wall or gate space in play orthogonally next to ``where`` (KK-96)."""
    return any(c in in_play and board.space(*c).is_wall for c in board.around(where))


def exposed_crews(state: State) -> Iterator[Unit]:
    """The unit on top of each tower standing at a wall (KK-97), by tower id."""
    on_field = st.ON_FIELD
    settled = [u.id for u in state.units if u.type == TOWER and u.immobile and u.status == on_field]
    if not settled:
        return
    crews: dict[int, list[Unit]] = {}
    for u in st.on_field(state):
        if u.carried_by in settled:
            crews.setdefault(u.carried_by, []).append(u)
    for tower_id in sorted(crews):
        top = top_of(crews[tower_id])
        if top is not None:
            yield top


def board_tower(state: State, u: Unit, tower: Unit) -> None:
    """``u`` goes inside ``tower``, on top of its stack, facing as the tower; on
    a tower at a wall it stands on both levels (changes ``u``)."""
    stack = max((c.stack for c in st.crew_of(state, tower.id)), default=0) + 1
    u.carried_by = tower.id
    u.stack = stack
    u.facing = tower.facing
    u.square.CopyFrom(tower.square)
    u.level = pb.LEVEL_STAIRS if tower.immobile else tower.level


def settle(state: State, tower: Unit, board: Board, in_play: frozenset[Coord]) -> bool:
    """A tower whose move (or placement) ends next to a wall becomes a staircase for
    good: ``immobile``, its crew on both levels (KK-96). Returns whether it did."""
    if tower.immobile or not next_to_wall(board, in_play, st.coord(tower)):
        return False
    tower.immobile = True
    for u in st.crew_of(state, tower.id):
        u.level = pb.LEVEL_STAIRS
    return True


def exits(
    board: Board,
    in_play: frozenset[Coord],
    steps: st.StepTable,
    tower: Unit,
    held: dict[tuple[tuple[int, int], int], Unit],
) -> Iterator[tuple[Direction, Position]]:
    """The steps the unit on top of ``tower`` may take out of it: onto a free
    ground or stairs position next to it; from a tower at a wall also onto a
    free wall position next to it (KK-96, KK-143). The gate's passage is not
    an exit (a unit leaving has not the points to pass it, KK-57, by reading)."""
    here = st.coord(tower)
    origin = Position(here, Level.GROUND)
    for d, p, kind in steps.get(origin, ()):
        if kind != st.OPEN:
            continue
        if _free(held, p):
            yield d, p
    if not tower.immobile:
        return
    for d in Direction:
        c = here.step(d)
        if c not in in_play or not board.space(*c).is_wall:
            continue
        p = Position(c, Level.WALL)
        if _free(held, p):
            yield d, p


def _free(held: dict[tuple[tuple[int, int], int], Unit], p: Position) -> bool:
    if held.get(p) is not None:
        return False
    return p.level is Level.STAIRS or held.get((p.coord, int(Level.STAIRS))) is None
