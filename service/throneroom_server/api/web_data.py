"""Each game's data for the web client, as JSON, built from the SDK's data modules.

The boards the web client draws need facts that a view does not carry: The
King Is Dead's map (which regions border which, the homes, the Mordred
banner), King's Life's card faces (what card id 37 is), Kill the King's field
(terrain of every space in each mode). Rather than a second, hand-copied copy
in JavaScript, the client reads them from ``/web/data/<game>.json``, made here
at run time from ``throneroom.games.<game>`` (the same tables the rules
engines import). Names of enums are the proto's names, as in the views' JSON
(``"REGION_CALEDONIA"``), so the client matches them without numbers.

    >>> data = game_data("king_is_dead")
    >>> len(data["regions"]), len(data["borders"])
    (8, 13)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from google.protobuf.descriptor import FieldDescriptor
from throneroom.games import king_is_dead as kid_texts
from throneroom.games.kill_the_king.board import Board
from throneroom.games.kill_the_king.enums import Direction, Mode, Side
from throneroom.games.kill_the_king.field import field_for
from throneroom.games.kill_the_king.modes import MODES
from throneroom.games.kill_the_king.units import UNITS
from throneroom.games.king_is_dead import data as kid
from throneroom.games.king_is_dead.names import SAXONS
from throneroom.games.kings_life import data as kl
from throneroom.games.kings_life import texts as kl_texts
from throneroom.v1 import game_pb2
from throneroom.v1 import kill_the_king_pb2 as ktk_pb
from throneroom.v1 import king_is_dead_pb2 as kid_pb
from throneroom.v1 import kings_life_pb2 as kl_pb

Json = dict[str, Any]


def _name(enum: Any, value: int) -> str:
    """The proto name of an enum value (``REGION_CALEDONIA``), as views spell it in JSON."""
    return str(enum.Name(value))


def _names(values: Mapping[int, Any], name_of: Callable[[int], str]) -> dict[str, Any]:
    return {name_of(key): value for key, value in values.items()}


# -- The King Is Dead -----------------------------------------------------------------------


def _kid_region(region: int) -> str:
    return _name(kid_pb.Region, region)


def _kid_faction(faction: int) -> str:
    return _name(kid_pb.Faction, faction)


def _kid_card(card: int) -> str:
    return _name(kid_pb.ActionCard, card)


def king_is_dead_data() -> Json:
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
    }


# -- King's Life ---------------------------------------------------------------------------


def kings_life_data() -> Json:
    """Every card face by id, the days, the activities and the characters' texts."""
    cards = []
    for face in kl_texts.DECK:
        cards.append(
            {
                "id": face.id,
                "name": face.name,
                "activity": _name(kl_pb.Activity, face.activity) if face.activity else None,
                "character": _name(kl_pb.Character, face.character) if face.character else None,
                "value": face.value,
                "draws": face.draws,
                "sun": face.sun,
            }
        )
    return {
        "game": "kings_life",
        "cards": cards,
        "activities": [
            {"activity": _name(kl_pb.Activity, a), "name": kl.ACTIVITY_NAMES[a]}
            for a in kl.ACTIVITIES
        ],
        "characters": [
            {
                "character": _name(kl_pb.Character, kind),
                "name": text.name,
                "count": text.count,
                "timing": text.timing,
                "effect": text.text,
            }
            for kind, text in kl_texts.CHARACTERS.items()
        ],
        "days": [
            {
                "day": _name(kl_pb.Day, day),
                "name": text.name,
                "victoryPoints": text.victory_points,
                "handSize": text.hand_size,
            }
            for day, text in kl_texts.DAYS.items()
        ],
        "preferencePositions": kl.PREFERENCE_POSITIONS,
        "topBonus": kl.TOP_BONUS,
    }


# -- Kill the King -------------------------------------------------------------------------


def _field(board: Board) -> Json:
    """A field as rows of map characters (row 0 first: the attacker's edge) and
    the facts the map characters do not say."""
    rows = ["".join(board.space(r, c).char for c in range(board.cols)) for r in range(board.rows)]
    return {
        "rows": board.rows,
        "cols": board.cols,
        "boards": board.boards,
        "terrain": rows,
        "board": [[board.space(r, c).board for c in range(board.cols)] for r in range(board.rows)],
        "zones": {
            name: [
                "".join(z.value for z in zones[r * board.cols : (r + 1) * board.cols])
                for r in range(board.rows)
            ]
            for name, zones in board.layers
        },
    }


def kill_the_king_data() -> Json:
    """The field of every mode (terrain by space), the units' chart and the directions."""
    modes = {}
    for mode in Mode:
        spec = MODES[mode]
        modes[_name(ktk_pb.KillTheKingMode, int(mode))] = {
            "name": spec.name,
            "rounds": spec.rounds,
            "zoneLayer": spec.zone_layer,
            "usesCastle": spec.uses_castle,
            "field": _field(field_for(mode)),
        }
    return {
        "game": "kill_the_king",
        "modes": modes,
        "terrain": {
            ".": "grass",
            "=": "road",
            ":": "reinforcement edge",
            "_": "castle ground",
            "+": "road on castle ground",
            "#": "wall",
            "^": "gate",
            "/": "stairs",
            "@": "King's Door",
        },
        "units": [
            {
                "type": _name(ktk_pb.UnitType, int(spec.type)),
                "name": spec.name,
                "letter": spec.letter,
                "symbol": spec.chart_symbol,
                "category": spec.category.value,
                "cost": spec.cost,
                "movement": spec.movement,
                "leader": spec.is_leader,
                "rules": list(spec.rules),
            }
            for spec in UNITS.values()
        ],
        "directions": {
            _name(ktk_pb.Direction, int(d)): {"dRow": d.delta[0], "dCol": d.delta[1]}
            for d in Direction
        },
        "sides": {_name(ktk_pb.Side, int(s)): s.name.lower() for s in Side},
    }


# -- every game's options ------------------------------------------------------------------

_FIELD_KINDS: Mapping[int, str] = {
    FieldDescriptor.TYPE_BOOL: "bool",
    FieldDescriptor.TYPE_ENUM: "enum",
    FieldDescriptor.TYPE_STRING: "string",
}


def options_data() -> Json:
    """The fields of each game's options message, from the proto descriptors, so
    that the lobby's form knows a flag from a number from a choice (and the
    choices): ``{"killTheKing": {"mode": {"kind": "enum", "values": [...]}}}``,
    keyed by the JSON names that CreateGame takes."""
    games: Json = {}
    for entry in game_pb2.GameOptions.DESCRIPTOR.oneofs_by_name["game"].fields:
        fields: Json = {}
        options = entry.message_type
        assert options is not None, entry.name
        for option in options.fields:
            kind = _FIELD_KINDS.get(option.type, "number")
            spec: Json = {"kind": "list" if _repeated(option) else kind, "name": option.name}
            if option.type == FieldDescriptor.TYPE_ENUM:
                values = option.enum_type.values if option.enum_type is not None else ()
                spec["values"] = [v.name for v in values if v.number != 0]
            fields[option.json_name] = spec
        games[entry.json_name] = {"game": entry.name, "fields": fields}
    return {"options": games}


def _repeated(field: FieldDescriptor) -> bool:
    return bool(field.is_repeated)


GAME_DATA: Mapping[str, Callable[[], Json]] = {
    "options": options_data,
    "king_is_dead": king_is_dead_data,
    "kings_life": kings_life_data,
    "kill_the_king": kill_the_king_data,
}
"""The data files by name: each game whose board needs data beyond its view (by its
registered name), and every game's options."""


def game_data(game: str) -> Json:
    """``game``'s data for the web client (KeyError for a game without any)."""
    return GAME_DATA[game]()
