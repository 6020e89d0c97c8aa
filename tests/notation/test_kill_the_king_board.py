"""Kill the King's board for a terminal: the field with its terrain and
counters, the ids moves name them by, the round, turn, phase and budgets.

The views are built here from states as the contract describes them (the
engine is not there yet): every field a view shares with the state, the
seats to act, and another seat's units redacted before the reveal (KK-121).
"""

from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, given, settings
from throneroom import notation
from throneroom.games.kill_the_king.data import Mode
from throneroom.games.kill_the_king.field import field_for
from throneroom.games.kill_the_king.notation.board import render_grid, unit_letter
from throneroom.v1 import kill_the_king_pb2 as pb

from .test_kill_the_king_grammar import POSITION
from .test_kill_the_king_round_trips import check_board, states

KTK = notation.for_game("kill_the_king")
State = pb.KillTheKingState
View = pb.KillTheKingView

SHARED = [
    f.name
    for f in View.DESCRIPTOR.fields
    if f.name in State.DESCRIPTOR.fields_by_name and f.name not in ("units",)
]


def view_of(state: State, viewer: int | None) -> View:
    """What ``viewer`` sees of ``state``: before the reveal, only its own
    placements (other counters without square, level and facing, in reserve)."""
    view = View(viewer=-1 if viewer is None else viewer)
    for name in SHARED:
        field = State.DESCRIPTOR.fields_by_name[name]
        if field.is_repeated:
            getattr(view, name).extend(getattr(state, name))
        elif field.message_type is not None:
            if state.HasField(name):
                getattr(view, name).CopyFrom(getattr(state, name))
        else:
            setattr(view, name, getattr(state, name))
    hidden = state.phase == State.PHASE_PLACEMENT
    for unit in state.units:
        shown = view.units.add()
        shown.CopyFrom(unit)
        if hidden and unit.seat != viewer:
            for name in ("square", "level", "facing"):
                shown.ClearField(name)
            shown.status = pb.KillTheKingUnit.STATUS_RESERVE
    if state.phase == State.PHASE_PLACEMENT:
        view.to_act.extend(i for i, s in enumerate(state.seats) if not s.placed)
    elif state.phase not in (State.PHASE_OVER, State.PHASE_UNSPECIFIED):
        view.to_act.append(state.to_move)
    return view


GOLDEN = """\
Kill the King, 2 seats, as seat 0: round 3 of 11, attacker's turn, movement phase

    a   b   c   d   e   f   g   h   i   j   k
16  :   #   _   _   /   @   /   _   _   #   :   16
15  :   #   _   _   /   /   /   _   _   #   :   15
14  :   #   _   _   /   /   /   _   _   #   :   14
13  :   #   _   _   _   +   _   _   _   #   :   13
12  :   #   _   _   _   +   _   _   _   #   :   12
11  :   #   /   _   _   +   _   _   /   #   :   11
10  :   kv  *   #   av  R<  #   #   #   #   :   10
 9  .   .   .   .   C^  B^+ .   .   .   .   .    9
 8  .   .   W^  .   .   =   .   .   .   .   .    8
 7  .   .   .   .   .   =   .   .   .   .   .    7
 6  .   .   .   .   .   =   .   .   .   .   .    6
 5  .   .   .   .   .   =   .   .   .   .   .    5
 4  .   .   .   .   .   =   .   .   .   .   .    4
 3  .   .   .   .   .   =   .   .   .   .   .    3
 2  .   .   .   .   .   =   .   .   .   .   .    2
 1  .   .   .   .   .   =   .   .   .   .   .    1
    a   b   c   d   e   f   g   h   i   j   k

Outer gate f10: held by the defender
King's Door f16: standing
Rubble: c10 (round 2)
Moving now: u0
Seat 0 (you): attacker, 0 coins left of 90  [initiative 4, 5]
    u0   W  Swordsmen      c8, facing north  [2 movement used, moved]
    u2   B  Battering Ram  f9, facing north
    u3   S  Spearmen       f9, facing north  [in Battering Ram u2]
    u7   R  The Ranger     f10 (on the wall), facing west
    u8   C  Cavalry        e9, facing north  [climbs north in the attack phase]
Seat 1: defender, 0 coins left of 45  [initiative 4, 2]
    u1   a  Archer         e10 (on the wall), facing south
    u6   k  Catapult       b10 (on the wall), facing south  [immobile]
  in reserve:
    u4   n  The Knight
  dead:
    u5   a  Archer         c3, facing south

Counters: upper case attacker, lower case defender; the arrow is the facing
  (^ north, > east, v south, < west); + more counters on the space (a crew,
  a tower's stack, both levels of the gate). Moves name counters by id (u7).
Terrain: . grass  = road  : reinforcement edge  _ castle ground  + castle road
  # wall  ^ gate  / stairs  @ King's Door  * rubble
To act: seat 0: move a unit (step|rotate|climb|prepare u<id> <n|e|s|w>, dismount u<id>) or end"""


def test_a_board_in_the_movement_phase() -> None:
    """The grammar's example position, as seat 0 sees it: the Ranger above the
    gate, a Spearmen manning the Ram (+), rubble at c10, the defender's Archer
    and Catapult on the wall, the Knight in reserve, a dead Archer."""
    state = KTK.parse_position(POSITION)
    assert KTK.render_view(view_of(state, 0), 0) == GOLDEN


def test_rows_and_columns_are_labelled_as_the_notation_names_squares() -> None:
    state = KTK.parse_position("seats=2 mode=ktk u0=archer:a0:a1:e u1=knight:d1:k16/:s")
    lines = KTK.render_view(view_of(state, None), None).splitlines()
    row_1 = next(line for line in lines if line.startswith(" 1  "))
    row_16 = next(line for line in lines if line.startswith("16  "))
    assert row_1.split()[1] == "A>"  # a1: the attacker's Archer facing east
    assert row_16.split()[-2] == "nv"  # k16: the defender's Knight facing south


def test_placement_is_hidden_from_the_other_seat() -> None:
    state = KTK.parse_position(
        "seats=2 mode=ktk phase=placement turn=x0 p0.side=attacker p1.side=defender "
        "u0=archer:a0:c2:n u1=archer:d1:e12:s"
    )
    mine = KTK.render_view(view_of(state, 0), 0)
    theirs = KTK.render_view(view_of(state, 1), 1)
    assert "A^" in mine and "av" not in mine
    assert "av" in theirs and "A^" not in theirs
    assert "To act: seat 0, seat 1: place a counter" in mine
    spectator = KTK.render_view(view_of(state, None), None)
    assert "as spectator" in spectator and "(you)" not in spectator


def test_attack_and_defense_leaves_out_the_castle() -> None:
    state = KTK.parse_position("seats=2 mode=attack_and_defense phase=attack round=1 turn=d1")
    board = KTK.render_view(view_of(state, 1), 1)
    assert "#" not in board.split("Counters:")[0].replace("# wall", "")
    assert "King's Door" not in board.split("Counters:")[0]
    assert re.search(r"^ 9  \.", board, re.M) and not re.search(r"^10  ", board, re.M)
    assert "round 1 of 6, defender's turn, attack phase" in board


def test_a_giga_field_has_32_rows() -> None:
    state = KTK.parse_position("seats=4 mode=kill_the_king_giga u0=ram:a0:f32:s")
    board = KTK.render_view(view_of(state, 2), 2)
    assert re.search(r"^32  .*B v", board.replace("Bv", "B v"), re.M)
    assert "team 0" in board and "Kill the King (giga)" in board


def test_the_outcome_replaces_the_seats_to_act() -> None:
    state = KTK.parse_position(
        "seats=2 mode=ktk phase=over round=7 turn=a0 door=destroyed end=door winners=0 "
        'summary="the attacker broke the King\'s Door"'
    )
    board = KTK.render_view(view_of(state, 0), 0)
    assert board.endswith("game over: seat 0 wins (door): the attacker broke the King's Door")
    assert "King's Door f16: destroyed" in board


def test_several_counters_on_one_space_show_the_top_one() -> None:
    """The Ram above its crew, the unit above the gate over one in the passage."""
    field = field_for(Mode.KILL_THE_KING)
    state = KTK.parse_position(
        "seats=2 u0=spearmen:a0:f9:n:in=1 u1=battering_ram:a0:f9:n "
        "u2=archer:d1:f10#:s u3=swordsmen:a0:f10:n"
    )
    rows = {line[:2]: line for line in render_grid(field, state.units)}
    assert " B^+ " in rows[" 9"] and " av+ " in rows["10"]


@pytest.mark.parametrize(("side", "letter"), [(pb.SIDE_ATTACKER, "K"), (pb.SIDE_DEFENDER, "k")])
def test_letters_by_side(side: int, letter: str) -> None:
    unit = pb.KillTheKingUnit(type=pb.UNIT_TYPE_CATAPULT, side=side)  # type: ignore[arg-type]
    assert unit_letter(unit) == letter


@settings(
    max_examples=150, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow]
)
@given(state=states())
def test_any_view_renders(state: State) -> None:
    """Every seat's and a spectator's board of any well-formed state (any mode,
    phase, unit, square of a Giga field, unknown-free enums) is drawn."""
    for viewer in [*range(state.num_seats), None]:
        board = check_board(view_of(state, viewer), viewer)
        for unit in state.units:
            if state.phase != State.PHASE_PLACEMENT or unit.seat == viewer:
                assert f"u{unit.id} " in board
