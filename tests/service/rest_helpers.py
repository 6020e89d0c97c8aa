"""Helpers for the REST face's tests: a real aiohttp server on a free port over a
store, an HTTP client, and small builders for Nim games and moves."""

from __future__ import annotations

import itertools
import json
import time
from collections.abc import AsyncIterator, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import aiohttp
from aiohttp import web
from multidict import CIMultiDict
from throneroom_server.api.cors import CorsPolicy
from throneroom_server.api.rest import start_rest
from throneroom_server.app.service import App, AppConfig
from throneroom_server.games.nim import Nim
from throneroom_server.games.registry import serve
from throneroom_server.store.base import Store

Json = dict[str, Any]


@dataclass
class Rest:
    app: App
    runner: web.AppRunner
    session: aiohttp.ClientSession
    base: str

    async def call(
        self,
        method: str,
        path: str,
        *,
        body: Any = None,
        raw: bytes | None = None,
        token: str | None = None,
        headers: Mapping[str, str] | None = None,
    ) -> tuple[int, Json, Mapping[str, str]]:
        sent = dict(headers or {})
        if method == "POST":
            sent.setdefault("Content-Type", "application/json")
        if token is not None:
            sent["Authorization"] = f"Bearer {token}"
        data = raw if raw is not None else (None if body is None else json.dumps(body))
        async with self.session.request(
            method, self.base + path, data=data, headers=sent
        ) as response:
            text = await response.text()
            assert response.headers["Content-Type"].startswith("application/json"), text
            return response.status, json.loads(text), CIMultiDict(response.headers)

    async def ok(self, method: str, path: str, **kwargs: Any) -> Json:
        status, body, _ = await self.call(method, path, **kwargs)
        assert status in (200, 201), body
        return body

    async def state_bytes(self, game_id: str, token: str) -> tuple[bytes, bytes]:
        """The seat's snapshot and the history, as raw bytes."""
        out = []
        for path in (f"/v1/games/{game_id}", f"/v1/games/{game_id}/history"):
            async with self.session.get(
                self.base + path, headers={"Authorization": f"Bearer {token}"}
            ) as response:
                assert response.status == 200
                out.append(await response.read())
        return out[0], out[1]


async def start(
    store: Store,
    *,
    heartbeat_seconds: float = 15.0,
    games: Any = None,
    clock: Callable[[], float] = time.time,
    cors: CorsPolicy | None = None,
) -> Rest:
    app = App(
        store,
        {name: serve(game) for name, game in (games or {"nim": Nim()}).items()},
        config=AppConfig(heartbeat_seconds=heartbeat_seconds),
        clock=clock,
    )
    runner, port = await start_rest(app, "127.0.0.1:0", shutdown_timeout=5, cors=cors)
    session = aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=20))
    return Rest(app, runner, session, f"http://127.0.0.1:{port}")


def ticking_clock(start: float = 1_700_000_000.0) -> Callable[[], float]:
    """A clock a millisecond later at every reading: creation times never tie."""
    ticks = itertools.count()
    return lambda: start + next(ticks) / 1000


async def stop(rest: Rest) -> None:
    await rest.session.close()
    rest.app.begin_shutdown()
    await rest.runner.cleanup()


@dataclass
class NimGame:
    game_id: str
    tokens: list[str] = field(default_factory=list)


async def new_nim(rest: Rest, *, pile: int = 10, seats: int = 2, seed: int = 1) -> NimGame:
    created = await rest.ok(
        "POST",
        "/v1/games",
        body={"options": {"nim": {"pile": pile, "maxTake": 3}}, "numSeats": seats, "seed": seed},
    )
    game = NimGame(created["gameId"])
    for n in range(seats):
        joined = await rest.ok(
            "POST", f"/v1/games/{game.game_id}/seats", body={"displayName": f"p{n}"}
        )
        assert joined["seat"] == n
        game.tokens.append(joined["seatToken"])
    return game


def take(n: int, version: int, key: str) -> Json:
    return {"expectedVersion": str(version), "move": {"nim": {"take": n}}, "idempotencyKey": key}


async def expect_error(
    rest: Rest, method: str, path: str, expected: tuple[int, str, str], **kwargs: Any
) -> Json:
    """Call and check the reply is the error ``(http status, code, reason)``."""
    got_status, body, headers = await rest.call(method, path, **kwargs)
    error = body["error"]
    assert (got_status, error["code"], error["reason"]) == expected, body
    assert error["message"], "a human sentence"
    assert isinstance(error["metadata"], dict)
    assert headers["X-Request-Id"]
    return body


async def sse_frames(response: aiohttp.ClientResponse) -> AsyncIterator[dict[str, str]]:
    """Parse a text/event-stream into frames {"event", "id", "data"}."""
    frame: dict[str, str] = {}
    async for raw in response.content:
        line = raw.decode().rstrip("\r\n")
        if not line:
            if frame:
                yield frame
            frame = {}
            continue
        name, _, value = line.partition(":")
        frame[name] = value.removeprefix(" ")
