"""King's Life's sentences for (redacted) events, in English, Spanish and
Portuguese, for a reader (``throneroom.games.reader.Reader``)::

    >>> from throneroom.v1.kings_life_pb2 import KingsLifeEvent as E
    >>> describe_event(E(passed=E.Passed(seat=1)), viewer=1, lang="pt")
    'Você passa'

Each sentence uses only what its event carries: a hidden draw says how many
cards, never which.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from throneroom.games.kings_life import words as w
from throneroom.games.kings_life.sentences import describe_move, play_predicate
from throneroom.games.kings_life.words import (
    activity_words,
    card_words,
    cards_or_count,
    cards_words,
    day_words,
    of_day,
)
from throneroom.games.reader import Reader
from throneroom.v1.kings_life_pb2 import KingsLifeEvent

__all__ = ["EVENTS", "describe_event"]

Words = Mapping[str, str]


def _b(text: str) -> str:
    """``text`` safe inside a template (its braces doubled)."""
    return text.replace("{", "{{").replace("}", "}}")


def _day_began(e: Any, r: Reader) -> str:
    prefs = r.join([activity_words(a, r) for a in e.preferences])
    first = r.say(
        {
            "en": "{d} begins: the king prefers {p}.",
            "es": "Empieza el {d}: el rey prefiere {p}.",
            "pt": "{d}: o rei prefere {p}.",
        },
        d=day_words(e.day, r),
        p=prefs,
    )
    return (
        first + " " + r.act(e.first_player, {"en": "start{s}", "es": "empieza{s}", "pt": "começa"})
    )


def _cards_drawn(e: Any, r: Reader) -> str:
    verb = w.DRAW_REASONS.get(e.reason, w.DRAWS)
    what = _b(cards_or_count(e.cards, e.count, r))
    return r.act(e.seat, {lang: f"{text}: {what}" for lang, text in verb.items()})


def _answered(e: Any, r: Reader) -> str:
    if e.HasField("move"):
        return describe_move(e.move, e.seat, lang=r.lang, viewer=r.viewer, names=r.names)
    return r.act(e.seat, {"en": "{has} answered", "es": "ha{s} respondido", "pt": "respondeu"})


def _revealed(e: Any, r: Reader) -> str:
    nothing = r.word({"en": "nothing", "es": "nada", "pt": "nada"})
    shown = [f"{r.who(s)}: {card_words(c, r) if c else nothing}" for s, c in enumerate(e.cards)]
    return r.say(
        {"en": "Revealed: {x}", "es": "Se revelan: {x}", "pt": "Revelados: {x}"}, x="; ".join(shown)
    )


def _queen_cancelled(e: Any, r: Reader) -> str:
    return r.act(
        e.queen_seat,
        {
            "en": "play{s} the Queen against {x}: {c} is cancelled",
            "es": "juega{s} la Reina contra {x}: se anula {c}",
            "pt": "joga a Rainha contra {x}: {c} perde o efeito",
        },
        x=r.obj(e.seat),
        c=card_words(e.card, r),
    )


def _token_peeked(e: Any, r: Reader) -> str:
    worth = ""
    if e.value:
        worth = r.word(
            {"en": " (it is worth {v})", "es": " (vale {v})", "pt": " (vale {v})"}
        ).format(v=e.value)
    return r.act(
        e.seat,
        {
            "en": "look{s} at {d} support token{v}",
            "es": "mira{s} la ficha de apoyo {d}{v}",
            "pt": "olha a ficha de apoio {d}{v}",
        },
        d=of_day(e.day, r),
        v=worth,
    )


def _supported(e: Any, r: Reader) -> str:
    tail = ""
    if e.hand_over:
        tail += r.word(
            {"en": ", handing over {c}", "es": ", entregando {c}", "pt": ", entregando {c}"}
        ).format(c=card_words(e.hand_over, r))
    if e.replaced >= 0:
        token = r.poss(
            e.replaced, {"en": ("token", False), "es": ("ficha", True), "pt": ("ficha", True)}
        )
        tail += r.word(
            {"en": " ({t} goes back)", "es": " (vuelve {t})", "pt": " (volta {t})"}
        ).format(t=token)
    return r.act(
        e.seat,
        {
            "en": "support{s} {x}{t}",
            "es": "juega{s} una ficha de apoyo para {x}{t}",
            "pt": "apoia {x}{t}",
        },
        x=r.obj(e.supported),
        t=tail,
    )


def _day_reckoned(e: Any, r: Reader) -> str:
    parts = []
    for p in e.programs:
        if p.has_program:
            words = {
                "en": "{who}: {v} in {a}",
                "es": "{who}: {v} en {a}",
                "pt": "{who}: {v} em {a}",
            }
            parts.append(
                r.word(words).format(who=r.who(p.seat), v=p.value, a=activity_words(p.activity, r))
            )
        else:
            words = {
                "en": "{who}: no program",
                "es": "{who}: sin programa",
                "pt": "{who}: sem programa",
            }
            parts.append(r.word(words).format(who=r.who(p.seat)))
    return r.say(
        {"en": "{d} reckoned: {x}", "es": "Recuento del {d}: {x}", "pt": "Apuração de {d}: {x}"},
        d=day_words(e.day, r),
        x="; ".join(parts),
    )


def _day_won(e: Any, r: Reader) -> str:
    support = ""
    if e.supporter >= 0:
        words = {"en": ", supported by {x}", "es": " (apoyo: {y})", "pt": ", com o apoio de {x}"}
        support = r.word(words).format(x=r.obj(e.supporter), y=r.who(e.supporter))
    return r.act(
        e.winner,
        {"en": "win{s} {d}{x}", "es": "gana{s} el {d}{x}", "pt": "vence {d}{x}"},
        d=day_words(e.day, r),
        x=support,
    )


def _day_cancelled(e: Any, r: Reader) -> str:
    reason = r.word(w.CANCEL_REASONS.get(e.reason, w.NO_WINNER))
    return r.say(
        {
            "en": "{d} is cancelled: {x}",
            "es": "Día anulado ({d}): {x}",
            "pt": "Dia cancelado ({d}): {x}",
        },
        d=day_words(e.day, r),
        x=reason,
    )


def _reward_taken(e: Any, r: Reader) -> str:
    if e.day_card:
        words = {
            "en": "take{s} the {d} card",
            "es": "toma{s} la carta del {d}",
            "pt": "pega a carta de {d}",
        }
        return r.act(e.seat, words, d=day_words(e.day_card, r))
    if e.token_day:
        worth = ""
        if e.token_value:
            worth = r.word({"en": " (worth {v})", "es": " (vale {v})", "pt": " (vale {v})"}).format(
                v=e.token_value
            )
        words = {
            "en": "take{s} {d} support token{v}",
            "es": "toma{s} la ficha de apoyo {d}{v}",
            "pt": "pega a ficha de apoio {d}{v}",
        }
        return r.act(e.seat, words, d=of_day(e.token_day, r), v=worth)
    words = {"en": "keep{s} {c}", "es": "conserva{s} {c}", "pt": "fica com {c}"}
    return r.act(e.seat, words, c=card_words(e.kept_card, r))


def _game_ended(e: Any, r: Reader) -> str:
    outcome = e.outcome
    best = max(e.scores) if e.scores else 0
    text = r.say(
        {
            "en": "Saturday is over: victory for {x} with {p}",
            "es": "Termina el sábado: victoria para {x} con {p}",
            "pt": "Fim do sábado: vitória para {x} com {p}",
        },
        x=r.join([r.obj(s) for s in outcome.winners]),
        p=r.count(best, w.POINTS),
    )
    if "shared_victory" in outcome.tiebreaks:
        text += r.word(
            {
                "en": " (shared: the support points are equal too)",
                "es": " (compartida: también empatan en puntos de apoyo)",
                "pt": " (compartilhada: também empatam em pontos de apoio)",
            }
        )
    elif "support_points" in outcome.tiebreaks:
        text += r.word(
            {
                "en": " (tie broken by support points)",
                "es": " (desempate por puntos de apoyo)",
                "pt": " (desempate por pontos de apoio)",
            }
        )
    return text


def _act(
    words: Words, fields: Callable[[Any, Reader], dict[str, object]]
) -> Callable[[Any, Reader], str]:
    """An event whose sentence is a predicate of its ``seat``."""
    return lambda e, r: r.act(e.seat, words, **fields(e, r))


def _say(
    words: Words, fields: Callable[[Any, Reader], dict[str, object]]
) -> Callable[[Any, Reader], str]:
    return lambda e, r: r.say(words, **fields(e, r))


EVENTS: Mapping[str, Callable[[Any, Reader], str]] = {
    "day_began": _day_began,
    "cards_drawn": _cards_drawn,
    "deck_reshuffled": _say(
        {
            "en": "The discard pile is shuffled into the deck ({n})",
            "es": "El descarte se baraja en el mazo ({n})",
            "pt": "O descarte é embaralhado no baralho ({n})",
        },
        lambda e, r: {"n": r.count(e.deck_size, w.CARDS)},
    ),
    "exchanged": _act(
        {"en": "exchange{s} {x}", "es": "cambia{s} {x}", "pt": "troca {x}"},
        lambda e, r: {"x": cards_or_count(e.discarded, e.count, r)},
    ),
    "answered": _answered,
    "mulligan_taken": _act(
        {
            "en": "show{s} {x} and take{s} the mulligan",
            "es": "muestra{s} {x} y acepta{s} el mulligan",
            "pt": "mostra {x} e aceita o mulligan",
        },
        lambda e, r: {"x": cards_words(e.shown, r)},
    ),
    "revealed": _revealed,
    "card_played": lambda e, r: r.act(e.seat, play_predicate(e.play, r)),
    "queen_cancelled": _queen_cancelled,
    "card_took_effect": _say(
        {
            "en": "{c} ({x}) takes effect",
            "es": "Hace efecto {c} ({x})",
            "pt": "{c} ({x}) faz efeito",
        },
        lambda e, r: {"c": card_words(e.card, r), "x": r.who(e.seat)},
    ),
    "token_peeked": _token_peeked,
    "cards_taken_back": _act(
        {"en": "take{s} back {x}", "es": "recupera{s} {x}", "pt": "recupera {x}"},
        lambda e, r: {"x": cards_words(e.cards, r)},
    ),
    "hand_discarded": _act(
        {"en": "discard{s} {x}", "es": "descarta{s} {x}", "pt": "descarta {x}"},
        lambda e, r: {"x": cards_or_count(e.cards, e.count, r)},
    ),
    "passed": _act({"en": "pass{es}", "es": "pasa{s}", "pt": "passa"}, lambda e, r: {}),
    "supported": _supported,
    "day_reckoned": _day_reckoned,
    "day_won": _day_won,
    "day_cancelled": _day_cancelled,
    "reward_taken": _reward_taken,
    "token_discarded": _say(
        {
            "en": "{d} support token is discarded unseen",
            "es": "La ficha de apoyo {d} se descarta sin verla",
            "pt": "A ficha de apoio {d} é descartada sem ser vista",
        },
        lambda e, r: {"d": of_day(e.day, r)},
    ),
    "displays_discarded": _say(
        {
            "en": "The displays are discarded ({n})",
            "es": "Se descartan las exposiciones ({n})",
            "pt": "As exposições são descartadas ({n})",
        },
        lambda e, r: {"n": r.count(e.count, w.CARDS)},
    ),
    "game_ended": _game_ended,
}
"""Event kind -> its sentence."""


def describe_event(
    event: KingsLifeEvent, *, lang: str = "en", viewer: int | None = None, names: Sequence[str] = ()
) -> str:
    """One sentence for a (possibly redacted) event, as ``viewer`` reads it."""
    r = Reader(lang, viewer, names)
    kind = event.WhichOneof("kind")
    if kind is None or kind not in EVENTS:
        return r.say({"en": "Nothing happens", "es": "No pasa nada", "pt": "Nada acontece"})
    return EVENTS[kind](getattr(event, kind), r)
