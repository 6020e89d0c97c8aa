"""API keys, quotas shared by replicas, wrong-token throttling (access.py)."""

from __future__ import annotations

import hashlib
import json
import os
import signal
import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import grpc
import pytest
from google.rpc import error_details_pb2
from grpc_status import rpc_status
from throneroom.v1 import game_pb2, nim_pb2, service_pb2, service_pb2_grpc
from throneroom_server.app.access import Access, AccessConfig, ApiKeyError, load_keys, peer_address
from throneroom_server.runtime.config import Config
from throneroom_server.runtime.server import RunningServer, create_server
from throneroom_server.store.memory import MemoryStore
from throneroom_server.store.redis import RedisStore

from tests.service.helpers import error_info

KEY = "acme-secret-key-0123456789"


def _keys_file(tmp_path: Path, **quota: float) -> Path:
    path = tmp_path / "keys.json"
    entry = {"name": "acme", "sha256": hashlib.sha256(KEY.encode()).hexdigest(), **quota}
    path.write_text(json.dumps({"keys": [entry]}))
    return path


class Replica:
    def __init__(self, running: RunningServer) -> None:
        self.running = running
        self.channel = grpc.aio.insecure_channel(f"127.0.0.1:{running.port}")
        self.stub = service_pb2_grpc.ThroneroomStub(self.channel)

    async def close(self) -> None:
        await self.channel.close()
        await self.running.stop(None)


async def _replicas(redis_url: str, keys: Path, count: int, **extra: float) -> list[Replica]:
    config = Config(listen="127.0.0.1:0", fixture_games=True, api_keys_file=str(keys), **extra)  # type: ignore[arg-type]
    return [Replica(await create_server(config, RedisStore(redis_url))) for _ in range(count)]


@pytest.fixture
async def two_replicas(clean_redis: str, tmp_path: Path) -> AsyncIterator[list[Replica]]:
    keys = _keys_file(tmp_path, games_per_hour=3, requests_per_second=1, burst=6)
    replicas = await _replicas(clean_redis, keys, 2)
    yield replicas
    for replica in replicas:
        await replica.close()


def _create() -> service_pb2.CreateGameRequest:
    return service_pb2.CreateGameRequest(
        options=game_pb2.GameOptions(nim=nim_pb2.NimOptions(pile=5, max_take=3)), num_seats=2
    )


def _with_key(key: str = KEY) -> tuple[tuple[str, str], ...]:
    return (("x-api-key", key),)


def _retry_delay(error: grpc.aio.AioRpcError) -> float:
    status = rpc_status.from_call(error)  # type: ignore[arg-type]
    assert status is not None
    for detail in status.details:
        info = error_details_pb2.RetryInfo()
        if detail.Unpack(info):
            return info.retry_delay.ToMilliseconds() / 1000
    raise AssertionError("no RetryInfo")


async def test_with_keys_creating_and_joining_need_a_valid_key(
    two_replicas: list[Replica],
) -> None:
    stub = two_replicas[0].stub
    with pytest.raises(grpc.aio.AioRpcError) as missing:
        await stub.CreateGame(_create())
    assert missing.value.code() is grpc.StatusCode.UNAUTHENTICATED
    assert error_info(missing.value).reason == "API_KEY_REQUIRED"
    with pytest.raises(grpc.aio.AioRpcError) as wrong:
        await stub.CreateGame(_create(), metadata=_with_key("not-a-key"))
    assert wrong.value.code() is grpc.StatusCode.PERMISSION_DENIED
    assert error_info(wrong.value).reason == "API_KEY_INVALID"
    created = await stub.CreateGame(_create(), metadata=_with_key())
    join = service_pb2.JoinGameRequest(game_id=created.game_id)
    with pytest.raises(grpc.aio.AioRpcError) as anonymous_join:
        await stub.JoinGame(join)
    assert anonymous_join.value.code() is grpc.StatusCode.UNAUTHENTICATED
    joined = await stub.JoinGame(join, metadata=_with_key())
    # Playing with the seat token needs no key.
    snapshot = await stub.GetGame(
        service_pb2.GetGameRequest(game_id=created.game_id, seat_token=joined.seat_token)
    )
    assert snapshot.snapshot.viewer_seat == joined.seat


async def test_the_games_quota_is_shared_by_replicas(two_replicas: list[Replica]) -> None:
    a, b = two_replicas
    await a.stub.CreateGame(_create(), metadata=_with_key())
    await b.stub.CreateGame(_create(), metadata=_with_key())
    await a.stub.CreateGame(_create(), metadata=_with_key())
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        await b.stub.CreateGame(_create(), metadata=_with_key())
    assert caught.value.code() is grpc.StatusCode.RESOURCE_EXHAUSTED
    assert error_info(caught.value).reason == "GAME_QUOTA_EXCEEDED"
    # 3 games an hour: the next one is possible in 20 minutes.
    assert 1000 < _retry_delay(caught.value) <= 1200


async def test_the_request_rate_is_shared_by_replicas(clean_redis: str, tmp_path: Path) -> None:
    keys = _keys_file(tmp_path, requests_per_second=0.5, burst=4)
    a, b = await _replicas(clean_redis, keys, 2)
    try:
        created = await a.stub.CreateGame(_create(), metadata=_with_key())
        get = service_pb2.GetGameRequest(game_id=created.game_id)
        await b.stub.GetGame(get, metadata=_with_key())
        await a.stub.GetGame(get, metadata=_with_key())
        await b.stub.GetGame(get, metadata=_with_key())
        with pytest.raises(grpc.aio.AioRpcError) as caught:
            await a.stub.GetGame(get, metadata=_with_key())
        assert caught.value.code() is grpc.StatusCode.RESOURCE_EXHAUSTED
        assert error_info(caught.value).reason == "REQUEST_RATE_EXCEEDED"
        assert 0 < _retry_delay(caught.value) <= 2.0
    finally:
        await a.close()
        await b.close()


async def test_wrong_seat_tokens_are_throttled_across_replicas(clean_redis: str) -> None:
    """Every wrong token spends from the client's shared bucket; once it is
    empty, the replica that saw it refuses even a right token for a while,
    and the other replica refuses at the next wrong one."""
    config = Config(listen="127.0.0.1:0", fixture_games=True)
    replicas = [Replica(await create_server(config, RedisStore(clean_redis))) for _ in range(2)]
    a, b = replicas
    try:
        created = await a.stub.CreateGame(_create())
        joined = await a.stub.JoinGame(service_pb2.JoinGameRequest(game_id=created.game_id))
        wrong = f"{joined.seat}.{'x' * 43}"
        burst = a.running.app.access.config.bad_tokens_burst
        codes = []
        for n in range(burst + 1):
            stub = (a, b)[n % 2].stub
            try:
                await stub.GetGame(
                    service_pb2.GetGameRequest(game_id=created.game_id, seat_token=wrong)
                )
            except grpc.aio.AioRpcError as exc:
                codes.append(exc.code())
        assert codes[:burst] == [grpc.StatusCode.PERMISSION_DENIED] * burst
        assert codes[burst] is grpc.StatusCode.RESOURCE_EXHAUSTED
        throttled = (a, b)[burst % 2]
        right = service_pb2.GetGameRequest(game_id=created.game_id, seat_token=joined.seat_token)
        with pytest.raises(grpc.aio.AioRpcError) as caught:
            await throttled.stub.GetGame(right)
        assert error_info(caught.value).reason == "SEAT_TOKEN_THROTTLED"
        assert _retry_delay(caught.value) > 0
        other = (a, b)[(burst + 1) % 2]
        with pytest.raises(grpc.aio.AioRpcError) as next_wrong:
            await other.stub.GetGame(
                service_pb2.GetGameRequest(game_id=created.game_id, seat_token=wrong)
            )
        assert error_info(next_wrong.value).reason == "SEAT_TOKEN_THROTTLED"
        # Spectating (no token) is not throttled.
        await throttled.stub.GetGame(service_pb2.GetGameRequest(game_id=created.game_id))
    finally:
        for replica in replicas:
            await replica.close()


async def test_throttling_ends_when_the_bucket_refills() -> None:
    now = [0.0]
    store = MemoryStore(clock=lambda: now[0])
    access = Access(
        store, AccessConfig(bad_tokens_burst=2, bad_tokens_per_second=0.5), clock=lambda: now[0]
    )
    caller = access.identify("10.1.1.1", "")
    await access.token_failed(caller)
    await access.token_failed(caller)
    with pytest.raises(Exception, match="wrong seat tokens"):
        await access.token_failed(caller)
    with pytest.raises(Exception, match="wrong seat tokens"):
        access.check_not_throttled(caller)
    now[0] += 2.0  # one token back at 0.5/s
    access.check_not_throttled(caller)
    await access.token_failed(caller)


def _startup_line(*args: str) -> dict[str, object]:
    """The ``listening`` log line of a real ``throneroom-server`` process."""
    env = {**os.environ, "THRONEROOM_LOG_FORMAT": "json"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "throneroom_server.main", "--listen", "127.0.0.1:0", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        env=env,
    )
    try:
        assert proc.stdout is not None
        for raw in proc.stdout:
            line = raw.decode().strip()
            if '"listening"' in line:
                parsed: dict[str, object] = json.loads(line)
                return parsed
        raise AssertionError("the server never logged its listening line")
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(20)


def test_the_start_up_line_says_whether_the_service_is_open(tmp_path: Path) -> None:
    assert "open: no API keys configured" in str(_startup_line()["access"])
    keys = _keys_file(tmp_path)
    assert "API keys required" in str(_startup_line("--api-keys-file", str(keys))["access"])


def test_keys_files_are_checked(tmp_path: Path) -> None:
    good = _keys_file(tmp_path, streams=5)
    (key,) = load_keys(good).values()
    assert key.name == "acme" and key.quota.streams == 5
    bad = tmp_path / "bad.json"
    for content in (
        "{",
        '{"keys": {}}',
        '{"keys": [{"name": "x", "sha256": "abc"}]}',
        '{"keys": [{"name": "x", "sha256": "' + "0" * 64 + '", "streams": 0}]}',
        '{"keys": [{"name": "x", "sha256": "' + "0" * 64 + '", "colour": 1}]}',
    ):
        bad.write_text(content)
        with pytest.raises(ApiKeyError):
            load_keys(bad)


def test_peer_addresses_drop_the_port() -> None:
    assert peer_address("ipv4:10.0.0.7:51234") == "10.0.0.7"
    assert peer_address("ipv6:[::1]:51234") == "::1"
    assert peer_address("ipv6:%5B::1%5D:51234") == "::1"
    assert peer_address("unix:/tmp/sock") == "unix:/tmp/sock"


async def test_open_mode_limits_creates_per_network_address_not_per_local_client() -> None:
    """Without keys, one address on the network may create a burst of a tenth
    of ``open_games_per_hour`` games, then is refused GAME_QUOTA_EXCEEDED
    with a retry delay; loopback and in-process callers are never counted."""
    from throneroom_server.app.access import LOCAL, Caller, is_loopback
    from throneroom_server.app.errors import AppError

    now = [1000.0]
    store = MemoryStore(clock=lambda: now[0])
    access = Access(store, AccessConfig(open_games_per_hour=600.0))
    assert access.open
    remote = Caller("203.0.113.5")
    for _ in range(60):
        await access.admit(remote, creating=True)
    with pytest.raises(AppError) as refused:
        await access.admit(remote, creating=True)
    assert refused.value.reason == "GAME_QUOTA_EXCEEDED"
    assert refused.value.retry_after is not None and refused.value.retry_after > 0
    await access.admit(Caller("198.51.100.7"), creating=True)  # another address: its own bucket
    await access.admit(remote)  # other calls are not limited in open mode
    for caller in (Caller("127.0.0.1"), Caller("::1"), LOCAL):
        assert is_loopback(caller.client)
        for _ in range(100):
            await access.admit(caller, creating=True)
    now[0] += 6.0  # 600 an hour: one more game every 6 s
    await access.admit(remote, creating=True)
    unlimited = Access(store, AccessConfig(open_games_per_hour=0))
    for _ in range(100):
        await unlimited.admit(Caller("192.0.2.1"), creating=True)


def test_a_trusted_proxy_names_the_client_and_nobody_else_can() -> None:
    from throneroom_server.app.access import parse_networks

    access = Access(
        MemoryStore(), AccessConfig(trusted_proxies=parse_networks("10.0.0.0/8, 192.0.2.7"))
    )
    # The balancer (10.1.2.3) adds the client it saw at the right end.
    assert access.client_address("10.1.2.3", "203.0.113.9") == "203.0.113.9"
    # A client that writes its own header cannot choose its identity: the
    # rightmost hop that is no trusted proxy is the one the proxy saw.
    assert access.client_address("10.1.2.3", "1.1.1.1, 203.0.113.9") == "203.0.113.9"
    assert access.client_address("10.1.2.3", "203.0.113.9, 192.0.2.7") == "203.0.113.9"
    # An untrusted peer's header is ignored; no header, or garbage, is the peer.
    assert access.client_address("198.51.100.1", "203.0.113.9") == "198.51.100.1"
    assert access.client_address("10.1.2.3", "") == "10.1.2.3"
    assert access.client_address("10.1.2.3", "not-an-address") == "10.1.2.3"
    assert access.client_address("10.1.2.3", "2001:db8::1") == "2001:db8::1"
    # No trusted proxies configured: the header means nothing.
    assert Access(MemoryStore()).client_address("10.1.2.3", "203.0.113.9") == "10.1.2.3"
    with pytest.raises(ValueError):
        parse_networks("10.0.0.0/8, nonsense")


async def test_behind_a_trusted_proxy_wrong_tokens_lock_out_only_their_sender() -> None:
    """Two clients behind one balancer: one sends wrong tokens until it is
    throttled; the other, through the same proxy, plays on (per client, not
    per proxy)."""
    config = Config(listen="127.0.0.1:0", fixture_games=True, trusted_proxies="127.0.0.1")
    replica = Replica(await create_server(config, MemoryStore()))
    try:
        created = await replica.stub.CreateGame(_create())
        joined = await replica.stub.JoinGame(service_pb2.JoinGameRequest(game_id=created.game_id))
        wrong = service_pb2.GetGameRequest(game_id=created.game_id, seat_token=f"0.{'x' * 43}")
        right = service_pb2.GetGameRequest(game_id=created.game_id, seat_token=joined.seat_token)
        mallory, alice = (
            (("x-forwarded-for", "203.0.113.66"),),
            (("x-forwarded-for", "198.51.100.5"),),
        )
        burst = replica.running.app.access.config.bad_tokens_burst
        for _ in range(burst + 1):
            with pytest.raises(grpc.aio.AioRpcError):
                await replica.stub.GetGame(wrong, metadata=mallory)
        with pytest.raises(grpc.aio.AioRpcError) as locked:
            await replica.stub.GetGame(right, metadata=mallory)
        assert error_info(locked.value).reason == "SEAT_TOKEN_THROTTLED"
        await replica.stub.GetGame(right, metadata=alice)  # another client: not locked out
    finally:
        await replica.close()
