"""What Kill the King's seats to act must decide (tasks.py), and the
placement of any reserve counter of a type (KK-22: the engine offers the
next one of each type only)."""

from __future__ import annotations

import pytest
from throneroom.games.kill_the_king.tasks import interchangeable, task
from throneroom.games.protocol import game_client
from throneroom.v1 import kill_the_king_pb2 as pb

State = pb.KillTheKingState
Unit = pb.KillTheKingUnit
DECIDING = [p for p in State.Phase.values() if p not in (State.PHASE_UNSPECIFIED, State.PHASE_OVER)]


@pytest.mark.parametrize("lang", ["en", "es", "pt"])
def test_every_phase_with_a_decision_says_what_it_is(lang: str) -> None:
    said = [task(pb.KillTheKingView(phase=phase), lang) for phase in DECIDING]
    assert len(set(said)) == len(DECIDING), said  # each its own
    assert "decide" not in said and "decidir" not in said
    assert game_client("kill_the_king").task(pb.KillTheKingView(phase=DECIDING[0]), lang=lang)


def _placing_view() -> pb.KillTheKingView:
    attacker = pb.KillTheKingSeat(side=pb.SIDE_ATTACKER)
    defender = pb.KillTheKingSeat(side=pb.SIDE_DEFENDER)
    reserve = Unit.STATUS_RESERVE
    units = [
        Unit(id=3, type=pb.UNIT_TYPE_ARCHER, side=pb.SIDE_ATTACKER, seat=0, status=reserve),
        Unit(id=17, type=pb.UNIT_TYPE_SWORDSMEN, side=pb.SIDE_ATTACKER, seat=0, status=reserve),
        Unit(id=18, type=pb.UNIT_TYPE_SWORDSMEN, side=pb.SIDE_ATTACKER, seat=0, status=reserve),
        Unit(id=30, type=pb.UNIT_TYPE_SWORDSMEN, side=pb.SIDE_DEFENDER, seat=1, status=reserve),
    ]
    return pb.KillTheKingView(
        phase=State.PHASE_PLACEMENT, seats=[attacker, defender], units=units, viewer=0
    )


def _place(unit: int) -> pb.KillTheKingMove:
    square = pb.Square(row=1, col=4)
    return pb.KillTheKingMove(
        place=pb.KillTheKingMove.Place(unit=unit, square=square, facing=pb.DIRECTION_NORTH)
    )


def test_a_second_counter_of_a_type_is_placed_as_the_next_one() -> None:
    same = interchangeable(_placing_view(), _place(18), 0)
    assert same is not None
    move, why = same
    assert move == _place(17)
    assert why.startswith("u18 and u17 are both Swordsmen in reserve, alike until placed")
    assert why.endswith("placing u17 on e2")
    spanish = interchangeable(_placing_view(), _place(18), 0, "es")
    assert spanish is not None and "(Espadachines)" in spanish[1] and "u17 en e2" in spanish[1]


def test_only_the_seats_own_reserve_counters_are_mapped() -> None:
    view = _placing_view()
    assert interchangeable(view, _place(17), 0) is None  # already the next one
    assert interchangeable(view, _place(3), 0) is None  # the only Archer
    assert interchangeable(view, _place(30), 0) is None  # the other side's
    assert interchangeable(view, _place(18), None) is None  # a spectator places nothing
    step = pb.KillTheKingMove(step=pb.KillTheKingMove.Step(unit=18, direction=pb.DIRECTION_NORTH))
    assert interchangeable(view, step, 0) is None
