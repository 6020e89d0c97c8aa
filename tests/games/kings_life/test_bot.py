"""KingsLifeBot: it sees only its view and legal moves, always picks one of
them, and beats random players."""

from __future__ import annotations

from throneroom.bots import Bot, RandomBot
from throneroom.envelopes import unwrap, wrap
from throneroom.games.kings_life.bot import KingsLifeBot
from throneroom.v1 import game_pb2

from .helpers import ENGINE, Move


def play_game(seed: int, hero: int, seats: int = 5) -> list[int]:
    bots: list[Bot] = [RandomBot(seed * 10 + s) for s in range(seats)]
    bots[hero] = KingsLifeBot(seed)
    state = ENGINE.setup(ENGINE.default_options(), seats, seed)
    while acting := ENGINE.to_act(state):
        seat = acting[0]
        view = wrap(game_pb2.View, "kings_life", ENGINE.view(state, seat))
        legal = [wrap(game_pb2.Move, "kings_life", m) for m in ENGINE.legal_moves(state, seat)]
        chosen = bots[seat].choose("kings_life", seat, view, legal)
        assert chosen in legal, "a bot picks one of the legal moves"
        move = unwrap(chosen)
        assert isinstance(move, Move)
        state, _ = ENGINE.apply(state, seat, move)
    outcome = ENGINE.outcome(state)
    assert outcome is not None
    return list(outcome.winners)


def test_bot_beats_random_players() -> None:
    games = 30
    wins = sum(seed % 5 in play_game(seed, seed % 5) for seed in range(games))
    assert wins >= games * 0.4, f"won {wins} of {games}"


def test_bot_plays_every_seat_count() -> None:
    for seats in (4, 6, 7, 8):
        assert play_game(seats, seats - 1, seats)
