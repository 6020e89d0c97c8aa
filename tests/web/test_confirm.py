"""The confirm step of a move made by several clicks on the board (web/js/
game.js ``pick``, ``confirmBox``, ``confirmToggle``): a Kill the King
placement (a reserve counter, a square, a facing) waits in ``#confirm-box``,
in words, for Confirm or Cancel; Cancel (or Escape) sends nothing and starts
the pick over, Confirm (or Enter) sends it; the toggle, kept in the browser,
turns the step off so the same clicks send the move at once; the box speaks
the page's language. Moves sent are read from the page's WebSocket frames and
REST calls, the game's version from the page and the REST API."""

from __future__ import annotations

import json
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.web.conftest import Server, Tab
from tests.web.helpers import Game, new_game, open_as, shown_version, wait_version

Json = dict[str, Any]

WORDS = {  # the confirm box's words in each language (web/js/i18n.js)
    "en": {"ask": "Your move:", "confirm": "Confirm", "cancel": "Cancel"},
    "es": {"ask": "Tu jugada:", "confirm": "Confirmar", "cancel": "Cancelar"},
    "pt": {"ask": "A tua jogada:", "confirm": "Confirmar", "cancel": "Cancelar"},
}
TOGGLE = {
    "es": "Confirmar las jugadas de varios clics",
    "pt": "Confirmar as jogadas de vários cliques",
}
PREFERENCE = "throneroom.pref.confirmMoves"


def placement(game: Game) -> bool:
    snapshot = game.snapshot()
    return bool(snapshot["view"]["killTheKing"]["phase"] == "PHASE_PLACEMENT")


@pytest.fixture
def game(server: Server) -> Game:
    """A Kill the King game in its placement, seat 0 to place."""
    made = new_game(server, "kill_the_king", 2, seed=6)
    made.play_random(200, seed=1, stop=placement)
    assert placement(made) and 0 in made.snapshot()["toAct"]
    return made


def first_placement(game: Game, lang: str = "en") -> tuple[Json, str]:
    """Seat 0's first legal placement and its words as the page writes them
    (notation: sentence), in ``lang``."""
    listed = game.server.call(
        "GET",
        f"/v1/games/{game.game_id}/legal-moves?describe_language={lang}",
        token=game.tokens[0],
    )
    move: Json = listed["moves"][0]
    assert "place" in move["killTheKing"], move
    described = listed["descriptions"][0]
    return move, f"{described['notation']}: {described['text']}"


def record_moves(tab: Tab) -> list[Json]:
    """The moves the page sends from now on (this page and its reloads), over
    its play session or the REST face."""
    sent: list[Json] = []

    def frame(payload: str | bytes) -> None:
        request = json.loads(payload)
        if "move" in request:
            sent.append(request["move"]["move"])

    tab.page.on("websocket", lambda socket: socket.on("framesent", frame))
    tab.page.on(
        "request",
        lambda r: (
            sent.append(json.loads(r.post_data or "{}").get("move", {}))
            if r.method == "POST" and r.url.endswith("/moves")
            else None
        ),
    )
    return sent


def open_seat(tab: Tab, game: Game) -> None:
    """The page as seat 0, its play session open (moves go over it)."""
    open_as(tab, game, 0)
    live(tab)


def live(tab: Tab) -> None:
    tab.page.wait_for_selector("#connection[data-transport='websocket'][data-state='open']")
    tab.page.wait_for_selector("#move-list button.move:enabled")


def click_placement(tab: Tab, move: Json) -> None:
    """Place as a person does on the board: the reserve counter, the square,
    the facing."""
    place = move["killTheKing"]["place"]
    page = tab.page
    page.click(f"#board [data-key='reserve:{place['unit']}'].clickable")
    page.wait_for_selector("#clear-pick")
    square = place.get("square", {})
    row, col = square.get("row", 0), square.get("col", 0)
    page.click(f"#board .cell.clickable[data-row='{row}'][data-col='{col}']")
    page.click(f"#board .face-arrow.clickable[data-key='face:{place['facing']}']")


def expect_asked(tab: Tab, words: str, lang: str = "en") -> None:
    """The box shows the move in words, with Confirm and Cancel."""
    page = tab.page
    expect(page.locator("#confirm-box")).to_be_visible()
    expect(page.locator("#confirm-words")).to_have_text(words)
    expect(page.locator("#confirm-box p")).to_have_text(f"{WORDS[lang]['ask']} {words}")
    expect(page.locator("#confirm-move")).to_have_text(WORDS[lang]["confirm"])
    expect(page.locator("#cancel-move")).to_have_text(WORDS[lang]["cancel"])


def expect_pick_over(tab: Tab, unit: int, offered: int) -> None:
    """No box, nothing picked: the reserve counters are offered again, no
    square yet, and the list shows every move it showed before the clicks."""
    page = tab.page
    expect(page.locator("#confirm-box")).to_have_count(0)
    expect(page.locator("#clear-pick")).to_have_count(0)
    expect(page.locator("#board .selected")).to_have_count(0)
    expect(page.locator(f"#board [data-key='reserve:{unit}'].clickable")).to_have_count(1)
    expect(page.locator("#board .cell.clickable")).to_have_count(0)
    expect(page.locator("#move-list button.move:enabled")).to_have_count(offered)


def expect_applied(tab: Tab, game: Game, version: int, words: str) -> None:
    """The move made ``version``: the page and the API say so, the log lists it."""
    wait_version(tab, version)
    assert shown_version(tab) == version
    assert int(game.snapshot()["version"]) == version
    square = words.split(":", 1)[0].split()[2]  # "place u2 b10 n: ..." -> b10
    log = tab.page.locator("#event-log li")
    expect(log).to_have_count(version)
    expect(log.last).to_contain_text(square)


def expect_unchanged(tab: Tab, game: Game, version: int, sent: list[Json]) -> None:
    assert sent == []
    assert shown_version(tab) == version
    assert int(game.snapshot()["version"]) == version


def test_cancel_sends_nothing_and_starts_the_pick_over(tab: Tab, game: Game) -> None:
    sent = record_moves(tab)
    open_seat(tab, game)
    page = tab.page
    version = shown_version(tab)
    offered = page.locator("#move-list button.move:enabled").count()
    move, words = first_placement(game)
    unit = move["killTheKing"]["place"]["unit"]
    click_placement(tab, move)
    expect_asked(tab, words)
    tab.shot("confirm-asked")
    page.click("#cancel-move")
    expect_pick_over(tab, unit, offered)
    expect_unchanged(tab, game, version, sent)
    # Made again and confirmed: this one move, and only it, is sent.
    click_placement(tab, move)
    expect_asked(tab, words)
    page.click("#confirm-move")
    expect_applied(tab, game, version + 1, words)
    assert sent == [move]


def test_escape_cancels_and_enter_confirms(tab: Tab, game: Game) -> None:
    sent = record_moves(tab)
    open_seat(tab, game)
    page = tab.page
    version = shown_version(tab)
    offered = page.locator("#move-list button.move:enabled").count()
    move, words = first_placement(game)
    unit = move["killTheKing"]["place"]["unit"]
    click_placement(tab, move)
    expect_asked(tab, words)
    expect(page.locator("#confirm-move")).to_be_focused()
    page.keyboard.press("Escape")
    expect_pick_over(tab, unit, offered)
    expect_unchanged(tab, game, version, sent)
    click_placement(tab, move)
    expect_asked(tab, words)
    expect(page.locator("#confirm-move")).to_be_focused()
    page.keyboard.press("Enter")
    expect_applied(tab, game, version + 1, words)
    assert sent == [move]


def test_the_toggle_off_sends_at_once_and_is_kept(tab: Tab, game: Game) -> None:
    sent = record_moves(tab)
    open_seat(tab, game)
    page = tab.page
    toggle = page.locator("#confirm-toggle")
    expect(toggle).to_be_checked()  # on by default
    version = shown_version(tab)
    toggle.uncheck()
    assert page.evaluate(f"localStorage.getItem('{PREFERENCE}')") == "false"
    # Off: the clicks send the move (were the box shown, nothing would be sent).
    move, words = first_placement(game)
    click_placement(tab, move)
    expect_applied(tab, game, version + 1, words)
    expect(page.locator("#confirm-box")).to_have_count(0)
    assert sent == [move]
    # Kept across a reload.
    page.reload()
    page.wait_for_selector("body[data-ready='game']")
    live(tab)
    expect(toggle).not_to_be_checked()
    again, again_words = first_placement(game)
    click_placement(tab, again)
    expect_applied(tab, game, version + 2, again_words)
    assert sent == [move, again]
    # On again: the box is back, and nothing goes until it is confirmed.
    live(tab)
    toggle.check()
    assert page.evaluate(f"localStorage.getItem('{PREFERENCE}')") == "true"
    third, third_words = first_placement(game)
    click_placement(tab, third)
    expect_asked(tab, third_words)
    assert sent == [move, again] and int(game.snapshot()["version"]) == version + 2
    page.click("#confirm-move")
    expect_applied(tab, game, version + 3, third_words)
    assert sent == [move, again, third]


@pytest.mark.parametrize("lang", ["es", "pt"])
def test_the_confirm_step_speaks_the_pages_language(tab: Tab, game: Game, lang: str) -> None:
    sent = record_moves(tab)
    open_seat(tab, game)
    page = tab.page
    version = shown_version(tab)
    move, words = first_placement(game, lang)
    page.select_option("#language", lang)
    # The page has its moves again, described in the new language.
    expect(page.locator("#move-list button.move .text").first).to_have_text(words.split(": ", 1)[1])
    expect(page.locator("label[for='confirm-toggle']")).to_have_text(TOGGLE[lang])
    live(tab)
    click_placement(tab, move)
    expect_asked(tab, words, lang)
    box = page.locator("#confirm-box")
    assert box.get_attribute("aria-label") != "Confirm the move"
    for button, english in (("#confirm-move", "Confirm"), ("#cancel-move", "Cancel")):
        assert page.inner_text(button) != english
    tab.shot(f"confirm-{lang}")
    page.click("#cancel-move")
    expect(box).to_have_count(0)
    expect_unchanged(tab, game, version, sent)
