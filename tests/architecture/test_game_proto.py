"""game.proto's per-game lines are what its games block generates
(throneroom_dev/game_proto.py; scripts/gen_proto.py writes them for `make
proto` and fails on a difference with --check, as make lint and CI run it),
and the compiled envelopes hold exactly the block's games.

The generator is proven on planted mistakes: malformed blocks and markers
(in memory), and edited generated lines, a block line without its entries
and stale modules, each reported by `gen_proto.py --check` run on a temporary
copy of the tree's protos and generated modules (the real files are only read).
"""

from __future__ import annotations

import filecmp
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from throneroom.v1 import game_pb2

from throneroom_dev import game_proto
from throneroom_dev.game_proto import GameProtoError

ROOT = Path(__file__).resolve().parents[2]
GAME_PROTO = "proto/throneroom/v1/game.proto"
GENERATED = "sdk/throneroom/v1"
TEXT = (ROOT / GAME_PROTO).read_text()
LAST_GAME = game_proto.games(TEXT)[-1]
LAST_LINE = f"//   {LAST_GAME.name} {LAST_GAME.prefix} {LAST_GAME.number}\n"
"""The block's last line, after which the planted lines go."""
NEW_NUMBER = max(game.number for game in game_proto.games(TEXT)) + 1
"""A field number no game uses (nor an envelope's own field, on today's file)."""


def test_game_proto_is_what_its_block_generates() -> None:
    assert game_proto.stale(TEXT) == []
    assert game_proto.render(TEXT) == TEXT


def test_the_compiled_envelopes_hold_the_games_block() -> None:
    """The games' imports in the block's order; each envelope's entries, in
    field-number order, named and numbered as the block says."""
    listed = game_proto.games(TEXT)
    by_number = sorted(listed, key=lambda game: game.number)
    for envelope, suffix in game_proto.ENVELOPES.items():
        oneof = getattr(game_pb2, envelope).DESCRIPTOR.oneofs_by_name["game"]
        assert [(f.name, f.number, f.message_type.name) for f in oneof.fields] == [
            (game.name, game.number, game.prefix + suffix) for game in by_number
        ], envelope
    assert [d.name for d in game_pb2.DESCRIPTOR.dependencies] == [
        "throneroom/v1/common.proto",
        *(f"throneroom/v1/{game.name}.proto" for game in listed),
    ]


def _with_line(line: str) -> str:
    return TEXT.replace(LAST_LINE, LAST_LINE + line + "\n")


@pytest.mark.parametrize(
    ("text", "error"),
    [
        (_with_line("//   duel Duel"), r"game\.proto:\d+: '//   duel Duel' is not a game line"),
        (_with_line("//   Duel Duel 99"), "is not a game line"),
        (_with_line("//   duel duel 99"), "is not a game line"),
        (_with_line("//   duel  Duel 99"), "is not a game line"),
        (_with_line("//   duel Duel 099"), "is not a game line"),
        (_with_line("//   duel Duel 99 # soon"), "is not a game line"),
        (_with_line(f"//   {LAST_GAME.name} Duel 99"), "name .* is already used on line"),
        (_with_line(f"//   duel {LAST_GAME.prefix} 99"), "prefix .* is already used on line"),
        (
            _with_line(f"//   duel Duel {LAST_GAME.number}"),
            rf"field number {LAST_GAME.number} is already used on line",
        ),
        (_with_line("//   duel Duel 100"), r"duel's number 100 is already clock's \(line \d+\)"),
        (_with_line("//   duel Duel 101"), "duel's number 101 is already forfeit's"),
        (_with_line("//   clock Clock 99"), r"clock is already the name of a field \(line \d+\)"),
        (_with_line("//   duel Duel 19000"), "19000 is not a usable field number"),
        (_with_line(f"//   duel Duel {2**29}"), f"{2**29} is not a usable field number"),
        (TEXT.replace(game_proto.BLOCK_END + "\n", ""), "needs one games block"),
        (TEXT + game_proto.BLOCK_START + "\n", "needs one games block"),
        (
            TEXT.split(game_proto.BLOCK_START)[0]
            + f"{game_proto.BLOCK_START}\n{game_proto.BLOCK_END}"
            + TEXT.split(game_proto.BLOCK_END)[1],
            "the games block lists no game",
        ),
        # Markers: a region that never ends, one that ends twice, one missing.
        (TEXT.replace("}  " + game_proto.END, "}", 1), "opens inside another"),
        (TEXT.replace("\n}\n", f"\n}}\n{game_proto.END}\n", 1), "ends that never began"),
        (TEXT.replace("{  " + game_proto.BEGIN, "{", 1), "ends that never began"),
        (
            TEXT.replace(game_proto.BEGIN + "\n", "", 1).replace(game_proto.END + "\n", "", 1),
            r"one in each of GameOptions, .*; it has them for \['GameOptions'",
        ),
        (TEXT.replace(game_proto.BEGIN + "\n", "  " + game_proto.BEGIN + "\n", 1), "own"),
    ],
)
def test_a_malformed_block_or_marker_is_an_error(text: str, error: str) -> None:
    with pytest.raises(GameProtoError, match=error):
        game_proto.render(text)
    with pytest.raises(GameProtoError, match=error):
        game_proto.stale(text)


def test_a_new_line_writes_its_import_and_five_entries() -> None:
    fresh = game_proto.render(_with_line(f"//   duel Duel {NEW_NUMBER}"))
    added = sorted(set(fresh.splitlines()) - set(TEXT.splitlines()))
    assert added == sorted(
        [
            f"//   duel Duel {NEW_NUMBER}",
            'import "throneroom/v1/duel.proto";',
            *(f"    Duel{suffix} duel = {NEW_NUMBER};" for suffix in game_proto.ENVELOPES.values()),
        ]
    )
    assert game_proto.stale(fresh) == []


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    """A copy of what gen_proto.py reads and writes: itself, the generator, the
    protos and the generated modules."""
    for relative in ("scripts/gen_proto.py", "throneroom_dev/__init__.py"):
        (tmp_path / relative).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / relative, tmp_path / relative)
    shutil.copy2(ROOT / "throneroom_dev/game_proto.py", tmp_path / "throneroom_dev")
    shutil.copytree(ROOT / "proto", tmp_path / "proto")
    shutil.copytree(ROOT / GENERATED, tmp_path / GENERATED, ignore=shutil.ignore_patterns("__py*"))
    return tmp_path


def gen_proto(tree: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(tree / "scripts/gen_proto.py"), *args],
        capture_output=True,
        text=True,
        check=False,
    )


def _same_generated(tree: Path) -> bool:
    names = sorted(p.name for p in (ROOT / GENERATED).iterdir() if p.is_file())
    _, mismatch, errors = filecmp.cmpfiles(ROOT / GENERATED, tree / GENERATED, names, shallow=False)
    return not mismatch and not errors


def test_the_check_passes_on_a_faithful_copy(tree: Path) -> None:
    done = gen_proto(tree, "--check")
    assert done.returncode == 0, done.stderr


def test_the_check_reports_an_edited_entry_and_make_proto_restores_it(tree: Path) -> None:
    game = LAST_GAME
    entry = f"    {game.prefix}Move {game.name} = {game.number};\n"
    assert entry in TEXT
    (tree / GAME_PROTO).write_text(TEXT.replace(entry, entry.replace(" = ", " = 1")))
    done = gen_proto(tree, "--check")
    assert done.returncode == 1
    assert re.search(r"game\.proto:\d+: Move's entries differ from the games block", done.stderr)
    assert "GameOptions" not in done.stderr
    done = gen_proto(tree)
    assert done.returncode == 0, done.stderr
    assert (tree / GAME_PROTO).read_text() == TEXT
    assert _same_generated(tree), "make proto changed the generated modules"


def test_the_check_reports_a_block_line_without_its_entries(tree: Path) -> None:
    (tree / GAME_PROTO).write_text(_with_line(f"//   duel Duel {NEW_NUMBER}"))
    done = gen_proto(tree, "--check")
    assert done.returncode == 1
    assert re.findall(r"game\.proto:\d+: (.*) differ from the games block", done.stderr) == [
        "the games' imports",
        *(f"{envelope}'s entries" for envelope in game_proto.ENVELOPES),
    ]


def test_a_malformed_block_fails_and_writes_nothing(tree: Path) -> None:
    planted = _with_line("//   duel Duel 100")
    (tree / GAME_PROTO).write_text(planted)
    for args in (("--check",), ()):
        done = gen_proto(tree, *args)
        assert done.returncode == 1
        assert "duel's number 100 is already clock's" in done.stderr
    assert (tree / GAME_PROTO).read_text() == planted


def test_the_check_still_reports_stale_modules(tree: Path) -> None:
    stub = tree / GENERATED / "game_pb2.pyi"
    stub.write_text(stub.read_text() + "# edited\n")
    done = gen_proto(tree, "--check")
    assert done.returncode == 1
    assert "generated code is stale" in done.stderr
    assert "game_pb2.pyi" in done.stderr
