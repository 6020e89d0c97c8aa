"""King's Life's data for the web client (``/web/data/kings_life.json``): every
card face by id, the days, the activities and the characters' texts. Enum
values are spelled by their proto names, as the views' JSON spells them."""

from __future__ import annotations

from typing import Any

from throneroom.games.kings_life import data as kl
from throneroom.games.kings_life import texts as kl_texts
from throneroom.games.kings_life.web_words import WEB_WORDS
from throneroom.games.reader import by_language
from throneroom.v1 import kings_life_pb2 as kl_pb

Json = dict[str, Any]


def _name(enum: Any, value: int) -> str:
    """The proto name of an enum value (``REGION_CALEDONIA``), as views spell it in JSON."""
    return str(enum.Name(value))


def web_data() -> Json:
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
        "words": by_language(WEB_WORDS),
    }
