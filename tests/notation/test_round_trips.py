"""Every legal move and every reachable state round-trips through the notation.

Hypothesis chooses the seeds of the games and of the move choices; the
engines are the real ones. Views are rendered for every seat and a spectator
at every step (rendering must never fail on a reachable view).
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from throneroom import notation
from throneroom.v1 import kill_the_king_pb2, king_is_dead_pb2, nim_pb2

from .playouts import REGISTRY, playout

SEEDS = st.integers(0, 2**64 - 1)
CHOICES = st.integers(0, 2**32)
SETTINGS = settings(
    max_examples=6, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow]
)


def check_game(game: str, seats: int, seed: int, choice_seed: int, options: object = None) -> int:
    spelling = notation.for_game(game)
    engine = REGISTRY[game]
    steps = 0
    for step in playout(game, seats, seed, choice_seed, options):  # type: ignore[arg-type]
        text = spelling.format_position(step.state)
        back = spelling.parse_position(text)
        assert back == step.state, text
        assert back.SerializeToString() == step.state.SerializeToString(), text
        assert spelling.format_position(back) == text, "one spelling per position"
        assert "\n" not in text
        for moves in step.legal.values():
            for move in moves:
                written = spelling.format_move(move)
                assert spelling.parse_move(written) == move, written
                assert spelling.parse_move(f"  {written.upper()} ") == move, "case and spaces"
            written_all = [spelling.format_move(m) for m in moves]
            assert len(set(written_all)) == len(written_all), "two legal moves, one spelling"
        for viewer in [*range(seats), None]:
            board = spelling.render_view(engine.view(step.state, viewer), viewer)
            assert board.strip() and board.count("\n") >= 2
        steps += 1
    return steps


@pytest.mark.parametrize("seats", [2, 3, 4])
@SETTINGS
@given(seed=SEEDS, choice_seed=CHOICES, pile=st.integers(1, 40), max_take=st.integers(1, 6))
def test_nim(seats: int, seed: int, choice_seed: int, pile: int, max_take: int) -> None:
    options = nim_pb2.NimOptions(pile=pile, max_take=max_take)
    assert check_game("nim", seats, seed, choice_seed, options) > 1


@pytest.mark.parametrize("mordred", [False, True], ids=["classic", "mordred"])
@pytest.mark.parametrize("seats", [2, 3, 4])
@SETTINGS
@given(seed=SEEDS, choice_seed=CHOICES)
def test_king_is_dead(seats: int, mordred: bool, seed: int, choice_seed: int) -> None:
    options = king_is_dead_pb2.KingIsDeadOptions(mordred=mordred)
    assert check_game("king_is_dead", seats, seed, choice_seed, options) > 10


@pytest.mark.parametrize("seats", [4, 5, 6, 7, 8])
@settings(
    max_examples=2, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow]
)
@given(seed=SEEDS, choice_seed=CHOICES)
def test_kings_life(seats: int, seed: int, choice_seed: int) -> None:
    assert check_game("kings_life", seats, seed, choice_seed) > 10


@pytest.mark.parametrize(
    "mode",
    [
        kill_the_king_pb2.KILL_THE_KING_MODE_KILL_THE_KING,
        kill_the_king_pb2.KILL_THE_KING_MODE_ATTACK_AND_DEFENSE,
    ],
    ids=["kill-the-king", "attack-and-defense"],
)
@pytest.mark.parametrize("advanced", [False, True], ids=["", "advanced"])
@settings(
    max_examples=1, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow]
)
@given(seed=SEEDS, choice_seed=CHOICES)
def test_kill_the_king(mode: int, advanced: bool, seed: int, choice_seed: int) -> None:
    """The engine's real playouts through Kill the King's notation (the
    hypothesis-built messages of test_kill_the_king_round_trips.py aside), the
    advanced units and leaders too."""
    options = kill_the_king_pb2.KillTheKingOptions(mode=mode, advanced=advanced)  # type: ignore[arg-type]
    assert check_game("kill_the_king", 2, seed, choice_seed, options) > 10


@pytest.mark.slow  # whole Giga playouts
@pytest.mark.parametrize(
    ("mode", "seats"),
    [
        (kill_the_king_pb2.KILL_THE_KING_MODE_KILL_THE_KING_GIGA, 3),
        (kill_the_king_pb2.KILL_THE_KING_MODE_ATTACK_AND_DEFENSE_GIGA, 4),
    ],
    ids=["kill-the-king-giga-3p", "attack-and-defense-giga-4p"],
)
@settings(
    max_examples=1, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow]
)
@given(seed=SEEDS, choice_seed=CHOICES)
def test_kill_the_king_giga(mode: int, seats: int, seed: int, choice_seed: int) -> None:
    """The Giga modes' real playouts (32-row fields, seats in two teams, a
    one-seat team and two-seat teams, KK-123) through the notation: positions,
    every legal move, every view (a Giga placement offers thousands of moves a
    step, so one seat count per mode; the conformance suite plays all)."""
    options = kill_the_king_pb2.KillTheKingOptions(mode=mode)  # type: ignore[arg-type]
    assert check_game("kill_the_king", seats, seed, choice_seed, options) > 10
