"""Flaming Pigs (KK-85..KK-87, KK-150..KK-154): the explosion and its chains.

A pig explodes (``PigsExploded``) when another unit stands next to it on the
ground (stairs count; a unit on a wall, above the gate or inside a tower
does not), when it runs into the end of the map, a wall, the gate or the
door (its forward ``step`` there is its explosion), and when an attack on it
succeeds. The explosion kills the pig and every unit on the ground or
stairs next to it (EXPLOSION; a Cavalry without flipping, a Battering Ram
with its crew), except Siege Towers with their crews; a War Elephant there
panics instead; an intact gate next to it rolls its save on 3. A pig caught
in an explosion explodes in its turn ("successfully attacked").

Order (deterministic): explosions happen one at a time. A pig's explosion
queues the pigs it catches, in id order, and they explode after it, in
that order (a chain); when the queue is empty, :func:`detonate` looks again
for pigs with a neighbour (the lowest id first), until none is left. The
engine calls :func:`detonate` (through :func:`.combat_deaths.detonate`, which
passes in the killers) after every decision of play (and after the reveal),
so explosions happen on any player's turn.
"""

from __future__ import annotations

from collections.abc import Callable

from throneroom.games.kill_the_king.board import Coord, Terrain
from throneroom.games.kill_the_king.data import GATE_DEFENCE, Level, Side, UnitType
from throneroom.v1 import kill_the_king_pb2 as pb

from throneroom_server.games.kill_the_king import dice, elephants
from throneroom_server.games.kill_the_king import state as st
from throneroom_server.games.kill_the_king.elephants import Kill
from throneroom_server.games.rng import Rng

Ruin = Callable[[pb.KillTheKingState, Coord, int, list[pb.KillTheKingEvent]], None]
"""Destroys the gate on a space, killing whoever is above it (``combat_deaths``)."""

State = pb.KillTheKingState
Unit = pb.KillTheKingUnit
Event = pb.KillTheKingEvent
PIG = int(UnitType.FLAMING_PIGS)
TOWER = int(UnitType.SIEGE_TOWER)
RAM = int(UnitType.BATTERING_RAM)
WALL = int(Level.WALL)


def is_pig(u: Unit) -> bool:
    return u.type == PIG


def neighbours(state: State, pig: Unit) -> list[Unit]:
    """The units standing on the ground or stairs next to ``pig``, by id (crews
    are inside their engine; units on a wall are above the explosion)."""
    row, col = pig.square.row, pig.square.col
    return [
        u
        for u in st.standing(state)
        if u.level != WALL and abs(u.square.row - row) + abs(u.square.col - col) == 1
    ]


def triggered(state: State) -> list[Unit]:
    """Pigs on the field with a neighbour, by id."""
    on_field = st.ON_FIELD
    found = [u for u in state.units if u.type == PIG and u.status == on_field]
    return [u for u in found if neighbours(state, u)] if found else []


def detonate(state: State, rng: Rng, events: list[Event], kill: Kill, ruin: Ruin) -> None:
    """Explode every pig that has a neighbour, one at a time, lowest id first,
    looking again after each (chains included), until none is left."""
    while True:
        ready = triggered(state)
        if not ready:
            return
        explode(state, ready[0], rng, events, kill, ruin)


def explode(  # noqa: PLR0917 (the state, the pig, the dice, the events, the killers)
    state: State,
    pig: Unit,
    rng: Rng,
    events: list[Event],
    kill: Kill,
    ruin: Ruin,
    by_unit: int = -1,
) -> None:
    """``pig`` explodes, then the pigs its explosion catches, in order (KK-87)."""
    queue = [pig]
    causes = {pig.id: by_unit}
    while queue:
        current = queue.pop(0)
        for caught in _blast(state, current, causes[current.id], rng, events, kill, ruin):
            if caught.id not in causes:
                causes[caught.id] = current.id
                queue.append(caught)


def _blast(  # noqa: PLR0917
    state: State, pig: Unit, by_unit: int, rng: Rng, events: list[Event], kill: Kill, ruin: Ruin
) -> list[Unit]:
    """One explosion; returns the pigs it caught (they explode next)."""
    around = neighbours(state, pig)
    events.append(Event(pigs_exploded=Event.PigsExploded(unit=pig.id)))
    if pig.status == st.ON_FIELD:
        kill(state, pig, pb.CAUSE_EXPLOSION, by_unit, events, rng)
    _gates(state, pig, rng, events, ruin)
    caught: list[Unit] = []
    for u in around:
        if u.status != st.ON_FIELD or u.type == TOWER:
            continue
        if u.type == PIG:
            caught.append(u)
        elif elephants.is_elephant(u):
            elephants.panic(state, u, rng, events, kill)
        else:
            if u.type == RAM:
                for crew in st.crew_of(state, u.id):
                    kill(state, crew, pb.CAUSE_EXPLOSION, pig.id, events, rng)
            kill(state, u, pb.CAUSE_EXPLOSION, pig.id, events, rng)
    return caught


def _gates(state: State, pig: Unit, rng: Rng, events: list[Event], ruin: Ruin) -> None:
    """An intact gate next to the explosion saves on 1-3 or is destroyed (KK-87)."""
    board = st.field(state)
    here = st.coord(pig)
    for c in board.around(here):
        if board.space(*c).terrain is not Terrain.GATE:
            continue
        if not any((g.square.row, g.square.col) == c and not g.destroyed for g in state.gates):
            continue
        save = dice.roll(
            rng,
            events,
            pb.DIE_PURPOSE_GATE_SAVE,
            seat=st.seat_of_side(state, Side.DEFENDER),
            needed=GATE_DEFENCE,
            unit=pig.id,
            target=c,
        )
        if not save.success:
            ruin(state, Coord(*c), pig.id, events)


def blocked_ahead(state: State, pig: Unit) -> bool:
    """The space ahead of ``pig`` is the end of the map, a wall, the gate or the
    door: its forward step is its explosion (KK-86)."""
    board = st.field(state)
    ahead = st.coord(pig).step(st.facing(pig))
    if not board.contains(ahead) or ahead not in st.in_play(state):
        return True
    space = board.space(*ahead)
    return space.is_wall or space.terrain is Terrain.DOOR
