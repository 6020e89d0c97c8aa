"""The movement phase (KK-30..KK-33, KK-42..KK-47, KK-55..KK-57, KK-60, KK-62,
KK-76, KK-89, KK-90, KK-100, KK-101).

A unit's move is a series of single steps (``step``), each one orthogonal
space for one movement point; the unit moving is the state's
``active_unit``, and moving another unit completes it. Rotation (``rotate``)
is free except for the Catapult. Climbing (``climb``, ``prepare_climb``) is
:mod:`.climbing`. A Cavalry may dismount (``dismount``); infantry man and
unman the Battering Ram by stepping onto and off it; infantry and leaders
board a Siege Tower by stepping onto it and the unit on top steps out of it
(:mod:`.towers`).
"""

from __future__ import annotations

from collections.abc import Iterator

from throneroom.games.kill_the_king.board import Board, Position
from throneroom.games.kill_the_king.data import (
    LEADERS,
    UNITS,
    Direction,
    Level,
    UnitType,
)
from throneroom.games.kill_the_king.rules.gates import gate_open_for
from throneroom.games.kill_the_king.rules.table import top_of
from throneroom.v1 import kill_the_king_pb2 as pb

from throneroom_server.games.kill_the_king import combat_deaths, listing, pigs, towers
from throneroom_server.games.kill_the_king import state as st
from throneroom_server.games.kill_the_king.grid import tables
from throneroom_server.games.kill_the_king.keys import (
    DISMOUNT,
    ROTATE,
    STEP,
    Key,
    move_from_key,
    move_key,
)
from throneroom_server.games.kill_the_king.sequence import (
    may_turn,
    movement_over,
    other_move,
    start,
)
from throneroom_server.games.rng import Rng

State = pb.KillTheKingState
Move = pb.KillTheKingMove
Event = pb.KillTheKingEvent
Unit = pb.KillTheKingUnit

RAM = int(UnitType.BATTERING_RAM)
TOWER = int(UnitType.SIEGE_TOWER)
ELEPHANT = int(UnitType.WAR_ELEPHANT)
PIG = int(UnitType.FLAMING_PIGS)
_TYPE = {int(kind): kind for kind in UnitType}


# --- who moves, how far -------------------------------------------------------------------


class Scene:
    """What the movement rules read, gathered once per decision: the field, who
    stands where, the crews of the Rams, the living Rangers."""

    __slots__ = (
        "_controlled",
        "_left",
        "_passage",
        "board",
        "crews",
        "in_play",
        "occupied",
        "rangers",
        "state",
        "terrain",
    )

    def __init__(self, state: State) -> None:
        self.state = state
        self.board = st.field(state)
        self.in_play = st.in_play(state)
        self.terrain = st.terrain(state)
        self._left: dict[int, int] = {}
        self._passage: list[Unit | None] = []
        # Keyed by plain ((row, col), level) tuples: equal to (and hashed as) Positions.
        self.occupied: dict[tuple[tuple[int, int], int], Unit] = {}
        self.crews: dict[int, list[Unit]] = {}
        self.rangers: dict[int, int] = {}
        self._controlled: dict[int, list[Unit]] = {}
        on_field = st.ON_FIELD
        for u in state.units:
            if u.status != on_field:
                continue
            if u.carried_by >= 0:
                self.crews.setdefault(u.carried_by, []).append(u)
            else:
                square = u.square
                self.occupied[((square.row, square.col), u.level)] = u
            if u.type == RANGER:
                self.rangers[u.side] = u.id

    def held(self, p: Position) -> Unit | None:
        """The unit standing at ``p`` (a stair space holds one unit on both levels)."""
        found = self.occupied.get(p)
        if found is not None or p.level is Level.STAIRS:
            return found
        return self.occupied.get((p.coord, STAIRS))

    def controller_side(self, u: Unit) -> int:
        """The side that moves ``u``: its own, except a Battering Ram, moved by
        the side of its crew (KK-89)."""
        if u.type == RAM:
            crew = self.crews.get(u.id)
            if crew:
                return crew[0].side
        return u.side

    def controlled(self, seat: int) -> list[Unit]:
        """The standing units ``seat`` may move or rotate (a Ram only while its
        crew is the seat's), by id."""
        found = self._controlled.get(seat)
        if found is None:
            found = self._controlled[seat] = self._find_controlled(seat)
        return found

    def _find_controlled(self, seat: int) -> list[Unit]:
        out = []
        for u in self.occupied.values():
            if u.type in (RAM, TOWER):
                crew = self.crews.get(u.id)
                if crew and crew[0].seat == seat:
                    out.append(u)
            elif u.seat == seat:
                out.append(u)
        out.sort(key=lambda u: u.id)
        return out

    def allowance(self, u: Unit) -> int:
        """Movement points of ``u`` this turn: the chart's, +1 while its side's
        Ranger lives (not for him, KK-100), the road bonus (KK-62); none while
        the side's movement is locked (KK-101)."""
        if self.state.movement_locked_now:
            return 0
        ranger = self.rangers.get(self.controller_side(u))
        bonus = LEADERS[UnitType.RANGER].movement_bonus if ranger not in (None, u.id) else 0
        return UNITS[_TYPE[u.type]].movement + bonus + u.bonus_movement

    def points_left(self, u: Unit) -> int:
        """Movement points ``u`` has left (read once per unit and scene)."""
        left = self._left.get(u.id)
        if left is None:
            left = self._left[u.id] = self.allowance(u) - u.movement_used
        return left

    def passage(self) -> Unit | None:
        """The active unit while it stands on the gate's passage (KK-57), looked up once."""
        if not self._passage:
            self._passage.append(_passage_unit(self.state, self.board))
        return self._passage[0]


RANGER = int(UnitType.RANGER)
CAVALRY = int(UnitType.CAVALRY)
STAIRS = int(Level.STAIRS)


def controlled(state: State, seat: int) -> list[Unit]:
    return Scene(state).controlled(seat)


def allowance(state: State, u: Unit) -> int:
    return Scene(state).allowance(u)


def points_left(state: State, u: Unit) -> int:
    return Scene(state).points_left(u)


def finished(state: State, u: Unit) -> bool:
    """Its movement is over this turn (:func:`.sequence.movement_over`)."""
    return movement_over(u, state.active_unit)


def _passage_unit(state: State, board: Board) -> Unit | None:
    """The active unit while it stands on the gate's passage: it must go on (KK-57)."""
    if state.active_unit < 0:
        return None
    u = state.units[state.active_unit]
    if u.status != st.ON_FIELD or u.carried_by >= 0 or u.level != int(Level.GROUND):
        return None
    return u if board.space(*st.coord(u)).is_wall else None


# --- steps ------------------------------------------------------------------------------------


class _Mover:
    """Where one unit may step now (shared by the generator and the effect)."""

    def __init__(self, scene: Scene, u: Unit) -> None:
        self.state, self.board, self.u = scene.state, scene.board, u
        self.scene = scene
        self.side = scene.controller_side(u)
        self.chart = UNITS[_TYPE[u.type]]
        self.in_play = scene.in_play
        self.steps, self.walls = scene.terrain

    def _held(self, p: Position) -> Unit | None:
        return self.scene.held(p)

    def may_enter(self, p: Position) -> bool:
        """Whether the terrain and the gate let it stand (or pass) at ``p``."""
        if p.level is Level.WALL and not self.chart.may_stand_on_wall:
            return False
        if p.level is Level.GROUND and p.coord in self.walls:
            return gate_open_for(self.state, self.side, p.coord)
        return True

    def targets(
        self, origin: Position, left: int
    ) -> Iterator[tuple[Direction, Position, Unit | None]]:
        """(direction, position, the Ram manned or the tower boarded by the step, or
        None) for each legal step."""
        occupied = self.scene.occupied
        may_wall = self.chart.may_stand_on_wall
        last: Direction | None = None
        for d, p, kind in self.steps[origin]:
            if d is last:
                continue  # one step per direction (a stair next to the gate)
            if kind == st.ONTO_WALL and not may_wall:
                continue
            held = occupied.get(p)
            if held is None and p.level is not Level.STAIRS:
                held = occupied.get((p.coord, STAIRS))
            ram: Unit | None = None
            if held is not None:
                if self.u.type == ELEPHANT and self.u.carried_by < 0:
                    pass  # it tramples whatever stands there (KK-81)
                elif not self._may_board(held):
                    continue
                else:
                    ram = held
            elif kind == st.PASSAGE and not (
                gate_open_for(self.state, self.side, p.coord) and self._may_pass(origin, p, left)
            ):
                continue
            last = d
            yield d, p, ram

    def _may_board(self, held: Unit) -> bool:
        """An unmanned Ram for infantry (KK-89); a friendly Siege Tower with room
        for infantry and leaders (KK-95)."""
        crew = self.scene.crews.get(held.id)
        if held.type == RAM:
            return self.chart.may_man and self.u.carried_by < 0 and not crew
        return (
            held.type == TOWER
            and held.side == self.u.side
            and towers.may_board(self.u)
            and towers.has_room(crew)
        )

    def _may_pass(self, origin: Position, passage: Position, left: int) -> bool:
        """A step onto the gate's passage needs a point left and a free ground
        space beyond, other than the one it came from (KK-57)."""
        if left < 2:
            return False
        for _, p, kind in self.steps[passage]:
            if p.coord == origin.coord or kind == st.ONTO_WALL:
                continue
            if self.scene.held(p) is None and self.may_enter(p):
                return True
        return False


def _step_keys(scene: Scene, seat: int, only: int | None = None) -> Iterator[Key]:
    """Every legal step (only those of unit ``only``, if given)."""
    state = scene.state
    if state.movement_locked_now:
        return
    passage = scene.passage()
    units = [passage] if passage is not None else scene.controlled(seat)
    active = state.active_unit
    for u in units:
        uid = u.id
        if (only is not None and uid != only) or u.immobile:
            continue
        if movement_over(u, active):
            continue
        left = scene.points_left(u)
        if left < 1:
            continue
        if u.type == PIG:
            yield from _pig_keys(scene, u, left)
            continue
        for d, _, _ in _Mover(scene, u).targets(st.position(u), left):
            yield (STEP, uid, int(d))
    if passage is None:
        yield from _unman_keys(scene, seat, only)
        yield from _tower_exit_keys(scene, seat, only)


def _pig_keys(scene: Scene, pig: Unit, left: int) -> Iterator[Key]:
    """Flaming Pigs step forward only; facing the end of the map, a wall, the gate
    or the door, that step is their explosion (KK-86)."""
    forward = Direction(pig.facing)
    if pigs.blocked_ahead(scene.state, pig):
        yield (STEP, pig.id, int(forward))
        return
    for d, _, _ in _Mover(scene, pig).targets(st.position(pig), left):
        if d is forward:
            yield (STEP, pig.id, int(d))


def pigs_to_move(state: State, seat: int) -> bool:
    """A Flaming Pig of ``seat`` has not moved this turn and can: the movement
    phase may not end yet ("must move minimum 1 tile every turn", KK-86)."""
    if state.movement_locked_now or not any(
        u.type == PIG and u.seat == seat and not u.moved and u.status == st.ON_FIELD
        for u in state.units
    ):
        return False
    scene = Scene(state)
    if _passage_unit(state, scene.board) is not None:
        return False
    return any(
        u.type == PIG and not u.moved and next(_pig_keys(scene, u, scene.points_left(u)), None)
        for u in scene.controlled(seat)
        if scene.points_left(u) >= 1
    )


def _tower_exits(scene: Scene, u: Unit) -> Iterator[tuple[Direction, Position]]:
    tower = scene.state.units[u.carried_by]
    return towers.exits(scene.board, scene.in_play, scene.terrain[0], tower, scene.occupied)


def _tower_exit_keys(scene: Scene, seat: int, only: int | None) -> Iterator[Key]:
    """The unit on top of a tower steps out of it (KK-96, KK-143)."""
    state = scene.state
    for tower_id, crew in scene.crews.items():
        if state.units[tower_id].type != TOWER:
            continue
        top = top_of(crew)
        if top is None or top.seat != seat or only not in (None, top.id):
            continue
        if finished(state, top) or scene.points_left(top) < 1:
            continue
        for d, _ in _tower_exits(scene, top):
            yield (STEP, top.id, int(d))


def _side_moved(scene: Scene, seat: int) -> bool:
    return any(u.moved for u in scene.controlled(seat)) or any(
        u.moved for u in st.on_field(scene.state) if u.seat == seat
    )


def _unman_keys(scene: Scene, seat: int, only: int | None) -> Iterator[Key]:
    """A crew steps off its Ram at the start of its side's movement phase,
    before any other unit of the side has moved (KK-90)."""
    crews = [
        u
        for engine, c in scene.crews.items()
        if scene.state.units[engine].type == RAM
        for u in c
        if u.seat == seat and only in (None, u.id)
    ]
    if not crews or _side_moved(scene, seat):
        return
    for u in crews:
        left = scene.points_left(u)
        if left < 1:
            continue
        mover = _Mover(scene, u)
        for d, p, ram in mover.targets(st.position(u), left):
            if ram is None and p.level is not Level.WALL:
                yield (STEP, u.id, int(d))


def listed(keys: Iterator[Key], move: Move) -> list[Move]:
    """The move itself if its key is among ``keys``, else nothing (a narrowing)."""
    key = move_key(move)
    return [move_from_key(key)] if key in set(keys) else []


def step_moves(state: State, seat: int) -> list[Move]:
    return [move_from_key(k) for k in _step_keys(Scene(state), seat)]


def narrow_step(state: State, seat: int, move: Move) -> list[Move]:
    return listed(_step_keys(Scene(state), seat, move.step.unit), move)


def movement_keys(scene: Scene, seat: int) -> list[Key]:
    """Every legal step, rotation and dismount at once (with the climbs of
    :mod:`.climbing`, the movement phase's moves but ``end_phase``), from one
    look at the field."""
    return [
        *_step_keys(scene, seat),
        *_rotate_keys(scene, seat),
        *_dismount_keys(scene, seat),
    ]


def step(
    state: State, seat: int, move: Move, events: list[Event], field: listing.Field | None = None
) -> None:
    """The step's effect; ``field``: the state's field as the listing read it,
    if known (else it is read here)."""
    u = state.units[move.step.unit]
    d = Direction(move.step.direction)
    origin = st.position(u)
    ram: Unit | None = None
    if u.type == PIG and pigs.blocked_ahead(state, u):
        other_move(state)
        start(state, u, events)
        state.active_unit = -1
        combat_deaths.explode(state, u, Rng(state.rng), events)  # the end, a wall, the gate
        return
    if u.carried_by >= 0 and state.units[u.carried_by].type == TOWER:
        scene = Scene(state)
        left = scene.points_left(u)  # before this step's point is spent
        target = next(p for way, p in _tower_exits(scene, u) if way is d)
        other_move(state)
    else:
        if field is None:
            field = listing.Field(state, tables(state))
        target, ram, left = listing.step_target(state, u, int(d), field)
        other_move(state, field.turned)  # the units turned, as the field found them
    if u.carried_by >= 0:
        engine = u.carried_by
        u.carried_by = -1
        u.stack = 0
        events.append(Event(unmanned=Event.Unmanned(crew=u.id, engine=engine)))
    start(state, u, events)
    u.movement_used += 1
    u.moved = True
    if ram is not None:
        if ram.type == TOWER:
            towers.board_tower(state, u, ram)
        else:
            st.put(u, target.coord, Level(ram.level))
            u.facing = ram.facing
            u.carried_by = ram.id
        state.active_unit = -1
        events.append(Event(manned=Event.Manned(crew=u.id, engine=ram.id)))
        return
    if u.type == ELEPHANT and not combat_deaths.trample(state, u, target, d, events):
        state.active_unit = -1
        return  # it met another Elephant head to head (KK-81)
    st.put(u, target.coord, target.level)
    if u.type in (RAM, TOWER):  # only engines carry crews
        for crew in st.crew_of(state, u.id):
            st.put(crew, target.coord, target.level)
    # Set field by field: a message passed as a keyword argument is copied
    # through its bytes (serialized and parsed again).
    event = Event()
    stepped = event.stepped
    stepped.unit = u.id
    from_square = stepped.from_square
    from_square.row, from_square.col = origin.coord
    stepped.to_square.CopyFrom(u.square)
    stepped.level = u.level
    # the allowance only changes if the Elephant trampled a Ranger
    stepped.movement_left = points_left(state, u) if u.type == ELEPHANT else left - 1
    events.append(event)


# --- rotation (KK-31) ---------------------------------------------------------------------------


def _rotation_cost(state: State, u: Unit) -> int:
    """A Catapult's rotation costs 1 (free while the side's movement is locked, KK-101)."""
    return 0 if state.movement_locked_now else UNITS[_TYPE[u.type]].rotation_cost


_OTHER_FACINGS = tuple(
    tuple(int(d) for d in Direction if int(d) != facing) for facing in range(max(Direction) + 1)
)
"""The facings other than each facing (by its number), in Direction order."""


def _rotate_keys(scene: Scene, seat: int, only: int | None = None) -> Iterator[Key]:
    state = scene.state
    if scene.passage() is not None:
        return
    units = scene.controlled(seat)
    exposed = [c for c in towers.exposed_crews(state) if c.seat == seat]
    if exposed:
        units = sorted([*units, *exposed], key=lambda v: v.id)
    locked = state.movement_locked_now
    for u in units:
        uid = u.id
        if only not in (None, uid):
            continue
        cost = 0 if locked else UNITS[_TYPE[u.type]].rotation_cost  # _rotation_cost
        if not may_turn(u, cost, finished(state, u), scene.points_left(u) if cost else 0):
            continue
        for facing in _OTHER_FACINGS[u.facing]:  # never the facing it has
            yield (ROTATE, uid, facing)


def rotate_moves(state: State, seat: int) -> list[Move]:
    return [move_from_key(k) for k in _rotate_keys(Scene(state), seat)]


def narrow_rotate(state: State, seat: int, move: Move) -> list[Move]:
    return listed(_rotate_keys(Scene(state), seat, move.rotate.unit), move)


def rotate(state: State, seat: int, move: Move, events: list[Event]) -> None:
    u = state.units[move.rotate.unit]
    cost = _rotation_cost(state, u)
    if cost:  # counts as moving it (KK-68): another move
        other_move(state)
        start(state, u, events)
        u.movement_used += cost
        u.moved = True
    else:
        u.rotated = True  # once until its side's next other move (KK-31)
    u.facing = move.rotate.facing
    if u.type in (RAM, TOWER):  # only engines carry crews
        for crew in st.crew_of(state, u.id):
            crew.facing = u.facing
    events.append(Event(rotated=Event.Rotated(unit=u.id, facing=u.facing, cost=cost)))


# --- dismounting (KK-76) ---------------------------------------------------------------------


def _dismount_keys(scene: Scene, seat: int, only: int | None = None) -> Iterator[Key]:
    """A Cavalry flips to Swordsmen at any moment of the movement phase (KK-76),
    but not while a unit stands on the gate's passage: it must step on first
    (KK-57), and a Cavalry there could lose the points it needs to leave."""
    if scene.passage() is not None:
        return
    for u in scene.controlled(seat):
        if u.type == CAVALRY and not u.dismounted and only in (None, u.id):
            yield (DISMOUNT, u.id)


def dismount_moves(state: State, seat: int) -> list[Move]:
    return [move_from_key(k) for k in _dismount_keys(Scene(state), seat)]


def narrow_dismount(state: State, seat: int, move: Move) -> list[Move]:
    return listed(_dismount_keys(Scene(state), seat, move.dismount.unit), move)


def dismount(state: State, seat: int, move: Move, events: list[Event]) -> None:
    u = state.units[move.dismount.unit]
    other_move(state)
    u.type = pb.UNIT_TYPE_SWORDSMEN
    u.dismounted = True
    events.append(Event(flipped=Event.Flipped(unit=u.id, by_choice=True)))
