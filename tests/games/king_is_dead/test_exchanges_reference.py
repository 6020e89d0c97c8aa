"""Garrison and Ambassador executions against a brute-force reference, and the
map data against RULES-NOTES (rules 0.x, 3.2-3.4)."""

from __future__ import annotations

import itertools
import random

import pytest
from throneroom_server.games.king_is_dead import board as kid_board
from throneroom_server.games.king_is_dead.cards import (
    K_AMBASSADOR,
    K_GARRISON,
    Key,
    exchange_is_legal,
    exchange_keys,
    mirror_of,
)

from .helpers import AQS, CAER, CAL, DEVA, DIN, EBO, LON, RATAE

# RULES-NOTES, "Map adjacency (13 borders)", written out again on purpose.
RULES_NOTES_BORDERS = {
    frozenset(p)
    for p in [
        (CAL, DIN),
        (DIN, DEVA),
        (DIN, EBO),
        (DEVA, EBO),
        (DEVA, CAER),
        (DEVA, RATAE),
        (EBO, RATAE),
        (EBO, LON),
        (CAER, RATAE),
        (CAER, AQS),
        (RATAE, LON),
        (RATAE, AQS),
        (LON, AQS),
    ]
}

Board = list[tuple[int, int, int, int] | None]


def test_adjacency_table_is_the_thirteen_borders_of_rules_notes() -> None:
    assert {frozenset(b) for b in kid_board.BORDERS} == RULES_NOTES_BORDERS
    assert len(kid_board.BORDERS) == 13
    for a in kid_board.REGIONS:
        for b in kid_board.REGIONS:
            assert (b in kid_board.NEIGHBOURS[a]) == (frozenset((a, b)) in RULES_NOTES_BORDERS)


def test_homes_and_colours() -> None:
    assert kid_board.HOMES == {1: CAL, 2: CAER, 3: LON}
    assert kid_board.COLOUR_NAMES == {1: "blue", 2: "red", 3: "yellow", 4: "black"}


def _reference_garrison(board: Board, forbidden: Key | None) -> list[Key]:
    by_total: dict[int, list[Key]] = {}
    for a, b in itertools.permutations(kid_board.REGIONS, 2):
        ca, cb = board[a - 1], board[b - 1]
        if ca is None or cb is None or frozenset((a, b)) not in RULES_NOTES_BORDERS:
            continue
        cubes = [colour for colour in (1, 2, 3, 4) for _ in range(ca[colour - 1])]
        outs = {tuple(sorted(c)) for n in (1, 2) for c in itertools.combinations(cubes, n)}
        backs = [0] + [colour for colour in (1, 2, 3, 4) if cb[colour - 1]]
        for out in outs:
            for back in backs:
                if len(out) == 1 and back and a > b:
                    # The same movement as (b, a, back, 0, out[0]): one writing.
                    continue
                key = (K_GARRISON, a, b, out[0], out[1] if len(out) == 2 else 0, back)
                by_total.setdefault(len(out) + (back > 0), []).append(key)
    return _best(by_total, forbidden)


def _reference_ambassador(board: Board, forbidden: Key | None) -> list[Key]:
    by_total: dict[int, list[Key]] = {}
    for a, b in itertools.combinations(kid_board.REGIONS, 2):
        ca, cb = board[a - 1], board[b - 1]
        if ca is None or cb is None:
            continue
        for fa in [0] + [c for c in (1, 2, 3, 4) if ca[c - 1]]:
            for fb in [0] + [c for c in (1, 2, 3, 4) if cb[c - 1]]:
                if fa or fb:
                    by_total.setdefault((fa > 0) + (fb > 0), []).append(
                        (K_AMBASSADOR, a, b, fa, fb)
                    )
    return _best(by_total, forbidden)


def _best(by_total: dict[int, list[Key]], forbidden: Key | None) -> list[Key]:
    for total in sorted(by_total, reverse=True):
        keys = sorted(k for k in by_total[total] if k != forbidden)
        if keys:
            return keys
    return []


def _random_board(rng: random.Random) -> Board:
    board: Board = []
    for _ in kid_board.REGIONS:
        if rng.random() < 0.3:
            board.append(None)
        else:
            board.append(
                (
                    rng.choice([0, 0, 1, 2, 3]),
                    rng.choice([0, 0, 1, 2]),
                    rng.choice([0, 0, 1, 2]),
                    rng.choice([0, 0, 0, 1, 2]),
                )
            )
    return board


@pytest.mark.parametrize(
    ("kind", "reference"),
    [(K_GARRISON, _reference_garrison), (K_AMBASSADOR, _reference_ambassador)],
)
def test_exchanges_match_brute_force(kind: int, reference: object) -> None:
    rng = random.Random(20150)
    sparse = 0
    for _ in range(400):
        board = _random_board(rng)
        if rng.random() < 0.3:  # sparse boards exercise the partial executions
            board = [c if c is None or rng.random() < 0.2 else (0, 0, 0, 0) for c in board]
            sparse += 1
        unforbidden = reference(board, None)  # type: ignore[operator]
        forbidden = mirror_of(rng.choice(unforbidden)) if unforbidden else None
        if forbidden is not None and rng.random() < 0.5:
            forbidden = unforbidden[0]
        for forbid in (None, forbidden):
            expected = reference(board, forbid)  # type: ignore[operator]
            got = exchange_keys(kind, board, forbid)
            assert got == expected, (board, forbid)
            # The cheap check in apply() agrees with the enumeration.
            for key in set(expected) | set(unforbidden):
                assert exchange_is_legal(board, key, forbid) == (key in expected)
    assert sparse > 50
