"""Rulebook section 3, Kill the King Giga Mode: one test per sentence
(KK-123..KK-129, docs/rules/kill_the_king.md section 15), through the engine,
with 2, 3 and 4 seats."""

from __future__ import annotations

import pytest
from throneroom.games.kill_the_king.board import Coord
from throneroom.games.kill_the_king.data import Mode, UnitType
from throneroom.games.kill_the_king.field import field_for, setup_squares
from throneroom.v1 import kill_the_king_pb2 as pb
from throneroom_server.games.core import InvalidOptionsError
from throneroom_server.games.kill_the_king import combat, turns
from throneroom_server.games.kill_the_king import state as st

from tests.games.kill_the_king.combat_positions import Dice
from tests.games.kill_the_king.giga_positions import (
    KTKG,
    A,
    D,
    E,
    Giga,
    N,
    S,
    first,
    leader,
    setup_until,
    teams_chosen,
)
from tests.games.kill_the_king.positions import END, ENGINE, legal, play, step

State = pb.KillTheKingState
Move = pb.KillTheKingMove
SEATS = [2, 3, 4]


def test_two_boards_on_the_castle_side_make_one_enclosed_castle() -> None:
    """'boards placed together on the Castle side, to make a completely enclosed
    Castle' (KK-9): the castle ground of both boards is one walled area; the
    field has two gates and two King's Doors, side by side."""
    board = field_for(KTKG)
    assert (board.rows, board.cols) == (32, 11)
    assert board.gates == (Coord(9, 5), Coord(22, 5))
    assert board.doors == (Coord(15, 5), Coord(16, 5))
    inside = {s.coord for s in board if s.inside}
    assert {c.row for c in inside} == set(range(10, 22))
    for c in inside:  # every neighbour of the castle ground is castle or its wall
        for n in board.around(c):
            assert n in inside or board.space(*n).is_wall


@pytest.mark.parametrize("seats", SEATS)
def test_the_attacking_players_have_11_rounds_then_the_defending_players_win(seats: int) -> None:
    """'If this is not achieved within 11 rounds, the defending players win the
    game' (KK-116, KK-129): every seat of the defending team wins."""
    g = Giga(KTKG, seats)
    for seat in range(seats):
        g.put(UnitType.SWORDSMEN, seat, 3 + seat, 1 if seat % 2 == 0 else 0)
    g.counters[1].square.row = 12  # the defenders' inside the castle
    g.counters[1].square.col = 3
    if seats == 4:
        g.counters[3].square.row, g.counters[3].square.col = 19, 3
    state = g.turn(D, 11)
    for _ in range(len(st.team_seats(state, D))):
        state, _ = play(state, END)
        state, events = play(state, END)
    winners = [s for s in range(seats) if s % 2 == 1]
    assert state.outcome.termination == "king_survived"
    assert list(state.outcome.winners) == winners
    assert events[-1].game_ended.winning_side == pb.SIDE_DEFENDER


@pytest.mark.parametrize("seats", SEATS)
def test_the_attacking_team_buys_for_180_coins_the_defending_team_for_90(seats: int) -> None:
    """'The attacking team can buy units for 180 coins, while the defending team
    can buy for 90 coins' (KK-124): every seat of a team holds the team's coins."""
    state = teams_chosen(KTKG, seats)
    assert [s.coins for s in state.seats] == [180 if i % 2 == 0 else 90 for i in range(seats)]


@pytest.mark.parametrize("seats", SEATS)
def test_the_attacking_team_buys_as_one(seats: int) -> None:
    """'The attacking team buy their units as one' (KK-124): the teams alternate
    purchases, attackers first; inside a team its seats take the purchases in
    seat order; a purchase is paid from the team's coins and goes to the
    team's pool (held by its first seat)."""
    state = teams_chosen(KTKG, seats)
    state, made = setup_until(state, State.PHASE_LEADER, first)
    buyers = [seat for seat, move in made]
    attackers = [s for s in range(seats) if s % 2 == 0]
    defenders = [s for s in range(seats) if s % 2 == 1]
    defence_buys = sum(1 for s in buyers if s % 2 == 1)
    attack_buys = len(buyers) - defence_buys
    expected, a_made, d_made = [], 0, 0
    for _ in buyers:  # alternating, attackers first, until the defenders are out of coins
        if a_made < attack_buys and (d_made >= defence_buys or a_made == d_made):
            expected.append(attackers[a_made % len(attackers)])
            a_made += 1
        else:
            expected.append(defenders[d_made % len(defenders)])
            d_made += 1
    assert buyers == expected
    assert buyers[:2] == [0, 1]
    bought = [u for u in state.units if not u.free]
    assert {u.seat for u in bought if u.side == pb.SIDE_ATTACKER} == {0}
    assert {u.seat for u in bought if u.side == pb.SIDE_DEFENDER} == {1}
    spent = {side: sum(3 for u in bought if u.side == side) for side in (1, 2)}
    for i, s in enumerate(state.seats):
        assert s.coins == (180 if i % 2 == 0 else 90) - spent[s.side]


@pytest.mark.parametrize("seats", SEATS)
def test_the_attacking_team_has_two_battering_rams(seats: int) -> None:
    """'The attacking team has two Battering Rams' (KK-88, KK-126): free, in its pool."""
    state = teams_chosen(KTKG, seats)
    rams = [u for u in state.units if u.type == pb.UNIT_TYPE_BATTERING_RAM]
    assert len(rams) == 2
    assert all(u.free and u.side == pb.SIDE_ATTACKER and u.seat == 0 for u in rams)


def _to_placement(seats: int) -> State:
    state = teams_chosen(KTKG, seats)
    state, _ = setup_until(state, State.PHASE_PLACEMENT, first)
    return state


def _squares(moves: list[Move]) -> set[Coord]:
    return {Coord(m.place.square.row, m.place.square.col) for m in moves}


@pytest.mark.parametrize("seats", SEATS)
def test_the_attackers_distribute_freely_on_each_side_of_the_castle(seats: int) -> None:
    """'distributes them freely on each side of the Castle during the setup
    phase' (KK-126): each attacking seat may place any counter of the team's
    pool on the first three rows of either board; the seat that places a
    counter controls it."""
    state = _to_placement(seats)
    squares = _squares(legal(state, 0))
    assert {c.row for c in squares} == {0, 1, 2, 29, 30, 31}
    last_attacker = max(s for s in range(seats) if s % 2 == 0)
    moves = legal(state, last_attacker)
    assert _squares(moves) == squares
    north = next(m for m in moves if m.place.square.row == 30)
    state, _ = play(state, north, last_attacker)
    assert state.units[north.place.unit].seat == last_attacker


@pytest.mark.parametrize("seats", SEATS)
def test_the_defenders_place_all_their_troops_inside_the_castle(seats: int) -> None:
    """'The defenders do the same and place all their troops inside the castle'
    (KK-23, KK-126): on or inside the walls of the joined castle, both halves."""
    state = _to_placement(seats)
    board = field_for(KTKG)
    for seat in (s for s in range(seats) if s % 2 == 1):
        squares = _squares(legal(state, seat))
        assert all(board.space(*c).inside or board.space(*c).is_wall for c in squares)
        assert {board.space(*c).board for c in squares} == {0, 1}
    inside = {s.coord for s in board if s.inside} - set(board.doors)
    assert inside <= setup_squares(KTKG, D, UnitType.SWORDSMEN)
    pigs = {c.row for c in setup_squares(KTKG, D, UnitType.FLAMING_PIGS)}
    assert pigs == set(range(8, 24)), "Flaming Pigs also on the first row outside (KK-153)"
    peasants = {c.row for c in setup_squares(KTKG, A, UnitType.PEASANT)}
    assert peasants == {0, 1, 2, 3, 28, 29, 30, 31}, "row 4 of each board (KK-24)"


@pytest.mark.parametrize("seats", SEATS)
def test_each_team_has_two_leaders_never_of_the_same_kind(seats: int) -> None:
    """'Each team has two Leaders. A team cannot have two Leaders of the same
    kind' (KK-125): attackers first, each team's seats in seat order; the
    second choice of a team is offered every kind but the first's."""
    state = teams_chosen(KTKG, seats)
    state, _ = setup_until(state, State.PHASE_LEADER, first)
    choosers = []
    while state.phase == State.PHASE_LEADER:
        seat = state.to_move
        choosers.append(seat)
        side = st.side_of(state, seat)
        have = {u.type for u in state.units if st.is_leader(u) and u.side == int(side)}
        offered = {m.choose_leader.leader for m in legal(state)}
        assert not have & offered
        state, _ = play(state, leader(UnitType.RANGER if not have else UnitType.KNIGHT))
    attackers = [s for s in range(seats) if s % 2 == 0]
    defenders = [s for s in range(seats) if s % 2 == 1]
    assert choosers == [
        attackers[0],
        attackers[1 % len(attackers)],
        defenders[0],
        defenders[1 % len(defenders)],
    ]
    for side in (pb.SIDE_ATTACKER, pb.SIDE_DEFENDER):
        kinds = sorted(u.type for u in state.units if st.is_leader(u) and u.side == side)
        assert kinds == [pb.UNIT_TYPE_RANGER, pb.UNIT_TYPE_KNIGHT]


def _reinforcement_turn(seats: int, *leaders_at: tuple[int, int]) -> State:
    g = Giga(KTKG, seats)
    for row, col in leaders_at:
        g.put(UnitType.KNIGHT if not g.counters else UnitType.RANGER, 0, row, col)
    g.put(UnitType.SWORDSMEN, 0, 3, 1)
    g.put(UnitType.SWORDSMEN, 1, 12, 3)
    return g.turn(D, 6)


def _place_all(state: State) -> tuple[State, list[Coord]]:
    placed = []
    while state.reinforcement_cavalry:
        move = legal(state)[0]
        assert move.reinforce.unit == pb.UNIT_TYPE_CAVALRY
        placed.append(Coord(move.reinforce.square.row, move.reinforce.square.col))
        state, _ = play(state, move)
    return state, placed


@pytest.mark.parametrize("seats", SEATS)
def test_without_both_leaders_inside_10_reinforcements_5_for_each_defending_player(
    seats: int,
) -> None:
    """'The attackers need to get both their Leaders inside the Castle Walls
    during round 6, or else 10 reinforcements will arrive, 5 for each
    defending player' (KK-128): five per board half, each on that half's
    edges, placed (and controlled) by the defending team's seat for it."""
    state = _reinforcement_turn(seats, (3, 3), (28, 3))
    board = field_for(KTKG)
    defenders = st.team_seats(state, D)
    halves = []
    for half in (0, 1):
        assert state.phase == State.PHASE_REINFORCEMENT
        assert (state.reinforcement_half, state.reinforcement_cavalry) == (half, 5)
        assert state.to_move == defenders[half % len(defenders)]
        state, placed = _place_all(state)
        assert {board.space(*c).board for c in placed} == {half}
        assert set(placed) <= set(board.reinforcement_edge(half))
        halves.append(placed)
        state, _ = play(state, END)
    assert state.phase == State.PHASE_MOVEMENT and state.to_move == defenders[0]
    assert list(state.reinforced_halves) == [0, 1]
    cavalry = [u for u in state.units if u.free and u.type == pb.UNIT_TYPE_CAVALRY]
    assert len(cavalry) == 10
    assert [u.seat for u in cavalry] == [defenders[0]] * 5 + [defenders[-1]] * 5


@pytest.mark.parametrize("seats", SEATS)
def test_both_attacking_leaders_inside_no_reinforcements(seats: int) -> None:
    """KK-128: both leaders inside the walls (in either half): none arrive."""
    state = _reinforcement_turn(seats, (12, 3), (13, 7))
    assert state.phase == State.PHASE_MOVEMENT and not state.reinforced_halves


@pytest.mark.parametrize(("inside", "half"), [((12, 3), 1), ((19, 7), 0)])
def test_one_leader_inside_reinforcements_only_on_the_other_board(
    inside: tuple[int, int], half: int
) -> None:
    """'If only one attacker gets a Leader inside, the defenders can put
    reinforcements on that side (board), but not on the one where the Leader
    managed to get inside' (KK-128)."""
    state = _reinforcement_turn(4, inside, (3, 5))
    assert state.phase == State.PHASE_REINFORCEMENT
    assert state.reinforcement_half == half and state.to_move == (1, 3)[half]
    state, placed = _place_all(state)
    assert {field_for(KTKG).space(*c).board for c in placed} == {half}
    state, _ = play(state, END)
    assert state.phase == State.PHASE_MOVEMENT and list(state.reinforced_halves) == [half]


def _door_attack(from_square: tuple[int, int], facing: int, door: Coord, seats: int) -> State:
    attacker = 2 if seats > 2 else 0  # the attacking team's last seat
    g = Giga(KTKG, seats)
    g.put(UnitType.SWORDSMEN, attacker, *from_square, facing=facing)  # type: ignore[arg-type]
    g.put(UnitType.SWORDSMEN, 1, 12, 3)
    state = g.turn(A, 3)
    state.phase = State.PHASE_ATTACK
    state.to_move = state.turn_seat = attacker
    move = Move(attack=Move.Attack(unit=0, target=pb.Square(row=door.row, col=door.col)))
    assert move in legal(state)
    events: list[pb.KillTheKingEvent] = []
    combat.apply_attack(state, st.field(state), attacker, move, Dice(1, 3), events)
    turns.check_game_over(state, events)
    return state


@pytest.mark.parametrize("seats", SEATS)
@pytest.mark.parametrize(
    ("from_square", "facing", "door"),
    [((14, 5), N, Coord(15, 5)), ((17, 5), S, Coord(16, 5))],
)
def test_the_king_is_killed_by_knocking_down_either_kings_door(
    seats: int, from_square: tuple[int, int], facing: int, door: Coord
) -> None:
    """'Only one King is used in this mode, and he can be reached from both
    doors. The attackers can kill the King by knocking down either of the two
    King doors' (KK-129): every seat of the attacking team wins."""
    state = _door_attack(from_square, facing, door, seats)
    assert state.door_destroyed and state.outcome.termination == "door"
    assert list(state.outcome.winners) == [s for s in range(seats) if s % 2 == 0]
    team = "seat 0" if seats == 2 else "seats 0 and 2"
    assert state.outcome.summary.startswith(f"the attacker team ({team}) wins: ")


def test_the_mode_needs_2_to_4_players() -> None:
    """'(2-4 players)': the service's seat range (KK-123); the one-board modes take 2."""
    opts = pb.KillTheKingOptions(mode=pb.KILL_THE_KING_MODE_KILL_THE_KING_GIGA)
    for seats in SEATS:
        ENGINE.validate_options(opts, seats)
    with pytest.raises(InvalidOptionsError, match="2 to 4 seats, not 5"):
        ENGINE.validate_options(opts, 5)
    one_board = pb.KillTheKingOptions(mode=pb.KILL_THE_KING_MODE_KILL_THE_KING)
    with pytest.raises(InvalidOptionsError, match=r"is for 2 players, not 3 \(the Giga modes"):
        ENGINE.validate_options(one_board, 3)
    assert Mode.KILL_THE_KING_GIGA.value == 3


def test_each_gate_of_the_joined_castle_is_taken_apart() -> None:
    """KK-56, KK-9: an attacker ending its move above the second board's gate
    controls that gate only; the first stays the defenders'."""
    g = Giga(KTKG, 4)
    uid = g.put(UnitType.SWORDSMEN, 2, 22, 4)
    g.put(UnitType.SWORDSMEN, 0, 3, 3)
    g.put(UnitType.SWORDSMEN, 1, 12, 3)
    state = g.turn(A, 2)
    state, _ = play(state, END)
    state, _ = play(state, END)
    assert state.to_move == 2
    state, _ = play(state, step(uid, E))
    state, events = play(state, END)
    assert [(g.square.row, g.controlled_by) for g in state.gates] == [
        (9, pb.SIDE_DEFENDER),
        (22, pb.SIDE_ATTACKER),
    ]
    assert any(e.HasField("gate_control_changed") for e in events)
