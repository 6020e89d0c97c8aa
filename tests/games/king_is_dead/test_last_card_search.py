"""The pieces of the 3-player last-card search (rule 4.2) against the plain
definitions they stand for: the ending's outcome and winners, region
signatures, inert placements, leaves derived from a shared position, and
answers that do not depend on what was asked before."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from itertools import combinations

import pytest
from throneroom.games.king_is_dead.rules import region_winner
from throneroom_server.games.king_is_dead import KingIsDead, lastcard, searchending
from throneroom_server.games.king_is_dead.board import (
    CONTROL_LOYALISTS,
    NONE,
    SAXON_TOKENS_FOR_INVASION,
    SAXONS,
    Counts,
)
from throneroom_server.games.king_is_dead.cards import (
    K_AMBASSADOR,
    K_CROWN,
    K_GARRISON,
    K_PLACE,
    K_SETTLE,
    K_SUMMON,
    Key,
)
from throneroom_server.games.king_is_dead.endings import (
    CONTROL,
    INVASION,
    LOYALIST,
    faction_ranking,
    ranked_seat_wins,
    winners,
)
from throneroom_server.games.king_is_dead.rules import placed, summoned_from
from throneroom_server.games.king_is_dead.searchending import (
    AFTER_SUMMON,
    CONTROL_OF,
    Context,
    Leaves,
    inert,
    leaf_wins,
    outcome,
    signature,
)

from .helpers import GAME, D, State

# -- the ending -----------------------------------------------------------------------


def _random_resolved(rng: random.Random, resolved: int) -> tuple[list[int], list[int]]:
    """Controls and resolution orders of eight regions, ``resolved`` of them
    resolved without ending the game (at most 3 Saxon tokens, no Loyalists)."""
    regions = rng.sample(range(8), resolved)
    controls = [0] * 8
    orders = [0] * 8
    for order, region in enumerate(regions, start=1):
        saxons = controls.count(SAXONS) < SAXON_TOKENS_FOR_INVASION - 1
        controls[region] = rng.choice([1, 1, 2, 2, 3, 3, SAXONS] if saxons else [1, 2, 3])
        orders[region] = order
    return controls, orders


@pytest.mark.parametrize("num_seats", [2, 3, 4])
def test_ranked_seat_wins_agrees_with_winners(num_seats: int) -> None:
    rng = random.Random(num_seats)
    for _ in range(1500):
        controls, orders = _random_resolved(rng, rng.randint(0, 8))
        termination = rng.choice([CONTROL, INVASION, LOYALIST])
        courts = [tuple(rng.randint(0, 3) for _ in range(3)) for _ in range(num_seats)]
        stamps = rng.sample(range(1, 33), num_seats)
        last_played = [0 if rng.random() < 0.2 else t for t in stamps]
        ranks = faction_ranking(controls, orders)
        expected = winners(termination, controls, orders, courts, last_played)
        for seat in range(num_seats):
            found = ranked_seat_wins(
                seat,
                termination,
                first=ranks[0][2] if ranks else 0,
                second=ranks[1][2] if len(ranks) > 1 else 0,
                courts=courts,
                last_played=last_played,
            )
            assert found == (seat in expected), (termination, controls, orders, courts)


def _context(controls: list[int], orders: list[int], courts: list[tuple[int, int, int]]) -> Context:
    return Context(
        (),
        seat=0,
        controls=controls,
        orders=orders,
        courts=courts,
        last_played=[24, 22, 23],
        pool=0,
        mordred=False,
        forbidden=None,
    )


def test_outcome_is_the_forced_ending_in_resolution_order() -> None:
    rng = random.Random(7)
    for _ in range(3000):
        resolved = rng.randint(0, 7)
        controls, orders = _random_resolved(rng, resolved)
        ctx = _context(controls, orders, [(0, 0, 0)] * 3)
        sequence = tuple(
            rng.choice([1, 2, 3, CONTROL_LOYALISTS, SAXONS]) for _ in range(8 - resolved)
        )
        # The engine's way: resolve one region after another, checking the end.
        all_controls, all_orders = list(controls), list(orders)
        termination = CONTROL
        for i, control in enumerate(sequence):
            all_controls.append(control)
            all_orders.append(resolved + i + 1)
            if all_controls.count(SAXONS) >= SAXON_TOKENS_FOR_INVASION:
                termination = INVASION
                break
            if control == CONTROL_LOYALISTS:
                termination = LOYALIST
                break
        ranks = faction_ranking(all_controls, all_orders)
        expected = (
            (INVASION, 0, 0)
            if termination == INVASION
            else (
                termination,
                ranks[0][2] if ranks else 0,
                ranks[1][2] if len(ranks) > 1 else 0,
            )
        )
        assert outcome(ctx, sequence) == expected, (controls, orders, sequence)


# -- regions ---------------------------------------------------------------------------


def _random_counts(rng: random.Random) -> Counts:
    return (rng.randint(0, 4), rng.randint(0, 4), rng.randint(0, 4), rng.choice([0, 0, 1, 2]))


def test_signature_holds_the_control_with_and_without_each_summon() -> None:
    rng = random.Random(3)
    for _ in range(2000):
        counts = _random_counts(rng)
        sig = signature(counts)
        assert CONTROL_OF[sig] == region_winner(counts)
        for faction in (1, 2, 3):
            after = region_winner(summoned_from(counts, faction)) if counts[faction - 1] else -1
            assert AFTER_SUMMON[sig][faction] == after


def test_inert_placement_changes_no_signature_whatever_follows() -> None:
    rng = random.Random(4)
    seen = {True: 0, False: 0}
    for _ in range(2000):
        counts = _random_counts(rng)
        colour = rng.randint(1, 3)
        later = rng.choice([(), (2,), (3,), (2, 3), (colour,)])
        expected = True
        for size in range(len(later) + 1):
            for extra in combinations(later, size):
                before = counts
                for f in extra:
                    before = placed(before, f)
                if signature(placed(before, colour)) != signature(before):
                    expected = False
        assert inert(counts, colour, later) == expected
        seen[expected] += 1
    assert min(seen.values()) > 100


# -- positions of real games --------------------------------------------------------------

Question = tuple[str, State, int, list[Key]]


class _Asked(lastcard.LastCardSearch):
    """A search that records every question the engine asks it."""

    def __init__(self) -> None:
        super().__init__()
        self.asked: list[Question] = []

    def playable_cards(self, state: State, seat: int, cards: list[int]) -> list[int]:
        self.asked.append(("play", state, seat, [(c,) for c in cards]))
        return super().playable_cards(state, seat, cards)

    def winning_keys(self, state: State, seat: int, keys: list[Key]) -> list[Key]:
        self.asked.append(("win", state, seat, list(keys)))
        return super().winning_keys(state, seat, keys)


def _questions(games: int, mordred: bool) -> list[Question]:
    """Every last-card question the engine asks in random 3-player games."""
    search = _Asked()
    game = KingIsDead(search)
    assert game.search is search
    options = game.default_options()
    options.mordred = mordred
    for seed in range(games):
        chooser = random.Random(seed)
        state = game.setup(options, 3, 500 + seed)
        while acting := game.to_act(state):
            moves = game.legal_moves(state, acting[0])
            state, _ = game.apply(state, acting[0], moves[chooser.randrange(len(moves))])
    return search.asked


def _answer(search: lastcard.LastCardSearch, question: Question) -> list[Key]:
    kind, state, seat, keys = question
    if kind == "play":
        return [(c,) for c in search.playable_cards(state, seat, [k[0] for k in keys])]
    return search.winning_keys(state, seat, keys)


@pytest.mark.parametrize("mordred", [False, True])
def test_answers_do_not_depend_on_what_was_asked_before(mordred: bool) -> None:
    questions = _questions(40, mordred)
    assert len(questions) > 100
    # Each question asked of a fresh search (no memo at all)...
    alone = [_answer(lastcard.LastCardSearch(), question) for question in questions]
    assert any(alone) and not all(alone)
    # ...and all of them of one search, in order and shuffled.
    search = lastcard.LastCardSearch()
    assert [_answer(search, q) for q in questions] == alone
    order = list(range(len(questions)))
    random.Random(1).shuffle(order)
    search = lastcard.LastCardSearch()
    shuffled = {i: _answer(search, questions[i]) for i in order}
    assert [shuffled[i] for i in range(len(questions))] == alone


def test_engines_do_not_share_memos() -> None:
    (_, state, seat, _), *_ = _questions(1, False)
    one, other = KingIsDead(), KingIsDead()
    assert one.search is not other.search
    one.legal_moves(state, seat)
    assert one.search.memo_sizes() != (0, 0, 0)
    assert other.search.memo_sizes() == (0, 0, 0)


@pytest.mark.parametrize("mordred", [False, True])
def test_leaves_agree_with_deciding_each_position_alone(mordred: bool) -> None:
    (_, state, seat, _), *_ = _questions(1, mordred)
    ctx = lastcard.read_turn(
        state,
        seat,
        last_played_now=state.cards_played + 1,
        card=state.seats[seat].hand[0],
        latest=None,
        memo=searchending.RegionMemo(),
    ).ctx
    rng = random.Random(11)
    for _ in range(400):
        plan = [_random_counts(rng) for _ in range(rng.randint(2, 6))]
        signatures = [signature(counts) for counts in plan]
        leaves = Leaves(ctx, signatures, ctx.courts[seat])
        for _ in range(6):
            changed = list(signatures)
            changes = []
            for i in rng.sample(range(len(plan)), rng.randint(1, 2)):
                colour = rng.randint(1, 3)
                take = plan[i][colour - 1] and rng.random() < 0.5
                moved = summoned_from(plan[i], colour) if take else placed(plan[i], colour)
                changes.append((i, signature(moved)))
            for i, sig in changes:
                changed[i] = sig
            expected = leaf_wins(ctx, tuple(changed), ctx.courts[seat], True)
            assert leaves.wins(changes) == expected


def test_search_memos_stay_bounded() -> None:
    search = lastcard.LastCardSearch(answers_size=8)
    search.regions.limit = 10
    game = KingIsDead(search)
    sizes = []
    for seed in range(12):
        chooser = random.Random(seed)
        state = game.setup(game.default_options(), 3, 700 + seed)
        while acting := game.to_act(state):
            moves = game.legal_moves(state, acting[0])
            state, _ = game.apply(state, acting[0], moves[chooser.randrange(len(moves))])
            sizes.append(search.memo_sizes())
    # 12 games ask about 50 questions and meet about 75 region signatures.
    assert max(answers for answers, _, _ in sizes) == 8
    signatures = [count for _, count, _ in sizes]
    assert max(signatures) < 10 + 40  # the limit, plus at most one turn's worth
    assert any(later < earlier for earlier, later in itertools.pairwise(signatures))


def test_no_module_level_memos() -> None:
    # Every memo belongs to an engine object (the search's LastCardSearch, the
    # definition's listed moves): no module of the package holds a mutable
    # container or a function cache; its tables are read-only mappings.
    import importlib
    import inspect
    import pkgutil

    import throneroom_server.games.king_is_dead as package

    for info in pkgutil.iter_modules(package.__path__):
        module = importlib.import_module(f"{package.__name__}.{info.name}")
        for name, value in vars(module).items():
            if name.startswith("__"):
                continue
            assert not isinstance(value, (dict, list, set, bytearray)), (module, name)
            assert not hasattr(value, "cache_info"), (module, name)
        assert "lru_cache" not in inspect.getsource(module)


# -- one implementation: the working copy steps as apply() does ------------------------------


def _working(state: State, seat: int) -> lastcard.Node:
    return lastcard.read_turn(
        state,
        seat,
        last_played_now=state.seats[seat].last_played,
        card=state.pending.card,
        latest=None,
        memo=searchending.RegionMemo(),
    )


@pytest.mark.parametrize("mordred", [False, True])
def test_working_copy_steps_as_apply_does(mordred: bool) -> None:
    options = GAME.default_options()
    options.mordred = mordred
    compared = Counter[int]()
    for seed in range(24):
        chooser = random.Random(seed)
        state = GAME.setup(options, 2 + seed % 3, 300 + seed)
        while acting := GAME.to_act(state):
            seat = acting[0]
            moves = GAME.legal_moves(state, seat)
            if state.pending.decision != D.DECISION_TURN:
                node = _working(state, seat)
                for key, move in zip(moves.keys, moves, strict=True):
                    stepped = node.step(key)
                    after, events = GAME.apply(state, seat, move)
                    if any(e.HasField("struggle_resolved") for e in events):
                        continue  # the turn ended in forced passes: beyond one step
                    again = _working(after, seat)
                    assert (stepped.board, stepped.cards, stepped.supply, stepped.court) == (
                        again.board,
                        again.cards,
                        again.supply,
                        again.court,
                    ), key
                    if stepped.decision == NONE:  # the turn is over
                        assert after.pending.decision == D.DECISION_TURN, key
                    else:
                        pending = after.pending
                        assert (stepped.decision, stepped.colour, stepped.remaining) == (
                            pending.decision,
                            pending.colour,
                            pending.remaining,
                        ), key
                    compared[key[0]] += 1
            state, _ = GAME.apply(state, seat, moves[chooser.randrange(len(moves))])
    # Every kind of effect decision and the summon were compared.
    assert set(compared) == {K_CROWN, K_GARRISON, K_AMBASSADOR, K_SETTLE, K_PLACE, K_SUMMON}
    assert min(compared.values()) > 20
