"""What `throneroom tournament` prints: failures and progress in --plain, the
interval beside mu, and a rich table that a pipe does not cut at 80 columns."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from rich.console import Console
from throneroom.cli import main
from throneroom.tournament.command import plain_table
from throneroom.tournament.display import print_standings
from throneroom.tournament.standings import Standing

from tests.tournament.helpers import tournament_file

LONG = "a-rather-long-entrant-name-for-a-bot"


def _standing() -> Standing:
    return Standing(
        rank=1,
        entrant=LONG,
        games=12,
        wins=6,
        win_rate=0.5,
        win_low=0.25,
        win_high=0.75,
        mu=27.25,
        sigma=4.5,
        ordinal=27.25 - 3 * 4.5,
        failures={"crash": 2, "timeout": 1},
        seat_games=[6, 6, 0, 0],
        seat_wins=[4, 2, 0, 0],
    )


def test_the_plain_table_puts_the_interval_beside_mu_and_shows_failures() -> None:
    header, row = plain_table([_standing()]).splitlines()
    assert header.split()[:6] == ["rank", "entrant", "rating", "mu", "±", "95%"]
    # mu ± 1.96 sigma, after the conservative rating (mu - 3 sigma) which stands alone.
    assert re.search(r"\b13\.8\s+27\.2 ± 8\.8\s", row)
    assert "13.8 ±" not in row
    assert row.endswith("crash 2, timeout 1") and "67%" in row and "33%" in row


def test_the_rich_table_off_a_terminal_is_as_wide_as_it_needs() -> None:
    out = io.StringIO()
    print_standings("a tournament (king_is_dead)", [_standing()], Console(file=out))
    rows = [line for line in out.getvalue().splitlines() if LONG in line]
    assert len(rows) == 1  # not wrapped: the whole line is one row
    assert "27.2 ± 8.8" in rows[0] and "crash 2, timeout 1" in rows[0] and len(rows[0]) > 80


def test_plain_prints_each_match_as_it_ends_with_its_failures(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tournament_file(tmp_path, ["random", "crasher"])
    assert main(["tournament", str(path), "--plain"]) == 0
    captured = capsys.readouterr()
    progress = captured.err.splitlines()
    assert sorted(line.split("]")[0] for line in progress) == ["[1/2", "[2/2"]
    for line in progress:
        assert "forfeit, won by random" in line
        assert "crasher crash: RuntimeError: the crasher crashed" in line
    crasher = next(line for line in captured.out.splitlines() if "crasher" in line)
    assert crasher.endswith("crash 2")
