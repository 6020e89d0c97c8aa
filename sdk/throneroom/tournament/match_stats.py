"""A match of two entrants as cutechess-cli reports one: Elo difference with its
95% interval, LOS, draw ratio, and the SPRT's log-likelihood ratio.

The counts are the first entrant's wins, losses and draws, where a draw is a
game both won (a shared victory) or neither did. The formulas are
cutechess-cli's (``projects/lib/src/elo.cpp`` and ``sprt.cpp``), and the tests
check them against what it printed for the same counts:

- score ``mu = (wins + draws / 2) / n``; its standard error from the
  trinomial variance ``(w (1 - mu)^2 + l mu^2 + d (0.5 - mu)^2) / n``, over
  ``sqrt(n)`` (``w``, ``l``, ``d`` the frequencies);
- Elo difference ``-400 log10(1 / mu - 1)``; its 95% interval half the
  distance between the Elo of ``mu ± 1.96`` standard errors;
- LOS (likelihood of superiority) ``0.5 + 0.5 erf((wins - losses) / sqrt(2 (wins + losses)))``;
- SPRT: the draw Elo estimated from the sample (BayesElo's model), the
  hypotheses' Elo ``elo0`` and ``elo1`` scaled to BayesElo, and the
  log-likelihood ratio of the counts under H1 against H0; the test accepts
  H1 above ``log((1 - beta) / alpha)``, H0 below ``log(beta / (1 - alpha))``,
  and goes on between (and while a count is still zero).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import asdict, dataclass
from statistics import NormalDist
from typing import Any

from throneroom.tournament.records import MatchRecord

__all__ = [
    "MatchStats",
    "Pentanomial",
    "Sprt",
    "SprtStatus",
    "match_lines",
    "match_stats",
    "match_summary",
    "pentanomial",
]

_Z95 = NormalDist().inv_cdf(0.975)


def _elo(score: float) -> float:
    if score <= 0.0:
        return -math.inf
    if score >= 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / score - 1.0)


@dataclass(frozen=True)
class MatchStats:
    """The first entrant's results against the second, and what they say."""

    wins: int
    losses: int
    draws: int

    @property
    def games(self) -> int:
        return self.wins + self.losses + self.draws

    @property
    def score(self) -> float:
        return (self.wins + self.draws / 2) / self.games if self.games else 0.5

    @property
    def elo(self) -> float:
        """The Elo difference the score says (the first entrant's advantage)."""
        return _elo(self.score)

    @property
    def elo_margin(self) -> float:
        """Half the 95% interval of :attr:`elo` (``elo ± elo_margin``)."""
        n = self.games
        if not n:
            return math.inf
        mu = self.score
        variance = (
            self.wins / n * (1 - mu) ** 2
            + self.losses / n * mu**2
            + self.draws / n * (0.5 - mu) ** 2
        )
        error = math.sqrt(variance) / math.sqrt(n)
        return (_elo(mu + _Z95 * error) - _elo(mu - _Z95 * error)) / 2

    @property
    def los(self) -> float:
        """The likelihood that the first entrant is the stronger (0..1)."""
        decisive = self.wins + self.losses
        if not decisive:
            return 0.5
        return 0.5 + 0.5 * math.erf((self.wins - self.losses) / math.sqrt(2 * decisive))

    @property
    def draw_ratio(self) -> float:
        return self.draws / self.games if self.games else 0.0


def match_stats(first: str, second: str, records: Iterable[MatchRecord]) -> MatchStats:
    """``first``'s wins, losses and draws against ``second`` over their games."""
    wins = losses = draws = 0
    for record in records:
        if set(record.entrants) != {first, second}:
            continue
        won = set(record.winning_entrants)
        if won == {first}:
            wins += 1
        elif won == {second}:
            losses += 1
        else:
            draws += 1
    return MatchStats(wins, losses, draws)


def _game_score(first: str, second: str, record: MatchRecord) -> float:
    won = set(record.winning_entrants)
    return 1.0 if won == {first} else 0.0 if won == {second} else 0.5


@dataclass(frozen=True)
class Pentanomial:
    """The first entrant's scores over pairs of games (the same pairing played
    in both seat orders), as fastchess counts them: how many pairs it scored
    0, 1/2, 1, 3/2 and 2 in. A pair cancels the first seat's advantage, so its
    variance (and the Elo interval) is the trustworthy one for paired games."""

    counts: tuple[int, int, int, int, int]

    @property
    def pairs(self) -> int:
        return sum(self.counts)

    @property
    def score(self) -> float:
        """The mean score a game (0..1)."""
        if not self.pairs:
            return 0.5
        return sum(c * k / 4 for k, c in enumerate(self.counts)) / self.pairs

    @property
    def variance(self) -> float:
        """The variance of a pair's mean score."""
        if not self.pairs:
            return 0.0
        mu = self.score
        return sum(c * (k / 4 - mu) ** 2 for k, c in enumerate(self.counts)) / self.pairs

    @property
    def elo(self) -> float:
        return _elo(self.score)

    @property
    def elo_margin(self) -> float:
        """Half the 95% interval of :attr:`elo`, from the pairs' variance."""
        if not self.pairs:
            return math.inf
        error = math.sqrt(self.variance / self.pairs)
        return (_elo(self.score + _Z95 * error) - _elo(self.score - _Z95 * error)) / 2

    @property
    def nelo(self) -> float:
        """Normalized Elo: the score's distance from even in standard deviations
        of a pair, scaled as fastchess does (``800 / ln 10`` a unit)."""
        if not self.variance:
            return 0.0
        return (self.score - 0.5) / math.sqrt(2 * self.variance) * 800 / math.log(10)

    @property
    def nelo_margin(self) -> float:
        if not self.pairs:
            return math.inf
        return _Z95 * 800 / math.log(10) / math.sqrt(2 * self.pairs)

    @property
    def pairs_ratio(self) -> float:
        """Pairs won (3/2 or 2) over pairs lost (0 or 1/2)."""
        lost = self.counts[0] + self.counts[1]
        return (self.counts[3] + self.counts[4]) / lost if lost else math.inf


def pentanomial(first: str, second: str, records: Iterable[MatchRecord]) -> Pentanomial:
    """``first``'s pentanomial counts against ``second``: its games with ``first``
    in seat 0 paired, in key order, with its games in seat 1 of the same round
    and game number (a key's ``:gN``); a game without its pair is left out."""
    sides: dict[tuple[int, str, int], list[MatchRecord]] = {}
    for record in sorted(records, key=lambda r: r.key):
        if len(record.entrants) != 2 or set(record.entrants) != {first, second}:
            continue
        number = record.key.rsplit(":", 1)[-1]
        sides.setdefault((record.round, number, record.entrants.index(first)), []).append(record)
    counts = [0, 0, 0, 0, 0]
    for (round_, number, seat), games in sides.items():
        if seat != 0:
            continue
        for one, other in zip(games, sides.get((round_, number, 1), []), strict=False):
            pair = _game_score(first, second, one) + _game_score(first, second, other)
            counts[round(pair * 2)] += 1
    return Pentanomial((counts[0], counts[1], counts[2], counts[3], counts[4]))


@dataclass(frozen=True)
class SprtStatus:
    """Where the test stands: its LLR, its bounds and its verdict."""

    llr: float
    lower: float
    upper: float

    @property
    def verdict(self) -> str:
        """``H1`` (accepted), ``H0`` (accepted) or ``continue``."""
        return "H1" if self.llr > self.upper else "H0" if self.llr < self.lower else "continue"


@dataclass(frozen=True)
class Sprt:
    """A sequential probability ratio test of H0: Elo = ``elo0`` against H1: Elo = ``elo1``."""

    elo0: float = 0.0
    elo1: float = 5.0
    alpha: float = 0.05
    beta: float = 0.05

    def status(self, stats: MatchStats) -> SprtStatus:
        lower = math.log(self.beta / (1 - self.alpha))
        upper = math.log((1 - self.beta) / self.alpha)
        wins, losses, draws = stats.wins, stats.losses, stats.draws
        if wins <= 0 or losses <= 0 or draws <= 0:
            return SprtStatus(0.0, lower, upper)
        p_win, p_loss = wins / stats.games, losses / stats.games
        draw_elo = 200 * math.log10((1 - p_loss) / p_loss * (1 - p_win) / p_win)
        x = 10 ** (-draw_elo / 400)
        scale = 4 * x / (1 + x) ** 2

        def law(elo: float) -> tuple[float, float, float]:
            win = 1 / (1 + 10 ** ((draw_elo - elo) / 400))
            loss = 1 / (1 + 10 ** ((draw_elo + elo) / 400))
            return win, loss, 1 - win - loss

        h0, h1 = law(self.elo0 / scale), law(self.elo1 / scale)
        llr = (
            wins * math.log(h1[0] / h0[0])
            + losses * math.log(h1[1] / h0[1])
            + draws * math.log(h1[2] / h0[2])
        )
        return SprtStatus(llr, lower, upper)

    @classmethod
    def parse(cls, text: str) -> Sprt:
        """From ``elo0=0 elo1=5 alpha=0.05 beta=0.05`` (any of them; the rest default)."""
        values: dict[str, float] = {}
        for part in text.replace(",", " ").split():
            key, sep, value = part.partition("=")
            if not sep or key not in {"elo0", "elo1", "alpha", "beta"}:
                raise ValueError(f"--sprt takes elo0=, elo1=, alpha=, beta=, not {part!r}")
            values[key] = float(value)
        sprt = cls(**values)
        if not (0 < sprt.alpha < 1 and 0 < sprt.beta < 1) or sprt.elo1 <= sprt.elo0:
            raise ValueError("--sprt needs 0 < alpha, beta < 1 and elo0 < elo1")
        return sprt


def match_summary(
    first: str,
    second: str,
    stats: MatchStats,
    sprt: Sprt | None = None,
    pairs: Pentanomial | None = None,
) -> dict[str, Any]:
    """The match's statistics as data (``--json``'s ``match``)."""
    summary: dict[str, Any] = {
        "first": first,
        "second": second,
        "wins": stats.wins,
        "losses": stats.losses,
        "draws": stats.draws,
        "score": stats.score,
        "elo": stats.elo if stats.games else None,
        "elo_margin": stats.elo_margin if stats.games else None,
        "los": stats.los,
        "draw_ratio": stats.draw_ratio,
    }
    if pairs is not None and pairs.pairs:
        summary["pentanomial"] = {
            "counts": list(pairs.counts),
            "elo": pairs.elo,
            "elo_margin": pairs.elo_margin,
            "nelo": pairs.nelo,
            "nelo_margin": pairs.nelo_margin,
            "pairs_ratio": pairs.pairs_ratio if pairs.pairs_ratio != math.inf else None,
        }
    if sprt is not None:
        status = sprt.status(stats)
        summary["sprt"] = {
            **asdict(sprt),
            "llr": status.llr,
            "lower": status.lower,
            "upper": status.upper,
            "verdict": status.verdict,
        }
    return summary


def match_lines(
    first: str,
    second: str,
    stats: MatchStats,
    sprt: Sprt | None = None,
    pairs: Pentanomial | None = None,
) -> str:
    """The match's statistics as cutechess-cli prints them (and, for paired
    games, fastchess's pentanomial line)."""
    lines = [
        f"Score of {first} vs {second}: {stats.wins} - {stats.losses} - {stats.draws}"
        f"  [{stats.score:.3f}] {stats.games}",
        f"Elo difference: {stats.elo:.1f} +/- {stats.elo_margin:.1f}, "
        f"LOS: {100 * stats.los:.1f} %, DrawRatio: {100 * stats.draw_ratio:.1f} %",
    ]
    if pairs is not None and pairs.pairs:
        lines.append(
            f"Ptnml(0-2): {list(pairs.counts)}, Elo: {pairs.elo:.2f} +/- {pairs.elo_margin:.2f}, "
            f"nElo: {pairs.nelo:.2f} +/- {pairs.nelo_margin:.2f}, "
            f"PairsRatio: {pairs.pairs_ratio:.2f}"
        )
    if sprt is not None:
        status = sprt.status(stats)
        verdict = {"H1": " - H1 was accepted", "H0": " - H0 was accepted"}.get(status.verdict, "")
        lines.append(
            f"SPRT: llr {status.llr:.3g} ({100 * status.llr / status.upper:.1f}%), "
            f"lbound {status.lower:.2f}, ubound {status.upper:.2f}{verdict}"
        )
    return "\n".join(lines)
