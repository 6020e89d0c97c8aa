"""Setting up and the day before the suggestions: support tokens, the king's
will, dealing and hand sizes, the Tuesday exchange, the mulligan."""

from __future__ import annotations

import pytest
from throneroom.v1 import kings_life_pb2 as pb
from throneroom_server.games.core import IllegalMoveError, InvalidOptionsError
from throneroom_server.games.kings_life.data import CARD_ACTIVITY, CARD_CHARACTER, TOKEN_VALUES

from .helpers import (
    ASTROLOGER,
    CHAMBERLAIN,
    CHAMBERLAIN_2,
    DANCE,
    DOG,
    DUKE,
    ENGINE,
    FEAST,
    FOOL,
    FRIDAY,
    GUARD,
    GUARD_2,
    HUNT,
    JESTER,
    PEON,
    QUEEN,
    THIEF_4,
    THURSDAY,
    TOURNEY,
    TUESDAY,
    WEDNESDAY,
    A,
    Event,
    Move,
    Phase,
    legal,
    of_kind,
    pass_,
    scenario,
    step,
)


def test_setup_tokens_board_and_first_player() -> None:
    firsts = set()
    for seed in range(30):
        state = ENGINE.setup(ENGINE.default_options(), 5, seed)
        assert sorted(t.value for t in state.tokens) == sorted(TOKEN_VALUES)
        assert all(t.status == pb.KingsLifeToken.STATUS_ON_BOARD for t in state.tokens)
        assert sorted(state.preferences) == sorted((TOURNEY, FEAST, HUNT, DANCE))
        assert state.day == TUESDAY
        assert state.phase == Phase.PHASE_EXCHANGE and state.turn == state.first_player
        firsts.add(state.first_player)
    assert firsts == set(range(5)), "a random first player"


@pytest.mark.parametrize("seats", [2, 3, 9])
def test_four_to_eight_players(seats: int) -> None:
    with pytest.raises(InvalidOptionsError):
        ENGINE.setup(ENGINE.default_options(), seats, 1)


@pytest.mark.parametrize(
    ("seats", "tuesday", "friday"), [(4, 6, 7), (5, 6, 7), (6, 6, 7), (7, 5, 6), (8, 4, 5)]
)
def test_hand_sizes(seats: int, tuesday: int, friday: int) -> None:
    state = ENGINE.setup(ENGINE.default_options(), seats, 3)
    assert [len(p.hand) for p in state.players] == [tuesday] * seats
    # Thursday's hands are filled up to Tuesday's size, Friday's to one more.
    thursday = scenario(
        seats,
        day=THURSDAY,
        passed=range(seats - 1),
        turn=seats - 1,
        hands={0: [A(HUNT, 1)], 1: [A(HUNT, 2), A(HUNT, 3)]},
    )
    friday_state, _ = pass_(thursday, seats - 1)
    assert friday_state.day == FRIDAY
    assert [len(p.hand) for p in friday_state.players] == [friday] * seats
    wednesday = scenario(seats, passed=range(seats - 1), turn=seats - 1)
    wednesday, _ = pass_(wednesday, seats - 1)
    assert [len(p.hand) for p in wednesday.players] == [tuesday] * seats


def test_kept_cards_carry_over_and_a_full_hand_draws_nothing() -> None:
    big = [A(HUNT, v) for v in (1, 2, 3, 4, 5)] + [A(DANCE, v) for v in (1, 2, 3)]
    state = scenario(hands={3: big}, passed=(0, 1, 2), turn=3)
    state, events = pass_(state, 3)
    assert sorted(state.players[3].hand) == sorted(big), "8 cards kept, none drawn"
    assert all(e.cards_drawn.seat != 3 for e in of_kind(events, "cards_drawn"))


def test_kings_will_on_following_days() -> None:
    state = scenario(preferences=(HUNT, DANCE, TOURNEY, FEAST), passed=(0, 1, 2), turn=3)
    state, events = pass_(state, 3)
    assert state.preferences[0] == FEAST, "yesterday's face-down card goes on top"
    assert sorted(state.preferences[1:]) == sorted((HUNT, DANCE, TOURNEY))
    (began,) = of_kind(events, "day_began")
    assert began.day_began.day == WEDNESDAY
    assert list(began.day_began.preferences) == list(state.preferences[:3])


def test_discard_shuffled_into_the_deck_for_the_next_day() -> None:
    state = scenario(
        displays={0: [A(HUNT, 5)], 1: [A(DANCE, 3)]},
        discard=[ASTROLOGER],
        passed=(0, 1, 2),
        turn=3,
    )
    state, events = pass_(state, 3)
    assert not state.discard
    everything = set(state.deck) | {c for p in state.players for c in p.hand}
    assert {A(DANCE, 3), ASTROLOGER} <= everything
    assert of_kind(events, "displays_discarded")[0].displays_discarded.count == 2


# --- The Tuesday exchange ------------------------------------------------------------------


def test_exchange_in_seat_order_from_the_first_player() -> None:
    state = ENGINE.setup(ENGINE.default_options(), 4, 11)
    first = state.first_player
    order = []
    while state.phase == Phase.PHASE_EXCHANGE:
        order.append(state.turn)
        moves = legal(state, state.turn)
        assert len(moves) == 1 + 6 + 15 + 20, "keep, or discard any 1, 2 or 3 of 6 cards"
        hand = sorted(state.players[state.turn].hand)
        seat = state.turn
        state, events = step(state, seat, Move(exchange=Move.Exchange(discard=hand[:3])))
        assert len(state.players[seat].hand) == 6
        assert not set(hand[:3]) & set(state.players[seat].hand)
        (drawn,) = of_kind(events, "cards_drawn")
        assert drawn.cards_drawn.count == 3
        assert drawn.cards_drawn.reason == Event.DRAW_REASON_EXCHANGE
        assert sorted(state.players[seat].face_down_discards) == hand[:3]
    assert order == [(first + i) % 4 for i in range(4)]
    assert state.phase == Phase.PHASE_MULLIGAN


def test_exchange_limits() -> None:
    state = ENGINE.setup(ENGINE.default_options(), 4, 11)
    seat = state.turn
    hand = sorted(state.players[seat].hand)
    with pytest.raises(IllegalMoveError, match="at most 3"):
        ENGINE.apply(state, seat, Move(exchange=Move.Exchange(discard=hand[:4])))
    stranger = next(c for c in range(1, 71) if c not in hand)
    with pytest.raises(IllegalMoveError, match="not in seat"):
        ENGINE.apply(state, seat, Move(exchange=Move.Exchange(discard=[stranger])))
    kept, _ = step(state, seat, Move(exchange=Move.Exchange()))
    assert sorted(kept.players[seat].hand) == hand


# --- Mulligan ------------------------------------------------------------------------------------


def mulligan_round(hands: dict[int, list[int]], **kw: object) -> pb.KingsLifeState:
    return scenario(hands=hands, phase=Phase.PHASE_MULLIGAN, **kw)  # type: ignore[arg-type]


def test_mulligan_only_with_a_hand_of_characters() -> None:
    characters = [ASTROLOGER, DOG, PEON, QUEEN, DUKE, THIEF_4]
    assert all(CARD_CHARACTER[c] for c in characters)
    state = mulligan_round({0: characters, 1: [A(HUNT, 1), FOOL]})
    assert [ENGINE.move_key(m) for m in legal(state, 0)] == [(1, 0), (1, 1)]
    assert [ENGINE.move_key(m) for m in legal(state, 1)] == [(1, 0)], "it holds an activity card"
    assert [ENGINE.move_key(m) for m in legal(state, 2)] == [(1, 0)], "an empty hand"
    with pytest.raises(IllegalMoveError, match="Mulligan"):
        ENGINE.apply(state, 1, Move(mulligan=Move.Mulligan(take=True)))


def test_mulligan_shows_the_hand_discards_it_and_draws_as_many() -> None:
    characters = [ASTROLOGER, DOG, PEON, QUEEN, DUKE, THIEF_4]
    fresh = [A(HUNT, v) for v in (1, 2, 3)] + [A(DANCE, v) for v in (1, 2, 3)]
    state = mulligan_round({0: characters}, deck_top=fresh)
    state, events = step(state, 0, Move(mulligan=Move.Mulligan(take=True)))
    answered = of_kind(events, "answered")[0]
    assert ENGINE.redact_event(answered, 1).answered.HasField("move") is False, "answer hidden"
    for seat in (1, 2):
        state, events = step(state, seat, Move(mulligan=Move.Mulligan(take=False)))
    assert state.phase == Phase.PHASE_MULLIGAN, "collected until every seat answered"
    state, events = step(state, 3, Move(mulligan=Move.Mulligan(take=False)))
    (shown,) = of_kind(events, "mulligan_taken")
    assert shown.mulligan_taken.seat == 0 and sorted(shown.mulligan_taken.shown) == sorted(
        characters
    )
    assert sorted(state.players[0].hand) == sorted(fresh)
    assert set(characters) <= set(state.discard), "discarded face up"
    assert not state.players[0].face_down_discards
    assert state.phase == Phase.PHASE_INITIAL_ROUND


def test_one_mulligan_a_day() -> None:
    characters = [ASTROLOGER, DOG, PEON, QUEEN, DUKE, THIEF_4]
    again = [FOOL, CHAMBERLAIN, CHAMBERLAIN_2, GUARD, GUARD_2, JESTER]
    assert all(not CARD_ACTIVITY[c] for c in again)
    state = mulligan_round({0: characters}, deck_top=again)
    state, _ = step(state, 0, Move(mulligan=Move.Mulligan(take=True)))
    for seat in (1, 2, 3):
        state, _ = step(state, seat, Move(mulligan=Move.Mulligan(take=False)))
    assert sorted(state.players[0].hand) == sorted(again)
    assert state.phase == Phase.PHASE_INITIAL_ROUND, "no second mulligan round"
