"""What each decision and each power struggle does, on plain data: the one
implementation of every card effect, of the summon and of a struggle's
resolution.

apply() carries decisions out with these functions and writes what they
return into the copied state, with the events (effects.py, struggle.py); the
3-player last-card search (lastcard.py, searchending.py) runs the very same
functions on its working copies, so the two cannot drift apart. Everything
here takes and returns tuples and ints (a region's followers are ``Counts``,
see board.py) and changes nothing it is given. A struggle's winner and the
Mordred banner (``region_winner``, ``banner``) are the SDK's
(throneroom.games.king_is_dead.rules), which the bots read too.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from throneroom_server.games.king_is_dead.board import (
    CONTROL_LOYALISTS,
    DECIDE_SETTLE,
    DECIDE_SUMMON,
    LOYALISTS,
    NONE,
    NUM_REGIONS,
    SAXON_TOKENS_FOR_INVASION,
    SAXONS,
    Counts,
    Faction,
    Region,
)
from throneroom_server.games.king_is_dead.cards import (
    K_GARRISON,
    Key,
    Pending,
    RegionCardInfo,
    next_settle_colour,
)
from throneroom_server.games.king_is_dead.endings import CONTROL, INVASION, LOYALIST

Court = tuple[int, int, int]
"""A seat's court: (scots, welsh, romano_british)."""

# -- the summon ------------------------------------------------------------------------------


def summoned_from(counts: Counts, faction: Faction) -> Counts:
    """A region after one follower of ``faction`` is summoned from it."""
    s, w, r, loyal = counts
    if faction == 1:
        return (s - 1, w, r, loyal)
    if faction == 2:
        return (s, w - 1, r, loyal)
    return (s, w, r - 1, loyal)


def court_after_summon(court: Court, faction: Faction) -> Court:
    """A court after it summons one follower of ``faction``."""
    s, w, r = court
    if faction == 1:
        return (s + 1, w, r)
    if faction == 2:
        return (s, w + 1, r)
    return (s, w, r + 1)


def summon_possible(regions: Iterable[Sequence[int] | None]) -> bool:
    """Whether any follower can be summoned: a non-black one on the board
    (``regions``: each unresolved region's followers, black ones last or
    left out; None for a resolved region)."""
    return any(c[0] or c[1] or c[2] for c in regions if c is not None)


def after_effect(regions: Iterable[Sequence[int] | None]) -> int:
    """The decision after a card's effect: the summon, or NONE (the turn ends)
    when no follower can be summoned."""
    return DECIDE_SUMMON if summon_possible(regions) else NONE


# -- Settlers and the faction cards ------------------------------------------------------------


def placed(counts: Counts, colour: Faction) -> Counts:
    """A region after one follower of ``colour`` is placed in it (from the
    supply; black ones only by the Mordred banner)."""
    s, w, r, loyal = counts
    if colour == 1:
        return (s + 1, w, r, loyal)
    if colour == 2:
        return (s, w + 1, r, loyal)
    if colour == 3:
        return (s, w, r + 1, loyal)
    return (s, w, r, loyal + 1)


def supply_after_placing(supply: Sequence[int], colour: Faction) -> tuple[int, int, int]:
    """The supply (scots, welsh, romano_british) after one follower of
    ``colour`` leaves it."""
    s, w, r = supply[0], supply[1], supply[2]
    if colour == 1:
        return (s - 1, w, r)
    if colour == 2:
        return (s, w - 1, r)
    return (s, w, r - 1)


def next_placement(pending: Pending, supply_after: Sequence[int]) -> Pending | None:
    """After the follower of a Settlers or faction-card ``pending`` decision is
    placed (``supply_after``: the supply once it left): the card's next
    placement, or None when its effect is over. Settlers go on with the next
    colour the supply still has (cards.next_settle_colour); a faction card
    with the followers it has left to place."""
    decision, colour, remaining = pending
    if decision == DECIDE_SETTLE:
        following = next_settle_colour(supply_after, colour)
        return (DECIDE_SETTLE, following, 0) if following else None
    return (decision, colour, remaining - 1) if remaining > 1 else None


def placements_after(pending: Pending, supply: Sequence[int]) -> tuple[Faction, ...]:
    """The colours a card still places after its ``pending`` placement, in
    order (``supply``: before that placement)."""
    colours: list[Faction] = []
    left = supply_after_placing(supply, pending[1])
    following = next_placement(pending, left)
    while following is not None:
        colours.append(following[1])
        left = supply_after_placing(left, following[1])
        following = next_placement(following, left)
    return tuple(colours)


# -- Garrison and Ambassador ---------------------------------------------------------------------

Flow = tuple[Region, Region, tuple[Faction, ...]]
"""Followers going one way: (from region, to region, their colours)."""


def exchange_flows(key: Key) -> tuple[Flow, Flow]:
    """What an exchange key moves: its first region's followers going to the
    second, then those coming back (either may be empty)."""
    if key[0] == K_GARRISON:
        _, a, b, o1, o2, back = key
        return (a, b, (o1, o2) if o2 else (o1,)), (b, a, (back,) if back else ())
    _, a, b, fa, fb = key
    return (a, b, (fa,) if fa else ()), (b, a, (fb,) if fb else ())


def exchanged(key: Key, at_a: Counts, at_b: Counts) -> tuple[Counts, Counts]:
    """The exchange's two regions (the key's first and second) after it."""
    return flowed(exchange_flows(key), at_a, at_b)


def flowed(flows: tuple[Flow, Flow], at_a: Counts, at_b: Counts) -> tuple[Counts, Counts]:
    """Two regions after an exchange's ``flows`` (exchange_flows) between them."""
    (_, _, going), (_, _, coming) = flows
    a = list(at_a)
    b = list(at_b)
    for colour in going:
        a[colour - 1] -= 1
        b[colour - 1] += 1
    for colour in coming:
        b[colour - 1] -= 1
        a[colour - 1] += 1
    return (a[0], a[1], a[2], a[3]), (b[0], b[1], b[2], b[3])


def moves_loyalists(flows: tuple[Flow, Flow]) -> bool:
    """Whether an exchange's flows (exchange_flows) move a black follower
    (which can change where the Mordred banner's Loyalists land)."""
    (_, _, going), (_, _, coming) = flows
    return LOYALISTS in going or LOYALISTS in coming


# -- the Crown ----------------------------------------------------------------------------------


CardChange = tuple[int, Region, bool]
"""A region card position after a Crown swap: (position, the region its card
now shows, whether that card carries the new crown token)."""


def crown_swap(regions: Sequence[Region], key: Key) -> tuple[CardChange, CardChange]:
    """A Crown swap (``regions``: the region cards' regions by position): the
    two cards trade places, so the struggles' order changes, and the crowned
    one carries the token. For the positions of the key's two regions, in
    that order: what each shows after."""
    _, a, b, crowned = key
    # Both cards are face up and uncrowned: swapping them swaps their regions.
    return (regions.index(a), b, crowned == b), (regions.index(b), a, crowned == a)


def crowned_cards(cards: Sequence[RegionCardInfo], key: Key) -> list[RegionCardInfo]:
    """The region cards (region, face up, crowned) after a Crown swap."""
    swapped = list(cards)
    for position, region, crowned in crown_swap([c[0] for c in cards], key):
        swapped[position] = (region, cards[position][1], crowned)
    return swapped


# -- a power struggle's resolution ---------------------------------------------------------------


def game_end(controls: Sequence[int], saxons: int, order: int) -> tuple[int, str]:
    """Struggles resolved one after another, won by ``controls`` in turn, after
    ``order`` struggles with ``saxons`` Saxon tokens: how many of them resolve
    before the game ends, and how it ends ("" when it goes on). Four Saxon
    tokens are an invasion; a Loyalist win ends it (Mordred); the eighth
    struggle ends it by control."""
    last = NUM_REGIONS - order
    for resolved, control in enumerate(controls, 1):
        if control == SAXONS:
            saxons += 1
            if saxons >= SAXON_TOKENS_FOR_INVASION:
                return resolved, INVASION
        elif control == CONTROL_LOYALISTS:
            return resolved, LOYALIST
        if resolved == last:
            return resolved, CONTROL
    return len(controls), ""
