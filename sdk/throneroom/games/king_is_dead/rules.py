"""Rules of a power struggle's resolution that both the engine and the bots
read, on plain data (the one implementation: the server's rules.py imports
them from here, and the heuristic bot plays its model forward with them).

A region's followers are its counts (scots, welsh, romano_british,
loyalists); nothing here changes what it is given.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from throneroom.games.king_is_dead.data import BANNER, SAXONS, Region

__all__ = ["Banner", "banner", "region_winner"]


def region_winner(counts: Sequence[int]) -> int:
    """RegionControl of a resolved region: the colour with strictly the most
    followers (Loyalists count), else the Saxons (a tie, or nobody there)."""
    best = max(counts)
    if best == 0 or counts.count(best) > 1:
        return SAXONS
    return counts.index(best) + 1


class Banner(NamedTuple):
    """The Loyalist pool after a resolution, and the region the Mordred
    banner's black follower went to (0: none)."""

    pool: int
    region: Region


def banner(region: Region, counts: Sequence[int], pool: int, target_open: bool) -> Banner:
    """After ``region`` (holding ``counts``) is resolved: its black followers
    return to the pool; then, in the Mordred variant, its banner region, if
    still unresolved (``target_open``: False without Mordred), gets one black
    follower from the pool."""
    pool += counts[3]
    if target_open and pool > 0:
        return Banner(pool - 1, BANNER[region])
    return Banner(pool, 0)
