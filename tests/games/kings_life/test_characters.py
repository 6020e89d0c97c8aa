"""Every character card: its timing, its exact effect and its edge cases, and
the value-1 cards that draw (rulebook: Character Card Effects)."""

from __future__ import annotations

import pytest
from throneroom.v1 import kings_life_pb2 as pb
from throneroom_server.games.core import IllegalMoveError, InvalidMoveError

from .helpers import (
    ASTROLOGER,
    CHAMBERLAIN,
    DANCE,
    DOG,
    DUCHESS,
    ENGINE,
    FEAST,
    FRIDAY,
    GUARD,
    HUNT,
    JESTER,
    LITTLE_PRINCE,
    MERCHANT,
    PEON,
    PRIEST,
    PRINCESS,
    QUEEN,
    RAINY_DAY,
    SORCERER,
    THIEF_3,
    THIEF_4,
    THURSDAY,
    TOURNEY,
    TUESDAY,
    WEDNESDAY,
    A,
    Move,
    Phase,
    Play,
    cancel_with_queen,
    decline_all,
    kinds,
    legal,
    of_kind,
    pass_,
    play,
    plays_of,
    scenario,
    step,
)

Status = pb.KingsLifeToken


# --- Draw cards --------------------------------------------------------------------------------


def test_value_one_draw_card_draws_one_card() -> None:
    draw_card = A(DANCE, 1, 0)
    state = scenario(hands={0: [draw_card], 1: [A(HUNT, 2)]}, deck_top=[A(FEAST, 5)])
    state, events = play(state, 0, draw_card)
    (drawn,) = of_kind(events, "cards_drawn")
    assert list(drawn.cards_drawn.cards) == [A(FEAST, 5)]
    assert drawn.cards_drawn.reason == pb.KingsLifeEvent.DRAW_REASON_DRAW_CARD
    assert list(state.players[0].hand) == [A(FEAST, 5)]
    redacted = ENGINE.redact_event(drawn, 1)
    assert redacted is not None and not redacted.cards_drawn.cards
    assert redacted.cards_drawn.count == 1
    _, events = play(scenario(hands={0: [A(DANCE, 1, 1)]}), 0, A(DANCE, 1, 1))
    assert not of_kind(events, "cards_drawn"), "the other 1s do not draw"


def test_draw_reshuffles_the_discard_when_the_deck_is_empty() -> None:
    draw_card = A(DANCE, 1, 0)
    state = scenario(hands={0: [draw_card]}, discard=[ASTROLOGER])
    state.discard.extend(state.deck)
    del state.deck[:]
    state, events = play(state, 0, draw_card)
    assert "deck_reshuffled" in kinds(events)
    assert len(state.players[0].hand) == 1
    empty = scenario(hands={0: [draw_card]})
    empty.removed.extend(empty.deck)  # no deck, no discard (a test-only position)
    del empty.deck[:]
    empty, events = ENGINE.apply(empty, 0, Move(play=Play(card=draw_card)))
    assert of_kind(events, "cards_drawn")[0].cards_drawn.count == 0


def test_cancelled_draw_card_draws_nothing() -> None:
    draw_card = A(DANCE, 1, 0)
    state = scenario(hands={0: [draw_card], 1: [QUEEN]})
    state, _ = step(state, 0, Move(play=Play(card=draw_card)))
    state, events = cancel_with_queen(state, 1)
    assert not of_kind(events, "cards_drawn") and not state.players[0].hand


# --- Played in the display ------------------------------------------------------------------------


@pytest.mark.parametrize("card", [DUCHESS, LITTLE_PRINCE, PRINCESS, PRIEST])
def test_display_characters_stay_in_the_display(card: int) -> None:
    state, _ = play(scenario(hands={0: [card]}), 0, card)
    assert list(state.players[0].display) == [card]


def test_merchant_doubles_one_of_the_players_activity_cards() -> None:
    state = scenario(
        hands={0: [MERCHANT]}, displays={0: [A(HUNT, 2), A(DANCE, 3), DUCHESS], 1: [A(HUNT, 5)]}
    )
    assert sorted(p.target_card for p in plays_of(state, 0, MERCHANT)) == sorted(
        [A(HUNT, 2), A(DANCE, 3)]
    ), "own activity cards only"
    with pytest.raises(IllegalMoveError, match="next to an activity card"):
        ENGINE.apply(state, 0, Move(play=Play(card=MERCHANT, target_card=A(HUNT, 5))))
    with pytest.raises(InvalidMoveError):
        ENGINE.apply(state, 0, Move(play=Play(card=MERCHANT)))
    state, _ = play(state, 0, MERCHANT, target_card=A(DANCE, 3))
    assert state.merchant_on == A(DANCE, 3)
    view = ENGINE.view(state, 1)
    assert (view.programs[0].activity, view.programs[0].value) == (DANCE, 8), "3 x 2 + Duchess"


def test_merchant_needs_an_activity_card_in_the_display() -> None:
    state = scenario(hands={0: [MERCHANT, SORCERER]}, displays={0: [DUCHESS]})
    assert not plays_of(state, 0, MERCHANT) and not plays_of(state, 0, SORCERER)


def test_sorcerer_changes_the_cards_activity() -> None:
    state = scenario(hands={0: [SORCERER]}, displays={0: [A(FEAST, 5), A(DANCE, 1)]})
    options = {(p.target_card, p.activity) for p in plays_of(state, 0, SORCERER)}
    assert (A(FEAST, 5), HUNT) in options and (A(FEAST, 5), FEAST) not in options
    assert len(options) == 6, "two cards, three other activities each"
    with pytest.raises(IllegalMoveError, match="another activity"):
        ENGINE.apply(
            state, 0, Move(play=Play(card=SORCERER, target_card=A(FEAST, 5), activity=FEAST))
        )
    state, _ = play(state, 0, SORCERER, target_card=A(FEAST, 5), activity=HUNT)
    view = ENGINE.view(state, 0)
    assert (view.programs[0].activity, view.programs[0].value) == (HUNT, 6)


def test_thief_takes_a_card_of_its_value_with_merchant_and_sorcerer() -> None:
    four = A(DANCE, 4)
    state = scenario(
        hands={0: [THIEF_4, THIEF_3]},
        displays={0: [A(HUNT, 4, 1)], 1: [four, MERCHANT, SORCERER, A(DANCE, 3)], 2: [A(FEAST, 4)]},
        merchant_on=four,
        sorcerer_on=four,
        sorcerer_activity=HUNT,
    )
    targets = sorted(p.target_card for p in plays_of(state, 0, THIEF_4))
    assert targets == sorted([four, A(FEAST, 4)]), "face value 4 in other displays only"
    assert [p.target_card for p in plays_of(state, 0, THIEF_3)] == [A(DANCE, 3)]
    with pytest.raises(IllegalMoveError, match="face value 4"):
        ENGINE.apply(state, 0, Move(play=Play(card=THIEF_4, target_card=A(DANCE, 3))))
    state, _ = play(state, 0, THIEF_4, target_card=four)
    assert sorted(state.players[0].display) == sorted([A(HUNT, 4, 1), four, MERCHANT, SORCERER])
    assert list(state.players[1].display) == [A(DANCE, 3)]
    assert THIEF_4 in state.discard
    view = ENGINE.view(state, 0)
    assert view.programs[0].value == 4 + 8 + 1, "the stolen 4 is still a doubled Hunt card"


def test_jester_swaps_activity_cards_of_two_other_players() -> None:
    doubled = A(HUNT, 5)
    state = scenario(
        hands={0: [JESTER]},
        displays={0: [A(TOURNEY, 5)], 1: [doubled, MERCHANT, DUCHESS], 2: [A(DANCE, 1)], 3: []},
        merchant_on=doubled,
    )
    options = [tuple(p.cards) for p in plays_of(state, 0, JESTER)]
    assert options == [tuple(sorted((doubled, A(DANCE, 1))))], "no own or character cards"
    with pytest.raises(InvalidMoveError, match="ascending"):
        ENGINE.apply(state, 0, Move(play=Play(card=JESTER, cards=[doubled, A(DANCE, 1)][::-1])))
    state, _ = play(state, 0, JESTER, cards=sorted((doubled, A(DANCE, 1))))
    assert sorted(state.players[2].display) == sorted([doubled, MERCHANT])
    assert sorted(state.players[1].display) == sorted([DUCHESS, A(DANCE, 1)])


def test_jester_needs_two_different_players() -> None:
    state = scenario(hands={0: [JESTER]}, displays={1: [A(HUNT, 5), A(HUNT, 4)]})
    assert not plays_of(state, 0, JESTER)
    with pytest.raises(IllegalMoveError, match="two different players"):
        ENGINE.apply(state, 0, Move(play=Play(card=JESTER, cards=[A(HUNT, 4), A(HUNT, 5)])))


def test_chamberlain_swaps_two_preferences_even_the_face_down_one() -> None:
    state = scenario(hands={0: [CHAMBERLAIN]}, preferences=(HUNT, DANCE, TOURNEY, FEAST))
    assert [tuple(p.positions) for p in plays_of(state, 0, CHAMBERLAIN)] == [
        (0, 1),
        (0, 2),
        (0, 3),
        (1, 2),
        (1, 3),
        (2, 3),
    ]
    swapped, _ = play(state, 0, CHAMBERLAIN, positions=[0, 2])
    assert list(swapped.preferences) == [TOURNEY, DANCE, HUNT, FEAST]
    down, _ = play(state, 0, CHAMBERLAIN, positions=[1, 3])
    assert list(down.preferences) == [HUNT, FEAST, TOURNEY, DANCE]
    assert list(ENGINE.view(down, 2).preferences) == [HUNT, FEAST, TOURNEY], "Dance face down"


def test_astrologer_looks_at_a_token_privately() -> None:
    state = scenario(hands={0: [ASTROLOGER]}, day=WEDNESDAY, tokens=(1, 2, 0, 2, 1))
    state.tokens[0].status = Status.STATUS_WON  # Tuesday's token, won by seat 3
    state.tokens[0].holder = 3
    days = [p.token_day for p in plays_of(state, 0, ASTROLOGER)]
    assert days == [TUESDAY, WEDNESDAY, THURSDAY, FRIDAY, pb.DAY_SATURDAY]
    state.tokens[0].status = Status.STATUS_DISCARDED
    state.tokens[0].holder = -1
    with pytest.raises(IllegalMoveError, match="discarded"):
        ENGINE.apply(state, 0, Move(play=Play(card=ASTROLOGER, token_day=TUESDAY)))
    assert len(plays_of(state, 0, ASTROLOGER)) == 4
    state, events = play(state, 0, ASTROLOGER, token_day=FRIDAY)
    (peek,) = of_kind(events, "token_peeked")
    assert peek.token_peeked.value == 2
    assert ENGINE.redact_event(peek, 1).token_peeked.value == 0
    assert ENGINE.view(state, 0).tokens[3].known and ENGINE.view(state, 0).tokens[3].value == 2
    assert not ENGINE.view(state, 1).tokens[3].known and ENGINE.view(state, 1).tokens[3].value == 0


def test_dog_discards_the_hand_face_down_and_draws_as_many() -> None:
    rest = [A(HUNT, 1, 1), A(HUNT, 2, 2), QUEEN]
    fresh = [A(DANCE, 5), A(DANCE, 4), A(DANCE, 3)]
    state = scenario(hands={0: [DOG, *rest], 1: [A(HUNT, 2)]}, deck_top=fresh)
    state, events = play(state, 0, DOG)
    assert sorted(state.players[0].hand) == sorted(fresh)
    assert sorted(state.players[0].face_down_discards) == sorted(rest)
    assert DOG in state.discard
    (discarded,) = of_kind(events, "hand_discarded")
    assert ENGINE.redact_event(discarded, 1).hand_discarded.count == 3
    assert not ENGINE.redact_event(discarded, 1).hand_discarded.cards
    assert QUEEN not in ENGINE.view(state, 1).discard, "face-down discards stay hidden"
    assert ENGINE.view(state, 1).face_down_discards == 3
    assert list(ENGINE.view(state, 0).my_face_down_discards) == rest


def test_queen_cancels_the_guard_no_pass_no_support() -> None:
    state = scenario(hands={0: [GUARD, A(HUNT, 2)], 3: [QUEEN]}, supports={2: 1})
    state, _ = step(state, 0, Move(play=Play(card=GUARD, support=1)))
    state, _ = cancel_with_queen(state, 3)
    assert not state.players[0].passed and state.players[1].supporter == 2


def test_peon_supports_without_passing() -> None:
    state = scenario(hands={0: [PEON, A(HUNT, 2)], 1: [A(DANCE, 2)]}, supports={2: 3})
    assert {p.support for p in plays_of(state, 0, PEON)} == {1, 2}, "unsupported players"
    with pytest.raises(IllegalMoveError, match="must support"):
        ENGINE.apply(state, 0, Move(play=Play(card=PEON)))
    state, _ = play(state, 0, PEON, support=1)
    assert not state.players[0].passed and state.players[1].supporter == 0
    state, _ = pass_(state, 1)
    state, _ = pass_(state, 2)
    state, _ = pass_(state, 3)
    assert state.turn == 0
    passes = [m.passing for m in legal(state, 0) if m.WhichOneof("kind") == "passing"]
    assert [p.HasField("support") for p in passes] == [False], "its token is spent"


def test_peon_token_given_back_by_a_guard_can_support_again() -> None:
    state = scenario(hands={0: [PEON, A(HUNT, 2)], 1: [GUARD, A(DANCE, 3)]})
    state, _ = play(state, 0, PEON, support=2)
    state, _ = play(state, 1, GUARD, support=2)
    assert state.players[0].supporting == -1
    assert state.turn == 2
    state, _ = pass_(state, 2)
    state, _ = pass_(state, 3)
    assert {m.passing.support for m in legal(state, 0) if m.passing.HasField("support")} == {1, 3}


def test_peon_without_anyone_to_support_has_no_effect() -> None:
    spent = scenario(hands={0: [PEON]}, supports={0: 1})
    (only,) = plays_of(spent, 0, PEON)
    assert not only.HasField("support"), "its token is already spent"
    everyone = scenario(hands={0: [PEON]}, supports={1: 2, 2: 3, 3: 1})
    (only,) = plays_of(everyone, 0, PEON)
    assert not only.HasField("support"), "every other player has a supporter"
    after, events = play(everyone, 0, PEON)
    assert not of_kind(events, "supported") and not after.players[0].passed


def test_rainy_day_ends_the_day_without_winner() -> None:
    state = scenario(
        hands={0: [RAINY_DAY], 1: [A(HUNT, 2)]},
        displays={1: [A(HUNT, 5), PRINCESS], 2: [LITTLE_PRINCE]},
        supports={2: 1},
    )
    state, events = play(state, 0, RAINY_DAY)
    (cancelled,) = of_kind(events, "day_cancelled")
    assert cancelled.day_cancelled.reason == pb.KingsLifeDayRecord.RESULT_RAINY_DAY
    assert not of_kind(events, "day_reckoned") and not of_kind(events, "reward_taken")
    assert state.tokens[0].status == Status.STATUS_DISCARDED
    assert RAINY_DAY in state.removed and RAINY_DAY not in state.deck
    assert all(not p.kept for p in state.players), "Princess and Little Prince discarded"
    assert state.day == WEDNESDAY


def test_queen_cancels_the_rainy_day() -> None:
    state = scenario(hands={0: [RAINY_DAY], 1: [QUEEN, A(HUNT, 2)]})
    state, _ = step(state, 0, Move(play=Play(card=RAINY_DAY)))
    state, _ = cancel_with_queen(state, 1)
    assert state.day == TUESDAY and state.phase == Phase.PHASE_TURNS
    assert RAINY_DAY in state.discard and RAINY_DAY not in state.removed


def test_a_cancelled_cards_choices_vanish() -> None:
    state = scenario(hands={0: [THIEF_3, A(HUNT, 1, 1)], 2: [QUEEN]}, displays={1: [A(DANCE, 3)]})
    state, _ = step(state, 0, Move(play=Play(card=THIEF_3, target_card=A(DANCE, 3))))
    state, _ = cancel_with_queen(state, 2)
    assert list(state.players[1].display) == [A(DANCE, 3)] and not state.players[0].display
    assert not state.HasField("pending")


def test_queen_window_follows_every_character() -> None:
    state = scenario(hands={0: [CHAMBERLAIN], 1: [A(HUNT, 2)]})
    state, _ = step(state, 0, Move(play=Play(card=CHAMBERLAIN, positions=[0, 1])))
    assert state.phase == Phase.PHASE_QUEEN_WINDOW
    assert list(state.preferences) == [HUNT, DANCE, TOURNEY, FEAST], "not before the window"
    state, _ = decline_all(state)
    assert list(state.preferences) == [DANCE, HUNT, TOURNEY, FEAST]


def test_sorcerer_travels_with_its_card_and_its_effect_continues() -> None:
    changed = A(FEAST, 4)
    state = scenario(
        hands={0: [JESTER], 2: [A(HUNT, 1, 1)]},
        displays={1: [changed, SORCERER], 2: [A(DANCE, 2)]},
        sorcerer_on=changed,
        sorcerer_activity=HUNT,
    )
    state, _ = play(state, 0, JESTER, cards=sorted((changed, A(DANCE, 2))))
    assert sorted(state.players[2].display) == sorted([changed, SORCERER])
    view = ENGINE.view(state, 0)
    assert (view.programs[2].activity, view.programs[2].value) == (HUNT, 5), "still a Hunt card"
    # Handed over by a supporter, it keeps its Sorcerer too.
    state, _ = pass_(state, 1)
    state, _ = pass_(state, 2, support=3, hand_over=changed)
    assert sorted(state.players[3].display) == sorted([changed, SORCERER])
    assert state.sorcerer_on == changed and state.sorcerer_activity == HUNT
