"""Who reads a sentence, and the few grammar rules every game's texts share.

A :class:`Reader` is a language, the reader's seat (``viewer``: None for a
spectator) and the players' names (``names[seat]``; "seat N" spelled in the
language where none is given). Game texts are tables of templates, one per
language, and the reader fills them in::

    >>> r = Reader("es", viewer=0, names=("Ana", "Bruno"))
    >>> r.act(0, {"en": "buy{s} {x}", "es": "compra{s} {x}", "pt": "compra {x}"}, x="2")
    'Compras 2'
    >>> r.act(1, {"en": "buy{s} {x}", "es": "compra{s} {x}", "pt": "compra {x}"}, x="2")
    'Bruno compra 2'
    >>> Reader("en").act(None, {"en": "buy{s} a horse", "es": "", "pt": ""})
    'Buy a horse'

A predicate template (``act``) is written in the third person's word order
without its subject; its verb endings are marks the reader fills per person:

- English: ``{s}`` (buys / you buy), ``{es}`` (passes), ``{has}`` (has /
  have), ``{is}`` (is / are), ``{does}`` (does / do);
- Spanish: ``{s}`` after the third person's form (compra / compras; tiene /
  tienes), the subject left out for "you" (tú);
- Portuguese: no mark ("você" takes the third person's form).

The subject is the viewer's "you", a name, or nothing at all when the actor is
not known (``seat`` None): the predicate alone, as an instruction ("Buy a
horse", "Compra un caballo"). Sentences start with a capital letter. Nothing
here names a game.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Final

__all__ = ["LANGUAGES", "Reader", "Words", "by_language", "language"]

LANGUAGES: Final = ("en", "es", "pt")
"""The languages the product speaks, English first."""

Words = Mapping[str, str]
"""Language -> a template or a word."""

_SEAT: Final[Words] = {"en": "seat {n}", "es": "asiento {n}", "pt": "assento {n}"}
_YOU: Final[Words] = {"en": "you", "es": "tú", "pt": "você"}
_YOU_AFTER_PREPOSITION: Final[Words] = {"en": "you", "es": "ti", "pt": "você"}
_AND: Final[Words] = {"en": "and", "es": "y", "pt": "e"}
_NOTHING: Final[Words] = {"en": "nothing", "es": "nada", "pt": "nada"}
_YOUR: Final[Mapping[str, tuple[str, str]]] = {
    "en": ("your", "your"),
    "es": ("tu", "tu"),
    "pt": ("seu", "sua"),
}
_THE: Final[Mapping[str, tuple[str, str]]] = {"es": ("el", "la"), "pt": ("o", "a")}
_MARKS: Final[Mapping[tuple[str, str], Mapping[str, str]]] = {
    ("en", "you"): {"s": "", "es": "", "has": "have", "is": "are", "does": "do"},
    ("en", "other"): {"s": "s", "es": "es", "has": "has", "is": "is", "does": "does"},
    ("es", "you"): {"s": "s"},
    ("es", "other"): {"s": ""},
    ("pt", "you"): {},
    ("pt", "other"): {},
}


def language(lang: str) -> str:
    """``lang`` when the product speaks it, else English."""
    return lang if lang in LANGUAGES else "en"


def by_language(table: Mapping[str, Words]) -> dict[str, dict[str, str]]:
    """A table of words by key (``{"b.court": {"en": "Court", ...}}``) turned
    into one table per language (``{"en": {"b.court": "Court"}, ...}``), as a
    game's web data carries its words::

        >>> by_language({"b.court": {"en": "Court", "es": "Corte", "pt": "Corte"}})["es"]
        {'b.court': 'Corte'}
    """
    return {lang: {key: words[lang] for key, words in table.items()} for lang in LANGUAGES}


def capital(text: str) -> str:
    """``text`` with its first letter in capitals."""
    return text[:1].upper() + text[1:]


@dataclass(frozen=True)
class Reader:
    """One reader of sentences: a language, a seat (None: a spectator) and names."""

    lang: str = "en"
    viewer: int | None = None
    names: Sequence[str] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "lang", language(self.lang))

    def word(self, words: Words) -> str:
        """The word in the reader's language (English when the table lacks it)."""
        return words.get(self.lang) or words["en"]

    def is_you(self, seat: int | None) -> bool:
        return seat is not None and self.viewer is not None and seat == self.viewer

    def name(self, seat: int) -> str:
        """A seat's player by name, or "seat N" in the language (never "you")."""
        if 0 <= seat < len(self.names) and self.names[seat]:
            return self.names[seat]
        return _SEAT[self.lang].format(n=seat)

    def who(self, seat: int) -> str:
        """A seat as the subject of a sentence: "you" for the viewer, else its name."""
        return _YOU[self.lang] if self.is_you(seat) else self.name(seat)

    def obj(self, seat: int) -> str:
        """A seat after a preposition ("for you", "para ti", "para você")."""
        return _YOU_AFTER_PREPOSITION[self.lang] if self.is_you(seat) else self.name(seat)

    def poss(self, seat: int, nouns: Mapping[str, tuple[str, bool]]) -> str:
        """A seat's thing, with its article: "your token" / "Ana's token"; "tu
        ficha" / "la ficha de Ana"; "sua ficha" / "a ficha de Ana". ``nouns``
        is language -> (noun, feminine?)."""
        noun, feminine = nouns.get(self.lang) or nouns["en"]
        if self.is_you(seat):
            return f"{_YOUR[self.lang][feminine]} {noun}"
        if self.lang == "en":
            return f"{self.name(seat)}'s {noun}"
        return f"{_THE[self.lang][feminine]} {noun} de {self.name(seat)}"

    def act(self, seat: int | None, predicate: Words, /, **fields: object) -> str:
        """A sentence whose subject is ``seat`` (see the module's doc), capitalized."""
        template = self.word(predicate)
        if seat is None:
            bare = "you" if self.lang == "en" else "other"  # es/pt: the imperative's form
            return capital(template.format(**fields, **_MARKS[(self.lang, bare)]))
        person = "you" if self.is_you(seat) else "other"
        text = template.format(**fields, **_MARKS[(self.lang, person)])
        if person == "you" and self.lang == "es":
            return capital(text)
        return capital(f"{self.who(seat)} {text}")

    def say(self, words: Words, /, **fields: object) -> str:
        """A sentence without a seat as its subject, capitalized."""
        return capital(self.word(words).format(**fields))

    def join(self, items: Sequence[str]) -> str:
        """ "A, B and C" in the language ("nothing" for none)."""
        if not items:
            return _NOTHING[self.lang]
        if len(items) == 1:
            return items[0]
        return ", ".join(items[:-1]) + f" {_AND[self.lang]} " + items[-1]

    def count(self, number: int, nouns: Mapping[str, tuple[str, str]]) -> str:
        """ "1 card", "2 cards": ``nouns`` is language -> (singular, plural)."""
        one, many = nouns.get(self.lang) or nouns["en"]
        return f"{number} {one if number == 1 else many}"
