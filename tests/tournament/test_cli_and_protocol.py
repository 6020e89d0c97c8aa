"""`throneroom tournament` and the external bot protocol's answers and failures."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from throneroom import Client
from throneroom.cli import main
from throneroom.tournament import load_config, run_tournament
from throneroom_server.embedded import EmbeddedServer

from tests.tournament.helpers import tournament_file


def test_the_command_runs_prints_and_exports_the_standings(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tournament_file(tmp_path, ["random", "heuristic", "node"])
    exported, table = tmp_path / "s.json", tmp_path / "s.csv"
    argv = ["tournament", str(path), "--plain", "--export-json", str(exported)]
    assert main([*argv, "--export-csv", str(table)]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0].startswith("rank") and "heuristic" in out
    standings = json.loads(exported.read_text())
    assert standings["matches"] == 6 and standings["forfeits"] == 0
    assert {s["entrant"] for s in standings["standings"]} == {"random", "heuristic", "node"}
    assert table.read_text().splitlines()[0].startswith("rank,entrant,games")
    assert (tmp_path / "tournament.results.jsonl").exists()
    # Again: everything is already played; --json prints the same standings.
    assert main(["tournament", str(path), "--json"]) == 0
    again = json.loads(capsys.readouterr().out)
    assert again["standings"] == standings["standings"]


def test_the_command_says_what_is_wrong_with_a_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "bad.toml"
    path.write_text('game = "king_is_dead"\nseats = 2\n')
    assert main(["tournament", str(path)]) == 1
    assert "[[entrants]]" in capsys.readouterr().err


SCRIPT = """
import json, sys
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "hello":
        print(json.dumps({{"type": "ready", "version": "test 1"}}), flush=True)
    if message["type"] == "decide":
        assert message["legal_moves"][0]["index"] == 0 and message["view"]
        {answer}
"""


@pytest.mark.parametrize(
    ("answer", "reason"),
    [
        ('print(json.dumps({"move": len(message["legal_moves"]) - 1}), flush=True)', None),
        ('print(json.dumps({"move": message["legal_moves"][0]["notation"]}), flush=True)', None),
        ('print("e2e4", flush=True)', "protocol"),
        ('print(json.dumps({"move": 10**6}), flush=True)', "illegal"),
        ('print(json.dumps({"move": "not a move"}), flush=True)', "illegal"),
        ("sys.exit(2)", "crash"),
    ],
)
def test_an_external_bot_answers_by_index_or_notation_and_fails_for_its_reason(
    tmp_path: Path, answer: str, reason: str | None
) -> None:
    bot = tmp_path / "bot.py"
    bot.write_text(SCRIPT.format(answer=answer))
    path = tournament_file(tmp_path, ["random", "heuristic"])
    text = path.read_text().replace(
        'bot = "throneroom.games.king_is_dead.bot:KingIsDeadBot"',
        f'command = ["{sys.executable}", "{bot}"]',
    )
    path.write_text(text)
    with EmbeddedServer() as server, Client(server.address) as client:
        records = run_tournament(load_config(path), tmp_path / "r.jsonl", client=client)
    failures = [f for r in records for f in r.failures]
    if reason is None:
        assert not failures and all(r.status == "finished" for r in records)
    else:
        assert {(f.entrant, f.reason) for f in failures} == {("heuristic", reason)}
        assert len(failures) == 2
        # The detail says what the program did, not the reason again.
        assert all(f.detail.startswith("heuristic: ") for f in failures if reason != "illegal")
