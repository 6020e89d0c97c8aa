"""Watching over Server-Sent Events (updates, heartbeats, Last-Event-ID, failures,
hang-ups), health and shutdown of the REST face."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Mapping
from typing import Any

import pytest
import structlog
from google.protobuf import json_format
from throneroom.v1 import service_pb2
from throneroom_server.api.rest import sse_frame
from throneroom_server.store import StoreUnavailable
from throneroom_server.store.base import Store

from tests.service.rest_helpers import (
    Rest,
    expect_error,
    new_nim,
    sse_frames,
    start,
    stop,
    take,
)
from tests.waiting import until


@pytest.fixture
async def rest(store: Store) -> AsyncIterator[Rest]:
    """The REST face on a free port over each store, with the Nim fixture game."""
    service = await start(store)
    yield service
    await stop(service)


# -- Server-Sent Events --------------------------------------------------------------------


async def collect(
    rest: Rest,
    path: str,
    *,
    until: int | None = None,
    token: str | None = None,
    headers: Mapping[str, str] | None = None,
    seen: list[dict[str, str]] | None = None,
) -> list[dict[str, str]]:
    """Frames of one watch request, until ``until`` frames or the stream's end."""
    sent = dict(headers or {})
    if token is not None:
        sent["Authorization"] = f"Bearer {token}"
    frames = seen if seen is not None else []
    async with rest.session.get(rest.base + path, headers=sent) as response:
        assert response.status == 200, await response.text()
        assert response.headers["Content-Type"].startswith("text/event-stream")
        assert response.headers["Cache-Control"] == "no-cache"
        assert response.headers["X-Request-Id"]
        async for frame in sse_frames(response):
            frames.append(frame)
            if until is not None and len(frames) == until:
                break
    return frames


def update_of(frame: dict[str, str]) -> service_pb2.GameUpdate:
    assert frame["event"] == "update"
    item = json_format.Parse(frame["data"], service_pb2.WatchGameResponse())
    assert str(item.update.version) == frame["id"]
    return item.update


async def test_watch_streams_updates_and_resumes_with_last_event_id(rest: Rest) -> None:
    game = await new_nim(rest, pile=6)
    gid = game.game_id
    moves = f"/v1/games/{gid}/moves"
    await rest.ok("POST", moves, token=game.tokens[0], body=take(1, 0, "a"))
    await rest.ok("POST", moves, token=game.tokens[1], body=take(1, 1, "b"))
    frames = await collect(
        rest, f"/v1/games/{gid}/watch?fromVersion=0", until=2, token=game.tokens[1]
    )
    updates = [update_of(f) for f in frames]
    assert [u.version for u in updates] == [1, 2]
    assert all(
        u.snapshot.viewer_seat == 1 and u.snapshot.view.nim.HasField("my_secret") for u in updates
    )
    assert [e.nim.WhichOneof("kind") for e in updates[1].events] == ["took", "secret_peeked"]
    assert [e.nim.WhichOneof("kind") for e in updates[0].events] == ["took"]
    # Reconnect as EventSource does: same URL, Last-Event-ID wins over fromVersion.
    seen: list[dict[str, str]] = []
    watcher = asyncio.create_task(
        collect(
            rest, f"/v1/games/{gid}/watch?fromVersion=0", headers={"Last-Event-ID": "1"}, seen=seen
        )
    )
    await until(lambda: seen, "the resumed stream's first frame (version 2)")
    await rest.ok("POST", moves, token=game.tokens[0], body=take(3, 2, "c"))
    await rest.ok("POST", moves, token=game.tokens[1], body=take(1, 3, "d"))  # pile 0: finished
    await asyncio.wait_for(watcher, 10)  # the stream ends after the finishing update
    updates = [update_of(f) for f in seen]
    assert [u.version for u in updates] == [2, 3, 4]
    assert not any(u.snapshot.view.nim.HasField("my_secret") for u in updates)  # a spectator
    assert updates[-1].snapshot.finished
    # Reconnecting after the end: 204 tells EventSource to stop.
    async with rest.session.get(
        rest.base + f"/v1/games/{gid}/watch", headers={"Last-Event-ID": "4"}
    ) as response:
        assert response.status == 204


async def test_watch_sends_heartbeats_then_updates(store: Store) -> None:
    service = await start(store, heartbeat_seconds=0.1)
    try:
        game = await new_nim(service)
        seen: list[dict[str, str]] = []
        watcher = asyncio.create_task(
            collect(service, f"/v1/games/{game.game_id}/watch", until=3, seen=seen)
        )
        await until(lambda: len(seen) >= 2, "two heartbeats")
        await service.ok(
            "POST", f"/v1/games/{game.game_id}/moves", token=game.tokens[0], body=take(1, 0, "a")
        )
        await asyncio.wait_for(watcher, 10)
        beats = [f for f in seen if f["event"] == "heartbeat"]
        assert len(beats) >= 2
        assert beats[0] == {
            "event": "heartbeat",
            "id": "0",
            "data": '{"heartbeat":{"version":"0"}}',
        }
        assert update_of(seen[-1]).version == 1
    finally:
        await stop(service)


async def test_watch_rejects_before_the_stream_opens(rest: Rest) -> None:
    game = await new_nim(rest)
    watch = f"/v1/games/{game.game_id}/watch"
    await expect_error(
        rest, "GET", watch, (403, "PERMISSION_DENIED", "SEAT_TOKEN_INVALID"), token="1." + "A" * 43
    )
    await expect_error(
        rest,
        "GET",
        watch,
        (400, "INVALID_ARGUMENT", "MALFORMED_REQUEST"),
        headers={"Last-Event-ID": "seven"},
    )
    await expect_error(
        rest,
        "GET",
        watch + "?heartbeatSeconds=soon",
        (400, "INVALID_ARGUMENT", "MALFORMED_REQUEST"),
    )


async def test_a_store_failure_mid_stream_is_a_failure_event(
    rest: Rest, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = await new_nim(rest)

    async def unreachable(*args: Any, **kwargs: Any) -> Any:
        raise StoreUnavailable("connection lost")

    # The game's feed (wait_entries) and catching up (read_entries) both fail.
    monkeypatch.setattr(rest.app.store, "read_entries", unreachable)
    monkeypatch.setattr(rest.app.store, "wait_entries", unreachable)
    frames = await asyncio.wait_for(collect(rest, f"/v1/games/{game.game_id}/watch"), 10)
    (frame,) = frames
    assert frame["event"] == "failure" and "id" not in frame
    error = json.loads(frame["data"])["error"]
    assert (error["code"], error["reason"]) == ("UNAVAILABLE", "STORE_UNAVAILABLE")


async def test_shutdown_ends_streams_and_health_turns_503(store: Store) -> None:
    service = await start(store, heartbeat_seconds=30)
    try:
        assert await service.ok("GET", "/healthz") == {"status": "SERVING"}
        game = await new_nim(service)
        watcher = asyncio.create_task(collect(service, f"/v1/games/{game.game_id}/watch"))
        await until(lambda: service.app.watch_hub.open_streams == 1, "the stream open")
        service.app.begin_shutdown()
        assert await asyncio.wait_for(watcher, 10) == []  # ended cleanly, no frame
        status, body, _ = await service.call("GET", "/healthz")
        assert (status, body) == (503, {"status": "NOT_SERVING"})
    finally:
        await stop(service)


async def test_a_watcher_that_hangs_up_is_let_go(store: Store) -> None:
    """The server notices a closed watch connection at the next heartbeat at the
    latest, ends the handler and writes its access-log line."""
    service = await start(store, heartbeat_seconds=0.1)
    try:
        game = await new_nim(service)
        watch = f"/v1/games/{game.game_id}/watch"
        with structlog.testing.capture_logs() as logs:
            async with service.session.get(service.base + watch) as response:
                async for frame in sse_frames(response):
                    assert frame["event"] == "heartbeat"
                    break
            # Leaving the block closed the connection (the body was not read to its end).
            await until(lambda: any(e["event"] == "http" for e in logs), "the access-log line")
        (access,) = [e for e in logs if e["event"] == "http"]
        assert (access["status"], access["code"]) == (200, "OK")
        assert not [e for e in logs if e["log_level"] in ("error", "critical")]
    finally:
        await stop(service)


def test_sse_frames_are_well_formed() -> None:
    assert sse_frame("update", '{"a":1}', 3) == b'event: update\nid: 3\ndata: {"a":1}\n\n'
    assert sse_frame("failure", "{}") == b"event: failure\ndata: {}\n\n"
