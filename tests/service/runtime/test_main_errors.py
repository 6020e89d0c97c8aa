"""`throneroom-server` fails with one clear line, not a traceback."""

from __future__ import annotations

import socket
import subprocess
import sys


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "throneroom_server.main", *args],
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )


def test_a_port_in_use_is_one_line() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = _run("--listen", f"127.0.0.1:{port}")
    assert result.returncode == 1
    output = result.stdout + result.stderr
    assert "Traceback" not in output
    assert f"cannot listen on 127.0.0.1:{port} (gRPC): is the port in use?" in output


def test_the_rest_port_in_use_is_one_line() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = _run("--listen", "127.0.0.1:0", "--http-listen", f"127.0.0.1:{port}")
    assert result.returncode == 1
    output = result.stdout + result.stderr
    assert "Traceback" not in output
    assert f"cannot listen on 127.0.0.1:{port} (REST)" in output


def test_an_unusable_keys_file_is_one_line() -> None:
    result = _run("--listen", "127.0.0.1:0", "--api-keys-file", "/nonexistent/keys.json")
    assert result.returncode == 2
    output = result.stdout + result.stderr
    assert "Traceback" not in output and "api_keys_unusable" in output
