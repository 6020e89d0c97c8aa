"""Suggestions to the King: the initial round, turns, passing and support, and
the Queen window after every card played."""

from __future__ import annotations

import pytest
from throneroom_server.games.core import IllegalMoveError, NotYourTurnError

from .helpers import (
    DANCE,
    DOG,
    DUKE,
    ENGINE,
    FEAST,
    HUNT,
    MERCHANT,
    QUEEN,
    TOURNEY,
    A,
    Event,
    Move,
    Phase,
    Play,
    State,
    decline_all,
    kinds,
    legal,
    of_kind,
    pass_,
    play,
    scenario,
    step,
)

DRAW_HUNT = A(HUNT, 1)  # the Hunt 1 that draws a card


def commit(card: int = 0) -> Move:
    return Move(commit=Move.Commit(card=card))


# --- Initial round ----------------------------------------------------------------------------


def initial_round() -> tuple[dict[int, list[int]], State]:
    hands = {
        0: [DRAW_HUNT, A(HUNT, 3), QUEEN],
        1: [A(DANCE, 2), A(DANCE, 5)],
        2: [A(TOURNEY, 4), DOG],
        3: [A(FEAST, 2), A(FEAST, 1, 1)],
    }
    return hands, scenario(
        hands=hands, phase=Phase.PHASE_INITIAL_ROUND, first_player=1, deck_top=[A(TOURNEY, 5)]
    )


def test_initial_round_commits_sun_cards_face_down_together() -> None:
    _, state = initial_round()
    assert ENGINE.to_act(state) == (0, 1, 2, 3), "every seat decides at once"
    assert [m.commit.card for m in legal(state, 0)] == [DRAW_HUNT], "sun cards only"
    assert [m.commit.card for m in legal(state, 3)] == sorted([A(FEAST, 2), A(FEAST, 1, 1)])
    assert [m.commit.card for m in legal(state, 2)] == [0], "no sun card: commits nothing"
    state, events = step(state, 2, commit())
    state, events = step(state, 0, commit(DRAW_HUNT))
    (answered,) = of_kind(events, "answered")
    assert ENGINE.redact_event(answered, 1).answered.HasField("move") is False
    assert ENGINE.redact_event(answered, 0).answered.move.commit.card == DRAW_HUNT
    view = ENGINE.view(state, 1)
    assert view.to_act == [1, 3], "who has committed is public"
    assert all(p.revealed_commitment == 0 for p in view.players), "the cards are not"
    state, _ = step(state, 1, commit(A(DANCE, 2)))
    state, events = step(state, 3, commit(A(FEAST, 2)))
    (revealed,) = of_kind(events, "revealed")
    assert list(revealed.revealed.cards) == [DRAW_HUNT, A(DANCE, 2), 0, A(FEAST, 2)]
    # The Queen may cancel one of the revealed cards: every seat with cards is asked.
    assert state.phase == Phase.PHASE_QUEEN_WINDOW and state.window == Phase.WINDOW_INITIAL_REVEAL
    state, events = decline_all(state)
    assert [list(p.display) for p in state.players] == [
        [DRAW_HUNT],
        [A(DANCE, 2)],
        [],
        [A(FEAST, 2)],
    ]
    drawn = of_kind(events, "cards_drawn")
    assert [(d.cards_drawn.seat, list(d.cards_drawn.cards)) for d in drawn] == [
        (0, [A(TOURNEY, 5)])
    ], "the draw card draws"
    assert state.phase == Phase.PHASE_TURNS and state.turn == 1, "the first player starts"


def test_initial_round_rules_are_enforced() -> None:
    _, state = initial_round()
    with pytest.raises(IllegalMoveError, match="no sun icon"):
        ENGINE.apply(state, 0, commit(A(HUNT, 3)))
    with pytest.raises(IllegalMoveError, match="must commit"):
        ENGINE.apply(state, 0, commit())
    with pytest.raises(IllegalMoveError, match="not in seat"):
        ENGINE.apply(state, 0, commit(A(DANCE, 2)))
    state, _ = step(state, 0, commit(DRAW_HUNT))
    with pytest.raises(NotYourTurnError):
        ENGINE.apply(state, 0, commit(DRAW_HUNT))


def test_queen_cancels_a_revealed_card() -> None:
    _, state = initial_round()
    for seat, card in ((0, DRAW_HUNT), (1, A(DANCE, 2)), (2, 0), (3, A(FEAST, 2))):
        state, _ = step(state, seat, commit(card))
    cancels = [m.queen.target for m in legal(state, 0) if m.queen.cancel]
    assert cancels == [1, 3], "any other revealed card"
    for seat in (1, 2, 3):
        state, _ = step(state, seat, Move(queen=Move.Queen()))
    state, events = step(state, 0, Move(queen=Move.Queen(cancel=True, target=1)))
    (cancelled,) = of_kind(events, "queen_cancelled")
    assert (cancelled.queen_cancelled.queen_seat, cancelled.queen_cancelled.card) == (
        0,
        A(DANCE, 2),
    )
    assert not state.players[1].display
    assert {QUEEN, A(DANCE, 2)} <= set(state.discard)
    assert QUEEN not in state.players[0].hand


# --- Turns and passing --------------------------------------------------------------------------


def test_turns_go_clockwise_from_the_first_player_and_passing_is_final() -> None:
    hands = {
        0: [A(HUNT, 2), A(FEAST, 4, 0)],
        1: [A(DANCE, 2), A(FEAST, 5, 0)],
        2: [A(TOURNEY, 2), A(FEAST, 4, 1)],
        3: [A(FEAST, 3), A(FEAST, 5, 1)],
    }
    state = scenario(hands=hands, first_player=2, turn=2)
    order = []
    for _ in range(4):
        seat = state.turn
        order.append(seat)
        state, _ = play(state, seat, hands[seat][0])
    assert order == [2, 3, 0, 1]
    state, events = pass_(state, 2)
    assert kinds(events) == ["passed"] and state.players[2].passed
    assert state.turn == 3
    state, _ = pass_(state, 3)
    state, _ = pass_(state, 0)
    assert state.turn == 1
    assert not [m for m in legal(state, 2)], "a passed player never acts again"
    with pytest.raises(NotYourTurnError):
        ENGINE.apply(state, 2, Move(passing=Move.Pass()))


def test_a_lone_player_keeps_playing() -> None:
    state = scenario(hands={1: [A(HUNT, 2), A(HUNT, 3)]}, passed=(0, 2, 3), turn=1)
    state, _ = play(state, 1, A(HUNT, 2))
    assert state.phase == Phase.PHASE_TURNS and state.turn == 1
    state, _ = play(state, 1, A(HUNT, 3))
    assert state.turn == 1
    assert all(m.WhichOneof("kind") == "passing" for m in legal(state, 1)), "no cards: must pass"


def test_no_cards_must_pass_and_queen_or_duke_cannot_be_played_on_a_turn() -> None:
    state = scenario(hands={0: [QUEEN, DUKE]})
    assert all(m.WhichOneof("kind") == "passing" for m in legal(state, 0))
    with pytest.raises(IllegalMoveError, match="Queen"):
        ENGINE.apply(state, 0, Move(play=Play(card=QUEEN)))
    with pytest.raises(IllegalMoveError, match="Duke"):
        ENGINE.apply(state, 0, Move(play=Play(card=DUKE)))


def test_support_one_supporter_per_player_even_a_passed_one() -> None:
    state = scenario(
        hands={0: [A(HUNT, 2)], 1: [A(HUNT, 3)], 2: [A(HUNT, 4)]},
        displays={0: [A(DANCE, 1)]},
        passed=(3,),
        turn=0,
    )
    supports = sorted({m.passing.support for m in legal(state, 0) if m.passing.HasField("support")})
    assert supports == [1, 2, 3], "any other player, the passed seat 3 included"
    state, events = pass_(state, 0, support=3)
    assert kinds(events) == ["passed", "supported"]
    assert state.players[3].supporter == 0 and state.players[0].supporting == 3
    supports = sorted({m.passing.support for m in legal(state, 1) if m.passing.HasField("support")})
    assert supports == [0, 2], "seat 3 already has a supporter"
    with pytest.raises(IllegalMoveError, match="already supported"):
        ENGINE.apply(state, 1, Move(passing=Move.Pass(support=3)))
    with pytest.raises(IllegalMoveError, match="itself"):
        ENGINE.apply(state, 1, Move(passing=Move.Pass(support=1)))


def test_support_hands_over_a_display_card_with_its_merchant() -> None:
    doubled = A(HUNT, 4)
    state = scenario(
        hands={0: [A(HUNT, 2)]},
        displays={0: [doubled, MERCHANT, A(DANCE, 1)]},
        merchant_on=doubled,
    )
    gifts = sorted({m.passing.hand_over for m in legal(state, 0) if m.passing.support == 2})
    assert gifts == sorted([0, A(DANCE, 1), doubled]), "not the Merchant alone"
    with pytest.raises(IllegalMoveError, match="only to a supported player"):
        ENGINE.apply(state, 0, Move(passing=Move.Pass(hand_over=doubled)))
    state, events = pass_(state, 0, support=2, hand_over=doubled)
    assert sorted(state.players[2].display) == sorted([doubled, MERCHANT])
    assert list(state.players[0].display) == [A(DANCE, 1)]
    assert state.merchant_on == doubled
    assert of_kind(events, "supported")[0].supported.hand_over == doubled


# --- The Queen window ------------------------------------------------------------------------


def test_every_other_seat_with_cards_is_asked_and_only_the_queen_may_cancel() -> None:
    state = scenario(
        hands={0: [A(HUNT, 5)], 1: [A(DANCE, 1)], 2: [QUEEN], 3: []}, passed=(1,), turn=0
    )
    state, events = step(state, 0, Move(play=Play(card=A(HUNT, 5))))
    assert kinds(events) == ["card_played"]
    assert state.phase == Phase.PHASE_QUEEN_WINDOW
    assert ENGINE.to_act(state) == (1, 2), "others with cards, passed or not; not seat 3"
    assert [ENGINE.move_key(m) for m in legal(state, 1)] == [(3, 0)]
    assert [ENGINE.move_key(m) for m in legal(state, 2)] == [(3, 0), (3, 1, 0)]
    with pytest.raises(IllegalMoveError, match="does not hold the Queen"):
        ENGINE.apply(state, 1, Move(queen=Move.Queen(cancel=True, target=0)))
    assert not state.players[0].display, "the card waits for the window"
    view = ENGINE.view(state, 3)
    assert view.pending.card == A(HUNT, 5)


def test_queen_cancel_discards_both_cards_and_ends_the_turn() -> None:
    state = scenario(hands={0: [A(HUNT, 5), A(HUNT, 4)], 1: [A(DANCE, 1)], 2: [QUEEN]}, turn=0)
    state, _ = step(state, 0, Move(play=Play(card=A(HUNT, 5))))
    state, events = step(state, 2, Move(queen=Move.Queen(cancel=True, target=0)))
    assert kinds(events) == ["answered"], "collected hidden until every seat answered"
    assert ENGINE.redact_event(events[0], 1) == Event(answered=Event.Answered(seat=2))
    state, events = step(state, 1, Move(queen=Move.Queen()))
    (cancelled,) = of_kind(events, "queen_cancelled")
    assert cancelled.queen_cancelled.seat == 0 and cancelled.queen_cancelled.card == A(HUNT, 5)
    assert not state.players[0].display
    assert state.discard[-2:] == [QUEEN, A(HUNT, 5)]
    assert state.phase == Phase.PHASE_TURNS and state.turn == 1, "no replacement card"
    assert not of_kind(events, "card_took_effect")


def test_nobody_else_with_cards_means_no_window() -> None:
    state = scenario(hands={0: [A(HUNT, 5), A(HUNT, 4)]}, turn=0)
    state, events = step(state, 0, Move(play=Play(card=A(HUNT, 5))))
    assert kinds(events)[:2] == ["card_played", "card_took_effect"]
    assert list(state.players[0].display) == [A(HUNT, 5)]
