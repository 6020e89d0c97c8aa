"""The tournament file, the schedules and the standings, without a server."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from throneroom.tournament import (
    MatchRecord,
    TournamentFileError,
    compute_standings,
    fixed_schedule,
    parse_config,
    swiss_round,
)
from throneroom.tournament.standings import wilson_interval


def _config(**settings: Any) -> Any:
    data: dict[str, Any] = {
        "game": "king_is_dead",
        "seats": 2,
        "entrants": [{"name": n, "bot": "throneroom.bots:RandomBot"} for n in "abcd"],
    }
    data.update(settings)
    return parse_config(data, base_dir=Path("."))


def test_round_robin_plays_every_group_in_every_seat_order() -> None:
    config = _config(seats=3, games_per_pairing=2)
    matches = fixed_schedule(config)
    assert len(matches) == 4 * 3 * 2 * 2  # ordered choices of 3 among 4, twice
    seat_counts = Counter((m.entrants[s], s) for m in matches for s in range(3))
    assert set(seat_counts.values()) == {12}  # every entrant as often in every seat
    assert len({m.key for m in matches}) == len(matches)
    assert len({m.game_seed for m in matches}) == len(matches)


def test_gauntlet_puts_the_hero_in_every_seat_against_the_field() -> None:
    config = _config(schedule="gauntlet", hero="a", seats=4)
    matches = fixed_schedule(config)
    assert all(m.entrants.count("a") == 1 for m in matches)
    assert Counter(m.entrants.index("a") for m in matches) == dict.fromkeys(range(4), 6)
    lone = _config(
        schedule="gauntlet",
        hero="a",
        seats=5,
        entrants=[{"name": n, "bot": "throneroom.bots:RandomBot"} for n in "ab"],
    )
    assert [m.entrants for m in fixed_schedule(lone)][:2] == [
        ("a", "b", "b", "b", "b"),
        ("b", "a", "b", "b", "b"),
    ]


def test_seeds_follow_the_base_seed_and_the_match_not_the_order() -> None:
    one, other = fixed_schedule(_config(seed=1)), fixed_schedule(_config(seed=2))
    assert [m.key for m in one] == [m.key for m in other]
    assert [m.game_seed for m in one] != [m.game_seed for m in other]
    assert fixed_schedule(_config(seed=1)) == one


def test_swiss_pairs_by_points_and_avoids_rematches() -> None:
    config = _config(
        schedule="swiss",
        rounds=2,
        entrants=[{"name": n, "bot": "throneroom.bots:RandomBot"} for n in "abcde"],
    )
    first, byes = swiss_round(config, 1, {}, {})
    assert len(byes) == 1 and len(first) == 2 * 2  # two tables, both seat orders
    points = {"a": 2.0, "b": 2.0, "c": 1.0, "d": 0.0, "e": 0.0}
    met = {"a": {"b"}, "b": {"a"}}
    second, byes = swiss_round(config, 2, points, met)
    tables = {frozenset(m.entrants) for m in second}
    assert frozenset("ab") not in tables and frozenset("ac") in tables
    assert byes in (["e"], ["d"])


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"game": ""}, "game is required"),
        ({"schedule": "knockout"}, "schedule must be one of"),
        ({"seats": 5}, "needs at least 5 entrants"),
        ({"schedule": "gauntlet"}, "needs hero"),
        ({"schedule": "swiss"}, "rounds >= 1"),
        ({"time_control": {"per_decision_seconds": 5, "base_seconds": 60}}, "one of them"),
        ({"colour": "red"}, "unknown key"),
        ({"entrants": [{"name": "x", "bot": "nocolon"}]}, "module:Class"),
        ({"entrants": [{"name": "x"}]}, "give bot"),
    ],
)
def test_a_bad_tournament_file_is_refused_with_the_reason(
    change: dict[str, Any], message: str
) -> None:
    with pytest.raises(TournamentFileError, match=message):
        _config(**change)


def _record(key: str, entrants: tuple[str, ...], winners: tuple[int, ...]) -> MatchRecord:
    return MatchRecord(key, 0, entrants, 0, "g", "finished", winners, "control", 10, 10)


def test_standings_rate_winners_above_losers_with_intervals_and_per_seat_rates() -> None:
    records = [_record(f"k{i}", ("a", "b") if i % 2 else ("b", "a"), (i % 2,)) for i in range(20)]
    # b wins every game, from either seat.
    standings = compute_standings(["a", "b"], records, 2)
    assert [s.entrant for s in standings] == ["b", "a"]
    b, a = standings
    assert (b.wins, a.wins, b.games) == (20, 0, 20) and b.mu > a.mu
    assert b.seat_win_rates == [1.0, 1.0] and a.seat_win_rates == [0.0, 0.0]
    assert b.win_low < 1.0 == b.win_high
    assert compute_standings(["a", "b"], list(reversed(records)), 2) == standings


def test_wilson_interval() -> None:
    low, high = wilson_interval(50, 100)
    assert low == pytest.approx(0.4038, abs=1e-4) and high == pytest.approx(0.5962, abs=1e-4)
    assert wilson_interval(0, 0) == (0.0, 1.0)
