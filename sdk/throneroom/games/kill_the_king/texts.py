"""Sentences for Kill the King's moves and events, in English, Spanish and
Portuguese, for a reader (``throneroom.games.reader.Reader``: "you" for the
viewer's own, names for the others), from the message alone (no state)::

    >>> from throneroom.v1 import kill_the_king_pb2 as pb
    >>> describe_move(pb.KillTheKingMove(step=pb.KillTheKingMove.Step(unit=4, direction=1)))
    'Move unit 4 north'
    >>> describe_move(pb.KillTheKingMove(buy=pb.KillTheKingMove.Buy(unit=1)), mover=0, viewer=0)
    'You buy an Archer'
    >>> describe_move(pb.KillTheKingMove(buy=pb.KillTheKingMove.Buy(unit=1)), mover=0, lang="es")
    'Asiento 0 compra un Arquero'

A move's table entry is a predicate whose subject is the mover (none: an
instruction); an event's is a sentence, or a predicate of the event's ``seat``.
Squares are spelled as the notation spells them (:func:`.squares.square_name`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from throneroom.games.kill_the_king import words as w
from throneroom.games.kill_the_king.events import EVENTS, describe_event
from throneroom.games.kill_the_king.squares import square_name
from throneroom.games.reader import Reader
from throneroom.v1 import kill_the_king_pb2 as pb

__all__ = ["EVENTS", "MOVES", "describe_event", "describe_move", "square_name"]

Move = pb.KillTheKingMove
Event = pb.KillTheKingEvent
Words = Mapping[str, str]
Fields = Callable[[Any, Reader], dict[str, object]]


def _placing(body: Any, r: Reader) -> dict[str, object]:
    return {
        "unit": body.unit,
        "square": square_name(body.square),
        "facing": w.word_of(w.DIRECTIONS, body.facing, r),
    }


MOVES: Mapping[str, tuple[Mapping[str, str], Fields]] = {
    "choose_side": (
        {
            "en": "take{s} the side of the {side}",
            "es": "elige{s} el bando {side}",
            "pt": "escolhe o lado {side}",
        },
        lambda b, r: {"side": w.word_of(w.SIDES, b.side, r)},
    ),
    "buy": (
        {"en": "buy{s} {unit}", "es": "compra{s} {unit}", "pt": "compra {unit}"},
        lambda b, r: {"unit": w.unit_name(b.unit, r)},
    ),
    "buy_suggested_army": (
        {
            "en": "buy{s} the suggested army",
            "es": "compra{s} el ejército sugerido",
            "pt": "compra o exército sugerido",
        },
        lambda b, r: {},
    ),
    "choose_leader": (
        {
            "en": "choose{s} {leader} as leader",
            "es": "elige{s} como líder {leader}",
            "pt": "escolhe {leader} como líder",
        },
        lambda b, r: {"leader": w.leader_name(b.leader, r)},
    ),
    "place": (
        {
            "en": "place{s} unit {unit} on {square} facing {facing}",
            "es": "coloca{s} la unidad {unit} en {square} mirando al {facing}",
            "pt": "coloca a unidade {unit} em {square} virada para o {facing}",
        },
        _placing,
    ),
    "reinforce": (
        {
            "en": "bring{s} in {kind} on {square} facing {facing}",
            "es": "hace{s} entrar {kind} en {square} mirando al {facing}",
            "pt": "traz {kind} para {square} virada para o {facing}",
        },
        lambda b, r: {**_placing(b, r), "kind": w.unit_name(b.unit, r)},
    ),
    "step": (
        {
            "en": "move{s} unit {unit} {direction}",
            "es": "mueve{s} la unidad {unit} hacia el {direction}",
            "pt": "move a unidade {unit} para o {direction}",
        },
        lambda b, r: {"unit": b.unit, "direction": w.word_of(w.DIRECTIONS, b.direction, r)},
    ),
    "rotate": (
        {
            "en": "turn{s} unit {unit} to face {facing}",
            "es": "gira{s} la unidad {unit} hacia el {facing}",
            "pt": "vira a unidade {unit} para o {facing}",
        },
        lambda b, r: {"unit": b.unit, "facing": w.word_of(w.DIRECTIONS, b.facing, r)},
    ),
    "climb": (
        {
            "en": "climb{s} the wall to the {direction} with unit {unit}",
            "es": "sube{s} la unidad {unit} al muro, hacia el {direction}",
            "pt": "sobe a unidade {unit} na muralha, para o {direction}",
        },
        lambda b, r: {"unit": b.unit, "direction": w.word_of(w.DIRECTIONS, b.direction, r)},
    ),
    "prepare_climb": (
        {
            "en": "get{s} unit {unit} ready to climb the wall to the {direction}",
            "es": "prepara{s} la unidad {unit} para subir al muro, hacia el {direction}",
            "pt": "prepara a unidade {unit} para subir na muralha, para o {direction}",
        },
        lambda b, r: {"unit": b.unit, "direction": w.word_of(w.DIRECTIONS, b.direction, r)},
    ),
    "dismount": (
        {
            "en": "dismount{s} unit {unit}",
            "es": "desmonta{s} la unidad {unit}",
            "pt": "desmonta a unidade {unit}",
        },
        lambda b, r: {"unit": b.unit},
    ),
    "attack": (
        {
            "en": "attack{s} {target}{level} with unit {unit}",
            "es": "ataca{s} {target}{level} con la unidad {unit}",
            "pt": "ataca {target}{level} com a unidade {unit}",
        },
        lambda b, r: {
            "unit": b.unit,
            "target": square_name(b.target),
            "level": r.word(w.LEVELS[b.level]) if b.level in w.LEVELS else "",
        },
    ),
    "follow_up": (
        {
            "en": "{choice}",
            "es": "{choice}",
            "pt": "{choice}",
        },
        lambda b, r: {"choice": _follow_up(b.advance, r)},
    ),
    "disband": (
        {
            "en": "remove{s} unit {unit} (the Treasurer is dead)",
            "es": "retira{s} la unidad {unit} (el Tesorero ha muerto)",
            "pt": "retira a unidade {unit} (o Tesoureiro morreu)",
        },
        lambda b, r: {"unit": b.unit},
    ),
    "end_phase": (
        {"en": "end{s} the phase", "es": "termina{s} la fase", "pt": "termina a fase"},
        lambda b, r: {},
    ),
}
"""Move kind -> (its predicate, its fields in words)."""

_EMPTY_MOVE: Words = {
    "en": "make{s} an empty move",
    "es": "hace{s} un movimiento vacío",
    "pt": "faz um movimento vazio",
}


def _follow_up(advance: bool, r: Reader) -> str:
    """Filled into the follow-up's predicate before its verb endings are."""
    if advance:
        return r.word(
            {
                "en": "advance{s} and charge{s} again",
                "es": "avanza{s} y carga{s} de nuevo",
                "pt": "avança e carrega de novo",
            }
        )
    return r.word(
        {"en": "stay{s} put", "es": "permanece{s} donde está{s}", "pt": "permanece no lugar"}
    )


def describe_move(
    move: Move,
    *,
    mover: int | None = None,
    lang: str = "en",
    viewer: int | None = None,
    names: Sequence[str] = (),
) -> str:
    """One sentence for a decision made (or to be made) by ``mover``."""
    r = Reader(lang, viewer, names)
    kind = move.WhichOneof("decision")
    if kind is None or kind not in MOVES:
        return r.act(mover, _EMPTY_MOVE)
    predicate, fields = MOVES[kind]
    values = fields(getattr(move, kind), r)
    if kind == "follow_up":  # the choice holds the verbs: fill it in first
        return r.act(mover, {r.lang: str(values["choice"])})
    return r.act(mover, predicate, **values)
