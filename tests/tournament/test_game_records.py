"""Every finished game of a tournament is kept as a record file as it ends, and replays."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from throneroom import Client, records
from throneroom.cli import main
from throneroom.tournament import MatchRecord, load_config, run_tournament
from throneroom.tournament.game_files import default_records_dir, record_file_name
from throneroom_server.embedded import EmbeddedServer

from tests.tournament.helpers import tournament_file


def test_each_finished_game_is_written_as_it_ends_and_replays_byte_for_byte(
    tmp_path: Path,
) -> None:
    path = tournament_file(tmp_path, ["random", "heuristic", "crasher"])
    folder = tmp_path / "games"
    seen: list[bool] = []

    def on_record(record: MatchRecord, done: int, total: int) -> None:
        written = (folder / record_file_name(record.key)).exists()
        seen.append(written == (record.status == "finished"))

    with EmbeddedServer() as server, Client(server.address) as client:
        played = run_tournament(
            load_config(path),
            tmp_path / "r.jsonl",
            client=client,
            progress=on_record,
            records=folder,
        )
    assert seen == [True] * 6  # written before the match was reported
    finished = [r for r in played if r.status == "finished"]
    assert len(finished) == 2 and all(r.status == "forfeit" for r in played if r not in finished)
    assert sorted(p.name for p in folder.iterdir()) == sorted(r.record_file for r in finished)
    for record in finished:
        game = records.load(folder / record.record_file)
        assert records.replay(game) == len(game.moves) == record.moves
        assert game.game_id == record.game_id and tuple(game.outcome.winners) == record.winners
        assert list(game.display_names) == list(record.entrants)
    lines = [json.loads(line) for line in (tmp_path / "r.jsonl").read_text().splitlines()[1:]]
    assert {line["record_file"] for line in lines} == {r.record_file for r in played}


def test_the_command_writes_records_beside_the_results_file_by_default(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tournament_file(tmp_path, ["random", "heuristic"])
    assert main(["tournament", str(path), "--json"]) == 0
    folder = default_records_dir(tmp_path / "tournament.results.jsonl")
    assert folder == tmp_path / "tournament.records"
    assert len(list(folder.glob("*.json"))) == 2
    assert main(["replay", str(next(folder.glob("*.json")))]) == 0
    assert "replays byte for byte" in capsys.readouterr().out
    (tmp_path / "b").mkdir()
    other = tournament_file(tmp_path / "b", ["random", "heuristic"])
    assert main(["tournament", str(other), "--json", "--no-records"]) == 0
    assert not (tmp_path / "b" / "tournament.records").exists()
