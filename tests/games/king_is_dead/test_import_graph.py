"""The modules of the King Is Dead engine (and of the SDK's king_is_dead
package) import each other without a cycle: read from the source with ast,
so a cycle fails here even where Python would tolerate it at import time."""

from __future__ import annotations

import ast
from graphlib import CycleError, TopologicalSorter
from pathlib import Path

import pytest
import throneroom.games.king_is_dead as sdk_package
import throneroom_server.games.king_is_dead as engine_package


def _modules(package_dir: Path, package: str) -> dict[str, Path]:
    """Module name -> source file, the package's __init__ included."""
    found = {package: package_dir / "__init__.py"}
    for path in sorted(package_dir.glob("*.py")):
        if path.name != "__init__.py":
            found[f"{package}.{path.stem}"] = path
    return found


def _imports(path: Path, module: str, known: set[str]) -> set[str]:
    """The modules of ``known`` that ``module`` imports (``from P import x``
    counts as importing P.x when that is a module, else P)."""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    edges: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.rsplit(".", node.level - 1)[0]
                base = f"{parent}.{base}" if base else parent
            names = [
                f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base
                for alias in node.names
            ]
        else:
            continue
        edges.update(name for name in names if name in known and name != module)
    return edges


def _graph(package_dir: Path, package: str) -> dict[str, set[str]]:
    modules = _modules(package_dir, package)
    known = set(modules)
    return {name: _imports(path, name, known) for name, path in modules.items()}


PACKAGES = [
    (Path(engine_package.__file__).parent, engine_package.__name__),
    (Path(sdk_package.__file__).parent, sdk_package.__name__),
]


@pytest.mark.parametrize(("package_dir", "package"), PACKAGES)
def test_package_modules_form_an_acyclic_import_graph(package_dir: Path, package: str) -> None:
    graph = _graph(package_dir, package)
    assert len(graph) > 3
    try:
        order = list(TopologicalSorter(graph).static_order())
    except CycleError as error:  # pragma: no cover - the failure message
        pytest.fail(f"import cycle in {package}: {' -> '.join(error.args[1])}")
    assert set(order) == set(graph)


def test_the_check_finds_a_cycle(tmp_path: Path) -> None:
    # The check itself, on a planted cycle: a -> b -> a (through "from . import").
    pkg = tmp_path / "planted"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "a.py").write_text("from planted import b\n")
    (pkg / "b.py").write_text("from .a import thing\n")
    graph = _graph(pkg, "planted")
    assert graph == {"planted": set(), "planted.a": {"planted.b"}, "planted.b": {"planted.a"}}
    with pytest.raises(CycleError):
        list(TopologicalSorter(graph).static_order())
