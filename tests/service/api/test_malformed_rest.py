"""Malformed input through the REST face: a 4xx with the usual error body for
each kind (never a 500), and nothing changed."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest
from throneroom_server.store.base import Store

from tests.service.rest_helpers import Rest, expect_error, new_nim, start, stop, take


@pytest.fixture
async def rest(store: Store) -> AsyncIterator[Rest]:
    service = await start(store)
    yield service
    await stop(service)


async def _post_without_content_type(rest: Rest, path: str, body: bytes) -> tuple[int, Any]:
    """A POST with no Content-Type header at all (aiohttp would add one)."""
    session = aiohttp.ClientSession(skip_auto_headers=["Content-Type"])
    async with session, session.post(rest.base + path, data=body) as response:
        return response.status, await response.json()


async def test_bodies_must_be_declared_json(rest: Rest, monkeypatch: pytest.MonkeyPatch) -> None:
    game = await new_nim(rest, pile=5)
    open_game = await rest.ok("POST", "/v1/games", body={"options": {"nim": {}}, "numSeats": 2})
    gid, oid = game.game_id, open_game["gameId"]
    before = await rest.state_bytes(gid, game.tokens[0])

    async def no_store_writes(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("a refused request reached the store")

    for name in ("create_game", "claim_seat", "commit"):
        monkeypatch.setattr(rest.app.store, name, no_store_writes)
    requests: list[tuple[str, dict[str, Any]]] = [
        ("/v1/games", {"body": {"options": {"nim": {}}, "numSeats": 2}}),
        (f"/v1/games/{oid}/seats", {"body": {"displayName": "x"}}),
        (f"/v1/games/{oid}/seats", {"raw": b""}),
        (f"/v1/games/{gid}/moves", {"body": take(1, 0, "k"), "token": game.tokens[0]}),
    ]
    for content_type in (
        "text/plain",
        "text/plain; charset=utf-8",
        "application/x-www-form-urlencoded",
        "multipart/form-data; boundary=x",
        "application/json; charset=latin-1",
        "application/jsonx",
        "application/problem+json",
    ):
        for path, kwargs in requests:
            body = await expect_error(
                rest,
                "POST",
                path,
                (415, "INVALID_ARGUMENT", "UNSUPPORTED_MEDIA_TYPE"),
                headers={"Content-Type": content_type},
                **kwargs,
            )
            assert "application/json" in body["error"]["message"]
    for path, _ in requests:
        status, body = await _post_without_content_type(rest, path, b"{}")
        assert (status, body["error"]["reason"]) == (415, "UNSUPPORTED_MEDIA_TYPE")
    monkeypatch.undo()
    assert await rest.state_bytes(gid, game.tokens[0]) == before
    seats = (await rest.ok("GET", f"/v1/games/{oid}"))["snapshot"]["seats"]
    assert not any(s["taken"] for s in seats)
    # A charset parameter is fine when it is UTF-8, in any case.
    joined = await rest.ok(
        "POST",
        f"/v1/games/{oid}/seats",
        body={"displayName": "Jo"},
        headers={"Content-Type": "application/json; charset=UTF-8"},
    )
    assert joined["seat"] == 0


@pytest.mark.parametrize("depth", [33, 1000, 100_000])
async def test_deeply_nested_json_is_400(rest: Rest, depth: int) -> None:
    raw = b'{"options":' + b"[" * depth + b"]" * depth + b"}"
    body = await expect_error(
        rest, "POST", "/v1/games", (400, "INVALID_ARGUMENT", "MALFORMED_REQUEST"), raw=raw
    )
    assert "32 deep" in body["error"]["message"]


async def test_json_within_the_depth_bound_is_parsed(rest: Rest) -> None:
    # 32 levels is allowed: the mapping itself then says what is wrong.
    raw = b'{"options":' + b"[" * 31 + b"]" * 31 + b"}"
    body = await expect_error(
        rest, "POST", "/v1/games", (400, "INVALID_ARGUMENT", "MALFORMED_REQUEST"), raw=raw
    )
    assert "deep" not in body["error"]["message"]


async def test_malformed_json_of_every_kind_is_400(rest: Rest) -> None:
    game = await new_nim(rest)
    moves = f"/v1/games/{game.game_id}/moves"
    before = await rest.state_bytes(game.game_id, game.tokens[0])
    for raw in (
        b"\xff\xfe{",  # not UTF-8
        b'{"idempotencyKey":"\\ud800","move":{"nim":{"take":1}},"expectedVersion":0}',
        b'{"\\ud800":1}',  # an unpaired surrogate as a field name
        b'{"move":{"\\udc80nim":{}}}',
        b'{"expectedVersion":1e400}',
        b'{"expectedVersion":"\\u0661"}',
        b'{"expectedVersion":NaN}',
        b'{"move":{"nim":{"take":99999999999999999999}}}',
        b'{"move":{"nim":{"take":1},"kingIsDead":{}}}',
        b'{"move":null,"move":{}}',
        b"[]",
        b'"text"',
    ):
        status, body, _ = await rest.call("POST", moves, raw=raw, token=game.tokens[0])
        assert 400 <= status < 500, (raw, body)
        assert body["error"]["code"] in ("INVALID_ARGUMENT", "FAILED_PRECONDITION"), raw
    assert await rest.state_bytes(game.game_id, game.tokens[0]) == before


@pytest.mark.parametrize(
    "last_event_id",
    ["\u00b2", "\u0661", "01", "00", "-1", "+1", "1.0", "1e3", "1" * 21, str(2**64), "0x1"],
)
async def test_a_malformed_last_event_id_is_400(rest: Rest, last_event_id: str) -> None:
    game = await new_nim(rest)
    await expect_error(
        rest,
        "GET",
        f"/v1/games/{game.game_id}/watch",
        (400, "INVALID_ARGUMENT", "MALFORMED_REQUEST"),
        headers={"Last-Event-ID": last_event_id},
    )


async def test_malformed_bearer_tokens_are_400_and_wrong_ones_403(rest: Rest) -> None:
    game = await new_nim(rest)
    gid = game.game_id
    seat, _, secret = game.tokens[1].partition(".")
    for token in (f"\u00b2.{secret}", f"0{seat}.{secret}", f"{seat}.{secret}x", "x"):
        await expect_error(
            rest,
            "GET",
            f"/v1/games/{gid}/legal-moves",
            (400, "INVALID_ARGUMENT", "SEAT_TOKEN_MALFORMED"),
            token=token,
        )
    await expect_error(
        rest,
        "GET",
        f"/v1/games/{gid}/legal-moves",
        (403, "PERMISSION_DENIED", "SEAT_TOKEN_INVALID"),
        token=f"0.{secret}",  # well-formed: seat 0 with seat 1's secret
    )


@pytest.mark.parametrize("game_id", ["%C3%A9t%C3%A9", "ab%C2%B2", "%D9%A1", "a" * 65])
async def test_game_ids_in_paths_are_ascii(rest: Rest, game_id: str) -> None:
    await expect_error(
        rest, "GET", f"/v1/games/{game_id}", (400, "INVALID_ARGUMENT", "MALFORMED_REQUEST")
    )


async def test_header_bytes_that_are_not_utf8_are_400(rest: Rest) -> None:
    """aiohttp hands such bytes over as surrogate escapes; an idempotency key made
    of them would reach the store, which cannot encode it."""
    game = await new_nim(rest)
    host, port = rest.base.removeprefix("http://").split(":")
    body = b'{"expectedVersion":"0","move":{"nim":{"take":1}}}'
    head = (
        f"POST /v1/games/{game.game_id}/moves HTTP/1.1\r\nHost: {host}\r\n"
        f"Authorization: Bearer {game.tokens[0]}\r\nContent-Type: application/json\r\n"
        f"Content-Length: {len(body)}\r\nConnection: close\r\n"
    ).encode()
    reader, writer = await asyncio.open_connection(host, int(port))
    writer.write(head + b"Idempotency-Key: k\xff\xfe\r\n\r\n" + body)
    await writer.drain()
    reply = await reader.read()
    writer.close()
    status_line, _, rest_of_reply = reply.partition(b"\r\n")
    assert status_line.split()[1] == b"400", reply
    payload = json.loads(rest_of_reply.partition(b"\r\n\r\n")[2])
    assert payload["error"]["reason"] == "MALFORMED_REQUEST"
    assert "Idempotency-Key" in payload["error"]["message"]
    snap = (await rest.ok("GET", f"/v1/games/{game.game_id}"))["snapshot"]
    assert snap["version"] == "0"
