"""A game touches exactly its own places (docs/adding-a-game.md), proven on Nim.

Every file of the tree whose code names Nim (tests/architecture/game_names.py
says what "names" means: code, not prose) is one of: its ``.proto`` (and the
messages generated from it), ``game.proto`` (its import and its one entry in
each envelope, and what is generated from it), ONE line of the registry, its
server package, its SDK package, the tests and the docs (prose, ``*.md``);
plus the benchmarks that load the service with Nim games as a workload
(test_game_names.KNOWN_NAMINGS says why each). The check is proven on a
planted tree.
"""

from __future__ import annotations

import subprocess
import textwrap
from pathlib import Path

from throneroom.v1 import game_pb2

from tests.architecture.game_names import Naming, python_namings, text_namings
from tests.architecture.test_game_names import KNOWN_NAMINGS

ROOT = Path(__file__).resolve().parents[2]
GAME = "nim"
GAME_PROTO = "proto/throneroom/v1/game.proto"
GENERATED_ENVELOPES = "sdk/throneroom/v1/game_pb2"
"""Generated from game.proto (its lines are checked there)."""
REGISTRY = "service/throneroom_server/games/registry.py"
ENVELOPES = tuple(
    message.DESCRIPTOR.name
    for message in (
        game_pb2.GameOptions,
        game_pb2.GameState,
        game_pb2.Move,
        game_pb2.Event,
        game_pb2.View,
    )
)
WORKLOADS = frozenset(path for path in KNOWN_NAMINGS if path.startswith("bench/"))
"""Benchmarks that load the service with one chosen game (a workload, not a list
of games; test_game_names.KNOWN_NAMINGS says why each)."""
SKIPPED_DIRS = {".git", ".venv", "node_modules", "__pycache__", ".mypy_cache", ".ruff_cache"}
HASH_COMMENTS = {".toml", ".cfg", ".ini", ".yml", ".yaml", ".sh", ".txt", ".conf"}
HASH_NAMES = {"Makefile", "Dockerfile", ".gitignore", ".dockerignore"}


def homes(game: str) -> tuple[str, ...]:
    """A game's own places, where it may be named freely."""
    return (
        f"proto/throneroom/v1/{game}.proto",
        f"sdk/throneroom/v1/{game}_pb2",  # generated from its .proto
        f"service/throneroom_server/games/{game}/",
        f"sdk/throneroom/games/{game}/",
        "tests/",
        "docs/",
    )


def tree_files(root: Path) -> list[str]:
    """Every file of the tree (git's, untracked ones included, when it is a
    checkout), as paths relative to ``root``."""
    try:
        listed = subprocess.run(
            ["git", "ls-files", "--cached", "--others", "--exclude-standard"],
            cwd=root,
            capture_output=True,
            text=True,
            check=True,
        ).stdout.split("\n")
    except (OSError, subprocess.CalledProcessError):
        listed = [p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file()]
    return sorted(
        f
        for f in listed
        if f and (root / f).is_file() and not SKIPPED_DIRS.intersection(Path(f).parts)
    )


def namings_in(root: Path, relative: str, game: str) -> list[Naming]:
    path = root / relative
    try:
        path.read_text()
    except (UnicodeDecodeError, OSError):
        return []  # not text
    if path.suffix == ".py":
        return python_namings(path, relative, (game,))
    if path.suffix in HASH_COMMENTS or path.name in HASH_NAMES:
        return text_namings(path, relative, (game,), comment="#")
    return text_namings(path, relative, (game,), comment="//")


def footprint(root: Path, game: str = GAME) -> list[str]:
    """Every naming of ``game`` outside its own places, and what is wrong with
    its lines of game.proto and of the registry."""
    wrong: list[str] = []
    for relative in tree_files(root):
        if (
            relative.startswith(homes(game))
            or relative.startswith(GENERATED_ENVELOPES)
            or relative.endswith(".md")  # prose: the docs use Nim as the example
            or relative in WORKLOADS
        ):
            continue
        found = namings_in(root, relative, game)
        lines = sorted({n.line for n in found})
        if not found:
            continue
        if relative == REGISTRY:
            if len(lines) != 1:
                wrong.append(f"{relative}: {len(lines)} lines name {game} (one allowed): {lines}")
        elif relative == GAME_PROTO:
            text = (root / relative).read_text().splitlines()
            entries = [n for n in lines if not text[n - 1].lstrip().startswith("import ")]
            imports = len(lines) - len(entries)
            if imports != 1 or len(entries) != len(ENVELOPES):
                wrong.append(
                    f"{relative}: {imports} import(s) and {len(entries)} entries name {game}"
                    f" (one import, one entry in each of {len(ENVELOPES)} envelopes allowed)"
                )
        else:
            wrong += [str(n) for n in found]
    return wrong


def test_nim_touches_exactly_its_own_places() -> None:
    assert footprint(ROOT) == []


def test_the_footprint_sees_nims_own_places() -> None:
    """The homes do name Nim, so the check above is not vacuous."""
    named = {relative for relative in tree_files(ROOT) if namings_in(ROOT, relative, GAME)}
    assert {
        GAME_PROTO,
        REGISTRY,
        "proto/throneroom/v1/nim.proto",
        "service/throneroom_server/games/nim/definition.py",
        "service/throneroom_server/games/nim/board.js",
        "sdk/throneroom/games/nim/client.py",
    } <= named


def _plant(root: Path, files: dict[str, str]) -> None:
    for relative, text in files.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))


def test_the_footprint_catches_planted_places(tmp_path: Path) -> None:
    envelopes = "".join(f"message {e} {{ oneof game {{ DuelX duel = 15; }} }}\n" for e in ENVELOPES)
    _plant(
        tmp_path,
        {
            # Its own places (and prose) may name it.
            "proto/throneroom/v1/duel.proto": "message DuelMove {}\n",
            "service/throneroom_server/games/duel/rules.py": 'NAME = "duel"\n',
            "service/throneroom_server/games/duel/board.js": 'export const t = "duel";\n',
            "sdk/throneroom/games/duel/client.py": 'CLIENT = "duel"\n',
            "tests/games/test_duel.py": 'GAME = "duel"\n',
            "docs/adding-a-game.md": "duel is the example\n",
            "sdk/throneroom/cli.py": '"""throneroom new duel"""\n',
            # game.proto: one import too many and one entry too many.
            GAME_PROTO: 'import "throneroom/v1/duel.proto";\n'
            'import "throneroom/v1/duel_more.proto";\n'
            + envelopes
            + "message Extra { DuelX duel = 1; }\n",
            # The registry: two lines.
            REGISTRY: 'ENGINES = ("games.duel:Duel",)\nDUEL = "duel"\n',
            # Anywhere else.
            "service/throneroom_server/api/web.py": 'BOARDS = {"duel": "duel.js"}\n',
            "pyproject.toml": '"throneroom_server" = ["games/duel/board.js"]  # duel\n',
            "Makefile": "bots:\n\tpython scripts/bot_eval.py duel\n",
        },
    )
    wrong = footprint(tmp_path, "duel")
    assert wrong == [
        "Makefile:2: names duel (text: 'python scripts/bot_eval.py duel')",
        f"{GAME_PROTO}: 2 import(s) and 6 entries name duel"
        " (one import, one entry in each of 5 envelopes allowed)",
        """pyproject.toml:1: names duel (text: '"throneroom_server" = ["games/duel/board.js"]')""",
        "service/throneroom_server/api/web.py:1: names duel (a string: 'duel')",
        "service/throneroom_server/api/web.py:1: names duel (a string: 'duel.js')",
        f"{REGISTRY}: 2 lines name duel (one allowed): [1, 2]",
    ]
