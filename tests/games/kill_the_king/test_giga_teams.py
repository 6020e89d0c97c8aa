"""Giga teams (KK-122, KK-123, KK-127, KK-131): initiative, the turn order inside
a team, the team's shared secret at placement, the Ranger's rearmost on two
boards, whole random games at 2-4 seats."""

from __future__ import annotations

import random

import pytest
from throneroom.games.kill_the_king.board import Coord
from throneroom.games.kill_the_king.data import Mode, Side, UnitType
from throneroom.games.kill_the_king.field import rear_depth
from throneroom.v1 import kill_the_king_pb2 as pb
from throneroom_server.games.kill_the_king.combat_deaths import kill_unit
from throneroom_server.games.kill_the_king.treasury import open_disband
from throneroom_server.games.kill_the_king.turns import start_turn

from tests.games.kill_the_king.giga_positions import (
    ADG,
    KTKG,
    A,
    D,
    Giga,
    first,
    fresh,
    setup_until,
    teams_chosen,
)
from tests.games.kill_the_king.positions import END, ENGINE, legal, play

State = pb.KillTheKingState
Event = pb.KillTheKingEvent


@pytest.mark.parametrize("seats", [3, 4])
def test_the_first_seat_of_each_team_rolls_for_initiative(seats: int) -> None:
    """KK-123: seats 0 and 1 roll for their teams; the winner's team takes the
    side it chooses, the other team the other."""
    for seed in range(1, 6):
        state = fresh(KTKG, seats, seed)
        rolls = [len(s.initiative_rolls) for s in state.seats]
        assert rolls[0] == rolls[1] > 0 and rolls[2:] == [0] * (seats - 2)
        assert state.to_move == state.initiative_seat in (0, 1)
        events = ENGINE.setup_events(state)
        assert {e.die_rolled.seat for e in events if e.HasField("die_rolled")} == {0, 1}
        state, _ = play(state, legal(state)[1])  # the defence
        sides = [s.side for s in state.seats]
        mine = sides[state.initiative_seat]
        assert mine == pb.SIDE_DEFENDER
        assert all((s == mine) == (i % 2 == state.initiative_seat) for i, s in enumerate(sides))
        assert [s.team for s in state.seats] == [i % 2 for i in range(seats)]


def test_a_round_is_each_team_in_turn_its_seats_in_seat_order() -> None:
    """KK-127: the attacking team's seats 0 then 2, the defending team's 1 then
    3, each a movement and an attack phase; then round 2."""
    g = Giga(KTKG, 4)
    for seat, (row, col) in enumerate(((3, 1), (12, 3), (3, 9), (19, 3))):
        g.put(UnitType.SWORDSMEN, seat, row, col)
    state = g.turn(A, 1)
    order = [(state.round, state.to_move)]
    for _ in range(8):
        state, _ = play(state, END)
        assert state.phase == State.PHASE_ATTACK
        state, _ = play(state, END)
        order.append((state.round, state.to_move))
    assert order == [(1, 0), (1, 2), (1, 1), (1, 3), (2, 0), (2, 2), (2, 1), (2, 3), (3, 0)]


def test_a_seat_without_counters_still_takes_its_turn() -> None:
    """KK-126, KK-127: a seat that placed nothing ends its empty phases."""
    g = Giga(ADG, 4)
    g.put(UnitType.SWORDSMEN, 0, 10, 2)
    g.put(UnitType.SWORDSMEN, 1, 20, 2)
    state = g.turn(A, 1)
    state, _ = play(state, END)
    state, _ = play(state, END)
    assert state.to_move == 2 and legal(state) == [END]


def test_the_rangers_lock_holds_the_whole_team() -> None:
    """KK-101, KK-127: the Ranger killed, no unit of his team moves in its next
    turn, whichever seat controls it."""
    g = Giga(ADG, 4)
    ranger = g.put(UnitType.RANGER, 0, 10, 2)
    g.put(UnitType.SWORDSMEN, 0, 9, 2)
    mate = g.put(UnitType.SWORDSMEN, 2, 10, 6)
    g.put(UnitType.SWORDSMEN, 1, 20, 2)
    state = g.state()
    state.units[ranger].status = pb.KillTheKingUnit.STATUS_DEAD
    for seat in (0, 2):
        state.seats[seat].movement_locked = True
    state.round = 1
    start_turn(state, A, [])
    state, _ = play(state, END)
    state, _ = play(state, END)
    assert state.to_move == 2
    assert not any(m.HasField("step") and m.step.unit == mate for m in legal(state))


def _placement(seats: int) -> State:
    state = teams_chosen(KTKG, seats)
    state, _ = setup_until(state, State.PHASE_PLACEMENT, first)
    return state


def test_a_teammate_sees_the_teams_placements_the_enemy_does_not() -> None:
    """KK-122: the team places behind one barrier: seat 2 sees seat 0's
    placement and its event in full; seats 1 and 3 and spectators see a
    counter of the team's pool still in reserve, and only who placed."""
    state = _placement(4)
    move = legal(state, 0)[0]
    state, events = play(state, move, 0)
    uid = move.place.unit
    placed = next(e for e in events if e.HasField("unit_placed"))
    for viewer in (0, 2):
        seen = ENGINE.view(state, viewer).units[uid]
        assert seen.status == pb.KillTheKingUnit.STATUS_ON_FIELD and seen.seat == 0
        assert ENGINE.redact_event(placed, viewer) == placed
    for viewer in (1, 3, None):
        seen = ENGINE.view(state, viewer).units[uid]
        assert seen.status == pb.KillTheKingUnit.STATUS_RESERVE and not seen.HasField("square")
        assert ENGINE.redact_event(placed, viewer) == Event(unit_placed=Event.UnitPlaced(seat=0))
    # a counter placed by seat 2 shows in the enemy's view in the team's pool (seat 0)
    move = legal(state, 2)[-1]
    state, _ = play(state, move, 2)
    assert state.units[move.place.unit].seat == 2
    assert ENGINE.view(state, 1).units[move.place.unit].seat == 0
    assert ENGINE.view(state, 0).units[move.place.unit].seat == 2


def test_a_team_places_until_its_pool_is_empty() -> None:
    """KK-126: both seats of a team are done when the team's pool is placed."""
    state = _placement(4)
    while state.phase == State.PHASE_PLACEMENT:
        seat = ENGINE.to_act(state)[0]
        assert isinstance(seat, int)
        state, _ = play(state, legal(state, seat)[0], seat)
        for i in range(4):
            pool = [
                u
                for u in state.units
                if u.side == state.seats[i].side and u.status == pb.KillTheKingUnit.STATUS_RESERVE
            ]
            assert state.seats[i].placed == (not pool) or state.phase != State.PHASE_PLACEMENT
    assert state.round == 1 and state.to_move == 0


@pytest.mark.parametrize(
    ("side", "row", "depth"),
    [(A, 2, 2), (A, 29, 2), (D, 13, 2), (D, 18, 2), (A, 15, 15), (D, 16, 0)],
)
def test_rearmost_is_measured_on_each_board_half(side: Side, row: int, depth: int) -> None:
    """KK-131: on the Kill the King Giga field the attackers' edges are rows 0
    and 31, the defenders' the rows where the boards meet (15 and 16)."""
    assert rear_depth(KTKG, side, Coord(row, 3)) == depth


@pytest.mark.parametrize(("other_row", "dies"), [(28, True), (29, False), (1, False)])
def test_the_ranger_rearmost_on_two_boards(other_row: int, dies: bool) -> None:
    """KK-102, KK-131: the Ranger at row 2 (two rows from his edge) dies unless a
    unit of his team, on either board, is as near its own edge."""
    g = Giga(KTKG, 4)
    ranger = g.put(UnitType.RANGER, 0, 2, 3)
    g.put(UnitType.SWORDSMEN, 2, other_row, 3)
    g.put(UnitType.SWORDSMEN, 1, 12, 3)
    state = g.turn(A, 1)
    for _ in range(2):
        state, _ = play(state, END)
        state, _ = play(state, END)
    dead = state.units[ranger].status == pb.KillTheKingUnit.STATUS_DEAD
    assert dead == dies


@pytest.mark.parametrize("mode", [KTKG, ADG])
@pytest.mark.parametrize("seats", [2, 3, 4])
def test_whole_random_games_end_with_a_team_winning(mode: Mode, seats: int) -> None:
    """Every move legal, every invariant holding, the game over within the
    bound; the winners are the seats of one team."""
    state = fresh(mode, seats, seed=seats)
    rng = random.Random(seats)
    opts = pb.KillTheKingOptions(mode=pb.KillTheKingMode.ValueType(mode))
    bound = ENGINE.max_decisions(opts, seats)
    decisions = 0
    while acting := ENGINE.to_act(state):
        seat = acting[0]
        moves = ENGINE.legal_moves(state, seat)
        state, _ = ENGINE.apply(state, seat, moves[rng.randrange(len(moves))])
        ENGINE.check_invariants(state)
        decisions += 1
        assert decisions <= bound
    winners = list(state.outcome.winners)
    assert winners == [s for s in range(seats) if s % 2 == winners[0] % 2]


def test_a_treasurers_death_costs_only_the_seat_that_controls_him() -> None:
    """KK-104, KK-155: the Treasurer of seat 1 dies: seat 1's Peasants go, and
    seat 1 removes 12 coins of its own units, one decision each; its teammate
    (seat 3) keeps its Peasant and every unit, and is never asked."""
    g = Giga(KTKG, 4)
    treasurer = g.put(UnitType.TREASURER, 1, 13, 3)
    own_peasant = g.put(UnitType.PEASANT, 1, 13, 4)
    own_archer = g.put(UnitType.ARCHER, 1, 13, 5)
    own_cavalry = g.put(UnitType.CAVALRY, 1, 13, 6)
    mate_peasant = g.put(UnitType.PEASANT, 3, 18, 4)
    mate_archer = g.put(UnitType.ARCHER, 3, 18, 5)
    g.put(UnitType.SWORDSMEN, 0, 12, 3)
    state = g.state()
    state.round = 1
    events: list[Event] = []
    kill_unit(state, state.units[treasurer], pb.CAUSE_ATTACK, 6, events)
    open_disband(state, events)
    dead = pb.KillTheKingUnit.STATUS_DEAD
    assert state.units[own_peasant].status == dead
    assert state.units[mate_peasant].status != dead
    assert state.phase == State.PHASE_DISBAND and state.to_move == 1
    assert [state.seats[s].disband_value_left for s in range(4)] == [0, 12, 0, 0]
    removable = [m.disband.unit for m in legal(state, 1)]
    assert removable == [own_archer, own_cavalry]  # never the teammate's Archer
    assert mate_archer not in removable and not legal(state, 3)
    state, _ = play(state, pb.KillTheKingMove(disband=pb.KillTheKingMove.Disband(unit=own_archer)))
    state, _ = play(state, pb.KillTheKingMove(disband=pb.KillTheKingMove.Disband(unit=own_cavalry)))
    assert state.phase == State.PHASE_MOVEMENT
    assert state.units[mate_archer].status != dead and state.units[mate_peasant].status != dead
