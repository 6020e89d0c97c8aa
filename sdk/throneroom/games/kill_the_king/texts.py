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
from throneroom.games.kill_the_king.squares import square_name
from throneroom.games.reader import Reader
from throneroom.v1 import kill_the_king_pb2 as pb

__all__ = ["EVENTS", "MOVES", "describe_event", "describe_move", "square_name"]

Move = pb.KillTheKingMove
Event = pb.KillTheKingEvent
Words = Mapping[str, str]
Fields = Callable[[Any, Reader], dict[str, object]]


def unit_name(unit: int, r: Reader, *, definite: bool = False) -> str:
    """A unit type in words, with its article: "an Archer", "Spearmen", "the Ranger"."""
    forms = w.UNIT_NAMES.get(unit)
    if forms is None:
        return f"unit type {unit}"
    return (forms.get(r.lang) or forms["en"])[definite]


def _word(table: Mapping[int, Words], value: int, r: Reader) -> str:
    words = table.get(value)
    return r.word(words) if words else "?"


def _leader(unit: int, r: Reader) -> str:
    """A leader after Spanish's personal "a" (al Explorador), else with its article."""
    name = unit_name(unit, r, definite=True)
    return "al " + name.removeprefix("el ") if r.lang == "es" and name.startswith("el ") else name


def _placing(body: Any, r: Reader) -> dict[str, object]:
    return {
        "unit": body.unit,
        "square": square_name(body.square),
        "facing": _word(w.DIRECTIONS, body.facing, r),
    }


MOVES: Mapping[str, tuple[Mapping[str, str], Fields]] = {
    "choose_side": (
        {
            "en": "take{s} the side of the {side}",
            "es": "elige{s} el bando {side}",
            "pt": "escolhe o lado {side}",
        },
        lambda b, r: {"side": _word(w.SIDES, b.side, r)},
    ),
    "buy": (
        {"en": "buy{s} {unit}", "es": "compra{s} {unit}", "pt": "compra {unit}"},
        lambda b, r: {"unit": unit_name(b.unit, r)},
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
        lambda b, r: {"leader": _leader(b.leader, r)},
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
        lambda b, r: {**_placing(b, r), "kind": unit_name(b.unit, r)},
    ),
    "step": (
        {
            "en": "move{s} unit {unit} {direction}",
            "es": "mueve{s} la unidad {unit} hacia el {direction}",
            "pt": "move a unidade {unit} para o {direction}",
        },
        lambda b, r: {"unit": b.unit, "direction": _word(w.DIRECTIONS, b.direction, r)},
    ),
    "rotate": (
        {
            "en": "turn{s} unit {unit} to face {facing}",
            "es": "gira{s} la unidad {unit} hacia el {facing}",
            "pt": "vira a unidade {unit} para o {facing}",
        },
        lambda b, r: {"unit": b.unit, "facing": _word(w.DIRECTIONS, b.facing, r)},
    ),
    "climb": (
        {
            "en": "climb{s} the wall to the {direction} with unit {unit}",
            "es": "sube{s} la unidad {unit} al muro, hacia el {direction}",
            "pt": "sobe a unidade {unit} na muralha, para o {direction}",
        },
        lambda b, r: {"unit": b.unit, "direction": _word(w.DIRECTIONS, b.direction, r)},
    ),
    "prepare_climb": (
        {
            "en": "get{s} unit {unit} ready to climb the wall to the {direction}",
            "es": "prepara{s} la unidad {unit} para subir al muro, hacia el {direction}",
            "pt": "prepara a unidade {unit} para subir na muralha, para o {direction}",
        },
        lambda b, r: {"unit": b.unit, "direction": _word(w.DIRECTIONS, b.direction, r)},
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


# --- events ----------------------------------------------------------------------------------


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
    return {"value": b.value, "purpose": _word(w.DIE_PURPOSES, b.purpose, r), "result": result}


def _placed(b: Any, r: Reader) -> dict[str, object]:
    if b.HasField("unit"):
        return {"what": unit_name(b.unit.type, r), "square": square_name(b.unit.square)}
    return {}


def _ended(b: Any, r: Reader) -> dict[str, object]:
    how = w.ENDINGS.get(b.termination)
    winners = r.join([r.who(s) for s in b.winners])
    return {
        "how": f" ({r.word(how)})" if how else "",
        "side": _word(w.SIDES, b.winning_side, r),
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
            "mode": _word(w.MODES, b.mode or pb.KILL_THE_KING_MODE_KILL_THE_KING, r),
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
        lambda b, r: {"side": _word(w.SIDES, b.side, r)},
    ),
    "unit_bought": (
        _ACT,
        {
            "en": "buy{s} {what} ({coins} left)",
            "es": "compra{s} {what} (saldo: {coins})",
            "pt": "compra {what} (saldo: {coins})",
        },
        lambda b, r: {"what": unit_name(b.unit, r), "coins": _counted("coins", b.coins_left, r)},
    ),
    "leader_chosen": (
        _ACT,
        {
            "en": "choose{s} {leader} as leader",
            "es": "elige{s} como líder {leader}",
            "pt": "escolhe {leader} como líder",
        },
        lambda b, r: {"leader": _leader(b.leader, r)},
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
        lambda b, r: {"side": _word(w.SIDES, b.side, r), "round": b.round},
    ),
    "phase_started": (
        _SAY,
        {
            "en": "The {phase} phase starts",
            "es": "Empieza la fase de {phase}",
            "pt": "Começa a fase de {phase}",
        },
        lambda b, r: {"phase": _word(w.PHASES, b.phase, r)},
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
        lambda b, r: {"unit": b.unit, "facing": _word(w.DIRECTIONS, b.facing, r)},
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
        lambda b, r: {"unit": b.unit, "swordsmen": unit_name(pb.UNIT_TYPE_SWORDSMEN, r)},
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
        lambda b, r: {"unit": b.unit, "cause": _word(w.CAUSES, b.cause, r)},
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
            "side": _word(w.SIDES, b.controlled_by, r),
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
        lambda b, r: {"unit": b.unit, "direction": _word(w.DIRECTIONS, b.direction, r)},
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
        lambda b, r: {"side": _word(w.SIDES, b.side, r)},
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
        lambda b, r: {"what": unit_name(b.unit.type, r), "square": square_name(b.unit.square)},
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
