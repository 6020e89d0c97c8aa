"""The web client in a real headless Chromium: the lobby, creating and joining
from the page, a whole game of The King Is Dead between a player clicking in
the page and an in-page bot, a spectator following live, the history slider,
Spanish descriptions and the keyboard. Every test fails on a console error
(the ``tab`` fixture)."""

from __future__ import annotations

import random
from typing import Any

import pytest
from playwright.sync_api import Error as PlaywrightError

from tests.web.conftest import Server, Tab, new_tab
from tests.web.helpers import (
    new_game,
    open_as,
    set_slider,
    shown_version,
    wait_board_label,
    wait_text,
    wait_version,
)

MAX_DECISIONS = 400


@pytest.fixture(params=["memory", pytest.param("redis", marks=pytest.mark.redis)])
def any_server(request: pytest.FixtureRequest) -> Server:
    """The REST face over the memory store, then over Redis."""
    name = "server" if request.param == "memory" else "redis_server"
    result: Server = request.getfixturevalue(name)
    return result


def test_lobby_lists_a_created_game(tab: Tab, any_server: Server) -> None:
    game = new_game(any_server, "king_is_dead", 2, join=1)
    page = tab.page
    page.goto(any_server.base + "/")
    row = page.locator(f"#game-list .game-row[data-game-id='{game.game_id}']")
    row.wait_for()
    assert "1/2 seats" in row.inner_text()
    assert row.locator("button.join").inner_text() == "Join seat 1"
    tab.shot("lobby")
    # Join from the lobby: the page takes seat 1 and keeps its token.
    row.locator("button.join").click()
    page.wait_for_url(f"**/#/game/{game.game_id}/seat/1")
    page.wait_for_selector("#seats-title")
    assert page.locator(".seat[data-seat='1'] .tag.you").count() == 1
    kept = page.evaluate(f"JSON.parse(localStorage.getItem('throneroom.seats.{game.game_id}'))")
    assert set(kept) == {"1"} and kept["1"]["token"].startswith("1.")
    assert game.snapshot()["started"]


def test_create_and_join_from_the_page(tab: Tab, any_server: Server) -> None:
    page = tab.page
    page.goto(any_server.base + "/")
    page.select_option("#create-type", "king_is_dead")
    page.select_option("#create-seats", "3")
    page.check("#opt-kingIsDead-mordred")
    page.fill("#create-name", "Ann")
    page.click("#create-submit")
    page.wait_for_url("**/#/game/*/seat/0")
    game_id = page.url.split("/#/game/")[1].split("/")[0]
    page.wait_for_selector("#board svg.board")
    snapshot = any_server.call("GET", f"/v1/games/{game_id}")["snapshot"]
    assert snapshot["numSeats"] == 3
    assert snapshot["view"]["kingIsDead"]["mordred"] is True
    assert snapshot["seats"][0] == {"seat": 0, "taken": True, "displayName": "Ann"}
    assert page.locator(".seat[data-seat='0'] .tag.you").count() == 1
    assert page.locator("button.join-seat").count() == 2
    # The share link names the game, not the seat (the token stays in this browser).
    assert page.input_value("#share-link").endswith(f"#/game/{game_id}")


def click_a_move(page: Any, rng: random.Random, version: int) -> str:
    """Make one decision as a person would: click highlighted things on the
    board until the move is sent, else (several moves left after the clicks)
    a move of the narrowed list."""
    for _ in range(4):  # a move takes at most three clicks on the board
        clickable = page.locator("#board [data-key].clickable")
        count = clickable.count()
        if not count:
            break
        try:
            clickable.nth(rng.randrange(count)).click(timeout=2_000)
        except PlaywrightError:  # redrawn meanwhile (an update came): look again
            continue
        page.wait_for_function(
            """(v) => {
                const svg = document.querySelector('#board svg.board');
                const m = /version (\\d+)/.exec(svg.getAttribute('aria-label'));
                return Number(m[1]) > v || document.querySelector('#clear-pick')
                    || document.querySelector('#confirm-move');
            }""",
            arg=version,
        )
        if shown_version_of(page) > version:
            return "board"
        if page.locator("#confirm-move:enabled").count():
            # A move of several clicks: the page shows it in words and waits for Confirm.
            try:
                page.click("#confirm-move", timeout=2_000)
            except PlaywrightError:  # redrawn meanwhile: look again
                continue
            return "board"
    moves = page.locator("#move-list button.move:enabled")
    count = moves.count()
    if count:
        try:
            moves.nth(rng.randrange(count)).click(timeout=2_000)
        except PlaywrightError:
            return "none"
        return "list"
    return "none"


def shown_version_of(page: Any) -> int:
    label = page.get_attribute("#board svg.board", "aria-label") or ""
    return int(label.rsplit("version ", 1)[1].split()[0])


def test_a_whole_king_is_dead_game_against_an_in_page_bot(tab: Tab, any_server: Server) -> None:
    rng = random.Random(5)
    game = new_game(any_server, "king_is_dead", 2, join=1, seed=11)
    page = tab.page
    sent: list[Any] = []  # the REST face's calls made with the seat's token
    page.on(
        "request",
        lambda r: (
            sent.append(r) if r.headers.get("authorization") == f"Bearer {game.tokens[0]}" else None
        ),
    )
    moved: list[Any] = []  # moves sent through the REST face, by anyone in the page
    page.on("request", lambda r: moved.append(r) if r.url.endswith("/moves") else None)
    open_as(tab, game, 0)
    # The seat plays on a WebSocket play session, live once it is open.
    page.wait_for_selector("#connection[data-transport='websocket'][data-state='open']")
    assert page.locator("#board .region").count() == 8
    assert page.locator("#board .border").count() == 13
    page.click("#seat-bots")
    page.wait_for_selector(".seat[data-seat='1'] .tag.bot")
    tab.shot("king_is_dead-start")
    versions = [shown_version(tab)]
    follower_totals = set()
    ways = {"board": 0, "list": 0, "none": 0}
    for _ in range(MAX_DECISIONS):
        try:
            page.wait_for_function(
                """() => document.querySelector('#outcome') ||
                         document.querySelector('#move-list button.move:enabled')""",
                timeout=30_000,
            )
        except Exception:
            tab.shot("king_is_dead-stuck")
            raise
        if page.locator("#outcome").count():
            break
        version = shown_version(tab)
        way = click_a_move(page, rng, version)
        ways[way] += 1
        if way != "none":
            wait_version(tab, version + 1)
        versions.append(shown_version(tab))
        follower_totals.add(page.locator("#board .map .follower-count").count())
    else:
        pytest.fail("the game did not end")
    snapshot = game.snapshot()
    assert snapshot["finished"], snapshot
    page.wait_for_selector("#outcome")
    assert shown_version(tab) == int(snapshot["version"])
    assert page.inner_text("#outcome-text") == game.outcome_text(0)
    assert versions == sorted(versions) and len(set(versions)) > 10
    assert ways["board"] > 0 and ways["list"] > 0, ways  # both ways of choosing were used
    assert len(follower_totals) > 1  # the board changed as followers moved
    assert page.locator("#event-log li").count() == int(snapshot["version"])
    # Its moves and updates went over the session: no move or watch call through
    # the REST face with its token, and legal moves asked for only as the page
    # started (the bot seated), not per move.
    assert not [r.url for r in sent if r.url.endswith("/moves") or "/watch" in r.url], sent
    assert len([r for r in sent if "/legal-moves" in r.url]) <= 2, sent
    assert moved == []  # the in-page bot plays on its own session too
    assert page.get_attribute("#connection", "data-state") == "finished"
    tab.shot("king_is_dead-over")


def test_a_spectator_follows_live_and_steps_back_in_history(
    browser: Any, tab: Tab, server: Server
) -> None:
    game = new_game(server, "king_is_dead", 2, seed=3)
    game.play_random(6)
    open_as(tab, game, None)
    page = tab.page
    assert page.locator("#move-list").count() == 0
    assert "spectating" in page.inner_text("#status")
    assert page.get_attribute("#connection", "data-transport") == "sse"  # a spectator watches
    other = new_tab(browser)
    try:
        open_as(other, game, 0)
        # Moves made elsewhere reach the spectator through its watch stream.
        reached = game.play_random(5, seed=9)
        wait_version(tab, reached)
        wait_version(other, reached)
        assert shown_version(tab) == reached
        assert not other.errors, other.errors
    finally:
        other.page.context.close()
    # The history slider shows an earlier version, with its board.
    slider = page.locator("#history-slider")
    assert slider.get_attribute("max") == str(reached)
    set_slider(tab, 3)
    wait_text(tab, "#history-label", "version 3 of")
    wait_board_label(tab, "version 3\\b")
    assert "(history)" in page.inner_text("#status")
    assert page.locator("#event-log li.current").get_attribute("data-version") == "3"
    tab.shot("history")
    page.click("#history-live")
    wait_board_label(tab, f"version {reached}\\b")


def test_descriptions_in_spanish_and_moves_by_keyboard(tab: Tab, server: Server) -> None:
    game = new_game(server, "king_is_dead", 2, seed=4)
    open_as(tab, game, 0)
    page = tab.page
    page.wait_for_selector("#move-list button.move:enabled")
    assert page.locator("#move-list code.notation").count() > 0
    page.select_option("#language", "es")
    wait_text(tab, "#move-list", "Juega la carta|Pasa")
    texts = page.locator("#move-list .text").all_inner_texts()
    assert "Pasa" in texts, texts
    # A card of the hand, reached with Tab and played with Enter.
    card = page.locator("#board .hand-card.clickable").first
    card.focus()
    page.keyboard.press("Enter")
    wait_version(tab, 1)
    assert game.snapshot()["version"] == "1"
    # The log of the new version, from the stream, in Spanish too.
    wait_text(tab, "#event-log", "Juegas la carta")
    tab.shot("king_is_dead-es")


NO_WEBSOCKETS = """window.WebSocket = class {
    constructor() { setTimeout(() => this.onclose?.({ code: 1006 }), 0); }
    send() { throw new Error("not connected"); }
    close() {}
};"""


def test_a_seat_whose_browser_cannot_open_a_websocket_plays_through_the_rest_face(
    tab: Tab, server: Server
) -> None:
    """A proxy or browser without WebSockets: the seat's page follows the watch
    stream instead and sends its moves as REST calls."""
    game = new_game(server, "king_is_dead", 2, seed=8)
    page = tab.page
    page.add_init_script(NO_WEBSOCKETS)
    moved: list[Any] = []
    page.on("request", lambda r: moved.append(r) if r.url.endswith("/moves") else None)
    seat = int(game.snapshot()["toAct"][0])
    open_as(tab, game, seat)
    page.wait_for_selector("#connection[data-transport='sse'][data-state='open']")
    page.locator("#move-list button.move:enabled").first.click()
    wait_version(tab, 1)
    assert game.snapshot()["version"] == "1"
    assert [r.method for r in moved] == ["POST"]
