"""Nim's sentences in English, Spanish and Portuguese, for a reader
(``throneroom.games.reader.Reader``)::

    >>> from throneroom.v1.nim_pb2 import NimMove
    >>> describe_move(NimMove(take=2), mover=1, viewer=1, lang="es")
    'Tomas 2 piedras'

A peeked secret is told only as the (redacted) event carries it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from throneroom.games.reader import Reader, Words
from throneroom.v1.nim_pb2 import NimEvent, NimMove, NimView

__all__ = [
    "BOARD",
    "PAGE",
    "STONE_NOUNS",
    "board_lines",
    "describe_event",
    "describe_move",
    "stones",
]

STONE_NOUNS: Mapping[str, tuple[str, str]] = {
    "en": ("stone", "stones"),
    "es": ("piedra", "piedras"),
    "pt": ("pedra", "pedras"),
}
_TAKE = {"en": "take{s} {n}", "es": "toma{s} {n}", "pt": "pega {n}"}


def describe_move(
    move: NimMove,
    *,
    mover: int | None = None,
    lang: str = "en",
    viewer: int | None = None,
    names: Sequence[str] = (),
) -> str:
    """ "Take 2 stones", "You take 2 stones", "Ana takes 1 stone"."""
    r = Reader(lang, viewer, names)
    return r.act(mover, _TAKE, n=r.count(move.take, STONE_NOUNS))


def describe_event(
    event: NimEvent, *, lang: str = "en", viewer: int | None = None, names: Sequence[str] = ()
) -> str:
    """One sentence for an event, as ``viewer`` reads it."""
    r = Reader(lang, viewer, names)
    kind = event.WhichOneof("kind")
    if kind == "took":
        took = event.took
        left = r.word({"en": " ({n} left)", "es": " (quedan {n})", "pt": " (restam {n})"})
        if took.pile_left == 1:
            left = r.word({"en": " ({n} left)", "es": " (queda {n})", "pt": " (resta {n})"})
        text = r.act(took.seat, _TAKE, n=r.count(took.stones, STONE_NOUNS))
        return text + left.format(n=r.count(took.pile_left, STONE_NOUNS))
    if kind == "secret_peeked":
        peeked = event.secret_peeked
        if peeked.secret:
            words = {
                "en": "peek{s} at the secret: {x}",
                "es": "mira{s} el secreto: {x}",
                "pt": "espia o segredo: {x}",
            }
            return r.act(peeked.seat, words, x=peeked.secret)
        words = {"en": "peek{s} at the secret", "es": "mira{s} el secreto", "pt": "espia o segredo"}
        return r.act(peeked.seat, words)
    return r.say({"en": "Nothing happens", "es": "No pasa nada", "pt": "Nada acontece"})


BOARD: Mapping[str, Words] = {
    "pile": {"en": "Pile: {n}", "es": "Montón: {n}", "pt": "Monte: {n}"},
    "limit": {
        "en": "take 1 to {m} per move",
        "es": "se toman de 1 a {m} por jugada",
        "pt": "pega-se de 1 a {m} por jogada",
    },
    "empty": {"en": "(empty)", "es": "(vacío)", "pt": "(vazio)"},
    "secret": {"en": "Your secret: {x}", "es": "Tu secreto: {x}", "pt": "Seu segredo: {x}"},
}
"""The board's words (the terminal's and, through ``web_data``, the web's)."""

PAGE: Mapping[str, Words] = {
    "end.last_stone": {
        "en": "the last stone taken",
        "es": "la última piedra tomada",
        "pt": "a última pedra tirada",
    },
    "opt.pile": {"en": "pile", "es": "montón", "pt": "monte"},
    "opt.max_take": {
        "en": "most stones taken at once",
        "es": "máximo de piedras por vez",
        "pt": "máximo de pedras de cada vez",
    },
}
"""The web pages' other words of Nim (through ``web_data``): how a game ends
(``end.<termination>``, the outcome's) and the options' names (``opt.<option>``)."""


def stones(number: int, lang: str = "en") -> str:
    """ "1 stone", "3 piedras"."""
    return Reader(lang).count(number, STONE_NOUNS)


def board_lines(view: NimView, viewer: int | None, lang: str = "en") -> list[str]:
    """The board as lines of text: the pile and the limit, then the viewer's
    secret (a seat's view only)."""
    r = Reader(lang, viewer)
    pile = r.word(BOARD["pile"]).format(n=stones(view.pile, lang))
    lines = [f"{pile} · {r.word(BOARD['limit']).format(m=view.max_take)}"]
    if view.HasField("my_secret"):
        lines.append(r.word(BOARD["secret"]).format(x=view.my_secret))
    return lines
