"""What the command is pointed at: the server ($THRONEROOM_SERVER, refused at
once when it does not answer) and the game (the fixture is not offered)."""

from __future__ import annotations

from pathlib import Path

import pytest
from throneroom.cli import main
from throneroom.games.protocol import game_clients
from throneroom.tournament import TournamentFileError, parse_config

from tests.tournament.helpers import tournament_file


def test_an_unknown_game_is_refused_naming_the_games_to_play_not_the_fixture() -> None:
    fixtures = [name for name, client in game_clients().items() if client.fixture]
    playable = [name for name, client in game_clients().items() if not client.fixture]
    assert fixtures and playable
    with pytest.raises(TournamentFileError) as refused:
        parse_config({"game": "chess", "entrants": [{"name": "a", "bot": "x:Y"}]})
    message = str(refused.value)
    assert "no game 'chess'" in message and ", ".join(playable) in message
    assert all(name not in message for name in fixtures)


def test_the_server_comes_from_the_environment_and_an_unreachable_one_stops_the_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tournament_file(tmp_path, ["random", "heuristic"])  # server = embedded by default
    monkeypatch.setenv("THRONEROOM_SERVER", "127.0.0.1:1")  # nothing listens on port 1
    results = tmp_path / "r.jsonl"
    assert main(["tournament", str(path), "--plain", "--results", str(results)]) == 1
    error = capsys.readouterr().err
    assert "the server at 127.0.0.1:1 does not answer a ping" in error
    assert len(results.read_text().splitlines()) <= 1  # at most the header: nothing played
