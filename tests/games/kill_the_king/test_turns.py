"""Rounds, turns and the ends of the game (KK-29, KK-33, KK-38..KK-41, KK-101,
KK-102, KK-107, KK-116..KK-119), as scenarios on the standard board."""

from __future__ import annotations

from throneroom.games.kill_the_king.data import Mode, UnitType
from throneroom.v1 import kill_the_king_pb2 as pb

from tests.games.kill_the_king.positions import END, A, D, Field, N, legal, play

State = pb.KillTheKingState
Move = pb.KillTheKingMove
SW, AR, CA = UnitType.SWORDSMEN, UnitType.ARCHER, UnitType.CAVALRY
DEAD = pb.KillTheKingUnit.STATUS_DEAD


def end_turn(state: State) -> tuple[State, list[pb.KillTheKingEvent]]:
    """End the movement and the attack phase of the side to play."""
    state, first = play(state, END)
    if state.HasField("outcome"):
        return state, first
    assert state.phase == State.PHASE_ATTACK
    state, second = play(state, END)
    return state, first + second


def test_a_round_is_the_attackers_turn_then_the_defenders_each_movement_then_attack() -> None:
    f = Field()
    f.put(SW, A, 1, 3)
    f.put(SW, D, 12, 3)
    state = f.turn(A, 1)
    seen = []
    for _ in range(4):
        seen.append((state.round, state.turn_side, state.phase, state.to_move))
        state, _ = play(state, END)
    assert seen == [
        (1, pb.SIDE_ATTACKER, State.PHASE_MOVEMENT, 0),
        (1, pb.SIDE_ATTACKER, State.PHASE_ATTACK, 0),
        (1, pb.SIDE_DEFENDER, State.PHASE_MOVEMENT, 1),
        (1, pb.SIDE_DEFENDER, State.PHASE_ATTACK, 1),
    ]
    assert (state.round, state.turn_side) == (2, pb.SIDE_ATTACKER)


def test_kill_the_king_ends_after_the_defenders_turn_of_round_11() -> None:
    f = Field()
    f.put(SW, A, 1, 3)
    f.put(SW, D, 12, 3)
    state, _ = end_turn(f.turn(A, 11))
    assert not state.HasField("outcome")
    state, events = end_turn(state)
    assert state.outcome.termination == "king_survived" and list(state.outcome.winners) == [1]
    assert events[-1].game_ended.winning_side == pb.SIDE_DEFENDER
    assert state.phase == State.PHASE_OVER and not legal(state, 0) and not legal(state, 1)


def test_attack_and_defense_ends_after_round_6_the_defender_winning() -> None:
    f = Field(mode=Mode.ATTACK_AND_DEFENSE)
    f.put(SW, A, 1, 3)
    f.put(SW, D, 7, 3)
    f.put(UnitType.KNIGHT, D, 8, 8)
    state, _ = end_turn(f.turn(D, 6))
    assert state.outcome.termination == "breakthrough_failed"


def test_attack_and_defense_leader_dead_and_two_units_through_wins_at_a_turn_end() -> None:
    f = Field(mode=Mode.ATTACK_AND_DEFENSE)
    a1 = f.put(SW, A, 7, 3)
    f.put(SW, A, 8, 5)
    knight = f.put(UnitType.KNIGHT, D, 8, 9)
    f.put(AR, D, 6, 0)
    state = f.turn(A, 3)
    state.units[knight].status = DEAD
    assert not end_turn(state)[0].HasField("outcome")  # one unit on row 8 only
    state, _ = play(state, Move(step=Move.Step(unit=a1, direction=pb.DIRECTION_NORTH)))
    state, _ = end_turn(state)
    assert state.outcome.termination == "leader_and_breakthrough"
    assert list(state.outcome.winners) == [0]


def test_two_units_through_with_the_leader_alive_do_not_win() -> None:
    f = Field(mode=Mode.ATTACK_AND_DEFENSE)
    f.put(SW, A, 8, 3)
    f.put(SW, A, 8, 5)
    f.put(UnitType.KNIGHT, D, 8, 9)
    state, _ = end_turn(f.turn(A, 3))
    assert not state.HasField("outcome")


def test_the_kings_door_destroyed_ends_the_game_at_once() -> None:
    f = Field()
    f.put(SW, A, 14, 4)
    f.put(SW, D, 12, 3)
    state = f.turn(A, 4)
    state.door_destroyed = True
    state, events = play(state, END)
    assert state.outcome.termination == "door" and list(state.outcome.winners) == [0]
    assert events[-1].HasField("game_ended")


def test_a_side_with_no_unit_on_the_field_loses_at_once() -> None:
    f = Field()
    f.put(SW, A, 1, 3)
    dead = f.put(SW, D, 12, 3)
    state = f.turn(A, 2)
    state.units[dead].status = DEAD
    state, _ = play(state, END)
    assert state.outcome.termination == "annihilation" and list(state.outcome.winners) == [0]


# --- KK-102: the Ranger rearmost; KK-101: his death locks the next turn -------------------------


def test_s20_the_ranger_ending_the_turn_rearmost_dies_and_locks_the_next_turn() -> None:
    f = Field()
    ranger = f.put(UnitType.RANGER, A, 0, 3)
    f.put(SW, A, 2, 3)
    f.put(SW, D, 12, 3)
    state, events = end_turn(f.turn(A, 1))
    killed = [e.unit_killed for e in events if e.HasField("unit_killed")]
    assert [(k.unit, k.cause) for k in killed] == [(ranger, pb.CAUSE_REARMOST)]
    assert state.units[ranger].status == DEAD
    state, _ = end_turn(state)  # the defender's turn
    assert state.turn_side == pb.SIDE_ATTACKER and state.movement_locked_now
    assert not any(m.HasField("step") for m in legal(state))
    state, _ = end_turn(state)
    state, _ = end_turn(state)
    assert state.turn_side == pb.SIDE_ATTACKER and not state.movement_locked_now


def test_s20_a_tie_spares_the_ranger() -> None:
    f = Field()
    ranger = f.put(UnitType.RANGER, A, 1, 3)
    f.put(SW, A, 1, 7)
    f.put(SW, D, 12, 3)
    state, _ = end_turn(f.turn(A, 1))
    assert state.units[ranger].status != DEAD


def test_s20_the_defenders_ranger_is_measured_from_its_own_edge() -> None:
    f = Field()
    f.put(SW, A, 1, 3)
    ranger = f.put(UnitType.RANGER, D, 14, 3)
    f.put(SW, D, 12, 3)
    state, _ = end_turn(f.turn(D, 1))
    assert state.units[ranger].status == DEAD


# --- KK-38..KK-41, S13: reinforcements -----------------------------------------------------------


def reinforce(kind: UnitType, row: int, col: int) -> Move:
    return Move(
        reinforce=Move.Reinforce(
            unit=pb.UnitType.ValueType(kind), square=pb.Square(row=row, col=col), facing=N
        )
    )


def test_s13_three_cavalry_alive_three_come_and_eighteen_coins_of_others() -> None:
    f = Field()
    f.put(SW, A, 1, 3)
    for col in (3, 4, 6):
        f.put(CA, D, 12, col)
    state = f.turn(D, 6)
    assert state.phase == State.PHASE_REINFORCEMENT
    assert (state.reinforcement_cavalry, state.reinforcement_value) == (3, 18)
    squares = {(m.reinforce.square.row, m.reinforce.square.col) for m in legal(state)}
    assert squares == {(r, c) for r in range(9, 16) for c in (0, 10)}
    assert {m.reinforce.unit for m in legal(state)} == {pb.UNIT_TYPE_CAVALRY}
    assert END not in legal(state)
    for row in (9, 10, 11):
        state, events = play(state, reinforce(CA, row, 0))
        assert events[0].reinforced.unit.free
    assert END in legal(state)
    offered = {m.reinforce.unit for m in legal(state) if m.HasField("reinforce")}
    # the Cavalry cap (6) is reached: the 18 coins buy other units (KK-39)
    assert offered == {
        pb.UNIT_TYPE_ARCHER,
        pb.UNIT_TYPE_SPEARMEN,
        pb.UNIT_TYPE_SWORDSMEN,
        pb.UNIT_TYPE_CATAPULT,
    }
    state, _ = play(state, reinforce(UnitType.CATAPULT, 12, 0))
    state, _ = play(state, reinforce(AR, 13, 10))
    state, _ = play(state, reinforce(SW, 14, 10))
    assert state.reinforcement_value == 0 and legal(state) == [END]
    state, _ = play(state, END)
    assert state.phase == State.PHASE_MOVEMENT
    assert sum(1 for u in state.units if u.type == pb.UNIT_TYPE_CAVALRY) == 6
    assert 0 in state.reinforced_halves


def test_no_reinforcements_when_an_attacking_leader_is_inside_the_castle() -> None:
    f = Field()
    f.put(UnitType.KNIGHT, A, 11, 4)
    f.put(SW, D, 12, 3)
    assert f.turn(D, 6).phase == State.PHASE_MOVEMENT


def test_a_leader_on_the_wall_is_not_inside() -> None:
    f = Field()
    f.put(UnitType.KNIGHT, A, 9, 4)
    f.put(SW, D, 12, 3)
    state = f.turn(D, 6)
    assert state.phase == State.PHASE_REINFORCEMENT
    assert (state.reinforcement_cavalry, state.reinforcement_value) == (5, 0)


def test_reinforcements_come_once_and_only_in_kill_the_king() -> None:
    f = Field()
    f.put(SW, A, 1, 3)
    f.put(SW, D, 12, 3)
    assert f.turn(D, 5).phase == State.PHASE_MOVEMENT
    assert f.turn(D, 7).phase == State.PHASE_MOVEMENT
    g = Field(mode=Mode.ATTACK_AND_DEFENSE)
    g.put(SW, A, 1, 3)
    g.put(SW, D, 7, 3)
    assert g.turn(D, 6).phase == State.PHASE_MOVEMENT


# --- KK-107: the Knight's penalty lasts for the rest of the turn ---------------------------------


def test_the_defence_penalty_is_cleared_at_the_end_of_the_turn() -> None:
    f = Field()
    f.put(SW, A, 1, 3)
    f.put(SW, D, 12, 3)
    state = f.turn(A, 1)
    state.defence_penalty.append(pb.SIDE_DEFENDER)
    state, _ = end_turn(state)
    assert not state.defence_penalty


def test_both_sides_gone_the_defender_wins() -> None:
    f = Field()
    a = f.put(SW, A, 1, 3)
    d = f.put(SW, D, 12, 3)
    state = f.turn(A, 2)
    state.units[a].status = state.units[d].status = DEAD
    state, _ = play(state, END)
    assert state.outcome.termination == "annihilation" and list(state.outcome.winners) == [1]
