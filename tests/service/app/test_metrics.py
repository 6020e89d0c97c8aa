"""Prometheus metrics: every counter and gauge moves when its event happens,
labels stay bounded, the listener serves the text format, and metrics are
off unless asked for."""

from __future__ import annotations

import aiohttp
import grpc
import pytest
from prometheus_client.parser import text_string_to_metric_families
from throneroom.v1 import common_pb2, game_pb2, nim_pb2, service_pb2, service_pb2_grpc
from throneroom_server.app.metrics import Metrics, metered
from throneroom_server.app.service import App
from throneroom_server.games.registry import service_games
from throneroom_server.runtime.config import Config
from throneroom_server.runtime.server import RunningServer, create_server
from throneroom_server.store.memory import MemoryStore

from tests.service.helpers import new_nim, nim_move

APPLY = "/throneroom.v1.Throneroom/ApplyMove"

Samples = dict[tuple[str, tuple[tuple[str, str], ...]], float]


def _samples(text: str) -> Samples:
    found: Samples = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            found[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
    return found


def _value(samples: Samples, name: str, **labels: str) -> float:
    return samples.get((name, tuple(sorted(labels.items()))), 0.0)


async def _scrape(running: RunningServer) -> Samples:
    async with (
        aiohttp.ClientSession() as session,
        session.get(f"http://127.0.0.1:{running.metrics_port}/metrics") as response,
    ):
        assert response.status == 200
        assert response.headers["Content-Type"].startswith("text/plain; version=")
        return _samples(await response.text())


@pytest.fixture
async def running() -> RunningServer:
    config = Config(
        listen="127.0.0.1:0",
        http_listen="127.0.0.1:0",
        metrics_listen="127.0.0.1:0",
        fixture_games=True,
    )
    server = await create_server(config, MemoryStore())
    yield server  # type: ignore[misc]
    await server.stop(None)


async def test_calls_moves_replays_conflicts_and_streams_are_counted(
    running: RunningServer,
) -> None:
    async with grpc.aio.insecure_channel(f"127.0.0.1:{running.port}") as channel:
        stub = service_pb2_grpc.ThroneroomStub(channel)
        game_id, players = await new_nim(stub, pile=10)
        request = service_pb2.ApplyMoveRequest(
            game_id=game_id,
            seat_token=players[0].token,
            expected_version=0,
            move=nim_move(1),
            idempotency_key="first",
        )
        await stub.ApplyMove(request)
        await stub.ApplyMove(request)  # the same key: a replay
        request.idempotency_key = "second"
        with pytest.raises(grpc.aio.AioRpcError) as stale:
            await stub.ApplyMove(request)  # version 0 is gone: a conflict
        assert stale.value.code() == grpc.StatusCode.ABORTED
        stream = stub.WatchGame(service_pb2.WatchGameRequest(game_id=game_id, from_version=0))
        await stream.read()  # the update of version 1: the stream is open
        async with aiohttp.ClientSession() as session:
            base = f"http://127.0.0.1:{running.http_port}"
            async with session.get(f"{base}/v1/game-types") as response:
                assert response.status == 200
            async with session.get(f"{base}/v1/games/{game_id}") as response:
                assert response.status == 200
            async with session.get(f"{base}/no/such/{game_id}/path") as response:
                assert response.status == 404
        samples = await _scrape(running)
        stream.cancel()

    total = "throneroom_requests_total"
    assert _value(samples, total, face="grpc", method=APPLY, code="OK") == 2
    assert _value(samples, total, face="grpc", method=APPLY, code="ABORTED") == 1
    assert _value(samples, "throneroom_request_seconds_count", face="grpc", method=APPLY) == 3
    assert _value(samples, "throneroom_moves_applied_total", game_type="nim") == 1
    assert _value(samples, "throneroom_idempotent_replays_total", game_type="nim") == 1
    assert _value(samples, "throneroom_stale_versions_total", game_type="nim") == 1
    assert _value(samples, "throneroom_watch_streams") == 1
    assert (
        _value(samples, "throneroom_store_seconds_count", operation="commit") == 1
    )  # replay and conflict: found at load
    assert _value(samples, "throneroom_store_seconds_count", operation="load") >= 3
    rest = {"face": "rest", "code": "200"}
    assert _value(samples, total, method="GET /v1/game-types", **rest) == 1
    assert _value(samples, total, method="GET /v1/games/{game_id}", **rest) == 1
    assert _value(samples, total, face="rest", method="other", code="404") == 1
    # Labels never carry ids or paths as given (bounded series).
    assert not any(game_id in str(key) for key in samples)


async def test_timeouts_are_counted() -> None:
    now = [1_800_000_000.0]
    metrics = Metrics()
    store = MemoryStore(clock=lambda: now[0])
    app = App(
        metered(store, metrics),
        service_games(include_fixtures=True),
        clock=lambda: now[0],
        metrics=metrics,
    )
    game_id, _ = await app.create_game(
        game_pb2.GameOptions(nim=nim_pb2.NimOptions(pile=9, max_take=3)),
        2,
        1,
        time_control=common_pb2.TimeControl(per_decision_seconds=5),
    )
    for n in range(2):
        await app.join_game(game_id, None, f"p{n}")
    now[0] += 6
    assert await app.sweep_timeouts() == 1
    samples = _samples(metrics.exposition().decode())
    assert _value(samples, "throneroom_timeouts_applied_total", game_type="nim") == 1


async def test_no_metrics_listener_unless_configured() -> None:
    server = await create_server(Config(listen="127.0.0.1:0"), MemoryStore())
    try:
        assert server.metrics is None and server.metrics_port is None
        assert server.app.metrics is None
    finally:
        await server.stop(None)


def test_unknown_methods_share_one_label() -> None:
    metrics = Metrics([APPLY])
    assert metrics.method_label(APPLY) == APPLY
    assert metrics.method_label("/attacker/picks/any/path") == "other"


async def test_refusals_gauges_process_and_unknown_methods_are_counted(
    running: RunningServer,
) -> None:
    async with grpc.aio.insecure_channel(f"127.0.0.1:{running.port}") as channel:
        stub = service_pb2_grpc.ThroneroomStub(channel)
        game_id, players = await new_nim(stub, pile=10)
        request = service_pb2.ApplyMoveRequest(
            game_id=game_id, seat_token=players[1].token, move=nim_move(1), idempotency_key="k"
        )
        with pytest.raises(grpc.aio.AioRpcError):
            await stub.ApplyMove(request)  # seat 1 is not to act
        with pytest.raises(grpc.aio.AioRpcError):
            await stub.GetGame(service_pb2.GetGameRequest(game_id="ffffffffffffffff"))
        unknown = channel.unary_unary("/attacker.Service/Method")
        with pytest.raises(grpc.aio.AioRpcError) as missing:
            await unknown(b"")
        assert missing.value.code() == grpc.StatusCode.UNIMPLEMENTED
        stream = stub.WatchGame(service_pb2.WatchGameRequest(game_id=game_id, include_current=True))
        await stream.read()
        async with aiohttp.ClientSession() as session:
            base = f"http://127.0.0.1:{running.http_port}"
            async with session.get(f"{base}/v1/games/ffffffffffffffff") as response:
                assert response.status == 404
            samples = await _scrape(running)  # the session's connection is open
        stream.cancel()
    refusals = "throneroom_refusals_total"
    assert _value(samples, refusals, face="grpc", reason="NOT_YOUR_TURN") == 1
    assert _value(samples, refusals, face="grpc", reason="GAME_NOT_FOUND") == 1
    assert _value(samples, refusals, face="rest", reason="GAME_NOT_FOUND") == 1
    total = "throneroom_requests_total"
    assert _value(samples, total, face="grpc", method="other", code="UNIMPLEMENTED") == 1
    assert _value(samples, "throneroom_watched_games") == 1
    assert _value(samples, "throneroom_rest_connections") >= 1
    assert _value(samples, "process_open_fds") > 0
    assert _value(samples, "process_cpu_seconds_total") > 0


async def test_store_failures_are_counted_by_kind() -> None:
    from throneroom_server.store.base import StoreFull, StoreUnavailable

    metrics = Metrics()

    class Failing(MemoryStore):
        fail: Exception = StoreUnavailable("down")

        async def load(self, *args: object, **kwargs: object) -> object:  # type: ignore[override]
            raise self.fail

    store = Failing()
    meter = metered(store, metrics)
    for failure in (StoreUnavailable("down"), StoreFull("full"), StoreUnavailable("again")):
        store.fail = failure
        with pytest.raises(type(failure)):
            await meter.load("g")  # type: ignore[call-arg]
    samples = _samples(metrics.exposition().decode())
    errors = "throneroom_store_errors_total"
    assert _value(samples, errors, operation="load", kind="unavailable") == 2
    assert _value(samples, errors, operation="load", kind="full") == 1
