"""The board and the components of The King Is Dead, as data, in one place.

Regions, factions, cards and decisions are the enum values of
king_is_dead.proto (plain ints at run time). Internally a region's followers
are a 4-tuple ``(scots, welsh, romano_british, loyalists)`` indexed by
``faction - 1``; a *board* is the list of the eight regions' tuples in Region
order, with ``None`` for a resolved region (resolved regions are always
empty). The adjacency table, the homes and the Mordred banner table are the
readings of /work/shared/RULES-NOTES.md (the printed map is not in the text).
"""

from __future__ import annotations

from collections.abc import Sequence

from throneroom.v1 import king_is_dead_pb2 as pb

Region = int
Faction = int
Card = int
Counts = tuple[int, int, int, int]
"""Followers of one region: (scots, welsh, romano_british, loyalists)."""
Board = list[Counts | None]
"""The eight regions in Region order; None for a resolved region."""

# -- regions -------------------------------------------------------------------

CALEDONIA = pb.REGION_CALEDONIA
DIN_EIDYN = pb.REGION_DIN_EIDYN
DEVA = pb.REGION_DEVA
EBORACUM = pb.REGION_EBORACUM
CAERLEON = pb.REGION_CAERLEON
RATAE = pb.REGION_RATAE
LONDINIUM = pb.REGION_LONDINIUM
AQUAE_SULIS = pb.REGION_AQUAE_SULIS

REGIONS: tuple[Region, ...] = (
    CALEDONIA,
    DIN_EIDYN,
    DEVA,
    EBORACUM,
    CAERLEON,
    RATAE,
    LONDINIUM,
    AQUAE_SULIS,
)
NUM_REGIONS = len(REGIONS)

REGION_NAMES: dict[Region, str] = {
    CALEDONIA: "Caledonia",
    DIN_EIDYN: "Din Eidyn",
    DEVA: "Deva",
    EBORACUM: "Eboracum",
    CAERLEON: "Caerleon",
    RATAE: "Ratae",
    LONDINIUM: "Londinium",
    AQUAE_SULIS: "Aquae Sulis",
}

BORDERS: tuple[tuple[Region, Region], ...] = (
    (CALEDONIA, DIN_EIDYN),
    (DIN_EIDYN, DEVA),
    (DIN_EIDYN, EBORACUM),
    (DEVA, EBORACUM),
    (DEVA, CAERLEON),
    (DEVA, RATAE),
    (EBORACUM, RATAE),
    (EBORACUM, LONDINIUM),
    (CAERLEON, RATAE),
    (CAERLEON, AQUAE_SULIS),
    (RATAE, LONDINIUM),
    (RATAE, AQUAE_SULIS),
    (LONDINIUM, AQUAE_SULIS),
)
"""The 13 borders of the map (RULES-NOTES)."""

NEIGHBOURS: tuple[frozenset[Region], ...] = tuple(
    frozenset({b for a, b in BORDERS if a == r} | {a for a, b in BORDERS if b == r})
    for r in range(NUM_REGIONS + 1)
)
"""NEIGHBOURS[r]: the regions bordering region r (index 0 unused)."""

ORDERED_BORDERS: tuple[tuple[Region, Region], ...] = tuple(
    sorted([(a, b) for a, b in BORDERS] + [(b, a) for a, b in BORDERS])
)
"""Every (from, to) pair of bordering regions, ascending: the Garrison's directions."""

# -- factions and colours ------------------------------------------------------

SCOTS = pb.FACTION_SCOTS
WELSH = pb.FACTION_WELSH
ROMANO_BRITISH = pb.FACTION_ROMANO_BRITISH
LOYALISTS = pb.FACTION_LOYALISTS

FACTIONS: tuple[Faction, ...] = (SCOTS, WELSH, ROMANO_BRITISH)
"""The three factions: the colours players summon, settle and place."""
COLOURS: tuple[Faction, ...] = (SCOTS, WELSH, ROMANO_BRITISH, LOYALISTS)
"""Every follower colour, Loyalists (Mordred's black followers) included."""

FACTION_NAMES: dict[Faction, str] = {
    SCOTS: "Scots",
    WELSH: "Welsh",
    ROMANO_BRITISH: "Romano-British",
    LOYALISTS: "Loyalists",
}
COLOUR_NAMES: dict[Faction, str] = {
    SCOTS: "blue",
    WELSH: "red",
    ROMANO_BRITISH: "yellow",
    LOYALISTS: "black",
}

HOMES: dict[Faction, Region] = {SCOTS: CALEDONIA, WELSH: CAERLEON, ROMANO_BRITISH: LONDINIUM}
"""Each faction's home region (initial followers and the faction cards)."""

# -- region control --------------------------------------------------------------

UNRESOLVED = pb.REGION_CONTROL_UNRESOLVED
CONTROL_LOYALISTS = pb.REGION_CONTROL_LOYALISTS
SAXONS = pb.REGION_CONTROL_SAXONS
CONTROL_NAMES: dict[int, str] = {
    pb.REGION_CONTROL_SCOTS: "Scots",
    pb.REGION_CONTROL_WELSH: "Welsh",
    pb.REGION_CONTROL_ROMANO_BRITISH: "Romano-British",
    pb.REGION_CONTROL_LOYALISTS: "Loyalists",
    pb.REGION_CONTROL_SAXONS: "Saxons",
}
"""RegionControl values 1..4 equal the Faction values of the same faction."""

SAXON_TOKENS_FOR_INVASION = 4

# -- the Mordred variant -----------------------------------------------------------

BANNER: dict[Region, Region] = {
    CALEDONIA: AQUAE_SULIS,
    DIN_EIDYN: AQUAE_SULIS,
    RATAE: AQUAE_SULIS,
    DEVA: AQUAE_SULIS,
    CAERLEON: DIN_EIDYN,
    EBORACUM: DIN_EIDYN,
    LONDINIUM: DIN_EIDYN,
    AQUAE_SULIS: DIN_EIDYN,
}
"""Region resolved -> region that gets a Loyalist follower (the card's banner)."""
MORDRED_START: tuple[Region, ...] = (DIN_EIDYN, AQUAE_SULIS)
"""Regions that start with one black follower in the Mordred variant."""
LOYALIST_FOLLOWERS = 9

# -- followers --------------------------------------------------------------------

FOLLOWERS_PER_FACTION = 18
REMOVED_PER_FACTION_TWO_PLAYERS = 2
HOME_FOLLOWERS = 2
REGION_START_FOLLOWERS = 4
COURT_DRAWS = 2

# -- action cards -------------------------------------------------------------------

CROWN = pb.ACTION_CARD_CROWN
GARRISON = pb.ACTION_CARD_GARRISON
AMBASSADOR = pb.ACTION_CARD_AMBASSADOR
SETTLERS = pb.ACTION_CARD_SETTLERS
CARD_SCOTS = pb.ACTION_CARD_SCOTS
CARD_WELSH = pb.ACTION_CARD_WELSH
CARD_ROMANO_BRITISH = pb.ACTION_CARD_ROMANO_BRITISH

CARDS: tuple[Card, ...] = (
    CROWN,
    GARRISON,
    AMBASSADOR,
    SETTLERS,
    CARD_SCOTS,
    CARD_WELSH,
    CARD_ROMANO_BRITISH,
)
HAND: tuple[Card, ...] = (
    CROWN,
    GARRISON,
    AMBASSADOR,
    SETTLERS,
    SETTLERS,
    CARD_SCOTS,
    CARD_WELSH,
    CARD_ROMANO_BRITISH,
)
"""One seat's set of 8 action cards, ascending."""
CARD_NAMES: dict[Card, str] = {
    CROWN: "Crown",
    GARRISON: "Garrison",
    AMBASSADOR: "Ambassador",
    SETTLERS: "Settlers",
    CARD_SCOTS: "Scots",
    CARD_WELSH: "Welsh",
    CARD_ROMANO_BRITISH: "Romano-British",
}
CARD_FACTION: dict[Card, Faction] = {
    CARD_SCOTS: SCOTS,
    CARD_WELSH: WELSH,
    CARD_ROMANO_BRITISH: ROMANO_BRITISH,
}
"""The faction cards and the colour each places."""
FACTION_CARD_FOLLOWERS = 2

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

# -- seats -----------------------------------------------------------------------------

MIN_SEATS = 2
MAX_SEATS = 4
TEAM_SEATS = 4
"""With 4 players the seats across from each other (0+2, 1+3) are a team."""
LAST_CARD_RULE_SEATS = 3
"""With 3 players the last action card may only be played to win at once."""


def team_of(seat: int, num_seats: int) -> int:
    """The seat's team: 0 or 1 with 4 players; the seat itself otherwise."""
    return seat % 2 if num_seats == TEAM_SEATS else seat


def region_list(regions: Sequence[Region]) -> str:
    """'Deva, Ratae and Londinium'."""
    names = [REGION_NAMES[r] for r in regions]
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]
