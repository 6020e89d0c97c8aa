"""Contract (e) of docs/architecture.md: the learning adapters stand aside.

``throneroom_rl`` imports the standard library, the SDK, the server and the
libraries of the server's ``rl`` extra; nothing of the service or the SDK
imports ``throneroom_rl``. Every import statement counts, lazy or not
(tests/architecture/imports.py); the contract is also run on a planted
violation, to prove it can fail.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.architecture.imports import Import, find_modules, imports_of, is_stdlib, within
from tests.architecture.planted import plant

ROOT = Path(__file__).resolve().parents[2]

RL = "throneroom_rl"
# What throneroom_rl may import besides the standard library: the SDK, the
# server, and the libraries of the server's rl extra (with protobuf and
# structlog, which the server brings).
RL_ALLOWED = (
    "throneroom",
    "throneroom_server",
    RL,
    "google.protobuf",
    "structlog",
    *("numpy", "gymnasium", "pettingzoo", "pyspiel", "open_spiel", "rich"),
)


def _check_rl(imports: list[Import]) -> list[str]:
    violations = []
    for imp in imports:
        if within(imp.importer, RL):
            if not (is_stdlib(imp.target) or any(within(imp.target, m) for m in RL_ALLOWED)):
                violations.append(f"{imp}: not the SDK, the server or a library of the rl extra")
        elif within(imp.target, RL):
            violations.append(f"{imp}: the service and the SDK never import {RL}")
    return violations


def test_rl_adapters_import_the_sdk_and_server_and_nothing_imports_them(
    tree: list[Import],
) -> None:
    assert any(within(imp.importer, RL) for imp in tree), "throneroom_rl was not scanned"
    assert _check_rl(tree) == []


def test_rl_contract_catches_planted_violations(tmp_path: Path) -> None:
    imports = _plant(
        tmp_path,
        {
            "service/throneroom_rl/adapter.py": """
                import numpy
                import requests
                from throneroom_server.games.registry import build_registry
            """,
            "service/throneroom_server/app/learning.py": "from throneroom_rl import adapter\n",
            "sdk/throneroom/gym.py": "def env():\n    import throneroom_rl.adapter\n",
        },
    )
    found = _check_rl(imports)
    assert len(found) == 3, found
    assert any("requests" in v for v in found)
    assert sum("never import" in v for v in found) == 2


def _scan(root: Path) -> list[Import]:
    modules = {}
    for base, package in ((root / "sdk", "throneroom"), (root / "service", "throneroom_server")):
        if (base / package).is_dir():
            modules.update(find_modules(base, package))
    if (root / "service" / RL).is_dir():
        modules.update(find_modules(root / "service", RL))
    return imports_of(modules)


def _plant(tmp_path: Path, files: dict[str, str]) -> list[Import]:
    plant(tmp_path, files)
    return _scan(tmp_path)


@pytest.fixture(scope="module")
def tree() -> list[Import]:
    return _scan(ROOT)
