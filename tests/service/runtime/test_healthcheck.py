"""The container health check (``throneroom_server.runtime.healthcheck``,
the Dockerfile's HEALTHCHECK): 0 for a serving replica, 1 for one that is
draining or gone."""

from __future__ import annotations

import asyncio

from throneroom_server.runtime.config import Config
from throneroom_server.runtime.healthcheck import main, probe_address
from throneroom_server.runtime.server import create_server
from throneroom_server.store.memory import MemoryStore

from throneroom_dev.processes import free_port


def test_the_probe_address_is_the_listen_port_on_loopback() -> None:
    assert probe_address("0.0.0.0:50051") == "127.0.0.1:50051"
    assert probe_address("[::]:7000") == "127.0.0.1:7000"


async def test_serving_then_draining_then_gone() -> None:
    running = await create_server(Config(listen="127.0.0.1:0"), MemoryStore())
    address = f"127.0.0.1:{running.port}"
    try:
        assert await asyncio.to_thread(main, ["--address", address]) == 0
        await running.health.enter_graceful_shutdown()  # what SIGTERM does first
        assert await asyncio.to_thread(main, ["--address", address]) == 1
    finally:
        await running.stop(None)
    nobody = f"127.0.0.1:{free_port()}"
    assert await asyncio.to_thread(main, ["--address", nobody, "--timeout", "0.5"]) == 1
