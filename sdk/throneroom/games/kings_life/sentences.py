"""King's Life's sentences for moves and events in English, Spanish and
Portuguese, for a reader (``throneroom.games.reader.Reader``: "you" for the
viewer's own, names for the others), from the (redacted) message alone::

    >>> from throneroom.v1.kings_life_pb2 import KingsLifeMove
    >>> describe_move(KingsLifeMove(passing=KingsLifeMove.Pass(support=0)), mover=2, viewer=0)
    'Seat 2 passes, supporting you'
    >>> describe_move(KingsLifeMove(passing=KingsLifeMove.Pass()), mover=0, viewer=0, lang="es")
    'Pasas'

A move's sentence has the mover as its subject (none: an instruction); the
events' sentences are :mod:`.events`', the words :mod:`.words`'.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from throneroom.games.kings_life import data
from throneroom.games.kings_life import words as w
from throneroom.games.kings_life.words import card_words, cards_words, of_day
from throneroom.games.reader import Reader
from throneroom.v1 import kings_life_pb2 as pb
from throneroom.v1.kings_life_pb2 import KingsLifeMove

__all__ = ["describe_move", "play_predicate"]

Words = Mapping[str, str]


def _support(message: Any, r: Reader) -> str:
    """ ", supporting Ana and handing over Hunt 3" ("" without a support)."""
    if not message.HasField("support"):
        return ""
    text = r.word(
        {"en": ", supporting {x}", "es": ", con apoyo para {x}", "pt": ", apoiando {x}"}
    ).format(x=r.obj(message.support))
    if message.hand_over:
        text += r.word(
            {"en": " and handing over {c}", "es": " y entregando {c}", "pt": " e entregando {c}"}
        ).format(c=card_words(message.hand_over, r))
    return text


def _effect(play: Any, r: Reader) -> str:
    """What a played character does, as the end of the sentence ("" for none)."""
    kind = data.CARD_CHARACTER[play.card] if 1 <= play.card <= data.DECK_SIZE else 0
    target = card_words(play.target_card, r) if play.target_card else ""
    if kind == pb.CHARACTER_MERCHANT and target:
        words = {"en": ", doubling {t}", "es": ", duplicando {t}", "pt": ", dobrando {t}"}
    elif kind == pb.CHARACTER_THIEF and target:
        words = {"en": ", taking {t}", "es": ", tomando {t}", "pt": ", pegando {t}"}
    elif kind == pb.CHARACTER_SORCERER and target:
        words = {
            "en": ", turning {t} into {a}",
            "es": ", convirtiendo {t} en {a}",
            "pt": ", transformando {t} em {a}",
        }
    elif kind == pb.CHARACTER_JESTER and play.cards:
        words = {"en": ", swapping {c}", "es": ", intercambiando {c}", "pt": ", trocando {c}"}
    elif kind == pb.CHARACTER_FOOL:
        words = {
            "en": ", to take back display cards and pass",
            "es": ", para recuperar cartas expuestas y pasar",
            "pt": ", para recuperar cartas expostas e passar",
        }
    elif kind == pb.CHARACTER_CHAMBERLAIN and len(play.positions) == 2:
        words = {
            "en": ", swapping {p} and {q} of the king's preferences",
            "es": ", intercambiando {p} y {q} de las preferencias del rey",
            "pt": ", trocando {p} e {q} das preferências do rei",
        }
    elif kind == pb.CHARACTER_ASTROLOGER and play.token_day:
        words = {
            "en": ", looking at {d} support token",
            "es": ", mirando la ficha de apoyo {d}",
            "pt": ", olhando a ficha de apoio {d}",
        }
    else:
        return ""
    places = w.POSITION_WORDS[r.lang]
    p, q = [*play.positions, 0, 0][:2]
    return r.word(words).format(
        t=target,
        a=w.activity_words(play.activity, r),
        c=cards_words(play.cards, r),
        p=places[p] if 0 <= p < len(places) else "?",
        q=places[q] if 0 <= q < len(places) else "?",
        d=of_day(play.token_day, r),
    )


def play_predicate(play: Any, r: Reader) -> Words:
    """The predicate of playing a card face up (a move or a CardPlayed event)."""
    said = _braced(card_words(play.card, r) + _effect(play, r) + _support(play, r))
    return {"en": f"play{{s}} {said}", "es": f"juega{{s}} {said}", "pt": f"joga {said}"}


def _braced(text: str) -> str:
    """``text`` safe inside a template (its braces doubled)."""
    return text.replace("{", "{{").replace("}", "}}")


def _exchange(m: Any, r: Reader) -> Words:
    if not m.discard:
        return {
            "en": "keep{s} the whole hand",
            "es": "conserva{s} toda la mano",
            "pt": "mantém a mão inteira",
        }
    cards = _braced(cards_words(m.discard, r))
    return {"en": f"exchange{{s}} {cards}", "es": f"cambia{{s}} {cards}", "pt": f"troca {cards}"}


def _commit(m: Any, r: Reader) -> Words:
    if not m.card:
        return {
            "en": "{has} no sun card and commit{s} nothing",
            "es": "no tiene{s} carta de sol y no pone{s} ninguna",
            "pt": "não tem carta de sol e não põe nenhuma",
        }
    card = _braced(card_words(m.card, r))
    return {
        "en": f"commit{{s}} {card} face down",
        "es": f"pone{{s}} {card} boca abajo",
        "pt": f"põe {card} virada para baixo",
    }


def _queen(m: Any, r: Reader) -> Words:
    if not m.cancel:
        return {
            "en": "let{s} the card stand",
            "es": "deja{s} pasar la carta",
            "pt": "deixa a carta valer",
        }
    card = _braced(
        r.poss(m.target, {"en": ("card", False), "es": ("carta", True), "pt": ("carta", True)})
    )
    return {
        "en": f"play{{s}} the Queen, cancelling {card}",
        "es": f"juega{{s}} la Reina y anula{{s}} {card}",
        "pt": f"joga a Rainha e anula {card}",
    }


def _passing(m: Any, r: Reader) -> Words:
    tail = _braced(_support(m, r))
    return {"en": f"pass{{es}}{tail}", "es": f"pasa{{s}}{tail}", "pt": f"passa{tail}"}


def _take_back(m: Any, r: Reader) -> Words:
    if not m.card:
        return {
            "en": "stop{s} taking cards back with the Fool",
            "es": "deja{s} de recuperar cartas con el Loco",
            "pt": "para de recuperar cartas com o Tolo",
        }
    card = _braced(card_words(m.card, r))
    return {
        "en": f"take{{s}} {card} back in hand with the Fool",
        "es": f"recupera{{s}} {card} con el Loco",
        "pt": f"recupera {card} com o Tolo",
    }


_MOVES: Mapping[str, Callable[[Any, Reader], Words]] = {
    "exchange": _exchange,
    "mulligan": lambda m, r: (
        {"en": "take{s} the mulligan", "es": "acepta{s} el mulligan", "pt": "aceita o mulligan"}
        if m.take
        else {
            "en": "decline{s} the mulligan",
            "es": "rechaza{s} el mulligan",
            "pt": "recusa o mulligan",
        }
    ),
    "commit": _commit,
    "queen": _queen,
    "play": play_predicate,
    "passing": _passing,
    "duke": lambda m, r: (
        {"en": "play{s} the Duke", "es": "juega{s} el Duque", "pt": "joga o Duque"}
        if m.play
        else {
            "en": "{does} not play the Duke",
            "es": "no juega{s} el Duque",
            "pt": "não joga o Duque",
        }
    ),
    "take_back": _take_back,
}
"""Move kind -> its predicate (card names filled in, verb endings left as marks)."""


def describe_move(
    move: KingsLifeMove,
    mover: int | None = None,
    *,
    lang: str = "en",
    viewer: int | None = None,
    names: Sequence[str] = (),
) -> str:
    """One sentence for a move made (or to be made) by ``mover``."""
    r = Reader(lang, viewer, names)
    kind = move.WhichOneof("kind")
    if kind is None or kind not in _MOVES:
        empty = {
            "en": "make{s} an empty move",
            "es": "hace{s} un movimiento vacío",
            "pt": "faz um movimento vazio",
        }
        return r.act(mover, empty)
    return r.act(mover, _MOVES[kind](getattr(move, kind), r))
