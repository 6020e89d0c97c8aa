"""The app layer: the use cases every face shares (create, join, view, move,
watch, history, clocks), over the pure engines and the store
(docs/architecture.md).

``App`` (``service.py``) is the faces' entry point; the modules of this
package talk to each other through public names only
(tests/architecture/test_app_privates.py)."""

from throneroom_server.app.service import App, AppConfig, Viewer

__all__ = ["App", "AppConfig", "Viewer"]
