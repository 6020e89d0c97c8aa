"""The movement phase's listing from plain data: every legal step, rotation,
dismount, climb and ``end_phase`` at once, the same keys as
:func:`.movement.movement_keys`, :func:`.climbing.both_climb_keys` and
``turns.end_phase_moves`` (which stay the rules' reference, and the moves of
each kind alone), from one pass over the units and per-field tables of ints.

Positions are ints (:mod:`.grid`), so the field's steps, the occupants and
the gate's passage are looked up without building ``Position`` or
``Direction`` objects. While a Siege Tower carries a crew (advanced play only, and rare) the
listing is :mod:`.movement`'s own: the tower's exits and its exposed crew are
read there.

Tested against the reference by tests/games/kill_the_king/test_listing.py
(random games of every mode) and, through ``Derived(verify=True)``, by
test_derived.py.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import NamedTuple

from throneroom.games.kill_the_king.board import Coord, Position
from throneroom.games.kill_the_king.data import LEADERS, UNITS, Direction, Side, UnitType
from throneroom.games.kill_the_king.rules.gates import gate_side
from throneroom.v1 import kill_the_king_pb2 as pb

from throneroom_server.games.kill_the_king import combat, pigs
from throneroom_server.games.kill_the_king import state as st
from throneroom_server.games.kill_the_king.grid import (
    CHARTS,
    OTHER_FACINGS,
    Chart,
    Tables,
    position,
    tables,
)
from throneroom_server.games.kill_the_king.keys import (
    CLIMB,
    DISMOUNT,
    END_PHASE,
    PREPARE_CLIMB,
    ROTATE,
    STEP,
    Key,
)
from throneroom_server.games.kill_the_king.sequence import may_turn, movement_over

State = pb.KillTheKingState
Unit = pb.KillTheKingUnit

GROUND, WALL, STAIRS = int(pb.LEVEL_GROUND), int(pb.LEVEL_WALL), int(pb.LEVEL_STAIRS)
RAM, TOWER = int(UnitType.BATTERING_RAM), int(UnitType.SIEGE_TOWER)
ELEPHANT, PIG = int(UnitType.WAR_ELEPHANT), int(UnitType.FLAMING_PIGS)
RANGER, CAVALRY = int(UnitType.RANGER), int(UnitType.CAVALRY)
ATTACKER, DEFENDER = int(Side.ATTACKER), int(Side.DEFENDER)
ON_FIELD = st.ON_FIELD
ONTO_WALL, PASSAGE = st.ONTO_WALL, st.PASSAGE
RANGER_BONUS = LEADERS[UnitType.RANGER].movement_bonus
TOWER_ROOM = UNITS[UnitType.SIEGE_TOWER].capacity


class Plain(NamedTuple):
    """The field of a listing as plain data (see :func:`after_step`)."""

    occupied: dict[int, int]
    """Position -> the id of the unit standing there."""
    rangers: dict[int, int]
    """Side -> its living Ranger's id."""
    crews: dict[int, tuple[int, ...]]
    """Battering Ram -> the ids of its crew (a Siege Tower's crew is never here)."""
    pigs: tuple[int, ...]
    """The Flaming Pigs on the field."""
    turned: tuple[int, ...]
    """The units turned since their side's last other move (no rotation of
    theirs listed, KK-31), ascending: every unit whose ``rotated`` is set."""


class Field:
    """The units as the listing reads them, from one pass: who stands where (by
    position int), the crews by engine, the living Rangers by side, the units
    turned (KK-31)."""

    __slots__ = (
        "active",
        "crews",
        "gates",
        "locked",
        "occupied",
        "pigs",
        "rangers",
        "state",
        "t",
        "turned",
        "units",
    )

    def __init__(self, state: State, t: Tables) -> None:
        self.state = state
        self.t = t
        self.active = state.active_unit
        self.locked = state.movement_locked_now
        occupied: dict[int, int] = {}
        crews: dict[int, list[Unit]] = {}
        rangers: dict[int, int] = {}
        pigs_on_field: list[Unit] = []
        turned: list[int] = []
        for i, u in enumerate(state.units):  # a unit's id is its index (an invariant)
            if u.status != ON_FIELD:
                continue
            if u.rotated:
                turned.append(i)
            carried = u.carried_by
            if carried >= 0:
                found = crews.get(carried)
                if found is None:
                    crews[carried] = [u]
                else:
                    found.append(u)
            else:
                square = u.square
                occupied[(square.row << 6 | square.col) << 2 | u.level] = i
            kind = u.type
            if kind == RANGER:
                rangers[u.side] = u.id
            elif kind == PIG:
                pigs_on_field.append(u)
        self.units = state.units
        self.occupied = occupied
        self.pigs = pigs_on_field
        self.crews = crews
        self.rangers = rangers
        self.turned = tuple(turned)
        self.gates: dict[int, int] | None = None

    @classmethod
    def of_plain(cls, state: State, t: Tables, plain: Plain) -> Field:
        """The field of ``state`` from plain data known to be its own (no tower's
        crew): no pass over the units."""
        f = cls.__new__(cls)
        f.state = state
        f.t = t
        f.active = state.active_unit
        f.locked = state.movement_locked_now
        units = state.units
        f.units = units
        f.occupied = plain.occupied
        f.crews = {e: [units[i] for i in ids] for e, ids in plain.crews.items()}
        f.pigs = [units[i] for i in plain.pigs]
        f.rangers = plain.rangers
        f.turned = plain.turned
        f.gates = None
        return f

    def held(self, p: int) -> Unit | None:
        found = self.occupied.get(p)
        if found is None and p & 3 != STAIRS:
            found = self.occupied.get(p | 3)
        return None if found is None else self.units[found]

    def gate_open(self, side: int, space: int) -> bool:
        """Defenders pass the gate; attackers only while they control it (KK-55),
        as the next unit to move sees it (``rules.gates.gate_side``, KK-56)."""
        if side == DEFENDER:
            return True
        gates = self.gates
        if gates is None:
            gates = self.gates = {}
            state = self.state
            for g in state.gates:
                square = g.square
                gates.setdefault(square.row << 6 | square.col, gate_side(state, g))
        return gates.get(space) == ATTACKER

    def side_of(self, u: Unit) -> int:
        """The side moving ``u`` (a Ram's crew's, KK-89)."""
        if u.type == RAM:
            crew = self.crews.get(u.id)
            if crew:
                return crew[0].side
        return u.side

    def left(self, u: Unit, chart: Chart) -> int:
        """Movement points left (``movement.Scene.points_left``)."""
        if self.locked:
            return -u.movement_used
        ranger = self.rangers.get(self.side_of(u))
        bonus = RANGER_BONUS if ranger is not None and ranger != u.id else 0
        return chart.movement + bonus + u.bonus_movement - u.movement_used

    def controlled(self, seat: int) -> list[Unit]:
        out = []
        crews = self.crews
        units = self.units
        for i in sorted(self.occupied.values()):
            u = units[i]
            kind = u.type
            if kind in (RAM, TOWER):
                crew = crews.get(i)
                if crew and crew[0].seat == seat:
                    out.append(u)
            elif u.seat == seat:
                out.append(u)
        return out

    def passage(self) -> Unit | None:
        """``movement._passage_unit``: the active unit on the gate's passage."""
        if self.active < 0:
            return None
        u = self.state.units[self.active]
        if u.status != ON_FIELD or u.carried_by >= 0 or u.level != GROUND:
            return None
        square = u.square
        return u if (square.row << 6 | square.col) in self.t.walls else None

    def targets(self, u: Unit, chart: Chart, origin: int, left: int) -> list[tuple[int, int, bool]]:
        """``movement._Mover.targets``: (direction, position, boards) of each legal step."""
        out: list[tuple[int, int, bool]] = []
        occupied = self.occupied
        may_wall = chart.may_wall
        last = -1
        tramples = u.type == ELEPHANT and u.carried_by < 0
        side = -1
        for d, p, kind in self.t.steps.get(origin, ()):
            if d == last:
                continue
            if kind == ONTO_WALL and not may_wall:
                continue
            held = occupied.get(p)
            if held is None and p & 3 != STAIRS:
                held = occupied.get(p | 3)
            boards = False
            if held is not None:
                if tramples:
                    pass
                elif not self._may_board(u, chart, self.units[held]):
                    continue
                else:
                    boards = True
            elif kind == PASSAGE:
                if side < 0:
                    side = self.side_of(u)
                if not (
                    self.gate_open(side, p >> 2) and self._may_pass(chart, side, origin, p, left)
                ):
                    continue
            last = d
            out.append((d, p, boards))
        return out

    def _may_board(self, u: Unit, chart: Chart, held: Unit) -> bool:
        crew = self.crews.get(held.id)
        if held.type == RAM:
            return chart.may_man and u.carried_by < 0 and not crew
        return (
            held.type == TOWER
            and held.side == u.side
            and chart.may_wall
            and u.carried_by < 0
            and len(crew or ()) < TOWER_ROOM
        )

    def _may_pass(self, chart: Chart, side: int, origin: int, passage: int, left: int) -> bool:
        if left < 2:
            return False
        here = origin >> 2
        walls = self.t.walls
        for _, p, kind in self.t.steps.get(passage, ()):
            if p >> 2 == here or kind == ONTO_WALL:
                continue
            if self.held(p) is not None:
                continue
            level = p & 3
            if level == WALL and not chart.may_wall:
                continue
            if level == GROUND and p >> 2 in walls and not self.gate_open(side, p >> 2):
                continue
            return True
        return False


def _pig_steps(f: Field, pig: Unit, chart: Chart, left: int) -> list[Key]:
    forward = pig.facing
    if pigs.blocked_ahead(f.state, pig):
        return [(STEP, pig.id, forward)]
    return [
        (STEP, pig.id, d) for d, _, _ in f.targets(pig, chart, position(pig), left) if d == forward
    ]


def movement_keys(state: State, seat: int) -> list[Key] | None:
    """The movement phase's moves for ``seat``, ascending (``derived.movement_keys``);
    None while a Siege Tower carries a crew (the reference lists those)."""
    found = plain_listing(state, seat)
    return found[0] if found is not None else None


def plain_listing(state: State, seat: int) -> tuple[list[Key], Plain | None] | None:
    """:func:`movement_keys`, with the field as plain data when a step can
    derive the next listing from it (:func:`after_step`): no unit on the
    gate's passage."""
    f = Field(state, tables(state))
    crews = f.crews
    if crews:
        units = state.units
        if any(units[engine].type == TOWER for engine in crews):
            return None
    keys: list[Key] = []
    passage = f.passage()
    controlled = f.controlled(seat)
    if passage is not None:  # it must step on (KK-57): nothing else
        if not f.locked:
            _steps(f, passage, keys)
        if not _on_gate_passage(f) and not _pigs_to_move(f, seat, passage):
            keys.append((END_PHASE,))
        keys.sort()
        return keys, None
    for u in controlled:
        _unit_keys(f, u, keys)
    if crews and not f.locked:
        _unman(f, seat, controlled, keys)
    if not _on_gate_passage(f) and not _pigs_to_move(f, seat, passage):
        keys.append((END_PHASE,))
    keys.sort()
    plain = Plain(
        f.occupied,
        f.rangers,
        {e: tuple(u.id for u in c) for e, c in crews.items()},
        tuple(u.id for u in f.pigs),
        f.turned,
    )
    return keys, plain


MOVES = frozenset({STEP, CLIMB, PREPARE_CLIMB})
"""The kinds of keys that depend on where the other units stand."""


def _unit_keys(f: Field, u: Unit, keys: list[Key], *, whole: bool = True) -> None:
    """The steps, rotations, dismount and climbs of one controlled unit (no unit
    on the gate's passage); not ``whole``: its steps and climbs only."""
    add = keys.append
    locked = f.locked
    uid = u.id
    kind = u.type
    chart = CHARTS[kind]
    moved = u.moved
    finished = movement_over(u, f.active)
    left = -1000 if finished or locked else f.left(u, chart)
    # steps (movement._step_keys)
    if left >= 1 and not u.immobile:
        if kind == PIG:
            keys.extend(_pig_steps(f, u, chart, left))
        else:
            for d, _, _ in f.targets(u, chart, position(u), left):
                add((STEP, uid, d))
    # rotations (movement._rotate_keys; exposed crews are a tower's: not here)
    if whole and may_turn(u, 0 if locked else chart.rotation_cost, finished, left):
        for facing in OTHER_FACINGS[u.facing]:
            add((ROTATE, uid, facing))
    # dismounts (movement._dismount_keys)
    if whole and kind == CAVALRY and not u.dismounted:
        add((DISMOUNT, uid))
    # climbs (climbing._climbs, both_climb_keys)
    if chart.may_climb and not moved and left >= 1 and u.level == GROUND:
        square = u.square
        occupied = f.occupied
        for d, c in f.t.climbs[square.row << 6 | square.col]:
            held = occupied.get(c << 2 | WALL)
            if held is None:
                add((CLIMB, uid, d))
            elif f.units[held].side != u.side and combat.can_climb_attack(
                f.state, f.t.board, uid, Direction(d)
            ):
                add((CLIMB, uid, d))
                add((PREPARE_CLIMB, uid, d))


def _steps(f: Field, u: Unit, keys: list[Key]) -> None:
    """``u``'s steps (movement._step_keys for one unit)."""
    uid = u.id
    if u.immobile or movement_over(u, f.active):
        return
    chart = CHARTS[u.type]
    left = f.left(u, chart)
    if left < 1:
        return
    if u.type == PIG:
        keys.extend(_pig_steps(f, u, chart, left))
        return
    for d, _, _ in f.targets(u, chart, position(u), left):
        keys.append((STEP, uid, d))


def _unman(f: Field, seat: int, controlled: list[Unit], keys: list[Key]) -> None:
    """``movement._unman_keys``: a crew steps off its Ram before its side moved (KK-90)."""
    units = f.state.units
    crews = [
        u for engine, c in f.crews.items() if units[engine].type == RAM for u in c if u.seat == seat
    ]
    if not crews:
        return
    if any(u.moved for u in controlled) or any(
        u.moved for u in units if u.status == ON_FIELD and u.seat == seat
    ):
        return
    for u in crews:
        chart = CHARTS[u.type]
        left = f.left(u, chart)
        if left < 1:
            continue
        for d, p, boards in f.targets(u, chart, position(u), left):
            if not boards and p & 3 != WALL:
                keys.append((STEP, u.id, d))


def _on_gate_passage(f: Field) -> bool:
    """``turns._on_gate_passage``: the active unit stands on the gate's passage."""
    if f.active < 0:
        return False
    u = f.state.units[f.active]
    square = u.square
    return (
        u.status == ON_FIELD and u.level == GROUND and (square.row << 6 | square.col) in f.t.walls
    )


def _pigs_to_move(f: Field, seat: int, passage: Unit | None) -> bool:
    """``movement.pigs_to_move``: a Flaming Pig of ``seat`` (one it controls:
    standing, its own) must still move (KK-86)."""
    if f.locked or passage is not None:
        return False
    chart = CHARTS[PIG]
    for u in f.pigs:
        if u.seat != seat or u.moved or u.carried_by >= 0:
            continue
        left = f.left(u, chart)
        if left >= 1 and _pig_steps(f, u, chart, left):
            return True
    return False


def step_target(
    state: State, u: Unit, d: int, f: Field | None = None
) -> tuple[Position, Unit | None, int]:
    """Where the listed step of ``u`` in direction ``d`` goes (not out of a
    tower), the Ram manned or the tower boarded by it (or None), and ``u``'s
    movement points before it; ``f``: the state's field, if known."""
    if f is None:
        f = Field(state, tables(state))
    chart = CHARTS[u.type]
    left = f.left(u, chart)
    for way, p, boards in f.targets(u, chart, position(u), left):
        if way == d:
            where = Position(Coord(p >> 8, p >> 2 & 63), st._LEVELS[p & 3])
            return where, f.held(p) if boards else None, left
    raise ValueError(f"unit {u.id} has no step towards {d}")


def _turned_again(
    f: Field, units: Sequence[Unit], turned: Iterable[int], whole: set[int], keys: list[Key]
) -> None:
    """The rotations of the units turned before the move (not listed again
    whole): they may turn again (another move, KK-31); they are the seat's
    (invariants.turned_only_in_the_movement_phase)."""
    for i in turned:
        if i not in whole:
            v = units[i]
            chart = CHARTS[v.type]
            over = movement_over(v, f.active)
            cost = 0 if f.locked else chart.rotation_cost
            if may_turn(v, cost, over, f.left(v, chart) if cost and not over else 0):
                for facing in OTHER_FACINGS[v.facing]:
                    keys.append((ROTATE, i, facing))


def after_step(
    state: State, seat: int, before: list[Key], plain: Plain, *, uid: int, origin: int, active: int
) -> tuple[list[Key], Plain] | None:
    """The listing for ``seat`` after a move of unit ``uid`` from ``origin``
    (a step, a climb; a dismount or a rotation: where it stands) whose only
    event was its own, from the listing ``before`` it (of the same seat, with
    its ``plain`` field) and the unit active before it; None when it cannot be
    derived (a unit now on the gate's passage).

    Such a move changes what a listing reads only at its two squares, the
    mover's own chart, points, facing and position, and which unit is active:
    so only the mover, the units active before and after it, and the steps
    and climbs of the units next to either square (a step, a climb and the
    Knight's bonus look no further; two spaces away for a square next to the
    gate's passage, whose pass looks at the space beyond) are listed again,
    and once the side has moved no crew steps off its Ram (KK-90); the units
    turned before it have their rotations again (it is another move, KK-31);
    the other units' keys are those of ``before``. Nothing else changes: no gate's
    control (an event; the gate's side for the next unit, ``rules.gates.gate_side``,
    changes with the active unit on or off the space above the gate, and the
    units next to that space are listed again), no crew (an event), no death
    (an event); ``end_phase``
    waits for a Flaming Pig that must still move (listed again when there are
    Pigs).
    Returns the keys and the plain field."""
    u = state.units[uid]
    target = position(u)
    occupied = dict(plain.occupied)
    if occupied.pop(origin, None) != uid or target in occupied:
        return None
    occupied[target] = uid
    after = Plain(occupied, plain.rangers, plain.crews, plain.pigs, ())
    f = Field.of_plain(state, tables(state), after)
    if f.passage() is not None or _on_gate_passage(f):
        return None  # a unit on the gate's passage must go on: it alone is listed
    # listed again whole: the mover, the unit active before it; their steps and
    # climbs only: the units within reach of the two squares (two spaces next to
    # the gate's passage, whose pass looks at the space beyond, else one); the
    # crews' steps off their Rams are gone (the side has moved, KK-90)
    whole = {uid, active, f.active}
    t = f.t
    nearby = set()
    for p in (origin, target) if origin != target else ():
        for q in (t.around2 if p >> 2 in t.by_passage else t.around)[p >> 2]:
            i = occupied.get(q)
            if i is not None:
                nearby.add(i)
    nearby -= whole
    partial = set(nearby)
    if u.moved:  # the side has moved: no crew steps off its Ram (KK-90)
        for ids in plain.crews.values():
            partial.update(ids)
    had_end = bool(before) and len(before[-1]) == 1
    body = before[:-1] if had_end else before
    # (one look at most keys: those of the units not listed again)
    again = whole | partial
    keys = [k for k in body if k[1] not in again or (k[1] not in whole and k[0] not in MOVES)]
    units = state.units
    crews = f.crews
    for i in sorted(whole | nearby):
        if i < 0:
            continue
        v = units[i]
        if i != uid and i not in nearby and (v.status != ON_FIELD or v.carried_by >= 0):
            continue  # an active unit not standing: no keys
        if v.type in (RAM, TOWER):
            crew = crews.get(i)
            if not crew or crew[0].seat != seat:
                continue
        elif v.seat != seat:
            continue
        _unit_keys(f, v, keys, whole=i in whole)
    _turned_again(f, units, plain.turned, whole, keys)
    # end_phase: no unit on the passage; a Flaming Pig may still have to move
    has_end = (not _pigs_to_move(f, seat, None)) if f.pigs else had_end
    if has_end:
        keys.append((END_PHASE,))
    keys.sort()
    return keys, after
