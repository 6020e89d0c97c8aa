"""`throneroom-server`: the process's entry point.

grpc reads its process-wide settings from the environment once, when it is
first imported, so this module imports nothing that imports grpc: ``main``
sets the service's transport settings (``GRPC_SETTINGS``) in the environment,
then runs the service (``process.run``). Worker processes (``--workers``)
start through this module too and inherit the settings.
"""

from __future__ import annotations

import os
import sys
from collections.abc import MutableMapping, Sequence

GRPC_SETTINGS = {"GRPC_EXPERIMENTS": "-event_engine_listener"}
"""grpc's environment variables as the service sets them, unless the
environment already names its own (``GRPC_EXPERIMENTS=`` with nothing after it
restores grpc's defaults).

``-event_engine_listener``: the server accepts its connections with grpc's
long-standing iomgr TCP server rather than the EventEngine listener (an
experiment grpcio 1.85 enables by default). A connection accepted that way is
read and written by the thread that polls the completion queue (grpc.aio's
poller), not handed between EventEngine's threads: measured beside
boardgame.io (docs/performance.md, "What the shipped settings measure"), 9-11% less server CPU per
move and 3-10% more moves a second from one process. Clients are not
affected (the variable names listeners only). Measure again when grpcio
changes: tests/service/runtime/test_main_entry.py fails if the installed grpc does
not know the experiment."""


def use_grpc_settings(environ: MutableMapping[str, str]) -> dict[str, str]:
    """Put each of ``GRPC_SETTINGS`` into ``environ`` unless it is there
    already; return the values ``environ`` holds for them. Takes effect only
    in a process that imports grpc afterwards."""
    for name, value in GRPC_SETTINGS.items():
        environ.setdefault(name, value)
    return {name: environ[name] for name in GRPC_SETTINGS}


def main(argv: Sequence[str] | None = None) -> int:
    use_grpc_settings(os.environ)
    # Imported here, after the settings: it imports grpc.
    from throneroom_server.runtime.process import run  # noqa: PLC0415

    return run(argv)


if __name__ == "__main__":
    sys.exit(main())
