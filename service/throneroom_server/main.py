"""The command's public path: the ``throneroom-server`` console script and
``python -m throneroom_server.main`` name this module (an installed script
keeps naming it across releases). The entry point lives in the process shell,
``runtime/main.py``; this module only re-exports it and, like it, imports
nothing that imports grpc (docs/architecture.md, "Public import paths")."""

from __future__ import annotations

import sys

from throneroom_server.runtime.main import GRPC_SETTINGS, main, use_grpc_settings

__all__ = ["GRPC_SETTINGS", "main", "use_grpc_settings"]

if __name__ == "__main__":
    sys.exit(main())
