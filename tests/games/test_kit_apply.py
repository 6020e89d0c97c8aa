"""The one checked apply: a move is legal exactly when the enumeration lists it;
each way of being refused raises its own error and changes nothing."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator

import pytest
from throneroom.v1 import king_is_dead_pb2 as kid
from throneroom.v1 import nim_pb2
from throneroom_server.games.core import (
    GameError,
    GameFinishedError,
    IllegalMoveError,
    InvalidMoveError,
    NotYourTurnError,
)
from throneroom_server.games.kit import Engine, PhaseTable, PhaseTransitionError, end, turn
from throneroom_server.games.kit.checks import narrowing_problems, playout_states
from throneroom_server.games.nim import NIM, Nim

from tests.games.kit_games import Settlers

Move = nim_pb2.NimMove
KidMove = kid.KingIsDeadMove


def _refused(engine: Engine, state: object, seat: int, move: object) -> GameError:  # type: ignore[type-arg]
    before = state.SerializeToString()  # type: ignore[attr-defined]
    with pytest.raises(GameError) as caught:
        engine.apply(state, seat, move)
    assert state.SerializeToString() == before, "a refused move changed the state"  # type: ignore[attr-defined]
    return caught.value


def test_each_refusal_of_nim_has_its_error() -> None:
    nim = Nim()
    state = nim.setup(nim.default_options(), 3, 1)
    empty = _refused(nim, state, 0, Move())
    assert type(empty) is InvalidMoveError and "at least one stone" in empty.message
    assert type(_refused(nim, state, 0, Move(take=-2))) is InvalidMoveError
    assert type(_refused(nim, state, 3, Move(take=1))) is InvalidMoveError, "no seat 3"
    turn_error = _refused(nim, state, 1, Move(take=1))
    assert type(turn_error) is NotYourTurnError and "seat 0's turn" in turn_error.message
    illegal = _refused(nim, state, 0, Move(take=4))
    assert type(illegal) is IllegalMoveError
    assert illegal.message == "cannot take 4 stones: 21 left, at most 3"
    last = nim.setup(nim_pb2.NimOptions(pile=2), 2, 1)
    over, _ = nim.apply(last, 0, Move(take=2))
    finished = _refused(nim, over, 1, Move(take=1))
    assert type(finished) is GameFinishedError and "took the last stone" in finished.message


def test_each_refusal_of_a_game_with_move_kinds_has_its_error() -> None:
    game = Settlers()
    state = game.setup(game.default_options(), 2, 1)
    empty = _refused(game, state, 0, KidMove())
    assert type(empty) is InvalidMoveError and "set one of: settle, pass_turn" in empty.message
    undeclared = _refused(game, state, 0, KidMove(settle=KidMove.Settle(region=99)))  # type: ignore[arg-type]
    assert type(undeclared) is InvalidMoveError and "settle.region = 99" in undeclared.message
    wrong_kind = _refused(game, state, 0, KidMove(play_card=KidMove.PlayCard(card=1)))  # type: ignore[arg-type]
    assert type(wrong_kind) is IllegalMoveError
    assert "may play settle or pass_turn now, not play_card" in wrong_kind.message
    state, _ = game.apply(state, 0, KidMove(settle=KidMove.Settle(region=kid.REGION_DEVA)))
    again = _refused(game, state, 1, KidMove(settle=KidMove.Settle(region=kid.REGION_DEVA)))
    assert type(again) is IllegalMoveError
    assert again.message == f"region {kid.REGION_DEVA} is settled already"


def test_without_an_explanation_the_kit_says_which_move_is_illegal() -> None:
    take = dataclasses.replace(NIM.moves[0], explain=None)

    class Terse(
        Engine[nim_pb2.NimOptions, nim_pb2.NimState, Move, nim_pb2.NimEvent, nim_pb2.NimView]
    ):
        definition = dataclasses.replace(NIM, moves=(take,))

    game = Terse()
    error = _refused(game, game.setup(game.default_options(), 2, 1), 0, Move(take=9))
    assert error.message == "Nim (fixture), take: take: 9 is not a legal move of seat 0"


def _probes(game: Engine) -> list[object]:  # type: ignore[type-arg]
    if isinstance(game, Settlers):
        regions = [*range(0, 10)]
        return [
            KidMove(),
            KidMove(pass_turn=KidMove.Pass()),
            KidMove(play_card=KidMove.PlayCard(card=1)),  # type: ignore[arg-type]
            *(KidMove(settle=KidMove.Settle(region=r)) for r in regions),  # type: ignore[arg-type]
        ]
    return [Move(take=n) for n in range(-1, 8)]


def _legal_exactly_when_listed(game: Engine, seats: int, seeds: range) -> int:  # type: ignore[type-arg]
    checked = 0
    for seed in seeds:
        for state in playout_states(game, game.default_options(), seats, seed, limit=40):
            for seat in range(seats):
                listed = list(game.legal_moves(state, seat))
                for probe in _probes(game) + listed:
                    assert game.is_legal(state, seat, probe) == (probe in listed), (
                        f"seat {seat}, {probe}: apply and the enumeration disagree"
                    )
                    checked += 1
    return checked


@pytest.mark.parametrize(("engine", "seats"), [(Nim, 3), (Settlers, 2)])
def test_a_move_is_legal_exactly_when_the_enumeration_lists_it(
    engine: type[Engine],
    seats: int,  # type: ignore[type-arg]
) -> None:
    assert _legal_exactly_when_listed(engine(), seats, range(4)) > 100


def _lax_narrow(state: nim_pb2.NimState, seat: int, move: Move) -> Iterator[Move]:
    yield Move(take=move.take)  # not derived from the generator: lists anything asked


def _forgetful_narrow(state: nim_pb2.NimState, seat: int, move: Move) -> Iterator[Move]:
    return iter(())  # lists nothing: refuses legal moves


@pytest.mark.parametrize(
    ("narrow", "found"),
    [(_lax_narrow, "which the enumeration does not"), (_forgetful_narrow, "does not list it")],
)
def test_a_narrowing_that_is_not_the_generator_is_caught(narrow: object, found: str) -> None:
    take = dataclasses.replace(NIM.moves[0], narrow=narrow)

    class Planted(
        Engine[nim_pb2.NimOptions, nim_pb2.NimState, Move, nim_pb2.NimEvent, nim_pb2.NimView]
    ):
        definition = dataclasses.replace(NIM, moves=(take,))

    game = Planted()
    state = game.setup(game.default_options(), 2, 3)
    problems = narrowing_problems(game, state, 0, _probes(game))  # type: ignore[arg-type]
    assert problems and all(found in p for p in problems), problems
    with pytest.raises(AssertionError, match="apply and the enumeration disagree"):
        _legal_exactly_when_listed(game, 2, range(1))
    assert narrowing_problems(Nim(), state, 0, _probes(game)) == []  # type: ignore[arg-type]


def _reversed_takes(state: nim_pb2.NimState, seat: int) -> Iterator[Move]:
    return reversed(list(NIM.moves[0].generate(state, seat)))  # type: ignore[call-overload]


def test_legal_moves_come_in_key_order_whatever_the_generator_yields() -> None:
    take = dataclasses.replace(NIM.moves[0], generate=_reversed_takes)

    class Backwards(
        Engine[nim_pb2.NimOptions, nim_pb2.NimState, Move, nim_pb2.NimEvent, nim_pb2.NimView]
    ):
        definition = dataclasses.replace(NIM, moves=(take,))

    game = Backwards()
    state = game.setup(game.default_options(), 2, 1)
    assert [m.take for m in game.legal_moves(state, 0)] == [1, 2, 3]
    assert [m.take for m in _reversed_takes(state, 0)] == [3, 2, 1], "the generator is reversed"


def _nim_with_table(table: PhaseTable[nim_pb2.NimState]) -> Nim:
    class Planted(Nim):
        definition = dataclasses.replace(NIM, phases=table)
        info = NIM.info

    return Planted()


def test_a_move_into_an_undeclared_phase_is_an_engine_error() -> None:
    def phase_of(state: nim_pb2.NimState) -> str:
        if state.HasField("outcome"):
            return "over"
        return "late" if state.pile < 19 else "take"

    seat = NIM.phases["take"].acting
    table = PhaseTable(
        phase_of=phase_of,
        phases=(
            turn(
                "take", seat=lambda s: s.to_move, moves=["take"], ends="18 left", follows=["over"]
            ),
            turn("late", seat=lambda s: s.to_move, moves=["take"], ends="empty", follows=["over"]),
            end("over"),
        ),
        start=("take", "late"),
    )
    game = _nim_with_table(table)
    state = game.setup(game.default_options(), 2, 1)
    assert seat(state) == (0,)
    with pytest.raises(PhaseTransitionError, match="'take' led to 'late'"):
        game.apply(state, 0, Move(take=3))


def test_an_outcome_outside_an_end_phase_is_an_engine_error() -> None:
    table = PhaseTable(
        phase_of=lambda state: "take",
        phases=(
            turn("take", seat=lambda s: s.to_move, moves=["take"], ends="empty", follows=["over"]),
            end("over"),
        ),
        start=("take",),
    )
    game = _nim_with_table(table)
    state = game.setup(nim_pb2.NimOptions(pile=2), 2, 1)
    with pytest.raises(PhaseTransitionError, match="does not end the game, yet the outcome is set"):
        game.apply(state, 0, Move(take=2))


def test_an_end_phase_without_an_outcome_is_an_engine_error() -> None:
    table = PhaseTable(
        phase_of=lambda state: "over" if state.pile < 19 else "take",
        phases=(
            turn(
                "take", seat=lambda s: s.to_move, moves=["take"], ends="18 left", follows=["over"]
            ),
            end("over"),
        ),
        start=("take",),
    )
    game = _nim_with_table(table)
    state = game.setup(game.default_options(), 2, 1)
    with pytest.raises(
        PhaseTransitionError, match="'over' ends the game, yet the outcome is unset"
    ):
        game.apply(state, 0, Move(take=3))


def test_a_move_into_a_phase_the_table_lacks_is_an_engine_error() -> None:
    table = PhaseTable(
        phase_of=lambda state: "lost" if state.pile < 19 else "take",
        phases=(
            turn("take", seat=lambda s: s.to_move, moves=["take"], ends="empty", follows=["over"]),
            end("over"),
        ),
        start=("take",),
    )
    game = _nim_with_table(table)
    state = game.setup(game.default_options(), 2, 1)
    with pytest.raises(PhaseTransitionError, match="'lost', which the table lacks"):
        game.apply(state, 0, Move(take=3))


def test_over_after_lists_each_phase_its_followers_and_whether_they_end() -> None:
    table = PhaseTable(
        phase_of=lambda state: "take",
        phases=(
            turn(
                "take", seat=lambda s: s.to_move, moves=["take"], ends="18 left", follows=["late"]
            ),
            turn("late", seat=lambda s: s.to_move, moves=["take"], ends="empty", follows=["over"]),
            end("over"),
        ),
        start=("take",),
    )
    assert dict(table.over_after["take"]) == {"take": False, "late": False}
    assert dict(table.over_after["late"]) == {"late": False, "over": True}
    assert dict(table.over_after["over"]) == {"over": True}


def test_setup_must_leave_the_game_in_a_start_phase() -> None:
    table = PhaseTable(
        phase_of=NIM.phases.phase_of,
        phases=(
            turn("take", seat=lambda s: s.to_move, moves=["take"], ends="empty", follows=["over"]),
            end("over"),
            turn("warmup", seat=lambda s: 0, moves=["take"], ends="one move", follows=["take"]),
        ),
        start=("warmup",),
    )
    game = _nim_with_table(table)
    with pytest.raises(PhaseTransitionError, match="not a start phase"):
        game.setup(game.default_options(), 2, 1)


def test_derived_keys_order_moves_and_tell_them_apart() -> None:
    """The default move_key (fields in number order) on real moves with oneofs,
    enums, optional and repeated fields: distinct legal moves, distinct keys."""
    from throneroom_server.games.kit import derived_key
    from throneroom_server.games.registry import build_registry

    games = build_registry()
    compared = 0
    for name in ("king_is_dead", "kings_life"):
        game = games[name]
        for state in playout_states(game, game.default_options(), game.info.min_seats, 1, limit=60):
            for seat in game.to_act(state):
                moves = list(game.legal_moves(state, seat))
                keys = {derived_key(m) for m in moves}
                assert len(keys) == len(moves), f"{name}: two legal moves share a derived key"
                compared += len(moves)
    assert compared > 100
    assert derived_key(KidMove(pass_turn=KidMove.Pass())) < derived_key(
        KidMove(settle=KidMove.Settle(region=kid.REGION_CALEDONIA))
    )
    assert derived_key(Move(take=2)) == (2,)


class _Listed(list[Move]):
    """A Sequence the generator hands out (stands for a lazy one, e.g. King Is Dead's)."""


def _listed_takes(state: nim_pb2.NimState, seat: int) -> _Listed:
    return _Listed(NIM.moves[0].generate(state, seat))


def test_an_ordered_generator_is_handed_out_as_it_is() -> None:
    take = dataclasses.replace(NIM.moves[0], generate=_listed_takes, ordered=True)

    class Ordered(Nim):
        definition = dataclasses.replace(NIM, moves=(take,))
        info = NIM.info

    game = Ordered()
    state = game.setup(game.default_options(), 2, 1)
    listed = game.legal_moves(state, 0)
    assert type(listed) is _Listed and [m.take for m in listed] == [1, 2, 3]


def test_an_ordered_generator_that_is_not_is_caught_by_the_conformance_suite() -> None:
    from throneroom_server.games.kit import Variant

    from tests.conformance.playout import Playout
    from tests.conformance.report import ConformanceError

    take = dataclasses.replace(NIM.moves[0], generate=_reversed_takes, ordered=True)

    class Liar(Nim):
        definition = dataclasses.replace(NIM, moves=(take,))
        info = NIM.info

    game = Liar()
    with pytest.raises(ConformanceError) as caught:
        Playout(
            game,  # type: ignore[arg-type]
            name="nim",
            variant=Variant(2),
            options=game.default_options(),
            seed=1,
            choice_seed=1,
        ).run()
    assert caught.value.check == "5 legal moves"


def test_a_phase_generator_lists_every_kind_at_once() -> None:
    """Settlers with one generator for the "settle" phase (pass or settle) and no
    generator per kind: the same legal moves, and legality is still exactly
    membership in that enumeration."""
    from tests.games.kit_games import SETTLERS, free_regions, passes

    def everything(state: kid.KingIsDeadState, seat: int) -> list[KidMove]:
        return [*passes(state, seat), *free_regions(state, seat)]

    settle, never, over = SETTLERS.phases.phases
    table = PhaseTable(
        phase_of=SETTLERS.phases.phase_of,
        phases=(dataclasses.replace(settle, generate=everything), never, over),
        start=SETTLERS.phases.start,
    )
    kinds = tuple(
        dataclasses.replace(k, generate=None) if k.name in ("settle", "pass_turn") else k
        for k in SETTLERS.moves
    )

    class OneList(Settlers):
        definition = dataclasses.replace(SETTLERS, phases=table, moves=kinds)

    game, reference = OneList(), Settlers()
    state = game.setup(game.default_options(), 2, 1)
    assert list(game.legal_moves(state, 0)) == list(reference.legal_moves(state, 0))
    assert _legal_exactly_when_listed(game, 2, range(3)) > 50


def test_a_kind_generator_that_disagrees_with_its_phase_generator_is_caught() -> None:
    """Membership tests a kind's own generator before the phase's: the two must
    list the same moves of that kind, which narrowing_problems checks."""
    from tests.games.kit_games import SETTLERS, free_regions, passes

    def everything(state: kid.KingIsDeadState, seat: int) -> list[KidMove]:
        return [*passes(state, seat), *free_regions(state, seat)]

    def one_region_too_many(state: kid.KingIsDeadState, seat: int) -> Iterator[KidMove]:
        yield from free_regions(state, seat)
        yield KidMove(settle=KidMove.Settle(region=kid.REGION_LONDINIUM))

    settle, never, over = SETTLERS.phases.phases
    table = PhaseTable(
        phase_of=SETTLERS.phases.phase_of,
        phases=(dataclasses.replace(settle, generate=everything), never, over),
        start=SETTLERS.phases.start,
    )

    def with_settle(generate: object) -> Settlers:
        kinds = tuple(
            dataclasses.replace(k, generate=generate) if k.name == "settle" else k
            for k in SETTLERS.moves
        )

        class Built(Settlers):
            definition = dataclasses.replace(SETTLERS, phases=table, moves=kinds)

        return Built()

    state = Settlers().setup(kid.KingIsDeadOptions(), 2, 1)
    assert narrowing_problems(with_settle(free_regions), state, 0) == []
    wrong = with_settle(one_region_too_many)
    problems = narrowing_problems(wrong, state, 0)
    assert problems == [
        "settle: its generator and the generator of phase 'settle' list different moves"
    ]
    with pytest.raises(AssertionError, match="disagree"):
        _legal_exactly_when_listed(wrong, 2, range(1))


def test_narrowing_is_checked_where_the_checked_apply_asks_it() -> None:
    """A kind's narrowing is consulted only in the phases that allow the kind,
    for the seats they ask: listing anything elsewhere is no problem (a King's
    Life tree answers in any phase), listing an illegal move there is."""
    from tests.games.kit_games import SETTLERS

    def anything(state: kid.KingIsDeadState, seat: int, move: KidMove) -> list[KidMove]:
        return [move]

    def with_narrow(name: str) -> Settlers:
        kinds = tuple(
            dataclasses.replace(k, narrow=anything) if k.name == name else k for k in SETTLERS.moves
        )

        class Built(Settlers):
            definition = dataclasses.replace(SETTLERS, moves=kinds)

        return Built()

    state = Settlers().setup(kid.KingIsDeadOptions(), 2, 1)
    crown = KidMove(crown=KidMove.Crown())
    taken = KidMove(settle=KidMove.Settle(region=kid.REGION_LONDINIUM))
    assert narrowing_problems(with_narrow("crown"), state, 0, [crown]) == []
    assert narrowing_problems(with_narrow("settle"), state, 1, [taken]) == [], "seat 1 not asked"
    problems = narrowing_problems(with_narrow("settle"), state, 0, [taken])
    assert problems and "which the enumeration does not" in problems[0]
