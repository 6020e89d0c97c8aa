"""The kit's fast paths give the answers of the plain definitions they stand for:
the specialised enum check (``messages.enum_checker``) finds what the
descriptor walk (``undeclared_enum``) finds; ``Phase.is_asked`` is membership
in ``acting``; ordered kinds come out in key order whether their lists follow
each other (concatenated) or interleave (merged); the effect plays the
enumeration's own copy of the move."""

from __future__ import annotations

import dataclasses
import operator
import random
from collections.abc import Iterator
from typing import Any

import pytest
from google.protobuf.message import Message
from throneroom.v1 import common_pb2, nim_pb2
from throneroom.v1 import king_is_dead_pb2 as kid
from throneroom.v1 import kings_life_pb2 as kl
from throneroom_server.games.core import IllegalMoveError, InvalidMoveError
from throneroom_server.games.kit import (
    Engine,
    Fast,
    Phase,
    PhaseKind,
    PhaseTableError,
    derived_key,
)
from throneroom_server.games.kit.checks import (
    enum_refusal_problems,
    narrowing_problems,
    plant_undeclared_enum,
    playout_states,
    seat_view_problems,
)
from throneroom_server.games.kit.messages import enum_checker, undeclared_enum
from throneroom_server.games.nim import NIM, Nim
from throneroom_server.games.registry import build_registry
from throneroom_server.games.rng import Rng, seed_rng

from tests.games.kit_games import SETTLERS, SealedTakes, Settlers, Snap, free_regions, passes

KidMove = kid.KingIsDeadMove

# --- the enum check ---------------------------------------------------------------------


def _planted(message: Message, rng: random.Random) -> Message:
    """A copy of ``message`` with an undeclared value planted in one of its enum
    fields at any depth (singular, repeated, inside repeated messages), or the
    copy as it is when the message has none."""
    copy = type(message)()
    copy.CopyFrom(message)
    spots: list[tuple[Message, Any]] = []

    def collect(node: Message) -> None:
        for field in node.DESCRIPTOR.fields:
            if field.type == field.TYPE_ENUM:
                spots.append((node, field))
            elif field.type == field.TYPE_MESSAGE and not field.message_type.GetOptions().map_entry:
                children = getattr(node, field.name)
                for child in children if field.is_repeated else [children]:
                    collect(child)

    collect(copy)
    if spots:
        node, field = rng.choice(spots)
        bad = max(field.enum_type.values_by_number) + 1 + rng.randrange(50)
        if field.is_repeated:
            values = getattr(node, field.name)
            if values and rng.random() < 0.5:
                values[rng.randrange(len(values))] = bad
            else:
                values.append(bad)
        else:
            setattr(node, field.name, bad)
    return copy


def _messages() -> Iterator[Message]:
    """States and legal moves of King's Life, King Is Dead and Kill the King
    (nested and repeated enums, oneofs, optional fields)."""
    games = build_registry()
    for game in (games["kings_life"], games["king_is_dead"], games["kill_the_king"]):
        for state in playout_states(game, game.default_options(), game.info.min_seats, 3):
            yield state
            for seat in game.to_act(state):
                yield from list(game.legal_moves(state, seat))[:3]


def test_the_specialised_enum_check_finds_what_the_walk_finds() -> None:
    rng = random.Random(5)
    found = 0
    for message in _messages():
        check = enum_checker(type(message))
        assert check(message) is None and undeclared_enum(message) is None
        planted = _planted(message, rng)
        assert check(planted) == undeclared_enum(planted), planted
        found += undeclared_enum(planted) is not None
    assert found > 200


def test_the_enum_check_names_the_path_of_a_nested_value() -> None:
    play = kl.KingsLifeMove(play=kl.KingsLifeMove.Play(card=5, token_day=9))  # type: ignore[arg-type]
    assert enum_checker(kl.KingsLifeMove)(play) == "play.token_day = 9 (not a Day)"
    state = kl.KingsLifeState()
    state.players.add().days_won.extend([1, 12])  # type: ignore[list-item]
    assert enum_checker(kl.KingsLifeState)(state) == "players.days_won = 12 (not a Day)"
    assert enum_checker(nim_pb2.NimMove)(nim_pb2.NimMove(take=3)) is None


# --- who is asked -------------------------------------------------------------------------


KIT_ENGINES = [
    *(g for g in build_registry(include_fixtures=True).values() if isinstance(g, Engine)),
    SealedTakes(),
    Snap(),
    Settlers(),
]


@pytest.mark.parametrize("game", KIT_ENGINES, ids=lambda g: type(g).__name__)
def test_is_asked_is_membership_in_acting(game: Any) -> None:
    seats = game.info.min_seats
    checked = 0
    for state in playout_states(game, game.default_options(), seats, 2, limit=150):
        phase = game.phase(state)
        for seat in range(-1, seats + 1):
            assert phase.is_asked(state, seat) == (seat in phase.acting(state))
            checked += 1
    assert checked > 20


def _table_to_act(game: Any, state: Any) -> tuple[int, ...]:
    """``to_act`` read from the phase table (what ``one_turn`` stands for)."""
    return tuple(game.phase(state).acting(state))


@pytest.mark.parametrize("game", KIT_ENGINES, ids=lambda g: type(g).__name__)
def test_one_turn_answers_what_the_phase_table_answers(game: Any) -> None:
    # to_act and legal_moves of a one-turn game skip the phase: the same answers
    # as the table's, in every state of playouts (the end included), every seat.
    d = game.definition
    if d.one_turn is None:
        return
    checked = 0
    for seats in (d.min_seats, d.max_seats):
        for state in playout_states(game, game.default_options(), seats, 5, limit=300):
            phase = game.phase(state)
            assert game.to_act(state) == _table_to_act(game, state)
            for seat in range(-1, seats + 1):
                listed = list(game.legal_moves(state, seat))
                if phase.over or not phase.is_asked(state, seat):
                    assert listed == []
                elif phase.generate is not None:
                    assert listed == list(phase.generate(state, seat))
                else:
                    kinds = d.phase_kinds[phase.name]
                    moves = [m for kind in kinds for m in kind.generate(state, seat)]
                    assert listed == sorted(moves, key=d.move_key)
                checked += 1
    assert checked > 100


def test_one_turn_is_derived_only_for_one_seat_function_and_generator() -> None:
    registry = build_registry(include_fixtures=True)
    assert registry["king_is_dead"].definition.one_turn is not None  # type: ignore[union-attr]
    assert registry["nim"].definition.one_turn is not None  # type: ignore[union-attr]
    # King's Life has simultaneous phases; Kill the King's turns have no shared generator.
    assert registry["kings_life"].definition.one_turn is None  # type: ignore[union-attr]
    assert registry["kill_the_king"].definition.one_turn is None  # type: ignore[union-attr]


def test_a_phase_built_without_asks_reads_acting() -> None:
    phase: Phase[nim_pb2.NimState] = Phase(
        "take", PhaseKind.TURN, lambda state: (state.to_move,), ("take",), "empty", ()
    )
    state = nim_pb2.NimState(to_move=1)
    assert phase.is_asked(state, 1) and not phase.is_asked(state, 0)
    assert not phase.simultaneous and not phase.over


# --- ordered kinds ------------------------------------------------------------------------


def _interleaved_key(move: KidMove) -> tuple[int, ...]:
    """Passes sort between the second and the third region."""
    return (2, 5) if move.HasField("pass_turn") else (move.settle.region, 0)


@pytest.mark.parametrize("order", [("settle", "pass_turn"), ("pass_turn", "settle")])
@pytest.mark.parametrize("key", [derived_key, _interleaved_key], ids=["follows", "interleaves"])
def test_ordered_kinds_come_out_in_key_order(order: tuple[str, str], key: Any) -> None:
    """Lists of ordered kinds that follow each other are joined; lists that do not
    (the phase names the later kind first, or their keys interleave) are merged."""
    settle, never, over = SETTLERS.phases.phases
    table = dataclasses.replace(
        SETTLERS.phases, phases=(dataclasses.replace(settle, moves=order), never, over)
    )
    kinds = tuple(
        dataclasses.replace(k, ordered=True) if k.name in order else k for k in SETTLERS.moves
    )

    class Ordered(Settlers):
        definition = dataclasses.replace(SETTLERS, phases=table, moves=kinds, move_key=key)

    game = Ordered()
    state = game.setup(game.default_options(), 2, 1)
    listed = list(game.legal_moves(state, 0))
    every = [*passes(state, 0), *free_regions(state, 0)]
    assert listed == sorted(every, key=key) and len(listed) == 4
    if key is _interleaved_key:
        assert [m.WhichOneof("decision") for m in listed] == [
            "settle",
            "settle",
            "pass_turn",
            "settle",
        ]


# --- the enumeration's own copy ---------------------------------------------------------


def test_the_effect_plays_the_enumerations_copy_of_the_move() -> None:
    listed: list[nim_pb2.NimMove] = []
    played: list[nim_pb2.NimMove] = []
    take = NIM.moves[0]

    def narrow(state: nim_pb2.NimState, seat: int, move: nim_pb2.NimMove) -> list[Any]:
        listed[:] = list(take.narrow(state, seat, move))  # type: ignore[misc]
        return listed

    def play(state: nim_pb2.NimState, seat: int, move: nim_pb2.NimMove, events: Any) -> None:
        played.append(move)
        take.play(state, seat, move, events)

    class Watched(Nim):
        definition = dataclasses.replace(
            NIM, moves=(dataclasses.replace(take, narrow=narrow, play=play),)
        )

    game = Watched()
    given = nim_pb2.NimMove(take=2)
    game.apply(game.setup(game.default_options(), 2, 1), 0, given)
    assert played == [given] and played[0] is listed[0] and played[0] is not given


# --- membership answered by the game (MoveKind.member) ----------------------------------


def _nim_with_member(member: Any) -> Nim:
    class WithMember(Nim):
        definition = dataclasses.replace(
            NIM, moves=(dataclasses.replace(NIM.moves[0], member=member),)
        )

    return WithMember()


def _exact_member(
    state: nim_pb2.NimState, seat: int, move: nim_pb2.NimMove, checked: object
) -> nim_pb2.NimMove | None:
    return next((m for m in NIM.moves[0].narrow(state, seat, move) if m == move), None)  # type: ignore[misc]


def _lax_member(state: Any, seat: int, move: nim_pb2.NimMove, checked: object) -> Any:
    return nim_pb2.NimMove(take=move.take)  # answers anything asked


def _forgetful_member(state: Any, seat: int, move: Any, checked: object) -> None:
    return None  # refuses legal moves


def _nim_probes() -> list[nim_pb2.NimMove]:
    return [nim_pb2.NimMove(take=n) for n in range(-1, 8)]


def test_member_answers_membership_instead_of_narrow() -> None:
    asked: list[tuple[int, object]] = []

    def member(state: Any, seat: int, move: nim_pb2.NimMove, checked: object) -> Any:
        asked.append((move.take, checked))
        return _exact_member(state, seat, move, checked)

    game = _nim_with_member(member)
    state = game.setup(game.default_options(), 2, 1)
    after, _ = game.apply(state, 0, nim_pb2.NimMove(take=2))
    assert after.pile == state.pile - 2
    assert asked == [(2, None)], "member is asked, with what check_move returned (None)"
    with pytest.raises(IllegalMoveError, match="cannot take 5 stones"):
        game.apply(state, 0, nim_pb2.NimMove(take=5))
    for probe in _nim_probes():
        assert narrowing_problems(game, state, 0, _nim_probes()) == []
        assert game.is_legal(state, 0, probe) == Nim().is_legal(state, 0, probe)


@pytest.mark.parametrize(
    ("member", "found"),
    [(_lax_member, "not that move as the enumeration lists it"), (_forgetful_member, "refuses")],
)
def test_a_member_that_is_not_membership_is_caught(member: Any, found: str) -> None:
    game = _nim_with_member(member)
    state = game.setup(game.default_options(), 2, 3)
    problems = narrowing_problems(game, state, 0, _nim_probes())
    assert problems and all(found in p for p in problems), problems


def test_member_is_handed_what_check_move_returned() -> None:
    game = build_registry()["king_is_dead"]
    assert isinstance(game, Engine)
    seen: list[object] = []
    kinds = tuple(
        dataclasses.replace(
            k,
            member=lambda s, seat, m, checked, k=k: (
                seen.append(checked) or k.member(s, seat, m, checked)
            ),
        )
        for k in game.running.moves  # bound to this engine's memo
    )
    game.definition = dataclasses.replace(game.running, moves=kinds)  # this object only
    state = game.setup(game.default_options(), 3, 1)
    move = game.legal_moves(state, 0)[1]
    game.apply(state, 0, move)
    assert seen == [game.definition.check_move(state, move)]
    assert seen[0] == (move.WhichOneof("decision"), game.move_key(move))  # kind and key


# --- check_move_refuses_enums -----------------------------------------------------------


def _promising() -> list[Engine]:  # type: ignore[type-arg]
    return [
        g
        for g in build_registry(include_fixtures=True).values()
        if isinstance(g, Engine) and g.definition.fast.check_move_refuses_enums
    ]


def test_some_game_promises_that_check_move_refuses_undeclared_enums() -> None:
    assert [g.name for g in _promising()] == ["king_is_dead", "kings_life"]
    assert not any(g.definition.walk_enums for g in _promising())
    assert Settlers().definition.walk_enums, "no promise: the kit walks the move"


@pytest.mark.parametrize("game", _promising(), ids=lambda g: g.name)
def test_a_game_promising_it_keeps_the_promise(game: Any) -> None:
    stream = common_pb2.RngState()
    seed_rng(stream, 7)
    rng = Rng(stream)
    checked = 0
    for seats in range(game.info.min_seats, game.info.max_seats + 1):
        for state in playout_states(game, game.default_options(), seats, seats, limit=120):
            for seat in game.to_act(state):
                moves = list(game.legal_moves(state, seat))[:6]
                assert enum_refusal_problems(game, state, moves, rng) == []
                for move in moves:
                    planted = plant_undeclared_enum(move, rng)
                    if planted is not None and undeclared_enum(planted) is not None:
                        with pytest.raises(InvalidMoveError):
                            game.apply(state, seat, planted)
                        checked += 1
    assert checked > 50


def test_a_broken_promise_is_caught() -> None:
    from throneroom_server.games.king_is_dead.moves import move_key

    game = build_registry()["king_is_dead"]
    assert isinstance(game, Engine)
    game.definition = dataclasses.replace(  # this object only: check_move misses enums
        game.definition, check_move=lambda state, move: move_key(move)
    )
    stream = common_pb2.RngState()
    seed_rng(stream, 3)
    state = game.setup(game.default_options(), 2, 1)
    moves = list(game.legal_moves(state, 0))
    problems = enum_refusal_problems(game, state, moves, Rng(stream))
    assert problems and "yet check_move lets through" in problems[0], problems


def test_the_promise_needs_a_check_move() -> None:
    with pytest.raises(PhaseTableError, match="needs a check_move"):
        dataclasses.replace(SETTLERS, check_move=None, fast=Fast(check_move_refuses_enums=True))


# --- the kind check_move read (Fast.kind_of_checked) --------------------------


def _nim_naming(named: str) -> Nim:
    """Nim whose check_move also returns a kind name (``named``), declared as the
    move's kind through ``kind_of_checked``."""
    check = NIM.check_move

    def check_move(state: Any, move: nim_pb2.NimMove) -> tuple[str, object]:
        return named, check(state, move) if check is not None else None

    class Naming(Nim):
        definition = dataclasses.replace(
            NIM, check_move=check_move, fast=Fast(kind_of_checked=operator.itemgetter(0))
        )

    return Naming()


def test_the_kind_check_move_read_stands_for_the_oneof() -> None:
    game = _nim_naming(NIM.moves[0].name)
    state = game.setup(game.default_options(), 2, 1)
    assert game.apply(state, 0, nim_pb2.NimMove(take=2)) == Nim().apply(
        state, 0, nim_pb2.NimMove(take=2)
    )
    assert narrowing_problems(game, state, 0, _nim_probes()) == []


def test_a_kind_of_checked_naming_another_kind_is_caught() -> None:
    game = _nim_naming("elsewhere")
    state = game.setup(game.default_options(), 2, 1)
    problems = narrowing_problems(game, state, 0, _nim_probes())
    assert problems and all("kind_of_checked names 'elsewhere'" in p for p in problems), problems


def test_kind_of_checked_needs_a_check_move() -> None:
    with pytest.raises(PhaseTableError, match="kind_of_checked needs a check_move"):
        dataclasses.replace(NIM, check_move=None, fast=Fast(kind_of_checked=operator.itemgetter(0)))


def test_king_is_dead_reads_the_kind_once() -> None:
    """The King Is Dead declares kind_of_checked (its check_move reads the oneof);
    test_definition.py proves it over playouts with narrowing_problems."""
    assert build_registry()["king_is_dead"].definition.fast.kind_of_checked is not None


# --- seat_view ------------------------------------------------------------------------


def _sharing() -> list[Engine]:  # type: ignore[type-arg]
    return [
        g
        for g in build_registry(include_fixtures=True).values()
        if isinstance(g, Engine) and g.definition.fast.seat_view is not None
    ]


def test_some_game_shares_its_spectator_view() -> None:
    assert "king_is_dead" in [g.name for g in _sharing()]


@pytest.mark.parametrize("game", _sharing(), ids=lambda g: g.name)
def test_a_game_sharing_views_keeps_the_promise(game: Any) -> None:
    checked = 0
    for variant in game.testing.variants or [None]:
        seats = variant.seats if variant is not None else game.info.min_seats
        options = game.default_options()
        for name, value in variant.options if variant is not None else ():
            setattr(options, name, value)
        for state in playout_states(game, options, seats, seats, limit=200):
            assert seat_view_problems(game, state) == []
            checked += 1
    assert checked > 100


def test_a_seat_view_that_forgets_the_hand_is_caught() -> None:
    game = build_registry()["king_is_dead"]
    assert isinstance(game, Engine)

    def careless(state: Any, seat: int, view: Any) -> None:
        view.viewer = seat  # and no hand

    game.definition = dataclasses.replace(
        game.definition, fast=dataclasses.replace(game.definition.fast, seat_view=careless)
    )  # this object only
    state = game.setup(game.default_options(), 2, 1)
    problems = seat_view_problems(game, state)
    assert len(problems) == 2 and "seat 0" in problems[0], problems


def test_a_seat_view_that_replaces_instead_of_adding_is_caught() -> None:
    """Right on the spectator's view, yet not only adding (it rewrites a
    repeated field the spectator's view holds): the service's bytes, the
    spectator's followed by the seat's part, would hold that field twice."""
    game = build_registry()["king_is_dead"]
    assert isinstance(game, Engine)
    original = game.definition.fast.seat_view
    assert original is not None

    def rewriting(state: Any, seat: int, view: Any) -> None:
        original(state, seat, view)
        seats = [s.SerializeToString() for s in view.seats]
        del view.seats[:]
        for data in seats or [s.SerializeToString() for s in game.view(state, None).seats]:
            view.seats.add().MergeFromString(data)

    game.definition = dataclasses.replace(
        game.definition, fast=dataclasses.replace(game.definition.fast, seat_view=rewriting)
    )  # this object only
    state = game.setup(game.default_options(), 2, 1)
    problems = seat_view_problems(game, state)
    assert len(problems) == 2 and "does not only add" in problems[0], problems
