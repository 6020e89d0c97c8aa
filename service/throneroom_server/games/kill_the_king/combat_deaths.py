"""How counters die, flip and lose their walls: the one place a unit leaves the field.

* :func:`kill_unit` is the only way a unit dies (status DEAD, a ``UnitKilled``
  event with its cause) and carries out the death effects of the leaders of
  this issue: the Knight's defence penalty (KK-107) and the Ranger's movement
  lock (KK-101). A dead engine's crew: a Siege Tower's dies with it (KK-98), a
  Battering Ram's stays on the space (KK-108 reading).
* :func:`fail_save` is what a failed save (or a hit without one) does to a
  unit: Cavalry flips to Swordsmen unless a Catapult, a Ballista or a War
  Elephant hit it (then it had no save and dies, KK-77); a manned Battering
  Ram loses its crew, an unmanned one is destroyed (KK-92).
* :func:`destroy_structure` turns a wall or gate space into rubble and kills
  whoever stands on it (KK-50, KK-52, KK-53, KK-58).

Rule numbers are those of docs/rules/kill_the_king.md.
"""

from __future__ import annotations

from typing import TypeAlias

from throneroom.games.kill_the_king.board import Coord, Position
from throneroom.games.kill_the_king.data import (
    CAVALRY_KILLED_OUTRIGHT_BY,
    LEADERS,
    SIEGE_ENGINES,
    Direction,
    Side,
    UnitType,
)
from throneroom.v1 import kill_the_king_pb2 as pb

from throneroom_server.games.kill_the_king import elephants, pigs
from throneroom_server.games.kill_the_king.state import (
    DEAD,
    ON_FIELD,
    State,
    Unit,
    crew_of,
    on_field,
)
from throneroom_server.games.rng import Rng

Event = pb.KillTheKingEvent
Cause: TypeAlias = pb.Cause.ValueType


_ENGINES = frozenset({int(UnitType.BATTERING_RAM), int(UnitType.SIEGE_TOWER)})


def kill_unit(  # noqa: PLR0917 (the one call shape of every death)
    state: State,
    u: Unit,
    cause: Cause,
    by_unit: int,
    events: list[Event],
    rng: Rng | None = None,
) -> None:
    """``u`` dies (KK-35 and every other cause): status DEAD, no longer a crew,
    a ``UnitKilled`` event, then its death effects (leaders, engines' crews).
    ``rng`` rolls the dice a death may need (the Beastmaster's Elephants
    panic); the state's RNG if not given. Killing a unit that is not on the
    field is a bug (ValueError)."""
    if u.status != ON_FIELD:
        raise ValueError(f"unit {u.id} is not on the field: it cannot be killed")
    # Only an engine carries a crew (invariants.crews_ride_their_engines).
    crew = crew_of(state, u.id) if u.type in _ENGINES else []
    u.status = DEAD
    u.carried_by = -1
    u.stack = 0
    u.ClearField("climb")
    events.append(Event(unit_killed=Event.UnitKilled(unit=u.id, cause=cause, by_unit=by_unit)))
    kind = UnitType(u.type)
    if kind is UnitType.SIEGE_TOWER:
        for inside in crew:
            kill_unit(state, inside, pb.CAUSE_TOWER_DESTROYED, by_unit, events)
    else:
        for inside in crew:
            # A Ram destroyed with its crew aboard (only the Engineer's death can do
            # that): the crew stays on the space, on foot (KK-108).
            inside.carried_by = -1
            inside.stack = 0
    _leader_died(state, u, events, rng or Rng(state.rng))


def _leader_died(state: State, u: Unit, events: list[Event], rng: Rng) -> None:
    """The death effects of a leader (KK-99; the Knight KK-107, the Ranger KK-101,
    the Treasurer KK-104, the Engineer KK-108, the Beastmaster KK-109)."""
    rules = LEADERS.get(UnitType(u.type))
    if rules is None:
        return
    side = Side(u.side)
    if rules.death_removes_peasants_and_value:
        _treasurer_died(state, u, rules.death_removes_peasants_and_value, events)
    if rules.death_panics_elephants:
        for beast in [v for v in on_field(state) if v.side == u.side]:
            if beast.type == int(UnitType.WAR_ELEPHANT) and beast.status == ON_FIELD:
                elephants.panic(
                    state, beast, rng, events, kill_unit, death=pb.CAUSE_BEASTMASTER_DIED
                )
    if rules.death_destroys_siege_engines:
        for engine in [v for v in on_field(state) if v.side == u.side]:
            if UnitType(engine.type) in SIEGE_ENGINES and engine.status == ON_FIELD:
                kill_unit(state, engine, pb.CAUSE_ENGINEER_DIED, -1, events)
    if rules.death_defence_penalty and int(side) not in state.defence_penalty:
        state.defence_penalty.append(pb.Side.ValueType(side))
        events.append(Event(defence_penalty=Event.DefencePenalty(side=pb.Side.ValueType(side))))
    if rules.death_locks_movement:
        for seat, info in enumerate(state.seats):
            if info.side == int(side):
                info.movement_locked = True
                events.append(Event(movement_locked=Event.MovementLocked(seat=seat)))


def _treasurer_died(state: State, u: Unit, value: int, events: list[Event]) -> None:
    """KK-104: every Peasant of his seat on the field is removed at once
    (DISBANDED); then his seat owes units worth ``value`` coins, removed one
    ``disband`` decision at a time (the engine opens PHASE_DISBAND)."""
    for peasant in [v for v in on_field(state) if v.seat == u.seat]:
        if peasant.type == int(UnitType.PEASANT) and peasant.status == ON_FIELD:
            kill_unit(state, peasant, pb.CAUSE_DISBANDED, -1, events)
    state.seats[u.seat].disband_value_left = value


def flip_cavalry(u: Unit, events: list[Event], *, by_choice: bool) -> None:
    """A Cavalry turns to its Swordsmen side for the rest of the game (KK-76, KK-77)."""
    if UnitType(u.type) is not UnitType.CAVALRY:
        raise ValueError(f"unit {u.id} is no Cavalry: it cannot flip")
    u.type = pb.UNIT_TYPE_SWORDSMEN
    u.dismounted = True
    events.append(Event(flipped=Event.Flipped(unit=u.id, by_choice=by_choice)))


def fail_save(
    state: State, attacker: Unit, target: Unit, events: list[Event], rng: Rng | None = None
) -> None:
    """What a hit that was not saved (or allowed no save) does to ``target``.

    * a Battering Ram: manned, its crew dies (CREW_OF_RAM) and the Ram stays;
      unmanned, it is destroyed (KK-92);
    * a Cavalry flips to Swordsmen, unless a Catapult, a Ballista or a War
      Elephant hit it: then it dies (KK-77; those hits allow it no save);
    * anything else dies (KK-35).
    """
    kind = UnitType(target.type)
    if kind is UnitType.FLAMING_PIGS:
        # "explodes ... when successfully attacked" (KK-87)
        explode(state, target, rng or Rng(state.rng), events, by_unit=attacker.id)
        return
    if kind is UnitType.BATTERING_RAM:
        crew = crew_of(state, target.id)
        if crew:
            for member in crew:
                kill_unit(state, member, pb.CAUSE_CREW_OF_RAM, attacker.id, events)
            return
        kill_unit(state, target, pb.CAUSE_ATTACK, attacker.id, events, rng)
        return
    if kind is UnitType.CAVALRY and UnitType(attacker.type) not in CAVALRY_KILLED_OUTRIGHT_BY:
        flip_cavalry(target, events, by_choice=False)
        return
    kill_unit(state, target, pb.CAUSE_ATTACK, attacker.id, events, rng)


def destroy_structure(
    state: State, square: Coord, *, gate: bool, by_unit: int, events: list[Event]
) -> None:
    """A wall or gate space falls (KK-50, KK-58): it is rubble (a ``KillTheKingRuin``
    of this round, the gate marked destroyed), a ``WallDestroyed`` or
    ``GateDestroyed`` event, and every unit on it is killed without a roll
    (RUIN, KK-53)."""
    ruin = state.ruins.add(round=state.round)
    ruin.square.row, ruin.square.col = square
    target = pb.Square(row=square.row, col=square.col)
    if gate:
        for g in state.gates:
            if (g.square.row, g.square.col) == square:
                g.destroyed = True
        events.append(Event(gate_destroyed=Event.GateDestroyed(square=target)))
    else:
        events.append(Event(wall_destroyed=Event.WallDestroyed(square=target)))
    victims = [
        u for u in on_field(state) if u.carried_by < 0 and (u.square.row, u.square.col) == square
    ]
    for u in victims:
        if u.status == ON_FIELD:
            kill_unit(state, u, pb.CAUSE_RUIN, by_unit, events)


def ruin_gate(state: State, square: Coord, by_unit: int, events: list[Event]) -> None:
    """The gate on ``square`` falls to an explosion (KK-87)."""
    destroy_structure(state, square, gate=True, by_unit=by_unit, events=events)


# -- the Elephants' and the pigs' rules, with this module's deaths ---------------------------


def panic(
    state: State, elephant: Unit, rng: Rng, events: list[Event], *, death: Cause | None = None
) -> None:
    """:func:`.elephants.panic` (KK-82)."""
    elephants.panic(state, elephant, rng, events, kill_unit, death=death)


def trample(
    state: State, elephant: Unit, where: Position, going: Direction, events: list[Event]
) -> bool:
    """:func:`.elephants.trample` (KK-81)."""
    return elephants.trample(state, elephant, where, going, events, kill_unit)


def explode(state: State, pig: Unit, rng: Rng, events: list[Event], by_unit: int = -1) -> None:
    """:func:`.pigs.explode` (KK-87)."""
    pigs.explode(state, pig, rng, events, kill_unit, ruin_gate, by_unit)


def detonate(state: State, rng: Rng, events: list[Event]) -> None:
    """:func:`.pigs.detonate` (KK-87, KK-150)."""
    pigs.detonate(state, rng, events, kill_unit, ruin_gate)
