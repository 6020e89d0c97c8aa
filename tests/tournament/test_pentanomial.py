"""Pentanomial statistics of paired games against what fastchess printed for the
same counts.

The references are fastchess's own output quoted in its issue tracker
(Disservin/fastchess #807 and #1007, #720), e.g.::

    Elo: -168.40 +/- 73.37, nElo: -170.08 +/- 62.16
    LOS: 0.00 %, DrawRatio: 30.00 %, PairsRatio: 0.17
    Games: 120, Wins: 30, Losses: 84, Draws: 6, Points: 33.0 (27.50 %)
    Ptnml(0-2): [30, 6, 18, 0, 6], WL/DD Ratio: inf
"""

from __future__ import annotations

import pytest
from throneroom.tournament import MatchRecord
from throneroom.tournament.match_stats import (
    MatchStats,
    Pentanomial,
    match_lines,
    match_summary,
    pentanomial,
)

# Ptnml(0-2), then fastchess's Elo, its ±, nElo, its ±, the score in %
FASTCHESS = [
    ((30, 6, 18, 0, 6), -168.40, 73.37, -170.08, 62.16, 27.50),
    ((5, 5, 36, 22, 22), 101.21, 42.63, 128.22, 50.76, 64.2),
    ((0, 2, 9, 4, 0), 23.20, 55.06, 52.98, 124.33, 53.3),
]


@pytest.mark.parametrize("reference", FASTCHESS, ids=lambda r: "-".join(map(str, r[0])))
def test_elo_and_nelo_with_their_intervals_match_fastchess(
    reference: tuple[tuple[int, int, int, int, int], float, float, float, float, float],
) -> None:
    counts, elo, margin, nelo, nelo_margin, score = reference
    pairs = Pentanomial(counts)
    assert round(pairs.elo, 2) == elo and round(pairs.elo_margin, 2) == margin
    assert round(pairs.nelo, 2) == nelo and round(pairs.nelo_margin, 2) == nelo_margin
    assert round(100 * pairs.score, 1) == round(score, 1)


def test_the_pairs_ratio_matches_fastchess() -> None:
    assert round(Pentanomial((30, 6, 18, 0, 6)).pairs_ratio, 2) == 0.17


def _record(key: str, entrants: tuple[str, str], winners: tuple[int, ...]) -> MatchRecord:
    return MatchRecord(key, 0, entrants, 0, "g", "finished", winners, "control", 10, 10)


def test_games_are_paired_by_game_number_across_the_two_seat_orders() -> None:
    records = [
        _record("round_robin:0:g0", ("a", "b"), (0,)),  # a wins
        _record("round_robin:1:g0", ("b", "a"), (1,)),  # a wins: pair 2
        _record("round_robin:0:g1", ("a", "b"), (1,)),  # a loses
        _record("round_robin:1:g1", ("b", "a"), ()),  # nobody: a draw; pair 1/2
        _record("round_robin:0:g2", ("a", "b"), (0, 1)),  # shared: a draw
        _record("round_robin:1:g2", ("b", "a"), (1,)),  # a wins: pair 3/2
        _record("round_robin:0:g3", ("a", "b"), (0,)),  # no pair: left out
    ]
    pairs = pentanomial("a", "b", records)
    assert pairs.counts == (0, 1, 0, 1, 1)
    assert pentanomial("b", "a", records).counts == (1, 1, 0, 1, 0)
    lines = match_lines("a", "b", MatchStats(4, 1, 2), pairs=pairs).splitlines()
    assert lines[-1].startswith("Ptnml(0-2): [0, 1, 0, 1, 1], Elo: ")
    summary = match_summary("a", "b", MatchStats(4, 1, 2), pairs=pairs)
    assert summary["pentanomial"]["counts"] == [0, 1, 0, 1, 1]
    assert "pentanomial" not in match_summary("a", "b", MatchStats(4, 1, 2))
