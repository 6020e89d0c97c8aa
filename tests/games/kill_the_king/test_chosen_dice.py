"""Kill the King's dice as chosen chance outcomes (kit.chance): each die is a
chance step of six outcomes, and a test may choose its faces instead of
looking for a seed. The rule (RULES-NOTES, KK-35): a hit is a d6 roll at most
the attack value, then the defender saves with a d6 roll at most the
defence value of the face that was hit."""

from __future__ import annotations

from fractions import Fraction

import pytest
from throneroom.games.kill_the_king.data import UnitType
from throneroom.v1 import kill_the_king_pb2 as pb
from throneroom_server.games.kit import ChanceNeeded, Recorder, Scripted
from throneroom_server.games.kit.chance import explore, outcome_tree
from throneroom_server.games.registry import build_registry
from throneroom_server.games.rng import seed_rng

from tests.games.kill_the_king.combat_positions import (
    A,
    D,
    N,
    S,
    attack,
    dice_rolled,
    position,
    unit,
)

GAME = build_registry()["kill_the_king"]
State = pb.KillTheKingState
DEAD = pb.KillTheKingUnit.STATUS_DEAD


def duel() -> State:
    """Attacker Swordsmen (id 0) facing defender Swordsmen (id 1), leaders far away."""
    return position(
        unit(UnitType.SWORDSMEN, A, 4, 4, N),
        unit(UnitType.SWORDSMEN, D, 5, 4, S),
        unit(UnitType.RANGER, A, 0, 0, N),
        unit(UnitType.KNIGHT, D, 12, 5, N),
    )


def face(value: int) -> int:
    """The outcome index of a die's face (outcome i is face i + 1)."""
    return value - 1


def needs() -> tuple[int, int]:
    """The attack's hit value and the defence's save value, read from the dice
    it rolls when the hit succeeds (faces 1 and 6: hit, then no save)."""
    _, events = GAME.apply(duel(), 0, attack(0, 5, 4), chance=Scripted([face(1), face(6)]))
    hit, save = dice_rolled(events)
    return hit.needed, save.needed


def test_the_first_chance_node_of_an_attack_is_its_hit_die_with_six_outcomes() -> None:
    found = explore(lambda c: GAME.apply(duel(), 0, attack(0, 5, 4), chance=c))
    assert found.step is not None and found.step.name == "die:hit"
    assert [o.label for o in found.step.outcomes] == ["1", "2", "3", "4", "5", "6"]
    assert sum(o.probability for o in found.step.outcomes) == 1
    assert GAME.max_chance_outcomes == 6


def test_a_roll_equal_to_the_attack_value_hits_and_a_failed_save_kills() -> None:
    hit, save = needs()
    assert 1 <= hit < 6 and 1 <= save < 6
    after, events = GAME.apply(
        duel(), 0, attack(0, 5, 4), chance=Scripted([face(hit), face(save + 1)])
    )
    rolled = dice_rolled(events)
    assert [(d.value, d.success) for d in rolled] == [(hit, True), (save + 1, False)]
    assert after.units[1].status == DEAD


def test_a_roll_equal_to_the_defence_value_saves() -> None:
    hit, save = needs()
    after, events = GAME.apply(duel(), 0, attack(0, 5, 4), chance=Scripted([face(hit), face(save)]))
    assert [(d.value, d.success) for d in dice_rolled(events)] == [(hit, True), (save, True)]
    assert after.units[1].status != DEAD


def test_a_roll_above_the_attack_value_misses_and_no_save_is_rolled() -> None:
    hit, _ = needs()
    script = Scripted([face(hit + 1)])
    after, events = GAME.apply(duel(), 0, attack(0, 5, 4), chance=script)
    assert [(d.value, d.success) for d in dice_rolled(events)] == [(hit + 1, False)]
    assert after.units[1].status != DEAD
    script.done()


def test_the_kill_probability_is_exact_over_the_listed_outcomes() -> None:
    hit, save = needs()
    leaves = outcome_tree(lambda c: GAME.apply(duel(), 0, attack(0, 5, 4), chance=c))
    assert sum(p for _, p, _ in leaves) == 1
    killed = sum(p for _, p, (after, _) in leaves if after.units[1].status == DEAD)
    assert killed == Fraction(hit, 6) * Fraction(6 - save, 6)


def test_a_chosen_die_leaves_the_state_rng_where_it_was() -> None:
    state = duel()
    seed_rng(state.rng, 7)  # the position's generator is unset: seed it to draw
    after, _ = GAME.apply(state, 0, attack(0, 5, 4), chance=Scripted([face(6)]))
    assert after.rng == state.rng
    plain, _ = GAME.apply(state, 0, attack(0, 5, 4))
    assert plain.rng != state.rng


def test_the_default_draws_are_the_recorded_chance_steps() -> None:
    state = duel()
    seed_rng(state.rng, 7)
    recorder = Recorder()
    recorded, events = GAME.apply(state, 0, attack(0, 5, 4), chance=recorder)
    plain, plain_events = GAME.apply(state, 0, attack(0, 5, 4))
    assert recorded == plain and events == plain_events
    assert [face(d.value) for d in dice_rolled(events)] == [i for _, i in recorder.steps]


def test_the_initiative_dice_of_the_setup_are_chance_steps_too() -> None:
    options = GAME.default_options()
    state = GAME.setup(options, 2, 1, chance=Scripted([face(2), face(5)]))
    assert list(state.seats[0].initiative_rolls) == [2]
    assert list(state.seats[1].initiative_rolls) == [5]
    assert state.initiative_seat == 1
    with pytest.raises(ChanceNeeded) as caught:  # a tie is rolled again (KK-13)
        GAME.setup(options, 2, 1, chance=Scripted([face(3), face(3)]))
    assert caught.value.step.name == "die:initiative" and caught.value.position == 2
