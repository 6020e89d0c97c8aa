"""Power struggles: turns, passes, resolution, forced passes (rules 2.x)."""

from __future__ import annotations

import random

import pytest
from throneroom_server.games.core import IllegalMoveError
from throneroom_server.games.king_is_dead.board import CARD_FACTION
from throneroom_server.games.king_is_dead.cards import faction_decision, first_decision
from throneroom_server.games.king_is_dead.struggle import (
    Reading,
    new_event,
    read_controls,
    read_supply,
)

from .helpers import (
    AQS,
    C_R,
    C_S,
    C_W,
    CAER,
    CAL,
    DEVA,
    DIN,
    EBO,
    GAME,
    LON,
    RATAE,
    SAX,
    SETTLERS,
    D,
    act,
    build,
    cards_except,
    counts,
    decision,
    kinds,
    legal,
    of_kind,
    pass_,
    pass_round,
    play,
    play_through,
)

PHIL, JO, LAURA = 0, 1, 2


def test_phil_jo_laura_power_struggle() -> None:
    state = GAME.setup(GAME.default_options(), 3, seed=7)
    first_region = state.region_cards[0].region
    # Phil passes, then Jo passes.
    state, _ = act(state, pass_(), pass_())
    assert state.to_move == LAURA and state.consecutive_passes == 2
    # If Laura were to pass, the struggle would end at once, no card played.
    ended, events = act(state, pass_())
    assert of_kind(events, "struggle_resolved")[0].region == first_region
    assert not ended.region_cards[0].face_up
    # Instead Laura plays, and the power struggle continues.
    state, events = play_through(state, SETTLERS)
    assert "struggle_resolved" not in kinds(events)
    assert state.to_move == PHIL and state.consecutive_passes == 0
    # Phil passes again, Jo plays, Laura passes.
    state, _ = act(state, pass_())
    assert state.to_move == JO
    state, _ = play_through(state, SETTLERS)
    state, _ = act(state, pass_())
    # Phil passes for the third time, Jo passes: the struggle ends at once.
    state, events = act(state, pass_())
    assert "struggle_resolved" not in kinds(events)
    state, events = act(state, pass_())
    (resolved,) = of_kind(events, "struggle_resolved")
    assert resolved.region == first_region
    assert state.region_cards[0].face_up is False
    # The next power struggle begins with Laura's turn.
    assert state.to_move == LAURA
    assert state.consecutive_passes == 0
    assert state.region_cards[1].face_up


def test_a_pass_applies_to_that_turn_only() -> None:
    state = build(2, board={CAL: (2, 0, 0)})
    state, _ = act(state, pass_())
    state, _ = play_through(state, SETTLERS)
    # Seat 0 passed before, yet may play now.
    assert play(SETTLERS) in legal(state)
    assert state.to_move == 0


@pytest.mark.parametrize(
    ("followers", "control"),
    [
        ((3, 1, 0), C_S),
        ((0, 2, 1), C_W),
        ((1, 1, 2), C_R),
        ((2, 2, 1), SAX),  # a tie between factions
        ((0, 0, 0), SAX),  # no faction present
        ((1, 1, 1), SAX),
    ],
)
def test_resolution_strict_majority_else_saxons(
    followers: tuple[int, int, int], control: int
) -> None:
    state = build(
        2,
        board={CAL: followers, DEVA: (1, 0, 0)},
        order=[CAL, DEVA, DIN, EBO, CAER, RATAE, LON, AQS],
    )
    supply_before = (state.supply.scots, state.supply.welsh, state.supply.romano_british)
    state, events = pass_round(state)
    (resolved,) = of_kind(events, "struggle_resolved")
    assert resolved.region == CAL and resolved.control == control and resolved.order == 1
    assert (resolved.followers.scots, resolved.followers.welsh) == followers[:2]
    region = state.regions[CAL - 1]
    assert region.control == control and region.resolved_order == 1
    # All followers leave the region for the common supply.
    assert counts(state, CAL) == (0, 0, 0, 0)
    supply = (state.supply.scots, state.supply.welsh, state.supply.romano_british)
    assert supply == tuple(b + f for b, f in zip(supply_before, followers, strict=True))


def test_current_struggle_is_the_lowest_face_up_position() -> None:
    order = [RATAE, CAL, DIN, DEVA, EBO, CAER, LON, AQS]
    state = build(2, board={RATAE: (1, 0, 0), CAL: (0, 1, 0)}, order=order)
    assert GAME.view(state, None).current_struggle == RATAE
    state, events = pass_round(state)
    assert of_kind(events, "struggle_resolved")[0].region == RATAE
    assert GAME.view(state, None).current_struggle == CAL
    state, events = pass_round(state)
    assert of_kind(events, "struggle_resolved")[0].region == CAL
    assert state.regions[CAL - 1].control == C_W


def test_fourth_saxon_token_is_an_invasion_at_once() -> None:
    resolved = [(CAL, SAX), (DIN, SAX), (DEVA, SAX)]
    state = build(2, board={EBO: (1, 1, 0), CAER: (5, 0, 0)}, resolved=resolved)
    state, events = pass_round(state)
    assert of_kind(events, "struggle_resolved")[0].saxon_tokens == 4
    assert state.HasField("outcome") and state.outcome.termination == "invasion"
    assert GAME.to_act(state) == ()
    assert decision(state) == D.DECISION_NONE
    assert state.regions[CAER - 1].control == 0  # the game ended before Caerleon


def test_last_struggle_ends_the_game_with_control() -> None:
    resolved = [(CAL, C_S), (DIN, C_S), (DEVA, C_W), (EBO, SAX), (CAER, C_W), (RATAE, C_R)]
    resolved += [(LON, C_S)]
    state = build(2, board={AQS: (2, 0, 0)}, resolved=resolved, courts=[(2, 0, 0), (1, 0, 0)])
    state, events = pass_round(state)
    assert kinds(events)[-1] == "game_ended"
    assert state.outcome.termination == "control"
    assert list(state.outcome.winners) == [0]


def test_seat_without_cards_passes_automatically() -> None:
    # Seat 1 has played all 8 cards: its turns are automatic passes.
    state = build(
        2, board={CAL: (1, 0, 0), DEVA: (0, 1, 0)}, played=[[], cards_except()], to_move=0
    )
    state, events = act(state, pass_())
    passes = of_kind(events, "passed")
    assert [(p.seat, p.forced) for p in passes] == [(0, False), (1, True)]
    assert of_kind(events, "struggle_resolved")[0].region == CAL
    # The next struggle starts with the next seat clockwise after seat 1: seat 0.
    assert state.to_move == 0 and state.consecutive_passes == 0
    assert GAME.to_act(state) == (0,)
    state, events = act(state, pass_())
    assert [(p.seat, p.forced) for p in of_kind(events, "passed")] == [(0, False), (1, True)]
    assert of_kind(events, "struggle_resolved")[0].region == DIN


def test_empty_hands_resolve_the_rest_without_decisions() -> None:
    board = {region: (1, 0, 0) for region in (CAL, DIN, DEVA, EBO, CAER, RATAE, LON, AQS)}
    played = [cards_except(SETTLERS), cards_except()]
    state = build(2, board=board, played=played, courts=[(1, 0, 0), (0, 0, 0)])
    state, events = play_through(state, SETTLERS)
    resolved = of_kind(events, "struggle_resolved")
    assert len(resolved) == 8
    assert state.HasField("outcome") and state.outcome.termination == "control"
    assert kinds(events)[-1] == "game_ended"
    assert all(p.forced for p in of_kind(events, "passed"))


def test_pass_is_rejected_when_another_decision_is_pending() -> None:
    state = build(2, board={CAL: (1, 0, 0)})
    state, _ = act(state, play(SETTLERS))
    with pytest.raises(IllegalMoveError, match="settle: seat 0 may play settle now, not pass_turn"):
        GAME.apply(state, 0, pass_())


@pytest.mark.parametrize(
    "kind",
    [
        "struggle_resolved",
        "passed",
        "effect_skipped",
        "card_played",
        "follower_summoned",
        "follower_placed",
        "crown_placed",
        "followers_moved",
    ],
)
def test_an_event_body_with_one_default_field_set_is_the_event(kind: str) -> None:
    """new_event does not call SetInParent: every caller sets a field of the body
    first (``seat``, or ``region`` for a resolution), which sets the body in the
    event even when the value is the field's default (seat 0)."""
    event, body = new_event(kind)
    assert event.WhichOneof("kind") is None
    if kind == "struggle_resolved":
        body.region = 0
    else:
        body.seat = 0
    assert event.WhichOneof("kind") == kind
    assert event.SerializeToString() != b""


def test_a_faction_card_starts_its_effect_read_without_a_reading() -> None:
    """``start_effect`` asks ``faction_decision`` directly for a faction card:
    the same answer as ``first_decision`` with a ``Reading``, at every turn of
    random games, for each faction card."""
    turns = 0
    for seats in (2, 3, 4):
        chooser = random.Random(seats)
        state = GAME.setup(GAME.default_options(), seats, seats)
        while acting := GAME.to_act(state):
            if decision(state) == D.DECISION_TURN:
                turns += 1
                for card in CARD_FACTION:
                    direct = faction_decision(card, read_controls(state), read_supply(state))
                    assert direct == first_decision(card, Reading(state, acting[0]))
            moves = GAME.legal_moves(state, acting[0])
            state, _ = GAME.apply(state, acting[0], moves[chooser.randrange(len(moves))])
    assert turns > 30
