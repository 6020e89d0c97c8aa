"""Checks of what a definition promises but code cannot enforce, over real states.

The kit enforces the phase table at every move; two promises need states to
check, and a game's tests (and the kit's, over every registered game) run these
over random playouts:

* ``narrowing_problems``: each ``MoveKind.narrow`` is the generator restricted:
  every candidate it lists is a legal move, and it lists every legal move equal
  to the one asked about (in the phases that allow the kind, for the seats
  asked: where the checked apply tests membership). Then membership through ``narrow`` is exactly
  membership in the enumeration. A kind with its own generator in a phase with
  a phase generator must list exactly that phase's moves of its kind. Each
  ``MoveKind.member`` likewise: for a legal move it answers a listed move equal
  to it, for any other (well-formed) move None; and ``GameDefinition.kind_of_checked``
  names the kind of each asked move that ``check_move`` lets through.
* ``enum_refusal_problems``: a definition declaring ``check_move_refuses_enums``
  keeps the promise: ``check_move`` refuses moves with an undeclared enum value
  planted anywhere in them (the kit then skips its own walk).
* ``independence_problems``: in a simultaneous decision, a seat's answer does not
  change what another asked seat may decide, while that seat's decision stays
  open (the promise behind the decision clock, see decisions.py).

Each returns a list of problems (sentences); empty means the promise held.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from google.protobuf.descriptor import FieldDescriptor
from google.protobuf.message import Message
from throneroom.v1 import common_pb2

from throneroom_server.games.core import InvalidMoveError, Seat
from throneroom_server.games.kit.engine import Engine, one_line
from throneroom_server.games.kit.messages import descriptor
from throneroom_server.games.kit.phases import MoveKind
from throneroom_server.games.kit.service import KitGame
from throneroom_server.games.rng import Rng, seed_rng

AnyKitGame = KitGame[Any, Any, Any, Any, Any]


def playout_states(
    game: AnyKitGame, options: Message, seats: int, seed: int, *, limit: int = 400
) -> Iterator[Message]:
    """The states of one random playout, from setup to the end or ``limit`` moves
    (seats and moves chosen with the games' own PCG32, seeded with ``seed``: the
    engines' package stays free of ambient randomness)."""
    stream = common_pb2.RngState()
    seed_rng(stream, seed)
    chooser = Rng(stream)
    state: Message = game.setup(options, seats, seed)
    for _ in range(limit):
        yield state
        acting = list(game.to_act(state))
        if not acting:
            return
        seat = chooser.choice(acting)
        moves = list(game.legal_moves(state, seat))
        state, _ = game.apply(state, seat, moves[chooser.below(len(moves))])
    yield state


def narrowing_problems(
    engine: Engine[Any, Any, Any, Any, Any],
    state: Message,
    seat: Seat,
    probes: Sequence[Message] = (),
) -> list[str]:
    """Check every ``narrow`` of ``engine`` at ``state`` for ``seat``, asking about
    each legal move and each of ``probes`` (e.g. illegal or earlier moves).

    Only where the checked apply asks it: the kinds the current phase allows,
    for a seat the phase asks (elsewhere a move is refused before membership is
    tested, so what a kind's narrowing or generator would list there is moot)."""
    problems: list[str] = []
    definition = engine.running
    listed = list(engine.legal_moves(state, seat))
    phase = engine.phase(state)
    if not phase.is_asked(state, seat):
        return problems
    for kind in definition.moves:
        if kind.name not in phase.moves:
            continue
        legal = [m for m in listed if definition.kind_of(m) is kind]
        if (
            phase.generate is not None
            and kind.generate is not None
            and sorted(m.SerializeToString(deterministic=True) for m in kind.generate(state, seat))
            != sorted(m.SerializeToString(deterministic=True) for m in legal)
        ):
            problems.append(
                f"{kind.name}: its generator and the generator of phase {phase.name!r} list "
                "different moves"
            )
        legal_bytes = {m.SerializeToString(deterministic=True) for m in legal}
        asked = legal + [p for p in probes if definition.kind_of(p) is kind]
        if definition.fast.kind_of_checked is not None:
            problems += _checked_kind_problems(engine, kind, state, asked)
        if kind.member is not None:
            problems += _member_problems(
                engine, kind, state, seat, asked=asked, legal=legal, legal_bytes=legal_bytes
            )
        if kind.narrow is None:
            continue
        for move in asked:
            candidates = list(kind.narrow(state, seat, move))
            for candidate in candidates:
                if candidate.SerializeToString(deterministic=True) not in legal_bytes:
                    problems.append(
                        f"{kind.name}: narrow() for {one_line(move)} lists "
                        f"{one_line(candidate)}, which the enumeration does not"
                    )
            if move in legal and not any(c == move for c in candidates):
                problems.append(
                    f"{kind.name}: narrow() for the legal {one_line(move)} does not list it"
                )
    return problems


def _checked_kind_problems(
    engine: Engine[Any, Any, Any, Any, Any],
    kind: MoveKind[Any, Any, Any],
    state: Message,
    asked: Sequence[Message],
) -> list[str]:
    """``kind_of_checked`` names the kind of each asked move (of ``kind``) that
    ``check_move`` lets through."""
    problems: list[str] = []
    definition = engine.running
    check_move, kind_of_checked = definition.check_move, definition.fast.kind_of_checked
    assert check_move is not None and kind_of_checked is not None
    for move in asked:
        try:
            checked = check_move(state, move)
        except InvalidMoveError:
            continue
        named = kind_of_checked(checked)
        if named != kind.name:
            problems.append(
                f"{kind.name}: kind_of_checked names {named!r} for {one_line(move)}, "
                f"a move of kind {kind.name!r}"
            )
    return problems


def _member_problems(
    engine: Engine[Any, Any, Any, Any, Any],
    kind: MoveKind[Any, Any, Any],
    state: Message,
    seat: Seat,
    *,
    asked: Sequence[Message],
    legal: Sequence[Message],
    legal_bytes: set[bytes],
) -> list[str]:
    """``kind.member`` answers exactly membership in the enumeration, for each
    asked move that ``check_move`` lets through (a refused one never reaches it)."""
    problems: list[str] = []
    check_move = engine.running.check_move
    member = kind.member
    assert member is not None
    for move in asked:
        try:
            checked = check_move(state, move) if check_move is not None else None
        except InvalidMoveError:
            continue
        answer = member(state, seat, move, checked)
        if answer is None:
            if move in legal:
                problems.append(f"{kind.name}: member() refuses the legal {one_line(move)}")
        elif answer != move or answer.SerializeToString(deterministic=True) not in legal_bytes:
            problems.append(
                f"{kind.name}: member() for {one_line(move)} answers {one_line(answer)}, "
                "which is not that move as the enumeration lists it"
            )
    return problems


def plant_undeclared_enum(message: Message, rng: Rng) -> Message | None:
    """A copy of ``message`` with a value its enum does not declare planted in one
    of its enum fields at any depth (singular, repeated, inside repeated or
    nested messages), or None when it has no enum field."""
    copy = type(message)()
    copy.CopyFrom(message)
    spots: list[tuple[Message, FieldDescriptor]] = []

    def collect(node: Message) -> None:
        for field in descriptor(node).fields:
            if field.type == FieldDescriptor.TYPE_ENUM:
                spots.append((node, field))
            elif field.type == FieldDescriptor.TYPE_MESSAGE:
                assert field.message_type is not None
                if field.message_type.GetOptions().map_entry:
                    continue
                value = getattr(node, field.name)
                if field.is_repeated:
                    for child in value:
                        collect(child)
                elif field.containing_oneof is None or node.HasField(field.name):
                    collect(value)  # an unset oneof member stays unset

    collect(copy)
    if not spots:
        return None
    node, field = rng.choice(spots)
    assert field.enum_type is not None
    bad = max(field.enum_type.values_by_number) + 1 + rng.below(50)
    if field.is_repeated:
        values = getattr(node, field.name)
        if values and rng.below(2):
            values[rng.below(len(values))] = bad
        else:
            values.append(bad)
    else:
        setattr(node, field.name, bad)
    return copy


def enum_refusal_problems(
    engine: Engine[Any, Any, Any, Any, Any],
    state: Message,
    moves: Sequence[Message],
    rng: Rng,
) -> list[str]:
    """For a definition declaring ``check_move_refuses_enums``: ``check_move``
    raises InvalidMoveError for each of ``moves`` (e.g. the legal moves) with an
    undeclared enum value planted in it. Empty for other definitions."""
    definition = engine.running
    check_move = definition.check_move
    if not definition.fast.check_move_refuses_enums or check_move is None:
        return []
    problems: list[str] = []
    for move in moves:
        planted = plant_undeclared_enum(move, rng)
        if planted is None:
            continue
        bad = definition.undeclared_enum(planted)
        try:
            check_move(state, planted)
        except InvalidMoveError:
            continue
        problems.append(
            f"check_move_refuses_enums, yet check_move lets through {one_line(planted)} ({bad})"
        )
    return problems


def independence_problems(game: AnyKitGame, state: Message, *, sample: int = 4) -> list[str]:
    """In a simultaneous decision: each asked seat's answer (up to ``sample`` of its
    legal moves) leaves every other asked seat whose decision stays open with the
    same legal moves."""
    decision = game.decision_key(state)
    if decision is None:
        return []
    problems: list[str] = []
    acting = list(game.to_act(state))
    before = {seat: list(game.legal_moves(state, seat)) for seat in acting}
    for mover in acting:
        answers = before[mover]
        step = max(1, len(answers) // sample)
        for move in answers[::step][:sample]:
            after, _ = game.apply(state, mover, move)
            if game.decision_key(after) != decision:
                continue  # the decision closed (or a new one opened): every clock restarts
            still = set(game.to_act(after))
            for seat in acting:
                if seat == mover or seat not in still:
                    continue
                if list(game.legal_moves(after, seat)) != before[seat]:
                    problems.append(
                        f"{decision[0]}: seat {mover} answering {one_line(move)} changed the "
                        f"legal moves of seat {seat}, whose decision stays open"
                    )
    return problems


def seat_view_problems(game: AnyKitGame, state: Message) -> list[str]:
    """Where the game's ``seat_view`` (a promise: it turns the spectator's view
    into a seat's) does not give ``view(state, seat)`` for some seat of
    ``state``; empty for a game without one."""
    seat_view = game.seat_view
    if seat_view is None:
        return []
    problems = []
    for seat in range(int(getattr(state, "num_seats"))):  # noqa: B009
        view = game.view(state, None)
        spectator = view.SerializeToString()
        seat_view(state, seat, view)
        whole = game.view(state, seat)
        if view != whole:
            problems.append(
                f"seat {seat}: seat_view gives {one_line(view)}, "
                f"not the seat's view {one_line(whole)}"
            )
            continue
        # Only adding: the spectator's bytes followed by what it adds to an
        # empty view parse to the seat's view.
        added = type(view)()
        seat_view(state, seat, added)
        merged = type(view).FromString(spectator + added.SerializeToString())
        if merged != whole:
            problems.append(
                f"seat {seat}: seat_view does not only add: the spectator's view "
                f"merged with {one_line(added)} is {one_line(merged)}, "
                f"not the seat's view {one_line(whole)}"
            )
            continue
        # Nor into a message the spectator's view holds: those bytes would hold
        # that message twice, and a parser that keeps the last occurrence only
        # (protobufjs 7) would lose the spectator's part of it.
        shown = type(view).FromString(spectator)
        twice = [
            field.name
            for field, _ in added.ListFields()
            if field.type == FieldDescriptor.TYPE_MESSAGE
            and not field.is_repeated
            and shown.HasField(field.name)
        ]
        if twice:
            problems.append(
                f"seat {seat}: seat_view adds to {', '.join(twice)}, which the spectator's "
                "view holds: the seat's bytes would hold that message twice"
            )
    return problems
