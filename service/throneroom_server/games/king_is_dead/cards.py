"""The action cards: every legal execution of each card's effect, as move keys.

A move key is a tuple of ints, the sort key of ``legal_moves`` (see moves.py):

    (PASS,)                                   pass
    (PLAY, card)                              play an action card
    (CROWN, region_a, region_b, crowned)      region_a < region_b
    (GARRISON, from, to, out1, out2, back)    out1 <= out2, out2 = 0 when one goes
                                              out, back = 0 when none comes back;
                                              one each way: from < to
    (AMBASSADOR, region_a, region_b, from_a, from_b)   0 = nothing moves that way
    (SETTLE, region)
    (PLACE, region)
    (SUMMON, region, faction)

Everything here works on plain data (a Board of count tuples, see board.py) so
that the engine and the 3-player last-card search share one definition of
what is legal. "As far as possible" (RULES-NOTES): the legal executions of an
effect are the feasible ones, the undo rule included, that move or place the
most followers; an effect that can be carried out cannot be declined.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from throneroom_server.games.king_is_dead.board import (
    AMBASSADOR,
    CARD_FACTION,
    COLOURS,
    CROWN,
    DECIDE_AMBASSADOR,
    DECIDE_CROWN,
    DECIDE_GARRISON,
    DECIDE_PLACE,
    DECIDE_SETTLE,
    DECIDE_SUMMON,
    FACTIONS,
    GARRISON,
    HOMES,
    NEIGHBOURS,
    ORDERED_BORDERS,
    REGIONS,
    SETTLERS,
    UNRESOLVED,
    Board,
    Counts,
    Faction,
    Region,
)

Key = tuple[int, ...]

K_PASS = 0
K_PLAY = 1
K_CROWN = 2
K_GARRISON = 3
K_AMBASSADOR = 4
K_SETTLE = 5
K_PLACE = 6
K_SUMMON = 7

PASS_KEY: Key = (K_PASS,)

RegionCardInfo = tuple[Region, bool, bool]
"""A region card by position: (region, face_up, crowned)."""


# -- the Crown ---------------------------------------------------------------------


def crown_keys(cards: Sequence[RegionCardInfo]) -> list[Key]:
    """Every swap of two face-up, uncrowned region cards with the crown on either.

    Empty when fewer than two such cards exist (the Crown then does nothing).
    """
    free = sorted(region for region, face_up, crowned in cards if face_up and not crowned)
    keys: list[Key] = []
    for i, a in enumerate(free):
        for b in free[i + 1 :]:
            keys.append((K_CROWN, a, b, a))
            keys.append((K_CROWN, a, b, b))
    return keys


# -- Garrison and Ambassador ---------------------------------------------------------


def _colours_in(counts: Counts) -> list[Faction]:
    return [f for f in COLOURS if counts[f - 1]]


def garrison_max(board: Board) -> int:
    """The most followers any Garrison execution can move (0: none possible)."""
    best = 0
    for a, b in ORDERED_BORDERS:
        ca = board[a - 1]
        cb = board[b - 1]
        if ca is None or cb is None:
            continue
        na = ca[0] + ca[1] + ca[2] + ca[3]
        if na == 0:
            continue
        total = (2 if na >= 2 else 1) + (1 if cb[0] + cb[1] + cb[2] + cb[3] else 0)
        if total > best:
            best = total
            if best == 3:
                break
    return best


def _pairs_in(counts: Counts) -> list[tuple[int, int]]:
    """Every two followers that can leave a region: (colour, colour), ascending."""
    pairs = []
    for o1 in COLOURS:
        n = counts[o1 - 1]
        if not n:
            continue
        if n >= 2:
            pairs.append((o1, o1))
        pairs.extend((o1, o2) for o2 in COLOURS[o1:] if counts[o2 - 1])
    return pairs


Exits = tuple[tuple[Faction, ...], tuple[tuple[int, int], ...]]
"""What can leave a region: its colours, and its pairs of followers (_pairs_in)."""


_CAP = (0, 1, *([2] * 80))
"""A colour's followers capped at 2: what leaves a region depends only on
whether each colour has none, one, or two or more followers there."""
_EXITS: tuple[Exits, ...] = tuple(
    (tuple(_colours_in(capped)), tuple(_pairs_in(capped)))
    for capped in [
        (s, w, r, loyal) for loyal in range(3) for r in range(3) for w in range(3) for s in range(3)
    ]
)
"""The exits of each of the 81 capped regions, indexed as in ``_exits``."""


def _exits(counts: Counts) -> Exits:
    s, w, r, loyal = counts
    return _EXITS[_CAP[s] + 3 * _CAP[w] + 9 * _CAP[r] + 27 * _CAP[loyal]]


def _garrison_keys_at(board: Board, level: int) -> list[Key]:
    """Every Garrison execution moving exactly ``level`` followers, ascending."""
    exits = [None if counts is None else _exits(counts) for counts in board]
    if level == 3:
        return [
            (K_GARRISON, a, b, o1, o2, back)
            for a, b in ORDERED_BORDERS
            if (at_a := exits[a - 1]) is not None and (at_b := exits[b - 1]) is not None
            for o1, o2 in at_a[1]
            for back in at_b[0]
        ]
    keys: list[Key] = []
    for a, b in ORDERED_BORDERS:
        at_a = exits[a - 1]
        at_b = exits[b - 1]
        if at_a is None or at_b is None:
            continue
        colours_a, pairs_a = at_a
        # Partial executions: one out and one back, two out and none back, one out.
        found: list[Key] = []
        if level == 2:
            if a < b:  # one each way: written once, from the lower region (canonical_exchange)
                found.extend(
                    (K_GARRISON, a, b, o1, 0, back) for o1 in colours_a for back in at_b[0]
                )
            found.extend((K_GARRISON, a, b, o1, o2, 0) for o1, o2 in pairs_a)
        elif level == 1:
            found.extend((K_GARRISON, a, b, o1, 0, 0) for o1 in colours_a)
        found.sort()
        keys.extend(found)
    return keys


def ambassador_max(board: Board) -> int:
    """The most followers any Ambassador execution can move (0: none possible)."""
    open_regions = 0
    occupied = 0
    for counts in board:
        if counts is None:
            continue
        open_regions += 1
        if counts[0] + counts[1] + counts[2] + counts[3]:
            occupied += 1
    if occupied >= 2:
        return 2
    if occupied == 1 and open_regions >= 2:
        return 1
    return 0


def _ambassador_keys_at(board: Board, level: int) -> list[Key]:
    """Every Ambassador execution moving exactly ``level`` followers, ascending."""
    options = [
        (r, _exits(counts)[0])
        for r, counts in zip(REGIONS, board, strict=True)
        if counts is not None
    ]
    if level == 2:
        return [
            (K_AMBASSADOR, a, b, fa, fb)
            for i, (a, from_a) in enumerate(options)
            for b, from_b in options[i + 1 :]
            for fa in from_a
            for fb in from_b
        ]
    keys: list[Key] = []
    if level == 1:
        for i, (a, from_a) in enumerate(options):
            for b, from_b in options[i + 1 :]:
                keys.extend((K_AMBASSADOR, a, b, 0, fb) for fb in from_b)
                keys.extend((K_AMBASSADOR, a, b, fa, 0) for fa in from_a)
    return keys


def canonical_exchange(key: Key) -> Key:
    """The one way of writing an exchange's movement. Only a Garrison moving
    one follower each way can be written twice (A->B one and B->A one back, or
    B->A one and A->B one back); it is written from the lower region. Every
    other exchange key is already the only writing of its movement."""
    if key[0] == K_GARRISON and not key[4] and key[5] and key[1] > key[2]:
        _, a, b, o1, _, back = key
        return (K_GARRISON, b, a, back, 0, o1)
    return key


def mirror_of(key: Key) -> Key:
    """The exchange that would exactly undo ``key`` (same card, same two regions,
    the same colours moving back), in its canonical writing whichever way
    ``key`` was written. An Ambassador trading one colour both ways, or a
    Garrison sending one colour each way, is its own mirror."""
    if key[0] == K_GARRISON:
        _, a, b, o1, o2, back = key
        return canonical_exchange((K_GARRISON, b, a, o1, o2, back))
    _, a, b, fa, fb = key
    return (K_AMBASSADOR, a, b, fb, fa)


def exchange_moved(key: Key) -> int:
    """Followers an exchange key moves."""
    if key[0] == K_GARRISON:
        return 1 + (key[4] > 0) + (key[5] > 0)
    return (key[3] > 0) + (key[4] > 0)


def exchange_keys(card_kind: int, board: Board, forbidden: Key | None) -> list[Key]:
    """The legal executions of a Garrison (card_kind K_GARRISON) or Ambassador:
    the feasible ones other than ``forbidden`` (the undo rule's mirror) moving
    the most followers; empty when nothing at all can be moved."""
    if card_kind == K_GARRISON:
        level, keys_at = garrison_max(board), _garrison_keys_at
    else:
        level, keys_at = ambassador_max(board), _ambassador_keys_at
    while level > 0:
        keys = keys_at(board, level)
        if forbidden is not None and forbidden in keys:
            keys.remove(forbidden)
        if keys:
            return keys
        level -= 1
    return []


def exchange_possible(card_kind: int, board: Board, forbidden: Key | None) -> bool:
    """``bool(exchange_keys(...))`` without enumerating: any execution of two or
    more followers has one-follower parts other than the single forbidden key."""
    best = garrison_max(board) if card_kind == K_GARRISON else ambassador_max(board)
    if best >= 2:
        return True
    return bool(best) and bool(exchange_keys(card_kind, board, forbidden))


def exchange_feasible(board: Board, key: Key) -> bool:
    """Whether the exchange can be carried out on this board at all (regions
    unresolved and bordering for a Garrison, the followers present)."""
    if key[0] == K_GARRISON:
        _, a, b, o1, o2, back = key
        ca = board[a - 1]
        cb = board[b - 1]
        if ca is None or cb is None or b not in NEIGHBOURS[a]:
            return False
        need = [0, 0, 0, 0]
        need[o1 - 1] += 1
        if o2:
            need[o2 - 1] += 1
        if any(n > c for n, c in zip(need, ca, strict=True)):
            return False
        return not back or cb[back - 1] > 0
    _, a, b, fa, fb = key
    ca = board[a - 1]
    cb = board[b - 1]
    if ca is None or cb is None:
        return False
    return (not fa or ca[fa - 1] > 0) and (not fb or cb[fb - 1] > 0)


def exchange_is_legal(board: Board, key: Key, forbidden: Key | None) -> bool:
    """``key in exchange_keys(...)``, answered cheaply in the usual case."""
    if key == forbidden or key != canonical_exchange(key) or not exchange_feasible(board, key):
        return False
    best = garrison_max(board) if key[0] == K_GARRISON else ambassador_max(board)
    moved = exchange_moved(key)
    if moved == best:
        return True
    # Only when the undo rule removed every execution of the best size may a
    # smaller one be legal: settle it by enumeration.
    return key in exchange_keys(key[0], board, forbidden)


# -- Settlers, faction cards and the summon ---------------------------------------------


def open_regions(board: Board) -> list[Region]:
    """The unresolved regions, ascending."""
    return [r for r, counts in zip(REGIONS, board, strict=True) if counts is not None]


def settle_keys(board: Board) -> list[Key]:
    """Settlers: the pending colour may go to any unresolved region."""
    return [(K_SETTLE, r) for r in open_regions(board)]


def next_settle_colour(supply: Sequence[int], after: Faction) -> Faction:
    """The next colour Settlers places after ``after`` (0 = start) in the fixed
    order Scots, Welsh, Romano-British, skipping colours the supply lacks; 0
    when none is left."""
    for faction in FACTIONS:
        if faction > after and supply[faction - 1] > 0:
            return faction
    return 0


def place_targets(
    controls: Sequence[int], faction: Faction, regions: Sequence[Region] = REGIONS
) -> list[Region]:
    """Faction card targets (of ``regions``, all by default): unresolved regions
    bordering a region the faction controls, its unresolved home counting as
    controlled (so the home itself is a target only when it borders another
    region the faction controls). Only the controls matter: placing never
    changes them."""
    home = HOMES[faction]
    controlled = {r for r in REGIONS if controls[r - 1] == faction}
    if controls[home - 1] == UNRESOLVED:
        controlled.add(home)
    return [
        r
        for r in regions
        if controls[r - 1] == UNRESOLVED and not NEIGHBOURS[r].isdisjoint(controlled)
    ]


def place_count(controls: Sequence[int], supply: Sequence[int], faction: Faction) -> int:
    """How many followers a faction card places: 2, 1 if the supply has only one,
    0 if the supply has none or no region qualifies."""
    have = supply[faction - 1]
    if have <= 0 or not place_targets(controls, faction):
        return 0
    return min(2, have)


def summon_keys(board: Board) -> list[Key]:
    """Every follower that may be summoned: any non-black follower on the board."""
    keys: list[Key] = []
    for r, counts in zip(REGIONS, board, strict=True):
        if counts is None:
            continue
        if counts[0]:
            keys.append((K_SUMMON, r, 1))
        if counts[1]:
            keys.append((K_SUMMON, r, 2))
        if counts[2]:
            keys.append((K_SUMMON, r, 3))
    return keys


# -- the first decision of a card ------------------------------------------------------

Pending = tuple[int, int, int]
"""A card's pending decision: (Decision, colour, remaining)."""


def crown_decision(cards: Sequence[RegionCardInfo]) -> Pending | None:
    """The Crown's first decision (None: fewer than two cards to swap)."""
    return (DECIDE_CROWN, 0, 0) if crown_keys(cards) else None


def exchange_decision(card: int, board: Board, forbidden: Key | None) -> Pending | None:
    """A Garrison's or an Ambassador's first decision (None: nothing can move)."""
    if card == GARRISON:
        return (DECIDE_GARRISON, 0, 0) if exchange_possible(K_GARRISON, board, forbidden) else None
    if exchange_possible(K_AMBASSADOR, board, forbidden):
        return (DECIDE_AMBASSADOR, 0, 0)
    return None


def settlers_decision(supply: Sequence[int]) -> Pending | None:
    """The Settlers' first decision (None: the supply is empty)."""
    colour = next_settle_colour(supply, 0)
    return (DECIDE_SETTLE, colour, 0) if colour else None


def faction_decision(card: int, controls: Sequence[int], supply: Sequence[int]) -> Pending | None:
    """A faction card's first decision (None: nothing to place, or nowhere)."""
    faction = CARD_FACTION[card]
    count = place_count(controls, supply, faction)
    return (DECIDE_PLACE, faction, count) if count else None


class Position(Protocol):
    """What a card's first decision may read of a position (each part read
    only when the card needs it): the engine reads a state, the last-card
    search its working copy."""

    @property
    def board(self) -> Board: ...

    @property
    def cards(self) -> Sequence[RegionCardInfo]: ...

    @property
    def supply(self) -> Sequence[int]: ...

    @property
    def controls(self) -> Sequence[int]: ...

    @property
    def forbidden(self) -> Key | None:
        """The undo rule's forbidden exchange for the seat playing the card."""
        ...


def first_decision(card: int, position: Position) -> Pending | None:
    """The decision a card's effect starts with, or None when the effect cannot
    be carried out at all (it is skipped and the summon follows)."""
    if card == CROWN:
        return crown_decision(position.cards)
    if card in (GARRISON, AMBASSADOR):
        return exchange_decision(card, position.board, position.forbidden)
    if card == SETTLERS:
        return settlers_decision(position.supply)
    return faction_decision(card, position.controls, position.supply)


def decision_keys(decision: int, colour: int, position: Position) -> list[Key]:
    """Every legal choice of a card's pending ``decision`` (or its summon), as
    ascending keys (``colour``: the colour a Settlers or faction card places)."""
    if decision == DECIDE_SUMMON:
        return summon_keys(position.board)
    if decision == DECIDE_PLACE:
        return [(K_PLACE, r) for r in place_targets(position.controls, colour)]
    if decision == DECIDE_SETTLE:
        return settle_keys(position.board)
    if decision == DECIDE_GARRISON:
        return exchange_keys(K_GARRISON, position.board, position.forbidden)
    if decision == DECIDE_AMBASSADOR:
        return exchange_keys(K_AMBASSADOR, position.board, position.forbidden)
    if decision == DECIDE_CROWN:
        return crown_keys(position.cards)
    raise ValueError(f"no choices at decision {decision}")
