"""No import circle anywhere in the tree (docs/architecture.md).

One import graph over every Python module of the repository: the SDK, the
server and the learning adapters, ``throneroom_dev``, the benchmarks, the
scripts, the tests and the examples. Every import statement counts, lazy ones
(inside a function) and ``if TYPE_CHECKING:`` ones too (tests/architecture/
imports.py); a benchmark's bare ``import peer`` is its sibling ``bench.peer``.
The check is also run on planted circles, to prove it can fail.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.architecture.imports import Import, cycles, find_modules, imports_of
from tests.architecture.planted import plant

ROOT = Path(__file__).resolve().parents[2]

# (folder, package): every Python module of the tree, by the name it is imported as.
TREE = (
    ("sdk", "throneroom"),
    ("service", "throneroom_server"),
    ("service", "throneroom_rl"),
    (".", "throneroom_dev"),
    (".", "bench"),
    (".", "scripts"),
    (".", "tests"),
    (".", "examples"),
)
PACKAGES = tuple(package for _, package in TREE)

# Cycles being removed elsewhere. Each entry is one exact cycle (a strongly
# connected component); any other cycle fails, and so does an entry once its
# cycle is gone (delete the entry then).
KNOWN_CYCLES: frozenset[frozenset[str]] = frozenset()
"""Cycles tolerated for now (none: keep it that way)."""


def scan(root: Path) -> list[Import]:
    modules = {}
    for folder, package in TREE:
        if (root / folder / package).is_dir():
            modules.update(find_modules(root / folder, package))
    return imports_of(modules)


@pytest.fixture(scope="module")
def tree() -> list[Import]:
    return scan(ROOT)


def test_every_part_of_the_tree_is_scanned(tree: list[Import]) -> None:
    # A scan that silently missed a folder would pass.
    importers = {imp.importer for imp in tree}
    assert {
        "throneroom.cli",
        "throneroom_server.app.updates",
        "throneroom_rl.pettingzoo",
        "throneroom_dev.processes",
        "bench.fuzz",
        "bench.peer",
        "scripts.bot_eval",
        "tests.architecture.test_import_cycles",
        "examples.rl_mcts",
    } <= importers


def test_no_import_cycle_in_the_tree(tree: list[Import]) -> None:
    found = [sorted(cycle) for cycle in cycles(tree, *PACKAGES) if cycle not in KNOWN_CYCLES]
    assert found == []


def test_known_cycles_are_still_there(tree: list[Import]) -> None:
    present = set(cycles(tree, *PACKAGES))
    gone = [sorted(cycle) for cycle in KNOWN_CYCLES if cycle not in present]
    assert gone == [], "this cycle is gone: delete it from KNOWN_CYCLES"


def _plant(root: Path, files: dict[str, str]) -> list[Import]:
    plant(root, files)
    return scan(root)


def test_cycle_check_catches_planted_cycles(tmp_path: Path) -> None:
    imports = _plant(
        tmp_path,
        {
            # Within an engine package, through a lazy import.
            "service/throneroom_server/games/duel/__init__.py": "from .engine import Duel\n",
            "service/throneroom_server/games/duel/engine.py": "from . import rules\nDuel = 1\n",
            "service/throneroom_server/games/duel/rules.py": "from . import board\n",
            "service/throneroom_server/games/duel/board.py": """
                def later():
                    from throneroom_server.games.duel import rules
            """,
            "service/throneroom_server/games/duel/alone.py": "import alone_dependency\n",
            "service/throneroom_server/games/duel/selfish.py": "from . import selfish\n",
            # Across the SDK and the server.
            "sdk/throneroom/records.py": """
                def replay():
                    from throneroom_server.app import replaying
            """,
            "service/throneroom_server/app/replaying.py": "from throneroom import records\n",
            # Benchmarks: by package name, and a script's bare sibling import.
            "bench/fuzz.py": "from bench.fuzz_play import play\n",
            "bench/fuzz_play.py": """
                from typing import TYPE_CHECKING

                if TYPE_CHECKING:
                    from bench.fuzz import Fuzzer
            """,
            "bench/peer.py": "def floor():\n    from peer_floor import floor\n",
            "bench/peer_floor.py": "from peer import Totals\n",
            # A test helper and the test that uses it.
            "tests/games/helpers.py": "from tests.games import test_duel\n",
            "tests/games/test_duel.py": "from tests.games.helpers import scenario\n",
        },
    )
    assert cycles(imports, *PACKAGES) == [
        frozenset({"bench.fuzz", "bench.fuzz_play"}),
        frozenset({"bench.peer", "bench.peer_floor"}),
        frozenset({"tests.games.helpers", "tests.games.test_duel"}),
        frozenset({"throneroom.records", "throneroom_server.app.replaying"}),
        frozenset({"throneroom_server.games.duel.board", "throneroom_server.games.duel.rules"}),
        frozenset({"throneroom_server.games.duel.selfish"}),
    ]
