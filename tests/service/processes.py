"""Server processes for tests: real ``throneroom-server`` replicas on one store."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from throneroom_dev.processes import free_port, wait_for_port

START_SECONDS = 90.0
"""How long a replica may take to listen."""


@dataclass
class Replica:
    """One running server process; ``logs`` holds its stderr once it stopped."""

    address: str
    proc: subprocess.Popen[bytes]
    logs: str = field(default="")


def _stop(replica: Replica) -> None:
    replica.proc.send_signal(signal.SIGTERM)
    try:
        replica.proc.wait(15)
    except subprocess.TimeoutExpired:
        replica.proc.kill()
        raise AssertionError("the server did not stop on SIGTERM") from None
    finally:
        stream = replica.proc.stderr
        replica.logs = stream.read().decode() if stream else ""
    assert replica.proc.returncode == 0, replica.logs[-2000:]


@contextmanager
def replicas(redis_url: str, count: int, *, cluster: bool = False) -> Iterator[list[Replica]]:
    """``count`` server processes (JSON logs, Nim served) sharing ``redis_url``;
    each stopped with SIGTERM afterwards and required to exit cleanly."""
    env = dict(os.environ, THRONEROOM_FIXTURE_GAMES="1", THRONEROOM_LOG_FORMAT="json")
    started: list[Replica] = []
    try:
        for _ in range(count):  # started together, waited for after
            port = free_port()
            command = [
                sys.executable, "-m", "throneroom_server.main",
                "--listen", f"127.0.0.1:{port}",
                "--redis-url", redis_url,
                "--redis-cluster" if cluster else "--no-redis-cluster",
            ]  # fmt: skip
            proc = subprocess.Popen(
                command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
            )
            started.append(Replica(f"127.0.0.1:{port}", proc))
        for replica in started:
            port = int(replica.address.rsplit(":", 1)[1])
            try:
                # Generous: several interpreters start at once on a busy machine.
                wait_for_port(port, timeout=START_SECONDS, proc=replica.proc)  # type: ignore[arg-type]
            except Exception:
                for other in started:
                    other.proc.kill()
                    other.proc.wait()
                logs = replica.proc.stderr.read().decode() if replica.proc.stderr else ""
                raise AssertionError(logs or "the server did not start") from None
        yield started
    finally:
        errors = []
        for replica in started:
            if replica.proc.poll() is None:
                try:
                    _stop(replica)
                except AssertionError as exc:
                    errors.append(exc)
        if errors:
            raise errors[0]
