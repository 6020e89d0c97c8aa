"""The web client on a phone (390x844): the lobby and a game page fit the
screen's width, the controls are at least 44 px tall, the moves come right
under the board, and the board zooms (and pans in its box) until its
squares are 44 px targets, then plays by clicking: a Kill the King
placement, reserve counter, square and facing."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.web.conftest import Server, Tab, opened_tab
from tests.web.helpers import new_game, open_as, shown_version, wait_version

SMALL_TARGETS = """() => [...document.querySelectorAll('main button, main select, main input')]
    .filter((e) => { const r = e.getBoundingClientRect(); return r.width && r.height < 44; })
    .map((e) => `${e.tagName}#${e.id}.${e.className}`)"""


@pytest.fixture
def phone(browser: Any) -> Iterator[Tab]:
    with opened_tab(browser, width=390, height=844, touch=True) as tab:
        yield tab


def test_the_lobby_fits_a_phone(phone: Tab, server: Server) -> None:
    page = phone.page
    page.goto(server.base + "/")
    page.wait_for_selector("#create-form")
    page.select_option("#create-type", "kill_the_king")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert page.evaluate(SMALL_TARGETS) == []
    phone.shot("phone-lobby")


def test_a_game_page_on_a_phone_zooms_and_plays(phone: Tab, server: Server) -> None:
    game = new_game(server, "kill_the_king", 2, seed=6)
    game.play_random(200, seed=1, stop=lambda g: g.view()["phase"] == "PHASE_PLACEMENT")
    listed = server.call("GET", f"/v1/games/{game.game_id}/legal-moves", token=game.tokens[0])
    place = listed["moves"][-1]["killTheKing"]["place"]
    open_as(phone, game, 0)
    page = phone.page
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert page.evaluate(SMALL_TARGETS) == []
    board = page.locator("#board").bounding_box()
    moves = page.locator(".moves-panel").bounding_box()
    seats = page.locator(".seats-box").bounding_box()
    assert board and moves and seats
    assert board["y"] < moves["y"] < seats["y"]

    def cell() -> float:
        width: float = page.evaluate(
            "document.querySelector('#board .cell').getBoundingClientRect().width"
        )
        return width

    assert cell() < 44
    while cell() < 44:
        page.click("#zoom-in")
    assert page.inner_text("#zoom-level") != "100 %"
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    version = shown_version(phone)
    page.click(f"#board [data-key='reserve:{place['unit']}'].clickable")
    page.wait_for_selector("#clear-pick")
    square = place.get("square", {})
    row, col = square.get("row", 0), square.get("col", 0)
    page.click(f"#board .cell.clickable[data-row='{row}'][data-col='{col}']")
    page.click(f"#board .face-arrow.clickable[data-key='face:{place['facing']}']")
    page.click("#confirm-move")
    wait_version(phone, version + 1)
    assert cell() >= 44  # the zoom stays across the redraw
    phone.shot("phone-game")
