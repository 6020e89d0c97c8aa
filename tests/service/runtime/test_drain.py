"""SIGTERM at the shipped drain period (``Config.drain_seconds``): health says
NOT_SERVING at once (gRPC health and REST /healthz) while the replica still
serves every call, new ones included, so that balancers move away before
anything is refused; then a watch stream ends with UNAVAILABLE
``SHUTTING_DOWN`` and a RetryInfo (never OK, which means "the game is over"),
and the process exits 0."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator

import grpc
import pytest
from google.rpc import error_details_pb2
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_status import rpc_status
from throneroom.v1 import game_pb2, nim_pb2, service_pb2, service_pb2_grpc
from throneroom_server.runtime.config import Config

from throneroom_dev.processes import free_port, wait_for_port

DEADLINE = 60.0  # seconds any awaited event may take on a loaded machine


@pytest.fixture
def server() -> Iterator[tuple[subprocess.Popen[bytes], str, str]]:
    grpc_port, http_port = free_port(), free_port()
    env = {
        **os.environ,
        "THRONEROOM_DRAIN_SECONDS": str(Config().drain_seconds),  # the shipped default
        "THRONEROOM_HTTP_LISTEN": f"127.0.0.1:{http_port}",
        "THRONEROOM_FIXTURE_GAMES": "1",
    }
    proc = subprocess.Popen(
        [sys.executable, "-m", "throneroom_server.main", "--listen", f"127.0.0.1:{grpc_port}"],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        wait_for_port(grpc_port, timeout=120, proc=proc)
        wait_for_port(http_port, timeout=120, proc=proc)
        yield proc, f"127.0.0.1:{grpc_port}", f"http://127.0.0.1:{http_port}"
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait()


def _until(condition: object, what: str) -> None:
    deadline = time.monotonic() + DEADLINE
    while not condition():  # type: ignore[operator]
        assert time.monotonic() < deadline, f"never: {what}"
        time.sleep(0.02)


def _rest_health(base: str) -> int:
    try:
        with urllib.request.urlopen(f"{base}/healthz", timeout=10) as response:
            return int(response.status)
    except urllib.error.HTTPError as error:
        return int(error.code)


def _create(stub: service_pb2_grpc.ThroneroomStub) -> str:
    options = game_pb2.GameOptions(nim=nim_pb2.NimOptions(pile=5, max_take=2))
    request = service_pb2.CreateGameRequest(options=options, num_seats=2)
    return stub.CreateGame(request, timeout=10).game_id


def test_sigterm_drains_then_ends_streams_with_a_resume_hint(
    server: tuple[subprocess.Popen[bytes], str, str],
) -> None:
    proc, address, base = server
    assert Config().drain_seconds > 0
    with grpc.insecure_channel(address) as channel:
        stub = service_pb2_grpc.ThroneroomStub(channel)
        health = health_pb2_grpc.HealthStub(channel)
        game_id = _create(stub)
        watch = stub.WatchGame(
            service_pb2.WatchGameRequest(game_id=game_id, include_current=True), timeout=DEADLINE
        )
        assert next(watch).update.version == 0
        ended: list[grpc.RpcError] = []
        reader = threading.Thread(target=lambda: ended.extend(_drained(watch)), daemon=True)
        reader.start()

        proc.send_signal(signal.SIGTERM)
        check = health_pb2.HealthCheckRequest(service="")

        def not_serving() -> bool:
            status = health.Check(check, timeout=10).status
            return bool(status == health_pb2.HealthCheckResponse.NOT_SERVING)

        _until(not_serving, "gRPC health says NOT_SERVING")
        assert _rest_health(base) == 503
        # Draining: new calls are still served and the stream is still open.
        assert _create(stub)
        assert not ended and reader.is_alive()

        reader.join(DEADLINE)
        assert len(ended) == 1, "the watch stream must end with an error, not OK"
    error = ended[0]
    assert error.code() == grpc.StatusCode.UNAVAILABLE
    status = rpc_status.from_call(error)  # type: ignore[arg-type]
    assert status is not None
    reasons, delays = [], []
    for detail in status.details:
        info, retry = error_details_pb2.ErrorInfo(), error_details_pb2.RetryInfo()
        if detail.Unpack(info):
            reasons.append(info.reason)
        elif detail.Unpack(retry):
            delays.append(retry.retry_delay.ToMilliseconds())
    assert reasons == ["SHUTTING_DOWN"]
    assert delays and delays[0] > 0
    assert proc.wait(DEADLINE) == 0


def _drained(watch: Iterator[service_pb2.WatchGameResponse]) -> list[grpc.RpcError]:
    """Read ``watch`` to its end: [] when it ends OK, else its error."""
    try:
        for _ in watch:
            pass
    except grpc.RpcError as error:
        return [error]
    return []
