"""Private names read across modules, found with ``ast`` (nothing is imported).

A module's private names (``_name``, not dunders) are its own: another module
reads them neither by ``from m import _name`` nor as an attribute
(``app._store``, ``_module._helper``). The owners checked are the modules of
one package (the app layer); the readers, the modules of the packages given.

An attribute ``x._name`` is a module's own when the module itself defines
``_name`` (a top-level name, a method or class attribute, an assignment to
``self._name`` or ``obj._name``, an entry of ``__slots__``); otherwise it is
another's when an owner module defines it, or when ``x`` is an owner module
imported by name. (The reader's type of ``x`` is not known: a reader that
defines a private name of the same spelling reads its own.)
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from tests.architecture.imports import Module, within, within_any


@dataclass(frozen=True)
class PrivateRead:
    """``reader`` reads ``name``, a private name of ``owners``."""

    reader: str
    name: str
    owners: tuple[str, ...]
    path: Path
    line: int

    def __str__(self) -> str:
        return (
            f"{self.path}:{self.line}: {self.reader} reads {self.name},"
            f" private to {', '.join(self.owners)}"
        )


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def defined_names(tree: ast.Module) -> set[str]:
    """The private names a module defines (see the module's docstring)."""
    found: set[str] = set()

    def targets(node: ast.AST) -> Iterable[str]:
        if isinstance(node, ast.Name):
            yield node.id
        elif isinstance(node, ast.Tuple | ast.List):
            for element in node.elts:
                yield from targets(element)

    def body(statements: Iterable[ast.stmt]) -> None:
        for stmt in statements:
            if isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                found.add(stmt.name)
                if isinstance(stmt, ast.ClassDef):
                    body(stmt.body)
            elif isinstance(stmt, ast.Assign):
                for target in stmt.targets:
                    found.update(targets(target))
                    slots = [t for t in targets(target) if t == "__slots__"]
                    if slots and isinstance(stmt.value, ast.Tuple | ast.List):
                        found.update(
                            e.value
                            for e in stmt.value.elts
                            if isinstance(e, ast.Constant) and isinstance(e.value, str)
                        )
            elif isinstance(stmt, ast.AnnAssign):
                found.update(targets(stmt.target))
            elif isinstance(stmt, ast.ImportFrom):
                found.update(a.asname or a.name for a in stmt.names)
            elif isinstance(stmt, ast.Import):
                found.update(a.asname or a.name.partition(".")[0] for a in stmt.names)
            elif isinstance(stmt, ast.If | ast.Try | ast.With | ast.For | ast.While):
                for field in ("body", "orelse", "finalbody"):
                    body(getattr(stmt, field, ()))
                for handler in getattr(stmt, "handlers", ()):
                    body(handler.body)

    body(tree.body)
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
            found.add(node.attr)
    return {name for name in found if _private(name)}


def _module_aliases(module: Module, tree: ast.Module, owners: Iterable[str]) -> dict[str, str]:
    """The names under which ``module`` binds an owner module (``import a.b as x``,
    ``from a import b``)."""
    owners = set(owners)
    aliases: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name in owners and alias.asname:
                    aliases[alias.asname] = alias.name
        elif isinstance(node, ast.ImportFrom):
            base = _absolute(module, node)
            for alias in node.names:
                target = f"{base}.{alias.name}"
                if target in owners:
                    aliases[alias.asname or alias.name] = target
    return aliases


def _absolute(module: Module, node: ast.ImportFrom) -> str:
    if not node.level:
        return node.module or ""
    package = (module.name if module.is_package else module.name.rpartition(".")[0]).split(".")
    if node.level > 1:
        package = package[: len(package) - (node.level - 1)]
    return ".".join([*package, *([node.module] if node.module else [])])


def private_reads(
    modules: Mapping[str, Module], *, owners: str, readers: Iterable[str]
) -> list[PrivateRead]:
    """Every read, by a module within ``readers``, of a private name of another
    module within ``owners``."""
    readers = tuple(readers)
    trees = {
        name: ast.parse(m.path.read_text(), filename=str(m.path)) for name, m in modules.items()
    }
    owner_names = sorted(name for name in modules if within(name, owners))
    defined = {name: defined_names(trees[name]) for name in owner_names}
    found: list[PrivateRead] = []
    for name in sorted(modules):
        if not within_any(name, readers):
            continue
        module, tree = modules[name], trees[name]
        own = defined.get(name) or defined_names(tree)
        aliases = _module_aliases(module, tree, owner_names)
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                base = _absolute(module, node)
                if base == name or not within(base, owners):
                    continue
                for alias in node.names:
                    if _private(alias.name):
                        found.append(
                            PrivateRead(name, alias.name, (base,), module.path, node.lineno)
                        )
            elif isinstance(node, ast.Attribute) and _private(node.attr):
                value = node.value
                if isinstance(value, ast.Name) and value.id in aliases:
                    target = aliases[value.id]
                    if target != name:
                        found.append(
                            PrivateRead(name, node.attr, (target,), module.path, node.lineno)
                        )
                    continue
                if node.attr in own:
                    continue
                holders = tuple(o for o in owner_names if o != name and node.attr in defined[o])
                if holders:
                    found.append(PrivateRead(name, node.attr, holders, module.path, node.lineno))
    return found
