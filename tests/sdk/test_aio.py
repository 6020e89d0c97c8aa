"""The asyncio client: the same behaviour as the sync one, on grpc.aio."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import pytest
import throneroom.aio
from throneroom import (
    AsyncClient,
    AsyncGameHandle,
    GameNotFound,
    NotYourTurn,
    StaleVersion,
    Unauthenticated,
    Unavailable,
    unwrap,
)
from throneroom.v1 import nim_pb2, service_pb2
from throneroom_server.embedded import EmbeddedServer

from tests.sdk.conftest import FAST_RETRIES, FAST_RETRY
from tests.sdk.helpers import FakeAsyncStream, StubProxy, TcpProxy, unavailable, versions
from tests.waiting import until


async def _game(
    client: AsyncClient, pile: int = 10, max_take: int = 1
) -> tuple[str, list[AsyncGameHandle]]:
    game_id = await client.create_game(
        "nim", seats=2, options={"pile": pile, "max_take": max_take}, seed=5
    )
    return game_id, [await client.join(game_id, name="ada"), await client.join(game_id)]


async def _play_out(
    handles: list[AsyncGameHandle], after_each: Callable[[int], Awaitable[None]] | None = None
) -> int:
    """Both seats take one stone in turn until the game ends; returns moves
    played. ``after_each(version)`` is awaited after each move (to wait there)."""
    played = 0
    while True:
        snapshot = await handles[0].refresh()
        if snapshot.finished:
            return played
        mover = handles[snapshot.to_act[0]]
        await mover.refresh()
        await mover.play(nim_pb2.NimMove(take=1))
        played += 1
        if after_each is not None:
            await after_each(mover.version)


def _seen_in(seen: list[int]) -> Callable[[int], Awaitable[None]]:
    """An ``after_each`` that waits until the watch delivered that version
    into ``seen``: the game moves on only once the watcher saw it move."""

    async def wait(version: int) -> None:
        await until(lambda: seen and seen[-1] >= version, f"version {version} watched")

    return wait


async def test_create_join_play_and_read(aclient: AsyncClient) -> None:
    assert "nim" in {t.name for t in await aclient.game_types()}
    game_id, (ada, bo) = await _game(aclient, pile=3, max_take=2)
    assert (ada.seat, bo.seat) == (0, 1)
    await ada.refresh()
    assert ada.started and ada.my_turn and ada.to_act == (0,)
    assert await ada.legal_moves() == [nim_pb2.NimMove(take=1), nim_pb2.NimMove(take=2)]
    response = await ada.play(nim_pb2.NimMove(take=2))
    assert response.version == 1 and ada.version == 1 and not ada.my_turn
    assert unwrap(response.events[0]).took.pile_left == 1
    with pytest.raises(NotYourTurn):
        await ada.play(nim_pb2.NimMove(take=1))
    await bo.refresh()
    await bo.play(nim_pb2.NimMove(take=1))
    watcher = await aclient.spectate(game_id)
    assert watcher.finished and watcher.winners == (1,)
    assert [e.version for e in await aclient.history(game_id, page_size=1)] == [1, 2]
    assert [e.version for e in await bo.history()] == [1, 2]
    attached = await aclient.attach(game_id, ada.token or "")
    assert attached.seat == 0


async def test_typed_errors(aclient: AsyncClient) -> None:
    with pytest.raises(GameNotFound):
        await aclient.spectate("abc123")
    game_id, (ada, bo) = await _game(aclient)
    watcher = await aclient.spectate(game_id)
    with pytest.raises(Unauthenticated):
        await watcher.legal_moves()
    stale = await aclient.attach(game_id, bo.token or "")
    await ada.refresh()
    await ada.play(nim_pb2.NimMove(take=1))
    await bo.refresh()
    await bo.play(nim_pb2.NimMove(take=1))
    stale_ada = await aclient.attach(game_id, ada.token or "")
    await stale_ada.play(nim_pb2.NimMove(take=1))  # version 3
    assert stale.version == 0
    with pytest.raises(StaleVersion) as caught:
        await stale.play(nim_pb2.NimMove(take=1))
    assert caught.value.current_version == 3 and stale.version == 3 and stale.my_turn


async def test_lost_answer_is_retried_with_the_same_key(aclient: AsyncClient) -> None:
    game_id, (ada, _) = await _game(aclient)
    await ada.refresh()
    proxy = StubProxy(aclient.stub)
    real_apply = aclient.stub.ApplyMove
    sent: list[service_pb2.ApplyMoveRequest] = []

    async def apply_then_lose(request: service_pb2.ApplyMoveRequest, **kw: Any) -> Any:
        sent.append(request)
        response = await real_apply(request, **kw)
        if len(sent) == 1:
            raise unavailable()
        return response

    proxy.override("ApplyMove", apply_then_lose)
    aclient.stub = proxy.as_stub()  # type: ignore[assignment]
    response = await ada.play(nim_pb2.NimMove(take=1))
    assert len(sent) == 2 and sent[0] == sent[1]
    assert response.replayed and response.version == 1
    assert [e.version for e in await aclient.history(game_id)] == [1]


async def test_watch_live(aclient: AsyncClient) -> None:
    game_id, handles = await _game(aclient, pile=8)
    watcher = await aclient.spectate(game_id)
    seen: list[int] = []
    player = asyncio.create_task(_play_out(handles, _seen_in(seen)))
    async for update in watcher.watch(include_current=False):
        seen.append(update.version)
    assert await player == 8
    assert seen == list(range(1, 9)) and watcher.finished


async def test_watch_resumes_when_the_stream_ends_early(aclient: AsyncClient) -> None:
    game_id, handles = await _game(aclient, pile=6)
    await _play_out(handles)
    proxy = StubProxy(aclient.stub)
    real_watch = aclient.stub.WatchGame

    def two_at_a_time(request: service_pb2.WatchGameRequest, **kw: Any) -> FakeAsyncStream:
        async def first_two() -> AsyncIterator[Any]:
            count = 0
            async for response in real_watch(request, **kw):
                yield response
                count += 1
                if count == 2:
                    return

        return FakeAsyncStream(first_two())

    proxy.override("WatchGame", two_at_a_time)
    aclient.stub = proxy.as_stub()  # type: ignore[assignment]
    watcher = await aclient.spectate(game_id)
    assert versions([u async for u in watcher.watch(0)]) == [1, 2, 3, 4, 5, 6]
    assert [r.from_version for r in proxy.calls["WatchGame"]] == [0, 2, 4]


async def test_watch_resumes_after_the_network_drops(server: EmbeddedServer) -> None:
    proxy = TcpProxy(server.address)
    try:
        async with (
            AsyncClient(server.address) as players,
            AsyncClient(proxy.address, retry=FAST_RETRY) as watchers,
        ):
            game_id, handles = await _game(players, pile=20)
            watcher = await watchers.spectate(game_id)
            seen: list[int] = []
            player = asyncio.create_task(_play_out(handles, _seen_in(seen)))
            async for update in watcher.watch(include_current=False, heartbeat_seconds=1):
                seen.append(update.version)
                if update.version in (4, 12):
                    proxy.drop_connections()
            await player
    finally:
        proxy.close()
    assert seen == list(range(1, 21))
    assert proxy.accepted >= 3


async def test_watch_reconnects_when_silent(
    aclient: AsyncClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(throneroom.aio, "silence_limit", lambda heartbeat: 0.3)
    game_id, handles = await _game(aclient, pile=2)
    proxy = StubProxy(aclient.stub)
    proxy.record("WatchGame")
    watcher = await aclient.spectate(game_id)
    aclient.stub = proxy.as_stub()  # type: ignore[assignment]

    async def play_late() -> int:
        calls = proxy.calls
        await until(lambda: len(calls.get("WatchGame", [])) >= 3, "two reconnections on silence")
        return await _play_out(handles)

    player = asyncio.create_task(play_late())
    stream = watcher.watch(include_current=False, heartbeat_seconds=60)
    assert [u.version async for u in stream] == [1, 2]
    await player
    assert len(proxy.calls["WatchGame"]) >= 3


async def test_watch_gives_up(aclient: AsyncClient) -> None:
    game_id, _ = await _game(aclient)
    watcher = await aclient.spectate(game_id)
    proxy = StubProxy(aclient.stub)

    def down(request: Any, **kw: Any) -> Any:
        raise unavailable()

    proxy.override("WatchGame", down)
    aclient.stub = proxy.as_stub()  # type: ignore[assignment]
    with pytest.raises(Unavailable):
        await anext(aiter(watcher.watch()))
    assert len(proxy.calls["WatchGame"]) == 1 + FAST_RETRIES
