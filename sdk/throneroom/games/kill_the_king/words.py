"""Kill the King's words in English, Spanish and Portuguese: units (with their
articles), sides, directions, levels, phases, dice, causes of death, modes and
endings. Every table is keyed by the protobuf enum value; :mod:`.texts` builds
the sentences from them. A unit is named one way everywhere: its ``indefinite``
form ("an Archer", "Spearmen", "the Ranger": leaders are one of a kind) and its
``definite`` one ("the Archer")."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from throneroom.games.reader import Reader
from throneroom.v1 import kill_the_king_pb2 as pb

__all__ = [
    "CAUSES",
    "COUNTS",
    "DIE_PURPOSES",
    "DIRECTIONS",
    "ENDINGS",
    "LEVELS",
    "MODES",
    "PHASES",
    "SIDES",
    "UNIT_NAMES",
    "leader_name",
    "unit_name",
    "word_of",
]

Words = Mapping[str, str]

UNIT_NAMES: Final[Mapping[int, Mapping[str, tuple[str, str]]]] = {
    pb.UNIT_TYPE_ARCHER: {
        "en": ("an Archer", "the Archer"),
        "es": ("un Arquero", "el Arquero"),
        "pt": ("um Arqueiro", "o Arqueiro"),
    },
    pb.UNIT_TYPE_SPEARMEN: {
        "en": ("Spearmen", "the Spearmen"),
        "es": ("Lanceros", "los Lanceros"),
        "pt": ("Lanceiros", "os Lanceiros"),
    },
    pb.UNIT_TYPE_SWORDSMEN: {
        "en": ("Swordsmen", "the Swordsmen"),
        "es": ("Espadachines", "los Espadachines"),
        "pt": ("Espadachins", "os Espadachins"),
    },
    pb.UNIT_TYPE_PEASANT: {
        "en": ("a Peasant", "the Peasant"),
        "es": ("un Campesino", "el Campesino"),
        "pt": ("um Camponês", "o Camponês"),
    },
    pb.UNIT_TYPE_CAVALRY: {
        "en": ("Cavalry", "the Cavalry"),
        "es": ("Caballería", "la Caballería"),
        "pt": ("Cavalaria", "a Cavalaria"),
    },
    pb.UNIT_TYPE_WAR_ELEPHANT: {
        "en": ("a War Elephant", "the War Elephant"),
        "es": ("un Elefante de guerra", "el Elefante de guerra"),
        "pt": ("um Elefante de guerra", "o Elefante de guerra"),
    },
    pb.UNIT_TYPE_FLAMING_PIGS: {
        "en": ("Flaming Pigs", "the Flaming Pigs"),
        "es": ("Cerdos en llamas", "los Cerdos en llamas"),
        "pt": ("Porcos em chamas", "os Porcos em chamas"),
    },
    pb.UNIT_TYPE_BATTERING_RAM: {
        "en": ("a Battering Ram", "the Battering Ram"),
        "es": ("un Ariete", "el Ariete"),
        "pt": ("um Aríete", "o Aríete"),
    },
    pb.UNIT_TYPE_CATAPULT: {
        "en": ("a Catapult", "the Catapult"),
        "es": ("una Catapulta", "la Catapulta"),
        "pt": ("uma Catapulta", "a Catapulta"),
    },
    pb.UNIT_TYPE_BALLISTA: {
        "en": ("a Ballista", "the Ballista"),
        "es": ("una Balista", "la Balista"),
        "pt": ("uma Balista", "a Balista"),
    },
    pb.UNIT_TYPE_SIEGE_TOWER: {
        "en": ("a Siege Tower", "the Siege Tower"),
        "es": ("una Torre de asedio", "la Torre de asedio"),
        "pt": ("uma Torre de cerco", "a Torre de cerco"),
    },
    pb.UNIT_TYPE_RANGER: {
        "en": ("the Ranger", "the Ranger"),
        "es": ("el Explorador", "el Explorador"),
        "pt": ("o Batedor", "o Batedor"),
    },
    pb.UNIT_TYPE_TREASURER: {
        "en": ("the Treasurer", "the Treasurer"),
        "es": ("el Tesorero", "el Tesorero"),
        "pt": ("o Tesoureiro", "o Tesoureiro"),
    },
    pb.UNIT_TYPE_KNIGHT: {
        "en": ("the Knight", "the Knight"),
        "es": ("el Caballero", "el Caballero"),
        "pt": ("o Cavaleiro", "o Cavaleiro"),
    },
    pb.UNIT_TYPE_ENGINEER: {
        "en": ("the Engineer", "the Engineer"),
        "es": ("el Ingeniero", "el Ingeniero"),
        "pt": ("o Engenheiro", "o Engenheiro"),
    },
    pb.UNIT_TYPE_BEASTMASTER: {
        "en": ("the Beastmaster", "the Beastmaster"),
        "es": ("el Domador", "el Domador"),
        "pt": ("o Domador", "o Domador"),
    },
}
"""Unit type -> language -> (indefinite, definite)."""

SIDES: Final[Mapping[int, Words]] = {
    pb.SIDE_ATTACKER: {"en": "attacker", "es": "atacante", "pt": "atacante"},
    pb.SIDE_DEFENDER: {"en": "defender", "es": "defensor", "pt": "defensor"},
}
DIRECTIONS: Final[Mapping[int, Words]] = {
    pb.DIRECTION_NORTH: {"en": "north", "es": "norte", "pt": "norte"},
    pb.DIRECTION_EAST: {"en": "east", "es": "este", "pt": "leste"},
    pb.DIRECTION_SOUTH: {"en": "south", "es": "sur", "pt": "sul"},
    pb.DIRECTION_WEST: {"en": "west", "es": "oeste", "pt": "oeste"},
}
LEVELS: Final[Mapping[int, Words]] = {
    pb.LEVEL_GROUND: {"en": " on the ground", "es": " en el suelo", "pt": " no chão"},
    pb.LEVEL_WALL: {"en": " on the wall", "es": " en el muro", "pt": " na muralha"},
    pb.LEVEL_STAIRS: {"en": " on the stairs", "es": " en la escalera", "pt": " na escada"},
}
_PHASE = pb.KillTheKingState
PHASES: Final[Mapping[int, Words]] = {
    _PHASE.PHASE_CHOOSE_SIDE: {
        "en": "side choice",
        "es": "elección de bando",
        "pt": "escolha de lado",
    },
    _PHASE.PHASE_PURCHASE: {"en": "purchase", "es": "compra", "pt": "compra"},
    _PHASE.PHASE_LEADER: {"en": "leader", "es": "líder", "pt": "líder"},
    _PHASE.PHASE_EXTRA_PURCHASE: {
        "en": "extra purchase",
        "es": "compra adicional",
        "pt": "compra adicional",
    },
    _PHASE.PHASE_PLACEMENT: {"en": "placement", "es": "despliegue", "pt": "posicionamento"},
    _PHASE.PHASE_REINFORCEMENT: {"en": "reinforcement", "es": "refuerzos", "pt": "reforços"},
    _PHASE.PHASE_MOVEMENT: {"en": "movement", "es": "movimiento", "pt": "movimento"},
    _PHASE.PHASE_ATTACK: {"en": "attack", "es": "ataque", "pt": "ataque"},
    _PHASE.PHASE_FOLLOW_UP: {"en": "follow-up", "es": "persecución", "pt": "perseguição"},
    _PHASE.PHASE_DISBAND: {"en": "disbanding", "es": "disolución", "pt": "dispersão"},
    _PHASE.PHASE_OVER: {"en": "final", "es": "cierre", "pt": "encerramento"},
}
DIE_PURPOSES: Final[Mapping[int, Words]] = {
    pb.DIE_PURPOSE_INITIATIVE: {
        "en": "for initiative",
        "es": "de iniciativa",
        "pt": "de iniciativa",
    },
    pb.DIE_PURPOSE_HIT: {"en": "to hit", "es": "para impactar", "pt": "para acertar"},
    pb.DIE_PURPOSE_SAVE: {"en": "to save", "es": "para salvarse", "pt": "para se salvar"},
    pb.DIE_PURPOSE_WALL_SAVE: {
        "en": "for the wall",
        "es": "por el muro",
        "pt": "pela muralha",
    },
    pb.DIE_PURPOSE_GATE_SAVE: {
        "en": "for the outer gate",
        "es": "por la puerta exterior",
        "pt": "pelo portão externo",
    },
    pb.DIE_PURPOSE_DOOR_SAVE: {
        "en": "for the King's Door",
        "es": "por la Puerta del Rey",
        "pt": "pela Porta do Rei",
    },
    pb.DIE_PURPOSE_PANIC: {"en": "for the panic", "es": "por el pánico", "pt": "pelo pânico"},
}
CAUSES: Final[Mapping[int, Words]] = {
    pb.CAUSE_ATTACK: {"en": "attacked", "es": "atacada", "pt": "atacada"},
    pb.CAUSE_RUIN: {
        "en": "its wall fell",
        "es": "su muro cayó",
        "pt": "sua muralha caiu",
    },
    pb.CAUSE_CREW_OF_RAM: {
        "en": "its Battering Ram was hit",
        "es": "su Ariete fue alcanzado",
        "pt": "seu Aríete foi atingido",
    },
    pb.CAUSE_TRAMPLED: {
        "en": "trampled by a War Elephant",
        "es": "pisoteada por un Elefante de guerra",
        "pt": "pisoteada por um Elefante de guerra",
    },
    pb.CAUSE_EXPLOSION: {
        "en": "Flaming Pigs exploded",
        "es": "explotaron Cerdos en llamas",
        "pt": "Porcos em chamas explodiram",
    },
    pb.CAUSE_ELEPHANTS_MET: {
        "en": "two War Elephants met",
        "es": "dos Elefantes de guerra chocaron",
        "pt": "dois Elefantes de guerra se chocaram",
    },
    pb.CAUSE_PANIC: {"en": "after its panic", "es": "tras su pánico", "pt": "após seu pânico"},
    pb.CAUSE_REARMOST: {
        "en": "the Ranger was the rearmost unit",
        "es": "el Explorador era la unidad más retrasada",
        "pt": "o Batedor era a unidade mais recuada",
    },
    pb.CAUSE_TREASURER_FLED: {
        "en": "the Treasurer was left alone",
        "es": "el Tesorero se quedó solo",
        "pt": "o Tesoureiro ficou sozinho",
    },
    pb.CAUSE_ENGINEER_DIED: {
        "en": "its Engineer died",
        "es": "murió su Ingeniero",
        "pt": "seu Engenheiro morreu",
    },
    pb.CAUSE_DISBANDED: {
        "en": "disbanded after the Treasurer died",
        "es": "disuelta tras morir el Tesorero",
        "pt": "dispersada após a morte do Tesoureiro",
    },
}
MODES: Final[Mapping[int, Words]] = {
    pb.KILL_THE_KING_MODE_KILL_THE_KING: {
        "en": "Kill the King",
        "es": "Mata al Rey",
        "pt": "Mate o Rei",
    },
    pb.KILL_THE_KING_MODE_ATTACK_AND_DEFENSE: {
        "en": "Attack and Defense",
        "es": "Ataque y Defensa",
        "pt": "Ataque e Defesa",
    },
    pb.KILL_THE_KING_MODE_KILL_THE_KING_GIGA: {
        "en": "Kill the King Giga",
        "es": "Mata al Rey Giga",
        "pt": "Mate o Rei Giga",
    },
    pb.KILL_THE_KING_MODE_ATTACK_AND_DEFENSE_GIGA: {
        "en": "Attack and Defense Giga",
        "es": "Ataque y Defensa Giga",
        "pt": "Ataque e Defesa Giga",
    },
}
ENDINGS: Final[Mapping[str, Words]] = {
    "door": {
        "en": "the attacker destroyed the King's Door",
        "es": "el atacante destruyó la Puerta del Rey",
        "pt": "o atacante destruiu a Porta do Rei",
    },
    "king_survived": {
        "en": "the King survived the last round",
        "es": "el Rey sobrevivió a la última ronda",
        "pt": "o Rei sobreviveu à última rodada",
    },
    "leader_and_breakthrough": {
        "en": "the attacker killed the defender's leader and broke through to its edge",
        "es": "el atacante mató al líder del defensor y llegó a su borde",
        "pt": "o atacante matou o líder do defensor e chegou à sua borda",
    },
    "breakthrough_failed": {
        "en": "the attacker did not break through in time",
        "es": "el atacante no logró abrirse paso a tiempo",
        "pt": "o atacante não conseguiu romper a tempo",
    },
    "annihilation": {
        "en": "the other side has no unit left on the field",
        "es": "al otro bando no le queda ninguna unidad en el campo",
        "pt": "o outro lado não tem mais nenhuma unidade no campo",
    },
}
"""A game's termination code -> how it ended."""

COUNTS: Final[Mapping[str, Mapping[str, tuple[str, str]]]] = {
    "coins": {"en": ("coin", "coins"), "es": ("moneda", "monedas"), "pt": ("moeda", "moedas")},
    "counters": {
        "en": ("counter", "counters"),
        "es": ("ficha", "fichas"),
        "pt": ("ficha", "fichas"),
    },
    "players": {
        "en": ("player", "players"),
        "es": ("jugador", "jugadores"),
        "pt": ("jogador", "jogadores"),
    },
    "cavalry": {
        "en": ("Cavalry counter", "Cavalry counters"),
        "es": ("ficha de Caballería", "fichas de Caballería"),
        "pt": ("ficha de Cavalaria", "fichas de Cavalaria"),
    },
}
"""What a sentence counts: language -> (singular, plural)."""


def unit_name(unit: int, r: Reader, *, definite: bool = False) -> str:
    """A unit type in words, with its article: "an Archer", "Spearmen", "the Ranger"."""
    forms = UNIT_NAMES.get(unit)
    if forms is None:
        return f"unit type {unit}"
    return (forms.get(r.lang) or forms["en"])[definite]


def word_of(table: Mapping[int, Words], value: int, r: Reader) -> str:
    """A value's word in the reader's language ("?" for a value without one)."""
    words = table.get(value)
    return r.word(words) if words else "?"


def leader_name(unit: int, r: Reader) -> str:
    """A leader after Spanish's personal "a" (al Explorador), else with its article."""
    name = unit_name(unit, r, definite=True)
    return "al " + name.removeprefix("el ") if r.lang == "es" and name.startswith("el ") else name
