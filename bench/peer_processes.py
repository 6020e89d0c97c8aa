"""The processes bench/peer.py and bench/peer_floor.py measure: Throneroom's server
in its own process(es), and the CPU that processes (and Redis) use, read from
/proc, added up per run in :class:`Totals`.

Importing this module puts the repository's ``sdk`` and ``service`` folders on
``sys.path`` (the benchmarks run as scripts from a checkout).
"""

from __future__ import annotations

import contextlib
import os
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import redis

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "sdk"), str(ROOT / "service")]

from throneroom_dev.processes import server_process  # noqa: E402

CLK_TCK = os.sysconf("SC_CLK_TCK")


def _children(pid: int) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            with contextlib.suppress(OSError, IndexError):
                stat = Path(f"/proc/{entry}/stat").read_text().rsplit(") ", 1)[1].split()
                if int(stat[1]) == pid:
                    found.append(int(entry))
    return found


def process_tree(pid: int) -> list[int]:
    """``pid`` and its descendants (a server's worker processes)."""
    tree, todo = [], [pid]
    while todo:
        current = todo.pop()
        tree.append(current)
        todo.extend(_children(current))
    return tree


def cpu_seconds(pids: list[int]) -> float:
    """User + system CPU seconds used so far by ``pids`` (all their threads)."""
    total = 0
    for pid in pids:
        with contextlib.suppress(OSError):
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(") ", 1)[1].split()
            total += int(fields[11]) + int(fields[12])  # utime, stime
    return total / CLK_TCK


def main_thread_seconds(pids: list[int]) -> float:
    """User + system CPU seconds used so far by the main thread of each of
    ``pids`` (a Throneroom server's event loop: its bottleneck)."""
    total = 0
    for pid in pids:
        with contextlib.suppress(OSError):
            stat = Path(f"/proc/{pid}/task/{pid}/stat").read_text()
            fields = stat.rsplit(") ", 1)[1].split()
            total += int(fields[11]) + int(fields[12])  # utime, stime
    return total / CLK_TCK


def redis_cpu_seconds(client: redis.Redis | None) -> float:
    if client is None:
        return 0.0
    info: dict[str, Any] = client.info("cpu")
    return float(info["used_cpu_user"]) + float(info["used_cpu_sys"])


@dataclass
class Totals:
    latencies: list[float] = field(default_factory=list)
    seconds: float = 0.0
    server_cpu: float = 0.0
    store_cpu: float = 0.0
    load_cpu: float = 0.0
    loop_cpu: float = 0.0
    setup: float = 0.0


# -- the Throneroom server ------------------------------------------------------------


def throneroom_server(
    redis_url: str | None, workers: int, *, fixtures: bool = False, http: str = ""
) -> contextlib.AbstractContextManager[tuple[str, int]]:
    """The service in its own process(es): JSON logs, Nim served with ``fixtures``,
    the REST face (and its WebSocket play sessions) on ``http`` if given."""
    env = {"THRONEROOM_LOG_FORMAT": "json"}
    if http:
        env["THRONEROOM_HTTP_LISTEN"] = http
    if fixtures:
        env["THRONEROOM_FIXTURE_GAMES"] = "1"  # Nim
    return server_process(redis_url, workers=workers, env=env)
