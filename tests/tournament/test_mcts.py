"""The MCTS bot: worlds built from a seat's view only, decisions that depend on
nothing else, and games through the tournament runner."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from throneroom import Client
from throneroom.bots.mcts import MctsBot
from throneroom.bots.mcts_worlds import WORLD_BUILDERS
from throneroom.envelopes import wrap
from throneroom.tournament import parse_config, run_tournament
from throneroom.v1 import game_pb2
from throneroom_server.embedded import EmbeddedServer
from throneroom_server.games.registry import build_registry

REGISTRY = build_registry()


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
            world = game.randomize_hidden(WORLD_BUILDERS[name](view, seat), seat, index)
            assert game.view(world, seat) == view, (name, index, seat)
            game.check_invariants(world)
            assert game.legal_moves(world, seat) == game.legal_moves(state, seat)


@pytest.mark.parametrize(("name", "seats"), [("king_is_dead", 2), ("kings_life", 4)])
def test_the_decision_depends_on_the_view_only(name: str, seats: int) -> None:
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
            bot = MctsBot(seed=index, iterations=24, worlds=3)
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
