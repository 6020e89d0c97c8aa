"""Each game's exported definition is the object its engine runs.

The kit binds what reads an engine's memo (``kit.fast``) inside the engine
(``Engine.running``); the engine's ``definition`` stays the declared object,
and ``running`` differs from it only by those bindings.
"""

from __future__ import annotations

import dataclasses
from functools import partial
from types import MethodType
from typing import Any

import pytest
from throneroom_server.games.kill_the_king.engine import KILL_THE_KING, KillTheKing
from throneroom_server.games.king_is_dead.engine import KING_IS_DEAD, KingIsDead
from throneroom_server.games.kings_life.engine import KINGS_LIFE, KingsLife
from throneroom_server.games.kit import Engine, GameDefinition, memoized
from throneroom_server.games.kit.fast import Memoized, memoized_functions
from throneroom_server.games.kit.phases import PhaseTableError
from throneroom_server.games.nim import NIM, Nim
from throneroom_server.games.registry import build_registry

DECLARED: list[
    tuple[type[Engine[Any, Any, Any, Any, Any]], GameDefinition[Any, Any, Any, Any, Any]]
] = [
    (KillTheKing, KILL_THE_KING),
    (KingIsDead, KING_IS_DEAD),
    (KingsLife, KINGS_LIFE),
    (Nim, NIM),
]


@pytest.mark.parametrize(
    ("engine_type", "declared"), DECLARED, ids=lambda x: getattr(x, "name", "")
)
def test_the_engine_runs_the_exported_definition(
    engine_type: type[Engine[Any, Any, Any, Any, Any]],
    declared: GameDefinition[Any, Any, Any, Any, Any],
) -> None:
    engine = engine_type()
    assert engine.definition is declared
    assert type(engine).definition is declared
    running = engine.running
    if not memoized_functions(declared):
        assert running is declared
        return
    # Running differs from the declaration by the memo's bindings alone.
    assert running.phases.describe() == declared.phases.describe()
    assert [k.name for k in running.moves] == [k.name for k in declared.moves]
    for ran, kind in zip(running.moves, declared.moves, strict=True):
        for name in ("play", "generate", "narrow", "explain", "member"):
            wanted = getattr(kind, name)
            got = getattr(ran, name)
            if isinstance(wanted, Memoized):
                # A plain function is bound as a method of the memo, a declared
                # partial as a partial: either way, the declared function on
                # this engine's memo.
                if isinstance(got, MethodType):
                    assert got.__func__ is wanted.function and got.__self__ is engine.memo
                else:
                    before = getattr(wanted.function, "args", ())  # a declared partial's own
                    assert isinstance(got, partial) and got.args[len(before)] is engine.memo
                    assert got.func is getattr(wanted.function, "func", wanted.function)
            else:
                assert got is wanted, (kind.name, name)
    assert memoized_functions(running) == []
    assert engine_type().running is not running  # each engine binds its own memo


def test_every_registered_kit_game_is_declared_here() -> None:
    registry = build_registry(include_fixtures=True)
    kit_games = {name for name, game in registry.items() if isinstance(game, Engine)}
    assert kit_games <= {declared.name for _, declared in DECLARED}


def test_a_memoized_function_is_called_through_an_engine_only() -> None:
    def listing(memo: object, state: object, seat: int) -> list[object]:
        return []

    declared = memoized(listing)
    with pytest.raises(TypeError, match="reads an engine's memo"):
        declared(None, 0)


def test_a_definition_reading_a_memo_declares_one() -> None:
    without = dataclasses.replace(KILL_THE_KING.fast, memo=None)
    with pytest.raises(PhaseTableError, match="read a memo, and fast has none"):
        dataclasses.replace(KILL_THE_KING, fast=without)


def test_setting_the_definition_binds_again() -> None:
    engine = KingIsDead()
    before = engine.running
    engine.definition = dataclasses.replace(KING_IS_DEAD, title="Another")
    assert engine.running is not before
    assert engine.running.title == "Another"
