"""The engine's memo of movement listings (derived.Derived): it only saves work.

Every listing the memo hands out, and every listing it derives after a free
rotation, equals the listing made from scratch; the membership hooks answer
exactly membership in the enumeration (the kit's own check); the memo belongs
to an engine object, is bounded, and two engines answer alike.
"""

from __future__ import annotations

import importlib
import random

import pytest
from throneroom.games.kill_the_king.data import Mode
from throneroom.v1 import kill_the_king_pb2 as pb
from throneroom_server.games.kill_the_king import derived
from throneroom_server.games.kill_the_king.engine import KILL_THE_KING, KillTheKing
from throneroom_server.games.kit.checks import narrowing_problems

State = pb.KillTheKingState
Move = pb.KillTheKingMove

VARIANTS = [
    ((), 2),
    ((("mode", int(Mode.ATTACK_AND_DEFENSE)),), 2),
    ((("advanced", 1),), 2),
    ((("mode", int(Mode.ATTACK_AND_DEFENSE)), ("advanced", 1)), 2),
    ((("mode", int(Mode.KILL_THE_KING_GIGA)),), 3),
    ((("mode", int(Mode.ATTACK_AND_DEFENSE_GIGA)), ("advanced", 1)), 4),
]


def _options(engine: KillTheKing, values: tuple[tuple[str, int], ...]) -> pb.KillTheKingOptions:
    options = engine.default_options()
    for name, value in values:
        setattr(options, name, value)
    return options


class Counting(derived.Derived):
    """A verifying memo that counts its listings taken from the memo and derived."""

    __slots__ = ("derived_rotations", "derived_steps", "hits")

    def __init__(self) -> None:
        super().__init__(verify=True)
        self.hits = 0
        self.derived_rotations = 0
        self.derived_steps = 0

    def listing(self, state: State, seat: int) -> derived.Listing:
        before = len(self._listings)
        found = super().listing(state, seat)
        self.hits += len(self._listings) == before  # nothing stored: a memo hit
        return found

    def rotated(self, state: State, seat: int, before: derived.Listing, uid: int) -> None:
        super().rotated(state, seat, before, uid)
        self.derived_rotations += 1

    def stepped(
        self,
        state: State,
        seat: int,
        before: derived.Listing,
        *,
        uid: int,
        origin: int,
        active: int,
    ) -> bool:
        done = super().stepped(state, seat, before, uid=uid, origin=origin, active=active)
        self.derived_steps += done
        return done


class Forgetful(derived.Derived):
    """A memo that keeps nothing: every listing is made from scratch and no
    effect finds the listing its membership test read (so each plays the
    kind's plain effect) — the definition as if it had no memo."""

    __slots__ = ()

    def listing(self, state: State, seat: int) -> derived.Listing:
        return derived.listed(state, seat)

    def checked(self, state: State, seat: int) -> derived.Listing | None:
        return None


def _plain() -> KillTheKing:
    return KillTheKing(Forgetful())


@pytest.mark.parametrize(("values", "seats"), VARIANTS)
def test_memo_listings_equal_listings_from_scratch(
    values: tuple[tuple[str, int], ...], seats: int
) -> None:
    # verify=True lists every memo hit again from scratch and compares; the
    # engine's legal moves are also compared with an engine whose memo keeps
    # nothing.
    memo = Counting()
    engine = KillTheKing(memo)
    plain = _plain()
    decisions = 0
    for game in range(2):
        chooser = random.Random(game)
        state = engine.setup(_options(engine, values), seats, 40 + game)
        while acting := engine.to_act(state):
            seat = acting[chooser.randrange(len(acting))]
            moves = engine.legal_moves(state, seat)
            assert list(moves) == list(plain.legal_moves(state, seat))
            move = moves[chooser.randrange(len(moves))]
            state, _ = engine.apply(state, seat, move)
            decisions += 1
            assert len(memo) <= memo.limit
    assert decisions > 300
    assert memo.hits > decisions // 2  # the membership test read the memo
    assert memo.derived_rotations > 10  # free rotations took the derived path
    assert memo.derived_steps > 10  # plain steps took the derived path


def test_apply_matches_an_engine_whose_memo_keeps_nothing() -> None:
    memo = Counting()
    engine = KillTheKing(memo)
    plain = _plain()
    chooser = random.Random(5)
    state = engine.setup(engine.default_options(), 2, 9)
    while acting := engine.to_act(state):
        moves = engine.legal_moves(state, acting[0])
        move = moves[chooser.randrange(len(moves))]
        ours, our_events = engine.apply(state, acting[0], move)
        theirs, their_events = plain.apply(state, acting[0], move)
        assert ours.SerializeToString(deterministic=True) == theirs.SerializeToString(
            deterministic=True
        )
        assert our_events == their_events
        state = ours


def test_membership_hooks_answer_the_enumeration() -> None:
    engine = KillTheKing()
    probes = [
        Move(step=Move.Step(unit=0, direction=pb.DIRECTION_NORTH)),
        Move(rotate=Move.Rotate(unit=1, facing=pb.DIRECTION_WEST)),
        Move(dismount=Move.Dismount(unit=2)),
        Move(end_phase=Move.EndPhase()),
    ]
    checked = 0
    for game in range(2):
        chooser = random.Random(game)
        state = engine.setup(engine.default_options(), 2, 70 + game)
        earlier: list[Move] = []
        while acting := engine.to_act(state):
            seat = acting[0]
            moves = engine.legal_moves(state, seat)
            if state.phase == State.PHASE_MOVEMENT and chooser.random() < 0.2:
                for asked in (seat, 1 - seat):
                    problems = narrowing_problems(engine, state, asked, probes + earlier[-6:])
                    assert not problems, problems
                checked += 1
            move = moves[chooser.randrange(len(moves))]
            earlier.append(move)
            state, _ = engine.apply(state, seat, move)
    assert checked > 20


def test_the_memo_belongs_to_the_engine() -> None:
    module = importlib.import_module(derived.__name__)
    for name, value in vars(module).items():
        if name.startswith("__"):
            continue
        assert not isinstance(value, (dict, list, set, bytearray)), name
        assert not hasattr(value, "cache_info"), name
    one, two = KillTheKing(), KillTheKing()
    assert one.derived is not two.derived
    assert one.definition is two.definition is KILL_THE_KING  # the memo is bound, not declared
    state = one.setup(one.default_options(), 2, 3)
    chooser = random.Random(3)
    while state.phase != State.PHASE_MOVEMENT:
        moves = one.legal_moves(state, one.to_act(state)[0])
        state, _ = one.apply(state, one.to_act(state)[0], moves[chooser.randrange(len(moves))])
    seat = one.to_act(state)[0]
    assert len(two.derived) == 0
    assert list(one.legal_moves(state, seat)) == list(two.legal_moves(state, seat))
    assert len(two.derived) == 1  # this listing, kept by the engine that made it
    two.legal_moves(state, seat)
    assert len(two.derived) == 1  # and read again, not listed again
