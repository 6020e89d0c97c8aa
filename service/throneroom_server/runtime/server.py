"""Building and running the gRPC server: create_server for tests and embedding,
serve() for the process, with graceful shutdown on SIGTERM/SIGINT."""

from __future__ import annotations

import asyncio
import gc
import os
import signal
from collections.abc import Awaitable
from dataclasses import dataclass

import grpc
import structlog
from aiohttp import web
from grpc_health.v1 import health_pb2
from grpc_health.v1._async import HealthServicer
from throneroom.v1 import service_pb2

from throneroom_server.api.connections import grpc_options
from throneroom_server.api.cors import parse_origins
from throneroom_server.api.interceptors import LoggingInterceptor
from throneroom_server.api.rest import start_rest
from throneroom_server.api.servicer import ThroneroomServicer, add_servicer_to_server
from throneroom_server.api.standard import add_standard_services
from throneroom_server.app.access import (
    Access,
    AccessConfig,
    is_loopback,
    load_keys,
    parse_networks,
)
from throneroom_server.app.metrics import Metrics, metered, start_metrics
from throneroom_server.app.service import App, AppConfig
from throneroom_server.app.watch import WatchLimits
from throneroom_server.games.registry import service_games
from throneroom_server.runtime.config import Config
from throneroom_server.store.base import Retention, Store
from throneroom_server.store.memory import MemoryStore

log = structlog.get_logger("throneroom.server")

SERVICE_NAME = service_pb2.DESCRIPTOR.services_by_name["Throneroom"].full_name
SERVICE_METHODS = tuple(
    f"/{SERVICE_NAME}/{method.name}"
    for method in service_pb2.DESCRIPTOR.services_by_name["Throneroom"].methods
)
"""Every gRPC method path of the service (the metrics' bounded method labels)."""


class ListenError(OSError):
    """An address to listen on cannot be used (in use, not local, no permission)."""


def retention_of(config: Config) -> Retention:
    return Retention(
        idle_seconds=config.idle_game_ttl_seconds or None,
        finished_seconds=config.finished_game_ttl_seconds or None,
    )


def make_store(config: Config) -> Store:
    if config.redis_url:
        from throneroom_server.store.redis import RedisStore  # noqa: PLC0415

        return RedisStore(
            config.redis_url,
            cluster=config.redis_cluster,
            max_connections=config.redis_max_connections,
            max_blocking_connections=config.max_watched_games,
            retention=retention_of(config),
            min_replicas_acked=config.redis_min_replicas_acked,
            replication_timeout_seconds=config.redis_replication_timeout_seconds,
        )
    return MemoryStore(retention=retention_of(config))


def app_config(config: Config) -> AppConfig:
    return AppConfig(
        heartbeat_seconds=config.heartbeat_seconds,
        watch=WatchLimits(
            streams_per_client=config.max_streams_per_client,
            streams_per_game=config.max_streams_per_game,
            streams_total=config.max_streams,
            watched_games=config.max_watched_games,
            buffer_entries=config.watch_buffer_entries,
        ),
        limits=config.limits,
    )


def access_config(config: Config) -> AccessConfig:
    """Raises ApiKeyError when the keys file is not usable."""
    keys = load_keys(config.api_keys_file) if config.api_keys_file else None
    rps = config.anonymous_requests_per_second
    return AccessConfig(
        keys=keys,
        anonymous_requests_per_second=rps,
        anonymous_burst=max(1, round(2 * rps)),
        open_games_per_hour=config.open_games_per_hour,
        trusted_proxies=parse_networks(config.trusted_proxies or ""),
    )


def exposed_without_keys(config: Config) -> list[str]:
    """The addresses (gRPC, REST) the service would listen on, open to anyone
    (no keys file), that are not loopback addresses."""
    if config.api_keys_file:
        return []
    exposed = []
    for address in (config.listen, config.http_listen):
        if address and not is_loopback(address.rsplit(":", 1)[0].strip("[]") or "0.0.0.0"):
            exposed.append(address)
    return exposed


class OpenAccessRefused(Exception):
    """Open access (no keys) on a non-loopback address without THRONEROOM_OPEN_ACCESS."""


@dataclass
class RunningServer:
    server: grpc.aio.Server
    port: int
    app: App
    health: HealthServicer
    store: Store
    rest: web.AppRunner | None = None  # the REST/JSON face, when config.http_listen is set
    http_port: int | None = None
    sweeper: asyncio.Task[None] | None = None  # applies clock timeouts
    metrics: web.AppRunner | None = None  # the /metrics listener, when config.metrics_listen
    metrics_port: int | None = None

    async def stop(self, grace: float | None, *, drain: float = 0.0) -> None:
        """Graceful stop. Health says NOT_SERVING (gRPC health and REST
        /healthz) and, for ``drain`` seconds, every call is still served, new
        ones included, so that balancers and Kubernetes move traffic away
        before anything is refused; then streams are told to end (UNAVAILABLE
        ``SHUTTING_DOWN``), in-flight calls get ``grace`` seconds, listeners close."""
        await self.health.enter_graceful_shutdown()
        self.app.begin_drain()
        if drain > 0:
            log.info("draining", drain_seconds=drain)
            await asyncio.sleep(drain)  # the drain period itself, not a wait for an event
        self.app.begin_shutdown()  # ends watch streams, SSE watches and the sweeper
        stopping: list[Awaitable[None]] = [self.server.stop(grace)]
        if self.rest is not None:
            stopping.append(self.rest.cleanup())
        if self.sweeper is not None:
            stopping.append(self.sweeper)
        if self.metrics is not None:
            stopping.append(self.metrics.cleanup())
        await asyncio.gather(*stopping)
        await self.store.close()


async def create_server(
    config: Config, store: Store | None = None, *, reuse_port: bool = False
) -> RunningServer:
    """Build and start a server on ``config.listen`` (port 0 picks a free port).
    ``reuse_port``: this process is one of several workers sharing the ports
    (SO_REUSEPORT, the kernel spreads connections); otherwise a port in use
    is an error."""
    access = access_config(config)
    store = store if store is not None else make_store(config)
    metrics = Metrics(SERVICE_METHODS) if config.metrics_listen else None
    app = App(
        metered(store, metrics) if metrics is not None else store,
        service_games(include_fixtures=config.fixture_games),
        config=app_config(config),
        access=Access(store, access),
        metrics=metrics,
    )
    server, health_servicer, port = await _start_grpc(config, app, metrics, reuse_port=reuse_port)
    rest, http_port = None, None
    if config.http_listen:
        try:
            rest, http_port = await start_rest(
                app,
                config.http_listen,
                access_log=config.access_log,
                max_body_bytes=config.max_message_bytes,
                shutdown_timeout=config.shutdown_grace_seconds,
                reuse_port=reuse_port,
                cors=parse_origins(config.cors_origins),
                metrics=metrics,
                max_connections=config.max_connections,
                idle_seconds=config.idle_connection_seconds,
            )
        except OSError as exc:
            await server.stop(None)
            raise ListenError(
                f"cannot listen on {config.http_listen} (REST): {exc.strerror or exc}"
            ) from exc
    metrics_runner, metrics_port = None, None
    if metrics is not None and config.metrics_listen:
        try:
            metrics_runner, metrics_port = await start_metrics(metrics, config.metrics_listen)
        except (OSError, ValueError) as exc:
            await server.stop(None)
            if rest is not None:
                await rest.cleanup()
            raise ListenError(f"cannot listen on {config.metrics_listen} (metrics): {exc}") from exc
    for name in ("", SERVICE_NAME):
        await health_servicer.set(name, health_pb2.HealthCheckResponse.SERVING)
    sweeper = None
    if config.clock_sweep_seconds > 0:
        sweeper = asyncio.get_running_loop().create_task(
            app.run_sweeper(config.clock_sweep_seconds), name="clock-sweeper"
        )
    return RunningServer(
        server=server,
        port=port,
        app=app,
        health=health_servicer,
        store=store,
        rest=rest,
        http_port=http_port,
        sweeper=sweeper,
        metrics=metrics_runner,
        metrics_port=metrics_port,
    )


async def _start_grpc(
    config: Config, app: App, metrics: Metrics | None, *, reuse_port: bool
) -> tuple[grpc.aio.Server, HealthServicer, int]:
    """The gRPC server (the service, health and reflection) started on
    ``config.listen``; its health servicer and its port."""
    options = [
        ("grpc.max_send_message_length", config.max_message_bytes),
        ("grpc.max_receive_message_length", config.max_message_bytes),
        ("grpc.so_reuseport", 1 if reuse_port else 0),
        *grpc_options(config.max_connections, config.idle_connection_seconds),
    ]
    interceptors = (
        [LoggingInterceptor(access_log=config.access_log, metrics=metrics)]
        if config.access_log or metrics is not None
        else []
    )
    server = grpc.aio.server(
        interceptors=interceptors, options=options, maximum_concurrent_rpcs=config.max_calls
    )
    add_servicer_to_server(ThroneroomServicer(app), server)
    health_servicer = HealthServicer()
    add_standard_services(
        server,
        health_servicer,
        (SERVICE_NAME, health_pb2.DESCRIPTOR.services_by_name["Health"].full_name),
    )
    try:
        port = server.add_insecure_port(config.listen)
    except RuntimeError as exc:  # grpcio reports a failed bind this way
        port = 0
        log.debug("bind_failed", error=str(exc))
    if port == 0:
        raise ListenError(f"cannot listen on {config.listen} (gRPC): is the port in use?")
    await server.start()
    return server, health_servicer, port


def guard_open_access(config: Config) -> list[str]:
    """The non-loopback addresses open to anyone (``exposed_without_keys``);
    raises OpenAccessRefused when there are some and THRONEROOM_OPEN_ACCESS is off."""
    exposed = exposed_without_keys(config)
    if exposed and not config.open_access:
        raise OpenAccessRefused(
            f"no API keys (THRONEROOM_API_KEYS_FILE) and listening on {', '.join(exposed)}:"
            " anyone on the network could create and join games; configure keys, listen on"
            " a loopback address, or set THRONEROOM_OPEN_ACCESS=1 to accept it"
        )
    return exposed


async def serve(config: Config, *, worker: int | None = None) -> None:
    """Run one server process until SIGTERM/SIGINT (``worker``: its number
    among the processes of ``--workers``, which share the ports)."""
    exposed = guard_open_access(config)
    if exposed:
        log.warning(
            "open_access_on_network",
            addresses=exposed,
            games_per_hour_per_address=config.open_games_per_hour,
            hint="anyone who reaches these addresses may create and join games:"
            " configure THRONEROOM_API_KEYS_FILE for production",
        )
    store = make_store(config)
    await store.ping()
    running = await create_server(config, store, reuse_port=worker is not None)
    # What start-up built (modules, message descriptors, the games' data) lives
    # as long as the process: frozen, the cyclic collector's full passes leave
    # it out (each such pass over it stopped the loop for 25-40 ms under load).
    gc.freeze()
    host = config.listen.rsplit(":", 1)[0]
    http_host = (config.http_listen or "").rsplit(":", 1)[0]
    log.info(
        "listening",
        address=f"{host}:{running.port}",
        http_address=f"{http_host}:{running.http_port}" if running.rest else None,
        store=config.store_name,
        worker=worker,
        games=sorted(running.app.games),
        grpc_experiments=os.environ.get("GRPC_EXPERIMENTS"),  # main.GRPC_SETTINGS
        gc_frozen=gc.get_freeze_count(),
        access=(
            "open: no API keys configured, anyone may create and join games (local use)"
            if running.app.access.open
            else f"API keys required to create and join games ({config.api_keys_file})"
        ),
    )
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    await stop.wait()
    log.info(
        "shutting_down",
        drain_seconds=config.drain_seconds,
        grace_seconds=config.shutdown_grace_seconds,
    )
    await running.stop(config.shutdown_grace_seconds, drain=config.drain_seconds)
    log.info("stopped")
