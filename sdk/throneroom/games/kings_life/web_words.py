"""King's Life's words on the web pages, in English, Spanish and Portuguese:
the board's labels (``b.*``), the ending (``end.points``, from the sentences'
:data:`.words.POINTS`) and the tie-breaks (``tb.*``), keyed as the web client
looks them up; :mod:`.web` puts them in ``/web/data/kings_life.json`` as
``words``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from throneroom.games.kings_life.words import POINTS
from throneroom.games.reader import Words

__all__ = ["WEB_WORDS"]


def _w(en: str, es: str, pt: str) -> Words:
    return {"en": en, "es": es, "pt": pt}


WEB_WORDS: Final[Mapping[str, Words]] = {
    "end.points": {lang: plural for lang, (_, plural) in POINTS.items()},
    "tb.support_points": _w(
        "the most support points",
        "más puntos de apoyo",
        "mais pontos de apoio",
    ),
    "tb.shared_victory": _w(
        "still tied: a shared victory",
        "sigue el empate: victoria compartida",
        "ainda empatados: vitória partilhada",
    ),
    "b.cardInPlay": _w(
        " · card in play: {card}",
        " · carta en juego: {card}",
        " · carta em jogo: {card}",
    ),
    "b.committed": _w("committed", "comprometida", "comprometida"),
    "b.days": _w("Days and support tokens", "Días y fichas de apoyo", "Dias e fichas de apoio"),
    "b.daysWon": _w(" · days: {days}", " · días: {days}", " · dias: {days}"),
    "b.deck": _w("deck", "mazo", "baralho"),
    "b.discard": _w("discard {count}", "descarte {count}", "descarte {count}"),
    "b.duke": _w(" (Duke)", " (Duque)", " (Duque)"),
    "b.first": _w("first", "primero", "primeiro"),
    "b.handSize": _w(" · hand {count}", " · mano {count}", " · mão {count}"),
    "b.hidden": _w("hidden", "oculta", "oculta"),
    "b.kept": _w(" · kept {count}", " · guardadas {count}", " · guardadas {count}"),
    "b.kingsWill": _w("The king's will", "La voluntad del rey", "A vontade do rei"),
    "b.none": _w("none", "ninguno", "nenhum"),
    "b.pass": _w("Pass", "Pasar", "Passar"),
    "b.passNoSupport": _w("Pass without support", "Pasar sin apoyo", "Passar sem apoio"),
    "b.passed": _w("passed", "pasó", "passou"),
    "b.phase": _w("Phase: {phase}", "Fase: {phase}", "Fase: {phase}"),
    "b.program": _w("program: {program}", "programa: {program}", "programa: {program}"),
    "b.queenWindow": _w(
        " · Queen window: {window}",
        " · ventana de la Reina: {window}",
        " · janela da Rainha: {window}",
    ),
    "b.score": _w(
        " · score {score} (+{support} support)",
        " · puntos {score} (+{support} de apoyo)",
        " · pontos {score} (+{support} de apoio)",
    ),
    "b.second": _w("2nd", "2.º", "2.º"),
    "b.supportedBy": _w("supported by {seat}", "apoyado por {seat}", "apoiado por {seat}"),
    "b.supports": _w("supports {seat}", "apoya a {seat}", "apoia {seat}"),
    "b.third": _w("3rd", "3.º", "3.º"),
    "b.today": _w("today", "hoy", "hoje"),
    "b.token": _w("token {value}", "ficha {value}", "ficha {value}"),
    "b.vp": _w("{count} VP", "{count} PV", "{count} PV"),
    "b.wonBy": _w("won: {seat}", "ganado: {seat}", "ganho: {seat}"),
    "b.yourHand": _w("Your hand", "Tu mano", "A tua mão"),
}
"""The page's key -> language -> words (``{name}`` marks filled by the page)."""
