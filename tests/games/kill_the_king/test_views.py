"""Views and event redaction (KK-7, KK-121, KK-122): the opponent's placement
is hidden until the reveal; everything else is public; the RNG never shows."""

from __future__ import annotations

import random

from throneroom.games.kill_the_king.data import UnitType
from throneroom.v1 import kill_the_king_pb2 as pb

from tests.games.kill_the_king.positions import ENGINE, A, D, Field, legal, play

State = pb.KillTheKingState
Move = pb.KillTheKingMove
RESERVE = pb.KillTheKingUnit.STATUS_RESERVE
ON_FIELD = pb.KillTheKingUnit.STATUS_ON_FIELD


def redact(events: list[pb.KillTheKingEvent], viewer: int | None) -> list[pb.KillTheKingEvent]:
    return [r for e in events if (r := ENGINE.redact_event(e, viewer)) is not None]


def in_placement(seed: int = 4) -> State:
    state = ENGINE.setup(pb.KillTheKingOptions(), 2, seed)
    state, _ = play(state, Move(choose_side=Move.ChooseSide(side=pb.SIDE_ATTACKER)))
    suggested = Move(buy_suggested_army=Move.BuySuggestedArmy())
    state, _ = play(state, suggested)
    state, _ = play(state, suggested)
    for kind in (pb.UNIT_TYPE_RANGER, pb.UNIT_TYPE_KNIGHT):
        state, _ = play(state, Move(choose_leader=Move.ChooseLeader(leader=kind)))
    return state


def test_before_the_reveal_a_seat_sees_its_own_placements_only() -> None:
    state = in_placement()
    placed: dict[int, list[int]] = {0: [], 1: []}
    chooser = random.Random(2)
    for _ in range(6):
        for seat in (0, 1):
            move = chooser.choice(legal(state, seat))
            state, events = play(state, move, seat)
            placed[seat].append(move.place.unit)
            mine = redact(events, seat)
            theirs = redact(events, 1 - seat)
            spectator = redact(events, None)
            assert mine[0].unit_placed.unit.square == move.place.square
            assert (
                theirs[0]
                == spectator[0]
                == pb.KillTheKingEvent(unit_placed=pb.KillTheKingEvent.UnitPlaced(seat=seat))
            )
    for viewer in (0, 1, None):
        view = ENGINE.view(state, viewer)
        for u in view.units:
            if viewer is not None and u.seat == viewer and u.id in placed[viewer]:
                assert u.status == ON_FIELD and u.HasField("square")
            else:
                assert u.status == RESERVE and not u.HasField("square") and u.facing == 0
        assert view.field == ENGINE.view(in_placement(), viewer).field or viewer is not None
    assert list(ENGINE.view(state, 0).to_act) == [0, 1]


def test_after_the_reveal_every_view_shows_every_unit() -> None:
    state = in_placement()
    chooser = random.Random(3)
    while state.phase == State.PHASE_PLACEMENT:
        seat = chooser.choice(list(ENGINE.to_act(state)))
        state, events = play(state, chooser.choice(legal(state, seat)), seat)
    reveal = next(e for e in events if e.HasField("placement_revealed"))
    assert redact([reveal], 0) == redact([reveal], None) == [reveal]
    views = [ENGINE.view(state, v) for v in (0, 1, None)]
    for view in views:
        assert list(view.units) == list(state.units)
    assert views[0].field == views[1].field == views[2].field


def test_no_view_holds_the_rng_and_the_field_is_rendered_with_letters() -> None:
    f = Field()
    f.put(UnitType.SWORDSMEN, A, 1, 3)
    f.put(UnitType.KNIGHT, D, 12, 3)
    state = f.turn(A, 1)
    view = ENGINE.view(state, None)
    assert not any(name == "rng" for name in pb.KillTheKingView.DESCRIPTOR.fields_by_name)
    rows = view.field.splitlines()
    assert rows[15 - 1][3] == "W"  # row 1 (rows are drawn northmost first)
    assert rows[15 - 12][3] == "n"
    assert view.viewer == -1 and list(view.to_act) == [0]
