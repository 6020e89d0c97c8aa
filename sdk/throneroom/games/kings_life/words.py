"""King's Life's words in English, Spanish and Portuguese: activities,
characters, days, the king's preference places, draw and cancel reasons, for
:mod:`.sentences`. Cards are named as the rulebook prints them, with their article ("Hunt 3",
"the Queen", "the Thief (4)"; "la Reina", "o Ladrão (4)").
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Final

from throneroom.games.kings_life import data
from throneroom.games.reader import Reader
from throneroom.v1 import kings_life_pb2 as pb
from throneroom.v1.kings_life_pb2 import KingsLifeEvent

__all__ = [
    "ACTIVITIES",
    "CANCEL_REASONS",
    "CHARACTERS",
    "DAYS",
    "DRAW_REASONS",
    "POSITIONS",
    "card_words",
    "day_words",
]

Words = Mapping[str, str]

ACTIVITIES: Final[Mapping[int, Words]] = {
    pb.ACTIVITY_TOURNEY: {"en": "Tourney", "es": "Torneo", "pt": "Torneio"},
    pb.ACTIVITY_FEAST: {"en": "Feast", "es": "Banquete", "pt": "Banquete"},
    pb.ACTIVITY_HUNT: {"en": "Hunt", "es": "Caza", "pt": "Caça"},
    pb.ACTIVITY_DANCE: {"en": "Dance", "es": "Baile", "pt": "Baile"},
}
_C = pb
CHARACTERS: Final[Mapping[int, Words]] = {
    _C.CHARACTER_DUCHESS: {"en": "the Duchess", "es": "la Duquesa", "pt": "a Duquesa"},
    _C.CHARACTER_LITTLE_PRINCE: {
        "en": "the Little Prince",
        "es": "el Principito",
        "pt": "o Pequeno Príncipe",
    },
    _C.CHARACTER_MERCHANT: {"en": "the Merchant", "es": "el Mercader", "pt": "o Mercador"},
    _C.CHARACTER_PRIEST: {"en": "the Priest", "es": "el Sacerdote", "pt": "o Sacerdote"},
    _C.CHARACTER_PRINCESS: {"en": "the Princess", "es": "la Princesa", "pt": "a Princesa"},
    _C.CHARACTER_SORCERER: {"en": "the Sorcerer", "es": "el Hechicero", "pt": "o Feiticeiro"},
    _C.CHARACTER_DUKE: {"en": "the Duke", "es": "el Duque", "pt": "o Duque"},
    _C.CHARACTER_QUEEN: {"en": "the Queen", "es": "la Reina", "pt": "a Rainha"},
    _C.CHARACTER_ASTROLOGER: {"en": "the Astrologer", "es": "el Astrólogo", "pt": "o Astrólogo"},
    _C.CHARACTER_CHAMBERLAIN: {
        "en": "the Chamberlain",
        "es": "el Chambelán",
        "pt": "o Camareiro",
    },
    _C.CHARACTER_DOG: {"en": "the Dog", "es": "el Perro", "pt": "o Cão"},
    _C.CHARACTER_FOOL: {"en": "the Fool", "es": "el Loco", "pt": "o Tolo"},
    _C.CHARACTER_GUARD: {"en": "the Guard", "es": "el Guardia", "pt": "o Guarda"},
    _C.CHARACTER_JESTER: {"en": "the Jester", "es": "el Bufón", "pt": "o Bobo"},
    _C.CHARACTER_PEON: {"en": "the Peon", "es": "el Peón", "pt": "o Peão"},
    _C.CHARACTER_RAINY_DAY: {
        "en": "the Rainy day",
        "es": "el Día de lluvia",
        "pt": "o Dia chuvoso",
    },
    _C.CHARACTER_THIEF: {"en": "the Thief", "es": "el Ladrón", "pt": "o Ladrão"},
}
DAYS: Final[Mapping[int, Words]] = {
    pb.DAY_TUESDAY: {"en": "Tuesday", "es": "martes", "pt": "terça-feira"},
    pb.DAY_WEDNESDAY: {"en": "Wednesday", "es": "miércoles", "pt": "quarta-feira"},
    pb.DAY_THURSDAY: {"en": "Thursday", "es": "jueves", "pt": "quinta-feira"},
    pb.DAY_FRIDAY: {"en": "Friday", "es": "viernes", "pt": "sexta-feira"},
    pb.DAY_SATURDAY: {"en": "Saturday", "es": "sábado", "pt": "sábado"},
}
POSITION_WORDS: Final[Mapping[str, tuple[str, str, str, str]]] = {
    "en": ("the top (+1)", "the second place", "the third place", "the face-down place"),
    "es": ("el primer puesto (+1)", "el segundo puesto", "el tercer puesto", "el puesto oculto"),
    "pt": ("o primeiro lugar (+1)", "o segundo lugar", "o terceiro lugar", "o lugar oculto"),
}
POSITIONS: Final = POSITION_WORDS["en"]
"""The king's preference places, top first (English)."""

DRAW_REASONS: Final[Mapping[int, Words]] = {
    KingsLifeEvent.DRAW_REASON_DEAL: {"en": "{is} dealt", "es": "recibe{s}", "pt": "recebe"},
    KingsLifeEvent.DRAW_REASON_EXCHANGE: {
        "en": "draw{s} for the exchange",
        "es": "roba{s} para el cambio",
        "pt": "compra para a troca",
    },
    KingsLifeEvent.DRAW_REASON_MULLIGAN: {
        "en": "draw{s} a new hand",
        "es": "roba{s} una mano nueva",
        "pt": "compra uma mão nova",
    },
    KingsLifeEvent.DRAW_REASON_DRAW_CARD: {
        "en": "draw{s} (a value-1 draw card)",
        "es": "roba{s} (una carta de robo de valor 1)",
        "pt": "compra (uma carta de compra de valor 1)",
    },
    KingsLifeEvent.DRAW_REASON_DOG: {
        "en": "draw{s} for the Dog",
        "es": "roba{s} por el Perro",
        "pt": "compra pelo Cão",
    },
}
DRAWS: Final[Words] = {"en": "draw{s}", "es": "roba{s}", "pt": "compra"}
_RESULT = pb.KingsLifeDayRecord
CANCEL_REASONS: Final[Mapping[int, Words]] = {
    _RESULT.RESULT_TIE: {
        "en": "two programs are equal in the same activity",
        "es": "dos programas empatan en la misma actividad",
        "pt": "dois programas empatam na mesma atividade",
    },
    _RESULT.RESULT_RAINY_DAY: {
        "en": "a Rainy day",
        "es": "un Día de lluvia",
        "pt": "um Dia chuvoso",
    },
    _RESULT.RESULT_NO_PROGRAM: {
        "en": "nobody suggested a program the king cares for",
        "es": "nadie propuso un programa que le importe al rey",
        "pt": "ninguém sugeriu um programa que interesse ao rei",
    },
}
NO_WINNER: Final[Words] = {"en": "no winner", "es": "sin ganador", "pt": "sem vencedor"}
CARDS: Final = {"en": ("card", "cards"), "es": ("carta", "cartas"), "pt": ("carta", "cartas")}
POINTS: Final = {
    "en": ("victory point", "victory points"),
    "es": ("punto de victoria", "puntos de victoria"),
    "pt": ("ponto de vitória", "pontos de vitória"),
}


def card_words(card: int, r: Reader) -> str:
    """A card in the reader's language: "Hunt 3", "the Queen", "the Thief (4)"."""
    if not 1 <= card <= data.DECK_SIZE:
        return r.word({"en": "card {n}", "es": "carta {n}", "pt": "carta {n}"}).format(n=card)
    activity = data.CARD_ACTIVITY[card]
    if activity:
        return f"{r.word(ACTIVITIES[activity])} {data.CARD_VALUE[card]}"
    kind = data.CARD_CHARACTER[card]
    name = r.word(CHARACTERS[kind])
    return f"{name} ({data.CARD_VALUE[card]})" if kind == pb.CHARACTER_THIEF else name


def day_words(day: int, r: Reader) -> str:
    """A day's name ("Tuesday", "martes", "terça-feira")."""
    return r.word(DAYS[day]) if day in DAYS else "?"


def cards_words(cards: Sequence[int], r: Reader) -> str:
    return r.join([card_words(c, r) for c in cards])


def cards_or_count(cards: Sequence[int], count: int, r: Reader) -> str:
    return cards_words(cards, r) if cards else r.count(count, CARDS)


def activity_words(activity: int, r: Reader) -> str:
    return r.word(ACTIVITIES[activity]) if activity in ACTIVITIES else "?"


def of_day(day: int, r: Reader) -> str:
    """ "Tuesday's", "del martes", "de terça-feira" (before or after the noun)."""
    return r.word({"en": "{d}'s", "es": "del {d}", "pt": "de {d}"}).format(d=day_words(day, r))
