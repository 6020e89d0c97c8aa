"""Persistent external engines: one process per entrant serving every game it
plays, concurrently, multiplexed by game and request in the JSON-lines protocol."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from throneroom import Client
from throneroom.tournament import TournamentFileError, load_config, parse_config, run_tournament
from throneroom_server.embedded import EmbeddedServer

ENGINE = Path(__file__).with_name("engine_bot.py")


def _file(directory: Path, log: Path, hold: int, extra_env: str = "") -> Path:
    path = directory / "engine.toml"
    path.write_text(
        f"""
name = "engine"
game = "king_is_dead"
seats = 2
games_per_pairing = 2
seed = 4
concurrency = 2

[time_control]
per_decision_seconds = 30

[[entrants]]
name = "engine"
command = [{json.dumps(sys.executable)}, {json.dumps(str(ENGINE))}]
persistent = true
env = {{ ENGINE_LOG = {json.dumps(str(log))}, ENGINE_HOLD = "{hold}"{extra_env} }}

[[entrants]]
name = "random"
bot = "throneroom.bots:RandomBot"
"""
    )
    return path


def test_one_engine_process_serves_every_game_and_games_at_once(tmp_path: Path) -> None:
    log = tmp_path / "engine.log"
    # The engine answers no decision until two of its games are open at once.
    config = load_config(_file(tmp_path, log, hold=2))
    with EmbeddedServer() as server, Client(server.address) as client:
        played = run_tournament(config, tmp_path / "r.jsonl", client=client, records=False)
        first = [json.loads(line) for line in log.read_text().splitlines()]
        log.unlink()
        again = run_tournament(config, tmp_path / "again.jsonl", client=client, records=False)
    assert len(played) == 4
    assert all(r.status == "finished" and not r.failures for r in played)
    assert [r.result() for r in played] == [r.result() for r in again]  # seeded: the same games
    started = [e for e in first if e["event"] == "started"]
    assert len(started) == 1  # preflight and the four games: one process
    games = {e["game"] for e in first if e["event"] == "start"}
    assert games == {r.game_id for r in played}
    assert max(e["open"] for e in first if e["event"] == "start") == 2
    assert len([e for e in first if e["event"] == "end"]) == 4


def test_an_engine_that_exits_fails_every_seat_it_plays_and_the_tournament_goes_on(
    tmp_path: Path,
) -> None:
    log = tmp_path / "engine.log"
    config = load_config(_file(tmp_path, log, hold=1, extra_env=', ENGINE_EXIT_ON_DECIDE = "1"'))
    with EmbeddedServer() as server, Client(server.address) as client:
        played = run_tournament(config, tmp_path / "r.jsonl", client=client, records=False)
    assert len(played) == 4
    for record in played:
        assert [(f.entrant, f.reason) for f in record.failures] == [("engine", "crash")]
        assert record.winning_entrants == ("random",)
    assert any("the engine gives up" in r.failures[0].detail for r in played)
    started = [line for line in log.read_text().splitlines() if '"started"' in line]
    assert len(started) == 1  # never restarted


def test_persistent_is_for_programs() -> None:
    with pytest.raises(TournamentFileError, match="persistent is for a program"):
        parse_config(
            {
                "game": "king_is_dead",
                "entrants": [
                    {"name": "a", "bot": "throneroom.bots:RandomBot", "persistent": True},
                    {"name": "b", "bot": "throneroom.bots:RandomBot"},
                ],
            }
        )
