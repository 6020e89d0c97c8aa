"""Seat links and kept tokens (web/js/game.js): a seat's link opened in a
browser without that seat's token spectates, with a notice saying why; a kept
token the server refuses (malformed, or another game's) does not replace the
page with an error: the page spectates and offers to forget the token."""

from __future__ import annotations

import json

import pytest

from tests.web.conftest import Server, Tab
from tests.web.helpers import new_game, wait_version


def test_a_seat_link_without_its_token_spectates_with_a_notice(tab: Tab, server: Server) -> None:
    game = new_game(server, "king_is_dead", 2, seed=8)
    game.play_random(3, seed=8)
    page = tab.page
    page.goto(f"{server.base}/#/game/{game.game_id}/seat/1")
    page.wait_for_selector("body[data-ready='game']")
    page.wait_for_selector("#board svg.board")
    notice = page.locator("#notice")
    assert notice.is_visible()
    assert "seat 1" in notice.inner_text() and "spectating" in notice.inner_text()
    assert page.inner_text("#status").startswith("You are spectating.")
    assert page.locator("#no-moves").count() == 0
    assert "Spectators have no moves" in page.inner_text("#moves")
    # It follows the game live, as a spectator does.
    version = int(game.snapshot()["version"])
    game.play_random(1, seed=9)
    wait_version(tab, version + 1)
    assert game.snapshot()["seats"][1]["taken"]


@pytest.mark.parametrize("kind", ["malformed", "another game's"])
def test_a_refused_kept_token_spectates_and_can_be_forgotten(
    tab: Tab, server: Server, kind: str
) -> None:
    game = new_game(server, "king_is_dead", 2, seed=9)
    other = new_game(server, "king_is_dead", 2, seed=10)
    token = "not-a-token" if kind == "malformed" else other.tokens[0]
    tab.allow_status(400 if kind == "malformed" else 403)
    page = tab.page
    page.goto(server.base + "/")
    page.wait_for_selector("body[data-ready='lobby']")
    held = {"0": {"token": token, "name": "P0", "bot": False}}
    page.evaluate(
        "([key, value]) => localStorage.setItem(key, value)",
        [f"throneroom.seats.{game.game_id}", json.dumps(held)],
    )
    page.goto(f"{server.base}/#/game/{game.game_id}/seat/0")
    page.wait_for_selector("body[data-ready='game']")
    page.wait_for_selector("#board svg.board")
    assert "spectating" in page.inner_text("#notice")
    assert page.inner_text("#status").startswith("You are spectating.")
    page.click("#forget-token")
    assert "forgotten" in page.inner_text("#notice")
    kept = page.evaluate(f"JSON.parse(localStorage.getItem('throneroom.seats.{game.game_id}'))")
    assert kept == {}
    # Opened again, the link spectates with the no-token notice.
    page.reload()
    page.wait_for_selector("#board svg.board")
    assert "does not hold its token" in page.inner_text("#notice")
