"""Shared fixtures: a throwaway redis-server on a free port (never a running one)."""

from __future__ import annotations

import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator

import pytest


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture(scope="session")
def redis_url() -> Iterator[str]:
    """Start a private redis-server for the test session and yield its URL."""
    binary = shutil.which("redis-server")
    if binary is None:
        pytest.fail("redis-server is not installed: run `make test` (it installs it) or install it")
    workdir = tempfile.mkdtemp(prefix="throneroom-redis-")
    port = _free_port()
    proc = subprocess.Popen(
        [
            binary,
            "--port", str(port),
            "--bind", "127.0.0.1",
            "--save", "",
            "--appendonly", "no",
            "--dir", workdir,
            "--protected-mode", "yes",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 10
    while True:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2) as sock:
                sock.sendall(b"PING\r\n")
                if sock.recv(16).startswith(b"+PONG"):
                    break
        except OSError:
            pass
        if proc.poll() is not None or time.monotonic() > deadline:
            proc.kill()
            pytest.fail(f"redis-server did not start on port {port}")
        time.sleep(0.05)
    try:
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
        shutil.rmtree(workdir, ignore_errors=True)
