"""The page's Server-Sent Events reader (web/js/sse.js) in Chromium: events split
across chunks and line endings, and a dropped stream resumed with
Last-Event-ID (here: the stream of a game that ends, whose reconnection with
the last id gets 204 and stops)."""

from __future__ import annotations

from typing import Any

from tests.web.conftest import Server, Tab
from tests.web.helpers import new_game

PARSE = """async (chunks) => {
    const { EventParser } = await import('/web/js/sse.js');
    const events = [];
    const parser = new EventParser((e) => events.push(e));
    for (const chunk of chunks) parser.feed(chunk);
    return events;
}"""

FOLLOW = """async ([url, token]) => {
    const { watchStream } = await import('/web/js/sse.js');
    const ids = [];
    const states = [];
    const result = await watchStream(url, {
        headers: { Authorization: `Bearer ${token}` },
        onEvent: (e) => ids.push(e.id),
        onStatus: (s) => states.push(s.state),
    });
    return { result, ids, states };
}"""


def test_events_split_across_chunks_and_line_endings(tab: Tab, server: Server) -> None:
    tab.page.goto(server.base + "/")
    chunks = [
        "event: upd",
        'ate\r\nid: 1\r\ndata: {"a"',
        ":1}\r\n\r",
        "\n: a comment\n\nevent: heartbeat\nid: 2\ndata: x\ndata: y\n\n",
        "data: no event name\n\n",
    ]
    events = tab.page.evaluate(PARSE, chunks)
    assert events == [
        {"event": "update", "data": '{"a":1}', "id": "1"},
        {"event": "heartbeat", "data": "x\ny", "id": "2"},
        {"event": "message", "data": "no event name", "id": None},
    ]


def test_a_finished_stream_is_resumed_with_last_event_id(tab: Tab, server: Server) -> None:
    game = new_game(server, "king_is_dead", 2, seed=13)
    last = game.play_random(400, seed=13)
    assert game.snapshot()["finished"]
    page = tab.page
    page.goto(server.base + "/")
    watches: list[Any] = []
    page.on("request", lambda r: watches.append(r) if "/watch" in r.url else None)
    url = f"/v1/games/{game.game_id}/watch?fromVersion={last - 2}"
    outcome = page.evaluate(FOLLOW, [url, game.tokens[0]])
    # The two last versions, then the server ends the stream (the game is over);
    # the reader reconnects with the last id and the 204 stops it.
    assert outcome["ids"] == [str(last - 1), str(last)]
    assert outcome["result"] == "finished"
    assert outcome["states"] == ["open", "finished"]
    assert len(watches) == 2
    assert "last-event-id" not in watches[0].headers
    assert watches[1].headers["last-event-id"] == str(last)
    assert watches[1].headers["authorization"] == f"Bearer {game.tokens[0]}"
