"""kit.chance: chance steps listed with their probabilities, picked by the RNG
by default (the same draws as Rng), scripted or stopped at by a caller."""

from __future__ import annotations

from fractions import Fraction

import pytest
from throneroom.v1 import common_pb2
from throneroom_server.games.kit import chance
from throneroom_server.games.kit.chance import (
    ChanceNeeded,
    ChanceStep,
    Recorder,
    RngPicker,
    Scripted,
    arrangement,
    draw,
    explore,
    outcome_tree,
    shuffle,
    with_picker,
)
from throneroom_server.games.rng import Rng, seed_rng


def rng_of(seed: int) -> tuple[common_pb2.RngState, Rng]:
    msg = common_pb2.RngState()
    seed_rng(msg, seed)
    return msg, Rng(msg)


def test_a_step_lists_its_outcomes_with_probabilities_summing_to_one() -> None:
    step = ChanceStep("die", 6, tuple("123456"))
    outcomes = step.outcomes
    assert [o.index for o in outcomes] == list(range(6))
    assert [o.label for o in outcomes] == list("123456")
    assert sum(o.probability for o in outcomes) == 1
    assert step.probability(3) == Fraction(1, 6)


def test_a_step_refuses_no_outcome_wrong_labels_and_an_index_out_of_range() -> None:
    with pytest.raises(ValueError, match="no outcome"):
        ChanceStep("empty", 0)
    with pytest.raises(ValueError, match="labels"):
        ChanceStep("die", 6, ("1", "2"))
    with pytest.raises(ValueError, match="not 6"):
        ChanceStep("die", 6).check(6)


def test_the_default_draws_exactly_as_the_rng_did() -> None:
    msg_a, a = rng_of(7)
    msg_b, b = rng_of(7)
    assert [draw(a, "die", 6) for _ in range(50)] == [b.below(6) for _ in range(50)]
    items_a, items_b = list(range(20)), list(range(20))
    shuffle(a, items_a, "deck")
    b.shuffle(items_b)
    assert items_a == items_b
    assert msg_a == msg_b


def test_the_rng_picker_is_the_default_made_explicit() -> None:
    msg_a, a = rng_of(3)
    msg_b, b = rng_of(3)
    plain = [draw(a, "d", 10) for _ in range(20)]
    picked = with_picker(RngPicker(), lambda: [draw(b, "d", 10) for _ in range(20)])
    assert plain == picked
    assert msg_a == msg_b


def test_a_script_chooses_outcomes_without_advancing_the_rng() -> None:
    msg, rng = rng_of(1)
    before = common_pb2.RngState()
    before.CopyFrom(msg)
    script = Scripted([4, 3])
    assert with_picker(script, lambda: [draw(rng, "die", 6), draw(rng, "die", 6)]) == [4, 3]
    assert msg == before
    script.done()


def test_a_script_refuses_an_outcome_the_step_does_not_list() -> None:
    _, rng = rng_of(1)
    with pytest.raises(ValueError, match="not 9"):
        with_picker(Scripted([9]), lambda: draw(rng, "die", 6))


def test_past_the_script_the_call_stops_at_the_chance_node() -> None:
    _, rng = rng_of(1)
    with pytest.raises(ChanceNeeded) as caught:
        with_picker(Scripted([2]), lambda: [draw(rng, "a", 3), draw(rng, "die", 6)])
    assert caught.value.step.name == "die"
    assert caught.value.step.size == 6
    assert caught.value.position == 1


def test_past_the_script_then_picks() -> None:
    msg_a, a = rng_of(5)
    msg_b, b = rng_of(5)
    got = with_picker(Scripted([1], then=RngPicker()), lambda: [draw(a, "x", 4) for _ in range(3)])
    assert got == [1, b.below(4), b.below(4)]
    assert msg_a == msg_b


def test_an_unused_script_is_reported() -> None:
    with pytest.raises(ValueError, match="never drawn"):
        Scripted([1, 2]).done()


def test_a_recorder_keeps_each_step_and_choice() -> None:
    _, rng = rng_of(2)
    recorder = Recorder(Scripted([0, 5]))
    with_picker(recorder, lambda: (draw(rng, "coin", 2), draw(rng, "die", 6)))
    assert [(step.name, index) for step, index in recorder.steps] == [("coin", 0), ("die", 5)]


def test_a_shuffle_is_a_sequence_of_single_draws_and_an_arrangement_chooses_it() -> None:
    _, rng = rng_of(2)
    items = ["a", "b", "c", "d"]
    recorder = Recorder(Scripted(arrangement(items, ["d", "b", "a", "c"])))
    with_picker(recorder, lambda: shuffle(rng, items, "deck"))
    assert items == ["d", "b", "a", "c"]
    assert [step.size for step, _ in recorder.steps] == [4, 3, 2]
    assert recorder.steps[0][0].labels == ("a", "b", "c", "d")


def test_an_arrangement_needs_a_permutation() -> None:
    with pytest.raises(ValueError, match="permutation"):
        arrangement([1, 2], [1, 3])


def test_a_choice_is_one_step_labelled_by_its_items() -> None:
    _, rng = rng_of(2)
    recorder = Recorder(Scripted([1]))
    assert with_picker(recorder, lambda: chance.choice(rng, [10, 20, 30], "pick")) == 20
    assert recorder.steps[0][0].labels == ("10", "20", "30")


def test_the_picker_is_only_active_inside_its_call() -> None:
    _, rng = rng_of(2)
    with pytest.raises(ChanceNeeded):
        with_picker(Scripted([]), lambda: draw(rng, "d", 2))
    draw(rng, "d", 2)  # no picker any more: the RNG draws, nothing raised


def two_dice(picker: chance.Picker) -> int:
    _, rng = rng_of(0)
    return with_picker(picker, lambda: draw(rng, "d1", 6) + 1 + draw(rng, "d2", 6) + 1)


def test_explore_stops_at_the_next_node_or_gives_the_result() -> None:
    first = explore(two_dice)
    assert first.step is not None and first.step.name == "d1"
    second = explore(two_dice, [5])
    assert second.step is not None and second.step.name == "d2"
    done = explore(two_dice, [5, 3])
    assert done.step is None and done.result == 10


def test_the_outcome_tree_of_two_dice_is_exact() -> None:
    leaves = outcome_tree(two_dice)
    assert len(leaves) == 36
    assert sum(p for _, p, _ in leaves) == 1
    sevens = sum(p for _, p, total in leaves if total == 7)
    assert sevens == Fraction(1, 6)
    with pytest.raises(ValueError, match="more than 10"):
        outcome_tree(two_dice, limit=10)


# -- through an engine: Engine.setup / Engine.apply with chance= (Nim, the fixture) -----------


def test_an_engine_setup_takes_the_chosen_outcomes() -> None:
    from throneroom_server.games.nim import SECRET_RANGE, Nim

    game = Nim()
    state = game.setup(game.default_options(), 3, seed=1, chance=Scripted([7, 0, 999]))
    assert list(state.secrets) == [7, 0, 999]
    assert game.max_chance_outcomes == SECRET_RANGE


def test_an_engine_without_a_picker_plays_as_before() -> None:
    from throneroom_server.games.nim import Nim

    game = Nim()
    assert game.setup(game.default_options(), 2, 4) == game.setup(
        game.default_options(), 2, 4, chance=RngPicker()
    )


def test_an_engine_apply_stops_at_a_chance_node_and_leaves_the_state_alone() -> None:
    from throneroom.v1 import nim_pb2
    from throneroom_server.games.nim import Nim

    game = Nim()
    state = game.setup(game.default_options(), 2, seed=1)
    before = nim_pb2.NimState()
    before.CopyFrom(state)
    move = nim_pb2.NimMove(take=1)
    with pytest.raises(ChanceNeeded) as caught:
        game.apply(state, 0, move, chance=Scripted([]))
    assert caught.value.step.name == "secret" and state == before
    after, _ = game.apply(state, 0, move, chance=Scripted([123]))
    assert after.secrets[0] == 123 and after.rng == state.rng


def test_sampled_chance_follows_the_listed_probabilities_and_its_seed() -> None:
    _, rng = rng_of(0)
    before = common_pb2.RngState()
    before.CopyFrom(rng._msg)
    a = with_picker(chance.Sampled(9), lambda: [draw(rng, "die", 6) for _ in range(600)])
    b = with_picker(chance.Sampled(9), lambda: [draw(rng, "die", 6) for _ in range(600)])
    assert a == b
    assert rng._msg == before
    assert all(60 <= a.count(face) <= 140 for face in range(6))
    c = with_picker(chance.Sampled(10), lambda: [draw(rng, "die", 6) for _ in range(600)])
    assert c != a
