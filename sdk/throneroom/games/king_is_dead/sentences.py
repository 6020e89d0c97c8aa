"""The King Is Dead for clients: one sentence per move and per event, in
English, Spanish and Portuguese.

Sentences are data: MOVE_TEMPLATES and EVENT_TEMPLATES hold, per move kind
(the ``decision`` oneof of KingIsDeadMove) and per event kind (the ``kind``
oneof of KingIsDeadEvent), one ``str.format`` template per language. The
placeholders are the field names of that kind's message, each rendered in the
language by its type: a Region, Faction, ActionCard or RegionControl by its
name, a seat as "you" for the viewer or by name (``throneroom.games.reader``),
a count with its noun ("1 card"), a list joined as "A, B and C", a number as
digits. A move's template is a predicate whose subject is the mover (none: an
instruction, "Play the Garrison card"); so is the first template of an event
kind of _SUBJECT::

    "card_played": {"en": "play{s} {card} ({cards_left} left).", ...}

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
    region_name,
)
from throneroom.games.reader import Reader
from throneroom.v1.king_is_dead_pb2 import KingIsDeadEvent, KingIsDeadMove

Templates = Mapping[str, Mapping[str, str]]
"""Template key -> language -> ``str.format`` template."""

WORDS: Templates = {
    "mordred": {
        "en": " (Mordred variant)",
        "es": " (variante Mordred)",
        "pt": " (Variante Mordred)",
    },
}

MOVE_TEMPLATES: Templates = {
    "empty": {
        "en": "make{s} an empty move",
        "es": "hace{s} un movimiento vacío",
        "pt": "faz um movimento vazio",
    },
    "pass_turn": {"en": "pass{es}", "es": "pasa{s}", "pt": "passa"},
    "play_card": {
        "en": "play{s} the {card} card",
        "es": "juega{s} la carta {card}",
        "pt": "joga a carta {card}",
    },
    "crown": {
        "en": "resolve{s} the Crown: swap {region_a} and {region_b}, crown token on {crowned}",
        "es": "resuelve{s} la Corona: intercambiar {region_a} y {region_b}, "
        "ficha de corona en {crowned}",
        "pt": "resolve a Coroa: trocar {region_a} e {region_b}, token de coroa em {crowned}",
    },
    "garrison": {
        "en": "resolve{s} the Garrison: {outgoing} from {from_region} to {to_region}",
        "es": "resuelve{s} la Guarnición: {outgoing} de {from_region} a {to_region}",
        "pt": "resolve a Guarnição: {outgoing} de {from_region} para {to_region}",
    },
    "garrison+returning": {
        "en": ", {returning} back to {from_region}",
        "es": ", {returning} de vuelta a {from_region}",
        "pt": ", {returning} de volta para {from_region}",
    },
    "ambassador": {
        "en": "resolve{s} the Ambassador: {from_a} from {region_a} for {from_b} from {region_b}",
        "es": "resuelve{s} el Embajador: {from_a} de {region_a} por {from_b} de {region_b}",
        "pt": "resolve o Embaixador: {from_a} de {region_a} por {from_b} de {region_b}",
    },
    "ambassador:from_a": {
        "en": "resolve{s} the Ambassador: {from_a} from {region_a} to {region_b}, "
        "exchanged with nothing",
        "es": "resuelve{s} el Embajador: {from_a} de {region_a} a {region_b}, "
        "intercambiado por nada",
        "pt": "resolve o Embaixador: {from_a} de {region_a} para {region_b}, trocado por nada",
    },
    "ambassador:from_b": {
        "en": "resolve{s} the Ambassador: {from_b} from {region_b} to {region_a}, "
        "exchanged with nothing",
        "es": "resuelve{s} el Embajador: {from_b} de {region_b} a {region_a}, "
        "intercambiado por nada",
        "pt": "resolve o Embaixador: {from_b} de {region_b} para {region_a}, trocado por nada",
    },
    "settle": {
        "en": "resolve{s} the Settlers: the follower goes to {region}",
        "es": "resuelve{s} el Asentamiento: el seguidor va a {region}",
        "pt": "resolve os Assentamentos: o seguidor vai para {region}",
    },
    "place": {
        "en": "place{s} a follower in {region}",
        "es": "coloca{s} un seguidor en {region}",
        "pt": "coloca um seguidor em {region}",
    },
    "summon": {
        "en": "summon{s} a {faction} follower from {region} to court",
        "es": "convoca{s} a la corte un seguidor {faction} de {region}",
        "pt": "convoca para a corte um seguidor {faction} de {region}",
    },
}
"""Move kind -> its predicate (``throneroom.games.reader.Reader.act``), the mover its subject."""

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
        "en": "play{s} {card} ({cards_left} left).",
        "es": "juega{s} {card} ({cards_left} en la mano).",
        "pt": "joga {card} ({cards_left} na mão).",
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
        "en": "swap{s} {region_a} (now position {position_a}) "
        "and {region_b} (now position {position_b}) and crown{s} {crowned}.",
        "es": "intercambia{s} {region_a} (ahora posición {position_a}) "
        "y {region_b} (ahora posición {position_b}) y corona{s} {crowned}.",
        "pt": "troca {region_a} (agora posição {position_a}) "
        "e {region_b} (agora posição {position_b}) e coroa {crowned}.",
    },
    "follower_summoned": {
        "en": "summon{s} a {faction} follower from {region} to court.",
        "es": "convoca{s} a la corte un seguidor {faction} de {region}.",
        "pt": "convoca para a corte um seguidor {faction} de {region}.",
    },
    "summon_skipped": {
        "en": "{has} no follower to summon.",
        "es": "no tiene{s} ningún seguidor que convocar.",
        "pt": "não tem nenhum seguidor para convocar.",
    },
    "passed": {
        "en": "pass{es} ({consecutive_passes} in a row).",
        "es": "pasa{s} ({consecutive_passes} seguidos).",
        "pt": "passa ({consecutive_passes} seguidos).",
    },
    "passed:forced": {
        "en": "{has} no cards left and pass{es} ({consecutive_passes} in a row).",
        "es": "no tiene{s} cartas y pasa{s} ({consecutive_passes} seguidos).",
        "pt": "não tem cartas e passa ({consecutive_passes} seguidos).",
    },
    "struggle_resolved": {
        "en": "Power struggle {order}, {region}: the {control} take control "
        "({saxon_tokens} on the board).",
        "es": "Lucha de poder {order}, {region}: los {control} toman el control "
        "({saxon_tokens} en el tablero).",
        "pt": "Luta pelo poder {order}, {region}: os {control} assumem o controle "
        "({saxon_tokens} no tabuleiro).",
    },
    "struggle_resolved+banner_region": {
        "en": " A Loyalist follower goes to {banner_region}.",
        "es": " Un seguidor leal a Mordred va a {banner_region}.",
        "pt": " Um Seguidor Lealista vai para {banner_region}.",
    },
    "game_ended": {
        "en": "Game over ({termination}): victory for {winners}",
        "es": "Fin del juego ({termination}): victoria para {winners}",
        "pt": "Fim de jogo ({termination}): vitória para {winners}",
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

Render = Callable[[Any, Reader], str]
"""(one value of a field, its reader) -> its words."""

_COUNTED: Mapping[str, Mapping[str, tuple[str, str]]] = {
    "cards_left": {
        "en": ("card", "cards"),
        "es": ("carta", "cartas"),
        "pt": ("carta", "cartas"),
    },
    "saxon_tokens": {
        "en": ("Saxon token", "Saxon tokens"),
        "es": ("ficha sajona", "fichas sajonas"),
        "pt": ("token saxão", "tokens saxões"),
    },
}
"""Fields that count something, with its noun (singular, plural) per language."""


def _counted(field: str) -> Render:
    return lambda value, r: r.count(int(value), _COUNTED[field])


def _termination(code: str, r: Reader) -> str:
    return TERMINATIONS[code][r.lang] if code in TERMINATIONS else code.replace("_", " ")


def _tiebreak(code: str, r: Reader) -> str:
    return TIEBREAKS[code][r.lang] if code in TIEBREAKS else code.replace("_", " ")


def _mordred(mordred: bool, r: Reader) -> str:
    return WORDS["mordred"][r.lang] if mordred else ""


def _digits(value: Any, r: Reader) -> str:
    return str(value)


def _enum(name: Callable[[int, str], str]) -> Render:
    return lambda value, r: name(value, r.lang)


_BY_FIELD: Mapping[str, Render] = {
    "seat": lambda seat, r: r.who(seat),
    "winners": lambda seat, r: r.obj(seat),
    "termination": _termination,
    "tiebreaks": _tiebreak,
    "mordred": _mordred,
    **{field: _counted(field) for field in _COUNTED},
}
_BY_ENUM: Mapping[str, Render] = {
    "Region": _enum(region_name),
    "Faction": _enum(faction_name),
    "ActionCard": _enum(card_name),
    "RegionControl": _enum(control_name),
}
_SUBJECT: Mapping[str, str] = {
    "card_played": "seat",
    "crown_placed": "seat",
    "follower_summoned": "seat",
    "summon_skipped": "seat",
    "passed": "seat",
}
"""Event kinds whose template is a predicate, and the field of its subject."""


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


def _fields(message: Message, r: Reader) -> dict[str, str]:
    """Every scalar field of ``message`` in words (lists joined); sub-messages are left out."""
    fields: dict[str, str] = {}
    for name, render, repeated in _renderers(message.DESCRIPTOR):
        value = getattr(message, name)
        if repeated:
            fields[name] = r.join([render(v, r) for v in value])
        else:
            fields[name] = render(value, r)
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


def _sentence(
    templates: Templates, kind: str | None, parent: Message, r: Reader, subject: int | None
) -> str:
    """The sentence of ``parent``'s ``kind``; its first template is a predicate
    of ``subject`` when the kind has one (every move, the events of _SUBJECT)."""
    if kind is None or kind not in templates:
        return (
            r.act(subject, templates["empty"])
            if templates is MOVE_TEMPLATES
            else (r.say(templates["empty"]))
        )
    message: Message = getattr(parent, kind)
    fields = _fields(message, r)
    first, *rest = _template_keys(templates, kind, message)
    if templates is MOVE_TEMPLATES:
        text = r.act(subject, templates[first], **fields)
    elif kind in _SUBJECT:
        text = r.act(int(getattr(message, _SUBJECT[kind])), templates[first], **fields)
    else:
        text = r.say(templates[first], **fields)
    return text + "".join(templates[key][r.lang].format(**fields) for key in rest)


def describe_move(
    move: KingIsDeadMove,
    lang: str = "en",
    *,
    mover: int | None = None,
    viewer: int | None = None,
    names: Sequence[str] = (),
) -> str:
    """A short sentence for a decision, e.g. 'Play the Garrison card' (no
    mover), 'You play the Garrison card' (the viewer's), 'Ana plays ...'."""
    reader = Reader(lang, viewer, names)
    return _sentence(MOVE_TEMPLATES, move.WhichOneof("decision"), move, reader, mover)


def describe_event(
    event: KingIsDeadEvent,
    lang: str = "en",
    *,
    viewer: int | None = None,
    names: Sequence[str] = (),
) -> str:
    """A short sentence for an event, e.g. 'Seat 1 plays Garrison (5 cards left).'"""
    reader = Reader(lang, viewer, names)
    return _sentence(EVENT_TEMPLATES, event.WhichOneof("kind"), event, reader, None)
