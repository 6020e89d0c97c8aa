"""The app layer's modules talk through public names (docs/architecture.md).

No module of the app layer, the faces or the process shell reads a private
name (``_name``) of another module of the app layer: not by
``from m import _name``, not as an attribute (``app._store``,
``_module._helper``). What one module needs of another is public there
(``Gateway.load``, ``records.outcome_of``). tests/architecture/privates.py
reads the tree with ``ast``; the check is run on a planted violation too
(and, run on the tree before the app layer had its public interface, it
found the 13 reads of ``updates.py``: ``app._read_for``, ``app._store``, ...).
"""

from __future__ import annotations

import ast
import textwrap
from pathlib import Path

from tests.architecture.imports import find_modules
from tests.architecture.privates import defined_names, private_reads

ROOT = Path(__file__).resolve().parents[2]
APP = "throneroom_server.app"
READERS = (APP, "throneroom_server.api", "throneroom_server.runtime")


def _reads(root: Path) -> list[str]:
    modules = find_modules(root / "service", "throneroom_server")
    return [str(read) for read in private_reads(modules, owners=APP, readers=READERS)]


def test_the_app_layer_is_seen() -> None:
    modules = find_modules(ROOT / "service", "throneroom_server")
    app = {name for name in modules if name.startswith(APP + ".")}
    # A scan that found nothing would pass.
    assert {f"{APP}.service", f"{APP}.updates", f"{APP}.timeouts", f"{APP}.moves"} <= app
    assert "_push" in defined_names(ast.parse(modules[f"{APP}.watch"].path.read_text()))


def test_no_module_reads_a_private_name_of_the_app_layer() -> None:
    assert _reads(ROOT) == []


def test_the_check_catches_planted_violations(tmp_path: Path) -> None:
    files = {
        "app/service.py": """
            class App:
                def __init__(self):
                    self._store = None
                    self.gateway = None

                def _read_for(self, game_id):
                    return self._store

            def _outcome(game):
                return None

            DEFAULT_PAGE = 100
        """,
        "app/updates.py": """
            from throneroom_server.app import service as _app
            from throneroom_server.app.service import _outcome, DEFAULT_PAGE
            from .service import _outcome as outcome

            class Outbox:
                __slots__ = ("_pending",)

                def __init__(self):
                    self._pending = []

                def take(self):
                    return self._pending  # its own

            async def stream(app, entries):
                await app._read_for("g")
                _app._outcome(None)
                entries._replace()  # nobody's in the app layer: not a read of it
                return app.gateway, _app.DEFAULT_PAGE
        """,
        "app/watch.py": """
            class Subscription:
                def _push(self, entry):
                    pass

            def publish(subscription, entry):
                subscription._push(entry)  # its own module's
        """,
        "api/servicer.py": """
            def serve(app):
                return app._store
        """,
        "games/engine.py": """
            def apply(app):
                return app._store  # not a reader checked here
        """,
    }
    for relative, text in files.items():
        path = tmp_path / "service" / "throneroom_server" / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))
        (path.parent / "__init__.py").touch()
    (tmp_path / "service" / "throneroom_server" / "__init__.py").touch()
    flagged = {line.split(": ", 1)[1] for line in _reads(tmp_path)}
    assert flagged == {
        f"{APP}.updates reads _outcome, private to {APP}.service",  # from ... import _outcome
        f"{APP}.updates reads _read_for, private to {APP}.service",
        "throneroom_server.api.servicer reads _store, private to throneroom_server.app.service",
    }
    lines = _reads(tmp_path)
    # Both imports of _outcome and the module attribute are each one line.
    assert sum("reads _outcome" in line for line in lines) == 3
