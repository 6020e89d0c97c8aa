"""What an attack sees and the plan it makes: the scene of a state (who
stands where, on which level, for which side), the attack plan (``Strike``:
its chart value, modifiers and dice, each ``Roll`` with how its target
defends, ``Save``) and the leaders' bonuses next to a unit (the Knight's,
KK-80; the Engineer's, KK-81). The patterns that make strikes are
:mod:`.strikes`.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import TypeAlias

from throneroom.games.kill_the_king.board import Board, Coord, Terrain
from throneroom.games.kill_the_king.data import (
    LEADERS,
    Face,
    Level,
    ModeSpec,
    Side,
    UnitType,
    mode_of,
)
from throneroom.games.kill_the_king.rules import table as tb
from throneroom.games.kill_the_king.rules.table import Table, Unit, crew_of, top_of
from throneroom.v1 import kill_the_king_pb2 as pb

_TOWER = int(UnitType.SIEGE_TOWER)

Modifier: TypeAlias = pb.AttackModifier.ValueType


class Save(enum.Enum):
    """How the thing a die hits defends itself."""

    UNIT = "unit"
    """The unit rolls its defence for the face hit (KK-35)."""
    NONE = "none"
    """No defence roll: a hit kills (the Catapult, KK-67)."""
    WALL = "wall"
    """A wall space rolls 4 (KK-50)."""
    GATE = "gate"
    """The outer gate rolls 3 (KK-58)."""
    DOOR = "door"
    """The King's Door rolls 2 (KK-114)."""


@dataclass(frozen=True)
class Roll:
    """One hit die of an attack, in the order of the dice (KK-37)."""

    needed: int
    """The attack value after modifiers: the die hits when it shows this or less."""
    square: Coord
    target: int = -1
    """The unit hit (-1: a wall, the gate or the door)."""
    save: Save = Save.UNIT
    face: Face | None = None
    """Save.UNIT: the face the hit lands on (KK-36)."""


@dataclass(frozen=True)
class Strike:
    """One legal attack, worked out before any die is rolled."""

    unit: int
    target: Coord
    """The square the move names (``KillTheKingMove.Attack.target``)."""
    base_value: int
    modifiers: tuple[tuple[Modifier, int], ...]
    """Each modifier and its signed change, as the ``Attacked`` event lists them."""
    rolls: tuple[Roll, ...]
    climbing: bool = False
    """A climbing attack (KK-44), now or prepared (KK-45)."""
    onto_wall: bool = False
    """A prepared climb whose wall space was emptied: it climbs without a roll (KK-45)."""
    level: Level | None = None
    """The level a Ballista's bolt strikes (``attack.level``, KK-94); None for others."""

    @property
    def value(self) -> int:
        return self.base_value + sum(change for _, change in self.modifiers)

    @property
    def can_hit(self) -> bool:
        """Offered only if some die can hit (KK-34: values below 1 are not offered)."""
        return self.onto_wall or any(r.needed >= 1 for r in self.rolls)

    @property
    def target_units(self) -> tuple[int, ...]:
        return tuple(r.target for r in self.rolls if r.target >= 0)


# -- the scene: what an attack sees ---------------------------------------------------------


@dataclass(frozen=True)
class Scene:
    """The state read for planning attacks: the field (ruins applied), the spaces
    in play in the mode and who stands where. Built once per question; never
    kept across a change of the state."""

    state: Table
    board: Board
    mode: ModeSpec
    in_play: frozenset[Coord]
    by_square: dict[tuple[int, int], tuple[Unit, ...]]
    leaders: dict[tuple[int, int], tuple[Unit, ...]]
    """The standing Knights and Engineers of each side, by (side, type) as
    numbers (their bonuses, KK-106, KK-108)."""
    units: tuple[Unit, ...] = ()
    """Every unit of the scene: the exposed crews (by tower id), then the
    standing units (by id)."""

    @classmethod
    def of(cls, state: Table, board: Board) -> Scene:
        mode = mode_of(state.mode)
        squares: dict[tuple[int, int], list[Unit]] = {}
        leaders: dict[tuple[int, int], list[Unit]] = {}
        units = _standing_and_exposed(state)
        for u in units:
            square = u.square
            key = (square.row, square.col)
            found = squares.get(key)
            if found is None:
                squares[key] = [u]
            else:
                found.append(u)
            if u.type in _BONUS_LEADER_TYPES and u.carried_by < 0:  # not from inside a tower
                leaders.setdefault((u.side, u.type), []).append(u)
        # The spaces in play: the mode's (cached) on the state's own field, whose
        # ruins keep the zones; any other board's own.
        in_play = tb.in_play(state) if board is tb.field(state) else board.in_play(mode.zone_layer)
        return cls(
            state,
            board,
            mode,
            in_play,
            {c: tuple(us) for c, us in squares.items()},
            {key: tuple(us) for key, us in leaders.items()},
            units,
        )

    def at(self, square: Coord) -> tuple[Unit, ...]:
        """The units standing on a space, any level: not crews, except the unit on
        top of a Siege Tower at a wall, listed first (KK-97, KK-141)."""
        return self.by_square.get(square, ())

    def playable(self, square: Coord) -> bool:
        # The spaces in play are spaces of the board.
        return square in self.in_play

    def terrain(self, square: Coord) -> Terrain:
        return self.board.space(*square).terrain

    def is_wall(self, square: Coord) -> bool:
        """An intact wall or gate space (rubble is grass, KK-52)."""
        return self.board.space(*square).is_wall


def _standing_and_exposed(state: Table) -> tuple[Unit, ...]:
    """``(*towers.exposed_crews(state), *standing(state))`` from one look at
    the units: the unit on top of each Siege Tower at a wall (by tower id),
    then the units standing on the field (by id)."""
    on_field = tb.ON_FIELD
    standing_units: list[Unit] = []
    carried: list[Unit] = []
    settled: set[int] = set()
    for u in state.units:
        if u.status != on_field:
            continue
        if u.carried_by >= 0:
            carried.append(u)
            continue
        standing_units.append(u)
        if u.type == _TOWER and u.immobile:
            settled.add(u.id)
    if not settled:
        return tuple(standing_units)
    crews: dict[int, list[Unit]] = {}
    for u in carried:
        if u.carried_by in settled:
            crews.setdefault(u.carried_by, []).append(u)
    tops = (top_of(crews[tower]) for tower in sorted(crews))
    return (*(top for top in tops if top is not None), *standing_units)


def allegiance(state: Table, u: Unit) -> Side:
    """The side a counter fights for: its own, except that a manned Battering Ram
    is attacked as its crew (KK-92 reading: an enemy crew makes it a target for
    the Ram's own side, and a friendly one for the other)."""
    if u.type == _RAM:
        crew = crew_of(state, u.id)
        if crew:
            return _SIDES[crew[0].side]
    return _SIDES[u.side]


def hostile(state: Table, attacker: Unit, target: Unit) -> bool:
    if _RAM not in (attacker.type, target.type):
        return attacker.side != target.side
    return allegiance(state, attacker) is not allegiance(state, target)


def reaches(attacker: Level, target: Level) -> bool:
    """Whether a unit on level ``attacker`` attacks one on ``target`` (KK-65)."""
    return Level.STAIRS in (attacker, target) or attacker is target


def adjacent(a: Coord, b: Coord) -> bool:
    return abs(a.row - b.row) + abs(a.col - b.col) == 1


_BONUS_LEADERS = frozenset({UnitType.KNIGHT, UnitType.ENGINEER})
_BONUS_LEADER_TYPES = frozenset(int(t) for t in _BONUS_LEADERS)
_RAM = int(UnitType.BATTERING_RAM)
_SIDES = {int(s): s for s in Side}


def _leader_next_to(scene: Scene, u: Unit, leader: UnitType) -> bool:
    """A living friendly ``leader`` standing orthogonally next to ``u`` (not ``u``)."""
    found = scene.leaders
    if not found:
        return False
    nearby = found.get((int(allegiance(scene.state, u)), int(leader)))
    if not nearby:
        return False
    row, col = u.square.row, u.square.col
    return any(
        v.id != u.id and abs(v.square.row - row) + abs(v.square.col - col) == 1 for v in nearby
    )


def knight_bonus(scene: Scene, u: Unit) -> int:
    """+1 for a unit next to its side's living Knight (KK-106), never the Knight himself."""
    bonus = LEADERS[UnitType.KNIGHT].adjacent_attack_bonus
    return bonus if _leader_next_to(scene, u, UnitType.KNIGHT) else 0


def engineer_next_to(scene: Scene, u: Unit) -> bool:
    """A Catapult or Ballista next to its side's Engineer may attack after moving (KK-108)."""
    return LEADERS[UnitType.ENGINEER].engines_move_and_attack and _leader_next_to(
        scene, u, UnitType.ENGINEER
    )
