"""Winning the day: program values, the king's choice, rewards, the Duke, and
the final victory points (rulebook: Winning the Day, Game End & Victory)."""

from __future__ import annotations

from throneroom.v1 import kings_life_pb2 as pb
from throneroom_server.games.kings_life import data, reckoning

from .helpers import (
    DANCE,
    DUCHESS,
    DUCHESS_2,
    DUKE,
    ENGINE,
    FEAST,
    HUNT,
    LITTLE_PRINCE,
    MERCHANT,
    PRIEST,
    PRINCESS,
    QUEEN,
    SATURDAY,
    THURSDAY,
    TOURNEY,
    TUESDAY,
    WEDNESDAY,
    A,
    Move,
    Phase,
    State,
    decline_all,
    legal,
    of_kind,
    pass_,
    scenario,
    step,
)

Record = pb.KingsLifeDayRecord
Status = pb.KingsLifeToken


def last_pass(state: State) -> tuple[State, list[pb.KingsLifeEvent]]:
    """The last player still in the day passes (the day is then reckoned)."""
    return pass_(state, state.turn)


def programs_of(events: list[pb.KingsLifeEvent]) -> list[tuple[bool, int, int]]:
    (reckoned,) = of_kind(events, "day_reckoned")
    return [(p.has_program, p.activity, p.value) for p in reckoned.day_reckoned.programs]


def test_scoring_example() -> None:
    """The rulebook's scoring example as printed, players A-D (seats 0-3),
    dealt from cards of the default deck (three Hunt 3s and three Dance 2s on
    the table at once: the deck has three of each).

    The king: Hunting (+1), Dancing, Tourney; Feasting face down.
    """
    hunt_3s = [A(HUNT, 3, 0), A(HUNT, 3, 1), A(HUNT, 3, 2)]
    dance_2s = [A(DANCE, 2, 0), A(DANCE, 2, 1), A(DANCE, 2, 2)]
    feast_1s = [A(FEAST, 1, 0), A(FEAST, 1, 1)]
    displays = {
        # A: Hunting 3, 3, 1; Dancing 2 (not counted); Feasting 1 (not counted).
        0: [hunt_3s[0], hunt_3s[1], A(HUNT, 1), dance_2s[0], feast_1s[0]],
        # B: Hunting 2 (not counted); Dancing 4, 2, 2.
        1: [A(HUNT, 2), A(DANCE, 4), dance_2s[1], dance_2s[2]],
        # C: Hunting 3 (not counted); Tourney 4, 2, 1; Feasting 1 (not counted).
        2: [hunt_3s[2], A(TOURNEY, 4), A(TOURNEY, 2), A(TOURNEY, 1), feast_1s[1]],
        # D: Feasting 5, 4, 2 (not counted).
        3: [A(FEAST, 5), A(FEAST, 4), A(FEAST, 2)],
    }
    printed = {
        0: {HUNT: [3, 3, 1], DANCE: [2], FEAST: [1]},
        1: {HUNT: [2], DANCE: [4, 2, 2]},
        2: {HUNT: [3], TOURNEY: [4, 2, 1], FEAST: [1]},
        3: {FEAST: [5, 4, 2]},
    }
    for seat, cards in displays.items():
        dealt: dict[int, list[int]] = {}
        for card in cards:
            dealt.setdefault(data.CARD_ACTIVITY[card], []).append(data.CARD_VALUE[card])
        assert dealt == printed[seat], f"player {'ABCD'[seat]} as printed"
    state = scenario(
        displays=displays,
        preferences=(HUNT, DANCE, TOURNEY, FEAST),
        passed=(0, 1, 2),
        turn=3,
    )
    state, events = last_pass(state)
    assert programs_of(events) == [
        (True, HUNT, 8),  # A: Hunting 3, 3, 1 and the +1 for the top activity
        (True, DANCE, 8),  # B: Dancing 4, 2, 2
        (True, TOURNEY, 7),  # C: Tourney 4, 2, 1 (its Hunting 3 + 1 = 4 is not counted)
        (False, 0, 0),  # D: the king is not interested in Feasting
    ]
    (won,) = of_kind(events, "day_won")
    assert won.day_won.winner == 0, "A wins: Hunting is above Dancing in the king's preference"
    assert state.players[0].days_won == [TUESDAY]


def test_equal_programs_in_the_same_activity_cancel_the_day() -> None:
    state = scenario(
        displays={0: [A(HUNT, 4)], 1: [A(HUNT, 3), A(HUNT, 1)], 2: [A(DANCE, 5)]},
        passed=(0, 1, 2),
        supports={2: 0},
        turn=3,
        tokens=(2, 0, 1, 1, 2),
    )
    state, events = last_pass(state)
    (cancelled,) = of_kind(events, "day_cancelled")
    assert cancelled.day_cancelled.reason == Record.RESULT_TIE
    assert list(cancelled.day_cancelled.tied) == [0, 1]
    assert state.tokens[0].status == Status.STATUS_DISCARDED
    assert not of_kind(events, "reward_taken"), "no day card, no token"
    assert all(not p.days_won for p in state.players)
    assert state.days[0].result == Record.RESULT_TIE


def test_a_better_program_beats_a_tie_below_it() -> None:
    state = scenario(
        displays={0: [A(DANCE, 3)], 1: [A(DANCE, 2), A(DANCE, 1)], 2: [A(HUNT, 4)]},
        passed=(0, 1, 2),
        turn=3,
    )
    state, events = last_pass(state)
    assert of_kind(events, "day_won")[0].day_won.winner == 2


def test_same_value_in_different_activities_goes_to_the_kings_preference() -> None:
    state = scenario(
        displays={0: [A(TOURNEY, 5)], 1: [A(DANCE, 5)]},
        preferences=(HUNT, DANCE, TOURNEY, FEAST),
        passed=(0, 1, 2),
        turn=3,
    )
    state, events = last_pass(state)
    assert of_kind(events, "day_won")[0].day_won.winner == 1


def test_top_activity_adds_one() -> None:
    state = scenario(displays={0: [A(HUNT, 4)], 1: [A(DANCE, 4)]}, passed=(0, 1, 2), turn=3)
    _, events = last_pass(state)
    assert programs_of(events)[:2] == [(True, HUNT, 5), (True, DANCE, 4)]


def test_face_down_activity_counts_nothing() -> None:
    state = scenario(
        displays={0: [A(FEAST, 5), A(FEAST, 5, 1), A(TOURNEY, 1)], 1: [A(DANCE, 2)]},
        preferences=(HUNT, DANCE, TOURNEY, FEAST),
        passed=(0, 1, 2),
        turn=3,
    )
    _, events = last_pass(state)
    assert programs_of(events)[0] == (True, TOURNEY, 1)
    assert programs_of(events)[1] == (True, DANCE, 2)


def test_tie_inside_a_display_goes_to_the_preferred_activity() -> None:
    state = scenario(
        displays={0: [A(TOURNEY, 4), A(DANCE, 4)]},
        preferences=(HUNT, DANCE, TOURNEY, FEAST),
        passed=(0, 1, 2),
        turn=3,
    )
    _, events = last_pass(state)
    assert programs_of(events)[0] == (True, DANCE, 4)


def test_nobody_with_a_program_cancels_the_day() -> None:
    state = scenario(displays={0: [A(FEAST, 5)]}, passed=(0, 1, 2), turn=3)
    state, events = last_pass(state)
    assert of_kind(events, "day_cancelled")[0].day_cancelled.reason == Record.RESULT_NO_PROGRAM


def test_priest_zeroes_every_face_value_five_for_everyone() -> None:
    five = A(HUNT, 5)
    state = scenario(
        displays={0: [five, A(HUNT, 1), MERCHANT], 1: [A(DANCE, 5), A(DANCE, 2), PRIEST]},
        merchant_on=five,
        passed=(0, 1, 2),
        turn=3,
    )
    _, events = last_pass(state)
    # Seat 0: doubled 5 -> 0, plus 1, plus the top bonus. Seat 1: 0 + 2.
    assert programs_of(events)[:2] == [(True, HUNT, 2), (True, DANCE, 2)]


def test_duchess_is_wild_and_joins_the_best_program() -> None:
    state = scenario(
        displays={
            0: [A(DANCE, 4), DUCHESS],
            1: [DUCHESS_2],
            2: [A(FEAST, 5), A(TOURNEY, 1)],
        },
        passed=(0, 1, 2),
        turn=3,
    )
    _, events = last_pass(state)
    progs = programs_of(events)
    assert progs[0] == (True, DANCE, 6), "Dance 4 + Duchess 2 beats Hunt (0 + 2 + 1)"
    assert progs[1] == (True, HUNT, 3), "a Duchess alone counts in the top activity"
    assert progs[2] == (True, TOURNEY, 1)


def test_program_values_follow_the_king_and_the_data() -> None:
    prefs = [HUNT, DANCE, TOURNEY, FEAST]
    value = reckoning.program_of(
        [A(HUNT, 3), A(HUNT, 2)],
        prefs,
        priest=False,
        merchant_on=A(HUNT, 3),
        sorcerer_on=0,
        sorcerer_activity=pb.ACTIVITY_UNSPECIFIED,
    )
    assert (value.activity, value.value) == (HUNT, 9)


# --- Rewards -----------------------------------------------------------------------------


def won_day(**kw: object) -> State:
    """Seat 0 will win (Hunt 5); seat 1 supports it; seat 3 passes last."""
    base: dict[str, object] = {
        "displays": {0: [A(HUNT, 5)], 1: [A(DANCE, 1)]},
        "passed": (0, 1, 2),
        "supports": {1: 0},
        "turn": 3,
        "tokens": (2, 0, 1, 1, 2),
    }
    base.update(kw)
    return scenario(**base)  # type: ignore[arg-type]


def test_winner_takes_the_day_card_and_supporter_the_token() -> None:
    state, events = last_pass(won_day())
    rewards = [e.reward_taken for e in of_kind(events, "reward_taken")]
    assert [(r.seat, r.day_card, r.token_day, r.token_value) for r in rewards] == [
        (0, TUESDAY, 0, 0),
        (1, 0, TUESDAY, 2),
    ]
    assert state.players[0].days_won == [TUESDAY]
    assert state.tokens[0].status == Status.STATUS_WON and state.tokens[0].holder == 1
    assert state.days[0].winner == 0 and state.days[0].supporter == 1
    redacted = ENGINE.redact_event(of_kind(events, "reward_taken")[1], 0)
    assert redacted is not None and redacted.reward_taken.token_value == 0, "the value is secret"


def test_winner_without_supporter_token_discarded_unseen() -> None:
    state, events = last_pass(won_day(supports={}))
    assert state.tokens[0].status == Status.STATUS_DISCARDED
    assert of_kind(events, "token_discarded")
    assert state.players[0].days_won == [TUESDAY]


def test_princess_to_the_winner_little_prince_to_the_supporter() -> None:
    state = won_day(displays={0: [A(HUNT, 5)], 1: [A(DANCE, 1), PRINCESS], 2: [LITTLE_PRINCE]})
    state, _ = last_pass(state)
    assert list(state.players[0].kept) == [PRINCESS]
    assert list(state.players[1].kept) == [LITTLE_PRINCE]
    assert PRINCESS not in state.deck and LITTLE_PRINCE not in state.deck


def test_little_prince_discarded_without_supporter_and_both_on_a_cancelled_day() -> None:
    state = won_day(displays={0: [A(HUNT, 5)], 2: [LITTLE_PRINCE, PRINCESS]}, supports={})
    state, _ = last_pass(state)
    assert list(state.players[0].kept) == [PRINCESS]
    assert LITTLE_PRINCE in state.deck, "discarded, then shuffled back for Wednesday"
    tie = won_day(displays={0: [A(HUNT, 5)], 1: [A(HUNT, 5, 1)], 2: [LITTLE_PRINCE, PRINCESS]})
    tie, _ = last_pass(tie)
    assert all(not p.kept for p in tie.players)


def test_duke_swaps_the_rewards_and_leaves_the_game() -> None:
    state = won_day()
    state.players[1].hand.append(DUKE)
    state.deck.remove(DUKE)
    state, _ = last_pass(state)
    assert state.phase == Phase.PHASE_DUKE and state.turn == 1
    assert [ENGINE.move_key(m) for m in legal(state, 1)] == [(6, 0), (6, 1)]
    state, _ = step(state, 1, Move(duke=Move.Duke(play=True)))
    state, _ = decline_all(state)
    assert state.players[1].days_won == [TUESDAY], "the supporter takes the day card"
    assert state.tokens[0].holder == 0, "the winner takes the token"
    assert DUKE in state.removed and state.days[0].duke


def test_duke_swaps_day_card_and_token_only() -> None:
    """The Princess still goes to the winner and the Little Prince to the supporter."""
    state = won_day(displays={0: [A(HUNT, 5), PRINCESS], 1: [LITTLE_PRINCE]})
    state.players[1].hand.append(DUKE)
    state.deck.remove(DUKE)
    state, _ = last_pass(state)
    state, _ = step(state, 1, Move(duke=Move.Duke(play=True)))
    assert state.day == WEDNESDAY, "nobody else holds cards: no Queen window"
    assert list(state.players[0].kept) == [PRINCESS]
    assert list(state.players[1].kept) == [LITTLE_PRINCE]
    assert state.players[1].days_won == [TUESDAY] and state.tokens[0].holder == 0


def test_duke_is_asked_of_the_winners_supporter_only() -> None:
    # Another player holds the Duke: nobody else is asked; the supporter (no
    # Duke) is asked all the same, so the question leaks nothing, and may only
    # decline.
    state = won_day()
    state.players[2].hand.append(DUKE)
    state.deck.remove(DUKE)
    state.players[1].hand.append(A(TOURNEY, 1))
    state.deck.remove(A(TOURNEY, 1))
    state, _ = last_pass(state)
    assert state.phase == Phase.PHASE_DUKE and ENGINE.to_act(state) == (1,)
    assert [ENGINE.move_key(m) for m in legal(state, 1)] == [(6, 0)]
    state, _ = step(state, 1, Move(duke=Move.Duke(play=False)))
    assert state.players[0].days_won == [TUESDAY] and state.tokens[0].holder == 1


def test_supporter_with_an_empty_hand_is_not_asked() -> None:
    state, _ = last_pass(won_day())
    assert state.day == WEDNESDAY, "no Duke question: the day went on to the rewards"


def test_queen_cancels_the_duke() -> None:
    state = won_day()
    for seat, card in ((1, DUKE), (3, QUEEN)):
        state.players[seat].hand.append(card)
        state.deck.remove(card)
    state, _ = last_pass(state)
    state, _ = step(state, 1, Move(duke=Move.Duke(play=True)))
    assert state.phase == Phase.PHASE_QUEEN_WINDOW and state.window == Phase.WINDOW_DUKE
    assert list(state.awaiting) == [3], "only seats with cards are asked"
    state, events = step(state, 3, Move(queen=Move.Queen(cancel=True, target=1)))
    assert of_kind(events, "queen_cancelled")
    assert state.players[0].days_won == [TUESDAY], "no swap"
    assert DUKE not in state.removed and DUKE in state.deck, "discarded, shuffled back"


# --- First player ----------------------------------------------------------------------------


def test_first_player_is_the_last_winner() -> None:
    state, _ = last_pass(won_day(first_player=2))
    assert state.day == WEDNESDAY and state.first_player == 0


def test_first_player_after_a_cancelled_day_is_the_previous_winner() -> None:
    state = scenario(
        day=WEDNESDAY,
        passed=(0, 1, 2),
        turn=3,
        first_player=1,
        last_winner=2,
        displays={0: [A(HUNT, 3)], 1: [A(HUNT, 3, 1)]},
    )
    state, _ = last_pass(state)
    assert state.day == THURSDAY and state.first_player == 2


def test_first_player_stays_when_nobody_has_won_yet() -> None:
    state = scenario(passed=(0, 1, 2), turn=3, first_player=1)
    state, _ = last_pass(state)
    assert state.day == WEDNESDAY and state.first_player == 1


# --- The end of the game ----------------------------------------------------------------------


def test_victory_points_count_day_cards_tokens_and_kept_cards() -> None:
    state = won_day(day=SATURDAY)
    state.players[1].days_won.extend([TUESDAY, THURSDAY])  # 1 + 2
    state.tokens[1].status = Status.STATUS_WON  # Wednesday's token (value 0) to seat 2
    state.tokens[1].holder = 2
    state.tokens[2].status = Status.STATUS_WON  # Thursday's (1) to seat 3
    state.tokens[2].holder = 3
    state.players[3].kept.append(PRINCESS)
    state.deck.remove(PRINCESS)
    state, events = last_pass(state)
    (ended,) = of_kind(events, "game_ended")
    # Seat 0 wins Saturday (3); seat 1 supports it and gets Saturday's token (2).
    assert list(ended.game_ended.scores) == [3, 5, 0, 2]
    assert list(ended.game_ended.support_points) == [0, 2, 0, 1]
    assert list(state.outcome.winners) == [1]
    assert ENGINE.to_act(state) == () and state.phase == Phase.PHASE_GAME_OVER


def test_ties_go_to_support_points_then_shared() -> None:
    outcome = reckoning.final_outcome([5, 5, 3, 5], [1, 2, 0, 2])
    assert list(outcome.winners) == [1, 3]
    assert list(outcome.tiebreaks) == ["support_points", "shared_victory"]
    outcome = reckoning.final_outcome([5, 5, 3, 5], [1, 2, 0, 0])
    assert list(outcome.winners) == [1] and list(outcome.tiebreaks) == ["support_points"]
    outcome = reckoning.final_outcome([5, 4, 3, 5], [0, 2, 0, 0])
    assert list(outcome.winners) == [0, 3] and "share" in outcome.summary


def test_tied_game_through_the_engine() -> None:
    """Seat 0 wins Saturday (3 VP, no supporter); seat 2 has two day cards (2 VP)
    and either Thursday's token (1) or the Princess (1)."""
    tied = won_day(day=SATURDAY, supports={}, tokens=(0, 2, 1, 1, 2))
    tied.players[2].days_won.extend([TUESDAY, WEDNESDAY])
    by_support = State()
    by_support.CopyFrom(tied)
    by_support.tokens[2].status = Status.STATUS_WON  # Thursday's token, worth 1
    by_support.tokens[2].holder = 2
    by_support, _ = last_pass(by_support)
    assert reckoning.scores(by_support) == ([3, 0, 3, 0], [0, 0, 1, 0])
    assert list(by_support.outcome.winners) == [2]
    assert list(by_support.outcome.tiebreaks) == ["support_points"]

    tied.players[2].kept.append(PRINCESS)
    tied.deck.remove(PRINCESS)
    tied, _ = last_pass(tied)
    assert reckoning.scores(tied) == ([3, 0, 3, 0], [0, 0, 0, 0])
    assert list(tied.outcome.winners) == [0, 2], "a shared victory"
