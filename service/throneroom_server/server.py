"""Building and running the gRPC server: create_server for tests and embedding,
serve() for the process, with graceful shutdown on SIGTERM/SIGINT."""

from __future__ import annotations

import asyncio
import signal
from dataclasses import dataclass

import grpc
import structlog
from aiohttp import web
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_health.v1._async import HealthServicer
from grpc_reflection.v1alpha import reflection
from throneroom.v1 import service_pb2

from throneroom_server.api.interceptors import LoggingInterceptor
from throneroom_server.api.rest import start_rest
from throneroom_server.api.servicer import ThroneroomServicer, add_servicer_to_server
from throneroom_server.app import App, AppConfig
from throneroom_server.config import Config
from throneroom_server.games.registry import build_registry
from throneroom_server.store.base import Store
from throneroom_server.store.memory import MemoryStore

log = structlog.get_logger("throneroom.server")

SERVICE_NAME = service_pb2.DESCRIPTOR.services_by_name["Throneroom"].full_name


def make_store(config: Config) -> Store:
    if config.redis_url:
        from throneroom_server.store.redis import RedisStore  # noqa: PLC0415

        return RedisStore(config.redis_url)
    return MemoryStore()


@dataclass
class RunningServer:
    server: grpc.aio.Server
    port: int
    app: App
    health: HealthServicer
    store: Store
    rest: web.AppRunner | None = None  # the REST/JSON face, when config.http_listen is set
    http_port: int | None = None

    async def stop(self, grace: float | None) -> None:
        """Graceful stop: NOT_SERVING, streams told to end, in-flight calls finish."""
        await self.health.enter_graceful_shutdown()
        self.app.begin_shutdown()  # also turns /healthz to 503 and ends SSE watches
        stopping = [self.server.stop(grace)]
        if self.rest is not None:
            stopping.append(self.rest.cleanup())
        await asyncio.gather(*stopping)
        await self.store.close()


async def create_server(config: Config, store: Store | None = None) -> RunningServer:
    """Build and start a server on ``config.listen`` (port 0 picks a free port)."""
    store = store if store is not None else make_store(config)
    app = App(
        store,
        build_registry(include_fixtures=config.fixture_games),
        config=AppConfig(heartbeat_seconds=config.heartbeat_seconds, limits=config.limits),
    )
    options = [
        ("grpc.max_send_message_length", config.max_message_bytes),
        ("grpc.max_receive_message_length", config.max_message_bytes),
        ("grpc.so_reuseport", 0),
    ]
    interceptors = [LoggingInterceptor()] if config.access_log else []
    server = grpc.aio.server(interceptors=interceptors, options=options)
    add_servicer_to_server(ThroneroomServicer(app), server)
    health_servicer = HealthServicer()
    health_pb2_grpc.add_HealthServicer_to_server(health_servicer, server)
    reflection.enable_server_reflection(
        (
            SERVICE_NAME,
            health_pb2.DESCRIPTOR.services_by_name["Health"].full_name,
            reflection.SERVICE_NAME,
        ),
        server,
    )
    port = server.add_insecure_port(config.listen)
    if port == 0:
        raise OSError(f"cannot listen on {config.listen}")
    await server.start()
    rest, http_port = None, None
    if config.http_listen:
        try:
            rest, http_port = await start_rest(
                app,
                config.http_listen,
                access_log=config.access_log,
                max_body_bytes=config.max_message_bytes,
                shutdown_timeout=config.shutdown_grace_seconds,
            )
        except OSError:
            await server.stop(None)
            raise
    for name in ("", SERVICE_NAME):
        await health_servicer.set(name, health_pb2.HealthCheckResponse.SERVING)
    return RunningServer(
        server=server,
        port=port,
        app=app,
        health=health_servicer,
        store=store,
        rest=rest,
        http_port=http_port,
    )


async def serve(config: Config) -> None:
    store = make_store(config)
    await store.ping()
    running = await create_server(config, store)
    host = config.listen.rsplit(":", 1)[0]
    http_host = (config.http_listen or "").rsplit(":", 1)[0]
    log.info(
        "listening",
        address=f"{host}:{running.port}",
        http_address=f"{http_host}:{running.http_port}" if running.rest else None,
        store=config.store_name,
        games=sorted(running.app.games),
    )
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    await stop.wait()
    log.info("shutting_down", grace_seconds=config.shutdown_grace_seconds)
    await running.stop(config.shutdown_grace_seconds)
    log.info("stopped")
