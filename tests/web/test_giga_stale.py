"""Stale moves in Kill the King Giga's simultaneous placement, where
teammates place from one team reserve at once (web/js/bot.js ``again``,
game.js ``send``): a move chosen from a list that a teammate's move made
stale is refused by the server (ILLEGAL_MOVE); an in-page bot then plays
from the fresh list instead of reporting the refusal, and a person sees a
sentence and the list brought up to date, never the move as protobuf text.
The race is made on purpose: the page's move frame is held on its WebSocket
while the teammate places the same unit, then let through."""

from __future__ import annotations

import json
from typing import Any

from tests.web.conftest import Server, Tab
from tests.web.helpers import Game, new_game, open_as, shown_version, wait_version

GIGA = {"mode": "KILL_THE_KING_MODE_KILL_THE_KING_GIGA"}

BOT = """([gameId, token]) => import('/web/js/bot.js').then(({ PageBot }) => {
    window.botErrors = [];
    window.botMoves = [];
    window.bot = new PageBot({
        gameId, seat: 0, token, delayMs: 50,
        onMove: (b, result) => window.botMoves.push(result),
        onError: (b, error) => window.botErrors.push(`${error.reason}: ${error.message}`),
    }).start();
})"""


def giga_placement(server: Server, seed: int) -> Game:
    game = new_game(server, "kill_the_king", 4, options=GIGA, seed=seed)
    game.play_random(400, seed=2, stop=lambda g: g.view()["phase"] == "PHASE_PLACEMENT")
    assert game.snapshot()["toAct"] == [0, 1, 2, 3]
    return game


class HeldMove:
    """The page's first move frame on /v1/play held until ``release``; every
    frame from the server seen."""

    def __init__(self) -> None:
        self.held: list[Any] = []
        self.upstream: Any = None
        self.from_server: list[str] = []
        self.released = False

    def route(self, ws: Any) -> None:
        up = ws.connect_to_server()
        self.upstream = up

        def to_server(message: Any) -> None:
            if '"move"' in str(message) and not self.released and not self.held:
                self.held.append(message)
            else:
                up.send(message)

        def to_page(message: Any) -> None:
            self.from_server.append(str(message))
            ws.send(message)

        ws.on_message(to_server)
        up.on_message(to_page)

    def move(self) -> dict[str, Any]:
        sent: dict[str, Any] = json.loads(self.held[0])["move"]
        return sent

    def release(self) -> None:
        self.released = True
        self.upstream.send(self.held[0])


def teammate_plays(game: Game, move: dict[str, Any]) -> None:
    listed = game.server.call("GET", f"/v1/games/{game.game_id}/legal-moves", token=game.tokens[2])
    assert move in listed["moves"]
    game.server.call(
        "POST",
        f"/v1/games/{game.game_id}/moves",
        {"expectedVersion": listed["version"], "move": move, "idempotencyKey": "teammate"},
        token=game.tokens[2],
    )


def wait_held(tab: Tab, hold: HeldMove) -> None:
    for _ in range(100):
        if hold.held:
            return
        tab.page.wait_for_timeout(100)
    raise AssertionError("no move frame was sent")


def test_an_in_page_bot_plays_from_the_fresh_list_after_a_stale_move(
    tab: Tab, server: Server
) -> None:
    game = giga_placement(server, seed=5)
    hold = HeldMove()
    page = tab.page
    page.route_web_socket("**/v1/play", hold.route)
    page.goto(server.base + "/")
    page.wait_for_selector("body[data-ready='lobby']")
    version = int(game.snapshot()["version"])
    page.evaluate(BOT, [game.game_id, game.tokens[0]])
    wait_held(tab, hold)
    move = hold.move()
    assert move["expectedVersion"] == str(version)
    teammate_plays(game, move["move"])
    hold.release()
    page.wait_for_function("() => window.botMoves.length >= 1")
    page.evaluate("window.bot.stop()")
    assert any("ILLEGAL_MOVE" in frame for frame in hold.from_server)
    assert page.evaluate("window.botErrors") == []
    entries = game.server.call("GET", f"/v1/games/{game.game_id}/history?fromVersion={version}")[
        "entries"
    ]
    assert [e.get("seat", 0) for e in entries[:2]] == [2, 0]


def test_a_person_sees_a_sentence_and_a_fresh_list_after_a_stale_move(
    tab: Tab, server: Server
) -> None:
    game = giga_placement(server, seed=6)
    hold = HeldMove()
    page = tab.page
    page.route_web_socket("**/v1/play", hold.route)
    open_as(tab, game, 0)
    version = shown_version(tab)
    page.locator("#move-list button.move:enabled").first.click()
    wait_held(tab, hold)
    teammate_plays(game, hold.move()["move"])
    wait_version(tab, version + 1)
    hold.release()
    page.wait_for_function(
        "() => /no longer possible/.test(document.querySelector('#move-error').textContent)"
    )
    error = page.inner_text("#move-error")
    assert "{" not in error and "place" not in error
    page.wait_for_selector("#move-list button.move:enabled")
    page.locator("#move-list button.move:enabled").first.click()
    wait_version(tab, version + 2)
    assert tab.unexpected_errors() == []
