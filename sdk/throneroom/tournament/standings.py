"""Standings from the records: openskill ratings, win rates with confidence
intervals, per-seat win rates; exported as JSON and CSV.

Ratings use openskill's Plackett-Luce model (multiplayer and team aware):
each game ranks its winning side first (tied) and every other side second
(tied), a side being one of the game's teams (``GameClient.seat_teams``)
or a lone seat, and one entrant in several seats one player of one side
(:func:`rating_units`); the games are rated in schedule order (by key),
never in the order they happened to finish, so the same results give the
same ratings. The rating shown is the conservative ``ordinal``
(mu - 3 sigma); ``mu ± 1.96 sigma`` is its 95% interval. Win rates carry a
95% Wilson score interval. A shared victory counts as a win for each
winner. Abandoned games (max_moves) count as played, won by nobody. Games
lost by a failure (a forfeit, a loss on time) are not rated unless the
tournament says ``rate_forfeits = true``.

openskill is in the ``tournament`` extra (``pip install 'throneroom[tournament]'``).
"""

from __future__ import annotations

import csv
import io
import json
import math
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field
from itertools import combinations
from typing import Any

from throneroom.tournament.records import MatchRecord
from throneroom.tournament.tiebreaks import SwissScore, swiss_scores

__all__ = [
    "Standing",
    "compute_standings",
    "rating_units",
    "standings_csv",
    "standings_json",
    "wilson_interval",
]

_Z = 1.959963984540054  # the 97.5% quantile of the normal distribution


def wilson_interval(wins: int, games: int) -> tuple[float, float]:
    """The 95% Wilson score interval of a win rate."""
    if games == 0:
        return (0.0, 1.0)
    p = wins / games
    denominator = 1 + _Z**2 / games
    centre = (p + _Z**2 / (2 * games)) / denominator
    half = _Z * math.sqrt(p * (1 - p) / games + _Z**2 / (4 * games**2)) / denominator
    return (max(0.0, centre - half), min(1.0, centre + half))


@dataclass
class Standing:
    """One entrant's line in the standings."""

    rank: int
    entrant: str
    games: int
    wins: int
    win_rate: float
    win_low: float
    win_high: float
    mu: float
    sigma: float
    ordinal: float
    failures: dict[str, int] = field(default_factory=dict)
    seat_games: list[int] = field(default_factory=list)
    seat_wins: list[int] = field(default_factory=list)
    swiss: SwissScore | None = None
    """A Swiss tournament's points, byes and tie-breaks (None for other schedules)."""

    @property
    def seat_win_rates(self) -> list[float | None]:
        return [w / g if g else None for w, g in zip(self.seat_wins, self.seat_games, strict=True)]


def _model() -> Any:
    try:
        from openskill.models import PlackettLuce  # noqa: PLC0415 - the tournament extra
    except ModuleNotFoundError:
        raise ModuleNotFoundError(
            "ratings need openskill: pip install 'throneroom[tournament]'", name="openskill"
        ) from None
    return PlackettLuce()


def rating_units(
    record: MatchRecord,
    teams: Sequence[Sequence[int]] | None = None,
    *,
    rate_forfeits: bool = False,
) -> list[tuple[tuple[str, ...], int]]:
    """What one game teaches the ratings: its sides (each the distinct entrants
    of a group of seats) with their ranks (1 won, 2 lost); [] when it teaches
    nothing.

    A side is a team of the game (``teams``, groups of seats; default every
    seat alone), merged with every other team an entrant of it also played in:
    an entrant filling several seats is one player of one side, rated once per
    game, a winner when any of its seats won. A game where that leaves one side
    (a mirror game, an entrant on both teams), where nobody won or everybody
    did, teaches nothing; so does a forfeit unless ``rate_forfeits``, and then
    the sides with a failing seat rank last and every other side first."""
    seats = len(record.entrants)
    groups = [list(team) for team in (teams or [(seat,) for seat in range(seats)])]
    merged = True
    while merged:  # merge the groups that share an entrant until none do
        merged = False
        for i, j in combinations(range(len(groups)), 2):
            if {record.entrants[s] for s in groups[i]} & {record.entrants[s] for s in groups[j]}:
                groups[i] += groups.pop(j)
                merged = True
                break
    if len(groups) < 2:
        return []
    if record.forfeited:
        if not rate_forfeits:
            return []
        failed = {f.seat for f in record.failures}
        ranks = [2 if failed & set(group) else 1 for group in groups]
    else:
        ranks = [1 if set(record.winners) & set(group) else 2 for group in groups]
    if len(set(ranks)) < 2:
        return []
    return [
        (tuple(dict.fromkeys(record.entrants[s] for s in sorted(group))), rank)
        for group, rank in zip(groups, ranks, strict=True)
    ]


def compute_standings(
    entrants: Sequence[str],
    records: Iterable[MatchRecord],
    seats: int,
    *,
    rate_forfeits: bool = False,
    bye_points: float | None = None,
    teams: Sequence[Sequence[int]] | None = None,
) -> list[Standing]:
    """The standings, best first (by ordinal, then win rate, then name; a Swiss
    tournament's, given ``bye_points``, by points, Buchholz and
    Sonneborn-Berger first: :mod:`~throneroom.tournament.tiebreaks`).

    ``games`` counts games (an entrant in several seats of one game played one
    game, won when any of its seats won); the per-seat counts count seats.
    ``teams`` are the game's teams (:meth:`GameClient.seat_teams`), rated as
    teams by openskill (:func:`rating_units`). A game lost by a failure
    (:attr:`MatchRecord.forfeited`) counts in games, wins and failures but is
    rated only with ``rate_forfeits``."""
    model = _model()
    ratings = {name: model.rating(name=name) for name in entrants}
    lines = {
        name: Standing(0, name, 0, 0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, {}, [0] * seats, [0] * seats)
        for name in entrants
    }
    played = sorted(records, key=lambda r: r.key)
    for record in played:
        for seat, name in enumerate(record.entrants):
            lines[name].seat_games[seat] += 1
            if seat in record.winners:
                lines[name].seat_wins[seat] += 1
        for name in set(record.entrants):
            lines[name].games += 1
        for name in set(record.winning_entrants):
            lines[name].wins += 1
        for failure in record.failures:
            counts = lines[failure.entrant].failures
            counts[failure.reason] = counts.get(failure.reason, 0) + 1
        units = rating_units(record, teams, rate_forfeits=rate_forfeits)
        if units:
            rated = model.rate(
                [[ratings[n] for n in side] for side, _ in units], ranks=[rank for _, rank in units]
            )
            for (side, _), team in zip(units, rated, strict=True):
                for name, rating in zip(side, team, strict=True):
                    ratings[name] = rating
    for name, line in lines.items():
        rating = ratings[name]
        line.mu, line.sigma, line.ordinal = rating.mu, rating.sigma, rating.ordinal()
        line.win_rate = line.wins / line.games if line.games else 0.0
        line.win_low, line.win_high = wilson_interval(line.wins, line.games)
    if bye_points is not None:
        for name, score in swiss_scores(entrants, played, bye_points).items():
            lines[name].swiss = score

    def order(s: Standing) -> tuple[float, ...]:
        tiebreaks = (
            (-s.swiss.points, -s.swiss.buchholz, -s.swiss.sonneborn_berger) if s.swiss else ()
        )
        return (*tiebreaks, -s.ordinal, -s.win_rate)

    ordered = sorted(lines.values(), key=lambda s: (order(s), s.entrant))
    for rank, line in enumerate(ordered, start=1):
        line.rank = rank
    return ordered


def standings_json(standings: Sequence[Standing], *, meta: dict[str, Any] | None = None) -> str:
    rows = []
    for line in standings:
        row = asdict(line)
        row["seat_win_rates"] = line.seat_win_rates
        rows.append(row)
    return json.dumps({**(meta or {}), "standings": rows}, indent=2, sort_keys=True)


def standings_csv(standings: Sequence[Standing]) -> str:
    seats = len(standings[0].seat_games) if standings else 0
    swiss = bool(standings) and standings[0].swiss is not None
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(
        [
            "rank",
            "entrant",
            "games",
            "wins",
            "win_rate",
            "win_low",
            "win_high",
            "mu",
            "sigma",
            "ordinal",
            *[f"seat{s}_win_rate" for s in range(seats)],
            "failures",
            *(["points", "byes", "buchholz", "sonneborn_berger"] if swiss else []),
        ]
    )
    for line in standings:
        writer.writerow(
            [
                line.rank,
                line.entrant,
                line.games,
                line.wins,
                f"{line.win_rate:.4f}",
                f"{line.win_low:.4f}",
                f"{line.win_high:.4f}",
                f"{line.mu:.3f}",
                f"{line.sigma:.3f}",
                f"{line.ordinal:.3f}",
                *["" if r is None else f"{r:.4f}" for r in line.seat_win_rates],
                ";".join(f"{k}={v}" for k, v in sorted(line.failures.items())),
                *(
                    [
                        f"{line.swiss.points:.4f}",
                        line.swiss.byes,
                        f"{line.swiss.buchholz:.4f}",
                        f"{line.swiss.sonneborn_berger:.4f}",
                    ]
                    if line.swiss is not None
                    else []
                ),
            ]
        )
    return out.getvalue()
