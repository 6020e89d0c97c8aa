"""Setup (rule 1): followers, courts and the redraw rule, the board, the cards."""

from __future__ import annotations

from collections import Counter

import pytest
from throneroom.v1 import common_pb2
from throneroom_server.games.core import InvalidOptionsError
from throneroom_server.games.king_is_dead.board import HAND, REGIONS
from throneroom_server.games.king_is_dead.setup import _seats_to_redraw
from throneroom_server.games.rng import Rng, seed_rng

from .helpers import AQS, CAER, CAL, DIN, GAME, LON, D, counts, court

HOMES = {CAL: 0, CAER: 1, LON: 2}  # region -> colour index


@pytest.mark.parametrize("mordred", [False, True])
@pytest.mark.parametrize("num_seats", [2, 3, 4])
def test_setup_components(num_seats: int, mordred: bool) -> None:
    options = GAME.default_options()
    options.mordred = mordred
    for seed in range(20):
        state = GAME.setup(options, num_seats, seed)
        GAME.check_invariants(state)
        per_faction = 16 if num_seats == 2 else 18
        removed = (state.removed.scots, state.removed.welsh, state.removed.romano_british)
        assert removed == ((2, 2, 2) if num_seats == 2 else (0, 0, 0))
        for region in REGIONS:
            c = counts(state, region)
            assert sum(c) == 4, "every region starts with 4 followers"
            if region in HOMES:
                assert c[HOMES[region]] >= 2, "2 followers of the home colour"
            black = 1 if mordred and region in (DIN, AQS) else 0
            assert c[3] == black
        assert state.loyalist_pool == (7 if mordred else 0)
        for seat in range(num_seats):
            assert sum(court(state, seat)) == 2
            assert list(state.seats[seat].hand) == list(HAND)
            assert not state.seats[seat].played and state.seats[seat].has_crown_token
        on_board = sum(sum(counts(state, r)[:3]) for r in REGIONS)
        supply = state.supply.scots + state.supply.welsh + state.supply.romano_british
        assert on_board + supply + 2 * num_seats == 3 * per_faction
        assert sorted(c.region for c in state.region_cards) == list(REGIONS)
        assert all(c.face_up and not c.HasField("crowned_by") for c in state.region_cards)
        assert state.to_move == 0 and state.pending.decision == D.DECISION_TURN
        assert GAME.to_act(state) == (0,)


def test_setup_is_deterministic_and_seeded() -> None:
    options = GAME.default_options()
    a = GAME.setup(options, 3, 42).SerializeToString(deterministic=True)
    assert a == GAME.setup(options, 3, 42).SerializeToString(deterministic=True)
    boards = {tuple(counts(GAME.setup(options, 3, seed), r) for r in REGIONS) for seed in range(10)}
    assert len(boards) > 5


def _reference_setup(
    num_seats: int, mordred: bool, seed: int
) -> tuple[list[list[int]], list[tuple[int, ...]], list[int], Counter[int]]:
    """The documented order of draws, written out independently."""
    msg = common_pb2.RngState()
    seed_rng(msg, seed)
    rng = Rng(msg)
    per = 16 if num_seats == 2 else 18
    bag = sorted([1] * (per - 2) + [2] * (per - 2) + [3] * (per - 2))
    courts = []
    for _ in range(num_seats):
        courts.append([bag.pop(rng.below(len(bag))), bag.pop(rng.below(len(bag)))])
    while True:
        pairs = Counter(c[0] for c in courts if c[0] == c[1])
        again = sorted(s for s, c in enumerate(courts) if c[0] == c[1] and pairs[c[0]] >= 2)
        if not again:
            break
        for s in again:
            bag.extend(courts[s])
        bag.sort()
        for s in again:
            courts[s] = [bag.pop(rng.below(len(bag))), bag.pop(rng.below(len(bag)))]
    board = {r: [0, 0, 0, 0] for r in REGIONS}
    for region, colour in ((CAL, 0), (CAER, 1), (LON, 2)):
        board[region][colour] = 2
    if mordred:
        board[DIN][3] = board[AQS][3] = 1
    for region in REGIONS:
        while sum(board[region]) < 4:
            board[region][bag.pop(rng.below(len(bag))) - 1] += 1
    order = list(REGIONS)
    rng.shuffle(order)
    return (
        [sorted(c) for c in courts],
        [tuple(board[r]) for r in REGIONS],
        order,
        Counter(bag),
    )


@pytest.mark.parametrize(("num_seats", "mordred"), [(2, False), (3, True), (4, False)])
def test_setup_follows_the_documented_draw_order(num_seats: int, mordred: bool) -> None:
    options = GAME.default_options()
    options.mordred = mordred
    for seed in (0, 1, 99, 2**63 + 5):
        state = GAME.setup(options, num_seats, seed)
        courts, board, order, supply = _reference_setup(num_seats, mordred, seed)
        got_courts = [
            sorted(c for c, n in zip((1, 2, 3), court(state, s), strict=True) for _ in range(n))
            for s in range(num_seats)
        ]
        assert got_courts == courts
        assert [counts(state, r) for r in REGIONS] == board
        assert [c.region for c in state.region_cards] == order
        got = (state.supply.scots, state.supply.welsh, state.supply.romano_british)
        assert got == (supply[1], supply[2], supply[3])


def test_redraw_rule_who_draws_again() -> None:
    assert _seats_to_redraw([[2, 2], [2, 2], [1, 3]]) == [0, 1]
    assert _seats_to_redraw([[1, 1], [2, 2], [3, 3]]) == []
    assert _seats_to_redraw([[1, 2], [1, 1], [1, 1], [3, 3]]) == [1, 2]
    assert _seats_to_redraw([[1, 1], [1, 1], [2, 2], [2, 2]]) == [0, 1, 2, 3]
    assert _seats_to_redraw([[1, 2], [1, 2]]) == []  # only pairs of one colour count


def test_redraw_rule_applied_at_setup() -> None:
    redrawn = 0
    for seed in range(300):
        state = GAME.setup(GAME.default_options(), 4, seed)
        pairs = Counter(
            c.index(2) for c in map(list, (court(state, s) for s in range(4))) if 2 in c
        )
        assert all(n < 2 for n in pairs.values()), "two seats kept pairs of one colour"
        redrawn += state.court_redraws > 0
    assert redrawn > 0, "some seed needs a redraw"


def test_setup_summary_event() -> None:
    state = GAME.setup(GAME.default_options(), 3, 5)
    (event,) = GAME.setup_events(state)
    summary = event.setup
    assert [c.region for c in state.region_cards] == list(summary.region_card_order)
    assert list(summary.regions) == list(state.regions)
    assert [c for c in summary.courts] == [s.court for s in state.seats]
    assert summary.supply == state.supply


def test_seat_counts_and_options() -> None:
    for bad in (1, 5):
        with pytest.raises(InvalidOptionsError, match="played by 2 to 4 seats"):
            GAME.validate_options(GAME.default_options(), bad)
    assert [GAME.max_decisions(GAME.default_options(), n) for n in (2, 3, 4)] == [112, 192, 288]
    assert GAME.info.name == "king_is_dead"
    assert [o.name for o in GAME.info.options] == ["mordred"]
