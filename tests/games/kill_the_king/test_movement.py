"""Movement (KK-30..KK-33, KK-42..KK-47, KK-55..KK-57, KK-60, KK-62, KK-76,
KK-89, KK-90, KK-100, KK-101): scenarios on the standard board, played through
the engine's checked apply."""

from __future__ import annotations

import pytest
from throneroom.games.kill_the_king.data import Level, Mode, UnitType
from throneroom.v1 import kill_the_king_pb2 as pb
from throneroom_server.games.core import IllegalMoveError
from throneroom_server.games.kill_the_king import derived

from tests.games.kill_the_king.positions import (
    END,
    A,
    D,
    E,
    Field,
    N,
    S,
    W,
    climb,
    dismount,
    legal,
    play,
    prepare_climb,
    rotate,
    step,
    steps_of,
    walk,
    where,
)

SW, SP, AR, CA, RAM, CAT = (
    UnitType.SWORDSMEN,
    UnitType.SPEARMEN,
    UnitType.ARCHER,
    UnitType.CAVALRY,
    UnitType.BATTERING_RAM,
    UnitType.CATAPULT,
)
GROUND, WALL, STAIRS = int(Level.GROUND), int(Level.WALL), int(Level.STAIRS)


def kinds(state: pb.KillTheKingState) -> set[str]:
    return {str(m.WhichOneof("decision")) for m in legal(state)}


# --- KK-30, S3: steps, movement points, the Ranger's +1 ---------------------------------------


def test_s3_swordsmen_move_three_orthogonal_steps_and_no_more() -> None:
    f = Field()
    sw = f.put(SW, A, 1, 3)
    f.put(AR, D, 12, 3)
    state = walk(f.turn(A), sw, N, N, E)
    assert where(state, sw) == (3, 4, GROUND)
    assert state.units[sw].movement_used == 3
    assert steps_of(state, sw) == set()
    with pytest.raises(IllegalMoveError):
        play(state, step(sw, N))


def test_s3_a_living_ranger_gives_every_other_unit_one_more_step() -> None:
    f = Field()
    sw = f.put(SW, A, 1, 3)
    ranger = f.put(UnitType.RANGER, A, 0, 8)
    f.put(AR, D, 12, 3)
    state = walk(f.turn(A), sw, N, N, N, N)
    assert where(state, sw) == (5, 3, GROUND) and steps_of(state, sw) == set()
    state = walk(state, ranger, *(N,) * 6)
    assert where(state, ranger) == (6, 8, GROUND) and steps_of(state, ranger) == set()


def test_s3_never_through_or_onto_another_unit_of_either_side() -> None:
    f = Field()
    sw = f.put(SW, A, 1, 3)
    f.put(SP, A, 2, 3)
    f.put(AR, D, 1, 4)
    f.put(AR, D, 12, 3)
    state = f.turn(A)
    assert steps_of(state, sw) == {S, W}


def test_moving_another_unit_completes_the_first_ones_move() -> None:
    f = Field()
    a = f.put(SW, A, 1, 3)
    b = f.put(SW, A, 1, 7)
    f.put(AR, D, 12, 3)
    state = walk(f.turn(A), a, N)
    state = walk(state, b, N)
    assert steps_of(state, a) == set()
    assert state.active_unit == b


# --- KK-42, KK-46, KK-60, S6: walls and stairs ---------------------------------------------------


def test_s6_a_unit_on_the_front_wall_leaves_it_only_by_the_corner_stairs() -> None:
    f = Field()
    f.put(AR, A, 0, 0)
    sp = f.put(SW, D, 9, 3)
    state = f.turn(D)
    assert steps_of(state, sp) == {E, W}  # along the wall; never down to (8,3) or (10,3)
    state = walk(state, sp, W)
    assert steps_of(state, sp) == {E, N, W}  # along the wall both ways, up to the stairs (10,2)
    state = walk(state, sp, N)
    assert where(state, sp) == (10, 2, STAIRS)
    assert steps_of(state, sp) == {E, N, S, W}  # castle ground, or back onto the wall


def test_cavalry_and_catapults_never_step_onto_a_wall_space() -> None:
    f = Field()
    f.put(AR, A, 0, 0)
    ca = f.put(CA, D, 10, 2)  # on the corner stairs
    state = f.turn(D)
    assert W not in steps_of(state, ca) and S not in steps_of(state, ca)


# --- KK-55..KK-57, S17: the outer gate --------------------------------------------------------


def test_s17_a_defender_passes_the_gate_and_must_step_on() -> None:
    f = Field()
    f.put(AR, A, 0, 0)
    sw = f.put(SW, D, 10, 5)
    state = walk(f.turn(D), sw, S)
    assert where(state, sw) == (9, 5, GROUND)
    assert kinds(state) == {"step"}  # no end_phase, no other unit while on the passage
    state = walk(state, sw, S)
    assert where(state, sw) == (8, 5, GROUND)
    assert "end_phase" in kinds(state)


def test_s17_no_step_onto_the_passage_without_a_point_to_leave_it() -> None:
    f = Field()
    f.put(AR, A, 0, 0)
    sw = f.put(SW, D, 10, 5)
    state = walk(f.turn(D), sw, W, E)  # 2 of 3 points used
    assert S not in steps_of(state, sw)


def test_s17_attackers_pass_only_once_they_control_the_gate() -> None:
    f = Field()
    sw = f.put(SW, A, 8, 5)
    f.put(AR, D, 14, 3)
    state = f.turn(A)
    assert N not in steps_of(state, sw)
    f.gate_side = A
    assert N in steps_of(f.turn(A), sw)


def test_s17_ending_a_move_above_the_gate_takes_it_and_the_defender_recaptures() -> None:
    f = Field()
    att = f.put(SW, A, 9, 4)  # on the wall next to the gate
    f.put(SW, A, 2, 2)
    dfd = f.put(SW, D, 9, 8)
    state = walk(f.turn(A), att, E)
    assert where(state, att) == (9, 5, WALL)
    state, events = play(state, END)
    assert state.gates[0].controlled_by == pb.SIDE_ATTACKER
    assert any(e.HasField("gate_control_changed") for e in events)
    assert dfd == 2


def test_the_gate_is_recaptured_by_the_defender() -> None:
    f = Field(gate_side=A)
    f.put(SW, A, 2, 2)
    dfd = f.put(SW, D, 9, 7)
    state = walk(f.turn(D), dfd, W, W)
    state, events = play(state, END)
    assert state.gates[0].controlled_by == pb.SIDE_DEFENDER
    assert [
        e.gate_control_changed.controlled_by for e in events if e.HasField("gate_control_changed")
    ] == [pb.SIDE_DEFENDER]


# The rulebook: "A unit's movement must be fully completed before you move another
# unit." and "If an attacking player has a unit standing above the outer gate, it
# controls the gate, which allows any attacking units to move across the tile.
# Defending units may recapture the gate if they end a unit's movement on the wall
# space above the outer gate."


def _gate_events(events: list[pb.KillTheKingEvent]) -> list[str]:
    return [
        str(e.WhichOneof("kind"))
        for e in events
        if e.HasField("gate_control_changed") or e.HasField("stepped")
    ]


def _listings_agree(state: pb.KillTheKingState) -> bool:
    """The fast listing and the rules' reference list the same moves."""
    return derived.movement_keys(state, state.to_move) == derived.reference_keys(
        state, state.to_move
    )


def test_s17_the_next_attacker_passes_the_gate_right_after_one_reaches_the_space_above_it() -> None:
    """KK-56: the attacker above the gate completes its movement when the next
    unit moves, so that very unit may step onto the passage."""
    f = Field()
    above = f.put(SW, A, 9, 4)  # on the wall next to the gate
    below = f.put(SW, A, 8, 5)  # in front of the gate
    f.put(AR, D, 14, 3)
    state = f.turn(A)
    assert N not in steps_of(state, below)  # the gate is the defender's
    state = walk(state, above, E)
    assert where(state, above) == (9, 5, WALL)
    assert state.gates[0].controlled_by == pb.SIDE_DEFENDER  # its movement is not over yet
    assert N in steps_of(state, below) and _listings_agree(state)
    state, events = play(state, step(below, N))
    assert _gate_events(events) == ["gate_control_changed", "stepped"]
    assert events[0].gate_control_changed.controlled_by == pb.SIDE_ATTACKER
    assert state.gates[0].controlled_by == pb.SIDE_ATTACKER
    assert where(state, below) == (9, 5, GROUND)
    state = walk(state, below, N)
    assert where(state, below) == (10, 5, GROUND)  # across the gate's tile, in the castle


def test_s17_an_attacker_that_walks_on_past_the_gate_does_not_open_it() -> None:
    """KK-56: only a movement that ends above the gate takes it."""
    f = Field()
    wall = f.put(SW, A, 9, 4)
    below = f.put(SW, A, 8, 5)
    f.put(AR, D, 14, 3)
    state = walk(f.turn(A), wall, E, E)
    assert where(state, wall) == (9, 6, WALL)
    assert N not in steps_of(state, below) and _listings_agree(state)
    state = walk(state, wall, W)  # back above the gate: the passage opens again
    assert N in steps_of(state, below) and _listings_agree(state)


def test_s17_a_defender_retakes_the_gate_when_its_next_unit_moves() -> None:
    """KK-56: the defender's unit ends its movement above the gate when the next
    defending unit moves; the gate is the defender's from then on, and the
    attacker's next turn finds it closed."""
    f = Field(gate_side=A)
    attacker = f.put(SW, A, 8, 5)
    dfd = f.put(SW, D, 9, 7)
    other = f.put(SW, D, 12, 3)
    state = walk(f.turn(D), dfd, W, W)
    assert where(state, dfd) == (9, 5, WALL)
    assert state.gates[0].controlled_by == pb.SIDE_ATTACKER
    state, events = play(state, step(other, N))
    assert _gate_events(events) == ["gate_control_changed", "stepped"]
    assert events[0].gate_control_changed.controlled_by == pb.SIDE_DEFENDER
    assert state.gates[0].controlled_by == pb.SIDE_DEFENDER
    state, _ = play(state, END)  # to the attack phase
    state, _ = play(state, END)  # the attacker's turn
    assert state.turn_side == pb.SIDE_ATTACKER
    assert N not in steps_of(state, attacker)


# --- KK-44, KK-45, S7..S9, S12: climbing ---------------------------------------------------------


def test_s9_climbing_an_empty_wall_costs_one_point_then_along_the_wall() -> None:
    f = Field()
    sw = f.put(SW, A, 8, 3)
    f.put(AR, D, 14, 3)
    state = f.turn(A)
    assert climb(sw, N) in legal(state)
    state, events = play(state, climb(sw, N))
    assert where(state, sw) == (9, 3, WALL)
    assert [e.climbed.unit for e in events if e.HasField("climbed")] == [sw]
    assert state.units[sw].movement_used == 1
    state = walk(state, sw, E, E)
    assert where(state, sw) == (9, 5, WALL)


def test_only_a_unit_that_has_not_moved_this_turn_climbs() -> None:
    f = Field()
    sw = f.put(SW, A, 7, 3)
    f.put(AR, D, 14, 3)
    state = walk(f.turn(A), sw, N)
    assert where(state, sw) == (8, 3, GROUND)
    assert not any(m.HasField("climb") for m in legal(state))


def test_an_archer_climbs_an_empty_wall_but_has_no_climbing_attack() -> None:
    f = Field()
    ar = f.put(AR, A, 8, 3)
    f.put(SW, D, 9, 4)
    state = f.turn(A)
    climbs = {(m.climb.unit, m.climb.direction) for m in legal(state) if m.HasField("climb")}
    assert climbs == {(ar, pb.DIRECTION_NORTH)}
    assert not any(m.HasField("prepare_climb") for m in legal(state))


def test_cavalry_never_climb_but_dismounted_they_do_s12() -> None:
    f = Field()
    ca = f.put(CA, A, 8, 3)
    f.put(AR, D, 14, 3)
    state = f.turn(A)
    assert climb(ca, N) not in legal(state) and dismount(ca) in legal(state)
    state, events = play(state, dismount(ca))
    u = state.units[ca]
    assert u.type == pb.UNIT_TYPE_SWORDSMEN and u.dismounted
    assert events[0].flipped.by_choice and dismount(ca) not in legal(state)
    state, _ = play(state, climb(ca, N))
    assert where(state, ca) == (9, 3, WALL)


def test_dismounting_keeps_the_points_used_at_swordsmen_movement() -> None:
    f = Field()
    ca = f.put(CA, A, 1, 3)
    f.put(AR, D, 14, 3)
    state = walk(f.turn(A), ca, N, N, N)
    state, _ = play(state, dismount(ca))
    assert steps_of(state, ca) == set()  # 3 used of a Swordsmen's 3


def test_s7_s8_a_climbing_attack_is_the_units_attack_of_the_turn() -> None:
    for seed in range(12):
        f = Field()
        sw = f.put(SW, A, 8, 3)
        target = f.put(SP, D, 9, 3, S)
        state = f.turn(A)
        state.rng.state ^= seed  # a different die each time
        state, events = play(state, climb(sw, N))
        assert any(e.attacked.climbing for e in events if e.HasField("attacked"))
        u = state.units[sw]
        assert u.attacked and steps_of(state, sw) == set()
        if state.units[target].status == pb.KillTheKingUnit.STATUS_DEAD:
            assert where(state, sw) == (9, 3, WALL)
        else:
            assert where(state, sw) == (8, 3, GROUND)
        if state.HasField("outcome"):
            continue
        state, _ = play(state, END)
        assert not any(m.attack.unit == sw for m in legal(state) if m.HasField("attack"))


def test_prepare_climb_ends_the_units_movement_and_waits_for_the_attack_phase() -> None:
    f = Field()
    sw = f.put(SW, A, 8, 3)
    f.put(SP, D, 9, 3, S)
    state = f.turn(A)
    state, events = play(state, prepare_climb(sw, N))
    assert events[0].climb_prepared.wall == pb.Square(row=9, col=3)
    assert state.units[sw].climb == pb.DIRECTION_NORTH and steps_of(state, sw) == set()
    assert not any(m.HasField("climb") for m in legal(state))
    state, _ = play(state, END)
    attacks = [m for m in legal(state) if m.HasField("attack") and m.attack.unit == sw]
    assert [(m.attack.target.row, m.attack.target.col) for m in attacks] == [(9, 3)]


def test_prepare_climb_needs_an_enemy_on_the_wall() -> None:
    f = Field()
    f.put(SW, A, 8, 3)
    f.put(SP, A, 9, 3)
    f.put(AR, D, 14, 3)
    state = f.turn(A)
    assert not any(m.HasField("prepare_climb") or m.HasField("climb") for m in legal(state))


# --- KK-89, KK-90: the Battering Ram ----------------------------------------------------------


def test_an_infantry_steps_onto_an_unmanned_ram_and_mans_it_its_move_ends() -> None:
    f = Field()
    ram = f.put(RAM, A, 2, 3)
    sw = f.put(SW, A, 1, 3)
    f.put(AR, D, 14, 3)
    state = f.turn(A)
    assert not steps_of(state, ram)  # unmanned: it does not move
    state, events = play(state, step(sw, N))
    assert events[0].manned == pb.KillTheKingEvent.Manned(crew=sw, engine=ram)
    assert state.units[sw].carried_by == ram and where(state, sw)[:2] == (2, 3)
    assert steps_of(state, sw) == set()
    state = walk(state, ram, N, N, N)  # manned the same turn, it moves
    assert where(state, ram)[:2] == where(state, sw)[:2] == (5, 3)


def test_cavalry_and_leaders_do_not_man_a_ram() -> None:
    f = Field()
    f.put(RAM, A, 2, 3)
    ca = f.put(CA, A, 1, 3)
    kn = f.put(UnitType.KNIGHT, A, 2, 2)
    f.put(AR, D, 14, 3)
    state = f.turn(A)
    assert N not in steps_of(state, ca) and E not in steps_of(state, kn)


def test_the_crew_steps_off_only_before_any_other_unit_of_its_side_moved() -> None:
    f = Field()
    ram = f.put(RAM, A, 2, 3)
    crew = f.put(SW, A, 2, 3, crew_of=0)
    other = f.put(SW, A, 0, 8)
    f.put(AR, D, 14, 3)
    state = f.turn(A)
    assert steps_of(state, crew) == {N, E, S, W}
    moved = walk(state, other, N)
    assert steps_of(moved, crew) == set()
    state, events = play(state, step(crew, E))
    assert events[0].unmanned == pb.KillTheKingEvent.Unmanned(crew=crew, engine=ram)
    assert state.units[crew].carried_by == -1 and where(state, crew)[:2] == (2, 4)


def test_a_defender_crew_moves_the_attackers_ram() -> None:
    f = Field()
    ram = f.put(RAM, A, 8, 3)
    sw = f.put(SW, D, 8, 4)
    f.put(AR, A, 0, 0)
    state = walk(f.turn(D), sw, W)
    assert state.units[sw].carried_by == ram
    state = walk(state, ram, S)
    assert where(state, ram)[:2] == (7, 3)


# --- KK-101: the Ranger's death locks the side's movement ------------------------------------


def test_a_locked_side_only_rotates_and_the_catapult_rotates_free() -> None:
    f = Field()
    f.put(SW, A, 1, 3)
    cat = f.put(CAT, A, 1, 6)
    f.put(AR, D, 14, 3)
    state = f.state()
    state.seats[0].movement_locked = True
    state.round = 0
    from throneroom_server.games.kill_the_king.turns import start_turn

    start_turn(state, A, [])
    assert state.movement_locked_now and not state.seats[0].movement_locked
    assert kinds(state) == {"rotate", "end_phase"}
    state, events = play(state, rotate(cat, E))
    assert events[0].rotated.cost == 0 and not state.units[cat].moved


# --- KK-8: Attack and Defense plays on the green rows only -------------------------------------


def test_attack_and_defense_units_never_step_onto_the_castle_rows() -> None:
    f = Field(mode=Mode.ATTACK_AND_DEFENSE)
    f.put(AR, A, 0, 0)
    sw = f.put(SW, D, 8, 3)
    state = f.turn(D)
    assert steps_of(state, sw) == {E, S, W}
    assert not state.gates


# --- KK-32, KK-60: levels and stairs --------------------------------------------------------------


def test_a_unit_above_the_gate_and_one_passing_beneath_do_not_block_each_other() -> None:
    f = Field()
    f.put(SW, D, 9, 5)  # above the gate
    below = f.put(SW, D, 10, 5)
    f.put(AR, A, 0, 0)
    state = walk(f.turn(D), below, S, S)
    assert where(state, below) == (8, 5, GROUND)


def test_a_unit_on_the_stairs_holds_both_levels() -> None:
    f = Field()
    f.put(SW, D, 10, 2)  # corner stairs
    on_wall = f.put(SW, D, 9, 2)
    on_ground = f.put(SW, D, 11, 2)
    f.put(AR, A, 0, 0)
    state = f.turn(D)
    assert N not in steps_of(state, on_wall) and S not in steps_of(state, on_ground)


def test_an_immobile_catapult_on_the_wall_never_steps_but_turns() -> None:
    f = Field()
    f.put(AR, A, 0, 0)
    cat = f.put(CAT, D, 9, 3)
    state = f.turn(D)
    state.units[cat].immobile = True
    assert steps_of(state, cat) == set()
    state, events = play(state, rotate(cat, S))
    assert events[0].rotated.cost == 1


def test_a_cavalry_on_the_gates_passage_steps_on_before_it_may_dismount() -> None:
    f = Field()
    f.put(AR, A, 0, 0)
    ca = f.put(CA, D, 12, 5)
    state = walk(f.turn(D), ca, S, S, S)  # 3 of 5 points: onto the passage (9, 5)
    assert where(state, ca) == (9, 5, GROUND)
    assert kinds(state) == {"step"}
    state = walk(state, ca, S)
    assert dismount(ca) in legal(state)
