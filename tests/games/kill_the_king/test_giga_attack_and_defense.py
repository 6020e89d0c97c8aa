"""Rulebook section 4, Attack and Defense Giga Mode: one test per sentence
(KK-123..KK-127, KK-130, docs/rules/kill_the_king.md section 15), through the
engine, with 2, 3 and 4 seats."""

from __future__ import annotations

import pytest
from throneroom.games.kill_the_king.board import Coord
from throneroom.games.kill_the_king.data import Side, UnitType
from throneroom.games.kill_the_king.field import field_for, home_row, setup_squares
from throneroom.v1 import kill_the_king_pb2 as pb
from throneroom_server.games.kill_the_king import state as st

from tests.games.kill_the_king.giga_positions import (
    ADG,
    A,
    D,
    Giga,
    N,
    first,
    setup_until,
    teams_chosen,
)
from tests.games.kill_the_king.positions import END, legal, play, step

State = pb.KillTheKingState
SEATS = [2, 3, 4]


def test_two_boards_on_the_grass_side() -> None:
    """'the boards placed together on the grass side' (KK-9): the two green
    fields meet in the middle; only they are in play (KK-8), rows 7 to 24."""
    board = field_for(ADG)
    in_play = board.in_play("attack_and_defense")
    assert {c.row for c in in_play} == set(range(7, 25))
    assert all(board.space(*c).terrain.name in ("GRASS", "ROAD") for c in in_play)
    assert (home_row(ADG, A), home_row(ADG, D)) == (7, 24)


def _breakthrough(seats: int, through: int, leader_dead: bool) -> State:
    g = Giga(ADG, seats)
    attackers = [s for s in range(seats) if s % 2 == 0]
    for k in range(through):
        g.put(UnitType.SWORDSMEN, attackers[k % len(attackers)], 24, 1 + 2 * k)
    g.put(UnitType.SWORDSMEN, 0, 12, 5)
    knight = g.put(UnitType.KNIGHT, 1, 20, 5)
    g.put(UnitType.SWORDSMEN, 1, 22, 9)
    if leader_dead:
        g.counters[knight].status = pb.KillTheKingUnit.STATUS_DEAD
    state = g.turn(A, 2)
    for _ in attackers:
        state, _ = play(state, END)
        state, _ = play(state, END)
    return state


@pytest.mark.parametrize("seats", SEATS)
def test_kill_the_leader_and_reach_the_far_end_with_four_units(seats: int) -> None:
    """'The attacking team has six rounds to eliminate the opposing team's Leader
    and reach the opposite end of the battlefield with four of their own
    units' (KK-130): checked when the attacking team's turn ends; every seat of
    the team wins."""
    state = _breakthrough(seats, 4, leader_dead=True)
    assert state.outcome.termination == "leader_and_breakthrough"
    assert list(state.outcome.winners) == [s for s in range(seats) if s % 2 == 0]


@pytest.mark.parametrize(("through", "leader_dead"), [(3, True), (4, False)])
def test_three_units_through_or_the_leader_alive_is_not_enough(
    through: int, leader_dead: bool
) -> None:
    """KK-130: four units (not two as on one board) and the leader dead."""
    state = _breakthrough(4, through, leader_dead)
    assert not state.HasField("outcome") and state.turn_side == pb.SIDE_DEFENDER


@pytest.mark.parametrize("seats", SEATS)
def test_if_this_is_not_achieved_the_defending_player_wins(seats: int) -> None:
    """'If this is not achieved the defending player wins the game' (KK-130):
    when the defending team's turn of round 6 ends; every defending seat wins."""
    g = Giga(ADG, seats)
    for seat in range(seats):
        g.put(UnitType.SWORDSMEN, seat, 10 if seat % 2 == 0 else 20, 1 + seat)
    state = g.turn(D, 6)
    for _ in st.team_seats(state, D):
        state, _ = play(state, END)
        state, _ = play(state, END)
    assert state.outcome.termination == "breakthrough_failed"
    assert list(state.outcome.winners) == [s for s in range(seats) if s % 2 == 1]


@pytest.mark.parametrize("seats", SEATS)
def test_each_team_may_buy_units_for_90_coins(seats: int) -> None:
    """'Each team may buy units for 90 coins' (KK-124); as in Attack and Defense,
    the attackers have no Battering Ram (KK-88)."""
    state = teams_chosen(ADG, seats)
    assert [s.coins for s in state.seats] == [90] * seats
    assert not state.units


@pytest.mark.parametrize("seats", SEATS)
def test_the_teams_buy_as_one_then_distribute_on_their_side(seats: int) -> None:
    """'The two teams buy their units as one and then distribute them freely on
    their side of battlefield' (KK-124, KK-126): one pool per team; each seat
    of a team may place any counter of it on the team's three first rows."""
    state = teams_chosen(ADG, seats)
    state, _ = setup_until(state, State.PHASE_PLACEMENT, first)
    for seat in range(seats):
        rows = {m.place.square.row for m in legal(state, seat)}
        assert rows == ({7, 8, 9} if seat % 2 == 0 else {22, 23, 24})
    assert {c.row for c in setup_squares(ADG, A, UnitType.PEASANT)} == {7, 8, 9, 10}
    assert {c.row for c in setup_squares(ADG, D, UnitType.PEASANT)} == {21, 22, 23, 24}
    pools = {u.seat for u in state.units}
    assert pools == {0, 1}


@pytest.mark.parametrize("seats", [3, 4])
def test_each_player_controls_his_half_of_the_team_army(seats: int) -> None:
    """'Each player controls his or her half of the team's combined army'
    (KK-126, KK-127): a seat moves only the counters it placed, in its own
    turn; the team's seats play in seat order."""
    g = Giga(ADG, seats)
    mine = g.put(UnitType.SWORDSMEN, 0, 10, 2)
    mate = g.put(UnitType.SWORDSMEN, 2, 10, 6)
    g.put(UnitType.SWORDSMEN, 1, 20, 5)
    state = g.turn(A, 1)
    assert state.to_move == 0
    assert {m.step.unit for m in legal(state) if m.HasField("step")} == {mine}
    state, _ = play(state, END)
    state, events = play(state, END)
    assert events[0].turn_started == pb.KillTheKingEvent.TurnStarted(
        round=1, side=pb.SIDE_ATTACKER, seat=2
    )
    assert state.to_move == 2 and state.phase == State.PHASE_MOVEMENT
    assert {m.step.unit for m in legal(state) if m.HasField("step")} == {mate}


def test_the_units_can_move_from_one_board_to_another() -> None:
    """'The units can move from one board to another' (KK-130)."""
    g = Giga(ADG, 2)
    uid = g.put(UnitType.SWORDSMEN, 0, 15, 5)
    g.put(UnitType.SWORDSMEN, 1, 22, 5)
    state = g.turn(A, 1)
    board = field_for(ADG)
    assert board.space(15, 5).board != board.space(16, 5).board
    state, _ = play(state, step(uid, N))
    assert st.coord(state.units[uid]) == Coord(16, 5)


@pytest.mark.parametrize("seats", SEATS)
def test_each_team_has_only_one_leader(seats: int) -> None:
    """'Each team has only one Leader' (KK-125): the attacking team's first seat
    chooses, then the defending team's; then the game goes on."""
    state = teams_chosen(ADG, seats)
    state, _ = setup_until(state, State.PHASE_LEADER, first)
    choosers = []
    while state.phase == State.PHASE_LEADER:
        choosers.append(state.to_move)
        state, _ = play(state, legal(state)[0])
    assert choosers == [0, 1]
    assert sum(1 for u in state.units if st.is_leader(u)) == 2
    assert Side(state.seats[0].side) is A
