"""Client connections are bounded on both faces (api/connections.py): how many
a replica holds open, how long one with no call in progress may idle, and on
the gRPC face how many calls may be in progress; every refusal is a clear
answer, and a refused or closed connection takes nothing away from the others."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import textwrap
from collections.abc import AsyncIterator

import aiohttp
import grpc
import pytest
from throneroom.v1 import service_pb2, service_pb2_grpc
from throneroom_server.api import play_socket
from throneroom_server.api.connections import HANDSHAKE_SECONDS, LimitedSite, grpc_options
from throneroom_server.runtime.config import Config
from throneroom_server.runtime.server import RunningServer, create_server
from throneroom_server.store.memory import MemoryStore

from tests.service import rest_helpers
from tests.service.api.test_play_session import move, opening
from tests.service.helpers import nim_move
from tests.service.rest_helpers import Rest
from tests.waiting import until


@pytest.fixture
async def servers() -> AsyncIterator[list[RunningServer]]:
    """The servers a test starts (``started``), stopped after it."""
    started: list[RunningServer] = []
    yield started
    for running in started:
        running.app.begin_shutdown()
        await running.stop(None)


async def start(servers: list[RunningServer], **settings: object) -> RunningServer:
    config = Config(
        listen="127.0.0.1:0",
        http_listen="127.0.0.1:0",
        fixture_games=True,
        access_log=False,
        **settings,  # type: ignore[arg-type]
    )
    running = await create_server(config, MemoryStore())
    servers.append(running)
    return running


def rest_port(running: RunningServer) -> int:
    assert running.http_port is not None
    return running.http_port


async def nim_game(running: RunningServer) -> rest_helpers.NimGame:
    """A two-seat Nim game of 9 stones, made through the REST face."""
    assert running.rest is not None
    base = f"http://127.0.0.1:{rest_port(running)}"
    async with aiohttp.ClientSession() as http:
        return await rest_helpers.new_nim(Rest(running.app, running.rest, http, base), pile=9)


def site_of(running: RunningServer) -> LimitedSite:
    assert running.rest is not None
    (site,) = running.rest.sites
    assert isinstance(site, LimitedSite)
    return site


async def idle_connection(port: int) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    """A connection that sends nothing (it is open once the server lists it)."""
    return await asyncio.open_connection("127.0.0.1", port)


async def raw_get(port: int, path: str = "/healthz") -> bytes:
    """One request on a new connection, and everything the server sends back."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(f"GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".encode())
    await writer.drain()
    data = await asyncio.wait_for(reader.read(), 10)
    writer.close()
    return data


# -- the REST face ----------------------------------------------------------------------


async def test_rest_answers_503_over_the_connection_limit_and_takes_connections_again_below(
    servers: list[RunningServer],
) -> None:
    running = await start(servers, max_connections=3)
    port = rest_port(running)
    gate = site_of(running).gate
    held = [await idle_connection(port) for _ in range(3)]
    await until(lambda: gate.open == 3, "three connections open")

    answer = await raw_get(port)
    head, _, body = answer.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 503 "), answer
    assert b"\r\nRetry-After: 1\r\n" in head
    error = json.loads(body)["error"]
    assert error["code"] == "UNAVAILABLE"
    assert error["reason"] == "TOO_MANY_CONNECTIONS"
    assert "THRONEROOM_MAX_CONNECTIONS" in error["message"]
    # An HTTP client sees the same answer, its request unread.
    url = f"http://127.0.0.1:{port}/v1/game-types"
    async with aiohttp.ClientSession() as http, http.get(url) as response:
        assert response.status == 503
        assert (await response.json())["error"]["reason"] == "TOO_MANY_CONNECTIONS"
    assert gate.refused == 2
    assert gate.open == 3  # a refusal holds no slot

    _, writer = held.pop()
    writer.close()
    await until(lambda: gate.open == 2, "the closed connection's slot given back")
    assert (await raw_get(port)).startswith(b"HTTP/1.1 200 ")
    for _, writer in held:
        writer.close()


async def test_rest_counts_connections_accepted_together_before_aiohttp_lists_them(
    servers: list[RunningServer],
) -> None:
    running = await start(servers, max_connections=4)
    port = rest_port(running)
    opened = await asyncio.gather(*(asyncio.open_connection("127.0.0.1", port) for _ in range(12)))
    gate = site_of(running).gate
    await until(lambda: gate.open + gate.refused == 12, "every connection accepted")
    assert gate.open == 4
    assert gate.refused == 8
    for _, writer in opened:
        writer.close()


async def test_rest_closes_a_connection_that_sends_nothing_or_idles_between_requests(
    servers: list[RunningServer],
) -> None:
    running = await start(servers, idle_connection_seconds=0.3)
    port = rest_port(running)
    silent_reader, silent = await idle_connection(port)
    assert await asyncio.wait_for(silent_reader.read(), 10) == b""  # closed by the server
    silent.close()

    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")  # keep-alive
    answer = await asyncio.wait_for(reader.readuntil(b"}"), 10)
    assert answer.startswith(b"HTTP/1.1 200 ")
    assert await asyncio.wait_for(reader.read(), 10) == b""  # then closed once idle
    writer.close()
    await until(lambda: site_of(running).gate.open == 0, "both connections given back")


async def test_rest_a_play_session_on_a_websocket_is_a_call_in_progress_not_idle(
    servers: list[RunningServer],
) -> None:
    running = await start(servers, idle_connection_seconds=0.2)
    game = await nim_game(running)
    url = f"http://127.0.0.1:{rest_port(running)}{play_socket.PATH}"
    async with aiohttp.ClientSession() as http, http.ws_connect(url) as ws:
        await ws.send_bytes(opening(game.game_id, game.tokens[0]).SerializeToString())
        first = service_pb2.PlayResponse.FromString((await ws.receive(timeout=10)).data)
        assert first.update.version == 0
        await asyncio.sleep(1.0)  # silence is what is tested: five idle times without a frame
        await ws.send_bytes(move(0, 2, "k1").SerializeToString())
        made = service_pb2.PlayResponse.FromString((await ws.receive(timeout=10)).data)
        assert made.update.version == 1
        assert [r.version for r in made.results] == [1]


async def test_rest_limits_are_the_settings_defaults(servers: list[RunningServer]) -> None:
    config = Config()
    assert (config.max_connections, config.idle_connection_seconds) == (8_000, 75.0)
    running = await start(servers)
    site = site_of(running)
    assert site.gate.limit == 8_000
    reader, writer = await asyncio.open_connection("127.0.0.1", site.port)
    writer.write(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
    await asyncio.wait_for(reader.readuntil(b"}"), 10)
    assert running.rest is not None
    server = running.rest.server
    assert server is not None
    (handler,) = server.connections
    assert handler.keepalive_timeout == 75.0
    writer.close()


# -- the gRPC face ----------------------------------------------------------------------


def test_grpc_connection_options_follow_the_settings() -> None:
    config = Config()
    assert grpc_options(config.max_connections, config.idle_connection_seconds) == [
        ("grpc.max_allowed_incoming_connections", 8_000),
        ("grpc.max_connection_idle_ms", 75_000),
        ("grpc.server_handshake_timeout_ms", 10_000),
    ]
    assert HANDSHAKE_SECONDS == 10.0
    assert config.max_calls == 30_000 > config.max_streams


async def call_types(channel: grpc.aio.Channel, *, wait: bool = False) -> None:
    stub = service_pb2_grpc.ThroneroomStub(channel)
    await stub.ListGameTypes(
        service_pb2.ListGameTypesRequest(), timeout=10, wait_for_ready=wait or None
    )


async def test_grpc_refuses_a_connection_over_the_limit_and_takes_one_again_below(
    servers: list[RunningServer],
) -> None:
    running = await start(servers, max_connections=2)
    address = f"127.0.0.1:{running.port}"
    options = [("grpc.use_local_subchannel_pool", 1)]  # one connection per channel
    first, second, third = (grpc.aio.insecure_channel(address, options=options) for _ in range(3))
    try:
        await call_types(first)
        await call_types(second)
        with pytest.raises(grpc.aio.AioRpcError) as refused:
            await call_types(third)
        assert refused.value.code() is grpc.StatusCode.UNAVAILABLE
        await first.close()
        await call_types(third, wait=True)  # a slot is free again
        await call_types(second)  # the others were never touched
    finally:
        for channel in (first, second, third):
            await channel.close()


async def test_grpc_closes_an_idle_connection_and_the_client_reconnects_unnoticed(
    servers: list[RunningServer],
) -> None:
    running = await start(servers, idle_connection_seconds=0.3)
    async with grpc.aio.insecure_channel(f"127.0.0.1:{running.port}") as channel:
        await call_types(channel)
        assert channel.get_state() is grpc.ChannelConnectivity.READY
        await until(
            lambda: channel.get_state() is grpc.ChannelConnectivity.IDLE,
            "the server's GOAWAY for the idle connection",
        )
        await call_types(channel)  # a new connection, nothing to do for the client


async def test_grpc_a_watch_stream_is_a_call_in_progress_not_idle(
    servers: list[RunningServer],
) -> None:
    running = await start(servers, idle_connection_seconds=0.2)
    game = await nim_game(running)
    async with grpc.aio.insecure_channel(f"127.0.0.1:{running.port}") as channel:
        stub = service_pb2_grpc.ThroneroomStub(channel)
        stream = stub.WatchGame(
            service_pb2.WatchGameRequest(game_id=game.game_id, include_current=True)
        )
        assert (await stream.read()).update.version == 0
        await asyncio.sleep(1.0)  # silence is what is tested: five idle times, no message
        assert channel.get_state() is grpc.ChannelConnectivity.READY
        move = service_pb2.ApplyMoveRequest(
            game_id=game.game_id,
            seat_token=game.tokens[0],
            expected_version=0,
            move=nim_move(1),
            idempotency_key="k1",
        )
        await stub.ApplyMove(move, timeout=10)  # on the same connection: not idle either
        assert (await asyncio.wait_for(stream.read(), 10)).update.version == 1
        stream.cancel()


async def test_grpc_refuses_calls_over_the_limit_of_calls_in_progress(
    servers: list[RunningServer],
) -> None:
    running = await start(servers, max_calls=2)
    game = await nim_game(running)
    async with grpc.aio.insecure_channel(f"127.0.0.1:{running.port}") as channel:
        stub = service_pb2_grpc.ThroneroomStub(channel)
        request = service_pb2.WatchGameRequest(game_id=game.game_id, include_current=True)
        streams = [stub.WatchGame(request) for _ in range(2)]
        for stream in streams:
            assert (await stream.read()).update.version == 0
        with pytest.raises(grpc.aio.AioRpcError) as refused:
            await call_types(channel)
        assert refused.value.code() is grpc.StatusCode.RESOURCE_EXHAUSTED
        streams[0].cancel()
        await until(lambda: running.app.watch_hub.open_streams == 1, "the stream closed")
        await call_types(channel)  # room again
        streams[1].cancel()


def test_the_process_raises_its_open_files_limit_for_both_faces_or_warns() -> None:
    """``open_files_for`` in a process of its own (it changes the process's limits)."""
    child = textwrap.dedent(
        """
        import json, resource
        from structlog.testing import capture_logs
        from throneroom_server.runtime.config import Config
        from throneroom_server.runtime.process import OPEN_FILES_SPARE, open_files_for
        _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        needed = 2 * 100 + OPEN_FILES_SPARE
        assert hard == resource.RLIM_INFINITY or hard >= needed, hard
        resource.setrlimit(resource.RLIMIT_NOFILE, (256, hard))
        with capture_logs() as raised_logs:
            raised = open_files_for(Config(max_connections=100))
        resource.setrlimit(resource.RLIMIT_NOFILE, (256, 300))  # a hard limit too low
        with capture_logs() as short_logs:
            short = open_files_for(Config(max_connections=100))
        print(json.dumps({
            "needed": needed,
            "raised": raised,
            "raised_logs": [e["event"] for e in raised_logs],
            "short": [short, resource.getrlimit(resource.RLIMIT_NOFILE)[0]],
            "short_logs": [(e["event"], e["limit"], e["needed"]) for e in short_logs],
        }))
        """
    )
    out = subprocess.run(
        [sys.executable, "-c", child], capture_output=True, text=True, timeout=60, check=True
    )
    seen = json.loads(out.stdout)
    needed = seen["needed"]
    assert seen["raised"] == needed
    assert seen["raised_logs"] == []
    assert seen["short"] == [300, 300]
    assert seen["short_logs"] == [["open_files_limit_low", 300, needed]]
