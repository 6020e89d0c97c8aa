"""The asyncio client under the same retry policy as the sync one (one
implementation, :mod:`throneroom.retry`), on fake time."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Iterator
from typing import Any

import grpc
import pytest
from throneroom import AsyncClient, AsyncGameHandle, ThroneroomError, Unavailable
from throneroom.v1 import nim_pb2
from throneroom_server.embedded import EmbeddedServer

from tests.sdk.helpers import FakeAsyncStream, FakeRpcError, StubProxy, unavailable, versions

ALWAYS_MAX = 1.0 - 1e-12


class FakeTime:
    def __init__(self) -> None:
        self.now = 100.0
        self.sleeps: list[float] = []

    def clock(self) -> float:
        return self.now

    async def advance(self, seconds: float) -> None:
        """The client's sleep: the clock moves on, no time is spent."""
        self.sleeps.append(seconds)
        self.now += seconds


class AsyncRecorded:
    """Replaces one grpc.aio stub method. Each call takes the next outcome: an
    exception (raised when awaited, as grpc.aio does) or a function of
    (request, kwargs) returning the call; past the end, the real method."""

    def __init__(self, client: AsyncClient, name: str, outcomes: Iterator[Any] | list[Any]):
        proxy = client.stub if isinstance(client.stub, StubProxy) else StubProxy(client.stub)
        self.real = getattr(proxy.real, name)
        self.outcomes = iter(outcomes)
        self.requests: list[Any] = []
        self.kwargs: list[dict[str, Any]] = []
        proxy.override(name, self._call)
        client.stub = proxy.as_stub()  # type: ignore[assignment]

    def _call(self, request: Any, **kwargs: Any) -> Any:
        self.requests.append(request)
        self.kwargs.append(kwargs)
        outcome = next(self.outcomes, None)
        if outcome is None:
            return self.real(request, **kwargs)
        if isinstance(outcome, BaseException):
            return _raising(outcome)
        return outcome(request, kwargs)


async def _raising(error: BaseException) -> Any:
    raise error


def _failing_stream(error: BaseException) -> FakeAsyncStream:
    async def responses() -> AsyncIterator[Any]:
        raise error
        yield  # an async generator that fails on its first step

    return FakeAsyncStream(responses())


def _lost(request: Any, kwargs: dict[str, Any]) -> FakeAsyncStream:
    """A watch stream whose connection fails before its first message."""
    return _failing_stream(unavailable())


def _fail(code: grpc.StatusCode, retry_delay: float | None = None) -> FakeRpcError:
    return FakeRpcError(code, f"{code.name} (simulated)", retry_delay=retry_delay)


def _forever(make: Callable[[], Any]) -> Iterator[Any]:
    while True:
        yield make()


async def _client(server: EmbeddedServer, fake_time: FakeTime, **kwargs: Any) -> AsyncClient:
    return AsyncClient(server.address, clock=fake_time.clock, sleep=fake_time.advance, **kwargs)


async def _started(client: AsyncClient, pile: int = 20) -> tuple[str, list[AsyncGameHandle]]:
    game_id = await client.create_game(
        "nim", seats=2, options={"pile": pile, "max_take": 3}, seed=2
    )
    return game_id, [await client.join(game_id), await client.join(game_id)]


async def _finished_game(client: AsyncClient, pile: int = 4) -> str:
    game_id = await client.create_game(
        "nim", seats=2, options={"pile": pile, "max_take": 1}, seed=3
    )
    handles = [await client.join(game_id), await client.join(game_id)]
    for n in range(pile):
        await handles[n % 2].refresh()
        await handles[n % 2].play(nim_pb2.NimMove(take=1))
    return game_id


async def test_a_read_rides_through_an_outage_then_gives_up_at_the_budget(
    server: EmbeddedServer,
) -> None:
    fake_time = FakeTime()
    async with await _client(server, fake_time) as client:
        game_id, _ = await _started(client)
        start = fake_time.now

        def outage() -> Iterator[Any]:
            while fake_time.now - start < 25.0:
                yield unavailable()

        get_game = AsyncRecorded(client, "GetGame", outage())
        assert (await client.get_game(game_id)).game_id == game_id
        assert sum(fake_time.sleeps) >= 25.0 and all(s <= 3.0 for s in fake_time.sleeps)
        assert all(kw["wait_for_ready"] is None for kw in get_game.kwargs)

        start = fake_time.now
        get_game = AsyncRecorded(client, "GetGame", _forever(unavailable))
        with pytest.raises(Unavailable) as caught:
            await client.get_game(game_id)
        assert 30.0 - 3.0 < fake_time.now - start < 30.0
        assert caught.value.attempts == len(get_game.requests) > 10


async def test_a_move_whose_answer_timed_out_is_applied_once(server: EmbeddedServer) -> None:
    fake_time = FakeTime()
    async with await _client(server, fake_time) as client:
        game_id, (ada, _) = await _started(client)
        await ada.refresh()
        real_apply = client.stub.ApplyMove

        async def apply_then_time_out(request: Any, kwargs: dict[str, Any]) -> Any:
            await real_apply(request, **kwargs)
            raise _fail(grpc.StatusCode.DEADLINE_EXCEEDED)

        apply = AsyncRecorded(client, "ApplyMove", [apply_then_time_out])
        response = await ada.play(nim_pb2.NimMove(take=2))
        assert response.replayed and response.version == 1
        assert len(apply.requests) == 2 and apply.requests[0] == apply.requests[1]
        assert [e.version for e in await client.history(game_id)] == [1]


async def test_join_is_not_repeated_unless_the_server_declined_it(
    server: EmbeddedServer,
) -> None:
    fake_time = FakeTime()
    async with await _client(server, fake_time) as client:
        game_id = await client.create_game("nim", seats=2)
        join = AsyncRecorded(client, "JoinGame", _forever(unavailable))
        with pytest.raises(Unavailable):
            await client.join(game_id)
        assert len(join.requests) == 1 and join.kwargs[0]["wait_for_ready"] is True
        quota = _fail(grpc.StatusCode.RESOURCE_EXHAUSTED, retry_delay=1.5)
        join = AsyncRecorded(client, "JoinGame", [quota])
        handle = await client.join(game_id)
        assert handle.seat == 0 and fake_time.sleeps == [1.5] and len(join.requests) == 2


async def test_answers_are_raised_at_once(server: EmbeddedServer) -> None:
    fake_time = FakeTime()
    async with await _client(server, fake_time) as client:
        game_id, _ = await _started(client)
        for code in (grpc.StatusCode.NOT_FOUND, grpc.StatusCode.FAILED_PRECONDITION):
            get_game = AsyncRecorded(client, "GetGame", _forever(lambda c=code: _fail(c)))
            with pytest.raises(ThroneroomError):
                await client.get_game(game_id)
            assert len(get_game.requests) == 1
        assert fake_time.sleeps == []


async def test_a_watch_reconnects_for_as_long_as_it_takes(server: EmbeddedServer) -> None:
    fake_time = FakeTime()
    async with await _client(server, fake_time) as client:
        watcher = await client.spectate(await _finished_game(client))
        watch = AsyncRecorded(client, "WatchGame", [_lost] * 300)
        assert versions([u async for u in watcher.watch(0)]) == [1, 2, 3, 4]
        assert len(watch.requests) == 301 and len(fake_time.sleeps) == 300
        assert all(0 <= s <= 3.0 for s in fake_time.sleeps)


async def test_a_watch_backoff_starts_again_after_a_message(server: EmbeddedServer) -> None:
    fake_time = FakeTime()
    async with await _client(server, fake_time, rand=lambda: ALWAYS_MAX) as client:
        watcher = await client.spectate(await _finished_game(client))
        real = client.stub.WatchGame

        def two_versions_then_lost(request: Any, kwargs: dict[str, Any]) -> FakeAsyncStream:
            async def responses() -> AsyncIterator[Any]:
                count = 0
                async for response in real(request, **kwargs):
                    yield response
                    count += 1
                    if count == 2:
                        break
                raise unavailable()

            return FakeAsyncStream(responses())

        outcomes: list[Any] = [_lost] * 6 + [two_versions_then_lost, _lost]
        watch = AsyncRecorded(client, "WatchGame", outcomes)
        assert versions([u async for u in watcher.watch(0)]) == [1, 2, 3, 4]
        assert fake_time.sleeps == pytest.approx([0.1, 0.2, 0.4, 0.8, 1.6, 3.0, 0.1, 0.2])
        assert [r.from_version for r in watch.requests] == [0] * 7 + [2, 2]
