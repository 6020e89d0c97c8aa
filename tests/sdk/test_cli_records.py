"""`throneroom export` and `throneroom replay`: a finished game archived to a
file and replayed through the engines; a tampered file refused in one line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from throneroom import Client
from throneroom import records as record_files
from throneroom.cli import main
from throneroom_server.embedded import EmbeddedServer

Capture = pytest.CaptureFixture[str]


def _finished_nim(client: Client) -> str:
    game_id = client.create_game("nim", seats=2, options={"pile": 3, "max_take": 3}, seed=4)
    first = client.join(game_id)
    client.join(game_id)
    first.play(first.legal_moves()[-1])  # take all three: the game is over
    return game_id


def test_export_then_replay(
    capsys: Capture, server: EmbeddedServer, client: Client, tmp_path: Path
) -> None:
    game_id = _finished_nim(client)
    target = tmp_path / "game.json"
    assert main(["--server", server.address, "export", game_id, "-o", str(target)]) == 0
    out, _ = capsys.readouterr()
    assert out.startswith(f"{target}: nim, 1 versions, ")
    assert json.loads(target.read_text())["game_id"] == game_id
    assert main(["replay", str(target)]) == 0
    out, _ = capsys.readouterr()
    assert "replays byte for byte (1 versions" in out

    record = record_files.load(target)
    record.moves[0].seat = 1  # not that seat's turn
    record_files.save(record, tmp_path / "bad.pb")
    assert main(["replay", str(tmp_path / "bad.pb")]) != 0
    _, err = capsys.readouterr()
    assert "does not replay: version 1" in err and err.count("\n") == 1


def test_export_of_a_running_game_is_refused(
    capsys: Capture, server: EmbeddedServer, client: Client
) -> None:
    game_id = client.create_game("nim", seats=2)
    assert main(["--server", server.address, "export", game_id]) != 0
    _, err = capsys.readouterr()
    assert "GAME_NOT_FINISHED" in err or "only once it is over" in err


def test_replay_of_a_file_that_is_no_record(capsys: Capture, tmp_path: Path) -> None:
    junk = tmp_path / "junk.json"
    junk.write_text("{}")
    assert main(["replay", str(junk)]) != 0
    _, err = capsys.readouterr()
    assert "is not a game record" in err
