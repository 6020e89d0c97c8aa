"""Tournaments end to end through a real server on Redis, and their reproducibility and resume."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from throneroom import Client
from throneroom.tournament import (
    MatchRecord,
    ResultsMismatch,
    compute_standings,
    load_config,
    run_tournament,
)
from throneroom.tournament.standings import standings_csv, standings_json
from throneroom_server.embedded import EmbeddedServer

from tests.tournament.helpers import tournament_file


@pytest.fixture(scope="module")
def redis_server(redis_url: str) -> Iterator[EmbeddedServer]:
    with EmbeddedServer(redis_url=redis_url) as server:
        yield server


@pytest.mark.slow  # whole tournaments
def test_a_tournament_through_redis_survives_crashing_hanging_and_illegal_bots(
    redis_server: EmbeddedServer, tmp_path: Path
) -> None:
    # (A program that cannot even start stops the tournament before it: test_preflight.py.)
    entrants = ["random", "heuristic", "node", "crasher", "hanger", "illegal"]
    path = tournament_file(
        tmp_path, entrants, deadline=5, concurrency=4, server=redis_server.address
    )
    config = load_config(path)
    seen: list[int] = []
    records = run_tournament(config, tmp_path / "r.jsonl", progress=lambda r, d, t: seen.append(d))
    assert len(records) == 6 * 5 == len(seen)  # every ordered pair, nothing stalled
    by_failure: dict[str, list[MatchRecord]] = {}
    for record in records:
        for failure in record.failures:
            by_failure.setdefault(failure.entrant, []).append(record)
            assert record.entrants[failure.seat] == failure.entrant
            assert failure.seat not in record.winners
    # Against a well-behaved bot, each misbehaving bot fails every game, for its reason.
    good = {"random", "heuristic", "node"}
    reasons = {"crasher": "crash", "hanger": "timeout", "illegal": "illegal"}
    for name, reason in reasons.items():
        games = [r for r in records if name in r.entrants and set(r.entrants) - {name} <= good]
        assert len(games) == 6
        for record in games:
            assert [(f.entrant, f.reason) for f in record.failures] == [(name, reason)]
            assert record.winning_entrants == tuple(n for n in record.entrants if n != name)
    # A hanging bot loses on the service's clock: the service ended those games.
    hung = [r for r in by_failure["hanger"] if any(f.reason == "timeout" for f in r.failures)]
    assert hung and all(r.status == "finished" and r.termination == "timeout" for r in hung)
    # The well-behaved bots never fail; their games against each other finish by the rules.
    for name in ("random", "heuristic", "node"):
        assert name not in by_failure
    fair = [r for r in records if set(r.entrants) <= {"random", "heuristic", "node"}]
    assert len(fair) == 6 and all(r.status == "finished" and r.winners for r in fair)
    assert all(r.apply_moves == r.moves for r in records)  # one ApplyMove per decision
    standings = compute_standings(entrants, records, config.seats)
    assert standings[0].entrant in {"heuristic", "random", "node"}
    top = {s.entrant: s for s in standings}
    assert top["crasher"].games == 10 and top["crasher"].failures["crash"] >= 6
    assert top["heuristic"].wins >= top["random"].wins
    assert (
        '"standings"' in standings_json(standings) and standings_csv(standings).count("\n") == 1 + 6
    )


def _results(records: list[MatchRecord]) -> list[dict[str, object]]:
    return [r.result() for r in records]


@pytest.mark.slow  # whole tournaments
@pytest.mark.parametrize("schedule", ["round_robin", "swiss", "gauntlet"])
def test_the_same_file_and_seed_give_the_same_games_and_results(
    tmp_path: Path, schedule: str
) -> None:
    extra: dict[str, object] = {"schedule": schedule, "concurrency": 3}
    if schedule == "swiss":
        extra["rounds"] = 3
    if schedule == "gauntlet":
        extra["hero"] = "heuristic"
    path = tournament_file(tmp_path, ["random", "heuristic", "node"], **extra)
    config = load_config(path)
    with EmbeddedServer() as server, Client(server.address) as client:
        first = run_tournament(config, tmp_path / "first.jsonl", client=client)
        second = run_tournament(config, tmp_path / "second.jsonl", client=client)
    assert first and _results(first) == _results(second)
    if schedule == "swiss":  # three entrants, two seats: each sits out one round
        byes = [
            {"random", "heuristic", "node"}
            - {n for r in first if r.round == round_ for n in r.entrants}
            for round_ in (1, 2, 3)
        ]
        assert [len(b) for b in byes] == [1, 1, 1] and set().union(*byes) == {
            "random",
            "heuristic",
            "node",
        }
    assert len({r.game_id for r in first + second}) == 2 * len(first)  # new games each time
    other = load_config(
        tournament_file(tmp_path, ["random", "heuristic", "node"], seed=12, **extra)
    )
    with EmbeddedServer() as server, Client(server.address) as client:
        reseeded = run_tournament(other, tmp_path / "other.jsonl", client=client)
    assert [r.game_seed for r in reseeded] != [r.game_seed for r in first]


@pytest.mark.slow  # whole tournaments
def test_a_bot_answering_just_after_its_deadline_loses_on_time_and_play_goes_on(
    tmp_path: Path,
) -> None:
    """The move reaches the service after the deadline: refused as too late, or
    stale when the service's sweeper timed the seat out first. Either way the
    late bot loses that game on time; the tournament is not stopped."""
    path = tournament_file(tmp_path, ["random", "late"], deadline=3, concurrency=2)
    with EmbeddedServer() as server, Client(server.address) as client:
        records = run_tournament(load_config(path), tmp_path / "r.jsonl", client=client)
    assert len(records) == 2
    for record in records:
        assert [(f.entrant, f.reason) for f in record.failures] == [("late", "timeout")]
        assert record.winning_entrants == ("random",)


class _Stop(Exception):
    pass


@pytest.mark.slow  # whole tournaments
def test_a_stopped_tournament_resumes_where_it_stopped(tmp_path: Path) -> None:
    path = tournament_file(tmp_path, ["random", "heuristic", "node"], concurrency=1)
    config = load_config(path)
    results = tmp_path / "r.jsonl"

    def stop_after_two(record: MatchRecord, done: int, total: int) -> None:
        if done == 2:
            raise _Stop

    with EmbeddedServer() as server, Client(server.address) as client:
        with pytest.raises(_Stop):
            run_tournament(config, results, client=client, progress=stop_after_two)
        kept = results.read_text().splitlines()
        # The header and the matches played (the one under way when it stopped may finish).
        assert 1 + 2 <= len(kept) <= 1 + 3
        with results.open("a") as out:
            out.write('{"type": "match", "key": "cut sh')  # a line cut by a crash
        played: list[str] = []
        resumed = run_tournament(
            config, results, client=client, progress=lambda r, d, t: played.append(r.key)
        )
        fresh = run_tournament(config, tmp_path / "fresh.jsonl", client=client)
    assert len(played) == 6 - (len(kept) - 1)  # only the missing matches were played
    assert results.read_text().splitlines()[: len(kept)] == kept
    assert _results(resumed) == _results(fresh)
    changed = load_config(tournament_file(tmp_path, ["random", "heuristic", "node"], seed=99))
    with pytest.raises(ResultsMismatch):
        run_tournament(changed, results)
