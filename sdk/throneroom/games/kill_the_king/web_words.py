"""Kill the King's words on the web pages, in English, Spanish and Portuguese:
the board's labels (``b.*``), the sides (``side.SIDE_*``), the modes (``mode.*``
in the lobby's choices and rows, ``modeName.*`` on the board), the options
(``opt.*``) and the endings (``end.*``). Names and endings are those of
:mod:`.words` (the sentences' words), keyed as the web client looks them up;
:mod:`.web` puts them in ``/web/data/kill_the_king.json`` as ``words``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from throneroom.games.kill_the_king import words as w
from throneroom.games.kill_the_king.enums import Mode
from throneroom.games.kill_the_king.modes import MODES as MODE_SPECS
from throneroom.games.reader import LANGUAGES, Words
from throneroom.v1 import kill_the_king_pb2 as pb

__all__ = ["WEB_WORDS"]


def _w(en: str, es: str, pt: str) -> Words:
    return {"en": en, "es": es, "pt": pt}


def _name(enum: Any, value: int) -> str:
    """The proto name of an enum value (``SIDE_ATTACKER``), as views spell it in JSON."""
    return str(enum.Name(value))


_GIGA_NOTE: Final = _w(
    " (two boards, 2-4 players in two teams)",
    " (dos tableros, 2-4 jugadores en dos equipos)",
    " (dois tabuleiros, 2-4 jogadores em duas equipas)",
)


def _modes() -> dict[str, Words]:
    """``mode.<MODE>`` (the lobby's: a Giga mode says what it is) and
    ``modeName.<MODE>`` (the board's title)."""
    out: dict[str, Words] = {}
    for mode, name in w.MODES.items():
        proto = _name(pb.KillTheKingMode, mode)
        giga = MODE_SPECS[Mode(mode)].giga
        out[f"mode.{proto}"] = {
            lang: name[lang] + (_GIGA_NOTE[lang] if giga else "") for lang in LANGUAGES
        }
        out[f"modeName.{proto}"] = name
    return out


WEB_WORDS: Final[Mapping[str, Words]] = {
    **{f"end.{termination}": words for termination, words in w.ENDINGS.items()},
    **{f"side.{_name(pb.Side, side)}": words for side, words in w.SIDES.items()},
    **_modes(),
    "opt.mode": _w("mode", "modo", "modo"),
    "opt.advanced": _w("advanced units", "unidades avanzadas", "unidades avançadas"),
    "b.advanced": _w(" (advanced)", " (avanzado)", " (avançado)"),
    "b.coins": _w(" · {count} coins", " · {count} monedas", " · {count} moedas"),
    "b.destroyed": _w("destroyed", "destruida", "destruído"),
    "b.dice": _w("Dice of this move", "Dados de esta jugada", "Dados desta jogada"),
    "b.door": _w("King's Door: {state}", "Puerta del Rey: {state}", "Porta do Rei: {state}"),
    "b.doors": _w("King's Doors: {state}", "Puertas del Rey: {state}", "Portas do Rei: {state}"),
    "b.gate": _w("Gate{which}: {state}", "Puerta{which}: {state}", "Portão{which}: {state}"),
    "b.heldBy": _w("held by the {side}", "en manos del {side}", "nas mãos do {side}"),
    "b.hiddenUnit": _w("hidden unit", "unidad oculta", "unidade oculta"),
    "b.inReserve": _w(
        "{name} #{id} in reserve",
        "{name} #{id} en reserva",
        "{name} #{id} na reserva",
    ),
    "b.locked": _w(" · movement locked", " · movimiento bloqueado", " · movimento bloqueado"),
    "b.noDice": _w("No dice this move", "Sin dados en esta jugada", "Sem dados nesta jogada"),
    "b.noSide": _w("side not chosen", "bando sin elegir", "lado por escolher"),
    "b.reserves": _w("Reserves", "Reservas", "Reservas"),
    "b.round": _w(
        "Round {round} of {rounds} · {phase}",
        "Ronda {round} de {rounds} · {phase}",
        "Ronda {round} de {rounds} · {phase}",
    ),
    "b.standing": _w("standing", "en pie", "de pé"),
    "b.teamOf": _w(" (team {team})", " (equipo {team})", " (equipa {team})"),
    "b.turn": _w("Turn: {side}", "Turno: {side}", "Vez: {side}"),
    "b.units": _w(
        "Units on the field {count} · dead {dead}",
        "Unidades en el campo {count} · muertas {dead}",
        "Unidades no campo {count} · mortas {dead}",
    ),
    "b.yourTeams": _w(" (your team's)", " (de tu equipo)", " (da tua equipa)"),
    "b.yours": _w(" (yours)", " (tuya)", " (tua)"),
}
"""The page's key -> language -> words (``{name}`` marks filled by the page)."""
