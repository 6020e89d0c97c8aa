"""The King Is Dead as data, in one place: the map (regions, borders, homes,
the Mordred banner), the factions and follower colours, the components and
the action cards.

Everything that knows the game imports these tables: the rules engine (which
builds its own derived tables from them), the SDK's texts and the heuristic
bot. Pure data: only the standard library and the generated messages.

Regions, factions, cards and region controls are the enum values of
king_is_dead.proto (plain ints at run time). The borders, the homes and the
banner table are the readings of RULES-NOTES (the printed map is not in the
rulebook's text). Every table is immutable (tuples, read-only mappings).
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from throneroom.v1 import king_is_dead_pb2 as pb

Region = int
Faction = int
Card = int

# -- regions ---------------------------------------------------------------------------

CALEDONIA: Region = pb.REGION_CALEDONIA
DIN_EIDYN: Region = pb.REGION_DIN_EIDYN
DEVA: Region = pb.REGION_DEVA
EBORACUM: Region = pb.REGION_EBORACUM
CAERLEON: Region = pb.REGION_CAERLEON
RATAE: Region = pb.REGION_RATAE
LONDINIUM: Region = pb.REGION_LONDINIUM
AQUAE_SULIS: Region = pb.REGION_AQUAE_SULIS

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
"""The eight regions, in Region order (1..8)."""
NUM_REGIONS = len(REGIONS)

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
"""The 13 borders of the map (RULES-NOTES), each once, lower region first."""

NEIGHBOURS: tuple[frozenset[Region], ...] = tuple(
    frozenset({b for a, b in BORDERS if a == r} | {a for a, b in BORDERS if b == r})
    for r in range(NUM_REGIONS + 1)
)
"""NEIGHBOURS[r]: the regions bordering region r (index 0 unused), from BORDERS."""

# -- factions and colours ------------------------------------------------------------------

SCOTS: Faction = pb.FACTION_SCOTS
WELSH: Faction = pb.FACTION_WELSH
ROMANO_BRITISH: Faction = pb.FACTION_ROMANO_BRITISH
LOYALISTS: Faction = pb.FACTION_LOYALISTS

FACTIONS: tuple[Faction, ...] = (SCOTS, WELSH, ROMANO_BRITISH)
"""The three factions: the colours players summon, settle and place."""
COLOURS: tuple[Faction, ...] = (SCOTS, WELSH, ROMANO_BRITISH, LOYALISTS)
"""Every follower colour, Loyalists (Mordred's black followers) included."""

HOMES: Mapping[Faction, Region] = MappingProxyType(
    {SCOTS: CALEDONIA, WELSH: CAERLEON, ROMANO_BRITISH: LONDINIUM}
)
"""Each faction's home region (initial followers and the faction cards)."""

# -- region control -------------------------------------------------------------------------

UNRESOLVED: int = pb.REGION_CONTROL_UNRESOLVED
CONTROL_LOYALISTS: int = pb.REGION_CONTROL_LOYALISTS
SAXONS: int = pb.REGION_CONTROL_SAXONS
"""RegionControl values 1..4 equal the Faction values of the same faction."""

SAXON_TOKENS_FOR_INVASION = 4

# -- the Mordred variant ----------------------------------------------------------------------

BANNER: Mapping[Region, Region] = MappingProxyType(
    {
        CALEDONIA: AQUAE_SULIS,
        DIN_EIDYN: AQUAE_SULIS,
        RATAE: AQUAE_SULIS,
        DEVA: AQUAE_SULIS,
        CAERLEON: DIN_EIDYN,
        EBORACUM: DIN_EIDYN,
        LONDINIUM: DIN_EIDYN,
        AQUAE_SULIS: DIN_EIDYN,
    }
)
"""Region resolved -> region that gets a Loyalist follower (the card's banner)."""
MORDRED_START: tuple[Region, ...] = (DIN_EIDYN, AQUAE_SULIS)
"""Regions that start with one black follower in the Mordred variant."""
LOYALIST_FOLLOWERS = 9

# -- followers --------------------------------------------------------------------------------

FOLLOWERS_PER_FACTION = 18
REMOVED_PER_FACTION_TWO_PLAYERS = 2
HOME_FOLLOWERS = 2
REGION_START_FOLLOWERS = 4
COURT_DRAWS = 2

# -- action cards -------------------------------------------------------------------------------

CROWN: Card = pb.ACTION_CARD_CROWN
GARRISON: Card = pb.ACTION_CARD_GARRISON
AMBASSADOR: Card = pb.ACTION_CARD_AMBASSADOR
SETTLERS: Card = pb.ACTION_CARD_SETTLERS
CARD_SCOTS: Card = pb.ACTION_CARD_SCOTS
CARD_WELSH: Card = pb.ACTION_CARD_WELSH
CARD_ROMANO_BRITISH: Card = pb.ACTION_CARD_ROMANO_BRITISH

CARDS: tuple[Card, ...] = (
    CROWN,
    GARRISON,
    AMBASSADOR,
    SETTLERS,
    CARD_SCOTS,
    CARD_WELSH,
    CARD_ROMANO_BRITISH,
)
"""The seven kinds of action card."""
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
CARD_FACTION: Mapping[Card, Faction] = MappingProxyType(
    {
        CARD_SCOTS: SCOTS,
        CARD_WELSH: WELSH,
        CARD_ROMANO_BRITISH: ROMANO_BRITISH,
    }
)
"""The faction cards and the colour each places."""
FACTION_CARD_FOLLOWERS = 2

# -- seats -------------------------------------------------------------------------------------

MIN_SEATS = 2
MAX_SEATS = 4
TEAM_SEATS = 4
"""With 4 players the seats across from each other (0+2, 1+3) are a team."""
LAST_CARD_RULE_SEATS = 3
"""With 3 players the last action card may only be played to win at once."""
