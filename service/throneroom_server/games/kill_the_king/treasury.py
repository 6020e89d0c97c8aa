"""The Treasurer's fall (KK-104, KK-105, KK-132): his flight at the end of his
side's turn, and the removals his death costs his seat.

His death (``combat_deaths``) removes the seat's Peasants at once and sets
``disband_value_left``; :func:`open_disband` then interrupts the phase under
way with PHASE_DISBAND, where the seat removes units of its choice one
``disband`` decision at a time until their chart costs reach 12 coins
("units equivalent to 12 coins. Rounded up") or none is left.
"""

from __future__ import annotations

from collections.abc import Iterator

from throneroom.games.kill_the_king.data import UNITS, Side, UnitType
from throneroom.v1 import kill_the_king_pb2 as pb

from throneroom_server.games.kill_the_king import state as st
from throneroom_server.games.kill_the_king.combat_deaths import kill_unit

State = pb.KillTheKingState
Move = pb.KillTheKingMove
Event = pb.KillTheKingEvent
S = pb.KillTheKingState


def fleeing_treasurer(state: State, side: Side) -> st.Unit | None:
    """The side's Treasurer if he ends its turn without a friendly unit next to
    him (KK-105): on an orthogonally adjacent space at any level, crews counted
    at their engine's space. Inside a Siege Tower he is with the tower."""
    mine = int(side)
    on_field = st.ON_FIELD
    for u in state.units:
        if u.type != _TREASURER or u.side != mine or u.status != on_field:
            continue
        if u.carried_by >= 0:
            return None
        row, col = u.square.row, u.square.col
        for v in state.units:
            if v.side != mine or v.status != on_field:
                continue
            if abs(v.square.row - row) + abs(v.square.col - col) == 1:
                return None
        return u
    return None


_TREASURER = int(UnitType.TREASURER)


def treasurer_flees(state: State, side: Side, events: list[Event]) -> None:
    """The end-of-turn check of KK-105: a lone Treasurer runs away, counted as
    killed (TREASURER_FLED), with the effects of his death (KK-104)."""
    u = fleeing_treasurer(state, side)
    if u is not None:
        kill_unit(state, u, pb.CAUSE_TREASURER_FLED, -1, events)


def open_disband(state: State, events: list[Event]) -> None:
    """A seat whose Treasurer died removes units now (KK-104), interrupting the
    phase under way (after a pending Cavalry follow-up); with nothing to remove
    the debt is void."""
    if state.phase in (S.PHASE_FOLLOW_UP, S.PHASE_DISBAND) or state.round == 0:
        return
    for seat, info in enumerate(state.seats):
        if info.disband_value_left <= 0:
            continue
        if next(disband_moves(state, seat), None) is None:
            info.disband_value_left = 0
            continue
        state.resume_phase = state.phase
        state.phase = S.PHASE_DISBAND
        state.to_move = seat
        events.append(Event(phase_started=Event.PhaseStarted(phase=state.phase)))
        return


def disband_moves(state: State, seat: int) -> Iterator[Move]:
    """Units the seat may remove after its Treasurer died (KK-104): any of its
    own on the field (crews included) but its leaders and the Battering Ram."""
    if state.seats[seat].disband_value_left <= 0:
        return
    for u in st.on_field(state):
        if u.seat == seat and not st.is_leader(u) and u.type != int(UnitType.BATTERING_RAM):
            yield Move(disband=Move.Disband(unit=u.id))


def disband(state: State, seat: int, move: Move, events: list[Event]) -> None:
    """One unit removed (DISBANDED); its chart cost counts against the value
    owed. Done when 12 coins or more are removed or nothing is left: the
    interrupted phase goes on with the side to play."""
    u = state.units[move.disband.unit]
    kill_unit(state, u, pb.CAUSE_DISBANDED, -1, events)
    info = state.seats[seat]
    info.disband_value_left -= UNITS[st.counter_type(u)].cost
    if info.disband_value_left <= 0 or next(disband_moves(state, seat), None) is None:
        info.disband_value_left = 0
        state.phase = state.resume_phase
        state.resume_phase = S.PHASE_UNSPECIFIED
        state.to_move = state.turn_seat
