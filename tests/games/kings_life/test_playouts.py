"""Random playouts for 4-8 players: invariants after every move, purity,
determinism, sorted legal moves that all apply, rejection of moves that are
not legal, termination within max_decisions."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from throneroom.v1 import kings_life_pb2 as pb
from throneroom_server.games.core import (
    GameFinishedError,
    IllegalMoveError,
    InvalidMoveError,
    NotYourTurnError,
)

from .helpers import ENGINE, Move, Play, State

SEATS = (4, 5, 6, 7, 8)


def encode(message: object) -> bytes:
    assert isinstance(message, (State, pb.KingsLifeMove))
    return message.SerializeToString(deterministic=True)


def mutants(move: pb.KingsLifeMove, rng: random.Random) -> list[pb.KingsLifeMove]:
    """Moves one change away from ``move``."""
    out = []
    kind = move.WhichOneof("kind")
    if kind == "play":
        for change in ("card", "target_card", "hand_over", "support", "token_day", "cards"):
            m = Move()
            m.CopyFrom(move)
            if change == "card":
                m.play.card = rng.randrange(1, 71)
            elif change == "target_card":
                m.play.target_card = rng.randrange(0, 75)
            elif change == "hand_over":
                m.play.hand_over = rng.randrange(1, 71)
            elif change == "support":
                m.play.support = rng.randrange(-1, 9)
            elif change == "token_day":
                m.play.token_day = rng.randrange(0, 7)  # type: ignore[assignment]
            else:
                m.play.cards.append(rng.randrange(1, 71))
            out.append(m)
    elif kind == "passing":
        m = Move()
        m.CopyFrom(move)
        m.passing.support = rng.randrange(-1, 9)
        out.append(m)
        m = Move()
        m.CopyFrom(move)
        m.passing.hand_over = rng.randrange(1, 71)
        out.append(m)
    elif kind == "exchange":
        m = Move()
        m.CopyFrom(move)
        m.exchange.discard.append(rng.randrange(1, 71))
        out.append(m)
    elif kind == "queen":
        out.append(Move(queen=Move.Queen(cancel=True, target=rng.randrange(0, 8))))
    elif kind == "commit":
        out.append(Move(commit=Move.Commit(card=rng.randrange(0, 71))))
    out.append(Move())
    return out


def playout(seats: int, seed: int, choice_seed: int, deep_every: int) -> int:
    rng = random.Random(choice_seed)
    options = ENGINE.default_options()
    state = ENGINE.setup(options, seats, seed)
    assert encode(state) == encode(ENGINE.setup(options, seats, seed)), "setup is deterministic"
    limit = ENGINE.max_decisions(options, seats)
    decisions = 0
    while True:
        ENGINE.check_invariants(state)
        acting = ENGINE.to_act(state)
        if not acting:
            break
        assert list(acting) == sorted(set(acting))
        seat = acting[rng.randrange(len(acting))]
        moves = ENGINE.legal_moves(state, seat)
        keys = [ENGINE.move_key(m) for m in moves]
        assert moves and keys == sorted(keys) and len(set(keys)) == len(keys)
        before = encode(state)
        if decisions % deep_every == 0:
            for other in range(seats):
                if other not in acting:
                    assert not ENGINE.legal_moves(state, other)
                    with pytest.raises(NotYourTurnError):
                        ENGINE.apply(state, other, moves[0])
            for move in moves[:: max(1, len(moves) // 10)]:
                new, _ = ENGINE.apply(state, seat, move)
                ENGINE.check_invariants(new)
            legal_keys = set(keys)
            for move in moves[:3]:
                for mutant in mutants(move, rng):
                    if ENGINE.move_key(mutant) in legal_keys and mutant.WhichOneof("kind"):
                        continue
                    with pytest.raises((InvalidMoveError, IllegalMoveError)) as error:
                        ENGINE.apply(state, seat, mutant)
                    assert str(error.value)
            assert encode(state) == before, "rejected moves change nothing"
        move = moves[rng.randrange(len(moves))]
        move_bytes = encode(move)
        state2, events = ENGINE.apply(state, seat, move)
        again, events_again = ENGINE.apply(state, seat, move)
        assert encode(state) == before and encode(move) == move_bytes, "apply is pure"
        assert encode(state2) == encode(again) and events == events_again, "and deterministic"
        state = state2
        decisions += 1
        assert decisions <= limit, "max_decisions is an upper bound"
    outcome = ENGINE.outcome(state)
    assert outcome is not None and outcome.winners and outcome.summary
    with pytest.raises(GameFinishedError):
        ENGINE.apply(state, 0, Move(passing=Move.Pass()))
    return decisions


@pytest.mark.parametrize("seats", SEATS)
@settings(
    max_examples=3,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(seed=st.integers(0, 2**64 - 1), choice_seed=st.integers(0, 2**32))
def test_random_playouts(seats: int, seed: int, choice_seed: int) -> None:
    assert playout(seats, seed, choice_seed, deep_every=7) > 0


def test_many_cheap_playouts_terminate_and_hold_the_invariants() -> None:
    for seats in SEATS:
        for seed in range(8):
            rng = random.Random(seed)
            state = ENGINE.setup(ENGINE.default_options(), seats, seed)
            limit = ENGINE.max_decisions(ENGINE.default_options(), seats)
            decisions = 0
            while acting := ENGINE.to_act(state):
                seat = acting[rng.randrange(len(acting))]
                moves = ENGINE.legal_moves(state, seat)
                state, _ = ENGINE.apply(state, seat, moves[rng.randrange(len(moves))])
                ENGINE.check_invariants(state)
                decisions += 1
            assert 0 < decisions <= limit
            assert state.phase == pb.KingsLifeState.PHASE_GAME_OVER
            assert len(state.days) == 5


def test_malformed_moves_are_invalid_in_any_state() -> None:
    state = ENGINE.setup(ENGINE.default_options(), 4, 1)
    seat = state.turn
    for move in (
        Move(),
        Move(play=Play(card=0)),
        Move(play=Play(card=71)),
        Move(play=Play(card=1, target_card=3)),
        Move(play=Play(card=60, positions=[1, 1])),
        Move(play=Play(card=55, target_card=1, activity=9)),  # type: ignore[arg-type]
        Move(exchange=Move.Exchange(discard=[5, 3])),
        Move(queen=Move.Queen(cancel=True)),
        Move(passing=Move.Pass(support=9)),
    ):
        with pytest.raises(InvalidMoveError):
            ENGINE.apply(state, seat, move)
    with pytest.raises(InvalidMoveError):
        ENGINE.apply(state, 4, Move(exchange=Move.Exchange()))


def test_wrong_kind_of_decision_is_illegal_with_a_sentence() -> None:
    state = ENGINE.setup(ENGINE.default_options(), 4, 1)
    with pytest.raises(IllegalMoveError, match="exchange"):
        ENGINE.apply(state, state.turn, Move(passing=Move.Pass()))
