"""Python bots play in worker processes: a runaway bot spends its own process only."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest
from throneroom import Client
from throneroom.tournament import load_config, run_tournament
from throneroom_server.embedded import EmbeddedServer

from tests.tournament.helpers import tournament_file


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def _runaway_file(directory: Path, *, spin: bool, pid_file: Path) -> Path:
    directory.mkdir()
    path = tournament_file(directory, ["random", "heuristic"], deadline=4, concurrency=2)
    entrant = [
        "[[entrants]]",
        'name = "runaway"',
        'bot = "tests.tournament.misbehaving:SpinningBot"',
        f'args = {{ spin = {str(spin).lower()}, pid_file = "{pid_file}" }}',
    ]
    path.write_text(path.read_text() + "\n".join(entrant) + "\n")
    return path


@pytest.mark.slow  # two whole tournaments, one with a bot losing each game on time
def test_a_bot_spinning_forever_is_killed_and_the_other_games_are_the_same(
    tmp_path: Path,
) -> None:
    pids = tmp_path / "pids"
    spinning = load_config(_runaway_file(tmp_path / "spin", spin=True, pid_file=pids))
    calm = load_config(_runaway_file(tmp_path / "calm", spin=False, pid_file=pids))
    with EmbeddedServer() as server, Client(server.address) as client:
        with_runaway = run_tournament(spinning, tmp_path / "spin.jsonl", client=client)
        without = run_tournament(calm, tmp_path / "calm.jsonl", client=client)
    # It spun in each of its games, each time in a worker process, never in ours...
    spun = [int(line) for line in pids.read_text().split()]
    runaway_games = [r for r in with_runaway if "runaway" in r.entrants]
    assert len(spun) == len(runaway_games) == 4 and os.getpid() not in spun
    # ... which was killed at its deadline: nothing of it is left running,
    assert not [pid for pid in spun if _alive(pid)]
    assert not [t for t in threading.enumerate() if t.name.startswith("throneroom-bot")]
    # it lost those games on time, and the games it was not in are the same games.
    for record in runaway_games:
        assert [(f.entrant, f.reason) for f in record.failures] == [("runaway", "timeout")]
    others = [r.result() for r in with_runaway if "runaway" not in r.entrants]
    assert others == [r.result() for r in without if "runaway" not in r.entrants]
    assert len(others) == 2 and all(not r["failures"] for r in others)
