"""A throwaway ``throneroom-server`` for the documentation's code blocks: the
real command on free ports (gRPC and REST), in-memory store, fixture games
on, as ``THRONEROOM_FIXTURE_GAMES=1 make run`` starts it."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest
from throneroom.v1 import service_pb2, service_pb2_grpc

from tests.docs.snippets import Server
from throneroom_dev.processes import free_port


@pytest.fixture(scope="session")
def doc_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    server = Server(grpc=f"127.0.0.1:{free_port()}", http=f"127.0.0.1:{free_port()}")
    log = tmp_path_factory.mktemp("doc-server") / "server.log"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("THRONEROOM_", "REDIS_"))}
    env.update(THRONEROOM_FIXTURE_GAMES="1", THRONEROOM_LOG_LEVEL="warning")
    command = [
        str(Path(sys.executable).parent / "throneroom-server"),
        "--listen",
        server.grpc,
        "--http-listen",
        server.http,
    ]
    with log.open("w") as out:
        process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT, env=env)
    try:
        with grpc.insecure_channel(server.grpc) as channel:
            stub = service_pb2_grpc.ThroneroomStub(channel)
            deadline = time.monotonic() + 60  # only against a hang; nothing asserts on time
            while True:
                try:
                    stub.Ping(service_pb2.PingRequest(), timeout=5, wait_for_ready=True)
                    break
                except grpc.RpcError as error:
                    if process.poll() is not None or time.monotonic() > deadline:
                        raise AssertionError(
                            f"the server did not start:\n{log.read_text()}"
                        ) from error
        yield server
    finally:
        process.terminate()
        process.wait(30)


@pytest.fixture
def workdir(tmp_path: Path) -> Path:
    return tmp_path
