"""The King Is Dead for clients: one sentence per move and per event, in
English, Spanish and Portuguese.

Sentences are data: MOVE_TEMPLATES and EVENT_TEMPLATES hold, per move kind
(the ``decision`` oneof of KingIsDeadMove) and per event kind (the ``kind``
oneof of KingIsDeadEvent), one ``str.format`` template per language. The
placeholders are the field names of that kind's message, each rendered in the
language by its type: a Region, Faction, ActionCard or RegionControl by its
name, a seat as "Seat 2", a list joined as "A, B and C", a number as digits::

    "card_played": {"en": "{seat} plays {card} ({cards_left} cards left).", ...}

A few kinds choose among templates or add to them:

- ``kind:variant`` replaces the kind's template: ``ambassador:from_a`` and
  ``ambassador:from_b`` when only one follower moves, ``passed:forced`` when
  the seat had no card left;
- ``kind+field`` is appended when ``field`` is set (present, non-zero or
  non-empty), in the order of _SUFFIXES; ``kind+end`` always comes last.

Import these from :mod:`throneroom.games.king_is_dead`, which re-exports them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import cache
from typing import Any

from google.protobuf.descriptor import Descriptor
from google.protobuf.message import Message

from throneroom.games.king_is_dead.names import (
    TERMINATIONS,
    TIEBREAKS,
    card_name,
    control_name,
    faction_name,
    language,
    region_name,
)
from throneroom.v1.king_is_dead_pb2 import KingIsDeadEvent, KingIsDeadMove

Templates = Mapping[str, Mapping[str, str]]
"""Template key -> language -> ``str.format`` template."""

WORDS: Templates = {
    "and": {"en": "and", "es": "y", "pt": "e"},
    "seat": {"en": "Seat {seat}", "es": "Asiento {seat}", "pt": "Assento {seat}"},
    "mordred": {
        "en": " (Mordred variant)",
        "es": " (variante Mordred)",
        "pt": " (Variante Mordred)",
    },
}

MOVE_TEMPLATES: Templates = {
    "empty": {"en": "An empty move", "es": "Un movimiento vacío", "pt": "Um movimento vazio"},
    "pass_turn": {"en": "Pass", "es": "Pasar", "pt": "Passar"},
    "play_card": {
        "en": "Play the {card} card",
        "es": "Jugar la carta {card}",
        "pt": "Jogar a carta {card}",
    },
    "crown": {
        "en": "Crown: swap {region_a} and {region_b}, crown token on {crowned}",
        "es": "Corona: intercambiar {region_a} y {region_b}, ficha de corona en {crowned}",
        "pt": "Coroa: trocar {region_a} e {region_b}, token de coroa em {crowned}",
    },
    "garrison": {
        "en": "Garrison: {outgoing} from {from_region} to {to_region}",
        "es": "Guarnición: {outgoing} de {from_region} a {to_region}",
        "pt": "Guarnição: {outgoing} de {from_region} para {to_region}",
    },
    "garrison+returning": {
        "en": ", {returning} back to {from_region}",
        "es": ", {returning} de vuelta a {from_region}",
        "pt": ", {returning} de volta para {from_region}",
    },
    "ambassador": {
        "en": "Ambassador: {from_a} from {region_a} for {from_b} from {region_b}",
        "es": "Embajador: {from_a} de {region_a} por {from_b} de {region_b}",
        "pt": "Embaixador: {from_a} de {region_a} por {from_b} de {region_b}",
    },
    "ambassador:from_a": {
        "en": "Ambassador: {from_a} from {region_a} to {region_b}, exchanged with nothing",
        "es": "Embajador: {from_a} de {region_a} a {region_b}, intercambiado por nada",
        "pt": "Embaixador: {from_a} de {region_a} para {region_b}, trocado por nada",
    },
    "ambassador:from_b": {
        "en": "Ambassador: {from_b} from {region_b} to {region_a}, exchanged with nothing",
        "es": "Embajador: {from_b} de {region_b} a {region_a}, intercambiado por nada",
        "pt": "Embaixador: {from_b} de {region_b} para {region_a}, trocado por nada",
    },
    "settle": {
        "en": "Settlers: place the follower in {region}",
        "es": "Asentamiento: colocar el seguidor en {region}",
        "pt": "Assentamentos: colocar o seguidor em {region}",
    },
    "place": {
        "en": "Place a follower in {region}",
        "es": "Colocar un seguidor en {region}",
        "pt": "Colocar um seguidor em {region}",
    },
    "summon": {
        "en": "Summon a {faction} follower from {region} to court",
        "es": "Convocar a la corte un seguidor {faction} de {region}",
        "pt": "Convocar para a corte um seguidor {faction} de {region}",
    },
}

EVENT_TEMPLATES: Templates = {
    "empty": {"en": "Nothing happened.", "es": "No pasó nada.", "pt": "Nada aconteceu."},
    "setup": {
        "en": "The game is set up for {num_seats} players{mordred}; "
        "power struggles in order: {region_card_order}.",
        "es": "Partida preparada para {num_seats} jugadores{mordred}; "
        "luchas de poder en orden: {region_card_order}.",
        "pt": "Jogo preparado para {num_seats} jogadores{mordred}; "
        "lutas pelo poder em ordem: {region_card_order}.",
    },
    "card_played": {
        "en": "{seat} plays {card} ({cards_left} cards left).",
        "es": "{seat} juega {card} (le quedan {cards_left} cartas).",
        "pt": "{seat} joga {card} (restam {cards_left} cartas).",
    },
    "effect_skipped": {
        "en": "{card} has no effect: its action cannot be carried out.",
        "es": "{card} no tiene efecto: su acción no se puede realizar.",
        "pt": "{card} não tem efeito: sua ação não pode ser realizada.",
    },
    "followers_moved": {
        "en": "{card}: {followers} from {from_region} to {to_region}.",
        "es": "{card}: {followers} de {from_region} a {to_region}.",
        "pt": "{card}: {followers} de {from_region} para {to_region}.",
    },
    "follower_placed": {
        "en": "{card}: a {faction} follower is placed in {region}.",
        "es": "{card}: se coloca un seguidor {faction} en {region}.",
        "pt": "{card}: um seguidor {faction} é colocado em {region}.",
    },
    "crown_placed": {
        "en": "{seat} swaps {region_a} (now position {position_a}) "
        "and {region_b} (now position {position_b}) and crowns {crowned}.",
        "es": "{seat} intercambia {region_a} (ahora posición {position_a}) "
        "y {region_b} (ahora posición {position_b}) y corona {crowned}.",
        "pt": "{seat} troca {region_a} (agora posição {position_a}) "
        "e {region_b} (agora posição {position_b}) e coroa {crowned}.",
    },
    "follower_summoned": {
        "en": "{seat} summons a {faction} follower from {region} to court.",
        "es": "{seat} convoca a la corte un seguidor {faction} de {region}.",
        "pt": "{seat} convoca para a corte um seguidor {faction} de {region}.",
    },
    "summon_skipped": {
        "en": "{seat} has no follower to summon.",
        "es": "{seat} no tiene ningún seguidor que convocar.",
        "pt": "{seat} não tem nenhum seguidor para convocar.",
    },
    "passed": {
        "en": "{seat} passes ({consecutive_passes} in a row).",
        "es": "{seat} pasa ({consecutive_passes} seguidos).",
        "pt": "{seat} passa ({consecutive_passes} seguidos).",
    },
    "passed:forced": {
        "en": "{seat} has no cards left and passes ({consecutive_passes} in a row).",
        "es": "{seat} no tiene cartas y pasa ({consecutive_passes} seguidos).",
        "pt": "{seat} não tem cartas e passa ({consecutive_passes} seguidos).",
    },
    "struggle_resolved": {
        "en": "Power struggle {order}, {region}: the {control} take control "
        "({saxon_tokens} Saxon tokens on the board).",
        "es": "Lucha de poder {order}, {region}: los {control} toman el control "
        "({saxon_tokens} fichas sajonas en el tablero).",
        "pt": "Luta pelo poder {order}, {region}: os {control} assumem o controle "
        "({saxon_tokens} tokens saxões no tabuleiro).",
    },
    "struggle_resolved+banner_region": {
        "en": " A Loyalist follower goes to {banner_region}.",
        "es": " Un seguidor leal a Mordred va a {banner_region}.",
        "pt": " Um Seguidor Lealista vai para {banner_region}.",
    },
    "game_ended": {
        "en": "Game over ({termination}): {winners} won",
        "es": "Fin del juego ({termination}): ganó {winners}",
        "pt": "Fim de jogo ({termination}): {winners} venceu",
    },
    "game_ended+ruling_faction": {
        "en": "; the {ruling_faction} rule",
        "es": "; gobiernan los {ruling_faction}",
        "pt": "; governam os {ruling_faction}",
    },
    "game_ended+tiebreaks": {
        "en": " (tie-breaks: {tiebreaks})",
        "es": " (desempates: {tiebreaks})",
        "pt": " (desempates: {tiebreaks})",
    },
    "game_ended+end": {"en": ".", "es": ".", "pt": "."},
}

_SUFFIXES: Mapping[str, Sequence[str]] = {
    "garrison": ("returning",),
    "struggle_resolved": ("banner_region",),
    "game_ended": ("ruling_faction", "tiebreaks"),
}
"""Kind -> the fields whose ``kind+field`` template is appended when set, in order."""


# --- rendering fields ------------------------------------------------------------------------

Render = Callable[[Any, str], str]
"""(one value of a field, language) -> its words."""


def _join(items: Sequence[str], lang: str) -> str:
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + f" {WORDS['and'][lang]} " + items[-1]


def _seat(seat: int, lang: str) -> str:
    return WORDS["seat"][lang].format(seat=seat)


def _termination(code: str, lang: str) -> str:
    return TERMINATIONS.get(code, {}).get(lang, code)


def _tiebreak(code: str, lang: str) -> str:
    return TIEBREAKS.get(code, {}).get(lang, code)


def _mordred(mordred: bool, lang: str) -> str:
    return WORDS["mordred"][lang] if mordred else ""


def _digits(value: Any, lang: str) -> str:
    return str(value)


_BY_FIELD: Mapping[str, Render] = {
    "seat": _seat,
    "winners": _seat,
    "termination": _termination,
    "tiebreaks": _tiebreak,
    "mordred": _mordred,
}
_BY_ENUM: Mapping[str, Render] = {
    "Region": region_name,
    "Faction": faction_name,
    "ActionCard": card_name,
    "RegionControl": control_name,
}


@cache
def _renderers(descriptor: Descriptor) -> tuple[tuple[str, Render, bool], ...]:
    """(field name, how to render one value, repeated?) for each scalar field of a message type."""
    renderers = []
    for field in descriptor.fields:
        if field.message_type is None:
            enum = field.enum_type.name if field.enum_type is not None else ""
            render = _BY_FIELD.get(field.name) or _BY_ENUM.get(enum) or _digits
            renderers.append((field.name, render, field.is_repeated))
    return tuple(renderers)


def _fields(message: Message, lang: str) -> dict[str, str]:
    """Every scalar field of ``message`` in words (lists joined); sub-messages are left out."""
    fields: dict[str, str] = {}
    for name, render, repeated in _renderers(message.DESCRIPTOR):
        value = getattr(message, name)
        if repeated:
            fields[name] = _join([render(v, lang) for v in value], lang)
        else:
            fields[name] = render(value, lang)
    return fields


def _is_set(message: Message, name: str) -> bool:
    field = message.DESCRIPTOR.fields_by_name[name]
    if field.has_presence:
        return message.HasField(name)
    return bool(getattr(message, name))


# --- sentences -------------------------------------------------------------------------------


def _template_keys(templates: Templates, kind: str, message: Message) -> list[str]:
    """The templates of ``message``'s sentence, in order."""
    base = kind
    if kind == "ambassador" and not (_is_set(message, "from_a") and _is_set(message, "from_b")):
        base = "ambassador:from_a" if _is_set(message, "from_a") else "ambassador:from_b"
    elif kind == "passed" and _is_set(message, "forced"):
        base = "passed:forced"
    keys = [base] + [f"{kind}+{f}" for f in _SUFFIXES.get(kind, ()) if _is_set(message, f)]
    return [*keys, f"{kind}+end"] if f"{kind}+end" in templates else keys


def _sentence(templates: Templates, kind: str | None, parent: Message, lang: str) -> str:
    lang = language(lang)
    if kind is None or kind not in templates:
        return templates["empty"][lang]
    message: Message = getattr(parent, kind)
    fields = _fields(message, lang)
    return "".join(
        templates[key][lang].format(**fields) for key in _template_keys(templates, kind, message)
    )


def describe_move(move: KingIsDeadMove, lang: str = "en") -> str:
    """A short sentence for a decision, e.g. 'Play the Garrison card'."""
    return _sentence(MOVE_TEMPLATES, move.WhichOneof("decision"), move, lang)


def describe_event(event: KingIsDeadEvent, lang: str = "en") -> str:
    """A short sentence for an event, e.g. 'Seat 1 plays Garrison (5 cards left).'"""
    return _sentence(EVENT_TEMPLATES, event.WhichOneof("kind"), event, lang)
