"""King Is Dead as a kit definition: the phase table is the pending decision,
the fast membership test (``narrow``: ``is_legal`` on the move's key) is the
enumeration restricted, in every phase, with Mordred and under the 3-player
last-card rule, and each engine builds its definition around its own search."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
from throneroom.v1 import king_is_dead_pb2 as pb
from throneroom_server.games.core import IllegalMoveError, InvalidMoveError
from throneroom_server.games.king_is_dead import KingIsDead
from throneroom_server.games.king_is_dead.board import CARDS, REGIONS
from throneroom_server.games.king_is_dead.engine import (
    KING_IS_DEAD,
    PHASE_OF_DECISION,
    PHASES,
    phase_of,
)
from throneroom_server.games.king_is_dead.lastcard import (
    LastCardSearch,
    last_card_in_play,
    resolving_last_card,
)
from throneroom_server.games.king_is_dead.moves import key_of
from throneroom_server.games.kit.checks import narrowing_problems

from .helpers import GAME, Move, State

M = pb.KingIsDeadMove
COLOURS = (1, 2, 3, 4)


def _any_move(rng: random.Random) -> Move:
    """A move of any kind with values in or near their ranges (often malformed)."""
    region = lambda: rng.choice([*REGIONS, 0, 9])  # noqa: E731
    colour = lambda: rng.choice([*COLOURS, 0])  # noqa: E731
    kind = rng.randrange(8)
    if kind == 0:
        return M(pass_turn=M.Pass())
    if kind == 1:
        return M(play_card=M.PlayCard(card=rng.choice([*CARDS, 0])))  # type: ignore[arg-type]
    if kind == 2:
        a, b = sorted(rng.sample(REGIONS, 2))
        return M(crown=M.Crown(region_a=a, region_b=b, crowned=rng.choice((a, b, region()))))  # type: ignore[arg-type]
    if kind == 3:
        garrison = M.Garrison(
            from_region=region(),  # type: ignore[arg-type]
            to_region=region(),  # type: ignore[arg-type]
            outgoing=sorted(colour() for _ in range(rng.choice((1, 2, 2)))),  # type: ignore[misc]
        )
        if rng.random() < 0.5:
            garrison.returning = colour()  # type: ignore[assignment]
        return M(garrison=garrison)
    if kind == 4:
        a, b = sorted(rng.sample(REGIONS, 2))
        ambassador = M.Ambassador(region_a=a, region_b=b)  # type: ignore[arg-type]
        if rng.random() < 0.7:
            ambassador.from_a = colour()  # type: ignore[assignment]
        if rng.random() < 0.7:
            ambassador.from_b = colour()  # type: ignore[assignment]
        return M(ambassador=ambassador)
    if kind == 5:
        return M(settle=M.Settle(region=region()))  # type: ignore[arg-type]
    if kind == 6:
        return M(place=M.Place(region=region()))  # type: ignore[arg-type]
    return M(summon=M.Summon(region=region(), faction=colour()))  # type: ignore[arg-type]


def _well_formed(move: Move) -> bool:
    try:
        key_of(move)
    except InvalidMoveError:
        return False
    return True


def _playout(game: KingIsDead, seats: int, mordred: bool, seed: int) -> Iterator[State]:
    chooser = random.Random(seed)
    state = game.setup(pb.KingIsDeadOptions(mordred=mordred), seats, seed)
    while acting := game.to_act(state):
        yield state
        moves = game.legal_moves(state, acting[0])
        state, _ = game.apply(state, acting[0], moves[chooser.randrange(len(moves))])
    yield state


@pytest.mark.parametrize("mordred", [False, True])
@pytest.mark.parametrize("seats", [2, 3, 4])
def test_the_membership_test_is_the_enumeration_restricted(seats: int, mordred: bool) -> None:
    """``narrow`` (each kind's membership test) lists a move exactly when the
    phase's generator does, asked about every legal move and about random
    well-formed moves of every kind; and the checked apply accepts a move
    exactly when it is listed."""
    game = KingIsDead()
    rng = random.Random(seats * 2 + mordred)
    games = 6 if seats == 3 else 2
    checked = under_last_card = 0
    for seed in range(games):
        for state in _playout(game, seats, mordred, 300 + seed):
            if not game.to_act(state):
                continue
            (seat,) = game.to_act(state)
            probes = [m for m in (_any_move(rng) for _ in range(12)) if _well_formed(m)]
            assert narrowing_problems(game, state, seat, probes) == []
            listed = list(game.legal_moves(state, seat))
            for probe in probes[:4]:
                assert game.is_legal(state, seat, probe) == (probe in listed), probe
            checked += len(probes) + len(listed)
            under_last_card += last_card_in_play(state) or resolving_last_card(state)
    assert checked > 500
    if seats == 3:
        assert under_last_card > 10, "the playouts reach the 3-player last card"


def test_every_pending_decision_is_a_phase() -> None:
    table = GAME.definition.phases
    names = [name for name, *_ in PHASES]
    assert set(PHASE_OF_DECISION) == set(pb.KingIsDeadPending.Decision.values())
    for decision, name in PHASE_OF_DECISION.items():
        assert phase_of(State(pending=pb.KingIsDeadPending(decision=decision))) == name
    assert [phase.name for phase in table.phases] == [*names, "over"]
    assert set(PHASE_OF_DECISION.values()) == {*names, "over"}
    assert table.start == ("turn",)
    assert all(phase.ordered and phase.generate is not None for phase in table.phases[:-1])
    assert table["over"].over
    described = table.describe()
    assert all(f"| {name} |" in described for name in names)


def test_a_move_of_a_kind_the_phase_does_not_allow_is_illegal() -> None:
    state = GAME.setup(GAME.default_options(), 2, 1)
    with pytest.raises(IllegalMoveError, match="seat 0 may play pass_turn or play_card now"):
        GAME.apply(state, 0, M(summon=M.Summon(region=1, faction=1)))  # type: ignore[arg-type]


def test_a_legal_move_with_unknown_fields_is_not_the_listed_move() -> None:
    """Legal means equal to a listed message: unknown fields (which the service
    discards before any move reaches an engine) make another message."""
    state = GAME.setup(GAME.default_options(), 2, 1)
    move = M()
    move.ParseFromString(M(pass_turn=M.Pass()).SerializeToString() + b"\xf8\x07\x05")
    assert move not in list(GAME.legal_moves(state, 0))
    with pytest.raises(IllegalMoveError, match="send it without them: pass_turn"):
        GAME.apply(state, 0, move)


def test_each_engine_binds_the_definition_to_its_own_search() -> None:
    search = LastCardSearch()
    one, other = KingIsDead(search), KingIsDead()
    assert one.search is search and other.search is not search
    assert one.definition is other.definition is KING_IS_DEAD
    assert one.running is not other.running
    assert one.info == other.info == GAME.info
    assert one.definition.phases.describe() == other.definition.phases.describe()
    with pytest.raises(AttributeError):
        one.search = LastCardSearch()  # type: ignore[misc]
