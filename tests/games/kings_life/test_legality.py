"""Legality is written once: in every state, a well-formed move is accepted
exactly when ``legal_moves`` lists it, and a refused one is refused with the
sentence of the rule it breaks (never the catch-all), from the same decision
tree that enumerates the legal moves (``choices``)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from itertools import combinations

from throneroom.v1 import kings_life_pb2 as pb
from throneroom_server.games.core import IllegalMoveError, InvalidMoveError, NotYourTurnError
from throneroom_server.games.kings_life import phases, shapes
from throneroom_server.games.kings_life.data import ACTIVITIES, CARD_CHARACTER, DAYS
from throneroom_server.games.kit.checks import narrowing_problems

from .helpers import ENGINE, Move, Play, State

CATCH_ALL = "no legal decision is spelled like this one"


def _supports(n: int) -> list[int | None]:
    return [None, *range(n)]


def _with_support(play_or_pass: Play | Move.Pass, target: int | None, gift: int) -> None:
    if target is not None:
        play_or_pass.support = target
    play_or_pass.hand_over = gift


def candidates(state: State, seat: int, rng: random.Random) -> Iterator[pb.KingsLifeMove]:
    """Well-formed moves of every kind near the position (legal or not)."""
    n = state.num_seats
    me = state.players[seat]
    on_table = sorted({c for p in state.players for c in p.display})
    some = rng.sample(range(1, 71), 4)
    gifts = [0, *me.display, *some[:1]]
    for target in _supports(n):
        for gift in gifts:
            passing = Move.Pass()
            _with_support(passing, target, gift)
            yield Move(passing=passing)
    for card in sorted({*me.hand, *some, 64, 65, 67}):
        kind = CARD_CHARACTER[card]
        if kind in (pb.CHARACTER_MERCHANT, pb.CHARACTER_THIEF):
            for t in [*on_table, *some]:
                yield Move(play=Play(card=card, target_card=t))
        elif kind == pb.CHARACTER_SORCERER:
            for t in [*on_table[:8], *some]:
                for activity in ACTIVITIES:
                    yield Move(play=Play(card=card, target_card=t, activity=activity))
        elif kind == pb.CHARACTER_JESTER:
            pairs = list(combinations(sorted({*on_table, *some}), 2))
            for pair in rng.sample(pairs, min(30, len(pairs))):
                yield Move(play=Play(card=card, cards=pair))
        elif kind == pb.CHARACTER_CHAMBERLAIN:
            for pair in combinations(range(4), 2):
                yield Move(play=Play(card=card, positions=pair))
        elif kind == pb.CHARACTER_ASTROLOGER:
            for day in DAYS:
                yield Move(play=Play(card=card, token_day=day))
        elif kind in (pb.CHARACTER_GUARD, pb.CHARACTER_PEON):
            for target in _supports(n):
                for gift in gifts:
                    play = Play(card=card)
                    _with_support(play, target, gift)
                    yield Move(play=play)
        else:
            yield Move(play=Play(card=card))
    yield Move(queen=Move.Queen())
    for target in range(n):
        yield Move(queen=Move.Queen(cancel=True, target=target))
    hand = sorted(me.hand)
    pool = sorted({*hand, *some})
    for size in range(5):
        subsets = list(combinations(pool, size))
        for subset in rng.sample(subsets, min(8, len(subsets))):
            yield Move(exchange=Move.Exchange(discard=subset))
    for card in (0, *hand, *some):
        yield Move(commit=Move.Commit(card=card))
        yield Move(take_back=Move.TakeBack(card=card))
    for card in me.display:
        yield Move(take_back=Move.TakeBack(card=card))
    for flag in (False, True):
        yield Move(mulligan=Move.Mulligan(take=flag))
        yield Move(duke=Move.Duke(play=flag))


def check_position(state: State, rng: random.Random) -> tuple[int, int]:
    """Every candidate of every seat: accepted exactly when listed. Returns
    (accepted, refused) counts."""
    accepted = refused = 0
    acting = set(ENGINE.to_act(state))
    for seat in range(state.num_seats):
        listed = {m.SerializeToString(deterministic=True) for m in ENGINE.legal_moves(state, seat)}
        for move in candidates(state, seat, rng):
            try:
                shapes.check(move, move.WhichOneof("kind") or "", state.num_seats)
            except InvalidMoveError:
                continue
            key = move.SerializeToString(deterministic=True)
            try:
                ENGINE.apply(state, seat, move)
            except IllegalMoveError as error:
                assert key not in listed, f"seat {seat}: listed but refused ({error}): {move}"
                assert str(error) and CATCH_ALL not in str(error), f"imprecise: {error}"
                if seat not in acting:
                    assert isinstance(error, NotYourTurnError)
                refused += 1
            else:
                assert key in listed, f"seat {seat}: accepted but not listed: {move}"
                accepted += 1
    return accepted, refused


def test_a_well_formed_move_is_legal_exactly_when_listed() -> None:
    accepted = refused = 0
    phases_seen: set[int] = set()
    for seed in range(8):
        rng = random.Random(seed)
        seats = 4 + seed % 5
        state = ENGINE.setup(ENGINE.default_options(), seats, seed)
        decisions = 0
        while acting := ENGINE.to_act(state):
            if decisions % 11 == 0 or state.phase in (
                pb.KingsLifeState.PHASE_FOOL_PASS,
                pb.KingsLifeState.PHASE_FOOL_TAKE_BACK,
                pb.KingsLifeState.PHASE_DUKE,
            ):
                a, r = check_position(state, rng)
                accepted += a
                refused += r
                phases_seen.add(state.phase)
            seat = acting[rng.randrange(len(acting))]
            moves = ENGINE.legal_moves(state, seat)
            state, _ = ENGINE.apply(state, seat, moves[rng.randrange(len(moves))])
            decisions += 1
    assert accepted > 100 and refused > 1000
    assert len(phases_seen) >= 6, phases_seen


def test_each_decision_tree_is_its_kinds_generator_narrowing_and_explanation() -> None:
    """On the kit, a tree is read three ways: its moves are the kind's generator,
    the tree walked along a move is the kind's ``narrow`` and ``member`` (the
    generator restricted: ``kit.checks.narrowing_problems``) and its refusal is the
    kind's ``explain``; a turn's phase generator (passes, then plays) lists
    exactly what the two kinds' generators list."""
    rng = random.Random(11)
    phases_seen: set[int] = set()
    asked = 0
    for seed in range(6):
        seats = 4 + seed % 5
        state = ENGINE.setup(ENGINE.default_options(), seats, seed)
        decisions = 0
        while acting := ENGINE.to_act(state):
            seat = acting[rng.randrange(len(acting))]
            moves = ENGINE.legal_moves(state, seat)
            if decisions % 7 == 0 or state.phase != pb.KingsLifeState.PHASE_QUEEN_WINDOW:
                probes = list(candidates(state, seat, rng))
                assert narrowing_problems(ENGINE, state, seat, probes) == []
                for probe in probes[:40]:
                    kind = ENGINE.definition.kind_of(probe)
                    assert kind is not None and kind.explain is not None
                    if probe not in moves and kind.name in ENGINE.phase(state).moves:
                        reason = kind.explain(state, seat, probe)
                        assert reason and reason.split(":")[0] in WHATS, reason
                asked += len(probes)
                phases_seen.add(state.phase)
            state, _ = ENGINE.apply(state, seat, moves[rng.randrange(len(moves))])
            decisions += 1
    assert asked > 5000 and len(phases_seen) >= 6, (asked, phases_seen)


WHATS = {d.what for d in phases.DECISIONS}
