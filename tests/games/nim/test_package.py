"""Nim's server package: the registered engine runs the exported definition,
and the package holds its board."""

from __future__ import annotations

from importlib import resources

from throneroom_server.games import nim
from throneroom_server.games.nim import rules
from throneroom_server.games.registry import ENGINES, build_registry


def test_the_registered_engine_runs_the_exported_definition() -> None:
    engine = build_registry(include_fixtures=True)["nim"]
    assert isinstance(engine, nim.Nim)
    assert engine.definition is nim.NIM


def test_the_definition_declares_the_rules_functions() -> None:
    (take,) = nim.NIM.moves
    assert take.generate is rules.take_moves and take.play is rules.take
    assert nim.NIM.setup is rules.setup and nim.NIM.view is rules.view


def test_one_registry_line_per_game() -> None:
    names = [entry.rpartition(":")[2] for entry in ENGINES]
    assert len(set(ENGINES)) == len(ENGINES) == len(build_registry(include_fixtures=True))
    assert "Nim" in names


def test_the_package_holds_its_board() -> None:
    board = resources.files("throneroom_server.games.nim") / "board.js"
    assert b"export default" in board.read_bytes()
