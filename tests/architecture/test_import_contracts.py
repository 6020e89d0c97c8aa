"""The import contracts of docs/architecture.md, checked over the source tree.

(a) the rules engines are pure: ``throneroom_server.games`` (and the SDK's
    ``throneroom.games`` data modules it reads) import only the standard
    library without I/O, clock or ambient randomness, the generated
    ``throneroom.v1`` messages with their protobuf runtime, ``throneroom.games``
    and themselves;
(b) the SDK stands alone: ``throneroom`` imports the standard library, itself
    and the modules of its three dependencies (grpcio, protobuf,
    googleapis-common-protos); the server only lazily, inside the functions
    listed in LAZY_SERVER_IMPORTS;
(c) dependencies point one way: runtime (and the embedded re-export) -> api -> app
    -> (games, store);
(d) no import cycles: anywhere in the tree (test_import_cycles.py);
(e) the learning adapters stand aside: ``throneroom_rl`` imports the standard
    library, the SDK, the server and the libraries of the server's ``rl`` extra;
    nothing of the service or the SDK imports ``throneroom_rl``
    (test_rl_contract.py).

Every import statement counts, lazy or not (tests/architecture/imports.py).
Each contract is also run on a small planted violation, to prove it can fail.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.architecture.imports import (
    Import,
    check_games,
    check_layers,
    check_sdk,
    find_modules,
    imports_of,
)
from tests.architecture.planted import plant

ROOT = Path(__file__).resolve().parents[2]

GAMES_PACKAGES = ("throneroom_server.games", "throneroom.games")
# Besides the standard library: the engines themselves, the SDK's game data and
# texts, the generated messages (not the *_pb2_grpc service stubs) and their runtime.
GAMES_ALLOWED = (
    "throneroom_server.games",
    "throneroom.games",
    "throneroom.notation.base",  # the notations' shared grammar helpers (pure too)
    "google.protobuf",
)
# The client side of the SDK's game packages, which no engine runs: the
# protocol's module, and in each throneroom.games.<game> its client, bots and
# terminal boards (seeded randomness, rich). They are exempt from (a); a pure
# module (an engine's, or the SDK's data, texts and notation) must not import
# them.
# A game's terminal boards: the full drawing, and the short ones for a terminal of few rows.
GAME_BOARD_MODULES = frozenset({"terminal", "terminal_short"})
CLIENT_SIDE_MODULES = frozenset({"client", "bot", "mcts", "mcts_memory", *GAME_BOARD_MODULES})
CLIENT_SIDE_PROTOCOL = "throneroom.games.protocol"
# Standard-library modules an engine must not touch: clock, event loop and
# threads, network, processes and signals, files and the process environment,
# ambient randomness (an engine's only RNG is the PCG32 state inside the game
# state), logging.
FORBIDDEN_STDLIB = frozenset(
    {
        *("time", "datetime", "zoneinfo", "calendar", "sched"),
        *("asyncio", "threading", "_thread", "multiprocessing", "concurrent", "queue"),
        *("socket", "socketserver", "ssl", "select", "selectors", "http", "urllib"),
        *("ftplib", "smtplib", "xmlrpc", "subprocess", "signal"),
        *("os", "io", "pathlib", "shutil", "tempfile", "glob", "fileinput", "sys"),
        *("argparse", "sqlite3", "shelve", "dbm", "mmap", "ctypes"),
        *("random", "secrets", "uuid"),
        "logging",
    }
)
SDK_DEPENDENCY_MODULES = (
    "grpc",  # grpcio
    "google.protobuf",  # protobuf
    "google.rpc",  # googleapis-common-protos
    "google.api",  # ditto
    "google.type",  # ditto
)
# (importer, imported server module): embedded servers for local play; each
# catches the missing server package and raises ServerNotInstalled.
# The MCTS bot simulates with the engines (the SDK's one use of them).
LAZY_SERVER_IMPORTS = frozenset(
    {
        ("throneroom.arena", "throneroom_server.embedded"),
        ("throneroom.bots.mcts", "throneroom_server.games.registry"),
        # It samples chance through the kit's pickers (kit.chance).
        ("throneroom.bots.mcts", "throneroom_server.games.kit.chance"),
        # Replaying a game record runs it through the engines.
        ("throneroom.records", "throneroom_server.games.registry"),
        ("throneroom.records", "throneroom_server.app.records"),
    }
)

COMPOSITION = (
    "throneroom_server.runtime",
    # The documented re-exports of runtime.embedded and runtime.main.
    "throneroom_server.embedded",
    "throneroom_server.main",
)
API = "throneroom_server.api"
APP = "throneroom_server.app"
STORE = "throneroom_server.store"
GAMES = "throneroom_server.games"
LAYERS = {
    API: COMPOSITION,
    APP: (API, *COMPOSITION),
    STORE: (APP, API, GAMES, *COMPOSITION),
    GAMES: (STORE, APP, API, *COMPOSITION),
}


def _scan(root: Path) -> list[Import]:
    modules = {}
    packages = (
        (root / "sdk", "throneroom"),
        (root / "service", "throneroom_server"),
        (root / "service", "throneroom_rl"),
    )
    for base, package in packages:
        if (base / package).is_dir():
            modules.update(find_modules(base, package))
    return imports_of(modules)


@pytest.fixture(scope="module")
def tree() -> list[Import]:
    return _scan(ROOT)


def _plant(tmp_path: Path, files: dict[str, str]) -> list[Import]:
    """A small source tree in the repository's layout (sdk/, service/)."""
    plant(tmp_path, files)
    return _scan(tmp_path)


def _pb2_modules(imports: list[Import]) -> tuple[str, ...]:
    names = {imp.target for imp in imports} | {imp.importer for imp in imports}
    return tuple(sorted(n for n in names if n.startswith("throneroom.v1.") and n.endswith("_pb2")))


def _client_side(module: str) -> bool:
    """A module of a game's client side (see CLIENT_SIDE_MODULES)."""
    parts = module.split(".")
    return _within(module, CLIENT_SIDE_PROTOCOL) or (
        parts[:2] == ["throneroom", "games"] and len(parts) >= 4 and parts[3] in CLIENT_SIDE_MODULES
    )


def _check_games(imports: list[Import]) -> list[str]:
    pure = [imp for imp in imports if not _client_side(imp.importer)]
    return check_games(
        pure,
        packages=GAMES_PACKAGES,
        allowed=(*GAMES_ALLOWED, *_pb2_modules(imports)),
        forbidden_stdlib=FORBIDDEN_STDLIB,
    ) + [
        f"{imp}: a pure module imports a game's client side"
        for imp in pure
        if _within(imp.importer, "throneroom_server.games")
        or _within(imp.importer, "throneroom.games")
        if _client_side(imp.target)
    ]


# The SDK's one extra, `throneroom[cli]`: rich, imported only by the terminal
# package, which the rest of the SDK imports only inside the CLI's functions
# (its __init__, free of rich, says what to install when rich is missing).
CLI_EXTRA_MODULES = ("rich",)
TERMINAL = "throneroom.terminal"
# The tournament's table and progress bar (the tournament extra brings rich too),
# imported only inside `throneroom tournament`'s function.
TOURNAMENT_DISPLAY = "throneroom.tournament.display"
# The tournament extra's ratings: openskill, imported lazily by the standings only.
TOURNAMENT_EXTRA = ("openskill",)
STANDINGS = "throneroom.tournament.standings"
# The websocket extra: aiohttp, imported only by the WebSocket stream's module,
# which the play session imports only when a session asks for a WebSocket.
WEBSOCKET_EXTRA = ("aiohttp",)
PLAY_SOCKET = "throneroom.play_socket"


def _within(module: str, package: str) -> bool:
    return module == package or module.startswith(package + ".")


def _terminal_module(module: str) -> bool:
    """A module that may import rich: one of the terminal package's (not its
    __init__), or a game's boards, ``throneroom.games.<game>.terminal`` (and
    ``terminal_short``)."""
    parts = module.split(".")
    in_game = (
        parts[:2] == ["throneroom", "games"] and len(parts) == 4 and parts[3] in GAME_BOARD_MODULES
    )
    return in_game or (_within(module, TERMINAL) and module != TERMINAL)


def _check_cli_extra(imports: list[Import]) -> list[str]:
    violations = []
    for imp in imports:
        if not _within(imp.importer, "throneroom"):
            continue
        if any(_within(imp.target, m) for m in CLI_EXTRA_MODULES):
            if not _terminal_module(imp.importer) and imp.importer != TOURNAMENT_DISPLAY:
                violations.append(f"{imp}: rich (the cli extra) outside the terminal modules")
        elif (
            _terminal_module(imp.target)
            and not _terminal_module(imp.importer)
            and imp.importer != TERMINAL
            and imp.top_level
        ):
            violations.append(f"{imp}: the terminal modules need rich: import them lazily")
        elif imp.target == TOURNAMENT_DISPLAY and imp.top_level:
            violations.append(f"{imp}: the tournament display needs rich: import it lazily")
    return violations


def _check_tournament_extra(imports: list[Import]) -> list[str]:
    return [
        f"{imp}: openskill (the tournament extra) outside {STANDINGS}, or at import time"
        for imp in imports
        if _within(imp.importer, "throneroom")
        and any(_within(imp.target, m) for m in TOURNAMENT_EXTRA)
        and (imp.importer != STANDINGS or imp.top_level)
    ]


def _check_websocket_extra(imports: list[Import]) -> list[str]:
    violations = []
    for imp in imports:
        if not _within(imp.importer, "throneroom"):
            continue
        if any(_within(imp.target, m) for m in WEBSOCKET_EXTRA) and imp.importer != PLAY_SOCKET:
            violations.append(f"{imp}: aiohttp (the websocket extra) outside {PLAY_SOCKET}")
        elif _within(imp.target, PLAY_SOCKET) and imp.top_level and imp.importer != PLAY_SOCKET:
            violations.append(f"{imp}: {PLAY_SOCKET} needs aiohttp: import it lazily")
    return violations


def _check_sdk(imports: list[Import]) -> list[str]:
    extra = [
        i
        for i in imports
        if any(
            _within(i.target, m) for m in (*CLI_EXTRA_MODULES, *TOURNAMENT_EXTRA, *WEBSOCKET_EXTRA)
        )
    ]
    return (
        check_sdk(
            [i for i in imports if i not in extra],
            sdk="throneroom",
            server="throneroom_server",
            dependencies=SDK_DEPENDENCY_MODULES,
            lazy_server_imports=LAZY_SERVER_IMPORTS,
        )
        + _check_cli_extra(imports)
        + _check_tournament_extra(imports)
        + _check_websocket_extra(imports)
    )


# -- the scanner ----------------------------------------------------------------------


def test_scanner_reads_every_form_of_import(tmp_path: Path) -> None:
    imports = _plant(
        tmp_path,
        {
            "service/throneroom_server/games/kings_life/days.py": """
                import time
                from . import reckoning
                from .reckoning import score
                from ..core import Outcome
                from throneroom_server.games.kings_life import data

                class Day:
                    import random

                def later():
                    import asyncio
            """,
            "service/throneroom_server/games/kings_life/reckoning.py": "score = 1\n",
            "service/throneroom_server/games/kings_life/data.py": "",
            "service/throneroom_server/games/core.py": "Outcome = 1\n",
        },
    )
    found = {(i.target, i.top_level) for i in imports if i.importer.endswith(".days")}
    assert found == {
        ("time", True),
        ("throneroom_server.games.kings_life.reckoning", True),
        ("throneroom_server.games.kings_life.reckoning", True),
        ("throneroom_server.games.core", True),
        ("throneroom_server.games.kings_life.data", True),
        ("random", True),
        ("asyncio", False),
    }


def test_the_source_tree_is_seen() -> None:
    imports = _scan(ROOT)
    importers = {imp.importer for imp in imports}
    # A scan that silently found nothing would pass every contract.
    assert {
        "throneroom.client",
        "throneroom.arena",
        "throneroom_server.app.service",
        "throneroom_server.app.updates",
        "throneroom_server.runtime.server",
        "throneroom_server.store.redis",
        "throneroom_server.api.servicer",
        "throneroom_server.games.kings_life.days",
        "throneroom_server.games.king_is_dead.engine",
    } <= importers
    assert len(_pb2_modules(imports)) >= 5


# -- (a) pure engines -----------------------------------------------------------------


def test_games_import_only_pure_modules(tree: list[Import]) -> None:
    assert _check_games(tree) == []


def test_games_contract_catches_planted_violations(tmp_path: Path) -> None:
    imports = _plant(
        tmp_path,
        {
            "service/throneroom_server/games/bad.py": """
                import collections
                import time
                import redis
                import grpc
                import structlog
                from google.protobuf.message import Message
                from throneroom.v1 import nim_pb2
                from throneroom.v1 import service_pb2_grpc
                from throneroom.games import kings_life
                from throneroom_server.store import base
                from throneroom_server import app
                from throneroom_server.api import servicer
                from throneroom_server.runtime import server
                from throneroom_server.games import core

                def lazily():
                    import asyncio
                    import random
            """,
            "service/throneroom_server/games/core.py": "",
            "service/throneroom_server/store/base.py": "",
            "service/throneroom_server/app/__init__.py": "",
            "service/throneroom_server/api/servicer.py": "",
            "service/throneroom_server/runtime/server.py": "",
            "sdk/throneroom/v1/nim_pb2.py": "",
            "sdk/throneroom/v1/service_pb2_grpc.py": "import grpc\n",
            "sdk/throneroom/games/kings_life/__init__.py": "import socket\n",
            "sdk/throneroom/games/kings_life/bot.py": "import random\n",
            "sdk/throneroom/games/kings_life/data.py": (
                "from throneroom.games.kings_life import bot\n"
            ),
        },
    )
    flagged = {line.split(": ")[1] for line in _check_games(imports)}
    assert flagged == {
        "throneroom_server.games.bad imports time",
        "throneroom_server.games.bad imports redis",
        "throneroom_server.games.bad imports grpc",
        "throneroom_server.games.bad imports structlog",
        "throneroom_server.games.bad imports throneroom.v1.service_pb2_grpc",
        "throneroom_server.games.bad imports throneroom_server.store.base",
        "throneroom_server.games.bad imports throneroom_server.app",
        "throneroom_server.games.bad imports throneroom_server.api.servicer",
        "throneroom_server.games.bad imports throneroom_server.runtime.server",
        "throneroom_server.games.bad imports asyncio (inside a function)",
        "throneroom_server.games.bad imports random (inside a function)",
        "throneroom.games.kings_life imports socket",
        "throneroom.games.kings_life.data imports throneroom.games.kings_life.bot",
    }


# -- (b) the SDK stands alone -----------------------------------------------------------


def test_sdk_imports_only_its_dependencies_and_the_server_lazily(tree: list[Import]) -> None:
    assert _check_sdk(tree) == []


def test_sdk_contract_catches_planted_violations(tmp_path: Path) -> None:
    imports = _plant(
        tmp_path,
        {
            "sdk/throneroom/client.py": """
                import json
                import grpc
                from google.rpc import status_pb2
                import redis
                from grpc_status import rpc_status
                from throneroom_server.app.service import App

                def local():
                    from throneroom_server.games.registry import build_registry
                    import structlog
            """,
            "sdk/throneroom/arena.py": """
                def embedded_client():
                    from throneroom_server.embedded import EmbeddedServer
            """,
            "sdk/throneroom/bots/mcts.py": """
                def engines():
                    from throneroom_server.games.registry import build_registry
                    from throneroom_server.games.kit.chance import Sampled
            """,
            "sdk/throneroom/records.py": """
                def replay():
                    from throneroom_server.games.registry import service_games
                    from throneroom_server.app.records import replay
            """,
            "service/throneroom_server/app/service.py": "",
            "service/throneroom_server/embedded.py": "",
            "service/throneroom_server/games/registry.py": "",
            "service/throneroom_server/games/kit/chance.py": "",
            "service/throneroom_server/app/records.py": "",
        },
    )
    flagged = {line.split(": ")[1] for line in _check_sdk(imports)}
    assert flagged == {
        "throneroom.client imports redis",
        "throneroom.client imports grpc_status",
        "throneroom.client imports throneroom_server.app.service",
        "throneroom.client imports throneroom_server.games.registry (inside a function)",
        "throneroom.client imports structlog (inside a function)",
    }


def test_cli_extra_contract_catches_planted_violations(tmp_path: Path) -> None:
    imports = _plant(
        tmp_path,
        {
            "sdk/throneroom/terminal/__init__.py": "import rich\n",
            "sdk/throneroom/terminal/boards.py": "from rich.console import Console\n",
            "sdk/throneroom/cli.py": """
                from throneroom.terminal import require_rich
                from throneroom.terminal.boards import board

                def show():
                    from throneroom.terminal.boards import console
                    from rich.table import Table
            """,
            "sdk/throneroom/client.py": "import rich.text\n",
            # A game's board may import rich; its client only lazily.
            "sdk/throneroom/games/duel/terminal.py": "import rich\n",
            "sdk/throneroom/games/duel/client.py": """
                from throneroom.games.duel.terminal import duel_board

                def terminal_board():
                    from throneroom.games.duel.terminal import duel_board
            """,
            "sdk/throneroom/games/duel/data.py": "import rich\n",
            "sdk/throneroom/arena.py": """
                def embedded_client():
                    import throneroom_server.embedded
            """,
            "sdk/throneroom/bots/mcts.py": """
                def engines():
                    from throneroom_server.games.registry import build_registry
                    from throneroom_server.games.kit.chance import Sampled
            """,
            "sdk/throneroom/records.py": """
                def replay():
                    from throneroom_server.games.registry import service_games
                    from throneroom_server.app.records import replay
            """,
            "service/throneroom_server/embedded.py": "",
            "service/throneroom_server/games/registry.py": "",
            "service/throneroom_server/games/kit/chance.py": "",
            "service/throneroom_server/app/records.py": "",
        },
    )
    flagged = {line.split(": ")[1] for line in _check_sdk(imports)}
    assert flagged == {
        "throneroom.terminal imports rich",
        "throneroom.cli imports throneroom.terminal.boards",
        "throneroom.cli imports rich.table (inside a function)",
        "throneroom.client imports rich.text",
        "throneroom.games.duel.client imports throneroom.games.duel.terminal",
        "throneroom.games.duel.data imports rich",
    }


def test_websocket_extra_contract_catches_planted_violations(tmp_path: Path) -> None:
    imports = _plant(
        tmp_path,
        {
            "sdk/throneroom/play_socket.py": "import aiohttp\n",
            "sdk/throneroom/play.py": """
                def open_socket():
                    from throneroom.play_socket import SocketStream
            """,
            "sdk/throneroom/aio.py": "from throneroom.play_socket import play_url\n",
            "sdk/throneroom/client.py": """
                def later():
                    import aiohttp.web
            """,
        },
    )
    flagged = {line.split(": ")[1] for line in _check_websocket_extra(imports)}
    assert flagged == {
        "throneroom.aio imports throneroom.play_socket",
        "throneroom.client imports aiohttp.web (inside a function)",
    }


def test_sdk_contract_reports_a_stale_allowed_lazy_import(tmp_path: Path) -> None:
    imports = _plant(
        tmp_path,
        {
            "sdk/throneroom/arena.py": "import grpc\n",
            "sdk/throneroom/bots/mcts.py": """
                def engines():
                    from throneroom_server.games.registry import build_registry
                    from throneroom_server.games.kit.chance import Sampled
            """,
            "sdk/throneroom/records.py": """
                def replay():
                    from throneroom_server.games.registry import service_games
                    from throneroom_server.app.records import replay
            """,
            "service/throneroom_server/games/registry.py": "",
            "service/throneroom_server/games/kit/chance.py": "",
            "service/throneroom_server/app/records.py": "",
        },
    )
    assert _check_sdk(imports) == [
        "allowed lazy import throneroom.arena -> throneroom_server.embedded no longer exists:"
        " drop it from the list"
    ]


# -- (c) layers -------------------------------------------------------------------------


def test_dependencies_point_from_api_to_app_to_games_and_store(tree: list[Import]) -> None:
    assert check_layers(tree, LAYERS) == []


def test_layer_contract_catches_planted_violations(tmp_path: Path) -> None:
    imports = _plant(
        tmp_path,
        {
            "service/throneroom_server/store/redis.py": """
                from throneroom_server.store.base import Store

                def later():
                    from throneroom_server.app import errors
            """,
            "service/throneroom_server/store/base.py": "",
            "service/throneroom_server/app/errors.py": "",
            "service/throneroom_server/app/service.py": """
                from throneroom_server.games import core
                from throneroom_server.store import base
                from ..api import errors
            """,
            "service/throneroom_server/api/errors.py": "from ..runtime import server\n",
            "service/throneroom_server/api/servicer.py": "from throneroom_server import app\n",
            "service/throneroom_server/runtime/server.py": "from ..api import servicer\n",
            "service/throneroom_server/embedded.py": "from .runtime import embedded\n",
            "service/throneroom_server/runtime/embedded.py": "from . import server\n",
            "service/throneroom_server/games/core.py": "",
        },
    )
    flagged = {line.split(": ")[1] for line in check_layers(imports, LAYERS)}
    assert flagged == {
        "throneroom_server.store.redis imports throneroom_server.app.errors (inside a function)",
        "throneroom_server.app.service imports throneroom_server.api.errors",
        "throneroom_server.api.errors imports throneroom_server.runtime.server",
    }
