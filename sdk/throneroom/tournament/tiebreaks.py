"""A Swiss tournament's score: points, byes, Buchholz and Sonneborn-Berger.

From the records alone (a round's byes are the entrants with no game in it):

- **points**: a game's win is worth 1, shared among its winners (a game
  nobody won is worth nothing); a bye is worth ``bye_points`` (the even
  share of the games the table would have played: ``games_per_pairing``);
  these are the points the pairings rank by.
- **Buchholz**: the sum of the final points of every opponent, counted once
  for each round the entrant met them (a bye adds nothing).
- **Sonneborn-Berger**: the sum, over the entrant's games, of its score in
  the game times its opponents' final points (in a game of more seats, the
  mean of its table-mates' points): in a two-seat game, the points of every
  opponent beaten, as in chess.

The standings are ordered by points, then Buchholz, then Sonneborn-Berger.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from throneroom.tournament.records import MatchRecord

__all__ = ["SwissScore", "game_points", "swiss_scores"]


@dataclass(frozen=True)
class SwissScore:
    """One entrant's Swiss score."""

    points: float
    byes: int
    buchholz: float
    sonneborn_berger: float


def game_points(record: MatchRecord, seat: int) -> float:
    """The seat's points in one game: 1 shared among its winners."""
    return 1.0 / len(record.winners) if seat in record.winners else 0.0


def swiss_scores(
    entrants: Sequence[str], records: Iterable[MatchRecord], bye_points: float
) -> dict[str, SwissScore]:
    """Every entrant's score from the records of a Swiss tournament's rounds."""
    played = list(records)
    points = dict.fromkeys(entrants, 0.0)
    byes = dict.fromkeys(entrants, 0)
    met: dict[str, list[str]] = {name: [] for name in entrants}  # once per round and opponent
    for round_ in sorted({r.round for r in played}):
        games = [r for r in played if r.round == round_]
        present = {name for r in games for name in r.entrants}
        for name in entrants:
            if name not in present:
                byes[name] += 1
                points[name] += bye_points
        for name in present:
            opponents = {n for r in games if name in r.entrants for n in r.entrants if n != name}
            met[name].extend(sorted(opponents))
        for record in games:
            for seat, name in enumerate(record.entrants):
                points[name] += game_points(record, seat)
    berger = dict.fromkeys(entrants, 0.0)
    for record in played:
        for seat, name in enumerate(record.entrants):
            score = game_points(record, seat)
            others = [points[n] for s, n in enumerate(record.entrants) if s != seat]
            if score and others:
                berger[name] += score * sum(others) / len(others)
    return {
        name: SwissScore(
            points=points[name],
            byes=byes[name],
            buchholz=sum(points[o] for o in met[name]),
            sonneborn_berger=berger[name],
        )
        for name in entrants
    }
