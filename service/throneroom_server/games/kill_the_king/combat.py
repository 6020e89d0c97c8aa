"""Combat: the attack phase, the climbing attack and the Cavalry's double attack.

The engine calls (docs/rules/kill_the_king.md sections 4, 6-12; KK-n):

* :func:`attack_moves` / :func:`apply_attack`: the ``attack`` decisions of the
  attack phase (KK-34) and their resolution;
* :func:`follow_up_moves` / :func:`apply_follow_up`: a Cavalry's decision to
  advance and charge again after a kill (KK-78, KK-79; the engine switches to
  PHASE_FOLLOW_UP while ``state.follow_up`` is set);
* :func:`climb_attack`: a ``climb`` of the movement phase onto a wall position
  held by an enemy (KK-44);
* :func:`kill_unit` (from :mod:`.combat_deaths`): every death, with the
  leaders' death effects.

Every function takes ``board``, the mode's field with ``state.ruins`` applied,
changes the working copy of the state it is given, appends events, and draws
dice only from ``rng`` through :func:`.dice.roll` (every die an event, KK-37).
Which attacks exist, and how hard they strike, is
:mod:`throneroom.games.kill_the_king.rules` (shared with the bots); this
module rolls the dice and carries out the results.
"""

from __future__ import annotations

from collections.abc import Iterator

from throneroom.games.kill_the_king.board import Board, Coord, Position
from throneroom.games.kill_the_king.data import (
    DOOR_DEFENCE,
    GATE_DEFENCE,
    WALL_DEFENCE,
    Direction,
    Face,
    Level,
    Side,
    UnitType,
)
from throneroom.games.kill_the_king.rules import (
    Roll,
    Save,
    Scene,
    Strike,
    climb_strike,
    defence_value,
    second_charge,
    strikes_of,
)
from throneroom.v1 import kill_the_king_pb2 as pb

from throneroom_server.games.kill_the_king import dice
from throneroom_server.games.kill_the_king.combat_deaths import (
    destroy_structure,
    fail_save,
    kill_unit,
    panic,
)
from throneroom_server.games.kill_the_king.elephants import is_elephant
from throneroom_server.games.kill_the_king.keys import ATTACK as ATTACK_KIND
from throneroom_server.games.kill_the_king.keys import Key
from throneroom_server.games.kill_the_king.state import (
    DEAD,
    State,
    Unit,
    crew_of,
    occupant,
    put,
    seat_of_side,
    unit,
)
from throneroom_server.games.rng import Rng

__all__ = [
    "IllegalAttack",
    "apply_attack",
    "apply_follow_up",
    "attack_keys",
    "attack_moves",
    "can_climb_attack",
    "climb_attack",
    "defence_value",
    "follow_up_moves",
    "kill_unit",
    "resolve",
    "take_gate",
]

Event = pb.KillTheKingEvent
Move = pb.KillTheKingMove


class IllegalAttack(ValueError):
    """An attack the enumeration does not offer (the kit checks moves first, so
    reaching this is a bug of the caller)."""


# -- the attack phase ------------------------------------------------------------------------


def attack_moves(state: State, board: Board, seat: int) -> list[Move]:
    """Every legal ``attack`` of ``seat``'s units in its attack phase (KK-34), by
    unit id then target square. Crews do not attack (KK-91), except the unit on
    top of a Siege Tower at a wall (KK-97); a unit attacks once per turn
    (``attacked``)."""
    return [_attack_move(strike) for strike in _strikes(state, board, seat)]


def attack_keys(state: State, board: Board, seat: int) -> list[Key]:
    """The keys of :func:`attack_moves` (``keys.move_key``), in its order."""
    return [
        (ATTACK_KIND, s.unit, s.target.row, s.target.col, int(s.level or 0))
        for s in _strikes(state, board, seat)
    ]


def _strikes(state: State, board: Board, seat: int) -> Iterator[Strike]:
    scene = Scene.of(state, board)
    for u in sorted(scene.units, key=_unit_id):
        if u.seat != seat or u.attacked:
            continue
        strikes = strikes_of(scene, u)
        if len(strikes) > 1:
            strikes.sort(key=_by_target)
        yield from strikes


def _unit_id(u: Unit) -> int:
    return u.id


def _by_target(strike: Strike) -> tuple[Coord, int]:
    return strike.target, strike.level or 0


def _attack_move(strike: Strike) -> Move:
    row, col = strike.target
    level = pb.Level.ValueType(strike.level or 0)
    return Move(
        attack=Move.Attack(unit=strike.unit, target=pb.Square(row=row, col=col), level=level)
    )


def apply_attack(  # noqa: PLR0917 (the engine's call shape: state, board, seat, move, rng, events)
    state: State, board: Board, seat: int, move: Move, rng: Rng, events: list[Event]
) -> None:
    """Carry out one ``attack`` (KK-34..KK-37 and the unit's rules). Sets
    ``unit.attacked``, except for a prepared climber that climbed an emptied wall
    without a roll (it may still attack from there, KK-45). After a Cavalry's
    kill with a free space ahead, ``state.follow_up`` is set (KK-78)."""
    order = move.attack
    u = unit(state, order.unit)
    if u.seat != seat:
        raise IllegalAttack(f"unit {u.id} is not seat {seat}'s")
    target = Coord(order.target.row, order.target.col)
    scene = Scene.of(state, board)
    level = order.level
    strike = next(
        (s for s in strikes_of(scene, u) if s.target == target and int(s.level or 0) == level),
        None,
    )
    if strike is None or u.attacked:
        raise IllegalAttack(f"unit {u.id} cannot attack {target}")
    if strike.climbing:
        u.ClearField("climb")
        if strike.onto_wall:
            _mount_wall(state, board, u, strike.target, events)
            return
        _climbing_attack(state, board, u, strike, rng=rng, events=events)
        return
    resolve(state, strike, rng, events)
    u.attacked = True
    _offer_follow_up(state, board, u, strike)


# -- the climbing attack (movement phase) -----------------------------------------------------


def can_climb_attack(state: State, board: Board, unit_id: int, direction: Direction) -> bool:
    """Whether ``unit_id`` has a climbing attack on the wall position in
    ``direction``: an enemy stands there and the value after modifiers is at
    least 1 (KK-34, KK-44). Eligibility to climb at all is the movement's."""
    strike = climb_strike(Scene.of(state, board), unit(state, unit_id), direction)
    return strike is not None and strike.can_hit


def climb_attack(  # noqa: PLR0917 (called like apply_attack, by the movement)
    state: State,
    board: Board,
    unit_id: int,
    direction: Direction,
    rng: Rng,
    events: list[Event],
) -> bool:
    """A climb onto a wall position held by an enemy, in the movement phase (KK-44):
    the climber attacks the wall position whatever its facing, at its adjacent
    value -1 (the Knight's +1 applies) and, if the target dies, stands in its
    place on the wall, keeping its facing. Either
    way it has made its attack of the turn (``attacked``). Returns whether the
    climber is now on the wall (the movement then ends its move there)."""
    u = unit(state, unit_id)
    strike = climb_strike(Scene.of(state, board), u, direction)
    if strike is None or not strike.can_hit:
        raise IllegalAttack(f"unit {u.id} has no climbing attack towards {direction.name}")
    return _climbing_attack(state, board, u, strike, rng=rng, events=events)


def _climbing_attack(
    state: State, board: Board, u: Unit, strike: Strike, *, rng: Rng, events: list[Event]
) -> bool:
    resolve(state, strike, rng, events)
    u.attacked = True
    target = unit(state, strike.rolls[0].target)
    if target.status != DEAD:
        return False
    _mount_wall(state, board, u, strike.target, events)
    return True


def _mount_wall(state: State, board: Board, u: Unit, wall: Coord, events: list[Event]) -> None:
    """The climber stands on the wall position (above the gate on the gate's
    space); standing above the gate takes its control (KK-56)."""
    put(u, wall, board.level_of(wall))
    events.append(
        Event(climbed=Event.Climbed(unit=u.id, wall=pb.Square(row=wall.row, col=wall.col)))
    )
    take_gate(state, wall, Side(u.side), events)


def take_gate(state: State, square: Coord, side: Side, events: list[Event]) -> None:
    """A unit of ``side`` ended its move above the gate on ``square``: the side
    controls it from now on (KK-56). Nothing happens if it already does."""
    for gate in state.gates:
        here = (gate.square.row, gate.square.col) == square
        if here and not gate.destroyed and gate.controlled_by != int(side):
            gate.controlled_by = pb.Side.ValueType(side)
            events.append(
                Event(
                    gate_control_changed=Event.GateControlChanged(
                        square=pb.Square(row=square.row, col=square.col),
                        controlled_by=gate.controlled_by,
                    )
                )
            )


# -- the Cavalry's double attack -------------------------------------------------------------


def _offer_follow_up(state: State, board: Board, u: Unit, strike: Strike) -> None:
    """After a Cavalry's attack killed its one target and left the space free on a
    level it can stand on, the side decides to advance or not (KK-78). Never after
    killing a Ram's crew or destroying a Ram (KK-79); a flipped target did not
    leave its space."""
    if UnitType(u.type) is not UnitType.CAVALRY or len(strike.rolls) != 1:
        return
    roll = strike.rolls[0]
    if roll.target < 0:
        return
    target = unit(state, roll.target)
    if target.status != DEAD or UnitType(target.type) is UnitType.BATTERING_RAM:
        return
    level = board.level_of(roll.square)
    if level is Level.WALL:
        return
    if occupant(state, Position(roll.square, level)) is not None:
        return
    state.follow_up.unit = u.id
    state.follow_up.vacated.row, state.follow_up.vacated.col = roll.square


def follow_up_moves(state: State, board: Board, seat: int) -> list[Move]:
    """The pending Cavalry's choice (KK-78): stay, or advance into the vacated space."""
    if not state.HasField("follow_up"):
        return []
    u = unit(state, state.follow_up.unit)
    if u.seat != seat:
        return []
    return [
        Move(follow_up=Move.FollowUp(advance=False)),
        Move(follow_up=Move.FollowUp(advance=True)),
    ]


def apply_follow_up(  # noqa: PLR0917 (the engine's call shape, as apply_attack)
    state: State, board: Board, seat: int, move: Move, rng: Rng, events: list[Event]
) -> None:
    """Stay, or advance into the vacated space (no movement point) and attack the
    enemy now adjacent to the front once more at -1, rolled at once (KK-78). No
    third attack. Clears ``state.follow_up``."""
    if not state.HasField("follow_up"):
        raise IllegalAttack("no Cavalry is waiting to follow up")
    u = unit(state, state.follow_up.unit)
    if u.seat != seat:
        raise IllegalAttack(f"the follow-up is not seat {seat}'s")
    vacated = Coord(state.follow_up.vacated.row, state.follow_up.vacated.col)
    state.ClearField("follow_up")
    advance = move.follow_up.advance
    events.append(Event(followed_up=Event.FollowedUp(unit=u.id, advanced=advance)))
    if not advance:
        return
    put(u, vacated, board.level_of(vacated))
    strike = second_charge(Scene.of(state, board), u)
    if strike is not None:
        resolve(state, strike, rng, events)


# -- resolution -----------------------------------------------------------------------------


def resolve(state: State, strike: Strike, rng: Rng, events: list[Event]) -> None:
    """Announce the attack (``Attacked``: value, base, each modifier) and roll its
    dice in order: each target's hit die, then its save, then the next (KK-37)."""
    attacker = unit(state, strike.unit)
    row, col = strike.target
    events.append(
        Event(
            attacked=Event.Attacked(
                unit=attacker.id,
                target=pb.Square(row=row, col=col),
                target_units=strike.target_units,
                base_value=strike.base_value,
                modifiers=[m for m, _ in strike.modifiers],
                modifier_values=[v for _, v in strike.modifiers],
                value=strike.value,
                climbing=strike.climbing,
                level=pb.Level.ValueType(strike.level or 0),
            )
        )
    )
    for roll in strike.rolls:
        _roll(state, attacker, roll, rng, events)


def _roll(state: State, attacker: Unit, roll: Roll, rng: Rng, events: list[Event]) -> None:
    if roll.target >= 0 and unit(state, roll.target).status == DEAD:
        return  # killed by an earlier die's effect (an explosion): no die for it (KK-151)
    hit = dice.roll(
        rng,
        events,
        pb.DIE_PURPOSE_HIT,
        seat=attacker.seat,
        needed=roll.needed,
        unit=attacker.id,
        target_unit=roll.target,
        target=roll.square,
    )
    if not hit.success:
        return
    if roll.save is Save.UNIT:
        _unit_save(state, attacker, roll, rng, events)
    elif roll.save is Save.NONE:
        fail_save(state, attacker, unit(state, roll.target), events, rng)
    else:
        _structure_save(state, attacker, roll, rng, events)


def _unit_save(state: State, attacker: Unit, roll: Roll, rng: Rng, events: list[Event]) -> None:
    """The hit unit's save: a manned Battering Ram's crew rolls its own defence for
    the face hit (the crew faces as the Ram); an unmanned Ram has 0 (KK-92)."""
    target = unit(state, roll.target)
    assert roll.face is not None
    crew = crew_of(state, target.id) if UnitType(target.type) is UnitType.BATTERING_RAM else []
    defender = crew[-1] if crew else target
    needed = defence_value(state, attacker, defender, roll.face, crew=bool(crew))
    save = dice.roll(
        rng,
        events,
        pb.DIE_PURPOSE_SAVE,
        seat=defender.seat,
        needed=needed,
        unit=attacker.id,
        target_unit=defender.id,
        target=roll.square,
        face=pb.Face.ValueType(roll.face),
    )
    if save.success:
        events.append(
            Event(unit_saved=Event.UnitSaved(unit=defender.id, face=pb.Face.ValueType(roll.face)))
        )
        return
    if is_elephant(target) and roll.face is Face.FRONT:
        panic(state, target, rng, events)  # it panics before it dies (KK-82)
        return
    fail_save(state, attacker, target, events, rng)


_STRUCTURE_DICE = {
    Save.WALL: (pb.DIE_PURPOSE_WALL_SAVE, WALL_DEFENCE),
    Save.GATE: (pb.DIE_PURPOSE_GATE_SAVE, GATE_DEFENCE),
    Save.DOOR: (pb.DIE_PURPOSE_DOOR_SAVE, DOOR_DEFENCE),
}


def _structure_save(
    state: State, attacker: Unit, roll: Roll, rng: Rng, events: list[Event]
) -> None:
    """A wall (4), the gate (3) or the King's Door (2) rolls to survive a hit
    (KK-50, KK-58, KK-114), for the defending side. A wall or the gate that fails
    is rubble and its units die (KK-53); the door that fails is destroyed and the
    attacker has won (the engine ends the game, KK-116)."""
    purpose, needed = _STRUCTURE_DICE[roll.save]
    save = dice.roll(
        rng,
        events,
        purpose,
        seat=seat_of_side(state, Side.DEFENDER),
        needed=needed,
        unit=attacker.id,
        target=roll.square,
    )
    if save.success:
        return
    if roll.save is Save.DOOR:
        state.door_destroyed = True
        square = pb.Square(row=roll.square.row, col=roll.square.col)
        events.append(Event(door_destroyed=Event.DoorDestroyed(square=square, by_unit=attacker.id)))
        return
    destroy_structure(
        state, roll.square, gate=roll.save is Save.GATE, by_unit=attacker.id, events=events
    )
