"""Moves: malformed and illegal ones are rejected with a sentence; legal moves
are sorted, unique, and built lazily (rule 7)."""

from __future__ import annotations

import random
from typing import Any

import pytest
from throneroom_server.games.core import (
    GameFinishedError,
    IllegalMoveError,
    InvalidMoveError,
    NotYourTurnError,
)
from throneroom_server.games.king_is_dead.board import DECIDE_PLACE, DECIDE_SETTLE
from throneroom_server.games.king_is_dead.cards import decision_keys, summon_keys
from throneroom_server.games.king_is_dead.lastcard import resolving_last_card
from throneroom_server.games.king_is_dead.legality import summon_keys_of
from throneroom_server.games.king_is_dead.moves import FIELD_OF_KIND, LegalMoves, move_from_key
from throneroom_server.games.king_is_dead.struggle import Reading, read_board

from .helpers import (
    AQS,
    CAL,
    CROWN,
    DEVA,
    EBO,
    GAME,
    GARRISON,
    LON,
    SETTLERS,
    M,
    Move,
    R,
    S,
    W,
    act,
    ambassador,
    build,
    crown,
    garrison,
    legal,
    pass_,
    play,
    settle,
    summon,
)


def _malformed() -> list[tuple[Move, str]]:
    bad_returning: Any = garrison(DEVA, EBO, [S, S])
    bad_returning.garrison.returning = 0  # set, but UNSPECIFIED
    return [
        (M(), "the move is empty"),
        (play(0), "play_card.card must be an action card"),
        (play(99), "play_card.card must be an action card"),
        (crown(DEVA, CAL, CAL), "region_a < region_b"),
        (crown(CAL, DEVA, EBO), "one of the two swapped"),
        (crown(0, DEVA, DEVA), "crown.region_a must be a region"),
        (garrison(DEVA, DEVA, [S]), "must differ"),
        (garrison(DEVA, EBO, []), "1 or 2 followers"),
        (garrison(DEVA, EBO, [S, S, S]), "1 or 2 followers"),
        (garrison(DEVA, EBO, [W, S]), "ascending order"),
        (garrison(DEVA, EBO, [S, 7]), "garrison.outgoing must be a follower colour"),
        (bad_returning, "garrison.returning must be a follower colour"),
        (ambassador(CAL, DEVA, None, None), "at least one of from_a and from_b"),
        (ambassador(DEVA, CAL, S, S), "region_a < region_b"),
        (settle(0), "settle.region must be a region"),
        (settle(9), "settle.region must be a region"),
        (summon(CAL, 0), "summon.faction must be a follower colour"),
    ]


@pytest.mark.parametrize(("move", "message"), _malformed())
def test_malformed_moves_are_invalid(move: Move, message: str) -> None:
    state = build(2, board={CAL: (1, 0, 0)})
    before = state.SerializeToString(deterministic=True)
    with pytest.raises(InvalidMoveError, match=message):
        GAME.apply(state, 0, move)
    assert state.SerializeToString(deterministic=True) == before


def test_turn_and_game_over_errors() -> None:
    state = build(2, board={CAL: (1, 0, 0)})
    with pytest.raises(NotYourTurnError, match="turn: it is seat 0's turn, not seat 1's"):
        GAME.apply(state, 1, pass_())
    with pytest.raises(InvalidMoveError, match="seat 2 does not exist"):
        GAME.apply(state, 2, pass_())
    assert list(GAME.legal_moves(state, 1)) == []
    over = build(2, board={CAL: (1, 0, 0)}, played=[[], []])
    while not over.HasField("outcome"):
        over, _ = act(over, pass_())
    with pytest.raises(GameFinishedError, match=r"The King Is Dead: the game is over \(.+\)"):
        GAME.apply(over, 0, pass_())
    assert list(GAME.legal_moves(over, 0)) == [] and GAME.outcome(over) is not None


def test_card_not_held_and_the_second_settlers() -> None:
    state = build(2, board={CAL: (1, 0, 0)}, played=[[CROWN], []])
    with pytest.raises(IllegalMoveError, match="Seat 0 holds no Crown card"):
        GAME.apply(state, 0, play(CROWN))
    # Two Settlers: the second one stays playable after the first.
    state, _ = act(state, play(SETTLERS), settle(CAL), settle(CAL), settle(CAL), summon(CAL, S))
    state, _ = act(state, pass_())
    assert state.to_move == 0 and play(SETTLERS) in legal(state)
    state, _ = act(state, play(SETTLERS), settle(CAL), settle(CAL), settle(CAL), summon(CAL, S))
    state, _ = act(state, pass_())
    assert play(SETTLERS) not in legal(state)
    with pytest.raises(IllegalMoveError, match="Seat 0 holds no Settlers card"):
        GAME.apply(state, 0, play(SETTLERS))


def test_wrong_kind_of_decision() -> None:
    state = build(2, board={DEVA: (2, 0, 0), EBO: (1, 0, 0)})
    state, _ = act(state, play(GARRISON))
    with pytest.raises(IllegalMoveError, match="seat 0 may play garrison now, not settle"):
        GAME.apply(state, 0, settle(CAL))
    with pytest.raises(IllegalMoveError, match="Garrison: Eboracum has 1 blue follower"):
        GAME.apply(state, 0, garrison(EBO, DEVA, [S, S], S))
    with pytest.raises(IllegalMoveError, match="Londinium has no yellow follower to send back"):
        GAME.apply(state, 0, garrison(EBO, LON, [S], R))


def test_legal_moves_are_sorted_unique_and_lazy() -> None:
    state = build(2, board={DEVA: (2, 1, 1, 0), EBO: (1, 2, 0), AQS: (1, 1, 1)})
    state, _ = act(state, play(GARRISON))
    moves = GAME.legal_moves(state, 0)
    assert isinstance(moves, LegalMoves)
    keys = [GAME.move_key(m) for m in moves]
    assert keys == sorted(keys) and len(set(keys)) == len(keys)
    assert len(moves) == len(keys) > 10
    listed = list(moves)
    assert moves[0] == listed[0] and moves[-1] == listed[-1]
    assert moves[1:3] == list(moves)[1:3]
    assert moves == list(moves) and list(moves) == moves
    assert moves[0] in moves and pass_() not in moves and "x" not in moves
    # Each access builds a fresh message: changing one changes nothing else.
    first: Any = moves[0]
    first.garrison.from_region = AQS
    assert moves[0] != first
    for move in moves:
        GAME.apply(state, 0, move)  # every legal move applies


def test_turn_moves_list_each_distinct_card_once() -> None:
    state = build(2, board={CAL: (1, 0, 0)}, played=[[GARRISON], []])
    moves = legal(state)
    assert moves[0] == pass_()
    cards = [m.play_card.card for m in moves[1:]]
    assert cards == [1, 3, 4, 5, 6, 7]  # Settlers once, Garrison played


def test_a_move_built_from_a_key_has_its_decision_set_even_with_default_values() -> None:
    """move_from_key sets the body only for the pass (no field): any other body is
    set by its first field, even a default value."""
    keys = (
        (0,),
        (1, 0),
        (7, 0, 0),
        (5, 0),
        (6, 0),
        (2, 0, 0, 0),
        (3, 0, 0, 0, 0, 0),
        (4, 0, 0, 0, 0),
    )
    for key in keys:
        move = move_from_key(key)
        assert move.WhichOneof("decision") == FIELD_OF_KIND[key[0]], key


def test_the_summon_keys_read_in_one_pass_are_the_rules_summon_keys() -> None:
    """``legality.summon_keys_of`` (the summon's legal moves, read in one pass) is
    ``cards.summon_keys(read_board(state))`` at every state of random games, and
    the summon's legal moves are those keys (but for the 3-player last card's,
    which keep only the winning ones)."""
    summons = 0
    for seats in (2, 3, 4):
        chooser = random.Random(seats)
        state = GAME.setup(GAME.default_options(), seats, seats)
        while acting := GAME.to_act(state):
            assert summon_keys_of(state) == summon_keys(read_board(state))
            moves = GAME.legal_moves(state, acting[0])
            if moves[0].WhichOneof("decision") == "summon" and not resolving_last_card(state):
                summons += 1
                assert [GAME.move_key(m) for m in moves] == summon_keys(read_board(state))
            state, _ = GAME.apply(state, acting[0], moves[chooser.randrange(len(moves))])
    assert summons > 10


def test_the_settle_and_place_keys_read_from_the_controls_are_the_rules_keys() -> None:
    """The settle and place decisions' legal moves (``legality.keys_to_act``
    reads them from the region controls alone) are ``cards.decision_keys`` of
    the decision at every such state of random games (but for the 3-player
    last card's, which keep only the winning ones)."""
    seen = {DECIDE_SETTLE: 0, DECIDE_PLACE: 0}
    for seats in (2, 3, 4):
        for seed in range(12):
            chooser = random.Random(seed)
            state = GAME.setup(GAME.default_options(), seats, seed)
            while acting := GAME.to_act(state):
                moves = GAME.legal_moves(state, acting[0])
                pending = state.pending
                decision = pending.decision if state.HasField("pending") else None
                if decision in seen and not resolving_last_card(state):
                    seen[decision] += 1
                    rules = decision_keys(decision, pending.colour, Reading(state, acting[0]))
                    assert [GAME.move_key(m) for m in moves] == rules
                state, _ = GAME.apply(state, acting[0], moves[chooser.randrange(len(moves))])
    assert min(seen.values()) > 10, seen
