"""War Elephants (KK-81..KK-84, KK-109, KK-145..KK-149): trampling, panic, the
Beastmaster.

* :func:`trample`: the Elephant enters a position held by units, which die
  (TRAMPLED: a Cavalry without flipping, a Siege Tower with its crew, a
  Battering Ram with its crew); an Elephant whose front faces it there kills
  it and dies with it (ELEPHANTS_MET, "head to head").
* :func:`panic`: a die (purpose PANIC: 1-2 left, 3-4 right, 5-6 back of its
  facing), then up to three spaces straight that way, trampling as it goes,
  stopping before the edge, a wall, the gate, the door or a space out of
  play; then it dies (PANIC) unless its side's Beastmaster lives
  (``dies=False`` when the Beastmaster's own death makes it panic and die
  with BEASTMASTER_DIED).

Deaths go through ``kill`` (:func:`.combat_deaths.kill_unit`, which calls back
here when a Beastmaster dies: it is passed in, so that the modules form no
import cycle; :mod:`.combat_deaths` has the wrappers the engine calls).
"""

from __future__ import annotations

from typing import Protocol

from throneroom.games.kill_the_king.board import Position
from throneroom.games.kill_the_king.data import (
    LEADERS,
    PANIC_STEPS,
    Direction,
    UnitType,
    panic_direction,
)
from throneroom.v1 import kill_the_king_pb2 as pb

from throneroom_server.games.kill_the_king import dice
from throneroom_server.games.kill_the_king import state as st
from throneroom_server.games.rng import Rng


class Kill(Protocol):
    """:func:`.combat_deaths.kill_unit`'s shape."""

    def __call__(  # noqa: PLR0917 (kill_unit's own call shape)
        self,
        state: pb.KillTheKingState,
        u: pb.KillTheKingUnit,
        cause: pb.Cause.ValueType,
        by_unit: int,
        events: list[pb.KillTheKingEvent],
        rng: Rng | None = None,
    ) -> None: ...


State = pb.KillTheKingState
Unit = pb.KillTheKingUnit
Event = pb.KillTheKingEvent
ELEPHANT = int(UnitType.WAR_ELEPHANT)
RAM = int(UnitType.BATTERING_RAM)


def is_elephant(u: Unit) -> bool:
    return u.type == ELEPHANT


def head_to_head(going: Direction, other: Unit) -> bool:
    """An Elephant stepping ``going`` meets ``other`` head to head: another War
    Elephant whose front faces it (KK-81 reading)."""
    return other.type == ELEPHANT and Direction(other.facing) is going.opposite


def trample(  # noqa: PLR0917 (the step's facts, then the killer)
    state: State,
    elephant: Unit,
    where: Position,
    going: Direction,
    events: list[Event],
    kill: Kill,
) -> bool:
    """Kill whatever stands at ``where`` as ``elephant`` enters it going ``going``
    (KK-81). Returns False when it met an Elephant head to head and died too."""
    victims = [u for u in st.standing(state) if st.occupies(u, where) and u.id != elephant.id]
    for victim in victims:
        if victim.status != st.ON_FIELD:
            continue
        if head_to_head(going, victim):
            kill(state, victim, pb.CAUSE_ELEPHANTS_MET, elephant.id, events)
            kill(state, elephant, pb.CAUSE_ELEPHANTS_MET, victim.id, events)
            return False
        if victim.type == RAM:
            for crew in st.crew_of(state, victim.id):
                kill(state, crew, pb.CAUSE_TRAMPLED, elephant.id, events)
        kill(state, victim, pb.CAUSE_TRAMPLED, elephant.id, events)
    return True


def beastmaster_lives(state: State, u: Unit) -> bool:
    """Its side's Beastmaster is on the field: Elephants survive their panic (KK-109)."""
    return LEADERS[UnitType.BEASTMASTER].elephants_survive_panic and any(
        v.type == int(UnitType.BEASTMASTER) and v.side == u.side for v in st.on_field(state)
    )


def panic(
    state: State,
    elephant: Unit,
    rng: Rng,
    events: list[Event],
    kill: Kill,
    *,
    death: pb.Cause.ValueType | None = None,
) -> None:
    """The War Elephant panics (KK-82): the die, the run, then its death. ``death``
    is the cause it dies of afterwards (PANIC unless given; None and its
    Beastmaster alive: it survives where the run left it)."""
    die = dice.roll(
        rng,
        events,
        pb.DIE_PURPOSE_PANIC,
        seat=elephant.seat,
        unit=elephant.id,
        target_unit=elephant.id,
        target=(elephant.square.row, elephant.square.col),
    )
    going = panic_direction(Direction(elephant.facing), die.value)
    events.append(
        Event(panicked=Event.Panicked(unit=elephant.id, direction=pb.Direction.ValueType(going)))
    )
    steps, _ = st.terrain(state)
    for _ in range(PANIC_STEPS):
        here = st.position(elephant)
        ahead = next((p for d, p, kind in steps[here] if d is going and kind == st.OPEN), None)
        if ahead is None:
            break
        origin = elephant.square.row, elephant.square.col
        if not trample(state, elephant, ahead, going, events, kill):
            return
        st.put(elephant, ahead.coord, ahead.level)
        events.append(
            Event(
                stepped=Event.Stepped(
                    unit=elephant.id,
                    from_square=pb.Square(row=origin[0], col=origin[1]),
                    to_square=elephant.square,
                    level=elephant.level,
                )
            )
        )
    if elephant.status != st.ON_FIELD:
        return
    if death is None and beastmaster_lives(state, elephant):
        return
    cause = pb.CAUSE_PANIC if death is None else death
    kill(state, elephant, cause, -1, events, rng=rng)
