"""Laws of every Kill the King state (the kit runs them after every move)."""

from __future__ import annotations

from throneroom.games.kill_the_king.data import LEADERS, UNITS, Level, Side, UnitType
from throneroom.v1 import kill_the_king_pb2 as pb

from throneroom_server.games.kill_the_king import state as st
from throneroom_server.games.kill_the_king.scope import buy_menu, leader_menu, spec_of

State = pb.KillTheKingState
S = pb.KillTheKingState


def ids_are_indices(state: State) -> None:
    for i, u in enumerate(state.units):
        assert u.id == i, f"unit {i} has id {u.id}"
        assert u.side == state.seats[u.seat].side, f"unit {i} is not of its seat's side"


def one_unit_per_position(state: State) -> None:
    """No two counters share a place (crews excepted; stairs are both levels)."""
    seen: dict[tuple[int, int], list[st.Unit]] = {}
    for u in st.standing(state):
        for other in seen.get((u.square.row, u.square.col), []):
            assert not st.occupies(other, st.position(u)), (
                f"units {other.id} and {u.id} share {st.position(u)}"
            )
        seen.setdefault((u.square.row, u.square.col), []).append(u)


def units_stand_where_they_may(state: State) -> None:
    board = st.field(state)
    in_play = st.in_play(state)
    for u in st.on_field(state):
        where = st.coord(u)
        assert where in in_play, f"unit {u.id} stands off the mode's field at {where}"
        levels = board.space(*where).levels
        chart = UNITS[UnitType(u.type)]
        if u.carried_by >= 0:
            engine = state.units[u.carried_by]
            at_wall = engine.type == int(UnitType.SIEGE_TOWER) and engine.immobile
            expected = int(Level.STAIRS) if at_wall else engine.level
            assert u.level == expected, f"crew {u.id} on level {u.level}, not {expected}"
            continue
        assert Level(u.level) in levels, f"unit {u.id} at {where} on level {u.level}"
        if u.level == int(Level.WALL):
            assert chart.may_stand_on_wall or u.immobile, f"unit {u.id} may not be on a wall"


_ENGINES = (int(UnitType.BATTERING_RAM), int(UnitType.SIEGE_TOWER))


def crews_ride_their_engines(state: State) -> None:
    """Crews are in a Battering Ram (one, any side's infantry) or a Siege Tower
    (up to three infantry or leaders of its side, stacked apart), on its space."""
    for u in st.on_field(state):
        if u.carried_by < 0:
            continue
        engine = state.units[u.carried_by]
        assert engine.status == st.ON_FIELD and engine.type in _ENGINES, (
            f"unit {u.id} rides no engine"
        )
        assert st.coord(engine) == st.coord(u), f"crew {u.id} is not on its engine's space"
        crew = st.crew_of(state, engine.id)
        assert len(crew) <= UNITS[UnitType(engine.type)].capacity
        if engine.type == int(UnitType.SIEGE_TOWER):
            assert u.side == engine.side, f"crew {u.id} in an enemy tower"
            assert len({c.stack for c in crew}) == len(crew), f"tower {engine.id}: stacks clash"


def coins_are_units(state: State) -> None:
    """Conservation: every coin spent is a bought unit on the chart (KK-16), the
    budget being the mode's plus the Treasurer's coins (KK-21); free extras
    (Peasants, Flaming Pigs), the Ram and reinforcements cost nothing; every
    free extra came with a bought unit of its type (KK-17)."""
    spec = spec_of(state)
    for seat, s in enumerate(state.seats):
        if s.side == pb.SIDE_UNSPECIFIED or st.seat_of_side(state, Side(s.side)) != seat:
            continue  # Giga: the team's coins, on each of its seats, checked once (KK-124)
        for mate in st.team_seats(state, Side(s.side)):
            other = state.seats[mate]
            assert (other.coins, other.extra_coins) == (s.coins, s.extra_coins), (
                f"seat {mate} holds other coins than its team's first seat {seat}"
            )
        mine = [u for u in state.units if u.side == s.side]
        spent = sum(
            UNITS[st.counter_type(u)].cost for u in mine if not u.free and not st.is_leader(u)
        )
        treasurer = sum(
            LEADERS[UnitType.TREASURER].extra_coins
            for u in mine
            if u.type == int(UnitType.TREASURER)
        )
        budget = spec.budget(Side(s.side)) + treasurer
        assert s.coins >= 0 and s.coins + s.extra_coins + spent == budget, (
            f"side of seat {seat}: {s.coins} coins left, {s.extra_coins} extra and {spent} spent"
        )
        if state.round > 0:
            continue  # reinforcements are free too (KK-39)
        for kind in (t for t in UNITS if UNITS[t].free_extras):
            bought = sum(1 for u in mine if u.type == int(kind) and not u.free)
            free = sum(1 for u in mine if u.type == int(kind) and u.free)
            assert free <= bought * UNITS[kind].free_extras, (
                f"seat {seat}: {free} free {kind.name} for {bought} bought"
            )


_STANDARD_KINDS = frozenset(
    int(t) for t in (*buy_menu(False), *leader_menu(False), UnitType.BATTERING_RAM)
) | {int(UnitType.SWORDSMEN)}


def advanced_units_only_when_advanced(state: State) -> None:
    """Without the ``advanced`` option no Advanced unit is in the game (KK-16,
    KK-20, KK-39): no Flaming Pigs, so the engine's after-move detonation
    (``engine._then_check``) looks for none."""
    if state.advanced:
        return
    for u in state.units:
        assert u.type in _STANDARD_KINDS, f"unit {u.id} ({u.type}) in a game without Advanced"


def over_exactly_with_outcome(state: State) -> None:
    assert (state.phase == S.PHASE_OVER) == state.HasField("outcome"), "over iff outcome"


def placed_before_play(state: State) -> None:
    if state.round > 0:
        assert not any(u.status == st.RESERVE for u in state.units), "reserve units in play"


def turned_only_in_the_movement_phase(state: State) -> None:
    """A unit's ``rotated`` flag (turned since its side's last other move, KK-31)
    is set only in the movement phase, on a unit on the field that the seat to
    move controls (its own, or a Ram its crew mans): the listing finds every
    turned unit among the seat's."""
    for u in state.units:
        if not u.rotated:
            continue
        assert state.phase == S.PHASE_MOVEMENT, f"unit {u.id} turned outside the movement phase"
        assert u.status == st.ON_FIELD, f"unit {u.id} turned off the field"
        crew = st.crew_of(state, u.id) if u.type in _ENGINES else []
        seat = crew[0].seat if crew else u.seat
        assert seat == state.to_move, f"unit {u.id} turned, not the seat to move's"


INVARIANTS = (
    ids_are_indices,
    one_unit_per_position,
    units_stand_where_they_may,
    crews_ride_their_engines,
    coins_are_units,
    over_exactly_with_outcome,
    placed_before_play,
    advanced_units_only_when_advanced,
    turned_only_in_the_movement_phase,
)
