"""The process's entry point sets grpc's environment before grpc is imported
(``throneroom_server.runtime.main.GRPC_SETTINGS``), and the setting does what it is
there for: the shipped server accepts its connections with iomgr's TCP server.
(The last test reads grpc's own trace, which names its source files: pinned
grpcio, checked again when grpcio changes.)"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc
from throneroom_server.runtime.main import GRPC_SETTINGS, use_grpc_settings

from throneroom_dev.processes import free_port, wait_for_port


def test_the_settings_fill_only_what_the_environment_leaves_unset() -> None:
    empty: dict[str, str] = {}
    assert use_grpc_settings(empty) == GRPC_SETTINGS
    assert empty == GRPC_SETTINGS
    opted_out = {"GRPC_EXPERIMENTS": ""}
    assert use_grpc_settings(opted_out) == {"GRPC_EXPERIMENTS": ""}
    own = {"GRPC_EXPERIMENTS": "tcp_rcv_lowat", "OTHER": "1"}
    use_grpc_settings(own)
    assert own == {"GRPC_EXPERIMENTS": "tcp_rcv_lowat", "OTHER": "1"}


def test_the_entry_module_imports_no_grpc() -> None:
    """grpc reads its environment once, at import: the entry point must set
    it before anything imports grpc."""
    probe = "import sys, throneroom_server.runtime.main; print('grpc' in sys.modules)"
    result = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, timeout=60, check=True
    )
    assert result.stdout.strip() == "False"


def _grpc_start_log(experiments: str) -> str:
    """What grpc logs when a server with ``experiments`` starts and serves one call."""
    probe = (
        "import asyncio, grpc\n"
        "async def main():\n"
        "    server = grpc.aio.server()\n"
        "    server.add_insecure_port('127.0.0.1:0')\n"
        "    await server.start()\n"
        "    await server.stop(0)\n"
        "asyncio.run(main())\n"
    )
    env = {**os.environ, "GRPC_EXPERIMENTS": experiments}
    result = subprocess.run(
        [sys.executable, "-c", probe],
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    return result.stderr


def test_the_installed_grpc_knows_every_experiment_named() -> None:
    for name, value in GRPC_SETTINGS.items():
        if name == "GRPC_EXPERIMENTS":
            assert "Unknown experiment" not in _grpc_start_log(value)
    # The check can fail: an experiment grpc does not know is reported.
    assert "Unknown experiment: no_such_experiment" in _grpc_start_log("no_such_experiment")


def _served_once(environment: dict[str, str]) -> str:
    """What the real server process (started as ``throneroom-server`` is, with
    ``environment`` and JSON logs, grpc tracing its TCP layer) wrote to stderr
    while it started, answered one call and stopped."""
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k not in GRPC_SETTINGS}
    env.update(environment, GRPC_TRACE="tcp", GRPC_VERBOSITY="debug", THRONEROOM_LOG_FORMAT="json")
    with tempfile.TemporaryFile("w+") as log:
        proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "throneroom_server.main",
                "--listen",
                f"127.0.0.1:{port}",
            ],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=log,
        )
        try:
            wait_for_port(port, timeout=120, proc=proc)
            with grpc.insecure_channel(f"127.0.0.1:{port}") as channel:
                reply = health_pb2_grpc.HealthStub(channel).Check(
                    health_pb2.HealthCheckRequest(), timeout=30
                )
            assert reply.status == health_pb2.HealthCheckResponse.SERVING
        finally:
            proc.terminate()
            proc.wait(timeout=30)
        log.seek(0)
        return log.read()


def _accepting_sources(environment: dict[str, str]) -> set[str]:
    """The grpc source files that logged while the server accepted one call."""
    text = _served_once(environment)
    return {Path(word.split(":")[0]).name for word in text.split() if ".cc:" in word}


def test_the_start_up_line_names_the_settings_and_the_frozen_heap() -> None:
    """The process logs grpc's experiments as it runs with them, and froze
    what start-up built (``gc.freeze``: the collector's full passes skip it)."""
    lines = [line for line in _served_once({}).splitlines() if line.startswith("{")]
    listening = [entry for entry in map(json.loads, lines) if entry["event"] == "listening"]
    assert len(listening) == 1
    assert listening[0]["grpc_experiments"] == GRPC_SETTINGS["GRPC_EXPERIMENTS"]
    assert listening[0]["gc_frozen"] > 10_000  # modules, descriptors, the games' data


def test_the_shipped_server_accepts_with_iomgrs_tcp_server() -> None:
    """Its connections are iomgr's TCP endpoints (``tcp_posix.cc``), not
    EventEngine's (``posix_endpoint.cc``)."""
    shipped = _accepting_sources({})
    assert "tcp_posix.cc" in shipped
    assert "posix_endpoint.cc" not in shipped
    # GRPC_EXPERIMENTS= (empty) restores grpc's default: the EventEngine listener.
    default = _accepting_sources({"GRPC_EXPERIMENTS": ""})
    assert "posix_endpoint.cc" in default
    assert "tcp_posix.cc" not in default
