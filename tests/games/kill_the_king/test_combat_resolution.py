"""Resolving an attack (docs/rules/kill_the_king.md KK-35..KK-37, KK-73, KK-77,
KK-92, KK-101, KK-107): the hit die, the save on the face hit, kills and flips,
every die an event with its purpose, the leaders' deaths."""

from __future__ import annotations

import pytest
from throneroom.games.kill_the_king.data import Face, UnitType
from throneroom.v1 import common_pb2
from throneroom.v1 import kill_the_king_pb2 as pb
from throneroom_server.games.kill_the_king.combat import (
    IllegalAttack,
    apply_attack,
    attack_moves,
    kill_unit,
)
from throneroom_server.games.rng import Rng, seed_rng

from tests.games.kill_the_king.combat_positions import (
    A,
    D,
    Dice,
    E,
    Event,
    N,
    S,
    attack,
    attacked,
    dice_rolled,
    field,
    killed,
    kinds,
    position,
    unit,
)

ARCHER, SPEARMEN, SWORDSMEN = UnitType.ARCHER, UnitType.SPEARMEN, UnitType.SWORDSMEN
CAVALRY, RAM, CATAPULT = UnitType.CAVALRY, UnitType.BATTERING_RAM, UnitType.CATAPULT
KNIGHT, RANGER = UnitType.KNIGHT, UnitType.RANGER
HIT, SAVE = pb.DIE_PURPOSE_HIT, pb.DIE_PURPOSE_SAVE
DEAD, ON_FIELD = pb.KillTheKingUnit.STATUS_DEAD, pb.KillTheKingUnit.STATUS_ON_FIELD


def play(  # noqa: PLR0917 (a test's one call shape)
    state: pb.KillTheKingState, seat: int, unit_id: int, row: int, col: int, dice: Dice
) -> list[Event]:
    events: list[Event] = []
    apply_attack(state, field(state), seat, attack(unit_id, row, col), dice, events)
    assert dice.left == [], "every die the test gave is rolled"
    return events


def spearmen_on_the_side() -> pb.KillTheKingState:
    return position(unit(SWORDSMEN, A, 4, 4, N), unit(SPEARMEN, D, 5, 4, E))


def test_s4_spearmen_hit_on_the_side_save_on_2() -> None:
    """S4 (KK-35, KK-36): a hit on a Spearmen's side needs a save of 2 or lower."""
    state = spearmen_on_the_side()
    events = play(state, 0, 0, 5, 4, Dice(3, 2))
    assert kinds(events) == ["attacked", "die_rolled", "die_rolled", "unit_saved"]
    hit, save = dice_rolled(events)
    assert (hit.purpose, hit.seat, hit.value, hit.needed, hit.success) == (HIT, 0, 3, 3, True)
    assert (hit.unit, hit.target_unit, hit.target.row, hit.target.col) == (0, 1, 5, 4)
    assert (save.purpose, save.seat, save.value, save.needed) == (SAVE, 1, 2, 2)
    assert save.face == Face.RIGHT and save.success
    assert events[-1].unit_saved == Event.UnitSaved(unit=1, face=pb.FACE_RIGHT)
    assert state.units[1].status == ON_FIELD and state.units[0].attacked


def test_a_failed_save_kills() -> None:
    state = spearmen_on_the_side()
    events = play(state, 0, 0, 5, 4, Dice(1, 3))
    assert killed(events) == [(1, pb.CAUSE_ATTACK)]
    assert events[-1].unit_killed.by_unit == 0
    assert state.units[1].status == DEAD


def test_a_miss_rolls_no_save() -> None:
    """KK-35: the die must be at most the attack value; a miss ends the attack."""
    state = spearmen_on_the_side()
    events = play(state, 0, 0, 5, 4, Dice(4))
    assert [d.success for d in dice_rolled(events)] == [False]
    assert state.units[1].status == ON_FIELD and state.units[0].attacked


def test_the_attacked_event_lists_value_and_modifiers() -> None:
    """KK-37: the attack's value, its base and each modifier are an event."""
    state = position(
        unit(ARCHER, A, 7, 4, N), unit(SWORDSMEN, D, 10, 4, S), unit(KNIGHT, A, 7, 3, N)
    )
    event = attacked(play(state, 0, 0, 10, 4, Dice(6)))
    assert (event.unit, event.base_value, event.value) == (0, 3, 3)
    assert list(event.modifiers) == [pb.ATTACK_MODIFIER_KNIGHT, pb.ATTACK_MODIFIER_OVER_WALL]
    assert list(event.modifier_values) == [1, -1]
    assert list(event.target_units) == [1] and not event.climbing


def test_cavalry_flips_to_swordsmen_instead_of_dying() -> None:
    """KK-35, KK-77: a Cavalry that fails its save turns to its Swordsmen side in
    place, same facing."""
    state = position(unit(SWORDSMEN, D, 5, 4, S), unit(CAVALRY, A, 4, 4, E), turn=D)
    events = play(state, 1, 0, 4, 4, Dice(1, 6))
    assert kinds(events)[-1] == "flipped" and killed(events) == []
    assert events[-1].flipped == Event.Flipped(unit=1, by_choice=False)
    cavalry = state.units[1]
    assert (cavalry.type, cavalry.dismounted, cavalry.status) == (SWORDSMEN, True, ON_FIELD)
    assert cavalry.facing == pb.DIRECTION_EAST
    save = dice_rolled(events)[1]
    assert (save.face, save.needed) == (pb.FACE_LEFT, 3), "hit from the north: its left"


def test_a_dismounted_cavalry_dies() -> None:
    state = position(unit(SWORDSMEN, D, 5, 4, S), unit(CAVALRY, A, 4, 4, N), turn=D)
    state.units[1].type = pb.UNIT_TYPE_SWORDSMEN
    state.units[1].dismounted = True
    events = play(state, 1, 0, 4, 4, Dice(1, 6))
    assert killed(events) == [(1, pb.CAUSE_ATTACK)]


def test_spearmen_front_defence_5_against_cavalry_not_as_a_crew() -> None:
    """KK-73: front 5 against a Cavalry's attack; not while manning a Battering Ram
    (KK-92: the crew defends the Ram with its own values, 4 in front)."""
    state = position(unit(CAVALRY, A, 4, 4, N), unit(SPEARMEN, D, 5, 4, S))
    events = play(state, 0, 0, 5, 4, Dice(2, 5))
    assert dice_rolled(events)[1].needed == 5 and dice_rolled(events)[1].success
    crewed = position(
        unit(CAVALRY, A, 4, 4, N),
        unit(RAM, A, 5, 4, S),
        unit(SPEARMEN, D, 5, 4, S, crew_of=1),
    )
    events = play(crewed, 0, 0, 5, 4, Dice(2, 5))
    hit, save = dice_rolled(events)
    assert (hit.target_unit, save.target_unit, save.seat, save.needed) == (1, 2, 1, 4)
    assert killed(events) == [(2, pb.CAUSE_CREW_OF_RAM)]
    assert crewed.units[1].status == ON_FIELD and crewed.units[2].carried_by == -1
    assert crewed.follow_up == pb.KillTheKingFollowUp(), "no double attack against a Ram"


def test_an_unmanned_ram_has_defence_0() -> None:
    """KK-92: an unmanned Ram's save needs 0 (rolled and shown, never saved); it is
    destroyed. A manned Ram loses its crew and stays."""
    state = position(
        unit(SWORDSMEN, D, 5, 4, S),
        unit(RAM, A, 4, 4, N),
        unit(SWORDSMEN, D, 5, 5, S),
        unit(RAM, A, 4, 5, N),
        unit(ARCHER, A, 4, 5, N, crew_of=3),
        turn=D,
    )
    events = play(state, 1, 0, 4, 4, Dice(3, 1))
    save = dice_rolled(events)[1]
    assert (save.needed, save.success) == (0, False)
    assert killed(events) == [(1, pb.CAUSE_ATTACK)]
    events = play(state, 1, 2, 4, 5, Dice(3, 2))
    assert dice_rolled(events)[1].needed == 1, "the Archer crew's front: 1"
    assert killed(events) == [(4, pb.CAUSE_CREW_OF_RAM)]
    assert state.units[3].status == ON_FIELD


def test_knight_death_costs_his_side_one_defence_point_for_the_turn() -> None:
    """KK-107: the Knight killed, his side defends at -1 on every face, never below
    0, at once: the Spearmen's second target saves at -1 in the same attack."""
    state = position(
        unit(SPEARMEN, A, 4, 4, N),  # 0
        unit(KNIGHT, D, 5, 4, S),  # 1
        unit(SWORDSMEN, D, 6, 4, S),  # 2
        unit(ARCHER, A, 3, 6, N),  # 3
        unit(ARCHER, D, 6, 6, N),  # 4: hit in the back: 0, stays 0
    )
    events = play(state, 0, 0, 5, 4, Dice(1, 5, 1, 3))
    assert kinds(events)[3:5] == ["unit_killed", "defence_penalty"]
    assert events[4].defence_penalty.side == pb.SIDE_DEFENDER
    assert list(state.defence_penalty) == [pb.SIDE_DEFENDER]
    saves = [d for d in dice_rolled(events) if d.purpose == SAVE]
    assert [(d.needed, d.success) for d in saves] == [(4, False), (2, False)]
    events = play(state, 0, 3, 6, 6, Dice(1, 1))
    assert dice_rolled(events)[1].needed == 0


def test_ranger_death_locks_his_sides_movement() -> None:
    """S20's death part (KK-101): the Ranger killed, his side's seats are locked for
    their next turn (the engine lifts the lock after it)."""
    state = position(unit(SWORDSMEN, D, 5, 4, S), unit(RANGER, A, 4, 4, N), turn=D)
    events = play(state, 1, 0, 4, 4, Dice(1, 6))
    assert kinds(events)[-2:] == ["unit_killed", "movement_locked"]
    assert events[-1].movement_locked.seat == 0
    assert state.seats[0].movement_locked and not state.seats[1].movement_locked


def test_kill_unit_refuses_the_dead_and_a_tower_takes_its_crew() -> None:
    """kill_unit is the one way to die: a unit dies once; KK-98: a Siege Tower's
    crew dies with it."""
    state = position(
        unit(UnitType.SIEGE_TOWER, A, 4, 4, N),
        unit(SWORDSMEN, A, 4, 4, N, crew_of=0),
    )
    events: list[Event] = []
    kill_unit(state, state.units[0], pb.CAUSE_ATTACK, -1, events)
    assert killed(events) == [(0, pb.CAUSE_ATTACK), (1, pb.CAUSE_TOWER_DESTROYED)]
    with pytest.raises(ValueError, match="not on the field"):
        kill_unit(state, state.units[1], pb.CAUSE_ATTACK, -1, events)


def test_an_attack_not_offered_is_refused() -> None:
    state = spearmen_on_the_side()
    with pytest.raises(IllegalAttack):
        play(state, 0, 0, 6, 4, Dice())
    with pytest.raises(IllegalAttack):
        play(state, 1, 0, 5, 4, Dice())
    play(state, 0, 0, 5, 4, Dice(6))
    with pytest.raises(IllegalAttack):
        play(state, 0, 0, 5, 4, Dice())


def test_dice_come_from_the_state_rng_and_replay() -> None:
    """KK-37: the same state and RNG give the same events and state; each die
    drawn is one DieRolled event."""

    def run() -> tuple[pb.KillTheKingState, list[Event]]:
        state = position(
            unit(CATAPULT, A, 2, 5, N),
            *(unit(SWORDSMEN, D, 6, c, S) for c in (4, 5, 6)),
            unit(SWORDSMEN, D, 7, 5, S),
            unit(SWORDSMEN, D, 5, 5, S),
        )
        seed_rng(state.rng, 20240601)
        events: list[Event] = []
        apply_attack(state, field(state), 0, attack(0, 6, 5), Rng(state.rng), events)
        return state, events

    (first, events), (second, again) = run(), run()
    assert first == second and events == again
    assert len(dice_rolled(events)) == 5
    rng = common_pb2.RngState()
    seed_rng(rng, 20240601)
    draws = Rng(rng)
    assert [d.value for d in dice_rolled(events)] == [draws.below(6) + 1 for _ in range(5)]
    assert first.rng == rng
    assert attack_moves(first, field(first), 0) == []
