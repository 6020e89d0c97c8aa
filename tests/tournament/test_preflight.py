"""Before the first game, every entrant is built and asked whether it plays:
a broken entrant stops the tournament with one line naming it and why."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
from throneroom.cli import main
from throneroom.tournament import EntrantError, TournamentFileError, load_config, run_tournament

from tests.tournament.helpers import tournament_file


def _with_entrant(path: Path, *lines: str, game: str = "king_is_dead") -> Path:
    text = path.read_text().replace('game = "king_is_dead"', f'game = "{game}"')
    path.write_text(text + "\n".join(["[[entrants]]", *lines]) + "\n")
    return path


def _refused(path: Path) -> str:
    """The preflight's message; the results file holds no game."""
    with pytest.raises(EntrantError) as refused:
        run_tournament(load_config(path), path.parent / "r.jsonl")
    assert len((path.parent / "r.jsonl").read_text().splitlines()) == 1  # the header only
    message = str(refused.value)
    assert "\n" not in message
    return message


@pytest.mark.parametrize(
    ("entrant", "game", "why"),
    [
        (
            ['name = "ghost"', 'bot = "no_such_module_here:Bot"'],
            "king_is_dead",
            "cannot import no_such_module_here",
        ),
        (
            ['name = "typo"', 'bot = "throneroom.bots:RandmBot"'],
            "king_is_dead",
            "has no RandmBot",
        ),
        (
            ['name = "kid"', 'bot = "throneroom.games.king_is_dead.bot:KingIsDeadBot"'],
            "kill_the_king",
            "does not play kill_the_king (2 seats)",
        ),
        (
            ['name = "badargs"', 'bot = "throneroom.bots:RandomBot"', "args = { depth = 3 }"],
            "king_is_dead",
            "unexpected keyword argument 'depth'",
        ),
        (
            ['name = "missing"', 'command = ["/no/such/program"]'],
            "king_is_dead",
            "cannot start ['/no/such/program']",
        ),
        (
            [
                'name = "mute"',
                f'command = ["{sys.executable}", "-c", "import time; time.sleep(99)"]',
            ],
            "king_is_dead",
            "no answer to whether it plays king_is_dead",
        ),
        (
            ['name = "dead"', 'command = ["node", "-e", "process.exit(3)"]'],
            "king_is_dead",
            "the program ended without answering (exit code 3)",
        ),
    ],
    ids=[
        "unimportable",
        "no-such-class",
        "wrong-game",
        "bad-args",
        "missing-program",
        "no-handshake",
        "exits",
    ],
)
def test_a_broken_entrant_stops_the_tournament_before_any_game(
    tmp_path: Path, entrant: list[str], game: str, why: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    if "mute" in entrant[0]:
        monkeypatch.setattr("throneroom.tournament.preflight.PREFLIGHT_SECONDS", 1.0)
    path = _with_entrant(tournament_file(tmp_path, ["random"]), *entrant, game=game)
    message = _refused(path)
    name = entrant[0].split('"')[1]
    assert message.startswith(f"entrant {name!r} (") and why in message


def test_a_program_that_says_it_does_not_play_is_refused_with_its_reason(tmp_path: Path) -> None:
    bot = tmp_path / "picky.py"
    bot.write_text(
        "import json, sys\n"
        "for line in sys.stdin:\n"
        "    if json.loads(line)['type'] == 'hello':\n"
        "        print(json.dumps({'type': 'ready', 'plays': False,"
        " 'reason': 'only Kill the King'}), flush=True)\n"
    )
    path = _with_entrant(
        tournament_file(tmp_path, ["random"]),
        'name = "picky"',
        f'command = ["{sys.executable}", "{bot}"]',
    )
    message = _refused(path)
    assert "'picky'" in message and "does not play king_is_dead: only Kill the King" in message


def test_the_command_prints_the_one_line_and_plays_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _with_entrant(
        tournament_file(tmp_path, ["random"]), 'name = "ghost"', 'bot = "no_such_module_here:Bot"'
    )
    assert main(["tournament", str(path), "--plain"]) == 1
    captured = capsys.readouterr()
    assert "entrant 'ghost'" in captured.err and "cannot import" in captured.err
    assert captured.err.count("\n") == 1 and "rank" not in captured.out


def test_a_module_next_to_the_tournament_file_is_importable(tmp_path: Path) -> None:
    (tmp_path / "my_local_bot.py").write_text(
        "from throneroom.bots import RandomBot\n\n\n"
        "class LocalBot(RandomBot):\n    name = 'local'\n"
    )
    path = _with_entrant(
        tournament_file(tmp_path, ["random"]), 'name = "local"', 'bot = "my_local_bot:LocalBot"'
    )
    records = run_tournament(load_config(path), tmp_path / "r.jsonl")
    assert len(records) == 2 and not [f for r in records for f in r.failures]
    assert all(r.status == "finished" for r in records)


@pytest.mark.parametrize(
    ("settings", "why"),
    [
        ({"game": "chess"}, "no game 'chess' (a game type: "),  # refused as the file is read
        ({"game": "kings_life", "seats": 2}, "is played by 4 to 8 seats, not 2"),
    ],
)
def test_a_game_or_seat_count_the_server_does_not_play_stops_the_run_first(
    tmp_path: Path, settings: dict[str, object], why: str
) -> None:
    path = tournament_file(tmp_path, ["random"], **settings)
    path.write_text(
        path.read_text() + '[[entrants]]\nname = "other"\nbot = "throneroom.bots:RandomBot"\n'
    )
    with pytest.raises(TournamentFileError, match=re.escape(why)):
        run_tournament(load_config(path), tmp_path / "r.jsonl")
    results = tmp_path / "r.jsonl"
    assert not results.exists() or len(results.read_text().splitlines()) == 1  # nothing played
