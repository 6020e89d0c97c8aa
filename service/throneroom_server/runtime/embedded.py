"""EmbeddedServer: a real gRPC server in a background thread, for the SDK's
selfplay, tests and local tools. In-memory store unless a Redis URL is given."""

from __future__ import annotations

import asyncio
import threading
from types import TracebackType

import structlog

from throneroom_server.runtime.config import Config
from throneroom_server.runtime.logs import configure_logging
from throneroom_server.runtime.server import RunningServer, create_server

SETTLE_SECONDS = 1.0
"""How long the tasks a stopped server leaves (gRPC's own, finishing calls
the stop cut short) may take to end by themselves before they are cancelled."""


async def _settle_tasks() -> None:
    """Let every task left on the loop end (or cancel it) before the loop
    closes: a task destroyed pending prints a traceback into the host's stderr."""
    this = asyncio.current_task()
    left = [task for task in asyncio.all_tasks() if task is not this]
    if not left:
        return
    _, pending = await asyncio.wait(left, timeout=SETTLE_SECONDS)
    for task in pending:
        task.cancel()
    await asyncio.gather(*pending, return_exceptions=True)


class EmbeddedServer:
    def __init__(
        self,
        *,
        redis_url: str | None = None,
        include_fixtures: bool = False,
        access_log: bool = False,
        heartbeat_seconds: float = 15.0,
        quiet: bool = True,
        http: bool = False,
    ) -> None:
        """``http``: also serve the REST face (and its WebSocket play sessions)
        on a free port, ``http_address``."""
        self._config = Config(
            listen="127.0.0.1:0",
            http_listen="127.0.0.1:0" if http else None,
            redis_url=redis_url,
            fixture_games=include_fixtures,
            access_log=access_log,
            heartbeat_seconds=heartbeat_seconds,
        )
        if quiet and not structlog.is_configured():
            # Embedded in someone else's process: only warnings and errors.
            configure_logging("console", "warning")
        self._loop = asyncio.new_event_loop()
        self._running: RunningServer | None = None
        self._thread = threading.Thread(
            target=self._loop.run_forever, name="throneroom-embedded", daemon=True
        )
        self._thread.start()
        try:
            self._running = asyncio.run_coroutine_threadsafe(
                create_server(self._config), self._loop
            ).result(30)
        except BaseException:
            self._loop.call_soon_threadsafe(self._loop.stop)
            self._thread.join(5)
            raise
        self.port = self._running.port
        self.address = f"127.0.0.1:{self.port}"
        http_port = self._running.http_port
        self.http_address = f"127.0.0.1:{http_port}" if http_port is not None else None
        """The REST face's address (``http=True``), else None."""

    @property
    def running(self) -> RunningServer:
        assert self._running is not None
        return self._running

    def close(self, grace: float = 1.0) -> None:
        if self._running is None:
            return
        running, self._running = self._running, None
        asyncio.run_coroutine_threadsafe(running.stop(grace), self._loop).result(30)
        asyncio.run_coroutine_threadsafe(_settle_tasks(), self._loop).result(30)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(10)
        self._loop.close()

    def __enter__(self) -> EmbeddedServer:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()
