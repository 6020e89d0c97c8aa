"""The King Is Dead's data for the web client (``/web/data/king_is_dead.json``):
the map, the factions and the cards, with their names in every language. Enum
values are spelled by their proto names, as the views' JSON spells them."""

from __future__ import annotations

from typing import Any

from throneroom.games import king_is_dead as kid_texts
from throneroom.games.king_is_dead import data as kid
from throneroom.games.king_is_dead.names import SAXONS
from throneroom.games.king_is_dead.web_words import WEB_WORDS
from throneroom.games.reader import by_language
from throneroom.v1 import king_is_dead_pb2 as kid_pb

Json = dict[str, Any]


def _name(enum: Any, value: int) -> str:
    """The proto name of an enum value (``REGION_CALEDONIA``), as views spell it in JSON."""
    return str(enum.Name(value))


def _kid_region(region: int) -> str:
    return _name(kid_pb.Region, region)


def _kid_faction(faction: int) -> str:
    return _name(kid_pb.Faction, faction)


def _kid_card(card: int) -> str:
    return _name(kid_pb.ActionCard, card)


def web_data() -> Json:
    """The map, the factions and the cards, with their names in every language."""
    langs = kid_texts.LANGUAGES
    return {
        "game": "king_is_dead",
        "languages": list(langs),
        "regions": [
            {
                "region": _kid_region(r),
                "names": {lang: kid_texts.region_name(r, lang) for lang in langs},
            }
            for r in kid.REGIONS
        ],
        "borders": [[_kid_region(a), _kid_region(b)] for a, b in kid.BORDERS],
        "homes": {_kid_faction(f): _kid_region(r) for f, r in kid.HOMES.items()},
        "banner": {_kid_region(a): _kid_region(b) for a, b in kid.BANNER.items()},
        "mordredStart": [_kid_region(r) for r in kid.MORDRED_START],
        "factions": [
            {
                "faction": _kid_faction(f),
                "names": {lang: kid_texts.faction_name(f, lang) for lang in langs},
                "colours": {lang: kid_texts.colour_name(f, lang) for lang in langs},
            }
            for f in kid.COLOURS
        ],
        "saxons": {lang: SAXONS[lang].name for lang in langs},
        "cards": [
            {
                "card": _kid_card(c),
                "names": {lang: kid_texts.card_name(c, lang) for lang in langs},
                "texts": {lang: kid_texts.card_text(c, lang) for lang in langs},
                "faction": _kid_faction(kid.CARD_FACTION[c]) if c in kid.CARD_FACTION else None,
            }
            for c in kid.CARDS
        ],
        "hand": [_kid_card(c) for c in kid.HAND],
        "saxonTokensForInvasion": kid.SAXON_TOKENS_FOR_INVASION,
        "followersPerFaction": kid.FOLLOWERS_PER_FACTION,
        "loyalistFollowers": kid.LOYALIST_FOLLOWERS,
        "teamSeats": kid.TEAM_SEATS,
        "words": by_language(WEB_WORDS),
    }
