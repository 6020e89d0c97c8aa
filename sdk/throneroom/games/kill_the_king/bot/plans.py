"""Where each of the bot's units is going: one goal (a set of positions) per unit.

The attacker, Kill the King (KK-116): the Battering Ram (manned) goes to the
gate and rams it until the gate is open to the attacker (taken or broken),
then through it to the King's Door; two climbers take the gate (climb the
front wall, end on the space above the gate, KK-56) and hold it; an infantry
mans the Ram when its crew died; the other melee units and the Knight go to
the squares around the Door (support on the stairs, KK-113), leaving the Ram's
lane free, fighting whoever stands in the way; archers go where an enemy is
in range; Catapults shoot when they have a target and otherwise close in.

The attacker, Attack and Defense (KK-117): every melee unit hunts the
defender's leader, archers and Catapults get it in range; once it is dead,
everyone runs for the defender's edge row.

The defender holds: units stay where they were placed (walls, the gate's
top, the Door), turn to the threat and strike whatever comes within a turn's
reach; a climber retakes the gate when the attacker took it; the leader
never leaves.

Kill the King Giga (KK-9, KK-129): each side of the joined castle has its
gate and its door; the units on each board half are planned as above
against that half's gate and door. A team's units are planned together (the
bot moves only its own seat's: its legal moves name no other).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from throneroom.games.kill_the_king.board import Coord, Position, Terrain
from throneroom.games.kill_the_king.bot.combat import attack_worth
from throneroom.games.kill_the_king.bot.model import UNREACHABLE, Piece, Situation
from throneroom.games.kill_the_king.data import (
    UNITS,
    AttackKind,
    Direction,
    Level,
    Side,
    UnitType,
    Victory,
)
from throneroom.games.kill_the_king.field import home_row

CATAPULT_HOLD_WORTH = 0.6
"""A Catapult with an attack worth this much where it stands does not move."""
GATE_TAKERS = 2


@dataclass
class Planner:
    """Goals and distance maps for one decision (cached per mobility class and goal)."""

    sit: Situation
    _maps: dict[tuple[object, ...], Mapping[Position, int]] = field(default_factory=dict)
    _goals: dict[int, frozenset[Position]] = field(default_factory=dict)
    _ranges: dict[tuple[object, ...], frozenset[Position]] = field(default_factory=dict)

    # -- distances ------------------------------------------------------------------------

    def distances(self, piece: Piece, goals: frozenset[Position]) -> Mapping[Position, int]:
        spec = UNITS[piece.type]
        key = (goals, spec.may_stand_on_wall, spec.may_climb, spec.may_man, piece.side)
        if key not in self._maps:
            self._maps[key] = self.sit.distances(piece, goals)
        return self._maps[key]

    def distance(self, piece: Piece) -> int:
        goals = self.goals(piece)
        if not goals:
            return 0
        return self.distances(piece, goals).get(piece.position, UNREACHABLE)

    # -- goals ----------------------------------------------------------------------------

    def goals(self, piece: Piece) -> frozenset[Position]:
        """Where ``piece`` is going; empty: it holds where it is."""
        if piece.id not in self._goals:
            if self.sit.side is Side.ATTACKER:
                self._assign_attacker()
            else:
                self._assign_defender()
        return self._goals.get(piece.id, frozenset())

    def _positions(self, coords: Iterable[Coord]) -> frozenset[Position]:
        at = self.sit.positions_at
        return frozenset(p for coord in coords for p in at.get(coord, ()))

    def _around(self, target: Piece) -> frozenset[Position]:
        """Where a melee unit stands to strike ``target``."""
        sit = self.sit
        out: set[Position] = set()
        for coord in sit.board.around(target.coord):
            if coord not in sit.in_play:
                continue
            for level in sit.board.space(*coord).levels:
                reach = target.level is Level.STAIRS or level is Level.STAIRS
                if reach or level == target.level:
                    out.add(Position(coord, level))
        return frozenset(out)

    def _in_range(self, targets: list[Piece], distances: range) -> frozenset[Position]:
        key = (tuple(t.id for t in targets), distances)
        if key not in self._ranges:
            coords = {t.coord.step(d, k) for t in targets for d in Direction for k in distances}
            self._ranges[key] = frozenset(
                p for p in self._positions(coords) if p.level is not Level.WALL
            )
        return self._ranges[key]

    def _assign_attacker(self) -> None:
        sit = self.sit
        mine = sit.mine()
        enemies = sit.enemies()
        goals = self._goals
        for piece in mine:
            goals[piece.id] = frozenset()
        if sit.spec.victory is Victory.LEADER_AND_BREAKTHROUGH:
            self._assign_breakthrough(mine, enemies)
            return
        for half in sit.halves:  # Kill the King Giga: each side of the castle apart
            self._assign_siege(half, [p for p in mine if sit.half_of(p.coord) == half], enemies)

    def _assign_siege(self, half: int, mine: list[Piece], enemies: list[Piece]) -> None:
        """The attackers on one side of the castle: the Ram to the gate then the
        door, climbers to the gate's top, the rest to the door."""
        sit = self.sit
        goals = self._goals
        door = sit.door_in(half)
        gate = sit.gate_coord(half)
        out = sit.outward(half)
        ram = next((p for p in mine if p.type is UnitType.BATTERING_RAM), None)
        lane: set[Coord] = set()
        door_ring: frozenset[Position] = frozenset()
        ram_goal: frozenset[Position] = frozenset()
        if door is not None:
            below = door.step(out)
            lane = {below, below.step(out)}
            ram_goal = self._positions([below])
            ring = set(sit.king_stairs(half)) | set(sit.board.around(door))
            door_ring = self._positions(c for c in ring if c not in lane)
        gate_open = sit.gate_open(half)
        if ram is not None and sit.crew_of(ram) is not None:
            if not gate_open and gate is not None:
                goals[ram.id] = self._positions([gate.step(out)])
            else:
                goals[ram.id] = ram_goal
        climbers = [
            p for p in mine if p.may_climb and not p.is_leader and p.type is not UnitType.ARCHER
        ]
        taken: set[int] = set()
        if ram is not None and sit.crew_of(ram) is None:
            manners = [p for p in climbers if UNITS[p.type].may_man]
            target = frozenset({ram.position})
            best = min(
                manners,
                default=None,
                key=lambda p: self.distances(p, target).get(p.position, UNREACHABLE),
            )
            if best is not None:
                goals[best.id] = target
                taken.add(best.id)
        if gate is not None:
            top = frozenset({Position(gate, Level.WALL)})
            holder = sit.at.get(Position(gate, Level.WALL))
            if holder is not None and holder.side is sit.side:
                taken.add(holder.id)  # holds the gate
            elif not gate_open or holder is None:
                free = [p for p in climbers if p.id not in taken]
                free.sort(key=lambda p: self.distances(p, top).get(p.position, UNREACHABLE))
                for p in free[: 1 if gate_open else GATE_TAKERS]:
                    goals[p.id] = top
                    taken.add(p.id)
        for piece in mine:
            if piece.id in taken or piece.type is UnitType.BATTERING_RAM:
                continue
            spec = UNITS[piece.type]
            if spec.attack.kind is AttackKind.VOLLEY:
                goals[piece.id] = self._in_range(enemies, range(2, 5)) if enemies else door_ring
            elif spec.attack.kind is AttackKind.CROSS:
                goals[piece.id] = self._catapult(piece, enemies)
            elif spec.attack.kind in (AttackKind.MELEE, AttackKind.SPEAR):
                goals[piece.id] = door_ring

    def _catapult(self, piece: Piece, targets: list[Piece]) -> frozenset[Position]:
        sit = self.sit
        if piece.immobile:
            return frozenset()
        best = attack_worth(sit, piece, piece.coord, piece.level, piece.facing)
        if best >= CATAPULT_HOLD_WORTH:
            return frozenset()
        back = piece.facing.opposite
        coords = {t.coord.step(back, k) for t in targets for k in range(3, 7)}
        return frozenset(p for p in self._positions(coords) if p.level is Level.GROUND)

    def _assign_breakthrough(self, mine: list[Piece], enemies: list[Piece]) -> None:
        sit = self.sit
        goals = self._goals
        leader = sit.leader(sit.enemy_side)
        edge = home_row(sit.mode, Side.DEFENDER)
        edge_row = self._positions(Coord(edge, c) for c in range(sit.board.cols))
        for piece in mine:
            spec = UNITS[piece.type]
            if leader is None:
                goals[piece.id] = edge_row
            elif spec.attack.kind is AttackKind.VOLLEY:
                goals[piece.id] = self._in_range([leader], range(2, 5))
            elif spec.attack.kind is AttackKind.CROSS:
                goals[piece.id] = self._catapult(piece, [leader])
            elif spec.attack.kind in (AttackKind.MELEE, AttackKind.SPEAR):
                goals[piece.id] = self._around(leader)

    def _assign_defender(self) -> None:
        sit = self.sit
        mine = sit.mine()
        enemies = sit.enemies()
        for piece in mine:
            self._goals[piece.id] = frozenset()
        for half in sit.halves:  # Kill the King Giga: each side of the castle apart
            self._assign_holders(half, [p for p in mine if sit.half_of(p.coord) == half], enemies)

    def _assign_holders(self, half: int, mine: list[Piece], enemies: list[Piece]) -> None:
        """The defenders of one side of the castle: retake its gate, guard its
        door, strike the attackers in reach."""
        sit = self.sit
        goals = self._goals
        gate = sit.gate_coord(half)
        gate_info = sit.gate_in(half)
        gate_lost = (
            gate_info is not None
            and gate is not None
            and (gate_info.controlled_by == int(Side.ATTACKER))
        )
        taken: set[int] = set()
        if gate_lost and gate is not None and Position(gate, Level.WALL) not in sit.at:
            top = frozenset({Position(gate, Level.WALL)})
            climbers = [p for p in mine if p.walls_allowed and not p.is_leader]
            best = min(
                climbers,
                default=None,
                key=lambda p: self.distances(p, top).get(p.position, UNREACHABLE),
            )
            if best is not None and self.distances(best, top).get(best.position, UNREACHABLE) < 6:
                goals[best.id] = top
                taken.add(best.id)
        door_guards = set()
        door = sit.door_in(half)
        if door is not None:
            door_guards = {p.coord for p in mine} & set(sit.board.around(door))
        for piece in mine:
            spec = UNITS[piece.type]
            if (
                piece.id in taken
                or piece.is_leader
                or piece.coord in door_guards
                or spec.attack.kind not in (AttackKind.MELEE, AttackKind.SPEAR)
            ):
                continue
            reach = spec.movement
            best_goal: frozenset[Position] = frozenset()
            best_distance = UNREACHABLE
            for enemy in enemies:
                if sit.board.space(*enemy.coord).terrain is Terrain.DOOR:
                    continue
                if (
                    abs(enemy.coord.row - piece.coord.row) + abs(enemy.coord.col - piece.coord.col)
                    > reach + 2
                ):
                    continue
                ring = self._around(enemy)
                d = self.distances(piece, ring).get(piece.position, UNREACHABLE)
                if d <= reach and d < best_distance:
                    best_goal, best_distance = ring, d
            goals[piece.id] = best_goal
