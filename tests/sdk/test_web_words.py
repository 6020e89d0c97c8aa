"""Each game's words on the web pages (its web data's ``words``: board labels,
modes, options, endings, tie-breaks), from its SDK package, the one text
source (DESIGN.md principle 11): every key in English, Spanish and Portuguese,
never empty, with the same ``{name}`` marks, and translated (the Spanish and
Portuguese differ from the English) but for the few allowed below. The
planted tables prove that the check finds each kind of fault."""

from __future__ import annotations

import re
from collections.abc import Mapping

import pytest
from throneroom.games.king_is_dead.names import TERMINATIONS
from throneroom.games.king_is_dead.web_words import WEB_WORDS
from throneroom.games.protocol import game_client, game_names
from throneroom.games.reader import LANGUAGES, by_language

# (game, language, key) whose words are the English ones, rightly: the same
# word in that language.
SAME_AS_ENGLISH: frozenset[tuple[str, str, str]] = frozenset()

_MARK = re.compile(r"\{(\w+)\}")


def faults(game: str, words: Mapping[str, Mapping[str, str]]) -> list[str]:
    """What is wrong with ``game``'s words (``{lang: {key: words}}``): a
    missing language or key, empty words, other ``{marks}`` than the English,
    untranslated words not in SAME_AS_ENGLISH."""
    found: list[str] = []
    english = words.get("en", {})
    if not english:
        found.append(f"{game}: no English words")
    for lang in LANGUAGES:
        table = words.get(lang)
        if table is None:
            found.append(f"{game}: no {lang} words")
            continue
        found.extend(
            f"{game}: {lang} has {key!r}, English has not" for key in set(table) - set(english)
        )
        for key, text in english.items():
            other = table.get(key)
            if other is None:
                found.append(f"{game}: {lang} misses {key!r}")
            elif not other.strip():
                found.append(f"{game}: {lang} {key!r} is empty")
            elif sorted(_MARK.findall(other)) != sorted(_MARK.findall(text)):
                found.append(f"{game}: {lang} {key!r} has other marks than the English")
            elif lang != "en" and other == text and (game, lang, key) not in SAME_AS_ENGLISH:
                found.append(f"{game}: {lang} {key!r} is the English {text!r}")
    return found


def _web_words() -> dict[str, Mapping[str, Mapping[str, str]]]:
    out = {}
    for game in game_names():
        data = game_client(game).web_data()
        if data is not None:
            out[game] = data["words"]
    return out


def test_every_game_with_web_data_has_words() -> None:
    games = _web_words()
    assert {"kill_the_king", "king_is_dead", "kings_life", "nim"} <= set(games)
    for game, words in games.items():
        assert set(words) == set(LANGUAGES), game
        assert len(words["en"]) >= 5, game


@pytest.mark.parametrize("game", sorted(_web_words()))
def test_every_word_is_in_every_language(game: str) -> None:
    assert faults(game, _web_words()[game]) == []


def test_the_allowed_untranslated_words_are_still_untranslated() -> None:
    games = _web_words()
    for game, lang, key in SAME_AS_ENGLISH:
        assert games[game][lang][key] == games[game]["en"][key], (game, lang, key)


GOOD = by_language({"b.court": {"en": "Court {n}", "es": "Corte {n}", "pt": "Corte {n}"}})


@pytest.mark.parametrize(
    ("planted", "fault"),
    [
        ({**GOOD, "pt": {}}, "pt misses 'b.court'"),
        ({"en": GOOD["en"], "es": GOOD["es"]}, "no pt words"),
        ({**GOOD, "es": {"b.court": " "}}, "es 'b.court' is empty"),
        ({**GOOD, "es": {"b.court": "Corte"}}, "es 'b.court' has other marks"),
        ({**GOOD, "pt": {"b.court": "Court {n}"}}, "pt 'b.court' is the English"),
        ({**GOOD, "es": {**GOOD["es"], "b.extra": "más"}}, "es has 'b.extra'"),
    ],
)
def test_the_check_finds_a_planted_fault(
    planted: Mapping[str, Mapping[str, str]], fault: str
) -> None:
    assert faults("game", GOOD) == []
    found = faults("game", planted)
    assert len(found) == 1 and fault in found[0], found


def test_the_king_is_dead_has_a_phrase_for_every_ending() -> None:
    endings = {key.removeprefix("end.") for key in WEB_WORDS if key.startswith("end.")}
    assert endings == set(TERMINATIONS)
