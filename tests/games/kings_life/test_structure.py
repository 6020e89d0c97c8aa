"""The engine's shape: its modules form an acyclic import graph, and the
phases are one table (who acts, which decisions, what follows) that the
engine really follows."""

from __future__ import annotations

import ast
import dataclasses
from pathlib import Path

import pytest
import throneroom_server.games.kings_life as package
from throneroom.v1 import kings_life_pb2 as pb
from throneroom_server.games.kings_life import KingsLife, phases
from throneroom_server.games.kings_life.engine import KINGS_LIFE
from throneroom_server.games.kings_life.steps import Step
from throneroom_server.games.kit import PhaseTable, PhaseTransitionError

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
    table = phases.TABLE
    named = {v: n for v, n in phases.PHASE_NAMES.items() if v != Phase.PHASE_UNSPECIFIED}
    assert sorted(p.name for p in table.phases) == sorted(named.values()), (
        "one row per phase of the enum"
    )
    assert all(table.current(pb.KingsLifeState(phase=v)).name == n for v, n in named.items())
    move_kinds = {f.name for f in pb.KingsLifeMove.DESCRIPTOR.oneofs_by_name["kind"].fields}
    assert table.move_kinds == move_kinds, "every move kind is some phase's decision"
    assert [d.kind for d in phases.DECISIONS] == [k.name for k in ENGINE.definition.moves]
    for phase in table.phases:
        assert phase.name not in phase.follows and phase.ends
        assert bool(phase.moves) == (phase.name != "game_over")
    assert {p.name for p in table.phases if p.simultaneous} == {
        "mulligan",
        "initial_round",
        "queen_window",
    }
    assert set(phases.CONTINUATIONS) == set(Step)


def test_the_engine_follows_the_table() -> None:
    """Who acts and what they may answer come from the table; a phase change
    the table does not list is refused (planted: the Fool's take-back may no
    longer follow the Queen window of the Fool's play)."""
    state = scenario(hands={0: [FOOL, A(HUNT, 2)], 1: [A(HUNT, 3)]})
    assert {m.WhichOneof("kind") for m in ENGINE.legal_moves(state, 0)} == set(
        phases.TABLE["turns"].moves
    )
    rows = tuple(
        dataclasses.replace(row, follows=tuple(f for f in row.follows if f != "fool_take_back"))
        if row.name == "queen_window"
        else row
        for row in phases.TABLE.phases
    )
    planted_table = PhaseTable(phase_of=phases.phase_of, phases=rows, start=phases.TABLE.start)

    class Planted(KingsLife):
        definition = dataclasses.replace(KINGS_LIFE, phases=planted_table)

    planted = Planted()
    after, _ = planted.apply(state, 0, Move(play=pb.KingsLifeMove.Play(card=FOOL)))
    assert after.phase == Phase.PHASE_QUEEN_WINDOW
    with pytest.raises(PhaseTransitionError, match="'fool_take_back', which the table does not"):
        planted.apply(after, 1, Move(queen=Move.Queen()))
    state, _ = play(state, 0, FOOL)
    assert state.phase == Phase.PHASE_FOOL_TAKE_BACK
    assert ENGINE.legal_moves(state, 0)[0] == Move(take_back=Move.TakeBack())
