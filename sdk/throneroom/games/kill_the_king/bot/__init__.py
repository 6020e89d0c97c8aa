"""A heuristic Kill the King bot: plans each unit's goal and follows it step by step.

``KillTheKingBot(seed=None, side=None)`` plays either side of Kill the King
and Attack and Defense from its own view and legal moves only (the other
seat's hidden placement stays hidden: it plans with what it sees).

* Setup (:mod:`.setup`): it takes ``side`` when it wins the initiative
  (default: the defender), buys the rulebook's suggested army, chooses the
  Knight and places by a formation.
* Movement (:mod:`.plans`): every unit has a goal, a set of positions; a
  distance map over the movement graph (steps, climbs, the gate's passage
  when it may use it; friends and enemies make a path dearer, not
  impossible) says which legal step brings it closer. Units move one at a
  time, nearest their goal first (a unit's move ends when another moves,
  KK-30); then each turns to the facing with the best attack (or towards its
  goal), and the phase ends.
* Attacks (:mod:`.combat`): every legal attack is valued (chance to kill
  times what it is worth, friends in a Catapult's cross against it); the
  best is made while one is worth anything, then the phase ends.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from throneroom.envelopes import unwrap
from throneroom.games.kill_the_king.board import Coord, Position
from throneroom.games.kill_the_king.bot.combat import attack_worth
from throneroom.games.kill_the_king.bot.model import UNREACHABLE, Phase, Piece, Situation
from throneroom.games.kill_the_king.bot.plans import Planner
from throneroom.games.kill_the_king.bot.setup import LEADER, place
from throneroom.games.kill_the_king.data import (
    UNITS,
    Direction,
    Level,
    Mode,
    Side,
    UnitType,
)
from throneroom.v1 import game_pb2
from throneroom.v1 import kill_the_king_pb2 as pb

__all__ = ["KillTheKingBot", "attack_value"]

Move = pb.KillTheKingMove
BUY_ORDER = (UnitType.SWORDSMEN, UnitType.SPEARMEN, UnitType.ARCHER, UnitType.CAVALRY)
"""What the bot buys when it buys one by one (the Treasurer's coins, a budget left)."""
ADVANCED_FIRST = {
    Side.ATTACKER: (UnitType.WAR_ELEPHANT, UnitType.BALLISTA, UnitType.SIEGE_TOWER),
    Side.DEFENDER: (UnitType.BALLISTA, UnitType.PEASANT),
}
"""With the ``advanced`` option the bot buys one of each of these first (then its
usual army one by one): an Elephant to trample the front, a Ballista to shoot
the wall tops, a tower to reach them; the defender a Ballista on its wall and
three Peasants for the price of one."""
GIGA_CAVALRY = 6
"""Cavalry the attacking team buys first in Attack and Defense Giga."""
WORTH_ATTACKING = 0.05
"""An attack worth less than this (a miss is likelier than a gain) is not made."""


class KillTheKingBot:
    """Kill the King's heuristic bot (see the module's description)."""

    name = "kill_the_king_heuristic"

    def __init__(self, seed: int | None = None, side: Side | int | None = None) -> None:
        self._random = random.Random(seed)
        self.side = Side(side) if side else Side.DEFENDER
        self._facings: tuple[tuple[int, int], dict[int, Direction]] = ((-1, -1), {})

    def plays(self, game_type: str, num_seats: int, options: Mapping[str, Any]) -> bool:
        """Whether this bot plays ``game_type`` (every mode and seat count of it)."""
        return game_type == "kill_the_king"

    def choose(
        self,
        game_type: str,
        seat: int,
        view: game_pb2.View,
        legal_moves: Sequence[game_pb2.Move],
    ) -> game_pb2.Move:
        if not legal_moves:
            raise ValueError(f"seat {seat} has no legal move to choose from")
        state = unwrap(view)
        assert isinstance(state, pb.KillTheKingView)
        moves = [unwrap(m) for m in legal_moves]
        return legal_moves[self.decide(state, seat, moves)]  # type: ignore[arg-type]

    # -- one decision ---------------------------------------------------------------------

    def decide(self, view: pb.KillTheKingView, seat: int, moves: Sequence[Move]) -> int:
        """The index of the chosen move among ``moves``."""
        kinds: dict[str, list[int]] = {}
        for i, move in enumerate(moves):
            kinds.setdefault(move.WhichOneof("decision") or "", []).append(i)
        if len(moves) == 1:
            return 0
        phase = view.phase
        if "choose_side" in kinds:
            return next(
                (i for i in kinds["choose_side"] if moves[i].choose_side.side == int(self.side)),
                kinds["choose_side"][0],
            )
        if "buy_suggested_army" in kinds and not view.advanced:
            return kinds["buy_suggested_army"][0]
        if "buy" in kinds:
            return self._buy(moves, kinds["buy"], self._wanted(view, seat))
        if "choose_leader" in kinds:
            return next(
                (i for i in kinds["choose_leader"] if moves[i].choose_leader.leader == int(LEADER)),
                kinds["choose_leader"][0],
            )
        sit = Situation(view, seat)
        if "place" in kinds:
            return place(sit, moves)
        if "reinforce" in kinds:
            return self._reinforce(sit, moves, kinds["reinforce"])
        if "follow_up" in kinds:
            return self._follow_up(sit, moves, kinds["follow_up"])
        if "disband" in kinds:
            return min(
                kinds["disband"],
                key=lambda i: UNITS[UnitType(sit.units[moves[i].disband.unit].type)].cost,
            )
        if phase == Phase.PHASE_ATTACK:
            return self._attack(sit, moves, kinds)
        if phase == Phase.PHASE_MOVEMENT:
            return self._move(sit, moves, kinds)
        return kinds.get("end_phase", [self._random.randrange(len(moves))])[0]

    # -- setup ----------------------------------------------------------------------------

    @staticmethod
    def _wanted(view: pb.KillTheKingView, seat: int) -> tuple[UnitType, ...]:
        """What to buy first: Attack and Defense Giga's attackers, Cavalry (KK-130:
        four units must cross 15 rows in six rounds); with the option, the
        advanced units (KK-132)."""
        side = Side(view.seats[seat].side)
        team = [u for u in view.units if u.side == int(side)]  # Giga: the team's pool
        first: tuple[UnitType, ...] = ()
        if view.mode == int(Mode.ATTACK_AND_DEFENSE_GIGA) and side is Side.ATTACKER:
            cavalry = sum(1 for u in team if u.type == int(UnitType.CAVALRY))
            first = (UnitType.CAVALRY,) if cavalry < GIGA_CAVALRY else ()
        if not view.advanced:
            return first
        owned = {UnitType(u.type) for u in team}
        return first + tuple(u for u in ADVANCED_FIRST.get(side, ()) if u not in owned)

    @staticmethod
    def _buy(moves: Sequence[Move], buys: list[int], first: Sequence[UnitType] = ()) -> int:
        by_unit = {UnitType(moves[i].buy.unit): i for i in buys}
        for unit in (*first, *BUY_ORDER):
            if unit in by_unit:
                return by_unit[unit]
        return buys[0]

    @staticmethod
    def _reinforce(sit: Situation, moves: Sequence[Move], options: list[int]) -> int:
        """Cavalry first (the rules want them first anyway), then Swordsmen, on the
        edge space nearest the battlefield, facing the attacker's edge (Kill the
        King Giga: of the board half)."""

        def score(i: int) -> tuple[int, int, int]:
            r = moves[i].reinforce
            rank = {UnitType.CAVALRY: 0, UnitType.SWORDSMEN: 1, UnitType.SPEARMEN: 2}
            out = sit.outward(sit.half_of(Coord(r.square.row, r.square.col)))
            return (
                rank.get(UnitType(r.unit), 3),
                0 if r.facing == int(out) else 1,
                r.square.row if out is Direction.SOUTH else -r.square.row,
            )

        return min(options, key=score)

    @staticmethod
    def _follow_up(sit: Situation, moves: Sequence[Move], options: list[int]) -> int:
        follow = sit.view.follow_up
        unit = sit.by_id.get(follow.unit)
        advance = False
        if unit is not None:
            vacated = Coord(follow.vacated.row, follow.vacated.col)
            level = sit.board.level_of(vacated)
            advance = attack_worth(sit, unit, vacated, level, unit.facing) > WORTH_ATTACKING
        return next((i for i in options if moves[i].follow_up.advance == advance), options[0])

    # -- the attack phase -----------------------------------------------------------------

    @staticmethod
    def _attack(sit: Situation, moves: Sequence[Move], kinds: dict[str, list[int]]) -> int:
        best, best_worth = -1, WORTH_ATTACKING
        for i in kinds.get("attack", []):
            worth = attack_value(sit, moves[i])
            if worth is not None and worth > best_worth:
                best, best_worth = i, worth
        if best >= 0:
            return best
        return kinds.get("end_phase", kinds.get("attack", [0]))[0]

    # -- the movement phase ---------------------------------------------------------------

    def _move(self, sit: Situation, moves: Sequence[Move], kinds: dict[str, list[int]]) -> int:
        planner = Planner(sit)
        steps: dict[int, list[tuple[Position, int]]] = {}
        for i in kinds.get("step", []):
            step = moves[i].step
            unit = sit.by_id.get(step.unit)
            if unit is not None:
                target = _target(sit, unit, Direction(step.direction), planner)
                if target is not None:
                    steps.setdefault(unit.id, []).append((target, i))
        for i in kinds.get("climb", []):
            climb = moves[i].climb
            unit = sit.by_id.get(climb.unit)
            if unit is not None:
                coord = unit.coord.step(Direction(climb.direction))
                steps.setdefault(unit.id, []).append((Position(coord, Level.WALL), i))

        def improving(unit: Piece) -> int | None:
            goals = planner.goals(unit)
            if not goals or unit.id not in steps:
                return None
            dist = planner.distances(unit, goals)
            here = dist.get(unit.position, UNREACHABLE)
            # (cost, a step rather than a climb, index): a climb that brings the unit
            # nearer comes first, since it is possible only before the unit moves.
            options = [
                (dist.get(t, UNREACHABLE), moves[i].WhichOneof("decision") != "climb", i)
                for t, i in steps[unit.id]
            ]
            better = [o for o in options if o[0] < here]
            climbs = [o for o in better if not o[1]]
            return min(climbs or better)[2] if better else None

        active = sit.by_id.get(sit.view.active_unit)
        if active is not None and active.side is sit.side:
            index = improving(active)
            if index is not None:
                return index
            if sit.board.space(*active.coord).terrain.value == "^" and active.level is Level.GROUND:
                # On the gate's passage it must step on (KK-57): any step it has.
                return steps[active.id][0][1] if active.id in steps else kinds["step"][0]
        waiting = [u for u in sit.mine() if not u.moved and u.id in steps]
        waiting.sort(key=lambda u: (planner.distance(u), u.id))
        for unit in waiting:
            index = improving(unit)
            if index is not None:
                return index
        rotations = {
            (moves[i].rotate.unit, Direction(moves[i].rotate.facing)): i
            for i in kinds.get("rotate", [])
        }
        if rotations:
            # Every unit has moved: the facings wanted are the same until the phase
            # ends (turning changes no position), so they are worked out once.
            turn = (sit.view.round, sit.view.turn_side)
            if self._facings[0] != turn:
                self._facings = (turn, {})
            wanted = self._facings[1]
            for unit in sit.mine():
                if unit.rotated or unit.type is UnitType.CATAPULT:
                    continue
                if unit.id not in wanted:
                    wanted[unit.id] = _facing(sit, unit, planner)
                facing = wanted[unit.id]
                if facing is not unit.facing and (unit.id, facing) in rotations:
                    return rotations[(unit.id, facing)]
        if "end_phase" in kinds:
            return kinds["end_phase"][0]
        return 0


def attack_value(sit: Situation, move: Move) -> float | None:
    """What an ``attack`` move is worth to the bot (chance to kill times the
    target's worth; a climb onto an empty wall space: 1), None when its unit
    is not the bot's."""
    attack = move.attack
    unit = sit.by_id.get(attack.unit)
    if unit is None:
        return None
    target = Coord(attack.target.row, attack.target.col)
    return attack_worth(sit, unit, unit.coord, unit.level, unit.facing, target=target)


def _target(sit: Situation, unit: Piece, direction: Direction, planner: Planner) -> Position | None:
    """Where a step of ``unit`` in ``direction`` lands (on stairs next to the gate,
    the level nearer its goal)."""
    options = [p for d, p in sit.board.steps(unit.position) if d is direction]
    if not options:
        return None
    if len(options) == 1:
        return options[0]
    goals = planner.goals(unit)
    dist = planner.distances(unit, goals) if goals else {}
    return min(options, key=lambda p: dist.get(p, UNREACHABLE))


def _facing(sit: Situation, unit: Piece, planner: Planner) -> Direction:
    """The facing with the best attack from where the unit stands; without one,
    towards its goal; without a goal, towards the enemy's side."""
    worths = {d: attack_worth(sit, unit, unit.coord, unit.level, d) for d in Direction}
    best = max(worths.values())
    if best > WORTH_ATTACKING:
        if worths[unit.facing] >= best:
            return unit.facing
        return max(Direction, key=lambda d: worths[d])
    goals = planner.goals(unit)
    if goals:
        dist = planner.distances(unit, goals)
        here = dist.get(unit.position, UNREACHABLE)
        if here > 0:
            options = [(dist.get(p, UNREACHABLE), d) for d, p in sit.board.steps(unit.position)]
            if options:
                cost, direction = min(options)
                if cost < here:
                    return direction
    enemies = sit.enemies()
    if enemies:
        nearest = min(
            enemies,
            key=lambda e: abs(e.coord.row - unit.coord.row) + abs(e.coord.col - unit.coord.col),
        )
        d_row, d_col = nearest.coord.row - unit.coord.row, nearest.coord.col - unit.coord.col
        if abs(d_row) >= abs(d_col) and d_row:
            return Direction.NORTH if d_row > 0 else Direction.SOUTH
        if d_col:
            return Direction.EAST if d_col > 0 else Direction.WEST
    return Direction.NORTH if sit.side is Side.ATTACKER else Direction.SOUTH
