"""The page's own words in three languages (web/js/i18n.js, one table per
language): every key has a Spanish and a Portuguese entry with the same
placeholders, and the lobby and a game page in Spanish and Portuguese show
none of the English words of the page's frame and panels."""

from __future__ import annotations

import json
import re

import pytest

from tests.web.conftest import Server, Tab
from tests.web.helpers import new_game, open_as

TABLES = """async () => (await import('/web/js/i18n.js')).TABLES"""

# English words of the page itself (never of the server's sentences), as
# whole words, and the element ids of the page's frame and panels where none
# may appear once the page is in another language.
ENGLISH = [
    "Lobby", "Language", "New game", "Create game", "Open games", "Options", "Your name",
    "Take the first seat", "Refresh", "Spectate", "Join seat", "Seats", "Your moves", "Log",
    "History", "You play", "Your turn", "To act", "Version", "version", "Bots run",
    "Seat a bot", "Open a record file", "All games", "Open seats", "Share", "seats",
]  # fmt: skip


def english_words(text: str) -> list[str]:
    return [w for w in ENGLISH if re.search(rf"(?<![\w]){re.escape(w)}(?![\w])", text)]


def test_every_key_has_spanish_and_portuguese_words(tab: Tab, server: Server) -> None:
    tab.page.goto(server.base + "/")
    tables = tab.page.evaluate(TABLES)
    english = tables["en"]
    assert len(english) > 100
    placeholders = re.compile(r"\{(\w+)\}")
    for lang in ("es", "pt"):
        table = tables[lang]
        assert set(table) == set(english), (lang, set(english) ^ set(table))
        for key, text in english.items():
            assert table[key].strip(), (lang, key)
            assert sorted(placeholders.findall(table[key])) == sorted(placeholders.findall(text)), (
                lang,
                key,
            )
    # Words, not copies: most entries differ from the English (names such as
    # "API" or a game's title stay as they are).
    same = [k for k in english if tables["es"][k] == english[k]]
    assert len(same) < len(english) // 10, same


def test_the_lobby_speaks_a_games_own_words_in_the_readers_language(
    tab: Tab, server: Server
) -> None:
    """A game's option and mode names come from its web data's ``words`` (its
    SDK package), in the page's language."""
    words = server.call("GET", "/web/data/kill_the_king.json")["words"]
    set_language(tab, server, "es")
    page = tab.page
    page.reload()
    page.wait_for_selector("#create-form")
    page.select_option("#create-type", "kill_the_king")
    assert page.inner_text("label[for='opt-killTheKing-mode']") == words["es"]["opt.mode"]
    labels = page.locator("#opt-killTheKing-mode option").all_inner_texts()
    mode = "KILL_THE_KING_MODE_ATTACK_AND_DEFENSE"
    assert words["es"][f"mode.{mode}"] in labels, labels
    assert words["en"][f"mode.{mode}"] not in labels, labels


def set_language(tab: Tab, server: Server, lang: str) -> None:
    tab.page.goto(server.base + "/")
    tab.page.wait_for_selector("body[data-ready='lobby']")
    tab.page.evaluate(
        "(lang) => localStorage.setItem('throneroom.pref.lang', JSON.stringify(lang))", lang
    )


CHROME = """() => {
    // The page's own words: everything but the server's sentences (moves,
    // events, game descriptions) and names.
    const skip = '.text, .events, .move-text, .notation, .types p, #game-title, svg, #share-link';
    const clone = document.body.cloneNode(true);
    for (const e of clone.querySelectorAll(skip)) e.remove();
    for (const e of clone.querySelectorAll('select')) e.remove();
    return clone.innerText;
}"""


@pytest.mark.parametrize("lang", ["es", "pt"])
def test_the_lobby_and_a_game_page_show_no_english_words(
    tab: Tab, server: Server, lang: str
) -> None:
    game = new_game(server, "king_is_dead", 2, join=1, seed=12)
    set_language(tab, server, lang)
    page = tab.page
    page.reload()
    page.wait_for_selector("body[data-ready='lobby']")
    page.wait_for_selector(f"#game-list .game-row[data-game-id='{game.game_id}']")
    assert page.evaluate("document.documentElement.lang") == lang
    lobby = page.evaluate(CHROME)
    assert english_words(lobby) == [], lobby
    tab.shot(f"lobby-{lang}")
    # Seat 0 plays against a free seat 1 being filled: the seats panel, the
    # status line, the moves, the log and the history.
    second = game.server.call("POST", f"/v1/games/{game.game_id}/seats", {"displayName": "P1"})
    game.tokens.append(second["seatToken"])
    game.play_random(4, seed=12)
    held = {0: {"token": game.tokens[0], "name": "P0", "bot": False}}
    page.evaluate(
        "([key, value]) => localStorage.setItem(key, value)",
        [f"throneroom.seats.{game.game_id}", json.dumps(held)],
    )
    open_as(tab, game, 0)
    page.wait_for_selector("#event-log li")
    chrome = page.evaluate(CHROME)
    assert english_words(chrome) == [], chrome
    assert page.inner_text("#seats-title") != "Seats"
    # The board's own labels too (names and the server's words aside).
    board = page.locator("#board svg.board").text_content() or ""
    for label in ("Region cards", "Court", "Supply", "Saxon tokens", "Your hand", "Played"):
        assert label not in board, (label, board)
    tab.shot(f"game-{lang}")
    # The header's selector turns the page back to English.
    page.select_option("#language", "en")
    page.wait_for_function("() => document.querySelector('#seats-title')?.textContent === 'Seats'")
    assert page.evaluate("document.documentElement.lang") == "en"


@pytest.mark.parametrize(
    ("lang", "game_type", "seats"), [("es", "king_is_dead", 2), ("pt", "kings_life", 4)]
)
def test_a_finished_games_outcome_in_the_readers_language(
    tab: Tab, server: Server, lang: str, game_type: str, seats: int
) -> None:
    """The outcome panel: the winners ("you"), the ending and the tie-breaks in
    the reader's language (the update's outcome_text), not the server's English
    summary."""
    game = new_game(server, game_type, seats, seed=21)
    game.play_random(2000, seed=21)
    snapshot = game.snapshot()
    assert snapshot["finished"]
    set_language(tab, server, lang)
    open_as(tab, game, 0)
    tab.page.wait_for_selector("#outcome-text")
    shown = tab.page.inner_text("#outcome-text")
    assert shown == game.outcome_text(0, lang)
    assert snapshot["outcome"]["summary"] not in tab.page.inner_text("#outcome")
    assert english_words(tab.page.inner_text("#outcome")) == []
