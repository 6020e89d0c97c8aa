"""The King Is Dead for clients: names and texts in English, Spanish and
Portuguese, and sentences for moves and events.

Names follow the rulebooks' own wording (regions as printed on the map; the
cards as the English, Spanish and Portuguese rulebooks call them)::

    >>> region_name(pb.REGION_CALEDONIA, "pt")
    'Caledônia'
    >>> card_name(pb.ACTION_CARD_GARRISON, "es")
    'Guarnición'
    >>> describe_move(KingIsDeadMove(play_card=KingIsDeadMove.PlayCard(card=2)))
    'Play the Garrison card'

Languages are ``"en"``, ``"es"`` and ``"pt"``; an unknown language falls back to
English. This module needs only the generated messages (never the server).

The game's data (map, factions, cards) lives in
:mod:`throneroom.games.king_is_dead.data`, the one home that the rules engine,
the bot and these texts import; the names and descriptions in
:mod:`throneroom.games.king_is_dead.names`, the sentence templates in
:mod:`throneroom.games.king_is_dead.sentences`; this package is their public
face.
"""

from __future__ import annotations

# pb, the message types, SAXONS and Texts are not in __all__ but stay importable from here, as
# before the split (the examples above use pb and KingIsDeadMove).
from throneroom.games.king_is_dead.names import (  # noqa: F401
    CARDS,
    COLOURS,
    EVENT_KINDS,
    FACTIONS,
    LANGUAGES,
    REGIONS,
    SAXONS,
    TERMINATIONS,
    TIEBREAKS,
    Text,
    Texts,
    card_name,
    card_text,
    colour_name,
    event_kind_name,
    faction_name,
    region_name,
)
from throneroom.games.king_is_dead.sentences import describe_event, describe_move
from throneroom.v1 import king_is_dead_pb2 as pb  # noqa: F401
from throneroom.v1.king_is_dead_pb2 import KingIsDeadEvent, KingIsDeadMove  # noqa: F401

__all__ = [
    "CARDS",
    "COLOURS",
    "EVENT_KINDS",
    "FACTIONS",
    "LANGUAGES",
    "REGIONS",
    "TERMINATIONS",
    "TIEBREAKS",
    "Text",
    "card_name",
    "card_text",
    "colour_name",
    "describe_event",
    "describe_move",
    "event_kind_name",
    "faction_name",
    "region_name",
]
