"""Development helpers shared by the test suite and the benchmarks.

``throwaway_redis()`` starts a private redis-server on a free port with no
persistence and stops it afterwards; tests and benchmarks never touch a Redis
that happens to run on the machine. ``server_process()`` runs a
throneroom-server process on a free port for the benchmarks.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager


class RedisServerError(RuntimeError):
    pass


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def wait_for_port(
    port: int, *, timeout: float = 20.0, proc: subprocess.Popen[bytes] | None = None
) -> None:
    """Wait until something accepts TCP connections on 127.0.0.1:port."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return
        except OSError:
            if proc is not None and proc.poll() is not None:
                raise RedisServerError(f"process exited with {proc.returncode}") from None
            if time.monotonic() > deadline:
                raise TimeoutError(f"nothing listens on port {port}") from None
            time.sleep(0.05)


SERVER_COMMAND = ("-m", "throneroom_server.main")
"""The interpreter's arguments that start the service (``server_process``)."""


@contextmanager
def server_process(
    redis_url: str | None = None,
    *,
    workers: int = 1,
    env: Mapping[str, str] | None = None,
    command: Sequence[str] = SERVER_COMMAND,
    timeout: float = 120.0,
) -> Iterator[tuple[str, int]]:
    """Run ``python <command> --listen 127.0.0.1:<free port>`` (on ``redis_url``,
    else the memory store; ``workers`` processes sharing the port) with ``env``
    added to this environment and its output discarded; yield its address and
    pid once it accepts connections (waiting up to ``timeout`` seconds: a loaded
    machine takes seconds to import it), and stop it with SIGTERM afterwards
    (killed if it is still running 20 s later)."""
    port = free_port()
    args = [sys.executable, *command, "--listen", f"127.0.0.1:{port}"]
    if redis_url:
        args += ["--redis-url", redis_url]
    if workers > 1:
        args += ["--workers", str(workers)]
    proc = subprocess.Popen(
        args,
        env={**os.environ, **(env or {})},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        wait_for_port(port, timeout=timeout, proc=proc)
        if workers > 1:
            time.sleep(0.3)  # the other workers listening too
        yield f"127.0.0.1:{port}", proc.pid
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


@contextmanager
def throwaway_redis(*extra_args: str) -> Iterator[str]:
    """Yield the URL of a fresh redis-server on a free port; stop it afterwards.
    ``extra_args`` are more redis-server options (``"--maxmemory", "2mb"``)."""
    with redis_process(*extra_args) as (url, _proc):
        yield url


@contextmanager
def redis_process(*extra_args: str) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    """``throwaway_redis``, yielding its process too (a test may kill it)."""
    binary = shutil.which("redis-server")
    if binary is None:
        raise RedisServerError(
            "redis-server is not installed (make test installs it on Debian as root)"
        )
    workdir = tempfile.mkdtemp(prefix="throneroom-redis-")
    port = free_port()
    proc = _start_redis(binary, port, workdir, *extra_args)
    try:
        wait_for_port(port, timeout=10, proc=proc)
        yield f"redis://127.0.0.1:{port}/0", proc
    finally:
        if proc.poll() is None:
            proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
        shutil.rmtree(workdir, ignore_errors=True)


def _start_redis(binary: str, port: int, workdir: str, *extra_args: str) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [
            binary,
            "--port", str(port),
            "--bind", "127.0.0.1",
            "--save", "",
            "--appendonly", "no",
            "--dir", workdir,
            *extra_args,
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )  # fmt: skip


def _port_free(port: int) -> bool:
    with socket.socket() as sock:
        try:
            sock.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def _cluster_port() -> int:
    """A free port whose cluster bus port (+10000) is free too."""
    for _ in range(200):
        port = free_port()
        if port + 10000 <= 65535 and _port_free(port + 10000):
            return port
    raise RedisServerError("no free port pair for a cluster node")


def _cli(cli: str, port: int, *command: str) -> str:
    """What ``redis-cli -p PORT COMMAND...`` prints."""
    return subprocess.run(
        [cli, "-p", str(port), *command],
        check=False,
        capture_output=True,
        text=True,
        timeout=5,
    ).stdout


def _cluster_ok(cli: str, port: int) -> bool:
    return "cluster_state:ok" in _cli(cli, port, "cluster", "info")


def _replica_linked(cli: str, port: int) -> bool:
    """A primary, or a replica whose link to its primary is up."""
    out = _cli(cli, port, "info", "replication")
    return "role:master" in out or "master_link_status:up" in out


@contextmanager
def throwaway_redis_cluster(masters: int = 3, *, timeout: float = 30.0) -> Iterator[list[str]]:
    """Yield the URLs of a fresh Redis Cluster of ``masters`` primaries (no
    replicas) on free ports, made with ``redis-cli --cluster create``; stop it
    afterwards. Any of the URLs reaches the whole cluster."""
    with redis_cluster_processes(masters, timeout=timeout) as nodes:
        yield [url for url, _proc in nodes]


@contextmanager
def redis_cluster_processes(
    masters: int = 3,
    *,
    replicas: int = 0,
    node_timeout_ms: int = 15000,
    timeout: float = 30.0,
    extra_args: Sequence[str] = (),
) -> Iterator[list[tuple[str, subprocess.Popen[bytes]]]]:
    """``throwaway_redis_cluster`` with ``replicas`` replicas per primary
    (``--cluster-replicas``) and ``cluster-node-timeout`` (after which a dead
    primary's replica is promoted), yielding each node's URL and process.
    ``extra_args`` are more redis-server options for every node."""
    binary = shutil.which("redis-server")
    cli = shutil.which("redis-cli")
    if binary is None or cli is None:
        raise RedisServerError(
            "redis-server and redis-cli are needed (make test installs them on Debian as root)"
        )
    workdir = tempfile.mkdtemp(prefix="throneroom-cluster-")
    ports: list[int] = []
    while len(ports) < masters * (1 + replicas):
        port = _cluster_port()
        if port not in ports:
            ports.append(port)
    procs: list[subprocess.Popen[bytes]] = []
    try:
        for port in ports:
            node_dir = f"{workdir}/{port}"
            os.makedirs(node_dir)
            cluster_args = (
                "--cluster-enabled", "yes",
                "--cluster-config-file", "nodes.conf",
                "--cluster-node-timeout", str(node_timeout_ms),
            )  # fmt: skip
            procs.append(_start_redis(binary, port, node_dir, *cluster_args, *extra_args))
        for port, proc in zip(ports, procs, strict=True):
            wait_for_port(port, timeout=10, proc=proc)
        created = subprocess.run(
            [
                cli,
                "--cluster",
                "create",
                *(f"127.0.0.1:{p}" for p in ports),
                "--cluster-replicas",
                str(replicas),
                "--cluster-yes",
            ],
            check=False,
            capture_output=True,
            text=True,
            timeout=timeout,
        )
        if created.returncode != 0:
            raise RedisServerError(f"redis-cli --cluster create failed: {created.stdout[-500:]}")
        deadline = time.monotonic() + timeout
        while not all(_cluster_ok(cli, port) for port in ports):
            if time.monotonic() > deadline:
                raise RedisServerError("the cluster did not reach cluster_state:ok")
            time.sleep(0.1)
        # A replica that has not synced yet cannot be promoted (its data is
        # "too old"): wait for every replica's link to its primary.
        while not all(_replica_linked(cli, port) for port in ports):
            if time.monotonic() > deadline:
                raise RedisServerError("the cluster's replicas did not sync with their primaries")
            time.sleep(0.1)
        yield [
            (f"redis://127.0.0.1:{port}/0", proc) for port, proc in zip(ports, procs, strict=True)
        ]
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.terminate()
        for proc in procs:
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
        shutil.rmtree(workdir, ignore_errors=True)
