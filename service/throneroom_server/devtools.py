"""Development helpers shared by the test suite and the benchmarks.

``throwaway_redis()`` starts a private redis-server on a free port with no
persistence and stops it afterwards; tests and benchmarks never touch a Redis
that happens to run on the machine.
"""

from __future__ import annotations

import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
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


@contextmanager
def throwaway_redis(*extra_args: str) -> Iterator[str]:
    """Yield the URL of a fresh redis-server on a free port; stop it afterwards.
    ``extra_args`` are more redis-server options (``"--maxmemory", "2mb"``)."""
    binary = shutil.which("redis-server")
    if binary is None:
        raise RedisServerError(
            "redis-server is not installed (make test installs it on Debian as root)"
        )
    workdir = tempfile.mkdtemp(prefix="throneroom-redis-")
    port = free_port()
    proc = subprocess.Popen(
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
    try:
        wait_for_port(port, timeout=10, proc=proc)
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
        shutil.rmtree(workdir, ignore_errors=True)
