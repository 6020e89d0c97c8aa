"""Setup (KK-13..KK-27, KK-88): initiative, sides, purchases, the suggested
armies, leaders and the hidden placement, played through the engine."""

from __future__ import annotations

import pytest
from throneroom.games.kill_the_king.board import Coord
from throneroom.games.kill_the_king.data import (
    MODES,
    UNITS,
    Mode,
    Side,
    UnitType,
    army_units,
)
from throneroom.games.kill_the_king.field import setup_squares
from throneroom.v1 import kill_the_king_pb2 as pb
from throneroom_server.games.core import IllegalMoveError, InvalidOptionsError

from tests.games.kill_the_king.positions import ENGINE, legal, play

State = pb.KillTheKingState
Move = pb.KillTheKingMove
KTK, AD = (
    pb.KillTheKingOptions(),
    pb.KillTheKingOptions(mode=pb.KILL_THE_KING_MODE_ATTACK_AND_DEFENSE),
)
SUGGESTED = Move(buy_suggested_army=Move.BuySuggestedArmy())


def buy(kind: UnitType) -> Move:
    return Move(buy=Move.Buy(unit=pb.UnitType.ValueType(kind)))


def choose(side: Side) -> Move:
    return Move(choose_side=Move.ChooseSide(side=pb.Side.ValueType(side)))


def leader(kind: UnitType) -> Move:
    return Move(choose_leader=Move.ChooseLeader(leader=pb.UnitType.ValueType(kind)))


def after_sides(options: pb.KillTheKingOptions, seed: int = 3) -> State:
    """A fresh game whose initiative winner chose to attack."""
    state = ENGINE.setup(options, 2, seed)
    state, _ = play(state, choose(Side.ATTACKER))
    return state


def kinds(state: State) -> set[str]:
    return {str(m.WhichOneof("decision")) for m in legal(state)}


# --- KK-13, KK-14, S1: initiative --------------------------------------------------------------


def test_s1_initiative_ties_are_rolled_again_by_every_seat_and_the_winner_chooses() -> None:
    tied = []
    for seed in range(200):
        state = ENGINE.setup(KTK, 2, seed)
        first, second = (list(s.initiative_rolls) for s in state.seats)
        assert len(first) == len(second)
        assert all(a == b for a, b in zip(first[:-1], second[:-1], strict=True))
        assert first[-1] != second[-1]
        winner = 0 if first[-1] > second[-1] else 1
        assert state.initiative_seat == winner == state.to_move
        assert list(ENGINE.to_act(state)) == [winner] and kinds(state) == {"choose_side"}
        if len(first) > 1:
            tied.append(seed)
    assert tied, "some seed ties on the first roll"
    state = ENGINE.setup(KTK, 2, tied[0])
    dice = [e.die_rolled for e in ENGINE.definition.setup_events(state) if e.HasField("die_rolled")]
    assert [d.purpose for d in dice] == [pb.DIE_PURPOSE_INITIATIVE] * len(dice)
    assert [d.value for d in dice[:2]] == [
        state.seats[0].initiative_rolls[0],
        state.seats[1].initiative_rolls[0],
    ]
    assert dice[0].value == dice[1].value and [d.seat for d in dice[:2]] == [0, 1]


@pytest.mark.parametrize("side", [Side.ATTACKER, Side.DEFENDER])
def test_the_winner_picks_either_side_the_other_seat_takes_the_other(side: Side) -> None:
    state = ENGINE.setup(KTK, 2, 5)
    winner = state.to_move
    state, events = play(state, choose(side))
    assert state.seats[winner].side == side and state.seats[1 - winner].side == side.other
    assert events[0].side_chosen == pb.KillTheKingEvent.SideChosen(seat=winner, side=side)
    attacker = winner if side is Side.ATTACKER else 1 - winner
    assert state.to_move == attacker and state.phase == State.PHASE_PURCHASE


# --- KK-15, KK-88: budgets and the free Ram -------------------------------------------------------


def test_kill_the_king_budgets_90_and_45_and_the_attackers_free_ram() -> None:
    state = after_sides(KTK)
    attacker = state.to_move
    assert state.seats[attacker].coins == 90 and state.seats[1 - attacker].coins == 45
    rams = [u for u in state.units if u.type == pb.UNIT_TYPE_BATTERING_RAM]
    assert len(rams) == 1 and rams[0].free and rams[0].seat == attacker
    assert rams[0].status == pb.KillTheKingUnit.STATUS_RESERVE


def test_attack_and_defense_budgets_60_each_and_no_ram() -> None:
    state = after_sides(AD)
    assert [s.coins for s in state.seats] == [60, 60]
    assert not state.units


# --- KK-16, KK-19, S2: purchases ---------------------------------------------------------------


def test_the_menu_offers_only_the_implemented_affordable_units_within_caps() -> None:
    state = after_sides(KTK)
    offered = {UnitType(m.buy.unit) for m in legal(state) if m.HasField("buy")}
    assert offered == {
        UnitType.ARCHER,
        UnitType.SPEARMEN,
        UnitType.SWORDSMEN,
        UnitType.CAVALRY,
        UnitType.CATAPULT,
    }
    seat = state.to_move
    for _ in range(4):  # the Catapult cap is 4 (KK-19)
        state, _ = play(state, buy(UnitType.CATAPULT), seat)
        if state.to_move != seat:
            state, _ = play(state, buy(UnitType.ARCHER))
    assert state.to_move == seat and state.seats[seat].coins == 90 - 48
    assert buy(UnitType.CATAPULT) not in legal(state)
    with pytest.raises(IllegalMoveError):
        play(state, buy(UnitType.CATAPULT))


def test_s2_purchases_alternate_and_a_seat_without_coins_waits() -> None:
    state = after_sides(KTK)
    attacker, defender = state.to_move, 1 - state.to_move
    order = []
    while state.phase == State.PHASE_PURCHASE:
        order.append(state.to_move)
        cheap = next(
            m
            for m in legal(state)
            if m.HasField("buy") and m.buy.unit not in (pb.UNIT_TYPE_CAVALRY, pb.UNIT_TYPE_CATAPULT)
        )
        state, events = play(state, cheap)
        assert events[0].unit_bought.cost == 3
    assert order[:30] == [attacker, defender] * 15
    assert order[30:] == [attacker] * 15
    assert [s.coins for s in state.seats] == [0, 0]
    assert state.phase == State.PHASE_LEADER and state.to_move == attacker


def test_the_caps_stop_a_seat_that_could_still_pay() -> None:
    state = after_sides(AD)
    attacker = state.to_move
    for _ in range(6):  # 6 Cavalry = 54 coins, the cap
        state, _ = play(state, buy(UnitType.CAVALRY), attacker)
        state, _ = play(state, buy(UnitType.ARCHER))
    assert buy(UnitType.CAVALRY) not in legal(state, attacker)


# --- KK-18, S23: the suggested army -------------------------------------------------------------


@pytest.mark.parametrize("options", [KTK, AD], ids=["kill_the_king", "attack_and_defense"])
def test_s23_the_suggested_army_is_one_move_as_the_first_purchase(
    options: pb.KillTheKingOptions,
) -> None:
    state = after_sides(options)
    attacker = state.to_move
    spec = MODES[Mode(options.mode or Mode.KILL_THE_KING)]
    state, events = play(state, SUGGESTED)
    bought = [UnitType(e.unit_bought.unit) for e in events if e.HasField("unit_bought")]
    assert bought == list(army_units(spec.suggested_army(Side.ATTACKER)))
    assert state.seats[attacker].coins == 0
    state, _ = play(state, buy(UnitType.ARCHER))  # the defender buys one by one first
    assert SUGGESTED not in legal(state, 1 - attacker)


def test_both_suggested_armies_then_leaders_attacker_first() -> None:
    state = after_sides(KTK)
    attacker = state.to_move
    state, _ = play(state, SUGGESTED)
    state, _ = play(state, SUGGESTED)
    assert state.phase == State.PHASE_LEADER and state.to_move == attacker
    assert {UnitType(m.choose_leader.leader) for m in legal(state)} == {
        UnitType.RANGER,
        UnitType.TREASURER,
        UnitType.KNIGHT,
        UnitType.ENGINEER,
    }
    state, events = play(state, leader(UnitType.RANGER))
    assert events[0].leader_chosen.unit_id == len(state.units) - 1
    assert state.to_move == 1 - attacker
    state, _ = play(state, leader(UnitType.RANGER))  # the same kind on both sides (KK-20)
    assert state.phase == State.PHASE_PLACEMENT
    assert list(ENGINE.to_act(state)) == [0, 1]


# --- KK-22..KK-27: the hidden placement ----------------------------------------------------------


def placed_game(options: pb.KillTheKingOptions) -> State:
    state = after_sides(options)
    state, _ = play(state, SUGGESTED)
    state, _ = play(state, SUGGESTED)
    state, _ = play(state, leader(UnitType.RANGER))
    state, _ = play(state, leader(UnitType.KNIGHT))
    return state


@pytest.mark.parametrize("options", [KTK, AD], ids=["kill_the_king", "attack_and_defense"])
def test_s24_each_counter_is_placed_in_its_sides_zone(options: pb.KillTheKingOptions) -> None:
    state = placed_game(options)
    mode = Mode(options.mode or Mode.KILL_THE_KING)
    for seat in (0, 1):
        side = Side(state.seats[seat].side)
        moves = [m.place for m in legal(state, seat)]
        assert moves
        for p in moves:
            kind = UnitType(state.units[p.unit].type)
            assert Coord(p.square.row, p.square.col) in setup_squares(mode, side, kind)
        rows = {p.square.row for p in moves}
        if side is Side.ATTACKER:
            assert rows == {0, 1, 2}
        elif mode is Mode.ATTACK_AND_DEFENSE:
            assert rows == {6, 7, 8}
        else:
            assert min(rows) == 9


def test_one_counter_of_each_type_is_offered_the_next_by_id() -> None:
    state = placed_game(KTK)
    seat = state.to_move
    offered = {p.place.unit for p in legal(state, seat)}
    types = [state.units[i].type for i in sorted(offered)]
    assert len(types) == len(set(types))
    for i in offered:
        u = state.units[i]
        assert all(v.id >= u.id for v in state.units if v.seat == u.seat and v.type == u.type)


def _place(state: State, seat: int, unit: int, square: tuple[int, int], facing: int = 1) -> State:
    row, col = square
    move = Move(place=Move.Place(unit=unit, square=pb.Square(row=row, col=col), facing=facing))
    state, _ = play(state, move, seat)
    return state


def test_an_infantry_placed_on_its_ram_starts_as_its_crew() -> None:
    state = placed_game(KTK)
    attacker = next(i for i, s in enumerate(state.seats) if s.side == pb.SIDE_ATTACKER)
    ram = next(u.id for u in state.units if u.type == pb.UNIT_TYPE_BATTERING_RAM)
    state = _place(state, attacker, ram, (1, 4), pb.DIRECTION_NORTH)
    sw = min(u.id for u in state.units if u.seat == attacker and u.type == pb.UNIT_TYPE_SWORDSMEN)
    crew_moves = [
        m.place
        for m in legal(state, attacker)
        if m.place.unit == sw and (m.place.square.row, m.place.square.col) == (1, 4)
    ]
    assert [m.facing for m in crew_moves] == [pb.DIRECTION_NORTH]
    state = _place(state, attacker, sw, (1, 4), pb.DIRECTION_NORTH)
    assert state.units[sw].carried_by == ram
    archer = min(u.id for u in state.units if u.seat == attacker and u.type == pb.UNIT_TYPE_ARCHER)
    assert not any(
        (m.place.square.row, m.place.square.col) == (1, 4)
        for m in legal(state, attacker)
        if m.place.unit in (archer, sw)
    )


def test_the_defenders_catapult_on_the_wall_is_immobile() -> None:
    options = KTK
    state = after_sides(options)
    state, _ = play(state, SUGGESTED)
    state, _ = play(state, buy(UnitType.CATAPULT))
    while state.phase == State.PHASE_PURCHASE:
        state, _ = play(state, buy(UnitType.ARCHER))
    state, _ = play(state, leader(UnitType.RANGER))
    state, _ = play(state, leader(UnitType.KNIGHT))
    defender = next(i for i, s in enumerate(state.seats) if s.side == pb.SIDE_DEFENDER)
    cat = next(u.id for u in state.units if u.seat == defender and u.type == pb.UNIT_TYPE_CATAPULT)
    state = _place(state, defender, cat, (9, 3))
    u = state.units[cat]
    assert u.immobile and u.level == pb.LEVEL_WALL


@pytest.mark.parametrize("options", [KTK, AD], ids=["kill_the_king", "attack_and_defense"])
def test_the_reveal_then_round_one_the_attackers_movement(options: pb.KillTheKingOptions) -> None:
    state = placed_game(options)
    import random

    chooser = random.Random(1)
    events: list[pb.KillTheKingEvent] = []
    while state.phase == State.PHASE_PLACEMENT:
        seat = chooser.choice(ENGINE.to_act(state))
        state, events = play(state, chooser.choice(legal(state, seat)), seat)
    revealed = [e for e in events if e.HasField("placement_revealed")]
    assert len(revealed) == 1
    assert len(revealed[0].placement_revealed.units) == len(state.units)
    assert all(u.status == pb.KillTheKingUnit.STATUS_ON_FIELD for u in state.units)
    assert state.round == 1 and state.phase == State.PHASE_MOVEMENT
    assert Side(state.seats[state.to_move].side) is Side.ATTACKER
    assert [e.WhichOneof("kind") for e in events[-3:]] == [
        "placement_revealed",
        "turn_started",
        "phase_started",
    ]


# --- options -------------------------------------------------------------------------------------


@pytest.mark.parametrize("options", [KTK, AD])
@pytest.mark.parametrize("seats", [3, 4])
def test_the_one_board_modes_are_for_two_players(
    options: pb.KillTheKingOptions, seats: int
) -> None:
    """KK-10, KK-123: only the Giga modes take 3 or 4 seats, with a clear error."""
    with pytest.raises(InvalidOptionsError, match=f"for 2 players, not {seats}"):
        ENGINE.setup(options, seats, 1)


def test_units_of_the_chart_are_costed_as_the_data_says() -> None:
    state = after_sides(KTK)
    seat = state.to_move
    state, events = play(state, buy(UnitType.CAVALRY))
    assert events[0].unit_bought.cost == UNITS[UnitType.CAVALRY].cost == 9
    assert state.seats[seat].coins == 81
