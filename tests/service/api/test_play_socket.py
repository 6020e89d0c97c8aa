"""Play sessions over a WebSocket (``GET /v1/play`` on the REST port): the gRPC
Play session's guarantees (results riding on updates, exactly once per
idempotency key, rejections change nothing) through binary frames, errors as
a text frame and a close code of 4000 + the gRPC status code, and every way a
session can end giving its stream slot back."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import aiohttp
import grpc
import pytest
from throneroom.v1 import service_pb2
from throneroom_server.api import play_socket
from throneroom_server.runtime.config import Config
from throneroom_server.runtime.server import RunningServer, create_server
from throneroom_server.store.base import Store
from throneroom_server.store.memory import MemoryStore

from tests.service import rest_helpers
from tests.service.api.test_play_session import move, opening
from tests.service.rest_helpers import Rest
from tests.waiting import until

STREAMS_PER_CLIENT = 3
MAX_MESSAGE_BYTES = 64 * 1024


@dataclass
class Served:
    running: RunningServer
    http: aiohttp.ClientSession
    base: str

    @property
    def open_streams(self) -> int:
        return self.running.app.watch_hub.open_streams

    async def new_nim(self, pile: int = 9) -> tuple[str, list[str]]:
        """A two-seat Nim game through the REST face, and its seat tokens."""
        assert self.running.rest is not None
        rest = Rest(self.running.app, self.running.rest, self.http, self.base)
        game = await rest_helpers.new_nim(rest, pile=pile)
        return game.game_id, game.tokens

    async def connect(self, **options: Any) -> aiohttp.ClientWebSocketResponse:
        return await self.http.ws_connect(f"{self.base}{play_socket.PATH}", **options)

    async def settled(self, open_streams: int) -> None:
        """Wait until the server holds ``open_streams`` streams."""
        await until(lambda: self.open_streams == open_streams, f"{open_streams} streams open")


async def serve(
    store: Store, *, stopped: bool = False, max_message_bytes: int = MAX_MESSAGE_BYTES
) -> AsyncIterator[Served]:
    """A whole server (gRPC and REST) on ``store``; ``stopped``: the test stops it."""
    config = Config(
        listen="127.0.0.1:0",
        http_listen="127.0.0.1:0",
        fixture_games=True,
        max_streams_per_client=STREAMS_PER_CLIENT,
        max_message_bytes=max_message_bytes,
        shutdown_grace_seconds=5,
    )
    running = await create_server(config, store)
    http = aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=20))
    try:
        yield Served(running, http, f"http://127.0.0.1:{running.http_port}")
    finally:
        await http.close()
        if not stopped:
            await running.stop(None)


@pytest.fixture
async def served(store: Store) -> AsyncIterator[Served]:
    async for value in serve(store):
        yield value


async def send(ws: aiohttp.ClientWebSocketResponse, request: service_pb2.PlayRequest) -> None:
    await ws.send_bytes(request.SerializeToString())


async def receive(ws: aiohttp.ClientWebSocketResponse) -> service_pb2.PlayResponse:
    message = await asyncio.wait_for(ws.receive(), 10)
    assert message.type is aiohttp.WSMsgType.BINARY, (message.type, message.data)
    return service_pb2.PlayResponse.FromString(message.data)


async def ended_with(ws: aiohttp.ClientWebSocketResponse) -> tuple[dict[str, Any], int]:
    """The error body (a text frame) and the close code that end a session."""
    message = await asyncio.wait_for(ws.receive(), 10)
    assert message.type is aiohttp.WSMsgType.TEXT, (message.type, message.data)
    error: dict[str, Any] = json.loads(message.data)["error"]
    closing = await asyncio.wait_for(ws.receive(), 10)
    assert closing.type is aiohttp.WSMsgType.CLOSE, closing
    assert ws.close_code == closing.data
    assert closing.extra == error["reason"]
    return error, closing.data


async def closed_with(ws: aiohttp.ClientWebSocketResponse) -> int:
    """The close code that ends a session, past any update or heartbeat before it."""
    closing = await asyncio.wait_for(ws.receive(), 10)
    while closing.type is aiohttp.WSMsgType.BINARY:
        closing = await asyncio.wait_for(ws.receive(), 10)
    assert closing.type is aiohttp.WSMsgType.CLOSE, closing
    code: int = closing.data
    return code


def code_of(status: grpc.StatusCode) -> int:
    return play_socket.CLOSED_WITH_ERROR + int(status.value[0])


async def test_two_seats_play_a_whole_game_each_result_riding_on_its_update(
    served: Served,
) -> None:
    game_id, tokens = await served.new_nim(pile=9)
    sockets = [await served.connect() for _ in tokens]
    for ws, token in zip(sockets, tokens, strict=True):
        await send(ws, opening(game_id, token))
    updates: list[list[service_pb2.GameUpdate]] = [[], []]
    results: list[service_pb2.PlayMoveResult] = []
    for seat, ws in enumerate(sockets):
        first = await receive(ws)  # the current version, with the seat's legal moves
        updates[seat].append(first.update)
    start = updates[0][0].version
    assert updates[1][0].version == start
    while not updates[0][-1].snapshot.finished:
        mover = updates[0][-1].snapshot.to_act[0]
        version = updates[mover][-1].version
        legal = updates[mover][-1].legal_moves
        assert legal, "the seat to act got its legal moves on its own update"
        await send(sockets[mover], move(version, 3 if version < 3 else 1, f"k{version}"))
        for seat, ws in enumerate(sockets):
            response = await receive(ws)
            assert response.update.version == version + 1
            updates[seat].append(response.update)
            if seat == mover:
                (result,) = response.results  # the result rides on the update it made
                assert (result.version, result.idempotency_key) == (version + 1, f"k{version}")
                results.append(result)
            else:
                assert not response.results
    assert [r.version for r in results] == list(range(start + 1, start + 1 + len(results)))
    for ws in sockets:  # the game delivered to its end: the session closes normally
        assert await closed_with(ws) == aiohttp.WSCloseCode.OK
    await served.settled(0)


async def test_a_rejected_move_is_a_result_and_a_retried_one_is_replayed(served: Served) -> None:
    game_id, tokens = await served.new_nim()
    ws = await served.connect()
    await send(ws, opening(game_id, tokens[0]))
    v = (await receive(ws)).update.version
    await send(ws, move(v, 4, "too-many"))  # max_take is 3: illegal
    rejected = (await receive(ws)).results[0]
    assert rejected.error.code == grpc.StatusCode.FAILED_PRECONDITION.value[0]
    assert rejected.error.reason and rejected.error.message
    await send(ws, move(v, 2, "take-2"))
    applied = await receive(ws)
    assert applied.update.version == v + 1
    assert (applied.results[0].version, applied.results[0].replayed) == (v + 1, False)
    await send(ws, move(v, 2, "take-2"))  # the same key again: the first result, not a move
    replayed = (await receive(ws)).results[0]
    assert (replayed.version, replayed.replayed) == (v + 1, True)
    async with served.http.get(f"{served.base}/v1/games/{game_id}") as reply:
        assert (await reply.json())["snapshot"]["version"] == str(v + 1)
    await ws.close()
    await served.settled(0)


@pytest.mark.parametrize(
    ("first", "status", "reason"),
    [
        (b"\xff\xff\xff", grpc.StatusCode.INVALID_ARGUMENT, "MALFORMED_REQUEST"),
        ("a text frame", grpc.StatusCode.INVALID_ARGUMENT, "MALFORMED_REQUEST"),
        (move(1, 1, "k"), grpc.StatusCode.INVALID_ARGUMENT, "MALFORMED_REQUEST"),
        ("unknown game", grpc.StatusCode.NOT_FOUND, None),
        ("wrong token", grpc.StatusCode.PERMISSION_DENIED, None),
    ],
)
async def test_a_session_that_cannot_open_ends_with_its_error(
    served: Served, first: Any, status: grpc.StatusCode, reason: str | None
) -> None:
    game_id, tokens = await served.new_nim()
    ws = await served.connect()
    if first == "unknown game":
        await send(ws, opening("ffffffffffffffff", "token"))
    elif first == "wrong token":
        wrong = "0." + tokens[1].split(".", 1)[1]  # seat 1's secret for seat 0
        await send(ws, opening(game_id, wrong))
    elif isinstance(first, str):
        await ws.send_str(first)
    elif isinstance(first, bytes):
        await ws.send_bytes(first)
    else:
        await send(ws, first)
    error, code = await ended_with(ws)
    assert (error["code"], code) == (status.name, code_of(status))
    assert error["reason"] == (reason or error["reason"]) and error["reason"]
    assert error["message"]
    await served.settled(0)


async def test_a_bad_frame_after_the_opening_ends_the_session(served: Served) -> None:
    game_id, tokens = await served.new_nim()
    ws = await served.connect()
    await send(ws, opening(game_id, tokens[0]))
    await receive(ws)
    await ws.send_bytes(b"\x0a\x05")  # a truncated field: not a PlayRequest
    error, code = await ended_with(ws)
    assert (error["reason"], code) == (
        "MALFORMED_REQUEST",
        code_of(grpc.StatusCode.INVALID_ARGUMENT),
    )
    await served.settled(0)


async def test_a_request_that_is_not_an_upgrade_is_a_json_error(served: Served) -> None:
    async with served.http.get(f"{served.base}{play_socket.PATH}") as reply:
        assert reply.status == 400
        body = await reply.json()
    assert body["error"]["reason"] == "MALFORMED_REQUEST"
    assert "WebSocket" in body["error"]["message"]


async def test_a_frame_over_the_message_limit_closes_with_1009_and_its_reason_and_frees_the_slot(
    served: Served,
) -> None:
    game_id, tokens = await served.new_nim()
    ws = await served.connect()
    await send(ws, opening(game_id, tokens[0]))
    await receive(ws)
    assert served.open_streams == 1
    # Far larger than the socket buffers: most of it is still on its way when
    # the server refuses it, and is read out so that the close frame arrives.
    await ws.send_bytes(bytes(MAX_MESSAGE_BYTES * 64))
    closing = await asyncio.wait_for(ws.receive(), 10)
    while closing.type is aiohttp.WSMsgType.BINARY:
        closing = await asyncio.wait_for(ws.receive(), 10)
    assert closing.type is aiohttp.WSMsgType.CLOSE, closing
    assert closing.data == aiohttp.WSCloseCode.MESSAGE_TOO_BIG
    assert closing.extra == f"MESSAGE_TOO_BIG: a frame is larger than {MAX_MESSAGE_BYTES} bytes"
    await served.settled(0)


async def test_a_client_that_goes_away_gives_its_stream_back(served: Served) -> None:
    game_id, tokens = await served.new_nim()
    held = []
    lost = aiohttp.ClientSession()
    for n in range(STREAMS_PER_CLIENT):
        url = f"{served.base}{play_socket.PATH}"
        ws = await (lost.ws_connect(url) if n == 0 else served.connect())
        await send(ws, opening(game_id, tokens[0]))
        await receive(ws)
        held.append(ws)
    refused = await served.connect()  # one stream too many for this client
    await send(refused, opening(game_id, tokens[0]))
    error, code = await ended_with(refused)
    assert (error["reason"], code) == (
        "TOO_MANY_STREAMS",
        code_of(grpc.StatusCode.RESOURCE_EXHAUSTED),
    )
    await held.pop().close()  # a clean close (the close frame, answered)
    await served.settled(STREAMS_PER_CLIENT - 1)
    await lost.close()  # a peer lost: its connection closed, no close frame sent
    await served.settled(STREAMS_PER_CLIENT - 2)
    again = await served.connect()
    await send(again, opening(game_id, tokens[0]))
    assert (await receive(again)).update.snapshot.game_id == game_id


async def test_a_peer_that_stops_answering_pings_is_dropped(
    served: Served, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(play_socket, "PING_SECONDS", 0.5)
    game_id, tokens = await served.new_nim()
    lively = await served.connect()  # reads: aiohttp answers each ping
    await send(lively, opening(game_id, tokens[1]))
    silent = await served.connect(autoping=False)
    await send(silent, opening(game_id, tokens[0]))
    await served.settled(2)

    async def read_all() -> None:
        async for _ in lively:  # each receive answers the pings that came before
            pass

    reader = asyncio.get_running_loop().create_task(read_all())
    await asyncio.sleep(2.5)  # time passing is what is tested: five pings, the lively peer answers
    await served.settled(1)
    assert not lively.closed
    reader.cancel()


def test_the_shipped_ping_interval_and_opening_time() -> None:
    """30 s: a dead peer holds its stream slot at most 45 s (ping + half again);
    a connection that never opens a session is closed after 10 s."""
    assert (play_socket.PING_SECONDS, play_socket.OPEN_SECONDS) == (30.0, 10.0)


async def test_a_connection_that_never_opens_a_session_is_closed(
    served: Served, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(play_socket, "OPEN_SECONDS", 0.3)
    ws = await served.connect()
    error, code = await ended_with(ws)
    assert (error["reason"], code) == ("OPEN_TIMEOUT", code_of(grpc.StatusCode.INVALID_ARGUMENT))
    assert "open request" in error["message"]


async def test_a_server_shutting_down_closes_its_sessions_with_1001() -> None:
    served = serve(MemoryStore(), stopped=True)
    async for running in served:
        game_id, tokens = await running.new_nim()
        ws = await running.connect()
        await send(ws, opening(game_id, tokens[0]))
        await receive(ws)
        stopping = asyncio.get_running_loop().create_task(running.running.stop(5))
        assert await closed_with(ws) == aiohttp.WSCloseCode.GOING_AWAY
        await stopping


async def test_a_browser_offers_its_api_key_as_a_subprotocol(served: Served) -> None:
    """Browsers cannot set X-Api-Key on a WebSocket: the key may come as the
    subprotocol throneroom.key.<key> (read as the header is: a wrong one is
    refused API_KEY_INVALID), and the server answers throneroom.v1 (never the key)."""
    game_id, tokens = await served.new_nim()
    plain = await served.connect(protocols=(play_socket.PROTOCOL,))
    assert plain.protocol == play_socket.PROTOCOL
    await send(plain, opening(game_id, tokens[0]))
    assert (await receive(plain)).update.version == 0
    await plain.close()
    keyed = await served.connect(protocols=(play_socket.PROTOCOL, "throneroom.key.not-a-key"))
    assert keyed.protocol == play_socket.PROTOCOL
    await send(keyed, opening(game_id, tokens[0]))
    error, code = await ended_with(keyed)
    assert (error["reason"], code) == (
        "API_KEY_INVALID",
        code_of(grpc.StatusCode.PERMISSION_DENIED),
    )
    assert play_socket.key_protocol("throneroom.v1, throneroom.key.abc") == "abc"
    assert play_socket.key_protocol("throneroom.v1") == ""
