"""The Treasurer and the Engineer (KK-103..KK-105, KK-108, KK-132): the
Treasurer's removals as decisions of his seat, his flight, the Engineer's
help to moved engines and the engines lost with him."""

from __future__ import annotations

from throneroom.games.kill_the_king.data import UnitType
from throneroom.v1 import kill_the_king_pb2 as pb
from throneroom_server.games.kill_the_king.combat import apply_attack, attack_moves, kill_unit

from tests.games.kill_the_king.combat_positions import (
    A,
    D,
    Dice,
    Event,
    Move,
    N,
    S,
    attack,
    field,
    killed,
    position,
    targets,
    unit,
)
from tests.games.kill_the_king.positions import END, Field, legal, play
from tests.games.kill_the_king.test_combat_through_the_engine import GAME, first_seed

State = pb.KillTheKingState
DEAD, ON_FIELD = pb.KillTheKingUnit.STATUS_DEAD, pb.KillTheKingUnit.STATUS_ON_FIELD
SWORDSMEN, ARCHER, PEASANT = UnitType.SWORDSMEN, UnitType.ARCHER, UnitType.PEASANT
CAVALRY, CATAPULT, BALLISTA = UnitType.CAVALRY, UnitType.CATAPULT, UnitType.BALLISTA
TREASURER, ENGINEER, RANGER, KNIGHT = (
    UnitType.TREASURER,
    UnitType.ENGINEER,
    UnitType.RANGER,
    UnitType.KNIGHT,
)


def disband(uid: int) -> Move:
    return Move(disband=Move.Disband(unit=uid))


def treasurer_under_attack() -> State:
    return position(
        unit(SWORDSMEN, A, 4, 4, N),  # 0
        unit(TREASURER, D, 5, 4, S),  # 1
        unit(PEASANT, D, 7, 0, S),  # 2
        unit(PEASANT, D, 7, 1, S),  # 3
        unit(ARCHER, D, 7, 5, S),  # 4
        unit(CAVALRY, D, 7, 7, S),  # 5
        unit(SWORDSMEN, D, 7, 9, S),  # 6
        unit(RANGER, A, 0, 0, N),  # 7
    )


def test_the_treasurer_killed_takes_the_peasants_then_his_seat_removes_12_coins() -> None:
    """KK-104: every Peasant at once; then the seat removes units of its choice,
    one decision each, until 12 coins or more (an Archer, 3, then a Cavalry, 9)."""
    state = treasurer_under_attack()
    after, events = first_seed(state, 0, attack(0, 5, 4), lambda s, _: s.units[1].status == DEAD)
    assert killed(events) == [
        (1, pb.CAUSE_ATTACK),
        (2, pb.CAUSE_DISBANDED),
        (3, pb.CAUSE_DISBANDED),
    ]
    assert after.phase == State.PHASE_DISBAND and after.to_move == 1
    assert after.resume_phase == State.PHASE_ATTACK
    assert after.seats[1].disband_value_left == 12
    assert GAME.legal_moves(after, 1) == [disband(4), disband(5), disband(6)]
    after, events = GAME.apply(after, 1, disband(4))
    assert killed(list(events)) == [(4, pb.CAUSE_DISBANDED)]
    assert after.phase == State.PHASE_DISBAND and after.seats[1].disband_value_left == 9
    after, _ = GAME.apply(after, 1, disband(5))
    assert after.phase == State.PHASE_ATTACK and after.to_move == 0
    assert after.seats[1].disband_value_left == 0
    assert after.units[6].status == ON_FIELD


def test_removals_stop_when_nothing_is_left() -> None:
    """KK-104: a seat with less than 12 coins of units removes them all."""
    state = position(
        unit(SWORDSMEN, A, 4, 4, N),
        unit(TREASURER, D, 5, 4, S),
        unit(ARCHER, D, 7, 5, S),
        unit(KNIGHT, A, 0, 0, N),
    )
    state.units[1].type = pb.UNIT_TYPE_TREASURER
    after, _ = first_seed(state, 0, attack(0, 5, 4), lambda s, _: s.units[1].status == DEAD)
    assert GAME.legal_moves(after, 1) == [disband(2)]
    after, _ = GAME.apply(after, 1, disband(2))
    # the defender has nothing left on the field: the attacker wins (KK-118)
    assert after.phase == State.PHASE_OVER


def test_the_treasurer_ending_his_turn_alone_runs_away() -> None:
    """KK-105: counted as killed (TREASURER_FLED), with the Peasants' removal."""
    board = Field()
    board.put(TREASURER, D, 12, 5, N)  # 0: alone
    board.put(PEASANT, D, 13, 6, N)  # 1: diagonal: not adjacent
    board.put(SWORDSMEN, D, 10, 3, N)  # 2
    board.put(RANGER, A, 0, 5, N)  # 3
    board.put(SWORDSMEN, A, 0, 6, N)  # 4
    state = board.turn(D, 1)
    state, _ = play(state, END)
    state, events = play(state, END)
    assert killed(list(events))[:2] == [(0, pb.CAUSE_TREASURER_FLED), (1, pb.CAUSE_DISBANDED)]
    assert state.phase == State.PHASE_DISBAND and state.to_move == 1
    assert state.resume_phase == State.PHASE_MOVEMENT and state.turn_side == pb.SIDE_ATTACKER
    state, _ = play(state, disband(2))
    assert state.phase == State.PHASE_OVER  # nothing of the defender's is left


def test_a_treasurer_with_a_friend_next_to_him_stays() -> None:
    board = Field()
    board.put(TREASURER, D, 12, 5, N)
    board.put(SWORDSMEN, D, 12, 6, N)  # adjacent
    board.put(RANGER, A, 0, 5, N)
    board.put(SWORDSMEN, A, 0, 6, N)
    state = board.turn(D, 1)
    state, _ = play(state, END)
    state, events = play(state, END)
    assert killed(list(events)) == []
    assert state.phase == State.PHASE_MOVEMENT and state.turn_side == pb.SIDE_ATTACKER


def test_a_lone_attacking_treasurer_runs_at_the_end_of_the_attackers_turn() -> None:
    board = Field()
    board.put(TREASURER, A, 4, 5, N)  # 0
    board.put(SWORDSMEN, A, 0, 0, N)  # 1
    board.put(KNIGHT, D, 12, 5, N)  # 2
    state = board.turn(A, 1)
    state, _ = play(state, END)
    state, events = play(state, END)
    assert (0, pb.CAUSE_TREASURER_FLED) in killed(list(events))
    assert state.phase == State.PHASE_DISBAND and state.to_move == 0
    assert legal(state) == [disband(1)]


# --- the Engineer (KK-108) -------------------------------------------------------------------


def test_a_moved_ballista_or_catapult_attacks_next_to_its_engineer() -> None:
    target = unit(SWORDSMEN, D, 7, 4, S)
    for engine in (CATAPULT, BALLISTA):
        alone = position(unit(engine, A, 3, 4, N, moved=True), target)
        assert targets(attack_moves(alone, field(alone), 0)) == []
        helped = position(unit(engine, A, 3, 4, N, moved=True), target, unit(ENGINEER, A, 3, 5, N))
        assert {t[0] for t in targets(attack_moves(helped, field(helped), 0))} == {0}
        diagonal = position(
            unit(engine, A, 3, 4, N, moved=True), target, unit(ENGINEER, A, 2, 5, N)
        )
        assert targets(attack_moves(diagonal, field(diagonal), 0)) == []


def test_the_engineer_killed_destroys_every_friendly_siege_engine() -> None:
    """KK-108: the Catapult, the Ballista and the Ram are destroyed at once
    (ENGINEER_DIED); the Ram's crew stays on foot; the enemy's engines stay."""
    state = position(
        unit(ENGINEER, A, 2, 2, N),  # 0
        unit(CATAPULT, A, 1, 1, N),  # 1
        unit(BALLISTA, A, 1, 3, N),  # 2
        unit(UnitType.BATTERING_RAM, A, 1, 5, N),  # 3
        unit(SWORDSMEN, A, 1, 5, N, crew_of=3),  # 4
        unit(CATAPULT, D, 12, 2, S),  # 5
    )
    events: list[Event] = []
    kill_unit(state, state.units[0], pb.CAUSE_ATTACK, -1, events)
    assert killed(events) == [
        (0, pb.CAUSE_ATTACK),
        (1, pb.CAUSE_ENGINEER_DIED),
        (2, pb.CAUSE_ENGINEER_DIED),
        (3, pb.CAUSE_ENGINEER_DIED),
    ]
    assert state.units[4].status == ON_FIELD and state.units[4].carried_by == -1
    assert state.units[5].status == ON_FIELD


def test_the_engineer_dies_in_combat_and_his_engines_with_him() -> None:
    state = position(
        unit(SWORDSMEN, D, 5, 4, S),  # 0
        unit(ENGINEER, A, 4, 4, N),  # 1
        unit(BALLISTA, A, 2, 2, N),  # 2
        unit(KNIGHT, D, 12, 5, N),  # 3
        unit(SWORDSMEN, A, 0, 0, N),  # 4
        turn=D,
    )
    events: list[Event] = []
    apply_attack(state, field(state), 1, attack(0, 4, 4), Dice(1, 6), events)
    assert killed(events) == [(1, pb.CAUSE_ATTACK), (2, pb.CAUSE_ENGINEER_DIED)]
