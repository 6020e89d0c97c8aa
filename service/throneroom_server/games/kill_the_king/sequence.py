"""A side's movement phase as a sequence of units (KK-30, KK-56): the one place
that says when a unit's movement is over and what completing it does.

"A unit's movement must be fully completed before you move another unit."
The unit moving is the state's ``active_unit``; moving another unit completes
it (:func:`start`, :func:`complete`), and from then on it moves no more this
turn (:func:`movement_over`). Completing a movement that ends above the outer
gate takes the gate (KK-56), so the gate's side for the next unit to move is
the one :func:`gate_side` gives, before that unit's step completes the
movement. The listing (:mod:`.listing`), the rules' reference
(:mod:`.movement`, :mod:`.climbing`) and the effects ask here.
"""

from __future__ import annotations

from throneroom.v1 import kill_the_king_pb2 as pb

from throneroom_server.games.kill_the_king import state as st
from throneroom_server.games.kill_the_king import towers

State = pb.KillTheKingState
Event = pb.KillTheKingEvent
Unit = pb.KillTheKingUnit
Gate = pb.KillTheKingGate

ON_FIELD = st.ON_FIELD
WALL = pb.LEVEL_WALL
TOWER = pb.UNIT_TYPE_SIEGE_TOWER


def movement_over(u: Unit, active_unit: int) -> bool:
    """``u`` moves no more this turn: it moved and another unit has moved since
    (KK-30: it is no longer the active unit), it is set to climb (KK-45) or it
    made a climbing attack (KK-44)."""
    return (u.moved and active_unit != u.id) or u.attacked or u.HasField("climb")


def start(state: State, u: Unit, events: list[Event]) -> None:
    """``u`` becomes the unit moving: the previous one's movement is complete."""
    if state.active_unit != u.id:
        complete(state, events)
        state.active_unit = u.id


def complete(state: State, events: list[Event]) -> None:
    """The active unit's movement is over: a unit that ends it above the gate
    takes control of the gate for its side (KK-56); a Siege Tower that ends it
    next to a wall stays there (KK-96)."""
    if state.active_unit < 0:
        return
    u = state.units[state.active_unit]
    state.active_unit = -1
    if u.status == ON_FIELD and u.level == WALL:
        take_gate(state, u, events)
    if u.status == ON_FIELD and u.type == TOWER:
        towers.settle(state, u, st.field(state), st.in_play(state))


def gate_side(state: State, gate: Gate) -> int:
    """The side controlling ``gate`` for the next unit to move (KK-56): the
    active unit standing above it completes its movement, taking the gate,
    before another unit moves (as :func:`complete` does); else the side that
    controls it."""
    active = state.active_unit
    if active >= 0 and not gate.destroyed:
        u = state.units[active]
        if u.status == ON_FIELD and u.level == WALL:
            square = u.square
            if square.row == gate.square.row and square.col == gate.square.col:
                return u.side
    return gate.controlled_by


def take_gate(state: State, u: Unit, events: list[Event]) -> None:
    """``u`` ended its movement on its space: if that is above the gate, its
    side controls the gate from now on (KK-56)."""
    for g in state.gates:
        here = (g.square.row, g.square.col) == (u.square.row, u.square.col)
        if here and not g.destroyed and g.controlled_by != u.side:
            g.controlled_by = u.side
            events.append(
                Event(
                    gate_control_changed=Event.GateControlChanged(
                        square=g.square, controlled_by=u.side
                    )
                )
            )
