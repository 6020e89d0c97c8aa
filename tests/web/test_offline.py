"""Offline and pending states of the game page and the lobby (web/js/game.js
``onConnection``, ``loadFailed``; lobby.js): with the server stopped the
status line says so and no move can be made; a move sent and not yet
answered shows as pending; a page that failed to load has a Retry button and
comes back by itself once the server is up again."""

from __future__ import annotations

from typing import Any

from tests.web.conftest import RestartableServer, Server, Tab
from tests.web.helpers import new_game, open_as, shown_version, wait_version

REFUSED = "ERR_CONNECTION_REFUSED"


def test_offline_disables_the_moves_until_the_server_is_back(
    tab: Tab, restartable: RestartableServer
) -> None:
    tab.allow_text(REFUSED)
    tab.allow_text("WebSocket")
    game = new_game(restartable, "king_is_dead", 2, seed=3)
    seat = game.snapshot()["toAct"][0]
    open_as(tab, game, seat)
    page = tab.page
    page.wait_for_selector("#move-list button.move:enabled")
    assert "Your turn" in page.inner_text("#status")
    restartable.down()
    page.wait_for_selector("#status[data-state='offline']")
    status = page.inner_text("#status")
    assert "Offline" in status and "Your turn" not in status
    page.wait_for_selector("#offline-moves")
    assert page.locator("#move-list button.move:enabled").count() == 0
    assert page.locator("#move-list button.move").count() > 0
    assert page.locator("#board [data-key].clickable").count() == 0
    tab.shot("offline")
    restartable.up()
    page.wait_for_selector("#status[data-state='online']", timeout=30_000)
    assert "Your turn" in page.inner_text("#status")
    assert page.locator("#offline-moves").count() == 0
    version = shown_version(tab)
    page.locator("#move-list button.move:enabled").first.click()
    wait_version(tab, version + 1)
    assert int(game.snapshot()["version"]) == version + 1


def test_a_page_that_failed_to_load_retries_and_has_a_retry_button(
    tab: Tab, restartable: RestartableServer
) -> None:
    tab.allow_text(REFUSED)
    game = new_game(restartable, "king_is_dead", 2, seed=4)
    page = tab.page
    page.goto(restartable.base + "/")
    page.wait_for_selector("#create-form")
    restartable.down()
    # The lobby, opened again while the server is down, says so and comes
    # back by itself once it is up.
    page.evaluate("location.hash = '#/record'")
    page.wait_for_selector("body[data-ready='record']")
    page.evaluate("location.hash = '#/'")
    page.wait_for_selector("#load-error")
    assert page.locator("#retry").count() == 1
    restartable.up()
    page.wait_for_selector("#create-form", timeout=20_000)
    # A game page that failed to load comes back with Retry.
    restartable.down()
    page.evaluate(f"location.hash = '#/game/{game.game_id}'")
    page.wait_for_selector("#load-error")
    assert game.game_id in page.inner_text("#load-error")
    restartable.up()
    page.click("#retry")
    page.wait_for_selector("#board svg.board")
    assert page.locator("#load-error").count() == 0


def test_a_move_not_yet_answered_shows_as_pending(tab: Tab, server: Server) -> None:
    game = new_game(server, "king_is_dead", 2, seed=5)
    seat = game.snapshot()["toAct"][0]
    page = tab.page
    held: list[Any] = []
    upstream: list[Any] = []

    def hold_moves(ws: Any) -> None:
        up = ws.connect_to_server()
        upstream.append(up)
        ws.on_message(lambda m: held.append(m) if '"move"' in str(m) else up.send(m))

    page.route_web_socket("**/v1/play", hold_moves)
    open_as(tab, game, seat)
    page.wait_for_selector("#move-list button.move:enabled")
    version = shown_version(tab)
    page.locator("#move-list button.move:enabled").first.click()
    page.wait_for_selector("#pending-move")
    assert page.get_attribute("#status", "data-state") == "pending"
    assert page.locator("#move-list button.move:enabled").count() == 0
    assert held, "the move frame was not held"
    for message in held:
        upstream[-1].send(message)
    wait_version(tab, version + 1)
    page.wait_for_selector("#pending-move", state="detached")
    assert page.get_attribute("#status", "data-state") == "online"
