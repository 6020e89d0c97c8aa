"""The King Is Dead's words on the web pages, in English, Spanish and
Portuguese: the board's labels (``b.*``), the option (``opt.mordred``), the
endings (``end.*``: the outcome panel's "Ended by: ...", a phrase where the
sentences name the ending in a word, :data:`.names.TERMINATIONS`) and the
tie-breaks (``tb.*``: those of :mod:`.names`, the sentences' words), keyed as
the web client looks them up; :mod:`.web` puts them in
``/web/data/king_is_dead.json`` as ``words``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from throneroom.games.king_is_dead.names import TIEBREAKS
from throneroom.games.reader import Words

__all__ = ["WEB_WORDS"]


def _w(en: str, es: str, pt: str) -> Words:
    return {"en": en, "es": es, "pt": pt}


_ENDINGS: Final[Mapping[str, Words]] = {
    "control": _w("control of the regions", "control de las regiones", "controlo das regiões"),
    "invasion": _w("the Saxon invasion", "la invasión sajona", "a invasão saxã"),
    "loyalist": _w("Mordred's loyalists", "los leales a Mordred", "os lealistas de Mordred"),
}
"""How a game ended, as a phrase: one for each of :data:`.names.TERMINATIONS`."""

WEB_WORDS: Final[Mapping[str, Words]] = {
    **{f"end.{termination}": words for termination, words in _ENDINGS.items()},
    **{f"tb.{tiebreak}": words for tiebreak, words in TIEBREAKS.items()},
    "opt.mordred": _w("Mordred variant", "variante de Mordred", "variante de Mordred"),
    "b.court": _w("Court", "Corte", "Corte"),
    "b.crownOf": _w(
        "{name}: crown token of {seat}",
        "{name}: corona de {seat}",
        "{name}: coroa de {seat}",
    ),
    "b.loyalists": _w(
        " · Loyalist pool {count}",
        " · reserva de leales {count}",
        " · reserva de lealistas {count}",
    ),
    "b.pass": _w("Pass", "Pasar", "Passar"),
    "b.passes": _w(
        " · passes in a row {count}",
        " · pases seguidos {count}",
        " · passes seguidos {count}",
    ),
    "b.played": _w(
        "Played {count} (top: {top}) · in hand {hand}",
        "Jugadas {count} (arriba: {top}) · en mano {hand}",
        "Jogadas {count} (topo: {top}) · na mão {hand}",
    ),
    "b.regionCards": _w("Region cards", "Cartas de región", "Cartas de região"),
    "b.resolving": _w("Resolving {card}", "Resolviendo {card}", "A resolver {card}"),
    "b.saxons": _w(
        "Saxon tokens {count}/{max}",
        "Fichas sajonas {count}/{max}",
        "Fichas saxãs {count}/{max}",
    ),
    "b.supply": _w("Supply", "Reserva", "Reserva"),
    "b.team": _w(" · team {team}", " · equipo {team}", " · equipa {team}"),
    "b.toPlace": _w(" · {count} to place", " · {count} por colocar", " · {count} por colocar"),
    "b.yourHand": _w("Your hand", "Tu mano", "A tua mão"),
}
"""The page's key -> language -> words (``{name}`` marks filled by the page)."""
