"""The engine's shape: its modules form an acyclic import graph, and the
phases are one table (who acts, which decisions, what follows) that the
engine really follows."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
import throneroom_server.games.kings_life as package
from throneroom.v1 import kings_life_pb2 as pb
from throneroom_server.games.kings_life import phases
from throneroom_server.games.kings_life.steps import Step

from .helpers import ENGINE, FOOL, HUNT, A, Move, Phase, play, scenario

PACKAGE = "throneroom_server.games.kings_life"


def import_graph(directory: Path, package_name: str) -> dict[str, set[str]]:
    """module -> the package's modules it imports (any form of import)."""
    modules = {p.stem for p in directory.glob("*.py")}
    graph: dict[str, set[str]] = {}
    for path in directory.glob("*.py"):
        imported: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:  # relative: from . import x / from .x import y
                    base = f"{package_name}.{base}" if base else package_name
                names = [base] + [f"{base}.{alias.name}" for alias in node.names]
            else:
                continue
            for name in names:
                if name.startswith(package_name + "."):
                    head = name[len(package_name) + 1 :].split(".")[0]
                    if head in modules and head != path.stem:
                        imported.add(head)
        graph[path.stem] = imported
    return graph


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """A cycle of the graph (as a path that ends where it starts), or None."""
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return [*stack[stack.index(nxt) :], nxt]
            if nxt not in state and (cycle := visit(nxt)):
                return cycle
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state and (cycle := visit(node)):
            return cycle
    return None


def test_the_package_has_no_import_cycle() -> None:
    graph = import_graph(Path(package.__file__).parent, PACKAGE)
    assert "engine" in graph and graph["phases"], "the graph was read"
    assert find_cycle(graph) is None, f"import cycle: {' -> '.join(find_cycle(graph) or [])}"


def test_the_cycle_check_catches_a_cycle(tmp_path: Path) -> None:
    """The check itself, on a planted cycle (a -> b -> c -> a, c importing
    relatively and through 'from package import a')."""
    (tmp_path / "a.py").write_text(f"from {PACKAGE}.b import x\n")
    (tmp_path / "b.py").write_text("from . import c\n")
    (tmp_path / "c.py").write_text(f"from {PACKAGE} import a\nimport os\n")
    (tmp_path / "d.py").write_text(f"import {PACKAGE}.a\n")
    graph = import_graph(tmp_path, PACKAGE)
    assert graph == {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert find_cycle(graph) == ["a", "b", "c", "a"]


def test_the_phase_table_covers_every_phase_and_decision() -> None:
    phase_values = set(Phase.Phase.values()) - {Phase.PHASE_UNSPECIFIED}
    assert set(phases.PHASES) == phase_values
    move_kinds = {f.name for f in pb.KingsLifeMove.DESCRIPTOR.oneofs_by_name["kind"].fields}
    used = {kind for rule in phases.PHASES.values() for kind in rule.decisions}
    assert used == move_kinds, "every move kind is some phase's decision"
    for phase, rule in phases.PHASES.items():
        assert rule.follows <= phase_values and phase not in rule.follows
        assert rule.text and rule.ends
        assert bool(rule.decisions) == (phase != Phase.PHASE_GAME_OVER)
    assert set(phases.CONTINUATIONS) == set(Step)


def test_the_engine_follows_the_table(monkeypatch: pytest.MonkeyPatch) -> None:
    """Who acts and what they may answer come from the table; a phase change
    the table does not list is refused (planted: the Fool's take-back may no
    longer follow a turn)."""
    state = scenario(hands={0: [FOOL, A(HUNT, 2)], 1: [A(HUNT, 3)]})
    assert {m.WhichOneof("kind") for m in ENGINE.legal_moves(state, 0)} == set(
        phases.PHASES[Phase.PHASE_TURNS].decisions
    )
    rules = dict(phases.PHASES)
    turns = rules[Phase.PHASE_TURNS]
    window = rules[Phase.PHASE_QUEEN_WINDOW]
    for phase, rule in ((Phase.PHASE_TURNS, turns), (Phase.PHASE_QUEEN_WINDOW, window)):
        rules[phase] = phases.PhaseRule(
            text=rule.text,
            simultaneous=rule.simultaneous,
            decisions=rule.decisions,
            ends=rule.ends,
            follows=rule.follows - {Phase.PHASE_FOOL_TAKE_BACK},
        )
    monkeypatch.setattr(phases, "PHASES", rules)
    with pytest.raises(AssertionError, match="PHASE_FOOL_TAKE_BACK cannot follow"):
        play(state, 0, FOOL)
    monkeypatch.undo()
    state, _ = play(state, 0, FOOL)
    assert state.phase == Phase.PHASE_FOOL_TAKE_BACK
    assert ENGINE.legal_moves(state, 0)[0] == Move(take_back=Move.TakeBack())
