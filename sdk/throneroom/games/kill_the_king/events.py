"""Kill the King's sentences for events, in English, Spanish and Portuguese,
for a reader (``throneroom.games.reader.Reader``), from the (redacted) event
alone; :mod:`.texts` re-exports :func:`describe_event` beside the moves'."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from throneroom.games.kill_the_king import words as w
from throneroom.games.kill_the_king.squares import square_name
from throneroom.games.reader import Reader
from throneroom.v1 import kill_the_king_pb2 as pb

__all__ = ["EVENTS", "describe_event"]

Event = pb.KillTheKingEvent
Words = Mapping[str, str]
Fields = Callable[[Any, Reader], dict[str, object]]


def _unit_fields(b: Any, r: Reader) -> dict[str, object]:
    return {"unit": b.unit}


def _counted(noun: str, number: int, r: Reader) -> str:
    return r.count(number, w.COUNTS[noun])


def _die(b: Any, r: Reader) -> dict[str, object]:
    result = ""
    if b.needed:
        success = {"en": "success", "es": "éxito", "pt": "sucesso"}
        failure = {"en": "failure", "es": "fallo", "pt": "falha"}
        words = {"en": ", target {n}: {o}", "es": ", objetivo {n}: {o}", "pt": ", alvo {n}: {o}"}
        result = r.word(words).format(n=b.needed, o=r.word(success if b.success else failure))
    return {"value": b.value, "purpose": w.word_of(w.DIE_PURPOSES, b.purpose, r), "result": result}


def _placed(b: Any, r: Reader) -> dict[str, object]:
    if b.HasField("unit"):
        return {"what": w.unit_name(b.unit.type, r), "square": square_name(b.unit.square)}
    return {}


def _ended(b: Any, r: Reader) -> dict[str, object]:
    how = w.ENDINGS.get(b.termination)
    winners = r.join([r.who(s) for s in b.winners])
    return {
        "how": f" ({r.word(how)})" if how else "",
        "side": w.word_of(w.SIDES, b.winning_side, r),
        "winners": winners,
    }


_SAY = "say"
_ACT = "act"

EVENTS: Mapping[str, tuple[str, Mapping[str, str], Fields]] = {
    "setup": (
        _SAY,
        {
            "en": "A game of {mode} for {players} is set up{advanced}",
            "es": "Partida de {mode} para {players}{advanced}",
            "pt": "Partida de {mode} para {players}{advanced}",
        },
        lambda b, r: {
            "mode": w.word_of(w.MODES, b.mode or pb.KILL_THE_KING_MODE_KILL_THE_KING, r),
            "players": _counted("players", b.num_seats, r),
            "advanced": r.word(
                {
                    "en": " (advanced units)",
                    "es": " (unidades avanzadas)",
                    "pt": " (unidades avançadas)",
                }
            )
            if b.advanced
            else "",
        },
    ),
    "die_rolled": (
        _ACT,
        {
            "en": "roll{s} {value} {purpose}{result}",
            "es": "saca{s} un {value} {purpose}{result}",
            "pt": "tira {value} {purpose}{result}",
        },
        _die,
    ),
    "side_chosen": (
        _ACT,
        {
            "en": "take{s} the side of the {side}",
            "es": "elige{s} el bando {side}",
            "pt": "escolhe o lado {side}",
        },
        lambda b, r: {"side": w.word_of(w.SIDES, b.side, r)},
    ),
    "unit_bought": (
        _ACT,
        {
            "en": "buy{s} {what} ({coins} left)",
            "es": "compra{s} {what} (saldo: {coins})",
            "pt": "compra {what} (saldo: {coins})",
        },
        lambda b, r: {"what": w.unit_name(b.unit, r), "coins": _counted("coins", b.coins_left, r)},
    ),
    "leader_chosen": (
        _ACT,
        {
            "en": "choose{s} {leader} as leader",
            "es": "elige{s} como líder {leader}",
            "pt": "escolhe {leader} como líder",
        },
        lambda b, r: {"leader": w.leader_name(b.leader, r)},
    ),
    "unit_placed": (
        _ACT,
        {
            "en": "place{s} {what} on {square}",
            "es": "coloca{s} {what} en {square}",
            "pt": "coloca {what} em {square}",
        },
        _placed,
    ),
    "placement_revealed": (
        _SAY,
        {
            "en": "The armies are revealed ({counters})",
            "es": "Se revelan los ejércitos ({counters})",
            "pt": "Os exércitos são revelados ({counters})",
        },
        lambda b, r: {"counters": _counted("counters", len(b.units), r)},
    ),
    "turn_started": (
        _ACT,
        {
            "en": "play{s} for the {side} (round {round})",
            "es": "juega{s} por el bando {side} (ronda {round})",
            "pt": "joga pelo lado {side} (rodada {round})",
        },
        lambda b, r: {"side": w.word_of(w.SIDES, b.side, r), "round": b.round},
    ),
    "phase_started": (
        _SAY,
        {
            "en": "The {phase} phase starts",
            "es": "Empieza la fase de {phase}",
            "pt": "Começa a fase de {phase}",
        },
        lambda b, r: {"phase": w.word_of(w.PHASES, b.phase, r)},
    ),
    "stepped": (
        _SAY,
        {
            "en": "Unit {unit} moves to {square}",
            "es": "La unidad {unit} pasa a {square}",
            "pt": "A unidade {unit} vai para {square}",
        },
        lambda b, r: {"unit": b.unit, "square": square_name(b.to_square)},
    ),
    "rotated": (
        _SAY,
        {
            "en": "Unit {unit} turns to face {facing}",
            "es": "La unidad {unit} gira hacia el {facing}",
            "pt": "A unidade {unit} vira para o {facing}",
        },
        lambda b, r: {"unit": b.unit, "facing": w.word_of(w.DIRECTIONS, b.facing, r)},
    ),
    "manned": (
        _SAY,
        {
            "en": "Unit {crew} mans (or boards) unit {engine}",
            "es": "La unidad {crew} maneja (o aborda) la unidad {engine}",
            "pt": "A unidade {crew} opera (ou embarca em) a unidade {engine}",
        },
        lambda b, r: {"crew": b.crew, "engine": b.engine},
    ),
    "unmanned": (
        _SAY,
        {
            "en": "Unit {crew} gets off unit {engine}",
            "es": "La unidad {crew} deja la unidad {engine}",
            "pt": "A unidade {crew} deixa a unidade {engine}",
        },
        lambda b, r: {"crew": b.crew, "engine": b.engine},
    ),
    "climbed": (
        _SAY,
        {
            "en": "Unit {unit} climbs onto the wall at {square}",
            "es": "La unidad {unit} sube al muro en {square}",
            "pt": "A unidade {unit} sobe na muralha em {square}",
        },
        lambda b, r: {"unit": b.unit, "square": square_name(b.wall)},
    ),
    "climb_prepared": (
        _SAY,
        {
            "en": "Unit {unit} gets ready to climb the wall at {square}",
            "es": "La unidad {unit} se prepara para subir al muro en {square}",
            "pt": "A unidade {unit} se prepara para subir na muralha em {square}",
        },
        lambda b, r: {"unit": b.unit, "square": square_name(b.wall)},
    ),
    "flipped": (
        _SAY,
        {
            "en": "Unit {unit} fights on foot as {swordsmen}",
            "es": "La unidad {unit} pasa a luchar a pie como {swordsmen}",
            "pt": "A unidade {unit} passa a lutar a pé como {swordsmen}",
        },
        lambda b, r: {"unit": b.unit, "swordsmen": w.unit_name(pb.UNIT_TYPE_SWORDSMEN, r)},
    ),
    "attacked": (
        _SAY,
        {
            "en": "Unit {unit} attacks {square} at {value}",
            "es": "La unidad {unit} ataca {square} con {value}",
            "pt": "A unidade {unit} ataca {square} com {value}",
        },
        lambda b, r: {"unit": b.unit, "square": square_name(b.target), "value": b.value},
    ),
    "unit_saved": (
        _SAY,
        {
            "en": "Unit {unit} saves",
            "es": "La unidad {unit} se salva",
            "pt": "A unidade {unit} se salva",
        },
        _unit_fields,
    ),
    "unit_killed": (
        _SAY,
        {
            "en": "Unit {unit} is killed ({cause})",
            "es": "La unidad {unit} muere ({cause})",
            "pt": "A unidade {unit} morre ({cause})",
        },
        lambda b, r: {"unit": b.unit, "cause": w.word_of(w.CAUSES, b.cause, r)},
    ),
    "wall_destroyed": (
        _SAY,
        {
            "en": "The wall at {square} falls",
            "es": "Cae el muro de {square}",
            "pt": "A muralha em {square} cai",
        },
        lambda b, r: {"square": square_name(b.square)},
    ),
    "gate_destroyed": (
        _SAY,
        {
            "en": "The gate at {square} is destroyed",
            "es": "La puerta de {square} queda destruida",
            "pt": "O portão em {square} é destruído",
        },
        lambda b, r: {"square": square_name(b.square)},
    ),
    "gate_control_changed": (
        _SAY,
        {
            "en": "The {side} controls the gate at {square}",
            "es": "El {side} controla la puerta de {square}",
            "pt": "O {side} controla o portão em {square}",
        },
        lambda b, r: {
            "side": w.word_of(w.SIDES, b.controlled_by, r),
            "square": square_name(b.square),
        },
    ),
    "door_destroyed": (
        _SAY,
        {
            "en": "The King's Door is destroyed",
            "es": "La Puerta del Rey queda destruida",
            "pt": "A Porta do Rei é destruída",
        },
        lambda b, r: {},
    ),
    "followed_up": (
        _SAY,
        {"en": "Unit {unit} {how}", "es": "La unidad {unit} {how}", "pt": "A unidade {unit} {how}"},
        lambda b, r: {
            "unit": b.unit,
            "how": r.word(
                {"en": "charges on", "es": "sigue cargando", "pt": "continua a carga"}
                if b.advanced
                else {"en": "holds its ground", "es": "se mantiene", "pt": "se mantém"}
            ),
        },
    ),
    "panicked": (
        _SAY,
        {
            "en": "Unit {unit} panics and runs {direction}",
            "es": "La unidad {unit} entra en pánico y huye hacia el {direction}",
            "pt": "A unidade {unit} entra em pânico e foge para o {direction}",
        },
        lambda b, r: {"unit": b.unit, "direction": w.word_of(w.DIRECTIONS, b.direction, r)},
    ),
    "pigs_exploded": (
        _SAY,
        {
            "en": "The Flaming Pigs (unit {unit}) explode",
            "es": "Los Cerdos en llamas (unidad {unit}) explotan",
            "pt": "Os Porcos em chamas (unidade {unit}) explodem",
        },
        _unit_fields,
    ),
    "movement_locked": (
        _ACT,
        {
            "en": "cannot move next turn: the Ranger is dead",
            "es": "no puede{s} mover el próximo turno: el Explorador ha muerto",
            "pt": "não pode se mover no próximo turno: o Batedor morreu",
        },
        lambda b, r: {},
    ),
    "defence_penalty": (
        _SAY,
        {
            "en": "The {side} defends at -1 this turn: its Knight is dead",
            "es": "El {side} defiende con -1 este turno: su Caballero ha muerto",
            "pt": "O {side} defende com -1 neste turno: seu Cavaleiro morreu",
        },
        lambda b, r: {"side": w.word_of(w.SIDES, b.side, r)},
    ),
    "reinforcements_due": (
        _ACT,
        {
            "en": "get{s} reinforcements: {cavalry} and units worth {coins}",
            "es": "recibe{s} refuerzos: {cavalry} y unidades por valor de {coins}",
            "pt": "recebe reforços: {cavalry} e unidades no valor de {coins}",
        },
        lambda b, r: {
            "cavalry": _counted("cavalry", b.cavalry, r),
            "coins": _counted("coins", b.value, r),
        },
    ),
    "reinforced": (
        _ACT,
        {
            "en": "bring{s} in {what} on {square}",
            "es": "hace{s} entrar {what} en {square}",
            "pt": "traz {what} para {square}",
        },
        lambda b, r: {"what": w.unit_name(b.unit.type, r), "square": square_name(b.unit.square)},
    ),
    "game_ended": (
        _SAY,
        {
            "en": "Game over{how}: victory for the {side} ({winners})",
            "es": "Fin de la partida{how}: victoria para el {side} ({winners})",
            "pt": "Fim de jogo{how}: vitória para o {side} ({winners})",
        },
        _ended,
    ),
}
"""Event kind -> (``act`` on the event's ``seat`` or ``say``, the template, its fields)."""

_HIDDEN_PLACEMENT: Words = {
    "en": "place{s} a counter face down",
    "es": "coloca{s} una ficha boca abajo",
    "pt": "coloca uma ficha virada para baixo",
}
_NOTHING: Words = {"en": "Nothing happens", "es": "No pasa nada", "pt": "Nada acontece"}


def describe_event(
    event: Event, *, lang: str = "en", viewer: int | None = None, names: Sequence[str] = ()
) -> str:
    """One sentence for an event, as ``viewer`` reads it."""
    r = Reader(lang, viewer, names)
    kind = event.WhichOneof("kind")
    if kind is None or kind not in EVENTS:
        return r.say(_NOTHING)
    how, template, fields = EVENTS[kind]
    body = getattr(event, kind)
    if kind == "unit_placed" and not body.HasField("unit"):
        template = _HIDDEN_PLACEMENT
    values = fields(body, r)
    if how == _SAY:
        return r.say(template, **values)
    return r.act(int(body.seat), template, **values)
