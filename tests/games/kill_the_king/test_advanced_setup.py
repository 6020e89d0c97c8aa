"""Setup with the leaders and units of issue 10 (KK-10, KK-16, KK-17, KK-20,
KK-21, KK-24, KK-80, KK-103, KK-132..): the advanced option gating the
purchase and leader menus, free Peasants, the Treasurer's extra coins, the
extra setup row."""

from __future__ import annotations

import pytest
from throneroom.games.kill_the_king.board import Coord
from throneroom.games.kill_the_king.data import Mode, Side, UnitType
from throneroom.games.kill_the_king.field import setup_squares
from throneroom.v1 import kill_the_king_pb2 as pb
from throneroom_server.games.core import IllegalMoveError

from tests.games.kill_the_king.positions import legal, play
from tests.games.kill_the_king.test_setup import SUGGESTED, after_sides, buy, leader

State = pb.KillTheKingState
KTK_ADV = pb.KillTheKingOptions(advanced=True)
AD_ADV = pb.KillTheKingOptions(mode=pb.KILL_THE_KING_MODE_ATTACK_AND_DEFENSE, advanced=True)
STANDARD = {
    UnitType.ARCHER,
    UnitType.SPEARMEN,
    UnitType.SWORDSMEN,
    UnitType.CAVALRY,
    UnitType.CATAPULT,
}
ADVANCED = {
    UnitType.PEASANT,
    UnitType.WAR_ELEPHANT,
    UnitType.FLAMING_PIGS,
    UnitType.BALLISTA,
    UnitType.SIEGE_TOWER,
}


def offered(state: State) -> set[UnitType]:
    return {UnitType(m.buy.unit) for m in legal(state) if m.HasField("buy")}


def leaders_offered(state: State) -> set[UnitType]:
    return {UnitType(m.choose_leader.leader) for m in legal(state)}


def to_leaders(options: pb.KillTheKingOptions) -> State:
    state = after_sides(options)
    state, _ = play(state, SUGGESTED)
    state, _ = play(state, SUGGESTED)
    assert state.phase == State.PHASE_LEADER
    return state


@pytest.mark.parametrize("options", [KTK_ADV, AD_ADV], ids=["kill_the_king", "attack_and_defense"])
def test_the_advanced_units_are_offered_only_with_the_option(
    options: pb.KillTheKingOptions,
) -> None:
    """KK-10, KK-16: the chart's Advanced units are bought only with the option."""
    plain = pb.KillTheKingOptions(mode=options.mode)
    assert offered(after_sides(plain)) == STANDARD
    assert offered(after_sides(options)) == STANDARD | ADVANCED
    state = after_sides(plain)
    with pytest.raises(IllegalMoveError):
        play(state, buy(UnitType.PEASANT))


def test_the_treasurer_and_the_engineer_always_the_beastmaster_only_with_the_option() -> None:
    """KK-20: the Treasurer and the Engineer are not Advanced."""
    plain = leaders_offered(to_leaders(pb.KillTheKingOptions()))
    assert plain == {UnitType.RANGER, UnitType.TREASURER, UnitType.KNIGHT, UnitType.ENGINEER}
    assert UnitType.BEASTMASTER not in plain
    advanced = leaders_offered(to_leaders(KTK_ADV))
    assert advanced == plain | {UnitType.BEASTMASTER}


def test_a_peasant_bought_brings_two_free_peasants() -> None:
    """KK-17, KK-80: ids right after the bought one, ``free`` set, 3 coins in all."""
    state = after_sides(KTK_ADV)
    seat = state.to_move
    state, events = play(state, buy(UnitType.PEASANT))
    bought = events[0].unit_bought
    assert bought.cost == 3 and bought.coins_left == 87
    assert list(bought.unit_ids) == [0 + len(state.units) - 3 + i for i in range(3)]
    trio = [state.units[i] for i in bought.unit_ids]
    assert [u.type for u in trio] == [pb.UNIT_TYPE_PEASANT] * 3
    assert [u.free for u in trio] == [False, True, True]
    assert all(u.seat == seat and u.status == pb.KillTheKingUnit.STATUS_RESERVE for u in trio)


def test_the_peasant_cap_counts_the_free_ones() -> None:
    """KK-19: four purchases fill the cap of 12 Peasants; a fifth is not offered."""
    state = after_sides(KTK_ADV)
    seat = state.to_move
    for _ in range(4):
        state, _ = play(state, buy(UnitType.PEASANT), seat)
        state, _ = play(state, buy(UnitType.ARCHER))
    assert sum(u.type == pb.UNIT_TYPE_PEASANT for u in state.units) == 12
    assert UnitType.PEASANT not in offered(state)
    assert state.seats[seat].coins == 90 - 12


def test_the_treasurer_brings_nine_coins_spent_after_the_leaders() -> None:
    """KK-21, KK-103: the Treasurer's side buys with 9 coins after both leaders
    are chosen (PHASE_EXTRA_PURCHASE), then the placement starts."""
    state = to_leaders(KTK_ADV)
    attacker = state.to_move
    state, _ = play(state, leader(UnitType.TREASURER))
    assert state.seats[attacker].extra_coins == 9 and state.seats[attacker].coins == 0
    state, events = play(state, leader(UnitType.KNIGHT))
    assert state.phase == State.PHASE_EXTRA_PURCHASE and state.to_move == attacker
    assert state.seats[attacker].coins == 9 and state.seats[attacker].extra_coins == 0
    assert {m.WhichOneof("decision") for m in legal(state)} == {"buy"}
    assert UnitType.CAVALRY in offered(state) and UnitType.CATAPULT not in offered(state)
    state, _ = play(state, buy(UnitType.PEASANT))
    assert state.to_move == attacker and state.seats[attacker].coins == 6
    state, _ = play(state, buy(UnitType.ARCHER))
    state, events = play(state, buy(UnitType.ARCHER))
    assert state.phase == State.PHASE_PLACEMENT
    assert events[-1].phase_started.phase == State.PHASE_PLACEMENT


def test_two_treasurers_buy_in_turn_attacker_first() -> None:
    """KK-21: both sides led by a Treasurer alternate their extra purchases (KK-16)."""
    state = to_leaders(KTK_ADV)
    attacker = state.to_move
    state, _ = play(state, leader(UnitType.TREASURER))
    state, _ = play(state, leader(UnitType.TREASURER))
    order = []
    while state.phase == State.PHASE_EXTRA_PURCHASE:
        order.append(state.to_move)
        state, _ = play(state, buy(UnitType.SWORDSMEN))
    assert order == [attacker, 1 - attacker] * 3
    assert state.phase == State.PHASE_PLACEMENT


def test_without_a_treasurer_the_placement_follows_the_leaders() -> None:
    state = to_leaders(KTK_ADV)
    state, _ = play(state, leader(UnitType.ENGINEER))
    state, _ = play(state, leader(UnitType.KNIGHT))
    assert state.phase == State.PHASE_PLACEMENT


@pytest.mark.parametrize("mode", [Mode.KILL_THE_KING, Mode.ATTACK_AND_DEFENSE])
def test_peasants_on_row_4_for_the_attacker(mode: Mode) -> None:
    """KK-24, KK-80: the attacker may place Peasants on its fourth row; in Kill
    the King the defender places them by the normal rule, in Attack and Defense
    on its fourth row too (row 5)."""
    attacker = setup_squares(mode, Side.ATTACKER, UnitType.PEASANT)
    assert Coord(3, 5) in attacker and Coord(4, 5) not in attacker
    assert Coord(3, 5) not in setup_squares(mode, Side.ATTACKER, UnitType.SWORDSMEN)
    defender = setup_squares(mode, Side.DEFENDER, UnitType.PEASANT)
    if mode is Mode.KILL_THE_KING:
        assert defender == setup_squares(mode, Side.DEFENDER, UnitType.SWORDSMEN)
    else:
        assert Coord(5, 5) in defender and Coord(4, 5) not in defender


def test_a_peasant_is_placed_on_row_4_through_the_engine() -> None:
    state = after_sides(KTK_ADV)
    attacker = state.to_move
    state, _ = play(state, buy(UnitType.PEASANT))
    peasant = next(u.id for u in state.units if u.type == pb.UNIT_TYPE_PEASANT)
    while state.phase != State.PHASE_LEADER:
        state, _ = play(state, legal(state)[0])
    state, _ = play(state, leader(UnitType.RANGER))
    state, _ = play(state, leader(UnitType.KNIGHT))
    rows = {m.place.square.row for m in legal(state, attacker) if m.place.unit == peasant}
    assert rows == {0, 1, 2, 3}
