"""One writing per exchange (rules 3.2-3.4, reading R2): a Garrison moving one
follower each way has two writings (A->B one + B->A one back, or B->A one +
A->B one back); legal_moves lists it once, the other writing is malformed, and
the undo rule forbids the mirror of the previous exchange however either of
them was written."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from throneroom_server.games.core import IllegalMoveError, InvalidMoveError

from .helpers import (
    AMBASSADOR,
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
    GARRISON,
    LON,
    RATAE,
    SAX,
    D,
    Move,
    R,
    S,
    State,
    W,
    act,
    build,
    decision,
    garrison,
    legal,
    play,
    summon,
)

# Only Caledonia, Deva and Eboracum are open; Caledonia borders no open region.
RESOLVED = [(DIN, C_S), (CAER, C_W), (RATAE, C_R), (LON, C_S), (AQS, SAX)]


def _after_one_each_way(written_from_deva: bool) -> State:
    """Seat 0 garrisons one Welsh from Deva to Eboracum and one Scot back, in
    the writing given (the other writing set by hand, as a state stored before
    exchanges had one writing may hold it), then summons from Caledonia."""
    state = build(2, board={DEVA: (0, 1, 0), EBO: (1, 0, 0), CAL: (0, 0, 2)}, resolved=RESOLVED)
    state, _ = act(state, play(GARRISON))
    # One follower each way is the most any Garrison can move here: listed once.
    assert legal(state) == [garrison(DEVA, EBO, [W], S)]
    state, _ = act(state, garrison(DEVA, EBO, [W], S), summon(CAL, R))
    if not written_from_deva:
        state.last_exchange.exchange.CopyFrom(garrison(EBO, DEVA, [S], W))
    return state


@pytest.mark.parametrize("written_from_deva", [True, False])
def test_undo_rule_forbids_a_one_each_way_mirror_in_both_writings(
    written_from_deva: bool,
) -> None:
    state = _after_one_each_way(written_from_deva)
    assert state.regions[DEVA - 1].scots == 1 and state.regions[EBO - 1].welsh == 1
    state, _ = act(state, play(GARRISON))
    assert state.to_move == 1 and decision(state) == D.DECISION_GARRISON
    # The mirror (Scot back to Eboracum, Welsh back to Deva) is gone in both
    # writings; as far as possible, single followers go out instead.
    assert legal(state) == [garrison(DEVA, EBO, [S]), garrison(EBO, DEVA, [W])]
    with pytest.raises(IllegalMoveError, match=r"undo seat 0's exchange .*undo rule"):
        GAME.apply(state, 1, garrison(DEVA, EBO, [S], W))
    with pytest.raises(InvalidMoveError, match="written from the lower region"):
        GAME.apply(state, 1, garrison(EBO, DEVA, [W], S))


def test_one_each_way_written_from_the_higher_region_is_malformed() -> None:
    state = build(2, board={DEVA: (0, 1, 0), EBO: (1, 0, 0), CAL: (0, 0, 2)}, resolved=RESOLVED)
    state, _ = act(state, play(GARRISON))
    with pytest.raises(InvalidMoveError, match=r"from_region=3, to_region=4"):
        GAME.apply(state, 0, garrison(EBO, DEVA, [S], W))
    assert garrison(EBO, DEVA, [S], W) not in GAME.legal_moves(state, 0)


def test_same_colour_each_way_mirrors_itself() -> None:
    state = build(2, board={DEVA: (1, 0, 0), EBO: (1, 0, 0), CAL: (0, 0, 2)}, resolved=RESOLVED)
    state, _ = act(state, play(GARRISON), garrison(DEVA, EBO, [S], S), summon(CAL, R))
    state, _ = act(state, play(GARRISON))
    assert legal(state) == [garrison(DEVA, EBO, [S]), garrison(EBO, DEVA, [S])]


# -- no two legal moves with the same effect ------------------------------------------


def _movement(move: Move) -> Counter[tuple[int, int, int]]:
    """The followers an exchange moves, as (from, to, colour) counts: its effect
    on the board, whichever way it is written (worked out here on its own)."""
    moved: Counter[tuple[int, int, int]] = Counter()
    if move.HasField("garrison"):
        g = move.garrison
        for colour in g.outgoing:
            moved[(g.from_region, g.to_region, colour)] += 1
        if g.HasField("returning"):
            moved[(g.to_region, g.from_region, g.returning)] += 1
    else:
        a = move.ambassador
        if a.HasField("from_a"):
            moved[(a.region_a, a.region_b, a.from_a)] += 1
        if a.HasField("from_b"):
            moved[(a.region_b, a.region_a, a.from_b)] += 1
    return moved


def _effect(state: State, seat: int, move: Move) -> tuple[bytes, frozenset[object]]:
    """What a move leaves: the state without the record of how the exchange was
    written, and the movement that record protects."""
    after, _ = GAME.apply(state, seat, move)
    movement = frozenset(_movement(after.last_exchange.exchange).items())
    after.ClearField("last_exchange")
    return after.SerializeToString(deterministic=True), movement


def _assert_no_two_alike(state: State, seat: int) -> int:
    moves = list(GAME.legal_moves(state, seat))
    effects = [_effect(state, seat, m) for m in moves]
    assert len(set(effects)) == len(effects), [str(m) for m in moves]
    return len(moves)


def test_sparse_board_lists_each_exchange_once() -> None:
    # Deva (W) and Eboracum (S) border; Caledonia (R, R) borders nothing open.
    for card in (GARRISON, AMBASSADOR):
        state = build(2, board={DEVA: (0, 1, 0), EBO: (1, 0, 0), CAL: (0, 0, 2)}, resolved=RESOLVED)
        state, _ = act(state, play(card))
        assert _assert_no_two_alike(state, 0) >= 1


@pytest.mark.parametrize("mordred", [False, True])
def test_exchanges_of_random_games_have_distinct_effects(mordred: bool) -> None:
    options = GAME.default_options()
    options.mordred = mordred
    checked = Counter[int]()
    for seed in range(30):
        chooser = random.Random(seed)
        state = GAME.setup(options, 2 + seed % 3, 900 + seed)
        while acting := GAME.to_act(state):
            seat = acting[0]
            if decision(state) in (D.DECISION_GARRISON, D.DECISION_AMBASSADOR):
                checked[decision(state)] += _assert_no_two_alike(state, seat)
            moves = GAME.legal_moves(state, seat)
            state, _ = GAME.apply(state, seat, moves[chooser.randrange(len(moves))])
    assert checked[D.DECISION_GARRISON] > 100 and checked[D.DECISION_AMBASSADOR] > 100


def test_exchanges_on_sparse_random_boards_have_distinct_effects() -> None:
    # Few followers: the partial executions (one each way, two out, one out)
    # and the undo rule's fallbacks that random games seldom reach.
    rng = random.Random(31)
    regions = [CAL, DIN, DEVA, EBO, CAER, RATAE, LON, AQS]
    partial = 0
    for _ in range(150):
        open_regions = rng.sample(regions, rng.randint(2, 5))
        board = {
            r: (rng.choice([0, 0, 1]), rng.choice([0, 0, 1]), rng.choice([0, 1, 2]))
            for r in open_regions
        }
        resolved = [(r, rng.choice([C_S, C_W, C_R])) for r in regions if r not in open_regions]
        for card in (GARRISON, AMBASSADOR):
            state = build(2, board=board, resolved=resolved)
            state, _ = act(state, play(card))
            if decision(state) not in (D.DECISION_GARRISON, D.DECISION_AMBASSADOR):
                continue
            moves = list(GAME.legal_moves(state, 0))
            partial += sum(1 for m in moves if sum(_movement(m).values()) < 3)
            _assert_no_two_alike(state, 0)
            # The next seat's exchange right after, under the undo rule.
            state, _ = act(state, moves[rng.randrange(len(moves))])
            if decision(state) == D.DECISION_SUMMON:
                state, _ = act(state, GAME.legal_moves(state, 0)[0])
            assert state.to_move == 1 and decision(state) == D.DECISION_TURN
            state, _ = act(state, play(card))
            if decision(state) in (D.DECISION_GARRISON, D.DECISION_AMBASSADOR):
                _assert_no_two_alike(state, 1)
    assert partial > 100
