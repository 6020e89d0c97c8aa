"""Bot tournaments through the service: ``throneroom tournament FILE``, or::

    from throneroom.tournament import load_config, run_tournament, compute_standings

    config = load_config("kid.toml")
    records = run_tournament(config, "kid.results.jsonl")
    for line in compute_standings([e.name for e in config.entrants], records, config.seats):
        print(line.rank, line.entrant, line.win_rate)

The tournament file (TOML, :mod:`throneroom.tournament.config`) names the game,
its options and seats, the entrants (Python bots by ``module:Class``, or any
program speaking the protocol of :mod:`throneroom.external`, per game or as a
persistent engine of :mod:`throneroom.engine`), the schedule
(:mod:`~throneroom.tournament.schedule`), games per pairing, the clock, the
base seed and the server. Results go to a JSON-lines file as they come
(:mod:`~throneroom.tournament.records`) and a rerun resumes; ratings and
standings are in :mod:`~throneroom.tournament.standings` (openskill: the
``tournament`` extra; teams as teams), two-entrant match statistics in
:mod:`~throneroom.tournament.match_stats` and cross tables in
:mod:`~throneroom.tournament.crosstable`. The guide is ``docs/tournaments.md``.
"""

from __future__ import annotations

from throneroom.tournament.config import (
    EntrantSpec,
    TimeControlSpec,
    TournamentConfig,
    TournamentFileError,
    load_config,
    parse_config,
)
from throneroom.tournament.entrants import EntrantError
from throneroom.tournament.records import Failure, MatchRecord, ResultsFile, ResultsMismatch
from throneroom.tournament.runner import connect, run_tournament, total_matches
from throneroom.tournament.schedule import Match, fixed_schedule, swiss_round
from throneroom.tournament.standings import Standing, compute_standings

__all__ = [
    "EntrantError",
    "EntrantSpec",
    "Failure",
    "Match",
    "MatchRecord",
    "ResultsFile",
    "ResultsMismatch",
    "Standing",
    "TimeControlSpec",
    "TournamentConfig",
    "TournamentFileError",
    "compute_standings",
    "connect",
    "fixed_schedule",
    "load_config",
    "parse_config",
    "run_tournament",
    "swiss_round",
    "total_matches",
]
