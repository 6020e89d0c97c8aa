"""examples/rl_mcts.py runs, shortened: OpenSpiel's MCTS against the heuristic
bot on The King Is Dead, then a random policy through every environment."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from throneroom_rl.table import rl_game_names

ROOT = Path(__file__).resolve().parents[2]


def test_rl_mcts_example_prints_mcts_against_heuristic_and_every_random_loop() -> None:
    run = subprocess.run(
        [
            sys.executable,
            str(ROOT / "examples" / "rl_mcts.py"),
            *("--games", "1", "--simulations", "4", "--steps", "200"),
        ],
        capture_output=True,
        text=True,
        check=True,
        timeout=300,
    )
    lines = run.stdout.splitlines()
    assert any(line.startswith("game 1: MCTS (seat 0)") for line in lines), run.stdout
    assert "MCTS (4 simulations) vs heuristic:" in run.stdout
    for name in rl_game_names():
        assert any(line.startswith(f"{name}: ") and "random steps" in line for line in lines)
