"""The Fool (rules doc, rule 19): played without a choice; once it took effect
its player takes back display cards one decision at a time (an activity card
brings its Merchant / Sorcerer; those may come back alone), stops with "done",
then passes as a separate decision."""

from __future__ import annotations

from itertools import permutations

import pytest
from throneroom.v1 import kings_life_pb2 as pb
from throneroom_server.games.core import IllegalMoveError, InvalidMoveError, NotYourTurnError

from .helpers import (
    DANCE,
    DUCHESS,
    ENGINE,
    FEAST,
    FOOL,
    HUNT,
    MERCHANT,
    PRIEST,
    QUEEN,
    SORCERER,
    A,
    Move,
    Phase,
    Play,
    State,
    cancel_with_queen,
    legal,
    of_kind,
    pass_,
    play,
    plays_of,
    scenario,
    step,
    take_back,
)

DOUBLED = A(HUNT, 3)
OTHER = A(HUNT, 2)


def fool_position() -> State:
    """Seat 0 holds the Fool and a Dance 2; its display: a Hunt 3 doubled by the
    Merchant, a Hunt 2, the Priest and a Duchess."""
    return scenario(
        hands={0: [A(DANCE, 2), FOOL], 1: [A(HUNT, 1, 1)]},
        displays={0: [DOUBLED, MERCHANT, OTHER, PRIEST, DUCHESS], 1: [A(FEAST, 5)]},
        merchant_on=DOUBLED,
    )


def fool_played() -> State:
    state, _ = play(fool_position(), 0, FOOL)
    return state


def take_back_cards(state: State, seat: int) -> list[int]:
    return [m.take_back.card for m in legal(state, seat)]


def test_the_fool_is_one_play_without_a_choice() -> None:
    state = fool_position()
    (fool,) = plays_of(state, 0, FOOL)
    assert not fool.cards
    with pytest.raises(InvalidMoveError, match="takes no cards"):
        ENGINE.apply(state, 0, Move(play=Play(card=FOOL, cards=[PRIEST])))
    state, events = play(state, 0, FOOL)
    assert not of_kind(events, "cards_taken_back")
    assert state.phase == Phase.PHASE_FOOL_TAKE_BACK and ENGINE.to_act(state) == (0,)
    assert FOOL in state.discard and not state.fool_taken


def test_take_back_moves_are_done_then_one_per_display_card() -> None:
    state = fool_played()
    moves = legal(state, 0)
    assert all(m.WhichOneof("kind") == "take_back" for m in moves)
    assert take_back_cards(state, 0) == [0, *sorted((DOUBLED, MERCHANT, OTHER, PRIEST, DUCHESS))]
    keys = [ENGINE.move_key(m) for m in moves]
    assert keys == sorted(keys) and len(set(keys)) == len(keys)
    for seat in (1, 2, 3):
        assert legal(state, seat) == []


def test_take_back_one_card() -> None:
    state, events = take_back(fool_played(), 0, PRIEST)
    (taken,) = of_kind(events, "cards_taken_back")
    assert (taken.cards_taken_back.seat, list(taken.cards_taken_back.cards)) == (0, [PRIEST])
    assert list(state.players[0].hand) == [A(DANCE, 2), PRIEST]
    assert list(state.players[0].revealed) == [PRIEST]
    assert list(state.players[0].display) == [DOUBLED, MERCHANT, OTHER, DUCHESS]
    assert list(state.fool_taken) == [PRIEST]
    assert state.phase == Phase.PHASE_FOOL_TAKE_BACK and state.turn == 0
    assert PRIEST not in take_back_cards(state, 0), "listed once, while still displayed"
    view = ENGINE.view(state, 2)
    assert list(view.players[0].revealed) == [PRIEST] and list(view.fool_taken) == [PRIEST]
    assert ENGINE.redact_event(taken, 2) == taken, "take-backs are public"


def test_the_merchant_travels_with_its_card() -> None:
    state, events = take_back(fool_played(), 0, DOUBLED)
    (taken,) = of_kind(events, "cards_taken_back")
    assert list(taken.cards_taken_back.cards) == sorted([DOUBLED, MERCHANT])
    assert state.merchant_on == 0
    assert list(state.players[0].display) == [OTHER, PRIEST, DUCHESS]
    assert sorted(state.players[0].revealed) == sorted([DOUBLED, MERCHANT])
    assert MERCHANT not in take_back_cards(state, 0)


def test_the_merchant_alone_ends_its_effect() -> None:
    state = fool_played()
    before = ENGINE.view(state, 1).programs[0]
    assert (before.activity, before.value) == (HUNT, 1 + 3 * 2 + 2 + 2), "doubled Hunt 3"
    state, events = take_back(state, 0, MERCHANT)
    (taken,) = of_kind(events, "cards_taken_back")
    assert list(taken.cards_taken_back.cards) == [MERCHANT]
    assert state.merchant_on == 0 and DOUBLED in state.players[0].display
    after = ENGINE.view(state, 1).programs[0]
    assert (after.activity, after.value) == (HUNT, 1 + 3 + 2 + 2), "the Hunt 3 counts once"
    state, _ = take_back(state, 0, DOUBLED)
    assert sorted(state.fool_taken) == sorted([DOUBLED, MERCHANT])


def test_the_sorcerer_and_characters_taken_back_lose_their_effect() -> None:
    changed = A(FEAST, 5)
    state = scenario(
        hands={0: [FOOL], 1: [A(HUNT, 2)]},
        displays={0: [changed, SORCERER, PRIEST, DUCHESS], 1: [A(DANCE, 5)]},
        sorcerer_on=changed,
        sorcerer_activity=HUNT,
    )
    before = ENGINE.view(state, 1).programs
    assert (before[0].activity, before[0].value) == (HUNT, 0 + 2 + 1), "Priest: the 5 counts 0"
    assert before[1].value == 0
    state, _ = play(state, 0, FOOL)
    for card in (SORCERER, PRIEST, DUCHESS):
        state, _ = take_back(state, 0, card)
    after = ENGINE.view(state, 1).programs
    assert state.sorcerer_on == 0 and not after[0].has_program, "the Feast 5 is face down again"
    assert after[1].value == 5, "no more Priest"


def _subset_reference(state: State, seat: int, taken: list[int]) -> State:
    """What taking the whole set at once does (the former single Fool move)."""
    ref = State()
    ref.CopyFrom(state)
    me = ref.players[seat]
    for card in taken:
        me.display.remove(card)
    if MERCHANT in taken:
        ref.merchant_on = 0
    if SORCERER in taken:
        ref.sorcerer_on = 0
        ref.sorcerer_activity = pb.ACTIVITY_UNSPECIFIED
    me.hand.extend(sorted(taken))
    me.revealed.extend(sorted(taken))
    ref.phase = Phase.PHASE_FOOL_PASS
    return ref


def test_take_backs_in_any_order_give_the_same_state() -> None:
    start = fool_played()
    wanted = sorted([DOUBLED, MERCHANT, PRIEST, DUCHESS])
    reference = _subset_reference(start, 0, wanted)
    # Every order of taking the Hunt 3 (with its Merchant), the Priest and the
    # Duchess, and the orders where the Merchant comes back alone first.
    orders = [list(p) for p in permutations([DOUBLED, PRIEST, DUCHESS])]
    orders += [[MERCHANT, *p] for p in permutations([DOUBLED, PRIEST, DUCHESS])]
    orders += [[PRIEST, MERCHANT, DUCHESS, DOUBLED]]
    for order in orders:
        state = start
        for card in order:
            state, _ = take_back(state, 0, card)
        assert list(state.fool_taken) == wanted
        state, _ = take_back(state, 0)
        assert state == reference, f"order {order}"
        assert not state.fool_taken


def test_done_at_once_takes_nothing_back() -> None:
    start = fool_played()
    state, events = take_back(start, 0)
    assert not of_kind(events, "cards_taken_back")
    assert state == _subset_reference(start, 0, [])
    assert state.phase == Phase.PHASE_FOOL_PASS and ENGINE.to_act(state) == (0,)
    assert all(m.WhichOneof("kind") == "passing" for m in legal(state, 0))


def test_an_empty_display_offers_only_done() -> None:
    state = scenario(hands={0: [FOOL], 1: [A(HUNT, 2)]})
    state, _ = play(state, 0, FOOL)
    assert take_back_cards(state, 0) == [0]


def test_illegal_take_backs_are_rejected_with_a_sentence() -> None:
    state, _ = take_back(fool_played(), 0, PRIEST)
    snapshot = State()
    snapshot.CopyFrom(state)
    for card, why in (
        (A(FEAST, 5), "not in seat 0's display"),  # another player's display
        (A(DANCE, 2), "not in seat 0's display"),  # in the hand
        (PRIEST, "not in seat 0's display"),  # already taken back
        (QUEEN, "not in seat 0's display"),  # somewhere else
    ):
        with pytest.raises(IllegalMoveError, match=why):
            ENGINE.apply(state, 0, Move(take_back=Move.TakeBack(card=card)))
    with pytest.raises(InvalidMoveError, match="does not exist"):
        ENGINE.apply(state, 0, Move(take_back=Move.TakeBack(card=71)))
    with pytest.raises(NotYourTurnError):
        ENGINE.apply(state, 1, Move(take_back=Move.TakeBack()))
    with pytest.raises(IllegalMoveError, match="may play take_back now, not passing"):
        ENGINE.apply(state, 0, Move(passing=Move.Pass()))
    assert state == snapshot, "apply leaves its input alone"
    with pytest.raises(IllegalMoveError, match="turns: seat 0 may play passing or play now"):
        ENGINE.apply(fool_position(), 0, Move(take_back=Move.TakeBack()))


def test_the_pass_follows_with_its_support_choices() -> None:
    state, _ = take_back(fool_played(), 0, MERCHANT)
    state, _ = take_back(state, 0, PRIEST)
    state, _ = take_back(state, 0)
    passes = legal(state, 0)
    assert {m.passing.hand_over for m in passes} == {0, DOUBLED, OTHER, DUCHESS}
    state, _ = pass_(state, 0, support=1, hand_over=DOUBLED)
    assert state.players[0].passed and state.players[1].supporter == 0
    assert DOUBLED in state.players[1].display
    assert sorted(state.players[0].hand) == sorted([A(DANCE, 2), MERCHANT, PRIEST])
    assert state.phase == Phase.PHASE_TURNS and state.turn == 1


def test_queen_cancels_the_fool_nothing_comes_back_and_no_pass() -> None:
    state = scenario(hands={0: [FOOL, A(HUNT, 2)], 1: [QUEEN]}, displays={0: [A(HUNT, 5)]})
    state, _ = step(state, 0, Move(play=Play(card=FOOL)))
    state, _ = cancel_with_queen(state, 1)
    assert list(state.players[0].display) == [A(HUNT, 5)]
    assert not state.players[0].passed and state.phase == Phase.PHASE_TURNS and state.turn == 1
