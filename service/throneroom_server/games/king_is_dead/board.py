"""The engine's view of the components of The King Is Dead: the game's data
(:mod:`throneroom.games.king_is_dead.data`, the one home of the map, the
factions and the cards, shared with the SDK's texts and bot) re-exported, and
the tables the engine derives from it.

Internally a region's followers are a 4-tuple ``(scots, welsh,
romano_british, loyalists)`` indexed by ``faction - 1``; a *board* is the list
of the eight regions' tuples in Region order, with ``None`` for a resolved
region (resolved regions are always empty). English names (for the engine's
messages and summaries) are the SDK's English texts.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import MappingProxyType

from throneroom.games.king_is_dead.data import (
    AMBASSADOR,
    AQUAE_SULIS,
    BANNER,
    BORDERS,
    CAERLEON,
    CALEDONIA,
    CARD_FACTION,
    CARD_ROMANO_BRITISH,
    CARD_SCOTS,
    CARD_WELSH,
    CARDS,
    COLOURS,
    CONTROL_LOYALISTS,
    COURT_DRAWS,
    CROWN,
    DEVA,
    DIN_EIDYN,
    EBORACUM,
    FACTION_CARD_FOLLOWERS,
    FACTIONS,
    FOLLOWERS_PER_FACTION,
    GARRISON,
    HAND,
    HOME_FOLLOWERS,
    HOMES,
    LAST_CARD_RULE_SEATS,
    LONDINIUM,
    LOYALIST_FOLLOWERS,
    LOYALISTS,
    MAX_SEATS,
    MIN_SEATS,
    MORDRED_START,
    NEIGHBOURS,
    NUM_REGIONS,
    RATAE,
    REGION_START_FOLLOWERS,
    REGIONS,
    REMOVED_PER_FACTION_TWO_PLAYERS,
    ROMANO_BRITISH,
    SAXON_TOKENS_FOR_INVASION,
    SAXONS,
    SCOTS,
    SETTLERS,
    TEAM_SEATS,
    UNRESOLVED,
    WELSH,
    Card,
    Faction,
    Region,
)
from throneroom.games.king_is_dead.names import card_name, colour_name, control_name, region_name
from throneroom.games.king_is_dead.names import faction_name as _faction_name
from throneroom.v1 import king_is_dead_pb2 as pb

__all__ = [
    "AMBASSADOR",
    "AQUAE_SULIS",
    "BANNER",
    "BORDERS",
    "CAERLEON",
    "CALEDONIA",
    "CARDS",
    "CARD_FACTION",
    "CARD_NAMES",
    "CARD_ROMANO_BRITISH",
    "CARD_SCOTS",
    "CARD_WELSH",
    "COLOURS",
    "COLOUR_NAMES",
    "CONTROL_LOYALISTS",
    "CONTROL_NAMES",
    "COURT_DRAWS",
    "CROWN",
    "DECIDE_AMBASSADOR",
    "DECIDE_CROWN",
    "DECIDE_GARRISON",
    "DECIDE_PLACE",
    "DECIDE_SETTLE",
    "DECIDE_SUMMON",
    "DEVA",
    "DIN_EIDYN",
    "EBORACUM",
    "FACTIONS",
    "FACTION_CARD_FOLLOWERS",
    "FACTION_NAMES",
    "FOLLOWERS_PER_FACTION",
    "GARRISON",
    "HAND",
    "HOMES",
    "HOME_FOLLOWERS",
    "LAST_CARD_RULE_SEATS",
    "LONDINIUM",
    "LOYALISTS",
    "LOYALIST_FOLLOWERS",
    "MAX_SEATS",
    "MIN_SEATS",
    "MORDRED_START",
    "NEIGHBOURS",
    "NONE",
    "NUM_REGIONS",
    "ORDERED_BORDERS",
    "RATAE",
    "REGIONS",
    "REGION_NAMES",
    "REGION_START_FOLLOWERS",
    "REMOVED_PER_FACTION_TWO_PLAYERS",
    "ROMANO_BRITISH",
    "SAXONS",
    "SAXON_TOKENS_FOR_INVASION",
    "SCOTS",
    "SETTLERS",
    "TEAM_SEATS",
    "TURN",
    "UNRESOLVED",
    "WELSH",
    "Board",
    "Card",
    "Counts",
    "Decision",
    "Faction",
    "Region",
    "region_list",
    "team_of",
]

Counts = tuple[int, int, int, int]
"""Followers of one region: (scots, welsh, romano_british, loyalists)."""
Board = list[Counts | None]
"""The eight regions in Region order; None for a resolved region."""

ORDERED_BORDERS: tuple[tuple[Region, Region], ...] = tuple(
    sorted([(a, b) for a, b in BORDERS] + [(b, a) for a, b in BORDERS])
)
"""Every (from, to) pair of bordering regions, ascending: the Garrison's directions."""

# -- English names (the SDK's texts) ------------------------------------------------------

REGION_NAMES: Mapping[Region, str] = MappingProxyType({r: region_name(r) for r in REGIONS})
FACTION_NAMES: Mapping[Faction, str] = MappingProxyType({f: _faction_name(f) for f in COLOURS})
COLOUR_NAMES: Mapping[Faction, str] = MappingProxyType({f: colour_name(f) for f in COLOURS})
CARD_NAMES: Mapping[Card, str] = MappingProxyType({c: card_name(c) for c in CARDS})
CONTROL_NAMES: Mapping[int, str] = MappingProxyType(
    {c: control_name(c) for c in (*COLOURS, SAXONS)}
)
"""RegionControl values 1..4 equal the Faction values of the same faction."""

# -- decisions ------------------------------------------------------------------------

Decision = pb.KingIsDeadPending.Decision
NONE = pb.KingIsDeadPending.DECISION_NONE
TURN = pb.KingIsDeadPending.DECISION_TURN
DECIDE_CROWN = pb.KingIsDeadPending.DECISION_CROWN
DECIDE_GARRISON = pb.KingIsDeadPending.DECISION_GARRISON
DECIDE_AMBASSADOR = pb.KingIsDeadPending.DECISION_AMBASSADOR
DECIDE_SETTLE = pb.KingIsDeadPending.DECISION_SETTLE
DECIDE_PLACE = pb.KingIsDeadPending.DECISION_PLACE
DECIDE_SUMMON = pb.KingIsDeadPending.DECISION_SUMMON


def team_of(seat: int, num_seats: int) -> int:
    """The seat's team: 0 or 1 with 4 players; the seat itself otherwise."""
    return seat % 2 if num_seats == TEAM_SEATS else seat


def region_list(regions: Sequence[Region]) -> str:
    """'Deva, Ratae and Londinium'."""
    names = [REGION_NAMES[r] for r in regions]
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]
