"""The server bench/fuzz.py fuzzes: a real one (gRPC and REST) on an event loop
in a thread of its own, over a store that counts its writes, with the service's
log lines swallowed and its errors kept."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import structlog
from aiohttp.http_exceptions import HttpProcessingError
from throneroom_server.runtime.config import Config
from throneroom_server.runtime.server import RunningServer, create_server
from throneroom_server.store.base import Committed
from throneroom_server.store.memory import MemoryStore


class CountingStore:
    """The store, counting the writes that took effect (a created game, a
    claimed seat, a committed move), so a rejected call can be shown to have
    written nothing."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.writes = 0

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    async def create_game(self, *args: Any, **kwargs: Any) -> Any:
        result = await self.inner.create_game(*args, **kwargs)
        self.writes += 1
        return result

    async def claim_seat(self, *args: Any, **kwargs: Any) -> Any:
        result = await self.inner.claim_seat(*args, **kwargs)
        self.writes += 1
        return result

    async def commit(self, *args: Any, **kwargs: Any) -> Any:
        result = await self.inner.commit(*args, **kwargs)
        if isinstance(result, Committed):
            self.writes += 1
        return result


class ServerThread:
    """A real server (gRPC + REST) running on an event loop in a thread."""

    def __init__(self, redis_url: str | None) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.store = CountingStore(self.call(self._make_store(redis_url)))
        config = Config(
            listen="127.0.0.1:0", http_listen="127.0.0.1:0", fixture_games=True, access_log=False
        )
        self.running: RunningServer = self.call(create_server(config, self.store))

    @staticmethod
    async def _make_store(redis_url: str | None) -> Any:
        if redis_url is None:
            return MemoryStore()
        from throneroom_server.store.redis import RedisStore  # noqa: PLC0415

        return RedisStore(redis_url)

    def call(self, coroutine: Any, timeout: float = 30) -> Any:
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result(timeout)

    def fingerprint(self, game_id: str) -> tuple[Any, ...] | None:
        """The game's version, state and seats, byte for byte (None: no such game)."""
        try:
            loaded = self.call(self.store.inner.load(game_id))
        except Exception:
            return None
        seats = sorted((n, s.SerializeToString()) for n, s in loaded.seats.items())
        state = loaded.state.SerializeToString(deterministic=True)
        return loaded.version, state, tuple(seats)

    def stop(self) -> None:
        self.call(self.running.stop(None))
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)


@dataclass
class LogWatch:
    errors: list[dict[str, Any]] = field(default_factory=list)
    unparsable_http: int = 0


@contextlib.contextmanager
def watched_logs() -> Iterator[LogWatch]:
    """Swallow the service's log lines, keeping the errors (unexpected exceptions).

    aiohttp's own stdlib log of a request it could not even parse (a header
    byte HTTP forbids: answered 400 before any handler runs) is a client's
    error, not ours: those are counted apart, in ``unparsable_http``."""
    watch = LogWatch()
    errors = watch.errors

    def keep_errors(logger: Any, method: str, event: dict[str, Any]) -> Any:
        if method in ("error", "exception", "critical"):
            errors.append(dict(event))
        raise structlog.DropEvent

    class StdlibErrors(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            exc = record.exc_info[1] if record.exc_info else None
            if isinstance(exc, HttpProcessingError) and exc.code == 400:
                watch.unparsable_http += 1
            else:
                errors.append({"event": record.getMessage(), "exc_info": repr(exc)})

    old = structlog.get_config()
    structlog.configure(processors=[keep_errors], cache_logger_on_first_use=False)
    handler = StdlibErrors(level=logging.ERROR)
    root = logging.getLogger()
    root.addHandler(handler)
    try:
        yield watch
    finally:
        root.removeHandler(handler)
        structlog.configure(**old)
