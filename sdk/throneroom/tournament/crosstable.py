"""Cross tables: every entrant's results against every other (head to head),
and a Swiss tournament's points round by round.

Head to head counts, over the games two entrants both played (in any seats
of any size of table), a win for one when it won and the other did not, a
draw when both won (a shared victory) or neither did. A game an entrant
plays against itself (a repeated seat) counts nothing between them.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from throneroom.tournament.records import MatchRecord
from throneroom.tournament.tiebreaks import game_points

__all__ = ["HeadToHead", "head_to_head", "head_to_head_text", "swiss_rounds", "swiss_rounds_text"]


@dataclass(frozen=True)
class HeadToHead:
    """One entrant's wins, losses and draws against another."""

    wins: int = 0
    losses: int = 0
    draws: int = 0

    @property
    def games(self) -> int:
        return self.wins + self.losses + self.draws

    @property
    def score(self) -> float:
        return (self.wins + self.draws / 2) / self.games if self.games else 0.0


def head_to_head(
    entrants: Sequence[str], records: Iterable[MatchRecord]
) -> dict[tuple[str, str], HeadToHead]:
    """``(a, b)``: a's results against b, for every ordered pair of entrants."""
    counts = {(a, b): [0, 0, 0] for a in entrants for b in entrants if a != b}
    for record in records:
        won = set(record.winning_entrants)
        present = set(record.entrants)
        for a in present:
            for b in present - {a}:
                cell = counts[(a, b)]
                if (a in won) == (b in won):
                    cell[2] += 1
                elif a in won:
                    cell[0] += 1
                else:
                    cell[1] += 1
    return {pair: HeadToHead(*cell) for pair, cell in counts.items()}


def head_to_head_text(entrants: Sequence[str], table: dict[tuple[str, str], HeadToHead]) -> str:
    """The matrix as text: row against column, ``wins-losses-draws`` ("." on the diagonal)."""
    cells = {
        pair: f"{h.wins}-{h.losses}-{h.draws}" if h.games else "-" for pair, h in table.items()
    }
    width = max([len(n) for n in entrants] + [len(c) for c in cells.values()] + [1])
    header = " " * width + "  " + "  ".join(f"{n:>{width}}" for n in entrants)
    rows = [
        f"{a:<{width}}  "
        + "  ".join(f"{'.' if a == b else cells[(a, b)]:>{width}}" for b in entrants)
        for a in entrants
    ]
    return "\n".join(["head to head (row against column: wins-losses-draws)", header, *rows])


def swiss_rounds(
    entrants: Sequence[str], records: Iterable[MatchRecord], rounds: int
) -> dict[str, list[float | None]]:
    """Each entrant's points in each Swiss round (None: it sat out with a bye)."""
    points: dict[str, list[float | None]] = {name: [None] * rounds for name in entrants}
    for record in records:
        if not 1 <= record.round <= rounds:
            continue
        for seat, name in enumerate(record.entrants):
            earned = game_points(record, seat)
            before = points[name][record.round - 1]
            points[name][record.round - 1] = (before or 0.0) + earned
    return points


def swiss_rounds_text(
    order: Sequence[str], points: dict[str, list[float | None]], bye_points: float
) -> str:
    """The points round by round, entrants in standings order; a bye as ``bye``
    with its worth, and the running total."""
    rounds = len(next(iter(points.values()), []))
    width = max([len(n) for n in order] + [7])
    header = f"{'entrant':<{width}}  " + "  ".join(f"{f'R{r + 1}':>8}" for r in range(rounds))
    lines = ["points by round (bye: sat out)", header + "     total"]
    for name in order:
        cells = []
        total = 0.0
        for value in points[name]:
            if value is None:
                total += bye_points
                cells.append(f"{f'bye {bye_points:g}':>8}")
            else:
                total += value
                cells.append(f"{value:>8.2f}")
        lines.append(f"{name:<{width}}  " + "  ".join(cells) + f"  {total:>8.2f}")
    return "\n".join(lines)
