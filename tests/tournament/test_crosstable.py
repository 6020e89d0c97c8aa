"""Cross tables: head to head between every two entrants, a Swiss tournament's
points by round, and the standings so far every N matches (--interim)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from throneroom.cli import main
from throneroom.tournament import MatchRecord
from throneroom.tournament.crosstable import (
    HeadToHead,
    head_to_head,
    head_to_head_text,
    swiss_rounds,
    swiss_rounds_text,
)

from tests.tournament.helpers import tournament_file
from tests.tournament.test_tiebreaks import EXPECTED, RECORDS


def _record(entrants: tuple[str, ...], winners: tuple[int, ...]) -> MatchRecord:
    return MatchRecord("k", 0, entrants, 0, "g", "finished", winners, "control", 1, 1)


def test_head_to_head_counts_each_pair_of_entrants_in_every_game_they_shared() -> None:
    records = [
        _record(("a", "b"), (0,)),
        _record(("b", "a"), (0,)),
        _record(("a", "b", "c"), (0, 2)),  # a and c share: a beat b, c beat b, a-c a draw
        _record(("c", "b", "c"), (1,)),  # c twice: one game against b, lost
    ]
    table = head_to_head(["a", "b", "c"], records)
    assert table[("a", "b")] == HeadToHead(2, 1, 0)
    assert table[("b", "a")] == HeadToHead(1, 2, 0)
    assert table[("a", "c")] == HeadToHead(0, 0, 1) == table[("c", "a")]
    assert table[("c", "b")] == HeadToHead(1, 1, 0)
    assert table[("a", "b")].score == pytest.approx(2 / 3)
    text = head_to_head_text(["a", "b", "c"], table).splitlines()
    assert text[2].split() == ["a", ".", "2-1-0", "0-0-1"]
    assert text[3].split() == ["b", "1-2-0", ".", "1-1-0"]


def test_swiss_points_by_round_add_up_to_the_hand_computed_points() -> None:
    rounds = swiss_rounds(["A", "B", "C"], RECORDS, 3)
    assert rounds == {"A": [2.0, None, 0.5], "B": [0.0, 1.0, None], "C": [None, 1.0, 1.5]}
    text = swiss_rounds_text(["C", "A", "B"], rounds, 1.0).splitlines()
    assert text[2].split() == ["C", "bye", "1", "1.00", "1.50", "3.50"]
    for line, name in zip(text[2:], "CAB", strict=True):
        assert float(line.split()[-1]) == EXPECTED[name].points


def test_the_command_prints_interim_standings_head_to_head_and_swiss_rounds(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tournament_file(tmp_path, ["random", "heuristic", "node"], schedule="swiss", rounds=2)
    assert main(["tournament", str(path), "--plain", "--interim", "2"]) == 0
    captured = capsys.readouterr()
    # Two rounds of one table (two games each): standings after 2 of 4, not after the last.
    assert captured.err.count("standings after ") == 1
    assert "standings after 2 of 4 matches:\nrank  entrant" in captured.err
    assert "head to head (row against column: wins-losses-draws)" in captured.out
    assert "points by round (bye: sat out)" in captured.out
    assert main(["tournament", str(path), "--json"]) == 0  # resumed: nothing played again
    data = json.loads(capsys.readouterr().out)
    assert set(data["swiss_rounds"]) == {"random", "heuristic", "node"}
    assert sum(1 for v in data["swiss_rounds"].values() for p in v if p is None) == 2  # byes
    pairs = {(h["entrant"], h["opponent"]): h for h in data["head_to_head"]}
    assert len(pairs) == 6
    for (a, b), h in pairs.items():
        mirror = pairs[(b, a)]
        assert (h["wins"], h["losses"], h["draws"]) == (
            mirror["losses"],
            mirror["wins"],
            mirror["draws"],
        )
