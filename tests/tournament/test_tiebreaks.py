"""Swiss standings: points, byes, Buchholz and Sonneborn-Berger, against values
worked out by hand for a small tournament."""

from __future__ import annotations

import json

from throneroom.tournament import MatchRecord, compute_standings
from throneroom.tournament.command import plain_table
from throneroom.tournament.standings import standings_csv, standings_json
from throneroom.tournament.tiebreaks import SwissScore, swiss_scores


def _game(round_: int, seating: str, winners: tuple[int, ...]) -> MatchRecord:
    return MatchRecord(
        key=f"swiss:r{round_}:{seating}",
        round=round_,
        entrants=tuple(seating.split("|")),
        game_seed=0,
        game_id="",
        status="finished",
        winners=winners,
        termination="control",
        moves=1,
        apply_moves=1,
    )


# Three entrants, two seats, one game per seat order: each round one table plays
# two games and one entrant sits out (a bye worth 1 point, its even share).
RECORDS = [
    _game(1, "A|B", (0,)),  # A beats B twice; C has the bye
    _game(1, "B|A", (1,)),
    _game(2, "C|B", (0,)),  # C and B win one each; A has the bye
    _game(2, "B|C", (0,)),
    _game(3, "A|C", (1,)),  # C wins one, the other is shared; B has the bye
    _game(3, "C|A", (0, 1)),
]

# By hand:
# points    A: 2 + 1 (bye) + 0.5 = 3.5   B: 0 + 1 + 1 (bye) = 2   C: 1 (bye) + 1 + 1.5 = 3.5
# Buchholz  A: B 2 + C 3.5 = 5.5         B: A 3.5 + C 3.5 = 7     C: B 2 + A 3.5 = 5.5
# S-B       A: 2 x B 2 + 0.5 x C 3.5 = 5.75
#           B: 1 x C 3.5 = 3.5
#           C: 1 x B 2 + 1 x A 3.5 + 0.5 x A 3.5 = 7.25
EXPECTED = {
    "A": SwissScore(points=3.5, byes=1, buchholz=5.5, sonneborn_berger=5.75),
    "B": SwissScore(points=2.0, byes=1, buchholz=7.0, sonneborn_berger=3.5),
    "C": SwissScore(points=3.5, byes=1, buchholz=5.5, sonneborn_berger=7.25),
}


def test_points_byes_buchholz_and_sonneborn_berger_match_the_hand_computed_values() -> None:
    assert swiss_scores(["A", "B", "C"], RECORDS, bye_points=1.0) == EXPECTED


def test_swiss_standings_are_ordered_by_points_then_buchholz_then_sonneborn_berger() -> None:
    standings = compute_standings(["A", "B", "C"], RECORDS, 2, bye_points=1.0)
    # A and C tie on points and Buchholz; C's Sonneborn-Berger is higher.
    assert [s.entrant for s in standings] == ["C", "A", "B"]
    assert [s.swiss for s in standings] == [EXPECTED["C"], EXPECTED["A"], EXPECTED["B"]]
    header, first, *_ = plain_table(standings).splitlines()
    assert "points  byes  Buchholz      SB" in header
    assert "3.50     1      5.50    7.25" in first


def test_other_schedules_have_no_swiss_score() -> None:
    standings = compute_standings(["A", "B", "C"], RECORDS, 2)
    assert all(s.swiss is None for s in standings)
    assert "Buchholz" not in plain_table(standings)


def test_the_csv_and_json_carry_the_swiss_score() -> None:
    standings = compute_standings(["A", "B", "C"], RECORDS, 2, bye_points=1.0)
    header, first, *_ = standings_csv(standings).splitlines()
    assert header.endswith(",points,byes,buchholz,sonneborn_berger")
    assert first.startswith("1,C,") and first.endswith(",3.5000,1,5.5000,7.2500")
    assert json.loads(standings_json(standings))["standings"][0]["swiss"] == {
        "points": 3.5,
        "byes": 1,
        "buchholz": 5.5,
        "sonneborn_berger": 7.25,
    }
