"""The MCTS bot: worlds built from a seat's view only, decisions that depend on
nothing else, and games through the tournament runner."""

from __future__ import annotations

import copy
import random
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from throneroom import Client
from throneroom.bots.mcts import MctsBot
from throneroom.envelopes import wrap
from throneroom.games.king_is_dead.data import HAND
from throneroom.games.king_is_dead.mcts_memory import PlayedCards
from throneroom.games.kings_life import mcts as kings_life_search
from throneroom.games.protocol import SearchKnowledge, game_client
from throneroom.tournament import parse_config, run_tournament
from throneroom.v1 import game_pb2
from throneroom_server.embedded import EmbeddedServer
from throneroom_server.games.registry import build_registry

REGISTRY = build_registry()


def _search(name: str) -> SearchKnowledge:
    knowledge = game_client(name).search()
    assert knowledge is not None, name
    return knowledge


def _world(name: str, view: Any, seat: int) -> Any:
    return _search(name).world(view, seat)


def _positions(name: str, seats: int, games: int) -> list[Any]:
    """Every state of a few seeded random playouts."""
    game = REGISTRY[name]
    states = []
    for number in range(games):
        state = game.setup(game.default_options(), seats, number)
        rng = random.Random(number)
        while acting := game.to_act(state):
            states.append(state)
            moves = game.legal_moves(state, acting[0])
            state, _ = game.apply(state, acting[0], moves[rng.randrange(len(moves))])
    return states


@pytest.mark.parametrize(
    ("name", "seats"),
    [("king_is_dead", 2), ("king_is_dead", 3), ("king_is_dead", 4), ("kings_life", 5)],
)
def test_a_world_built_from_a_view_shows_that_seat_the_same_view(name: str, seats: int) -> None:
    game = REGISTRY[name]
    for index, state in enumerate(_positions(name, seats, 2)):
        for seat in range(seats):
            view = game.view(state, seat)
            world = game.randomize_hidden(_world(name, view, seat), seat, index)
            assert game.view(world, seat) == view, (name, index, seat)
            game.check_invariants(world)
            assert game.legal_moves(world, seat) == game.legal_moves(state, seat)


@pytest.mark.parametrize(
    ("name", "seats", "settings"),
    [
        ("king_is_dead", 2, {"iterations": 24, "worlds": 3}),
        ("kings_life", 4, {"iterations": 24}),
        ("kings_life", 5, {"iterations": 24, "horizon": 1}),
    ],
)
def test_the_decision_depends_on_the_view_only(
    name: str, seats: int, settings: dict[str, int]
) -> None:
    """Two true states the seat cannot tell apart get the same move from the same seed."""
    game = REGISTRY[name]
    positions = _positions(name, seats, 1)
    checked = 0
    for index in range(0, len(positions), 9):
        state = positions[index]
        seat = game.to_act(state)[0]
        other = game.randomize_hidden(state, seat, 1000 + index)
        legal = game.legal_moves(state, seat)
        if len(legal) < 2 or other == state:
            continue
        choices = []
        for truth in (state, other):
            view = wrap(game_pb2.View, name, game.view(truth, seat))
            moves = [wrap(game_pb2.Move, name, m) for m in game.legal_moves(truth, seat)]
            bot = MctsBot(seed=index, **settings)
            choices.append(bot.choose(name, seat, view, moves))
        assert choices[0] == choices[1]
        checked += 1
        if checked == 3:
            break
    assert checked == 3


def test_mcts_plays_whole_games_through_the_service(tmp_path: Path) -> None:
    config = parse_config(
        {
            "game": "king_is_dead",
            "seats": 2,
            "seed": 3,
            "entrants": [
                {"name": "mcts", "bot": "throneroom.bots.mcts:MctsBot", "args": {"iterations": 40}},
                {"name": "random", "bot": "throneroom.bots:RandomBot"},
            ],
        }
    )
    with EmbeddedServer() as server, Client(server.address) as client:
        records = run_tournament(config, tmp_path / "r.jsonl", client=client)
        again = run_tournament(config, tmp_path / "again.jsonl", client=client)
    assert len(records) == 2 and all(r.status == "finished" and not r.failures for r in records)
    assert [r.result() for r in records] == [r.result() for r in again]  # seeded: replays


def test_mcts_refuses_games_it_cannot_build_worlds_of() -> None:
    view = game_pb2.View()
    moves = [game_pb2.Move(), game_pb2.Move()]
    with pytest.raises(ValueError, match="cannot build worlds"):
        MctsBot(seed=1).choose("nim", 0, view, moves)


def test_kings_life_candidates_keep_the_heuristic_choice_and_one_move_per_group() -> None:
    game = REGISTRY["kings_life"]
    seen_kinds: set[str] = set()
    for state in _positions("kings_life", 4, 2):
        seat = game.to_act(state)[0]
        view = game.view(state, seat)
        moves = list(game.legal_moves(state, seat))
        chosen = moves.index(kings_life_search.policy(seat, view, moves))
        picked = kings_life_search.candidates(seat, view, moves, chosen)
        assert picked[0] == chosen and len(set(picked)) == len(picked)
        assert all(0 <= i < len(moves) for i in picked)
        kind = moves[chosen].WhichOneof("kind")
        seen_kinds.add(kind)
        if kind in ("play", "passing"):
            # Every card that can be played and every pass's support target is searched.
            def group(move: Any) -> tuple[str, int]:
                if move.WhichOneof("kind") == "play":
                    return ("play", move.play.card)
                has = move.passing.HasField("support")
                return ("pass", move.passing.support if has else -1)

            assert {group(moves[i]) for i in picked} == {group(m) for m in moves}
            assert len(picked) <= len({group(m) for m in moves}) + 8
        elif kind == "exchange":
            assert any(not moves[i].exchange.discard for i in picked)
            assert len(picked) <= 2 + kings_life_search.EXCHANGE_CANDIDATES
        else:
            assert sorted(picked) == list(range(len(moves)))
    assert {"play", "passing", "exchange"} <= seen_kinds


def test_kings_life_rewards_follow_the_victory_points() -> None:
    game = REGISTRY["kings_life"]
    state = _positions("kings_life", 4, 1)[-1]
    moves = game.legal_moves(state, game.to_act(state)[0])
    final, _ = game.apply(state, game.to_act(state)[0], moves[0])
    outcome = game.outcome(final)
    assert outcome is not None
    points = kings_life_search.victory_points(final)
    rewards = kings_life_search.rewards(final, list(outcome.winners))
    for seat in range(4):
        assert (rewards[seat] >= 1 - kings_life_search.MARGIN_WEIGHT) == (seat in outcome.winners)
    best = max(range(4), key=lambda s: (points[s], rewards[s]))
    assert max(rewards) == rewards[best]
    # A day's start: the projection is a soft win in (0, 1) plus the margin term.
    start = game.setup(game.default_options(), 4, 3)
    estimate = kings_life_search.estimate(start)
    assert all(-0.3 < value < 1.3 for value in estimate)
    assert kings_life_search.stage(start) == 0


def test_a_horizon_stops_kings_life_rollouts_at_a_later_day() -> None:
    game = REGISTRY["kings_life"]
    bot = MctsBot(seed=5, horizon=1)
    guide = _search("kings_life").guide
    start = game.setup(game.default_options(), 4, 8)
    calls: list[int] = []
    original = guide.estimate

    def spy(state: Any) -> list[float]:
        calls.append(kings_life_search.stage(state))
        return original(state)

    bot._guided_rollout(game, replace(guide, estimate=spy), start)
    assert calls == [1]  # stopped as Wednesday began
    full = MctsBot(seed=5)._guided_rollout(game, guide, start)
    assert len(full) == 4 and max(full) >= 1 - kings_life_search.MARGIN_WEIGHT  # a finished game


def _king_is_dead_sightings(seats: int, seed: int) -> list[tuple[Any, PlayedCards, Any]]:
    """A seeded random game in which seat 0 observes the view of every one of its
    decisions, as the bot does: (true state, memory, the view) at each of them."""
    game = REGISTRY["king_is_dead"]
    state = game.setup(game.default_options(), seats, seed)
    memory = PlayedCards()
    rng = random.Random(seed)
    seen = []
    while acting := game.to_act(state):
        if acting[0] == 0:
            view = game.view(state, 0)
            memory.observe(view, 0)
            seen.append((state, copy.deepcopy(memory), view))
        moves = game.legal_moves(state, acting[0])
        state, _ = game.apply(state, acting[0], moves[rng.randrange(len(moves))])
    return seen


def test_with_two_seats_the_memory_of_views_knows_the_other_hand() -> None:
    """2 seats: the other seat plays at most one card between two of the seat's
    decisions, so the piles seen on top are the whole pile, and every world
    drawn is the true state's cards."""
    game = REGISTRY["king_is_dead"]
    for state, memory, view in _king_is_dead_sightings(2, 4):
        assert memory.determined(view, 0)
        world = game.randomize_hidden(_world("king_is_dead", view, 0), 0, 9)
        memory.redraw(world, 0, random.Random(1))
        assert list(world.seats[1].played) == list(state.seats[1].played)
        assert sorted(world.seats[1].hand) == sorted(state.seats[1].hand)
        assert game.view(world, 0) == view


def test_with_three_seats_too_every_card_is_seen_and_a_forgotten_one_is_drawn() -> None:
    """Each other seat plays at most one card between two turns of a seat that
    still holds cards, so with 3 seats too the memory is whole; with a sighting
    removed, the redraw keeps the others in place and draws the rest."""
    game = REGISTRY["king_is_dead"]
    drawn_places = 0
    for index, (state, memory, view) in enumerate(_king_is_dead_sightings(3, 5)):
        assert memory.determined(view, 0)
        removed = 0
        for seat in (1, 2):
            below = [p for p in memory.seen.get(seat, {}) if p < view.seats[seat].played_count - 1]
            if below:
                del memory.seen[seat][below[0]]
                removed += 1
        assert memory.determined(view, 0) == (removed == 0)
        drawn_places += removed
        world = game.randomize_hidden(_world("king_is_dead", view, 0), 0, index)
        memory.redraw(world, 0, random.Random(index))
        assert game.view(world, 0) == view
        game.check_invariants(world)
        for seat in (1, 2):
            truth, drawn = list(state.seats[seat].played), list(world.seats[seat].played)
            assert sorted(drawn + list(world.seats[seat].hand)) == sorted(HAND)
            for place, card in memory.seen.get(seat, {}).items():
                assert truth[place] == card == drawn[place]
    assert drawn_places > 0


def test_the_memory_forgets_a_game_its_views_contradict() -> None:
    (_, memory, _), *_ = _king_is_dead_sightings(2, 4)[-1:]
    assert memory.seen
    game = REGISTRY["king_is_dead"]
    fresh = game.view(game.setup(game.default_options(), 2, 8), 0)
    memory.observe(fresh, 0)
    assert memory.seen == {} and memory.determined(fresh, 0)
