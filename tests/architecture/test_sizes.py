"""Size limits (docs/architecture.md): no module over 600 lines and no function
over 80 lines, anywhere in the tree but the generated code.

A module's size is its number of lines; a function's runs from its ``def``
line to its last line (nested functions and methods count too, each by its
qualified name). The generated messages (``sdk/throneroom/v1/*_pb2*.py``) are
not measured. The items still over a limit while they are being split
elsewhere are listed in NOT_YET_SPLIT, and each must still be over: once one
is split, the test fails until its entry is deleted, so the list only shrinks.
The check is also run on planted oversizes, to prove it can fail.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from tests.architecture.planted import plant

ROOT = Path(__file__).resolve().parents[2]

MAX_MODULE_LINES = 600
MAX_FUNCTION_LINES = 80
FOLDERS = ("service", "sdk", "bench", "scripts", "tests", "examples", "throneroom_dev")
GENERATED = "sdk/throneroom/v1/"
"""Where the generated ``*_pb2*.py`` modules live."""

NOT_YET_SPLIT: frozenset[str] = frozenset()
"""Modules (by path) and functions (``path::qualified name``) over a limit
today, being split elsewhere: delete each entry when its split lands."""


@dataclass(frozen=True)
class Oversize:
    path: str  # relative to the root, with /
    function: str | None  # its qualified name; None: the module itself
    line: int
    lines: int

    @property
    def key(self) -> str:
        return self.path if self.function is None else f"{self.path}::{self.function}"

    def __str__(self) -> str:
        what, limit = (
            ("module", MAX_MODULE_LINES)
            if self.function is None
            else (f"function {self.function}", MAX_FUNCTION_LINES)
        )
        return f"{self.path}:{self.line}: {what} has {self.lines} lines (at most {limit})"


def _generated(relative: str) -> bool:
    return relative.startswith(GENERATED) and "_pb2" in relative.rpartition("/")[2]


def _measured(tree: ast.Module) -> Iterator[tuple[str, int, int]]:
    """(qualified name, def line, lines) of every function and method, nested ones too."""
    todo: list[tuple[str, ast.AST]] = [("", tree)]
    while todo:
        prefix, node = todo.pop()
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                name = f"{prefix}{child.name}"
                if not isinstance(child, ast.ClassDef):
                    assert child.end_lineno is not None
                    yield name, child.lineno, child.end_lineno - child.lineno + 1
                todo.append((f"{name}.", child))
            else:
                todo.append((prefix, child))


def oversizes(root: Path) -> list[Oversize]:
    """Every module and function of the tree over its limit, in path and line order."""
    found = []
    for folder in FOLDERS:
        for path in sorted((root / folder).rglob("*.py")):
            relative = path.relative_to(root).as_posix()
            if _generated(relative) or "/." in f"/{relative}":
                continue
            text = path.read_text()
            lines = len(text.splitlines())
            if lines > MAX_MODULE_LINES:
                found.append(Oversize(relative, None, 1, lines))
            for name, line, length in _measured(ast.parse(text, filename=relative)):
                if length > MAX_FUNCTION_LINES:
                    found.append(Oversize(relative, name, line, length))
    return sorted(found, key=lambda o: (o.path, o.line))


def check(root: Path, not_yet_split: frozenset[str]) -> list[str]:
    """The oversizes not exempted, and the exemptions no longer over their limit."""
    found = oversizes(root)
    over = {o.key for o in found}
    return [str(o) for o in found if o.key not in not_yet_split] + [
        f"{key}: no longer over its limit: delete it from NOT_YET_SPLIT"
        for key in sorted(not_yet_split - over)
    ]


def test_the_tree_is_measured() -> None:
    # A scan that silently found nothing would pass; so would one that skipped
    # a folder. Every folder holds modules, and the exempted ones are found.
    for folder in FOLDERS:
        assert any((ROOT / folder).rglob("*.py")), folder
    assert {o.key for o in oversizes(ROOT)} >= NOT_YET_SPLIT


def test_no_module_over_600_lines_and_no_function_over_80() -> None:
    assert check(ROOT, NOT_YET_SPLIT) == []


def _lines(n: int) -> str:
    return "".join(f"x{i} = {i}\n" for i in range(n))


def _function(name: str, lines: int, indent: str = "") -> str:
    body = "".join(f"{indent}    y{i} = {i}\n" for i in range(lines - 1))
    return f"{indent}def {name}() -> None:\n{body}"


def test_the_check_catches_planted_oversizes(tmp_path: Path) -> None:
    plant(
        tmp_path,
        {
            "sdk/throneroom/long.py": _lines(601),
            "sdk/throneroom/just.py": _lines(600),
            "service/throneroom_server/app/moves.py": (
                _function("fits", 80)
                + _function("sprawls", 81)
                + "class Room:\n"
                + _function("enter", 81, "    ")
                + "async def outer() -> None:\n"
                + _function("inner", 81, "    ")
            ),
            "bench/load.py": _function("main", 120),
            "tests/games/helpers.py": _function("scenario", 90),
            # Generated code is not measured; a hand-written module beside it is.
            "sdk/throneroom/v1/game_pb2.py": _lines(900) + _function("build", 200),
            "sdk/throneroom/v1/game_pb2_grpc.py": _lines(700),
            "sdk/throneroom/v1/helpers.py": _lines(700),
        },
    )
    assert check(tmp_path, frozenset()) == [
        "bench/load.py:1: function main has 120 lines (at most 80)",
        "sdk/throneroom/long.py:1: module has 601 lines (at most 600)",
        "sdk/throneroom/v1/helpers.py:1: module has 700 lines (at most 600)",
        "service/throneroom_server/app/moves.py:81: function sprawls has 81 lines (at most 80)",
        "service/throneroom_server/app/moves.py:163: function Room.enter has 81 lines (at most 80)",
        "service/throneroom_server/app/moves.py:244: function outer has 82 lines (at most 80)",
        "service/throneroom_server/app/moves.py:245: function outer.inner has 81 lines"
        " (at most 80)",
        "tests/games/helpers.py:1: function scenario has 90 lines (at most 80)",
    ]


def test_the_check_catches_an_exemption_no_longer_needed(tmp_path: Path) -> None:
    plant(
        tmp_path,
        {
            "service/throneroom_server/store/redis.py": _lines(700),
            "service/throneroom_server/store/memory.py": _lines(500),
            "sdk/throneroom/bots/combat.py": _function("attack_worth", 120) + _function("tiny", 3),
        },
    )
    exempt = frozenset(
        {
            "service/throneroom_server/store/redis.py",
            "sdk/throneroom/bots/combat.py::attack_worth",
            # Split since: both must go.
            "service/throneroom_server/store/memory.py",
            "sdk/throneroom/bots/combat.py::tiny",
        }
    )
    assert check(tmp_path, exempt) == [
        "sdk/throneroom/bots/combat.py::tiny: no longer over its limit:"
        " delete it from NOT_YET_SPLIT",
        "service/throneroom_server/store/memory.py: no longer over its limit:"
        " delete it from NOT_YET_SPLIT",
    ]
