"""The phase table and the definition are checked when built: each rule below is
broken on purpose and must be refused (the valid table is the control)."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

import pytest
from throneroom.envelopes import GameMessages
from throneroom.v1 import nim_pb2
from throneroom_server.games.kit import (
    MoveKind,
    Option,
    Phase,
    PhaseKind,
    PhaseTable,
    PhaseTableError,
    end,
    simultaneous,
    turn,
)
from throneroom_server.games.nim import NIM

State = nim_pb2.NimState


def _phase(state: State) -> str:
    return "play"


def _seat(state: State) -> int:
    return state.to_move


def _table(*phases: Phase[State], start: tuple[str, ...] = ("play",)) -> PhaseTable[State]:
    return PhaseTable(phase_of=_phase, phases=phases, start=start)


def _play(**changes: Any) -> Phase[State]:
    base = turn("play", seat=_seat, moves=["take"], ends="the pile is empty", follows=["over"])
    return dataclasses.replace(base, **changes)


OVER: Phase[State] = end("over")

BROKEN_TABLES: list[tuple[str, Callable[[], PhaseTable[State]], str]] = [
    ("two phases, one name", lambda: _table(_play(), _play(), OVER), "two phases are named"),
    ("unnamed phase", lambda: _table(_play(name=""), OVER, start=("",)), "needs a name"),
    ("unknown successor", lambda: _table(_play(follows=("nowhere",)), OVER), "no phase"),
    ("no end phase", lambda: _table(_play(follows=())), "no end phase"),
    ("a phase without moves", lambda: _table(_play(moves=()), OVER), "must allow a move"),
    ("a move kind twice", lambda: _table(_play(moves=("take", "take")), OVER), "twice"),
    ("what ends it unsaid", lambda: _table(_play(ends=" "), OVER), "what ends it"),
    ("epoch on a turn", lambda: _table(_play(epoch=lambda s: 0), OVER), "epoch"),
    ("no start", lambda: _table(_play(), OVER, start=()), "start"),
    ("unknown start", lambda: _table(_play(), OVER, start=("begin",)), "start phase"),
    (
        "unreachable phase",
        lambda: _table(_play(), OVER, _play(name="island", follows=("over",))),
        "reaches the phases ['island']",
    ),
    (
        "a phase that never ends",
        lambda: _table(
            _play(follows=("over", "loop")), OVER, _play(name="loop", follows=("loop",))
        ),
        "never lead to an end",
    ),
]


def test_a_valid_table_builds_and_describes_itself() -> None:
    table = _table(_play(), OVER)
    assert table["play"].kind is PhaseKind.TURN and table["over"].over
    assert table.allows("play", "over") and table.allows("play", "play")
    assert not table.allows("over", "play")
    assert table.move_kinds == {"take"} and not table.has_simultaneous
    assert "| play | turn | take | the pile is empty | over |" in table.describe()


@pytest.mark.parametrize(
    ("broken", "words"),
    [(b[1], b[2]) for b in BROKEN_TABLES],
    ids=[b[0] for b in BROKEN_TABLES],
)
def test_a_broken_table_is_refused(broken: Callable[[], PhaseTable[State]], words: str) -> None:
    with pytest.raises(PhaseTableError, match=words.replace("[", r"\[").replace("]", r"\]")):
        broken()


def test_simultaneous_phases_list_their_seats_ascending() -> None:
    phase = simultaneous(
        "bid", seats=lambda s: [2, 0, 1], moves=["take"], ends="all bid", follows=["over"]
    )
    assert phase.simultaneous and phase.acting(State()) == (0, 1, 2)
    assert _table(phase, OVER, start=("bid",)).has_simultaneous


def _nim_with(**changes: Any) -> Callable[[], object]:
    return lambda: dataclasses.replace(NIM, **changes)


_take = NIM.moves[0]
BROKEN_DEFINITIONS: list[tuple[str, Callable[[], object], str]] = [
    ("no seats", _nim_with(min_seats=0), "seats"),
    ("fewer max than min seats", _nim_with(min_seats=3, max_seats=2), "seats"),
    (
        "an option that is no field",
        _nim_with(options=(Option("piles", "typo"),)),
        "option 'piles' is no field",
    ),
    ("defaults of another type", _nim_with(default_options=nim_pb2.NimState()), "default_options"),
    (
        "two kinds for a move without oneof",
        _nim_with(moves=(_take, dataclasses.replace(_take, name="grab"))),
        "exactly one move kind",
    ),
    ("a kind twice", _nim_with(moves=(_take, _take)), "two move kinds are named"),
    (
        "a phase allows an unknown kind",
        _nim_with(moves=(dataclasses.replace(_take, name="grab"),)),
        "allows 'take', which is no move kind",
    ),
]


def test_nim_itself_builds() -> None:
    rebuilt = dataclasses.replace(NIM)
    assert rebuilt.info == NIM.info and rebuilt.kinds.keys() == {"take"}


@pytest.mark.parametrize(
    ("broken", "words"),
    [(b[1], b[2]) for b in BROKEN_DEFINITIONS],
    ids=[b[0] for b in BROKEN_DEFINITIONS],
)
def test_a_broken_definition_is_refused(broken: Callable[[], object], words: str) -> None:
    with pytest.raises(PhaseTableError, match=words):
        broken()


def test_move_kinds_must_match_the_move_oneof() -> None:
    from tests.games.kit_games import SETTLERS

    missing = tuple(k for k in SETTLERS.moves if k.name != "summon")
    with pytest.raises(PhaseTableError, match=r"\['summon'\] have no MoveKind"):
        dataclasses.replace(SETTLERS, moves=missing)
    stray = MoveKind("dance", generate=lambda s, seat: (), play=lambda s, seat, m, e: None)
    with pytest.raises(PhaseTableError, match="'dance' is no field of the oneof"):
        dataclasses.replace(SETTLERS, moves=(*SETTLERS.moves, stray))
    settle, _, over = SETTLERS.phases.phases
    table = PhaseTable(phase_of=SETTLERS.phases.phase_of, phases=(settle, over), start=("settle",))
    with pytest.raises(PhaseTableError, match="no phase allows the move kind"):
        dataclasses.replace(SETTLERS, phases=table)


def test_messages_must_be_the_game_proto_entries() -> None:
    with pytest.raises(TypeError, match=r"GameState\.nim is a throneroom\.v1\.NimState"):
        GameMessages(
            "nim",
            nim_pb2.NimOptions,
            nim_pb2.NimView,
            nim_pb2.NimMove,
            nim_pb2.NimEvent,
            nim_pb2.NimView,
        )
    with pytest.raises(TypeError, match="no entry named 'chess'"):
        GameMessages(
            "chess",
            nim_pb2.NimOptions,
            nim_pb2.NimState,
            nim_pb2.NimMove,
            nim_pb2.NimEvent,
            nim_pb2.NimView,
        )


def test_info_is_derived_from_the_definition() -> None:
    from tests.games.kit_games import SEALED

    info = NIM.info
    assert (info.name, info.min_seats, info.max_seats) == ("nim", 2, 4)
    assert info.hidden_information and info.chance and not info.simultaneous_decisions
    assert [(o.name, o.default) for o in info.options] == [("pile", "21"), ("max_take", "3")]
    assert SEALED.info.simultaneous_decisions, "a simultaneous phase makes a simultaneous game"


def test_a_kind_without_a_generator_needs_a_phase_generator() -> None:
    bare = dataclasses.replace(_take, generate=None)
    with pytest.raises(PhaseTableError, match="'take' has no generator, and phase 'take'"):
        dataclasses.replace(NIM, moves=(bare,))
    with pytest.raises(PhaseTableError, match="`ordered` describes the phase's generator"):
        _table(_play(ordered=True), OVER)
    listed = _play(generate=_take.generate, name="take", follows=("over",))
    table = PhaseTable(phase_of=NIM.phases.phase_of, phases=(listed, OVER), start=("take",))
    rebuilt = dataclasses.replace(NIM, moves=(bare,), phases=table)
    assert rebuilt.kinds["take"].generate is None
