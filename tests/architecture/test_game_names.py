"""No shared module names a game (docs/architecture.md, DESIGN.md principle 10).

A game has one home on each side: its server package
(``service/throneroom_server/games/<game>/``, its web board ``board.js``
included) and its SDK package (``sdk/throneroom/games/<game>/``). Every other
module reaches games by name
through the registry (server) or ``throneroom.games.protocol.game_client``
(client side): a surface that lists games by hand is how one surface ends up
with a partial game. So outside those homes, the registry, the generated
messages (``sdk/throneroom/v1/``, ``proto/``) and the tests, no code names a
game (tests/architecture/game_names.py says what "names" means; prose in
docstrings and comments may). The game names are the protos' own (game.proto's
envelopes), so a new game is covered the day it is registered.

Modules still naming a game wait in KNOWN_NAMINGS, each with its reason; an
entry whose module no longer names a game fails too (delete it then). The
check is proven on a small planted tree.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

from throneroom.games.messages import game_types_of
from throneroom.v1 import game_pb2

from tests.architecture.game_names import Naming, games_in, python_namings, text_namings

ROOT = Path(__file__).resolve().parents[2]
GAMES = tuple(game_types_of(game_pb2.GameState))

PYTHON_ROOTS = ("sdk", "service", "bench", "scripts", "throneroom_dev")
JS_ROOT = "service/throneroom_server"
"""Every JavaScript file of the service: the web client, and the boards in the games' packages."""
MAKEFILES = ("Makefile",)
# The registry (the one list of games on the server) and the generated messages.
EXEMPT = ("service/throneroom_server/games/registry.py", "sdk/throneroom/v1/")

KNOWN_NAMINGS: dict[str, str] = {
    # Service and storage benchmarks load the service with one chosen game
    # (Nim's near-zero engine cost isolates the service; The King Is Dead is
    # the real workload): a workload, not a list of games.
    "bench/service.py": "its workloads: Nim and The King Is Dead games",
    "bench/lobby.py": "its workload: Nim games",
    "bench/failover.py": "its workload: Nim games",
    "bench/sizing.py": "its workload: The King Is Dead games",
    "bench/session_cost.py": "its workload: The King Is Dead games",
    "bench/peer.py": "the game boardgame.io plays too (King Is Dead, or Nim)",
    "bench/tournament.py": "its default game",
    "bench/compare_trees.py": "its default rows (game:seats), compared across two trees",
    "Makefile": "bench-tournament's second run (King's Life)",
}


def _own_home(relative: str, games: tuple[str, ...]) -> bool:
    """A file of one game's own packages (server, its web board included, and SDK)."""
    homes = [(f"service/throneroom_server/games/{g}/", f"sdk/throneroom/games/{g}/") for g in games]
    return any(relative.startswith(home) for pair in homes for home in pair)


def namings(root: Path, games: tuple[str, ...] = GAMES) -> list[Naming]:
    """Every place outside the games' homes, the registry and the generated
    messages where code names a game."""
    found: list[Naming] = []
    for top in PYTHON_ROOTS:
        for path in sorted((root / top).rglob("*.py")):
            relative = path.relative_to(root).as_posix()
            if _own_home(relative, games) or relative.startswith(EXEMPT) or "/." in relative:
                continue
            found += python_namings(path, relative, games)
    for path in sorted((root / JS_ROOT).rglob("*.js")) if (root / JS_ROOT).is_dir() else []:
        relative = path.relative_to(root).as_posix()
        if not _own_home(relative, games):
            found += text_namings(path, relative, games, comment="//")
    for name in MAKEFILES:
        if (root / name).is_file():
            found += text_namings(root / name, name, games, comment="#")
    return found


def test_the_game_names_are_the_protos() -> None:
    assert {"king_is_dead", "kill_the_king", "kings_life", "nim"} <= set(GAMES)


def test_words_are_whole() -> None:
    games = ("king_is_dead", "nim", "kings_life")
    assert games_in("KingIsDeadView", games) == ["king_is_dead"]
    assert games_in("throneroom.v1.nim_pb2", games) == ["nim"]
    assert games_in("play_kings_life_day", games) == ["kings_life"]
    assert games_in("nimble kingdom king is deadline", games) == []
    assert games_in("the king's life", games) == []


def test_no_shared_module_names_a_game() -> None:
    found = [n for n in namings(ROOT) if n.path not in KNOWN_NAMINGS]
    assert [str(n) for n in found] == []


def test_every_known_naming_is_still_there() -> None:
    named = {n.path for n in namings(ROOT)}
    stale = sorted(set(KNOWN_NAMINGS) - named)
    assert stale == [], "these no longer name a game: delete them from KNOWN_NAMINGS"


def _plant(root: Path, files: dict[str, str]) -> None:
    for relative, text in files.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))


def test_the_check_catches_planted_namings(tmp_path: Path) -> None:
    _plant(
        tmp_path,
        {
            # A surface with its own list of games: every way of naming one.
            "sdk/throneroom/terminal/session.py": '''
                """Prose may name nim and KingIsDead: it is not code."""
                from throneroom.v1 import nim_pb2
                from throneroom.games.duel.bot import DuelBot
                import throneroom.games.duel.notation

                def make_bot(game_type):
                    # a comment may say duel
                    if game_type == "duel":
                        return DuelBot()
                    return nim_pb2.NimMove(take=1)

                def king_is_dead_task(view):
                    return view.duel_phase
            ''',
            "bench/engine.py": 'SEATS = {"nim": (2,)}\n',
            "service/throneroom_server/web/js/boards/index.js": """
                // the duel board
                import duel from "./duel.js";
                /* nim too */
                const BOARDS = { duel };
            """,
            "Makefile": "bots: ## duel's bot\n\tpython scripts/bot_eval.py duel\n",
            # A game's homes, the registry and the generated messages may.
            "service/throneroom_server/games/duel/engine.py": 'NAME = "duel"\n',
            "service/throneroom_server/games/nim/rules.py": 'NAME = "nim"\n',
            "service/throneroom_server/games/registry.py": "from .duel import Duel\n",
            "sdk/throneroom/games/duel/client.py": 'CLIENT = "duel"\n',
            "sdk/throneroom/v1/duel_pb2.py": "DuelMove = 1\n",
            "service/throneroom_server/games/duel/board.js": 'export const title = "duel";\n',
            # Prose and near misses name nothing.
            "sdk/throneroom/cli.py": '''
                """throneroom play-local duel --seats 2"""
                DUELLING = "dueling nimble"
            ''',
        },
    )
    found = {(n.path, n.line, n.game) for n in namings(tmp_path, ("duel", "king_is_dead", "nim"))}
    session = "sdk/throneroom/terminal/session.py"
    assert found == {
        (session, 3, "nim"),  # from throneroom.v1 import nim_pb2
        (session, 4, "duel"),  # from throneroom.games.duel.bot import DuelBot (module, name)
        (session, 5, "duel"),  # import throneroom.games.duel.notation
        (session, 9, "duel"),  # "duel"
        (session, 10, "duel"),  # DuelBot
        (session, 11, "nim"),  # nim_pb2.NimMove
        (session, 13, "king_is_dead"),  # def king_is_dead_task
        (session, 14, "duel"),  # view.duel_phase
        ("bench/engine.py", 1, "nim"),
        ("service/throneroom_server/web/js/boards/index.js", 3, "duel"),
        ("service/throneroom_server/web/js/boards/index.js", 5, "duel"),
        ("Makefile", 2, "duel"),
    }
