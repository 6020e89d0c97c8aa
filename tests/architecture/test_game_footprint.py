"""A game touches exactly its own places (docs/adding-a-game.md), proven on Nim.

Every file of the tree whose code names Nim (tests/architecture/game_names.py
says what "names" means: code, not prose) is one of: its ``.proto`` (and the
messages generated from it), ONE line of ``game.proto``'s games block (its
import and envelope entries there are generated from that line, and must be
what the block generates: throneroom_dev/game_proto.py), ONE line of the
registry, its server package, its SDK package, the tests and the docs (prose,
``*.md``); plus the benchmarks that load the service with Nim games as a
workload (test_game_names.KNOWN_NAMINGS says why each). The check is proven on
a planted tree.
"""

from __future__ import annotations

import subprocess
import textwrap
from pathlib import Path

from throneroom.v1 import game_pb2

from tests.architecture.game_names import Naming, games_in, python_namings, text_namings
from tests.architecture.test_game_names import KNOWN_NAMINGS
from throneroom_dev import game_proto
from throneroom_dev.game_proto import GameProtoError

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
        if relative == GAME_PROTO:
            wrong += game_proto_footprint(root, found, game)
        elif not found:
            continue
        elif relative == REGISTRY:
            if len(lines) != 1:
                wrong.append(f"{relative}: {len(lines)} lines name {game} (one allowed): {lines}")
        else:
            wrong += [str(n) for n in found]
    return wrong


def game_proto_footprint(root: Path, found: list[Naming], game: str) -> list[str]:
    """What is wrong with ``game``'s lines of game.proto: it may be named by one
    line of the games block (a comment, so not among ``found``, the namings of
    code) and by the generated lines, which must be what the block generates;
    by no other line."""
    text = (root / GAME_PROTO).read_text()
    # The generator's sentences say "game.proto"; these say where it is.
    try:
        listed, regions = game_proto.checked_games(text)
    except GameProtoError as e:
        return [str(e).replace("game.proto", GAME_PROTO, 1)]
    wrong = [problem.replace("game.proto", GAME_PROTO, 1) for problem in game_proto.stale(text)]
    block = [g.line for g in listed if games_in(f"{g.name} {g.prefix}", (game,))]
    if len(block) != 1:
        wrong.append(
            f"{GAME_PROTO}: {len(block)} lines of its games block name {game} (one allowed)"
        )
    generated = {i + 1 for region in regions for i in range(region.begin + 1, region.end)}
    return wrong + [str(n) for n in found if n.line not in generated]


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


def planted_game_proto(block: str, extra: str = "") -> str:
    """A game.proto with the games block ``block``, its generated lines written
    (by game_proto.render), then ``extra``."""
    envelopes = "".join(
        f"message {e} {{\n  oneof game {{  {game_proto.BEGIN}\n  }}  {game_proto.END}\n}}\n"
        for e in ENVELOPES
    )
    return game_proto.render(
        f"{game_proto.BLOCK_START}\n{block}{game_proto.BLOCK_END}\n"
        f"{game_proto.BEGIN}\n{game_proto.END}\n{envelopes}{extra}"
    )


def test_the_envelopes_are_the_generators() -> None:
    """The footprint's envelopes (game_pb2's) are those game_proto.py writes."""
    assert tuple(game_proto.ENVELOPES) == ENVELOPES


def test_game_proto_names_a_game_on_one_hand_written_line(tmp_path: Path) -> None:
    block = "//   duel Duel 15\n//   chess Chess 16\n"
    _plant(tmp_path, {GAME_PROTO: planted_game_proto(block)})
    assert footprint(tmp_path, "duel") == []
    assert footprint(tmp_path, "checkers") == [
        f"{GAME_PROTO}: 0 lines of its games block name checkers (one allowed)"
    ]


def test_the_footprint_catches_planted_places(tmp_path: Path) -> None:
    # game.proto: two lines of the block name duel, a hand-written line does,
    # and View's generated entries are not the block's.
    proto = planted_game_proto(
        "//   duel Duel 15\n//   duel_more DuelMore 16\n", "message Extra { DuelX duel = 1; }\n"
    ).replace("    DuelMoreView duel_more = 16;\n", "")
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
            GAME_PROTO: proto,
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
        f"{GAME_PROTO}:34: View's entries differ from the games block",
        f"{GAME_PROTO}: 2 lines of its games block name duel (one allowed)",
        f"{GAME_PROTO}:38: names duel (text: 'message Extra {{ DuelX duel = 1; }}')",
        """pyproject.toml:1: names duel (text: '"throneroom_server" = ["games/duel/board.js"]')""",
        "service/throneroom_server/api/web.py:1: names duel (a string: 'duel')",
        "service/throneroom_server/api/web.py:1: names duel (a string: 'duel.js')",
        f"{REGISTRY}: 2 lines name duel (one allowed): [1, 2]",
    ]
