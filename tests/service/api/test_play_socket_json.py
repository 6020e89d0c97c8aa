"""Play sessions over a WebSocket in JSON (``GET /v1/play``, the open request as
a text frame): the same session as the binary one, every frame a text frame
holding the proto3 JSON of a PlayRequest or PlayResponse (the REST face's
mapping), for clients without protobuf. What a JSON session adds is tested
here; the session itself (limits, slots, shutdown) is the binary one's
(test_play_socket.py)."""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import grpc
import pytest
from throneroom_server.store.memory import MemoryStore

from tests.service.api.test_play_socket import Served, code_of, ended_with, serve

Json = dict[str, Any]


@pytest.fixture
async def served() -> AsyncIterator[Served]:
    async for value in serve(MemoryStore()):
        yield value


def opening(game_id: str, token: str) -> Json:
    return {
        "open": {
            "gameId": game_id,
            "seatToken": token,
            "withLegalMoves": True,
            "includeCurrent": True,
        }
    }


def moving(version: int, take: int, key: str) -> Json:
    return {
        "move": {
            "expectedVersion": str(version),
            "move": {"nim": {"take": take}},
            "idempotencyKey": key,
        }
    }


async def send(ws: aiohttp.ClientWebSocketResponse, request: Json) -> None:
    await ws.send_str(json.dumps(request))


async def receive(ws: aiohttp.ClientWebSocketResponse) -> Json:
    message = await asyncio.wait_for(ws.receive(), 10)
    assert message.type is aiohttp.WSMsgType.TEXT, (message.type, message.data)
    response: Json = json.loads(message.data)
    assert "error" not in response, response
    return response


async def test_two_json_sessions_play_a_whole_game_each_result_riding_on_its_update(
    served: Served,
) -> None:
    game_id, tokens = await served.new_nim(pile=9)
    sockets = [await served.connect() for _ in tokens]
    for ws, token in zip(sockets, tokens, strict=True):
        await send(ws, opening(game_id, token))
    last: list[Json] = [(await receive(ws))["update"] for ws in sockets]
    assert last[0]["version"] == last[1]["version"] == "0"
    assert last[0]["legalMoves"] == [{"nim": {"take": n}} for n in (1, 2, 3)]
    assert last[1]["legalMoves"] == []  # seat 1 does not act: printed, empty
    moves = 0
    while not last[0]["snapshot"]["finished"]:
        mover = last[0]["snapshot"]["toAct"][0]
        version = int(last[mover]["version"])
        await send(sockets[mover], moving(version, 3 if version < 2 else 1, f"k{version}"))
        for seat, ws in enumerate(sockets):
            response = await receive(ws)
            last[seat] = response["update"]
            assert last[seat]["version"] == str(version + 1)
            if seat == mover:
                (result,) = response["results"]
                assert (result["version"], result["idempotencyKey"]) == (
                    str(version + 1),
                    f"k{version}",
                )
            else:
                assert response["results"] == []
        moves += 1
    assert moves == 5  # 3 + 3 + 1 + 1 + 1
    assert last[0]["snapshot"]["outcome"] == last[1]["snapshot"]["outcome"]
    for ws in sockets:
        closing = await asyncio.wait_for(ws.receive(), 10)
        assert (closing.type, closing.data) == (aiohttp.WSMsgType.CLOSE, aiohttp.WSCloseCode.OK)
    await served.settled(0)


async def test_a_rejected_json_move_is_a_result_and_the_session_goes_on(served: Served) -> None:
    game_id, tokens = await served.new_nim()
    ws = await served.connect()
    await send(ws, opening(game_id, tokens[0]))
    version = int((await receive(ws))["update"]["version"])
    await send(ws, moving(version, 4, "too-many"))  # max_take is 3: illegal
    (rejected,) = (await receive(ws))["results"]
    assert rejected["error"]["code"] == grpc.StatusCode.FAILED_PRECONDITION.value[0]
    assert rejected["error"]["reason"] and rejected["error"]["message"]
    assert rejected["idempotencyKey"] == "too-many"
    await send(ws, moving(version, 2, "take-2"))
    applied = await receive(ws)
    assert applied["update"]["version"] == str(version + 1)
    assert applied["results"][0]["version"] == str(version + 1)
    await ws.close()
    await served.settled(0)


@pytest.mark.parametrize(
    ("frame", "detail"),
    [
        ("{not json", "not valid JSON"),
        ("[1, 2]", "must be a JSON object"),
        ('{"open": {"gameId": "g"}, "bogus": 1}', "bogus"),
        ('{"open": {"fromVersion": "-1"}}', "fromVersion"),
        ('{"move": {"move": ' * 40 + "{}" + "}}" * 40, "nests"),
        ('{"open": {"gameId": "\\ud800"}}', "not Unicode"),
    ],
)
async def test_a_json_session_whose_open_frame_is_malformed_ends_with_its_error(
    served: Served, frame: str, detail: str
) -> None:
    ws = await served.connect()
    await ws.send_str(frame)
    error, code = await ended_with(ws)
    assert (error["code"], error["reason"]) == ("INVALID_ARGUMENT", "MALFORMED_REQUEST")
    assert detail in error["message"]
    assert "frame" in error["message"]
    assert code == code_of(grpc.StatusCode.INVALID_ARGUMENT)
    await served.settled(0)


async def test_a_binary_frame_in_a_json_session_ends_it(served: Served) -> None:
    game_id, tokens = await served.new_nim()
    ws = await served.connect()
    await send(ws, opening(game_id, tokens[0]))
    await receive(ws)
    await ws.send_bytes(b"\x0a\x00")
    error, code = await ended_with(ws)
    assert error["reason"] == "MALFORMED_REQUEST"
    assert "text" in error["message"]
    assert code == code_of(grpc.StatusCode.INVALID_ARGUMENT)
    await served.settled(0)


async def test_a_json_session_opening_a_game_it_cannot_see_ends_with_not_found(
    served: Served,
) -> None:
    ws = await served.connect()
    await send(ws, opening("ffffffffffffffff", ""))
    error, code = await ended_with(ws)
    assert (error["code"], code) == ("NOT_FOUND", code_of(grpc.StatusCode.NOT_FOUND))
    await served.settled(0)


def random_value(rng: random.Random, depth: int = 0) -> Any:
    kinds = ["str", "int", "big", "neg", "float", "bool", "null", "list", "dict", "version"]
    kind = rng.choice(kinds if depth < 3 else kinds[:7])
    if kind == "str":
        return rng.choice(["", "x" * rng.randint(1, 80), "ffffffffffffffff", "\u00e9\u2603", "1"])
    if kind == "int":
        return rng.randint(0, 10)
    if kind == "big":
        return 2**64 + rng.randint(0, 9)
    if kind == "neg":
        return -rng.randint(1, 10)
    if kind == "float":
        return rng.choice([0.5, 1e300, -0.0])
    if kind == "bool":
        return rng.random() < 0.5
    if kind == "null":
        return None
    if kind == "list":
        return [random_value(rng, depth + 1) for _ in range(rng.randint(0, 3))]
    if kind == "version":
        return str(rng.choice([0, 1, 2**64, -1]))
    return random_request(rng, depth + 1)


FIELDS = [
    "open", "move", "gameId", "seatToken", "fromVersion", "heartbeatSeconds",
    "withLegalMoves", "includeCurrent", "expectedVersion", "idempotencyKey", "nim",
    "take", "kingIsDead", "describeLanguage", "game_id", "bogus",
]  # fmt: skip


def random_request(rng: random.Random, depth: int = 0) -> Json:
    return {rng.choice(FIELDS): random_value(rng, depth + 1) for _ in range(rng.randint(0, 3))}


async def test_random_json_frames_are_answered_or_refused_never_an_internal_error(
    served: Served,
) -> None:
    """Hostile frames, first or after a good opening: each either plays or ends
    the session with a precise error (never 1011 or an INTERNAL body), and
    nothing is left holding a stream slot."""
    game_id, tokens = await served.new_nim(pile=20)
    rng = random.Random(2026)
    for case in range(60):
        ws = await served.connect()
        if case % 2:
            await send(ws, opening(game_id, tokens[case % 4 // 2]))
            await receive(ws)
        await ws.send_str(json.dumps(random_request(rng)))
        while True:
            message = await asyncio.wait_for(ws.receive(), 10)
            if message.type is not aiohttp.WSMsgType.TEXT:
                break
            frame = json.loads(message.data)
            if "error" in frame:
                assert frame["error"]["code"] not in ("INTERNAL", "UNKNOWN"), frame
                assert frame["error"]["reason"] and frame["error"]["message"], frame
                message = await asyncio.wait_for(ws.receive(), 10)
                assert message.type is aiohttp.WSMsgType.CLOSE, message
                break
            for result in frame.get("results", []):
                assert result.get("error", {}).get("code") != 13, result  # INTERNAL
            if not frame.get("results") and "update" in frame:
                continue  # an update the frame's move made or a new opening's: read on
            await ws.close()
            break
        if message.type is aiohttp.WSMsgType.CLOSE:
            assert message.data not in (aiohttp.WSCloseCode.INTERNAL_ERROR, 1011), message
        await ws.close()
    await served.settled(0)
