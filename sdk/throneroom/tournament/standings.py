"""Standings from the records: openskill ratings, win rates with confidence
intervals, per-seat win rates; exported as JSON and CSV.

Ratings use openskill's Plackett-Luce model (multiplayer-aware): each game
ranks its winners first (tied) and every other seat second (tied), and the
games are rated in schedule order (by key), never in the order they happened
to finish, so the same results give the same ratings. The rating shown is
the conservative ``ordinal`` (mu - 3 sigma); ``mu ± 1.96 sigma`` is its 95%
interval. Win rates carry a 95% Wilson score interval. A shared victory
counts as a win for each winner. Abandoned games (max_moves) count as
played, won by nobody. Games lost by a failure (a forfeit, a loss on time)
are not rated unless the tournament says ``rate_forfeits = true``.

openskill is in the ``tournament`` extra (``pip install 'throneroom[tournament]'``).
"""

from __future__ import annotations

import csv
import io
import json
import math
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from throneroom.tournament.records import MatchRecord
from throneroom.tournament.tiebreaks import SwissScore, swiss_scores

__all__ = ["Standing", "compute_standings", "standings_csv", "standings_json", "wilson_interval"]

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


def compute_standings(
    entrants: Sequence[str],
    records: Iterable[MatchRecord],
    seats: int,
    *,
    rate_forfeits: bool = False,
    bye_points: float | None = None,
) -> list[Standing]:
    """The standings, best first (by ordinal, then win rate, then name; a Swiss
    tournament's, given ``bye_points``, by points, Buchholz and
    Sonneborn-Berger first: :mod:`~throneroom.tournament.tiebreaks`).

    A game lost by a failure (:attr:`MatchRecord.forfeited`) counts in games,
    wins and failures but is rated only with ``rate_forfeits``, and then the
    failing seats rank last and every other seat first."""
    model = _model()
    ratings = {name: model.rating(name=name) for name in entrants}
    lines = {
        name: Standing(0, name, 0, 0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, {}, [0] * seats, [0] * seats)
        for name in entrants
    }
    played = sorted(records, key=lambda r: r.key)
    for record in played:
        for seat, name in enumerate(record.entrants):
            line = lines[name]
            line.games += 1
            line.seat_games[seat] += 1
            if seat in record.winners:
                line.wins += 1
                line.seat_wins[seat] += 1
        for failure in record.failures:
            counts = lines[failure.entrant].failures
            counts[failure.reason] = counts.get(failure.reason, 0) + 1
        if len(set(record.entrants)) < 2:
            continue  # a mirror game says nothing about skill
        if record.forfeited:
            if not rate_forfeits:
                continue
            failed = {f.seat for f in record.failures}
            ranks = [2 if seat in failed else 1 for seat in range(len(record.entrants))]
        elif record.winners:
            ranks = [1 if seat in record.winners else 2 for seat in range(len(record.entrants))]
        else:
            continue  # nobody won: no order to learn from
        teams = [[ratings[name]] for name in record.entrants]
        if len(set(ranks)) < 2:
            continue  # everyone won: no order to learn from
        rated = model.rate(teams, ranks=ranks)
        for name, team in zip(record.entrants, rated, strict=True):
            ratings[name] = team[0]
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
