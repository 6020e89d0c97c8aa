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
        repeat_entrants=True,
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


def _swiss_byes(config: Any, rounds: int) -> list[list[str]]:
    """Each round's byes when the first seat of every game wins (points and
    byes carried from round to round as the runner carries them)."""
    points: dict[str, float] = {}
    met: dict[str, set[str]] = {}
    had: dict[str, int] = {}
    byes_by_round = []
    for round_ in range(1, rounds + 1):
        matches, byes = swiss_round(config, round_, points, met, had)
        byes_by_round.append(byes)
        for match in matches:
            points[match.entrants[0]] = points.get(match.entrants[0], 0.0) + 1.0
            for name in match.entrants:
                met.setdefault(name, set()).update(set(match.entrants) - {name})
        for name in byes:
            had[name] = had.get(name, 0) + 1
            points[name] = points.get(name, 0.0) + config.games_per_pairing
    return byes_by_round


@pytest.mark.parametrize(("names", "seats"), [("abcde", 2), ("abcdefg", 3), ("abc", 2)])
def test_swiss_byes_go_to_everyone_once_before_anyone_twice(names: str, seats: int) -> None:
    config = _config(
        schedule="swiss",
        seats=seats,
        rounds=2 * len(names),
        entrants=[{"name": n, "bot": "throneroom.bots:RandomBot"} for n in names],
    )
    byes = _swiss_byes(config, 2 * len(names))
    counts: Counter[str] = Counter()
    for round_byes in byes:
        assert len(round_byes) == len(names) % seats
        for name in round_byes:
            # Nobody sits out again while someone else has sat out fewer times.
            assert counts[name] == min(counts[n] for n in names)
            counts[name] += 1
    assert set(counts) == set(names)
    assert _swiss_byes(config, 2 * len(names)) == byes  # deterministic from the seed


def test_a_swiss_bye_goes_to_the_lowest_ranked_without_one() -> None:
    config = _config(
        schedule="swiss",
        rounds=3,
        entrants=[{"name": n, "bot": "throneroom.bots:RandomBot"} for n in "abcde"],
    )
    points = {"a": 4.0, "b": 3.0, "c": 2.0, "d": 1.0, "e": 0.0}
    assert swiss_round(config, 3, points, {})[1] == ["e"]
    assert swiss_round(config, 3, points, {}, {"e": 1})[1] == ["d"]
    assert swiss_round(config, 3, points, {}, {"e": 1, "d": 1, "c": 1})[1] == ["b"]
    everyone = dict.fromkeys("abcde", 1)
    assert swiss_round(config, 3, points, {}, everyone)[1] == ["e"]  # all had one: the lowest
    tables = {frozenset(m.entrants) for m in swiss_round(config, 3, points, {}, {"e": 1})[0]}
    assert tables == {frozenset("ab"), frozenset("ce")}


def test_swiss_pairing_avoids_a_rematch_the_top_down_greedy_choice_would_force() -> None:
    config = _config(schedule="swiss", rounds=2)  # a, b, c, d; two seats
    points = {"a": 3.0, "b": 2.0, "c": 1.0, "d": 0.0}
    # a has met b: taking c (the best fresh partner) leaves b with d, met too.
    met = {"a": {"b"}, "b": {"a", "d"}, "d": {"b"}}
    matches, byes = swiss_round(config, 2, points, met)
    assert not byes
    assert {frozenset(m.entrants) for m in matches} == {frozenset("ad"), frozenset("bc")}
    # When every pairing has a rematch, the fewest: here one, the top table fresh.
    met = {n: set("abcd") - {n} for n in "abcd"}
    met["a"].discard("b")
    met["b"].discard("a")
    matches, _ = swiss_round(config, 2, points, met)
    assert {frozenset(m.entrants) for m in matches} == {frozenset("ab"), frozenset("cd")}


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
