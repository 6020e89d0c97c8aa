"""Schedules: which entrants play which games, in which seats, with which seeds.

Every match has a stable ``key`` (its place in the schedule and its seating);
its game seed and its bots' seeds are derived from the tournament's base seed
and that key, so a match plays the same whatever order the matches run in,
and a resumed tournament finds the matches it has already played by key.

- ``round_robin``: every ordered choice of ``seats`` distinct entrants (every
  group in every seat order, so a first-player advantage cancels), each
  ``games_per_pairing`` times.
- ``gauntlet``: the hero in every seat in turn against the field: the other
  seats take every ordered choice of field entrants (or, with fewer field
  entrants than seats to fill, each rotation of the field around the table).
- ``swiss``: ``rounds`` rounds; before each, entrants are ranked by points
  (a win is 1, shared among the winners) with a seeded tie-break, and tables
  of ``seats`` are formed from the top down, avoiding a rematch of two
  entrants when another choice exists; each table plays every rotation of its
  seats ``games_per_pairing`` times. Entrants left over sit out with a bye
  worth the table's even share (1/seats a game). As in chess Swiss pairings,
  a bye goes to the lowest-ranked entrants who have had the fewest byes (so
  nobody sits out twice while another has not sat out once).
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations, islice, permutations

from throneroom.tournament.config import TournamentConfig

__all__ = ["Match", "derived_seed", "fixed_schedule", "swiss_round"]


def derived_seed(base: int, *parts: object) -> int:
    """A seed below 2**32 from the base seed and a path of names (stable across runs)."""
    text = "/".join([str(base), *(str(p) for p in parts)])
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:4], "big")


@dataclass(frozen=True)
class Match:
    """One game of the tournament: entrants by seat, its seeds and its place."""

    key: str
    round: int
    entrants: tuple[str, ...]
    game_seed: int
    bot_seeds: tuple[int, ...]


def _match(config: TournamentConfig, round_: int, place: str, seating: Sequence[str]) -> Match:
    key = f"{place}:{'|'.join(seating)}"
    return Match(
        key=key,
        round=round_,
        entrants=tuple(seating),
        game_seed=derived_seed(config.seed, key, "game"),
        bot_seeds=tuple(derived_seed(config.seed, key, "seat", s) for s in range(len(seating))),
    )


def _rotations(table: Sequence[str]) -> list[tuple[str, ...]]:
    return [
        tuple(table[(start + i) % len(table)] for i in range(len(table)))
        for start in range(len(table))
    ]


def fixed_schedule(config: TournamentConfig) -> list[Match]:
    """Every match of a round robin or a gauntlet, in schedule order."""
    names = [e.name for e in config.entrants]
    seatings: list[tuple[str, ...]] = []
    if config.schedule == "round_robin":
        for group in combinations(names, config.seats):
            seatings.extend(permutations(group))
    elif config.schedule == "gauntlet":
        field = [n for n in names if n != config.hero]
        others = config.seats - 1
        if len(field) >= others:
            fills = list(permutations(field, others))
        else:
            fills = [
                tuple(field[(k + j) % len(field)] for j in range(others)) for k in range(len(field))
            ]
        for hero_seat in range(config.seats):
            for fill in fills:
                seatings.append((*fill[:hero_seat], config.hero, *fill[hero_seat:]))
    else:
        raise ValueError(f"{config.schedule} is played round by round (swiss_round)")
    return [
        _match(config, 0, f"{config.schedule}:{number}:g{game}", seating)
        for number, seating in enumerate(seatings)
        for game in range(config.games_per_pairing)
    ]


def swiss_round(
    config: TournamentConfig,
    round_: int,
    points: Mapping[str, float],
    met: Mapping[str, set[str]],
    byes_had: Mapping[str, int] | None = None,
) -> tuple[list[Match], list[str]]:
    """One swiss round's matches and its byes, from the points, meetings and
    byes (how many each entrant has had) so far."""
    names = [e.name for e in config.entrants]
    ranked = sorted(
        names, key=lambda n: (-points.get(n, 0.0), derived_seed(config.seed, "swiss", round_, n), n)
    )
    leftover = len(ranked) % config.seats
    byes: list[str] = []
    if leftover:
        # The lowest ranked among those with the fewest byes sit out (the lowest
        # first), so a bye never repeats while someone has had fewer.
        had = byes_had or {}
        order = sorted(range(len(ranked)), key=lambda i: (had.get(ranked[i], 0), -i))
        byes = [ranked[i] for i in order[:leftover]]
        ranked = [n for n in ranked if n not in byes]
    tables = _tables(ranked, config.seats, met)
    matches = [
        _match(config, round_, f"swiss:r{round_}:t{number}:o{order}:g{game}", seating)
        for number, table in enumerate(tables)
        for order, seating in enumerate(_rotations(table))
        for game in range(config.games_per_pairing)
    ]
    return matches, byes


PAIRING_SEARCH_NODES = 20_000
"""How many partial pairings the rematch search visits at most (then it keeps
the best one found: a deterministic bound, never a clock)."""
PAIRING_CHOICES = 2_000
"""How many ways to fill one table (the best ranked first) the search weighs."""


def _tables(ranked: Sequence[str], seats: int, met: Mapping[str, set[str]]) -> list[list[str]]:
    """Tables of ``seats`` from the top of the ranking down with as few rematches
    (pairs of entrants who met before) as possible: a depth-first search where
    the best-ranked entrant left takes the partners that add the fewest
    rematches (then the best ranked), stopping at the first pairing without a
    rematch, or after ``PAIRING_SEARCH_NODES`` nodes with the best one found."""

    def rematches(table: Sequence[str]) -> int:
        return sum(
            1 for a, b in combinations(table, 2) if b in met.get(a, ()) or a in met.get(b, ())
        )

    best: list[list[str]] = []
    best_cost = math.inf
    nodes = 0

    def search(pool: list[str], tables: list[list[str]], cost: int) -> None:
        nonlocal best, best_cost, nodes
        nodes += 1
        if cost >= best_cost:
            return
        if not pool:
            best, best_cost = [list(t) for t in tables], cost
            return
        head, rest = pool[0], pool[1:]
        choices = [
            [head, *partners] for partners in islice(combinations(rest, seats - 1), PAIRING_CHOICES)
        ]
        choices.sort(key=rematches)  # stable: the best ranked first among equals
        for table in choices:
            if best_cost == 0 or (best and nodes >= PAIRING_SEARCH_NODES):
                return
            tables.append(table)
            search([n for n in rest if n not in table], tables, cost + rematches(table))
            tables.pop()

    search(list(ranked), [], 0)
    return best
