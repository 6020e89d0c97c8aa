"""The public path of the embedded server (docs/sdk.md, the SDK's arena):
``from throneroom_server.embedded import EmbeddedServer``. It lives in the
process shell, ``runtime/embedded.py``; this module only re-exports it
(docs/architecture.md, "Public import paths")."""

from throneroom_server.runtime.embedded import EmbeddedServer

__all__ = ["EmbeddedServer"]
