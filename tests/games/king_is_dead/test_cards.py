"""The action cards: full and partial executions, targets, the summon (rules 3.x)."""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from throneroom_server.games.core import IllegalMoveError

from .helpers import (
    AMBASSADOR,
    AQS,
    C_R,
    C_S,
    C_W,
    CAER,
    CAL,
    CROWN,
    DEVA,
    DIN,
    EBO,
    GAME,
    GARRISON,
    LON,
    RATAE,
    RB_CARD,
    SAX,
    SCOTS_CARD,
    SETTLERS,
    WELSH_CARD,
    D,
    L,
    Move,
    R,
    S,
    State,
    W,
    act,
    ambassador,
    build,
    counts,
    court,
    crown,
    decision,
    garrison,
    kinds,
    legal,
    of_kind,
    pass_,
    place,
    play,
    settle,
    summon,
)

ALL = (CAL, DIN, DEVA, EBO, CAER, RATAE, LON, AQS)


def _regions_of(moves: Sequence[Move], kind: str) -> list[int]:
    return [getattr(m, kind).region for m in moves]


# -- the Crown ---------------------------------------------------------------------


def test_crown_swaps_two_cards_and_crowns_one() -> None:
    state = build(2, board={CAL: (1, 0, 0), LON: (0, 1, 0)})
    state, _ = act(state, play(CROWN))
    assert decision(state) == D.DECISION_CROWN
    moves = legal(state)
    assert len(moves) == 8 * 7  # 28 pairs of face-up cards, either one crowned
    assert crown(CAL, LON, LON) in moves
    state, events = act(state, crown(CAL, LON, LON))
    assert [c.region for c in state.region_cards][:1] == [LON]
    assert state.region_cards[6].region == CAL
    assert state.region_cards[0].crowned_by == 0
    assert not state.region_cards[6].HasField("crowned_by")
    assert state.seats[0].has_crown_token is False
    (placed,) = of_kind(events, "crown_placed")
    assert (placed.crowned, placed.position_a, placed.position_b) == (LON, 7, 1)
    # The swap moved the current card: Londinium is now contested.
    assert GAME.view(state, None).current_struggle == LON
    assert decision(state) == D.DECISION_SUMMON


def test_crowned_and_face_down_cards_cannot_be_swapped() -> None:
    state = build(
        2,
        board={DEVA: (1, 0, 0)},
        resolved=[(CAL, SAX)],
        played=[[], [CROWN]],
        crowned={DIN: 1},
    )
    state, _ = act(state, play(CROWN))
    swapped = {r for m in legal(state) for r in (m.crown.region_a, m.crown.region_b)}
    assert swapped == {DEVA, EBO, CAER, RATAE, LON, AQS}
    with pytest.raises(IllegalMoveError, match="Crown: the Din Eidyn card carries a crown"):
        GAME.apply(state, 0, crown(DIN, DEVA, DEVA))
    with pytest.raises(IllegalMoveError, match="Crown: the Caledonia card is face down"):
        GAME.apply(state, 0, crown(CAL, DEVA, DEVA))


def test_crown_in_the_last_struggle_does_nothing() -> None:
    # Alysa's example: no other region card to swap with the current one.
    resolved = [(CAL, C_S), (DIN, C_S), (DEVA, C_W), (EBO, SAX), (CAER, C_W), (RATAE, C_R)]
    resolved += [(LON, C_S)]
    state = build(2, board={AQS: (1, 1, 0)}, resolved=resolved)
    state, events = act(state, play(CROWN))
    assert kinds(events) == ["card_played", "effect_skipped"]
    assert state.seats[0].has_crown_token  # no token placed
    assert decision(state) == D.DECISION_SUMMON
    state, events = act(state, summon(AQS, W))
    assert court(state, 0) == (0, 1, 0)


# -- Garrison ------------------------------------------------------------------------


def test_garrison_full_exchange() -> None:
    state = build(2, board={DEVA: (2, 1, 0), EBO: (0, 0, 1)})
    state, _ = act(state, play(GARRISON))
    assert decision(state) == D.DECISION_GARRISON
    assert legal(state) == [
        garrison(DEVA, EBO, [S, S], R),
        garrison(DEVA, EBO, [S, W], R),
    ]
    state, events = act(state, garrison(DEVA, EBO, [S, W], R))
    assert counts(state, DEVA) == (1, 0, 1, 0)
    assert counts(state, EBO) == (1, 1, 0, 0)
    moved = of_kind(events, "followers_moved")
    assert [(m.from_region, m.to_region, list(m.followers)) for m in moved] == [
        (DEVA, EBO, [S, W]),
        (EBO, DEVA, [R]),
    ]
    assert decision(state) == D.DECISION_SUMMON


def test_garrison_needs_bordering_regions() -> None:
    state = build(2, board={DEVA: (2, 1, 0), LON: (0, 0, 1)})
    state, _ = act(state, play(GARRISON))
    with pytest.raises(IllegalMoveError, match="Garrison: Deva does not border Londinium"):
        GAME.apply(state, 0, garrison(DEVA, LON, [S, S], R))


def test_garrison_partial_moves_as_many_as_possible() -> None:
    # Only one follower on the board: it moves to any bordering region.
    state = build(2, board={DEVA: (1, 0, 0)})
    state, _ = act(state, play(GARRISON))
    assert legal(state) == [garrison(DEVA, b, [S]) for b in (DIN, EBO, CAER, RATAE)]
    # Ratae 1 and Londinium 2: two out of Londinium and one back beats the rest.
    state = build(2, board={RATAE: (1, 0, 0), LON: (0, 2, 0)})
    state, _ = act(state, play(GARRISON))
    assert legal(state) == [garrison(LON, RATAE, [W, W], S)]
    with pytest.raises(IllegalMoveError, match="moving 3 followers is possible"):
        GAME.apply(state, 0, garrison(RATAE, LON, [S], W))


def test_garrison_never_touches_resolved_regions() -> None:
    state = build(2, board={DEVA: (2, 0, 0)}, resolved=[(CAL, SAX), (DIN, C_S)])
    state, _ = act(state, play(GARRISON))
    targets = {m.garrison.to_region for m in legal(state)}
    assert DIN not in targets and targets == {EBO, CAER, RATAE}
    with pytest.raises(IllegalMoveError, match="Din Eidyn is already resolved"):
        GAME.apply(state, 0, garrison(DEVA, DIN, [S, S]))


def test_garrison_cannot_be_declined_and_is_skipped_when_impossible() -> None:
    state = build(2, board={DEVA: (2, 0, 0)})
    state, _ = act(state, play(GARRISON))
    assert pass_() not in legal(state)
    empty = build(2)
    empty, events = act(empty, play(GARRISON))
    assert kinds(events) == ["card_played", "effect_skipped", "summon_skipped"]
    assert empty.to_move == 1


# -- Ambassador ------------------------------------------------------------------------


def test_ambassador_exchanges_between_any_two_regions() -> None:
    state = build(2, board={CAL: (1, 0, 0), AQS: (1, 1, 0)})
    state, _ = act(state, play(AMBASSADOR))
    assert legal(state) == [ambassador(CAL, AQS, S, S), ambassador(CAL, AQS, S, W)]
    state, events = act(state, ambassador(CAL, AQS, S, W))
    assert counts(state, CAL) == (0, 1, 0, 0) and counts(state, AQS) == (2, 0, 0, 0)
    assert len(of_kind(events, "followers_moved")) == 2


def test_ambassador_with_an_empty_region_among_three() -> None:
    # Phil's example: three struggles left, one region empty. The third region
    # has a follower, so the exchange must be between the two occupied ones.
    resolved = [(CAL, C_S), (DIN, C_S), (DEVA, C_W), (EBO, SAX), (CAER, C_W)]
    state = build(2, board={RATAE: (1, 0, 0), AQS: (0, 0, 2)}, resolved=resolved)
    state, _ = act(state, play(AMBASSADOR))
    assert legal(state) == [ambassador(RATAE, AQS, S, R)]
    with pytest.raises(IllegalMoveError, match="as far as possible"):
        GAME.apply(state, 0, ambassador(RATAE, LON, S, None))
    state, _ = act(state, ambassador(RATAE, AQS, S, R))
    # He then summons, possibly a follower he just exchanged.
    assert summon(RATAE, R) in legal(state)
    # Without an eligible follower in the third region, "exchange with nothing".
    state = build(2, board={RATAE: (1, 0, 0)}, resolved=resolved)
    state, _ = act(state, play(AMBASSADOR))
    assert legal(state) == [ambassador(RATAE, LON, S, None), ambassador(RATAE, AQS, S, None)]
    state, _ = act(state, ambassador(RATAE, LON, S, None))
    assert counts(state, LON) == (1, 0, 0, 0)


# -- Settlers ------------------------------------------------------------------------


def test_settlers_place_one_of_each_faction_in_order() -> None:
    state = build(2, board={CAL: (1, 0, 0)}, resolved=[(DIN, C_S)], order=None)
    state, _ = act(state, play(SETTLERS))
    open_regions = [r for r in ALL if r != DIN]
    for colour in (S, W, R):
        assert decision(state) == D.DECISION_SETTLE and state.pending.colour == colour
        assert legal(state) == [settle(r) for r in open_regions]
        state, events = act(state, settle(AQS))
        (placed,) = of_kind(events, "follower_placed")
        assert (placed.region, placed.faction, placed.card) == (AQS, colour, SETTLERS)
    assert counts(state, AQS) == (1, 1, 1, 0)
    assert decision(state) == D.DECISION_SUMMON


def test_settlers_with_no_blue_in_the_supply() -> None:
    # Jo's example: no blue followers left, she still places red and yellow.
    state = build(2, board={CAL: (4, 0, 0), DIN: (4, 0, 0), DEVA: (4, 0, 0), EBO: (4, 0, 0)})
    assert state.supply.scots == 0
    state, _ = act(state, play(SETTLERS))
    assert state.pending.colour == W
    state, _ = act(state, settle(RATAE))
    assert state.pending.colour == R
    state, _ = act(state, settle(RATAE))
    assert counts(state, RATAE) == (0, 1, 1, 0)
    assert decision(state) == D.DECISION_SUMMON


def test_settlers_never_place_in_a_resolved_region() -> None:
    state = build(2, board={CAL: (1, 0, 0)}, resolved=[(DIN, C_S)])
    state, _ = act(state, play(SETTLERS))
    with pytest.raises(IllegalMoveError, match="Din Eidyn is already resolved"):
        GAME.apply(state, 0, settle(DIN))


# -- faction cards --------------------------------------------------------------------------


def test_faction_card_targets_border_the_unresolved_home() -> None:
    state = build(2, board={CAL: (1, 0, 0)})
    state, _ = act(state, play(SCOTS_CARD))
    assert decision(state) == D.DECISION_PLACE and state.pending.remaining == 2
    # Caledonia counts as Scots-controlled; only Din Eidyn borders it, and
    # Caledonia itself borders no other Scots region.
    assert legal(state) == [place(DIN)]
    with pytest.raises(IllegalMoveError, match="Caledonia does not border a region the Scots"):
        GAME.apply(state, 0, place(CAL))
    state, _ = act(state, place(DIN))
    assert state.pending.remaining == 1
    state, _ = act(state, place(DIN))
    assert counts(state, DIN) == (2, 0, 0, 0)
    assert decision(state) == D.DECISION_SUMMON


def test_faction_card_home_is_a_target_beside_another_controlled_region() -> None:
    state = build(2, board={CAL: (1, 0, 0)}, resolved=[(DIN, C_S)], order=None)
    state, _ = act(state, play(SCOTS_CARD))
    # Din Eidyn (Scots) borders Caledonia, Deva and Eboracum.
    assert _regions_of(legal(state), "place") == [CAL, DEVA, EBO]


def test_faction_card_targets_regions_bordering_any_controlled_region() -> None:
    state = build(2, board={}, resolved=[(CAER, C_S), (AQS, C_W)])
    state, _ = act(state, play(WELSH_CARD))
    # Caerleon (the Welsh home) is Scots now; Aquae Sulis is Welsh.
    assert _regions_of(legal(state), "place") == [RATAE, LON]


def test_welsh_card_with_no_welsh_control_and_scots_holding_caerleon() -> None:
    # Laura's example: the card is still played, then she summons.
    state = build(2, board={DEVA: (1, 1, 0)}, resolved=[(CAER, C_S)])
    state, events = act(state, play(WELSH_CARD))
    assert kinds(events) == ["card_played", "effect_skipped"]
    assert decision(state) == D.DECISION_SUMMON
    state, _ = act(state, summon(DEVA, W))
    assert court(state, 0) == (0, 1, 0)


def test_faction_card_with_one_or_no_follower_in_the_supply() -> None:
    # 2 players: 16 yellow. 15 on the board: one left in the supply.
    board = {CAL: (0, 0, 4), DIN: (0, 0, 4), DEVA: (0, 0, 4), EBO: (0, 0, 3)}
    state = build(2, board=board)
    state, _ = act(state, play(RB_CARD))
    assert state.pending.remaining == 1
    state, _ = act(state, place(RATAE))
    assert decision(state) == D.DECISION_SUMMON
    board[EBO] = (0, 0, 4)
    state = build(2, board=board)
    state, events = act(state, play(RB_CARD))
    assert kinds(events) == ["card_played", "effect_skipped"]


# -- the summon ------------------------------------------------------------------------------


def test_summon_takes_any_non_black_follower_from_the_board() -> None:
    state = build(2, board={CAL: (1, 0, 0), DIN: (0, 2, 0, 1)}, mordred=True)
    state, _ = act(state, play(SETTLERS), settle(AQS), settle(AQS), settle(AQS))
    assert legal(state) == [
        summon(CAL, S),
        summon(DIN, W),
        summon(AQS, S),
        summon(AQS, W),
        summon(AQS, R),
    ]
    with pytest.raises(IllegalMoveError, match="Loyalist followers can never be summoned"):
        GAME.apply(state, 0, summon(DIN, L))
    state, events = act(state, summon(AQS, R))
    assert court(state, 0) == (0, 0, 1)
    assert counts(state, AQS) == (1, 1, 0, 0)
    assert state.to_move == 1 and decision(state) == D.DECISION_TURN
    assert of_kind(events, "follower_summoned")[0].faction == R


def test_no_summon_when_no_follower_can_be_taken() -> None:
    state = build(2, board={DIN: (0, 0, 0, 2)}, mordred=True)
    state, events = act(state, play(CROWN), crown(CAL, DIN, CAL))
    assert "summon_skipped" in kinds(events)
    assert state.to_move == 1


# -- Loyalists and exchanges ----------------------------------------------------------------


def test_black_followers_are_exchanged_but_never_placed() -> None:
    state = build(2, board={DIN: (0, 0, 0, 2), EBO: (1, 0, 0)}, mordred=True)
    state, _ = act(state, play(GARRISON))
    assert garrison(DIN, EBO, [L, L], S) in legal(state)
    state, _ = act(state, garrison(DIN, EBO, [L, L], S))
    assert counts(state, EBO) == (0, 0, 0, 2)
    state = build(2, board={DIN: (0, 0, 0, 1), EBO: (1, 0, 0)}, mordred=True)
    state, _ = act(state, play(AMBASSADOR))
    assert ambassador(DIN, EBO, L, S) in legal(state)
    # Settlers and faction cards never offer black.
    state = build(2, board={DIN: (0, 0, 0, 1)}, mordred=True)
    state, _ = act(state, play(SETTLERS))
    assert [state.pending.colour] == [S]


# -- the undo rule -------------------------------------------------------------------------


def _after_seat_0_garrison() -> State:
    state = build(2, board={DEVA: (2, 1, 0), EBO: (0, 0, 1), CAL: (0, 0, 1)})
    state, _ = act(state, play(GARRISON), garrison(DEVA, EBO, [S, W], R), summon(CAL, R))
    return state


def test_undo_rule_forbids_the_mirror_right_after() -> None:
    state = _after_seat_0_garrison()
    mirror = garrison(EBO, DEVA, [S, W], R)
    state, _ = act(state, play(GARRISON))
    # Deva (S, R) and Eboracum (S, W): every other 3-follower garrison stays legal.
    assert legal(state) == [
        garrison(DEVA, EBO, [S, R], S),
        garrison(DEVA, EBO, [S, R], W),
        garrison(EBO, DEVA, [S, W], S),
    ]
    with pytest.raises(IllegalMoveError, match=r"undo seat 0's exchange .*undo rule"):
        GAME.apply(state, 1, mirror)


def test_undo_rule_lifted_by_a_different_card() -> None:
    state = _after_seat_0_garrison()
    state, _ = act(state, play(SETTLERS), settle(LON), settle(LON), settle(LON), summon(LON, S))
    state, _ = act(state, pass_(), play(GARRISON))
    assert state.to_move == 1
    assert garrison(EBO, DEVA, [S, W], R) in legal(state)


def test_undo_rule_lifted_by_a_resolution() -> None:
    state = build(
        2,
        board={DEVA: (2, 1, 0), EBO: (0, 0, 1), CAL: (0, 0, 2)},
        order=[CAL, DIN, DEVA, EBO, CAER, RATAE, LON, AQS],
    )
    state, _ = act(state, play(GARRISON), garrison(DEVA, EBO, [S, W], R), summon(CAL, R))
    assert state.HasField("last_exchange")
    state, events = act(state, pass_(), pass_())
    assert of_kind(events, "struggle_resolved")[0].region == CAL
    assert not state.HasField("last_exchange")
    state, _ = act(state, play(GARRISON))
    assert state.to_move == 1
    assert garrison(EBO, DEVA, [S, W], R) in legal(state)


def test_undo_rule_ambassador_mirror_and_self_mirror() -> None:
    board = {CAL: (1, 1, 0), AQS: (1, 1, 0), LON: (0, 0, 2)}
    state = build(2, board=board)
    state, _ = act(state, play(AMBASSADOR), ambassador(CAL, AQS, S, W), summon(LON, R))
    state, _ = act(state, play(AMBASSADOR))
    assert ambassador(CAL, AQS, W, S) not in legal(state)
    assert ambassador(CAL, LON, W, R) in legal(state)
    state = build(2, board=board)
    state, _ = act(state, play(AMBASSADOR), ambassador(CAL, AQS, S, S), summon(LON, R))
    state, _ = act(state, play(AMBASSADOR))
    # The same colour both ways mirrors itself.
    assert ambassador(CAL, AQS, S, S) not in legal(state)
    assert ambassador(CAL, AQS, S, W) in legal(state)


def test_undo_rule_falls_back_to_smaller_exchanges() -> None:
    # Only Deva and Eboracum are open. Seat 1 just garrisoned S,S from Deva to
    # Eboracum and got W back: its mirror is the only 3-follower garrison left.
    resolved = [(CAL, C_S), (DIN, C_W), (CAER, C_W), (RATAE, C_R), (LON, C_S), (AQS, SAX)]
    state = build(2, board={DEVA: (0, 1, 0), EBO: (2, 0, 0)}, resolved=resolved)
    state.last_exchange.seat = 1
    state.last_exchange.exchange.CopyFrom(garrison(DEVA, EBO, [S, S], W))
    state, _ = act(state, play(GARRISON))
    # W to Eboracum and S back is one movement, listed once (from the lower region).
    assert legal(state) == [
        garrison(DEVA, EBO, [W], S),
        garrison(EBO, DEVA, [S, S], None),
    ]


@pytest.mark.parametrize("card", [SETTLERS, SCOTS_CARD, WELSH_CARD, RB_CARD, CROWN])
def test_every_card_ends_with_a_summon(card: int) -> None:
    state = build(2, board={CAL: (1, 1, 1), CAER: (1, 1, 1), LON: (1, 1, 1)})
    state, _ = act(state, play(card))
    while decision(state) not in (D.DECISION_SUMMON, D.DECISION_TURN):
        state, _ = act(state, legal(state)[0])
    assert decision(state) == D.DECISION_SUMMON and state.to_move == 0
    assert state.seats[0].played[-1] == card
