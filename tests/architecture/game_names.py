"""Where the source tree names a game, read with ``ast`` (Python) and as text
with its comments stripped (JavaScript, the Makefile); nothing is imported.

A module *names a game* when its code (not its docstrings or comments: prose
may give an example) holds one of the games' names: its registered name
(``king_is_dead``, the field name of its game.proto entries) or that name in
CamelCase (``KingIsDead``, as its messages and classes are called), as an
identifier, an attribute, a string, or a component of an imported module's
path (``throneroom.v1.king_is_dead_pb2``). Only whole words count, where
words are split at ``_``, case changes and punctuation, so ``nimble`` or
``kingdom`` name nothing.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Naming:
    """One place where a module names a game."""

    path: str
    line: int
    game: str
    what: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: names {self.game} ({self.what})"


def spellings(game: str) -> tuple[str, str]:
    """The registered name and its CamelCase (``king_is_dead``, ``KingIsDead``)."""
    return game, "".join(part.capitalize() for part in game.split("_"))


def _words(text: str) -> list[str]:
    """Lower-case words of ``text``: split at non-letters and at case changes."""
    spaced = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", text)
    return [w.lower() for w in re.split(r"[^A-Za-z0-9]+", spaced) if w]


def _contains(words: list[str], game_words: list[str]) -> bool:
    n = len(game_words)
    return any(words[i : i + n] == game_words for i in range(len(words) - n + 1))


def games_in(text: str, games: Iterable[str]) -> list[str]:
    """The games whose name (in either spelling) is a run of whole words of ``text``."""
    words = _words(text)
    return [game for game in games if _contains(words, _words(game))]


def _docstrings(tree: ast.AST) -> set[int]:
    """ids of the string constants that are docstrings (or bare string statements)."""
    found: set[int] = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(body, list):
            for stmt in body:
                if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant):
                    found.add(id(stmt.value))
    return found


def _texts(tree: ast.AST) -> Iterator[tuple[int, str, str]]:
    """(line, text, what) for every identifier, attribute, string and import of code."""
    prose = _docstrings(tree)
    for node in ast.walk(tree):
        line = getattr(node, "lineno", 0)
        if isinstance(node, ast.Name):
            yield line, node.id, "a name"
        elif isinstance(node, ast.Attribute):
            yield line, node.attr, "an attribute"
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            yield line, node.name, "a definition"
        elif isinstance(node, ast.arg):
            yield line, node.arg, "an argument"
        elif isinstance(node, ast.keyword) and node.arg:
            yield line, node.arg, "a keyword"
        elif isinstance(node, ast.alias):
            yield line, node.name, "an import"
            if node.asname:
                yield line, node.asname, "an import"
        elif isinstance(node, ast.ImportFrom) and node.module:
            yield line, node.module, "an import"
        elif (
            isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in prose
        ):
            yield line, node.value, "a string"


def python_namings(path: Path, shown: str, games: Iterable[str]) -> list[Naming]:
    games = tuple(games)
    tree = ast.parse(path.read_text(), filename=str(path))
    out = []
    for line, text, what in _texts(tree):
        for game in games_in(text, games):
            out.append(Naming(shown, line, game, f"{what}: {text[:60]!r}"))
    return out


_JS_COMMENTS = re.compile(r"/\*.*?\*/|//[^\n]*", re.DOTALL)


def text_namings(path: Path, shown: str, games: Iterable[str], *, comment: str) -> list[Naming]:
    """JavaScript (``comment="//"``: ``//`` and ``/* */`` comments stripped) or
    a Makefile (``comment="#"``: from ``#`` to the end of the line)."""
    games = tuple(games)
    text = path.read_text()
    if comment == "//":
        # Keep the line numbers: a comment becomes as many newlines as it held.
        text = _JS_COMMENTS.sub(lambda m: "\n" * m.group(0).count("\n"), text)
    out = []
    for number, line in enumerate(text.splitlines(), start=1):
        code = line.split("#", 1)[0] if comment == "#" else line
        for game in games_in(code, games):
            out.append(Naming(shown, number, game, f"text: {code.strip()[:60]!r}"))
    return out
