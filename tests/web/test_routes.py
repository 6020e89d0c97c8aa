"""Leaving a page while it loads (web/js/app.js route): the page left goes on
loading, but it never draws over the page that replaced it, and it starts
nothing (no stream, no in-page bot)."""

from __future__ import annotations

from typing import Any

from tests.web.conftest import Server, Tab
from tests.web.helpers import new_game

# Records whether a game page's frame was ever attached to the document.
WATCH_FOR_A_GAME = """() => {
  window.gameDrawn = false;
  new MutationObserver(() => {
    if (document.querySelector('#main .game')) window.gameDrawn = true;
  }).observe(document.body, { childList: true, subtree: true });
}"""


def test_a_game_left_while_it_loads_never_covers_the_lobby(tab: Tab, server: Server) -> None:
    game = new_game(server, "kill_the_king", 2)
    page = tab.page
    page.goto(server.base + "/")
    page.wait_for_selector("body[data-ready='lobby']")
    held: list[Any] = []
    snapshot_url = f"**/v1/games/{game.game_id}"

    def hold(route: Any) -> None:  # playwright wants a Python function here
        held.append(route)

    page.route(snapshot_url, hold)
    page.evaluate(WATCH_FOR_A_GAME)
    page.evaluate(f"location.hash = '#/game/{game.game_id}'")
    page.wait_for_selector("#main >> text=Loading")  # the game page waits for its snapshot
    page.evaluate("location.hash = '#/'")
    page.wait_for_selector("body[data-ready='lobby']")
    page.wait_for_selector("#game-list .game-row, #game-list p")
    assert len(held) == 1
    # The snapshot arrives now, after the lobby replaced the game page.
    with page.expect_request_finished(lambda request: request.url.endswith(game.game_id)):
        held[0].continue_()
    page.unroute(snapshot_url)
    # Two round trips later the left page has done all it would do with it.
    page.evaluate("async () => { await fetch('/v1/game-types'); await fetch('/v1/game-types'); }")
    assert page.locator("#game-list").is_visible()
    assert page.locator("#main .game").count() == 0
    assert page.evaluate("window.gameDrawn") is False
    assert page.evaluate("document.body.dataset.ready") == "lobby"
