"""Running the service's process (``throneroom-server``, entered through
``throneroom_server.main``, which sets grpc's environment first).

With ``--workers N`` (N > 1) this process only supervises: it starts N worker
processes of itself on the same addresses, each a whole replica (the service
keeps no state in process memory, so they share one Redis), which listen with
SO_REUSEPORT so that the kernel spreads connections over them. SIGTERM/SIGINT
are passed on to every worker (each stops gracefully); if a worker dies, the
others are stopped and the supervisor exits with status 1.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import resource
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator, Sequence
from types import FrameType

import structlog

from throneroom_server.app.access import ApiKeyError
from throneroom_server.runtime.config import Config, load_config
from throneroom_server.runtime.logs import configure_logging
from throneroom_server.runtime.server import (
    ListenError,
    OpenAccessRefused,
    guard_open_access,
    serve,
)
from throneroom_server.store import StoreMisconfigured, StoreUnavailable

WORKER_ENV = "THRONEROOM_WORKER"
"""Set by the supervisor in each worker's environment: the worker's number."""

log = structlog.get_logger("throneroom.server")


def run(argv: Sequence[str] | None = None) -> int:
    config = load_config(argv)
    configure_logging(config.log_format, config.log_level)
    worker_text = os.environ.get(WORKER_ENV, "")
    worker = int(worker_text) if worker_text.isdigit() else None
    if config.workers > 1 and worker is None:
        try:
            guard_open_access(config)
        except OpenAccessRefused as exc:
            log.error("open_access_refused", error=str(exc))
            return 2
        return supervise(config, list(sys.argv[1:] if argv is None else argv))
    open_files_for(config)
    try:
        asyncio.run(serve(config, worker=worker))
    except StoreUnavailable as exc:
        log.error("store_unreachable", store=config.store_name, error=str(exc))
        return 1
    except StoreMisconfigured as exc:
        log.error("store_misconfigured", store=config.store_name, error=str(exc))
        return 2
    except ListenError as exc:
        log.error("cannot_listen", error=str(exc))
        return 1
    except ApiKeyError as exc:
        log.error("api_keys_unusable", error=str(exc))
        return 2
    except OpenAccessRefused as exc:
        log.error("open_access_refused", error=str(exc))
        return 2
    return 0


OPEN_FILES_SPARE = 1024
"""Files a server process needs besides its client connections (Redis
connections, listeners, the event loop's own)."""


def open_files_for(config: Config) -> int:
    """Raise this process's soft limit of open files (within the hard one) so
    that both faces can hold ``max_connections`` each; a warning when the hard
    limit is lower. Returns the soft limit in force."""
    needed = 2 * config.max_connections + OPEN_FILES_SPARE
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != resource.RLIM_INFINITY and soft < needed:
        raised = needed if hard == resource.RLIM_INFINITY else min(needed, hard)
        if raised > soft:
            resource.setrlimit(resource.RLIMIT_NOFILE, (raised, hard))
            soft = raised
    if soft != resource.RLIM_INFINITY and soft < needed:
        log.warning(
            "open_files_limit_low",
            limit=soft,
            needed=needed,
            hint="raise the hard limit (ulimit -Hn, LimitNOFILE=) or lower "
            "THRONEROOM_MAX_CONNECTIONS: connections beyond the limit fail to be accepted",
        )
    return soft


@contextlib.contextmanager
def _reserved(listen: str) -> Iterator[str]:
    """``listen`` with port 0 replaced by a free port, kept bound (SO_REUSEPORT,
    not listening: it takes no connections) until the workers have bound it too."""
    host, _, port = listen.rpartition(":")
    if port != "0":
        yield listen
        return
    with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET) as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
        sock.bind((host.strip("[]"), 0))
        yield f"{host}:{sock.getsockname()[1]}"


def _listening(address: str) -> bool:
    host, _, port = address.rpartition(":")
    host = host.strip("[]")
    try:
        socket.create_connection(
            ("127.0.0.1" if host in ("0.0.0.0", "") else host, int(port)), timeout=0.2
        ).close()
    except OSError:
        return False
    return True


def supervise(config: Config, argv: list[str]) -> int:
    """Run ``config.workers`` worker processes on the same ports until a
    signal (passed on to them) or until one of them exits."""
    if not config.redis_url:
        log.error(
            "workers_need_redis",
            error="--workers above 1 needs --redis-url: the in-memory store lives in one process",
        )
        return 2
    if config.metrics_listen:
        log.error(
            "workers_and_metrics",
            error=(
                "--metrics-listen serves one process's metrics: run one worker per "
                "container (scale with replicas) when Prometheus scrapes them"
            ),
        )
        return 2
    stopping = False
    workers: list[subprocess.Popen[bytes]] = []

    def stop(signum: int, _frame: FrameType | None) -> None:
        nonlocal stopping
        stopping = True
        for proc in workers:
            if proc.poll() is None:
                proc.send_signal(signum)

    with contextlib.ExitStack() as reserved:
        listen = reserved.enter_context(_reserved(config.listen))
        args = [*argv, "--listen", listen]
        http = None
        if config.http_listen:
            http = reserved.enter_context(_reserved(config.http_listen))
            args += ["--http-listen", http]
        signal.signal(signal.SIGTERM, stop)
        signal.signal(signal.SIGINT, stop)
        for number in range(config.workers):
            if stopping:  # a signal came before every worker was started
                break
            env = dict(os.environ, **{WORKER_ENV: str(number)})
            workers.append(
                subprocess.Popen([sys.executable, "-m", "throneroom_server.main", *args], env=env)
            )
        deadline = time.monotonic() + 30
        while not stopping and time.monotonic() < deadline:
            if all(_listening(a) for a in (listen, http) if a):
                break
            if any(proc.poll() is not None for proc in workers):
                break
            time.sleep(0.05)
    log.info("workers_started", workers=[proc.pid for proc in workers], address=listen)
    status = 0
    while workers:
        pid, code = os.wait()
        done = [proc for proc in workers if proc.pid == pid]
        for proc in done:
            proc.returncode = os.waitstatus_to_exitcode(code)
            workers.remove(proc)
            if not stopping:
                log.error("worker_exited", pid=pid, status=proc.returncode)
                status = 1
                stop(signal.SIGTERM, None)
            elif proc.returncode not in (0, -signal.SIGTERM, -signal.SIGINT):
                status = max(status, proc.returncode)
    return status
