"""An import graph of the source tree, read with ``ast`` (nothing is imported),
and the checks of the import contracts over it.

Every ``import`` statement counts, wherever it is: at module level, inside a
function (a lazy import) or under ``if TYPE_CHECKING:``. Each :class:`Import`
says whether it runs when the module is imported (``top_level``: the module
body, including class bodies and ``if``/``try`` blocks) or only when a
function runs. A module in a folder without ``__init__.py`` (a folder of
scripts, such as ``bench/``) is run with that folder on ``sys.path``, so a bare
``import peer`` there is its sibling ``bench.peer``. The checks return lists of
violations as readable strings, so that a failing test names the file, the
line and the rule.
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Import:
    """One imported module, as its importer names it (absolute, dotted)."""

    importer: str
    target: str
    path: Path
    line: int
    top_level: bool

    def __str__(self) -> str:
        where = "" if self.top_level else " (inside a function)"
        return f"{self.path}:{self.line}: {self.importer} imports {self.target}{where}"


@dataclass(frozen=True)
class Module:
    name: str
    path: Path
    is_package: bool


def find_modules(root: Path, package: str) -> dict[str, Module]:
    """Every module of ``package`` found under ``root`` (``root/package/...``)."""
    modules: dict[str, Module] = {}
    base = root / package
    for path in sorted(base.rglob("*.py")):
        parts = list(path.relative_to(root).with_suffix("").parts)
        is_package = parts[-1] == "__init__"
        if is_package:
            parts.pop()
        name = ".".join(parts)
        modules[name] = Module(name, path, is_package)
    return modules


def _base_package(module: Module) -> str:
    return module.name if module.is_package else module.name.rpartition(".")[0]


def _resolve_relative(module: Module, level: int, name: str | None) -> str:
    package = _base_package(module).split(".")
    if level > 1:
        package = package[: len(package) - (level - 1)]
    return ".".join([*package, *([name] if name else [])])


class _Collector(ast.NodeVisitor):
    def __init__(self, module: Module, known: Mapping[str, Module]) -> None:
        self.module = module
        self.known = known
        self.depth = 0  # nesting of function bodies
        self.found: list[Import] = []
        # A script's folder is on sys.path: its siblings import by bare name.
        in_scripts = not module.is_package and not (module.path.parent / "__init__.py").exists()
        self.scripts = _base_package(module) if in_scripts else None

    def _absolute(self, name: str) -> str:
        sibling = f"{self.scripts}.{name}" if self.scripts else ""
        top = f"{self.scripts}.{name.partition('.')[0]}" if self.scripts else ""
        return sibling if top in self.known else name

    def _add(self, target: str, node: ast.stmt) -> None:
        self.found.append(
            Import(self.module.name, target, self.module.path, node.lineno, self.depth == 0)
        )

    def visit_FunctionDef(self, node: ast.FunctionDef) -> None:
        self._function(node)

    def visit_AsyncFunctionDef(self, node: ast.AsyncFunctionDef) -> None:
        self._function(node)

    def visit_Lambda(self, node: ast.Lambda) -> None:
        self.depth += 1
        self.generic_visit(node)
        self.depth -= 1

    def _function(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        # Decorators and default values run at definition time; the body later.
        for expr in [*node.decorator_list, *node.args.defaults, *node.args.kw_defaults]:
            if expr is not None:
                self.visit(expr)
        self.depth += 1
        for stmt in node.body:
            self.visit(stmt)
        self.depth -= 1

    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            self._add(self._absolute(alias.name), node)

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        base = (
            _resolve_relative(self.module, node.level, node.module)
            if node.level
            else self._absolute(node.module or "")
        )
        for alias in node.names:
            # `from pkg import sub` imports the module pkg.sub when there is one.
            submodule = f"{base}.{alias.name}"
            self._add(submodule if submodule in self.known else base, node)


def imports_of(modules: Mapping[str, Module]) -> list[Import]:
    """Every import of every module, in module then line order."""
    found: list[Import] = []
    for name in sorted(modules):
        module = modules[name]
        tree = ast.parse(module.path.read_text(), filename=str(module.path))
        collector = _Collector(module, modules)
        collector.visit(tree)
        found.extend(collector.found)
    return found


def within(name: str, prefix: str) -> bool:
    """``name`` is the module ``prefix`` or inside it."""
    return name == prefix or name.startswith(prefix + ".")


def within_any(name: str, prefixes: Iterable[str]) -> bool:
    return any(within(name, prefix) for prefix in prefixes)


def is_stdlib(name: str) -> bool:
    return name.partition(".")[0] in sys.stdlib_module_names


# -- (a) the engines are pure ---------------------------------------------------------


def check_games(
    imports: Iterable[Import],
    *,
    packages: Iterable[str],
    allowed: Iterable[str],
    forbidden_stdlib: frozenset[str],
) -> list[str]:
    """Modules inside ``packages`` import only the standard library (less
    ``forbidden_stdlib``) and modules within ``allowed``."""
    packages, allowed = tuple(packages), tuple(allowed)
    violations = []
    for imp in imports:
        if not within_any(imp.importer, packages):
            continue
        top = imp.target.partition(".")[0]
        if is_stdlib(imp.target):
            if top in forbidden_stdlib:
                violations.append(f"{imp}: I/O, clock or ambient randomness")
        elif not within_any(imp.target, allowed):
            violations.append(f"{imp}: outside the allowed modules")
    return violations


# -- (b) the SDK stands alone ---------------------------------------------------------


def check_sdk(
    imports: Iterable[Import],
    *,
    sdk: str,
    server: str,
    dependencies: Iterable[str],
    lazy_server_imports: frozenset[tuple[str, str]],
) -> list[str]:
    """The SDK imports the standard library, itself and its ``dependencies``'
    modules; the server only inside the functions listed in
    ``lazy_server_imports`` (importer, target); every listed one still exists."""
    dependencies = tuple(dependencies)
    violations = []
    seen: set[tuple[str, str]] = set()
    for imp in imports:
        if not within(imp.importer, sdk):
            continue
        if within(imp.target, server):
            if imp.top_level:
                violations.append(f"{imp}: the SDK imports the server at import time")
            elif (imp.importer, imp.target) not in lazy_server_imports:
                violations.append(f"{imp}: a lazy server import not in the allowed list")
            else:
                seen.add((imp.importer, imp.target))
        elif not (is_stdlib(imp.target) or within_any(imp.target, (sdk, *dependencies))):
            violations.append(f"{imp}: not a module of the SDK's declared dependencies")
    violations.extend(
        f"allowed lazy import {importer} -> {target} no longer exists: drop it from the list"
        for importer, target in sorted(lazy_server_imports - seen)
    )
    return violations


# -- (c) layers -----------------------------------------------------------------------


def check_layers(imports: Iterable[Import], rules: Mapping[str, Iterable[str]]) -> list[str]:
    """``rules[prefix]``: the modules that nothing within ``prefix`` may import."""
    violations = []
    for imp in imports:
        for layer, forbidden in rules.items():
            if within(imp.importer, layer) and within_any(imp.target, forbidden):
                violations.append(f"{imp}: {layer} must not depend on it")
    return violations


# -- (d) no cycles --------------------------------------------------------------------


def cycles(imports: Iterable[Import], *packages: str) -> list[frozenset[str]]:
    """The import cycles among the modules of ``packages`` (one graph over them
    all): each strongly connected component of more than one module (or a
    module importing itself), sorted."""
    graph: dict[str, set[str]] = {}
    for imp in imports:
        if within_any(imp.importer, packages) and within_any(imp.target, packages):
            graph.setdefault(imp.importer, set()).add(imp.target)
            graph.setdefault(imp.target, set())
    found = [
        component
        for component in _components(graph)
        if len(component) > 1 or any(node in graph[node] for node in component)
    ]
    return sorted(found, key=sorted)


def _components(graph: Mapping[str, set[str]]) -> Iterator[frozenset[str]]:
    """Tarjan's strongly connected components, iteratively."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    for start in sorted(graph):
        if start in index:
            continue
        work: list[tuple[str, Iterator[str]]] = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, successors = work[-1]
            advanced = False
            for succ in successors:
                if succ not in index:
                    index[succ] = low[succ] = len(index)
                    stack.append(succ)
                    on_stack.add(succ)
                    work.append((succ, iter(sorted(graph[succ]))))
                    advanced = True
                    break
                if succ in on_stack:
                    low[node] = min(low[node], index[succ])
            if advanced:
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = set()
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.add(member)
                    if member == node:
                        break
                yield frozenset(component)
