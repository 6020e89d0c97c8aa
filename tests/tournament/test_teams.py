"""Teams and repeated entrants in the ratings: openskill rates a game's teams
as teams, an entrant in several seats once per game, and games count games."""

from __future__ import annotations

from pathlib import Path

import pytest
from openskill.models import PlackettLuce
from throneroom.games.protocol import game_client
from throneroom.tournament import MatchRecord, TournamentFileError, compute_standings, parse_config
from throneroom.tournament.standings import rating_units


def _record(key: str, entrants: tuple[str, ...], winners: tuple[int, ...]) -> MatchRecord:
    return MatchRecord(key, 0, entrants, 0, "g", "finished", winners, "control", 10, 10)


def test_the_games_say_their_teams() -> None:
    assert game_client("king_is_dead").seat_teams(4, {}) == ((0, 2), (1, 3))
    assert game_client("king_is_dead").seat_teams(3, {}) == ((0,), (1,), (2,))
    giga = {"mode": "KILL_THE_KING_MODE_KILL_THE_KING_GIGA"}
    assert game_client("kill_the_king").seat_teams(4, giga) == ((0, 2), (1, 3))
    assert game_client("kill_the_king").seat_teams(3, giga) == ((0, 2), (1,))
    assert game_client("kill_the_king").seat_teams(2, {}) == ((0,), (1,))
    assert game_client("kings_life").seat_teams(4, {}) == ((0,), (1,), (2,), (3,))


def test_a_team_game_updates_both_teams_as_openskill_rates_two_teams() -> None:
    record = _record("k", ("a", "b", "c", "d"), (0, 2))  # seats 0+2 (a, c) won
    teams = ((0, 2), (1, 3))
    assert rating_units(record, teams) == [(("a", "c"), 1), (("b", "d"), 2)]
    standings = {s.entrant: s for s in compute_standings("abcd", [record], 4, teams=teams)}
    model = PlackettLuce()
    expected = model.rate(
        [[model.rating(name="a"), model.rating(name="c")], [model.rating(), model.rating()]],
        ranks=[1, 2],
    )
    (a, c), (b, d) = expected
    for name, rating in zip("acbd", (a, c, b, d), strict=True):
        assert standings[name].mu == pytest.approx(rating.mu)
        assert standings[name].sigma == pytest.approx(rating.sigma)
    assert standings["a"].mu > 25 > standings["b"].mu
    # Seat by seat (no teams), the same game ranks four players.
    alone = {s.entrant: s for s in compute_standings("abcd", [record], 4)}
    assert alone["a"].mu != pytest.approx(standings["a"].mu)


def test_an_entrant_in_several_seats_is_rated_once_per_game_and_plays_one_game() -> None:
    # The hero in seat 0 against one field entrant filling three seats; the
    # field wins once by seat 3 (its losing copies are not credited with a loss).
    records = [
        _record("g1", ("hero", "field", "field", "field"), (0,)),
        _record("g2", ("hero", "field", "field", "field"), (3,)),
    ]
    assert rating_units(records[1]) == [(("hero",), 2), (("field",), 1)]
    standings = {s.entrant: s for s in compute_standings(["hero", "field"], records, 4)}
    hero, field = standings["hero"], standings["field"]
    assert (hero.games, hero.wins, field.games, field.wins) == (2, 1, 2, 1)
    assert field.seat_games == [0, 2, 2, 2] and field.seat_wins == [0, 0, 0, 1]
    model = PlackettLuce()
    h, f = model.rating(name="hero"), model.rating(name="field")
    [[h], [f]] = model.rate([[h], [f]], ranks=[1, 2])
    [[h], [f]] = model.rate([[h], [f]], ranks=[2, 1])
    assert hero.mu == pytest.approx(h.mu) and field.mu == pytest.approx(f.mu)


def test_an_entrant_on_both_teams_makes_the_game_unrated() -> None:
    record = _record("k", ("a", "b", "b", "c"), (0, 2))  # b plays for both teams
    assert rating_units(record, ((0, 2), (1, 3))) == []
    standings = compute_standings(["a", "b", "c"], [record], 4, teams=((0, 2), (1, 3)))
    assert all(s.mu == pytest.approx(25.0) for s in standings)
    assert {s.entrant: s.wins for s in standings} == {"a": 1, "b": 1, "c": 0}


def test_a_gauntlet_fills_a_seat_twice_only_when_the_file_says_so() -> None:
    data = {
        "game": "kings_life",
        "seats": 4,
        "schedule": "gauntlet",
        "hero": "a",
        "entrants": [{"name": n, "bot": "throneroom.bots:RandomBot"} for n in "ab"],
    }
    with pytest.raises(TournamentFileError, match="repeat_entrants = true"):
        parse_config(data, base_dir=Path("."))
    allowed = parse_config({**data, "repeat_entrants": True}, base_dir=Path("."))
    assert allowed.repeat_entrants
    with pytest.raises(TournamentFileError, match="for a gauntlet"):
        parse_config({**data, "schedule": "round_robin", "hero": "", "repeat_entrants": True})
