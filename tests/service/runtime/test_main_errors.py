"""`throneroom-server` fails with one clear line, not a traceback."""

from __future__ import annotations

import socket
import subprocess
import sys

from throneroom_dev.processes import server_process


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


def test_a_cluster_node_without_the_cluster_setting_is_refused_at_start_up(
    redis_cluster_urls: list[str], redis_url: str
) -> None:
    """Without THRONEROOM_REDIS_CLUSTER a cluster node would take only the
    games of its own slots: the server refuses to start, in one line (status 2)."""
    result = _run("--listen", "127.0.0.1:0", "--redis-url", redis_cluster_urls[0])
    assert result.returncode == 2
    output = result.stdout + result.stderr
    assert "Traceback" not in output and "store_misconfigured" in output
    assert "THRONEROOM_REDIS_CLUSTER=1" in output
    # A plain Redis passes the same check: the server starts and listens.
    with server_process(redis_url) as (address, _pid):
        assert address.startswith("127.0.0.1:")


def test_open_access_on_a_network_address_is_refused_unless_opted_in() -> None:
    """No keys file and a non-loopback address: anyone on the network could
    create games. Refused in one line (status 2) unless THRONEROOM_OPEN_ACCESS=1."""
    result = _run("--listen", "0.0.0.0:0")
    assert result.returncode == 2
    output = result.stdout + result.stderr
    assert "Traceback" not in output and "open_access_refused" in output
    assert "THRONEROOM_OPEN_ACCESS=1" in output
    workers = _run("--listen", "0.0.0.0:0", "--workers", "2", "--redis-url", "redis://127.0.0.1:1")
    assert workers.returncode == 2 and "open_access_refused" in workers.stdout + workers.stderr
