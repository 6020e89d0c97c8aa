"""`throneroom-server --workers N`: N processes share both ports (SO_REUSEPORT)
and one Redis; any of them serves any game; SIGTERM stops them all."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import grpc
from throneroom.v1 import game_pb2, nim_pb2, service_pb2, service_pb2_grpc
from throneroom_server.runtime.main import GRPC_SETTINGS
from throneroom_server.runtime.process import WORKER_ENV

from throneroom_dev.processes import free_port, wait_for_port


def _server(*args: str) -> subprocess.Popen[str]:
    """The process as started by hand: no worker number, no grpc settings
    (``throneroom-server`` sets them for itself and its workers)."""
    env = {k: v for k, v in os.environ.items() if k != WORKER_ENV and k not in GRPC_SETTINGS}
    env.update(THRONEROOM_FIXTURE_GAMES="1", THRONEROOM_LOG_FORMAT="json")
    return subprocess.Popen(
        [sys.executable, "-m", "throneroom_server.main", *args],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )


def _children(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text().rsplit(") ", 1)[1].split()
            except (OSError, IndexError):
                continue
            if int(stat[1]) == pid:
                found.append(int(entry.name))
    return found


def test_more_than_one_worker_needs_redis() -> None:
    proc = _server("--workers", "2", "--listen", "127.0.0.1:0")
    output, _ = proc.communicate(timeout=30)
    assert proc.returncode == 2
    assert "workers_need_redis" in output and "Traceback" not in output


async def test_workers_share_the_ports_and_the_store(clean_redis: str) -> None:
    port, http_port = free_port(), free_port()
    proc = _server(
        "--workers", "2", "--redis-url", clean_redis,
        "--listen", f"127.0.0.1:{port}", "--http-listen", f"127.0.0.1:{http_port}",
    )  # fmt: skip
    try:
        wait_for_port(port, timeout=90, proc=proc)  # type: ignore[arg-type]  # a busy machine
        wait_for_port(http_port, timeout=90, proc=proc)  # type: ignore[arg-type]
        workers = _children(proc.pid)
        assert len(workers) == 2
        for worker in workers:  # each worker started with the service's grpc settings
            environ = Path(f"/proc/{worker}/environ").read_bytes().split(b"\0")
            for name, value in GRPC_SETTINGS.items():
                assert f"{name}={value}".encode() in environ
        # Separate connections (the kernel may hand each to either worker)
        # play one game: its state is in Redis, not in a worker.
        channels = [
            grpc.aio.insecure_channel(
                f"127.0.0.1:{port}", options=[("grpc.use_local_subchannel_pool", 1)]
            )
            for _ in range(6)
        ]
        stubs = [service_pb2_grpc.ThroneroomStub(c) for c in channels]
        created = await stubs[0].CreateGame(
            service_pb2.CreateGameRequest(
                options=game_pb2.GameOptions(nim=nim_pb2.NimOptions(pile=20, max_take=1)),
                num_seats=2,
            )
        )
        tokens = [
            (
                await stubs[1 + s].JoinGame(service_pb2.JoinGameRequest(game_id=created.game_id))
            ).seat_token
            for s in range(2)
        ]
        for version in range(4):
            reply = await stubs[version % 6].ApplyMove(
                service_pb2.ApplyMoveRequest(
                    game_id=created.game_id,
                    seat_token=tokens[version % 2],
                    expected_version=version,
                    move=game_pb2.Move(nim=nim_pb2.NimMove(take=1)),
                    idempotency_key=f"move-{version}",
                )
            )
            assert reply.version == version + 1
        for channel in channels:
            await channel.close()
    finally:
        proc.send_signal(signal.SIGTERM)
        output, _ = proc.communicate(timeout=30)
    assert proc.returncode == 0, output
    assert "workers_started" in output and "Traceback" not in output
