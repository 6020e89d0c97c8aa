"""Two-entrant match statistics against what cutechess-cli printed for the same counts.

The reference lines are cutechess-cli's own output for four published SPRT
runs (the Rustic engine's SPRT log, mvanthoor/rustic-book,
src/progress/sprt_results.md, run with ``-sprt elo0=1 elo1=5 alpha=0.05
beta=0.05``), e.g.::

    Score of Rustic Alpha 1.5 vs Rustic Alpha 1.1: 869 - 646 - 357  [0.560] 1872
    Elo difference: 41.6 +/- 14.2, LOS: 100.0 %, DrawRatio: 19.1 %
    SPRT: llr 2.95 (100.3%), lbound -2.94, ubound 2.94 - H1 was accepted
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from throneroom import Client
from throneroom.cli import main
from throneroom.tournament import MatchRecord, load_config, run_tournament
from throneroom.tournament.match_stats import MatchStats, Sprt, match_stats
from throneroom_server.embedded import EmbeddedServer

from tests.tournament.helpers import tournament_file

# wins - losses - draws, then cutechess's Elo, its ±, LOS %, draw ratio %, LLR, LLR % of the bound
CUTECHESS = [
    ((869, 646, 357), 41.6, 14.2, 100.0, 19.1, 2.95, 100.3),
    ((409, 197, 133), 102.5, 23.5, 100.0, 18.0, 2.95, 100.1),
    ((628, 416, 277), 56.2, 16.8, 100.0, 21.0, 2.94, 100.0),
    ((591, 388, 318), 54.8, 16.6, 100.0, 24.5, 2.95, 100.3),
]


@pytest.mark.parametrize("reference", CUTECHESS, ids=lambda r: "-".join(map(str, r[0])))
def test_elo_interval_los_draw_ratio_and_sprt_match_cutechess(
    reference: tuple[tuple[int, int, int], float, float, float, float, float, float],
) -> None:
    counts, elo, margin, los, draws, llr, percent = reference
    stats = MatchStats(*counts)
    assert f"{stats.elo:.1f}" == f"{elo:.1f}" and f"{stats.elo_margin:.1f}" == f"{margin:.1f}"
    assert f"{100 * stats.los:.1f}" == f"{los:.1f}"
    assert f"{100 * stats.draw_ratio:.1f}" == f"{draws:.1f}"
    status = Sprt(elo0=1, elo1=5, alpha=0.05, beta=0.05).status(stats)
    assert f"{status.lower:.2f}" == "-2.94" and f"{status.upper:.2f}" == "2.94"
    assert f"{status.llr:.2f}" == f"{llr:.2f}"
    assert f"{100 * status.llr / status.upper:.1f}" == f"{percent:.1f}"
    assert status.verdict == "H1"


def test_the_sprt_goes_on_until_every_count_is_positive_and_can_accept_h0() -> None:
    sprt = Sprt(elo0=0, elo1=5)
    assert sprt.status(MatchStats(10, 0, 3)).verdict == "continue"
    assert sprt.status(MatchStats(646, 869, 357)).verdict == "H0"
    assert Sprt.parse("elo0=0 elo1=10 alpha=0.1") == Sprt(0, 10, 0.1, 0.05)
    with pytest.raises(ValueError, match="elo0 < elo1"):
        Sprt.parse("elo0=5 elo1=0")


def _game(key: str, entrants: tuple[str, str], winners: tuple[int, ...]) -> MatchRecord:
    return MatchRecord(key, 0, entrants, 0, "", "finished", winners, "control", 1, 1)


def test_the_first_entrants_wins_losses_and_draws_over_their_games_in_either_seat() -> None:
    records = [
        _game("1", ("a", "b"), (0,)),
        _game("2", ("b", "a"), (1,)),
        _game("3", ("b", "a"), (0,)),
        _game("4", ("a", "b"), (0, 1)),  # shared: a draw
        _game("5", ("a", "b"), ()),  # nobody won: a draw
        _game("6", ("a", "c"), (0,)),  # not between them
    ]
    assert match_stats("a", "b", records) == MatchStats(wins=2, losses=1, draws=2)


def test_a_tournament_stops_when_asked_and_a_rerun_without_the_stop_plays_the_rest(
    tmp_path: Path,
) -> None:
    path = tournament_file(tmp_path, ["random", "heuristic"], games_per_pairing=3, concurrency=1)
    config = load_config(path)
    with EmbeddedServer() as server, Client(server.address) as client:
        stopped = run_tournament(
            config, tmp_path / "r.jsonl", client=client, stop=lambda played: len(played) >= 2
        )
        rest = run_tournament(config, tmp_path / "r.jsonl", client=client)
    assert len(stopped) == 2 and len(rest) == 6
    assert [r.key for r in stopped] == [r.key for r in rest[: len(stopped)]]


def test_the_command_prints_the_match_and_its_sprt_for_two_entrants(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tournament_file(tmp_path, ["random", "heuristic"])
    argv = ["tournament", str(path), "--plain", "--sprt", "elo0=0", "elo1=5"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "Score of random vs heuristic: " in out and "Elo difference: " in out
    assert "SPRT: llr 0 (0.0%), lbound -2.94, ubound 2.94" in out  # no draw yet: it goes on
    assert main(["tournament", str(path), "--json", "--sprt", "elo0=0", "elo1=5"]) == 0
    match = json.loads(capsys.readouterr().out)["match"]
    assert match["wins"] + match["losses"] + match["draws"] == 2
    assert match["sprt"]["verdict"] == "continue" and match["sprt"]["elo1"] == 5
    (tmp_path / "three").mkdir()
    three = tournament_file(tmp_path / "three", ["random", "heuristic", "node"])
    assert main(["tournament", str(three), "--sprt", "elo0=0", "elo1=5"]) == 1
    assert "two entrants" in capsys.readouterr().err
