"""Nim's sentences in English, Spanish and Portuguese, for a reader
(``throneroom.games.reader.Reader``)::

    >>> from throneroom.v1.nim_pb2 import NimMove
    >>> describe_move(NimMove(take=2), mover=1, viewer=1, lang="es")
    'Tomas 2 piedras'

A peeked secret is told only as the (redacted) event carries it.
"""

from __future__ import annotations

from collections.abc import Sequence

from throneroom.games.reader import Reader
from throneroom.v1.nim_pb2 import NimEvent, NimMove

__all__ = ["describe_event", "describe_move"]

_STONES = {"en": ("stone", "stones"), "es": ("piedra", "piedras"), "pt": ("pedra", "pedras")}
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
    return r.act(mover, _TAKE, n=r.count(move.take, _STONES))


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
        text = r.act(took.seat, _TAKE, n=r.count(took.stones, _STONES))
        return text + left.format(n=r.count(took.pile_left, _STONES))
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
