"""A play session on a WebSocket in JSON (``GET /v1/play``, text frames), from
Chromium's own WebSocket: what a browser needs to play with no protobuf
library (docs/api.md, "Play sessions over a WebSocket")."""

from __future__ import annotations

from tests.web.conftest import Server, Tab
from tests.web.helpers import new_game

PLAY = """async ([gameId, token]) => {
    const ws = new WebSocket(`ws://${location.host}/v1/play`);
    const inbox = [];
    let wake = null;
    ws.onmessage = (event) => {
        inbox.push(JSON.parse(event.data));
        if (wake) { wake(); wake = null; }
    };
    const next = async () => {
        while (!inbox.length) await new Promise((resolve) => { wake = resolve; });
        return inbox.shift();
    };
    await new Promise((resolve, reject) => { ws.onopen = resolve; ws.onerror = reject; });
    ws.send(JSON.stringify({ open: {
        gameId, seatToken: token, withLegalMoves: true, includeCurrent: true } }));
    const first = (await next()).update;
    ws.send(JSON.stringify({ move: {
        expectedVersion: first.version, move: first.legalMoves[0],
        idempotencyKey: "browser-1" } }));
    const answer = await next();
    ws.send("{not json");
    const error = await next();
    const code = await new Promise((resolve) => { ws.onclose = (e) => resolve(e.code); });
    return {
        first: first.version,
        legal: first.legalMoves.length,
        after: answer.update.version,
        result: answer.results[0],
        error: error.error.reason,
        code,
    };
}"""


def test_a_browser_plays_a_json_session_on_its_own_websocket(tab: Tab, server: Server) -> None:
    game = new_game(server, "king_is_dead", 2, seed=5)
    seat = game.snapshot()["toAct"][0]
    tab.page.goto(server.base + "/")
    seen = tab.page.evaluate(PLAY, [game.game_id, game.tokens[seat]])
    assert seen["first"] == "0"
    assert seen["legal"] > 0
    assert seen["after"] == "1"
    assert seen["result"]["version"] == "1"
    assert seen["result"]["idempotencyKey"] == "browser-1"
    assert seen["error"] == "MALFORMED_REQUEST"
    assert seen["code"] == 4003  # 4000 + INVALID_ARGUMENT
    assert game.snapshot()["version"] == "1"
    assert tab.unexpected_errors() == []


ENDED = """async ([gameId, token]) => {
    const { PlaySession } = await import('/web/js/session.js');
    const states = [];
    const session = new PlaySession(gameId, {
        token, onUpdate: () => {}, onStatus: (s) => states.push(s.state) });
    const outcome = await session.start();
    let refused = null;
    try {
        await session.move({ expectedVersion: "0", move: {} }, "after-the-end");
    } catch (error) {
        refused = error.reason;
    }
    return { outcome, states, refused };
}"""


def test_a_session_that_failed_refuses_its_moves_at_once(tab: Tab, server: Server) -> None:
    """web/js/session.js: a session ended for good (here a token of another
    game's seat) says so, and a move sent afterwards is refused, not left
    waiting for a connection that will not come."""
    game = new_game(server, "king_is_dead", 2, seed=6)
    other = new_game(server, "king_is_dead", 2, seed=7)
    tab.page.goto(server.base + "/")
    seen = tab.page.evaluate(ENDED, [game.game_id, other.tokens[0]])
    assert seen["outcome"] == "failed"
    assert seen["states"][-1] == "failed"
    assert seen["refused"] == "SESSION_ENDED"
    assert tab.unexpected_errors() == []
