"""A side's movement phase as a sequence of units (KK-30, KK-31, KK-56): the one
place that says when a unit's movement is over, what completing it does, and
when a unit may turn.

"A unit's movement must be fully completed before you move another unit."
The unit moving is the state's ``active_unit``; moving another unit completes
it (:func:`start`, :func:`complete`), and from then on it moves no more this
turn (:func:`movement_over`). Completing a movement that ends above the outer
gate takes the gate (KK-56), so the gate's side for the next unit to move is
the one ``gate_side`` gives (:mod:`throneroom.games.kill_the_king.rules.gates`),
before that unit's step completes the movement. The listing (:mod:`.listing`),
the rules' reference (:mod:`.movement`, :mod:`.climbing`) and the effects ask
here.

"You can rotate any unit, as many times as you want during the player's
movement phase. Rotating the unit is a free action, and does not consume
movement points, except for catapults which consume movement points when
rotated." A unit's ``rotated`` flag says it was turned (for free) since its
side's last other move of the phase (:func:`other_move`); it may be turned
again after one (:func:`may_turn`). A rotation names the facing, so a turn
right after a turn of the same unit, with nothing in between, ends where
one turn to that facing ends: the listing offers one rotation of a unit
between two other moves of its side, which keeps the game finite
(docs/rules/kill_the_king.md, KK-31).
"""

from __future__ import annotations

from collections.abc import Iterable

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
PIG = pb.UNIT_TYPE_FLAMING_PIGS


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


def may_turn(u: Unit, cost: int, over: bool, left: int) -> bool:
    """Whether ``u`` may be turned now (KK-31): a rotation for free once between
    two other moves of its side; one that costs ``cost`` movement points (a
    Catapult's) as often as it has the points, until its movement is ``over``
    (it counts as moving it, KK-68); ``left``: its points left (read only for
    a cost). Flaming Pigs never turn (KK-86)."""
    if u.type == PIG:
        return False
    if cost:
        return not over and left >= cost
    return not u.rotated


def other_move(state: State, turned: Iterable[int] | None = None) -> None:
    """A decision of the movement phase other than a free rotation (a step, a
    climb, a prepared climb, a dismount, a Catapult's paid rotation): every
    unit may be turned again (KK-31). ``turned``: the ids of the units turned,
    if known (else every unit is looked at). Changes ``state``."""
    units = state.units
    if turned is not None:
        for i in turned:
            units[i].rotated = False
        return
    for u in units:
        if u.rotated:
            u.rotated = False
