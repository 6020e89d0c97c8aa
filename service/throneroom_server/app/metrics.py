"""Prometheus metrics of one server process, served at ``/metrics``.

Off unless ``THRONEROOM_METRICS_LISTEN`` names an address; then every call
(gRPC and REST), every applied move, stale version, idempotent replay and
timeout, refusal (by reason), store failure, the open watch streams, watched
games and REST connections, the process's CPU, memory and open files, and
every store call are counted into this
process's own registry (never the library's global one: tests run many
servers in one process) and served as the Prometheus text format by a small
HTTP listener of their own, apart from the REST face (which may be off, or
public). docs/operations.md lists the metrics and example alerts.

Label values are bounded: methods come from the service's fixed method
table (an unknown path is counted as ``other``), game types from the
registry, store operations from the Store protocol.
"""

from __future__ import annotations

import inspect
import time
from collections.abc import Callable, Iterable
from typing import Any, cast

from aiohttp import web
from prometheus_client import (
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    PlatformCollector,
    ProcessCollector,
)
from prometheus_client.exposition import CONTENT_TYPE_LATEST, generate_latest

from throneroom_server.store.base import Store, StoreFull, StoreMisconfigured, StoreUnavailable

STORE_ERROR_KINDS: tuple[tuple[type[Exception], str], ...] = (
    (StoreUnavailable, "unavailable"),
    (StoreFull, "full"),
    (StoreMisconfigured, "misconfigured"),
)
"""The store's failures (not its answers, such as a stale version or a taken
seat), by the ``kind`` label of ``throneroom_store_errors``."""

LATENCY_BUCKETS = (
    0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0,
)  # fmt: skip
"""Seconds: a move takes about a millisecond; a store call well under."""


class Metrics:
    """The metrics of one server process (its own registry)."""

    def __init__(self, methods: Iterable[str] = ()) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        self._methods = frozenset(methods)
        r = self.registry
        self.requests = Counter(
            "throneroom_requests",
            "Calls answered, by face (grpc, rest), method and status code",
            ["face", "method", "code"],
            registry=r,
        )
        self.request_seconds = Histogram(
            "throneroom_request_seconds",
            "Time to answer a unary call, or a stream's whole life, by face and method",
            ["face", "method"],
            buckets=LATENCY_BUCKETS,
            registry=r,
        )
        self.moves = Counter(
            "throneroom_moves_applied", "Moves committed, by game type", ["game_type"], registry=r
        )
        self.stale = Counter(
            "throneroom_stale_versions",
            "Moves refused because another was committed first (ABORTED), by game type",
            ["game_type"],
            registry=r,
        )
        self.replays = Counter(
            "throneroom_idempotent_replays",
            "Moves answered from their first result (same idempotency key), by game type",
            ["game_type"],
            registry=r,
        )
        self.timeouts = Counter(
            "throneroom_timeouts_applied",
            "Clock timeouts applied by this replica's sweeper, by game type",
            ["game_type"],
            registry=r,
        )
        self.watch_streams = Gauge(
            "throneroom_watch_streams", "Watch streams open on this replica", registry=r
        )
        self.watched_games = Gauge(
            "throneroom_watched_games",
            "Games with at least one watch stream on this replica (one store reader each)",
            registry=r,
        )
        self.rest_connections = Gauge(
            "throneroom_rest_connections",
            "Connections open on the REST face of this replica",
            registry=r,
        )
        self.refusals = Counter(
            "throneroom_refusals",
            "Calls and play-session moves refused, by face (grpc, rest, play) and reason"
            " (the ErrorInfo reason: STORE_FULL, RATE_LIMITED, TOO_MANY_STREAMS, ...)",
            ["face", "reason"],
            registry=r,
        )
        self.store_errors = Counter(
            "throneroom_store_errors",
            "Store calls that failed, by operation and kind (unavailable, full, misconfigured)",
            ["operation", "kind"],
            registry=r,
        )
        ProcessCollector(registry=r)  # process_cpu_seconds_total, open fds, memory
        PlatformCollector(registry=r)  # python_info
        self.store_seconds = Histogram(
            "throneroom_store_seconds",
            "Time of each store call (Redis round trips), by operation",
            ["operation"],
            buckets=LATENCY_BUCKETS,
            registry=r,
        )

    def method_label(self, method: str) -> str:
        """``method`` if the service has it, else ``other`` (bounded labels)."""
        return method if method in self._methods else "other"

    def observe_request(self, face: str, label: str, code: str, seconds: float) -> None:
        """One answered call; ``label`` is bounded (``method_label`` for gRPC,
        the route's template for REST)."""
        self.requests.labels(face, label, code).inc()
        self.request_seconds.labels(face, label).observe(seconds)

    def count_open_streams(self, count: Callable[[], int]) -> None:
        self.watch_streams.set_function(lambda: float(count()))

    def count_watched_games(self, count: Callable[[], int]) -> None:
        self.watched_games.set_function(lambda: float(count()))

    def count_rest_connections(self, count: Callable[[], int]) -> None:
        self.rest_connections.set_function(lambda: float(count()))

    def refused(self, face: str, reason: str) -> None:
        """One refusal; ``reason`` is one of the service's own reasons (bounded)."""
        self.refusals.labels(face, reason).inc()

    def exposition(self) -> bytes:
        return generate_latest(self.registry)


class _MeteredStore:
    """A Store whose every coroutine method is timed into ``store_seconds``
    and whose failures are counted into ``store_errors``."""

    def __init__(self, store: Store, histogram: Histogram, errors: Counter) -> None:
        self._store = store
        self._histogram = histogram
        self._errors = errors

    def __getattr__(self, name: str) -> Any:
        attr = getattr(self._store, name)
        if not inspect.iscoroutinefunction(attr):
            return attr
        observe = self._histogram.labels(name).observe
        errors = self._errors

        async def timed(*args: Any, **kwargs: Any) -> Any:
            start = time.perf_counter()
            try:
                return await attr(*args, **kwargs)
            except Exception as exc:
                for kind_of, kind in STORE_ERROR_KINDS:
                    if isinstance(exc, kind_of):
                        errors.labels(name, kind).inc()
                        break
                raise
            finally:
                observe(time.perf_counter() - start)

        setattr(self, name, timed)  # built once per method
        return timed


def metered(store: Store, metrics: Metrics) -> Store:
    """``store`` with each call's duration observed."""
    return cast(Store, _MeteredStore(store, metrics.store_seconds, metrics.store_errors))


async def start_metrics(
    metrics: Metrics, address: str, *, reuse_port: bool = False
) -> tuple[web.AppRunner, int]:
    """Serve ``GET /metrics`` on ``address`` (host:port; port 0 picks one)."""

    async def exposition(_request: web.Request) -> web.Response:
        response = web.Response(body=metrics.exposition())
        response.headers["Content-Type"] = CONTENT_TYPE_LATEST
        return response

    app = web.Application()
    app.router.add_get("/metrics", exposition)
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    host, _, port = address.rpartition(":")
    site = web.TCPSite(runner, host or "127.0.0.1", int(port), reuse_port=reuse_port or None)
    try:
        await site.start()
    except OSError:
        await runner.cleanup()
        raise
    server = site._server
    sockets = getattr(server, "sockets", None) or []
    return runner, int(sockets[0].getsockname()[1]) if sockets else int(port)
