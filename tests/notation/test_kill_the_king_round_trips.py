"""Every Kill the King move and position round-trips through the notation.

The engine is not there yet, so hypothesis builds the messages: random but
well-formed ``KillTheKingMove`` and ``KillTheKingState`` messages, field by
field from the proto descriptors (a field added to the proto is generated,
and so tested, without touching this file), with squares of a real field,
defined enum values and the ids the contract describes.

:func:`check_round_trips` is the hook for the engine's playouts: give it every
(state, legal moves) of a game and it checks what the other games' playouts
check (tests/notation/test_round_trips.py). The hypothesis tests below use it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

import pytest
from google.protobuf import descriptor
from google.protobuf.message import Message
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from throneroom import notation
from throneroom.games.kill_the_king.data import Mode
from throneroom.games.kill_the_king.field import field_for
from throneroom.notation.base import INT32_MAX, INT32_MIN
from throneroom.v1 import kill_the_king_pb2 as pb

KTK = notation.for_game("kill_the_king")
State = pb.KillTheKingState
Move = pb.KillTheKingMove

# -- the hook -------------------------------------------------------------------------------


def check_move(move: Move) -> str:
    """One move: its spelling parses back to it byte for byte, is canonical
    (lower case, single spaces, written again the same) and is read in any case
    with any spaces around it. Returns the spelling."""
    written = KTK.format_move(move)
    back = KTK.parse_move(written)
    assert back == move, written
    assert back.SerializeToString() == move.SerializeToString(), written
    assert KTK.format_move(back) == written, "one spelling per move"
    assert written == written.lower() and written == " ".join(written.split()), written
    assert KTK.parse_move(f"  {written.upper()}\t ") == move, "case and spaces"
    return written


def check_position(state: State) -> str:
    """One state: its position parses back to it byte for byte (field presence
    included), on one line, written again the same. Returns the position."""
    text = KTK.format_position(state)
    back = KTK.parse_position(text)
    assert back == state, text
    assert back.SerializeToString() == state.SerializeToString(), text
    assert KTK.format_position(back) == text, "one spelling per position"
    assert "\n" not in text
    return text


def check_round_trips(steps: Iterable[tuple[State, Iterable[Move]]]) -> int:
    """The hook for playouts: for each (state, legal moves), the state and each
    move round-trip, and no two of the moves share a spelling. Returns how many
    steps were checked (the engine's playouts will call this with every state
    they reach and the legal moves of the seat(s) to act)."""
    count = 0
    for state, moves in steps:
        check_position(state)
        written = [check_move(move) for move in moves]
        assert len(set(written)) == len(written), f"two moves, one spelling: {written}"
        count += 1
    return count


def check_board(view: pb.KillTheKingView, viewer: int | None) -> str:
    """One view: its board renders, with the header and the field. Returns it
    (for the engine's playouts: every seat's and a spectator's view)."""
    board = KTK.render_view(view, viewer)
    assert board.startswith(("Kill the King", "Attack and Defense")), board
    assert "    a   b   c" in board and board.count("\n") >= 10
    return board


# -- strategies from the descriptors ---------------------------------------------------------

ANY_INT32 = st.one_of(st.integers(-1, 40), st.integers(INT32_MIN, INT32_MAX))
IDS = st.one_of(st.integers(0, 60), st.integers(0, INT32_MAX))
UINT64 = st.integers(0, 2**64 - 1)
WORDS = st.from_regex(r"[a-z][a-z0-9_]{0,11}", fullmatch=True)
TEXT = st.text(st.characters(min_codepoint=32, max_codepoint=126), max_size=24)
GIGA = field_for(Mode.KILL_THE_KING_GIGA)
SQUARES = st.builds(
    lambda row, col: pb.Square(row=row, col=col),
    st.integers(0, GIGA.rows - 1),
    st.integers(0, GIGA.cols - 1),
)
"""Every square of the largest field (a Giga field: 32 rows of 11)."""
SQUARE_TYPE = pb.Square.DESCRIPTOR.full_name

Strategies = Mapping[str, st.SearchStrategy[Any]]


def _scalar(field: Any, nonzero_enums: bool) -> st.SearchStrategy[Any]:
    kind = field.type
    if kind == descriptor.FieldDescriptor.TYPE_ENUM:
        numbers = [v.number for v in field.enum_type.values if v.number or not nonzero_enums]
        return st.sampled_from(numbers)
    if kind == descriptor.FieldDescriptor.TYPE_BOOL:
        return st.booleans()
    if kind == descriptor.FieldDescriptor.TYPE_INT32:
        return ANY_INT32
    if kind == descriptor.FieldDescriptor.TYPE_UINT64:
        return UINT64
    if kind == descriptor.FieldDescriptor.TYPE_STRING:
        return TEXT
    raise AssertionError(f"no strategy for {field.full_name} (type {kind}): add one")


def _real_oneof(field: Any) -> bool:
    """In a oneof of the proto (not the synthetic one of a proto3 ``optional``)."""
    oneof = field.containing_oneof
    return oneof is not None and oneof.name != f"_{field.name}"


def fill(
    draw: Callable[[st.SearchStrategy[Any]], Any],
    message: Message,
    overrides: Strategies,
    *,
    nonzero_enums: bool,
    max_items: int = 3,
) -> None:
    """Give every field of ``message`` a random value (or leave it unset when it
    may be): ``overrides`` by field full name (or message type full name) win."""
    chosen = {}
    for oneof in message.DESCRIPTOR.oneofs:
        members = [f for f in oneof.fields if _real_oneof(f)]
        if members:
            chosen[oneof.name] = draw(st.sampled_from(members)).name
    fields: list[Any] = list(message.DESCRIPTOR.fields)
    for field in fields:
        if _real_oneof(field) and chosen.get(field.containing_oneof.name) != field.name:
            continue
        in_oneof = _real_oneof(field)
        strategy = overrides.get(field.full_name)
        if strategy is None and field.message_type is not None:
            strategy = overrides.get(field.message_type.full_name)
        repeated = field.is_repeated
        if repeated:
            items = getattr(message, field.name)
            if strategy is not None:
                values = draw(st.lists(strategy, max_size=max_items))
                if field.message_type is not None:
                    for value in values:
                        items.add().CopyFrom(value)
                else:
                    items.extend(values)
                continue
            for _ in range(draw(st.integers(0, max_items))):
                if field.message_type is not None:
                    fill(draw, items.add(), overrides, nonzero_enums=nonzero_enums)
                else:
                    items.append(draw(_scalar(field, nonzero_enums)))
            continue
        optional = field.has_presence and not in_oneof
        # in a move every sub-message (a square) is required; in a state it may be unset
        if optional and not (nonzero_enums and field.message_type) and not draw(st.booleans()):
            continue
        if field.message_type is not None:
            sub = getattr(message, field.name)
            sub.SetInParent()
            if strategy is not None:
                sub.CopyFrom(draw(strategy))
            else:
                fill(draw, sub, overrides, nonzero_enums=nonzero_enums)
            continue
        setattr(
            message,
            field.name,
            draw(strategy if strategy is not None else _scalar(field, nonzero_enums)),
        )


MOVE_OVERRIDES: Strategies = {
    SQUARE_TYPE: SQUARES,
    # the Ballista's level is optional: 0 is "no level" (KK-94)
    "throneroom.v1.KillTheKingMove.Attack.level": st.sampled_from(
        [v.number for v in pb.Level.DESCRIPTOR.values]
    ),
    **{
        f"throneroom.v1.KillTheKingMove.{sub.message_type.name}.unit": IDS
        for sub in Move.DESCRIPTOR.fields
        if sub.message_type is not None
        and "unit" in sub.message_type.fields_by_name
        and sub.message_type.fields_by_name["unit"].type == descriptor.FieldDescriptor.TYPE_INT32
    },
}


@st.composite
def moves(draw: st.DrawFn) -> Move:
    """A well-formed move: one decision, every required enum set, unit ids of
    counters (>= 0), squares of a field."""
    move = Move()
    fill(draw, move, MOVE_OVERRIDES, nonzero_enums=True)
    return move


@st.composite
def outcomes(draw: st.DrawFn) -> Any:
    from throneroom.v1 import common_pb2

    return common_pb2.Outcome(
        winners=draw(st.lists(st.integers(0, INT32_MAX), max_size=3)),
        termination=draw(st.one_of(WORDS, TEXT)),
        summary=draw(TEXT),
        tiebreaks=draw(st.lists(WORDS, max_size=2)),
    )


STATE_OVERRIDES: Strategies = {
    SQUARE_TYPE: SQUARES,
    "throneroom.v1.KillTheKingState.num_seats": st.integers(0, 4),
    "throneroom.v1.KillTheKingState.outcome": outcomes(),
}


@st.composite
def states(draw: st.DrawFn, max_units: int = 8) -> State:
    """A well-formed state: one seat record per seat, units whose id is their
    index (now and then not: the notation must still keep it), squares of a
    field, defined enum values (UNSPECIFIED included), any int32 elsewhere."""
    state = State()
    fill(draw, state, STATE_OVERRIDES, nonzero_enums=False, max_items=max_units)
    del state.seats[state.num_seats :]
    while len(state.seats) < state.num_seats:
        fill(draw, state.seats.add(), STATE_OVERRIDES, nonzero_enums=False)
    for index, unit in enumerate(state.units):
        if draw(st.integers(0, 9)):
            unit.id = index
    return state


SETTINGS = settings(
    max_examples=300, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow]
)


@SETTINGS
@given(
    state=states(),
    legal=st.lists(
        moves(), max_size=12, unique_by=lambda m: m.SerializeToString(deterministic=True)
    ),
)
def test_random_states_and_moves_round_trip(state: State, legal: list[Move]) -> None:
    assert check_round_trips([(state, legal)]) == 1


@SETTINGS
@given(move=moves())
def test_every_kind_of_move_round_trips(move: Move) -> None:
    check_move(move)


@pytest.mark.slow  # 300 armies of up to 40 units
@SETTINGS
@given(state=states(max_units=40))
def test_big_armies_round_trip(state: State) -> None:
    check_position(state)
