"""Sentences for every Kill the King move and event (texts.py), the ones of
the advanced units and leaders included (KK-138, KK-135, KK-146, KK-150)."""

from __future__ import annotations

from throneroom.games.kill_the_king.texts import describe_event, describe_move
from throneroom.v1 import kill_the_king_pb2 as pb

Move = pb.KillTheKingMove
Event = pb.KillTheKingEvent


def test_every_event_kind_has_its_own_sentence() -> None:
    for field in Event.DESCRIPTOR.oneofs_by_name["kind"].fields:
        event = Event()
        getattr(event, field.name).SetInParent()
        text = describe_event(event)
        assert text and text != field.name.replace("_", " "), field.name


def test_every_move_kind_has_its_own_sentence() -> None:
    for field in Move.DESCRIPTOR.oneofs_by_name["decision"].fields:
        move = Move()
        getattr(move, field.name).SetInParent()
        assert describe_move(move) != "Make an empty move", field.name


def test_the_new_units_sentences() -> None:
    assert (
        describe_event(Event(panicked=Event.Panicked(unit=7, direction=pb.DIRECTION_WEST)))
        == "Unit 7 panics and runs west"
    )
    assert describe_event(Event(pigs_exploded=Event.PigsExploded(unit=3))) == (
        "The Flaming Pigs (unit 3) explode"
    )
    bolt = Move(attack=Move.Attack(unit=2, target=pb.Square(row=7, col=5), level=pb.LEVEL_WALL))
    assert describe_move(bolt) == "Attack f8 on the wall with unit 2"
    assert describe_move(Move(disband=Move.Disband(unit=4))) == (
        "Remove unit 4 (the Treasurer is dead)"
    )
    assert describe_event(Event(manned=Event.Manned(crew=3, engine=2))) == (
        "Unit 3 mans (or boards) unit 2"
    )


def test_giga_games_are_told_sentence_by_sentence() -> None:
    """KK-127: a team's turn is told seat by seat; every move and event of a
    whole four-seat Giga game has its sentence."""
    from tests.games.kill_the_king.giga_positions import KTKG, fresh
    from tests.games.kill_the_king.positions import ENGINE

    state = fresh(KTKG, 4, seed=5)
    told: list[str] = []
    moves_seen = 0
    while acting := ENGINE.to_act(state):
        seat = acting[0]
        assert isinstance(seat, int)
        moves = list(ENGINE.legal_moves(state, seat))
        move = moves[moves_seen % len(moves)]
        assert describe_move(move) not in ("", "Make an empty move")
        state, events = ENGINE.apply(state, seat, move)
        told += [describe_event(e) for e in events]
        moves_seen += 1
    assert all(told)
    turns = [t for t in told if t.endswith("(round 1)")]
    assert {t.split(" plays for ", 1)[0] for t in turns} == {
        "Seat 0",
        "Seat 1",
        "Seat 2",
        "Seat 3",
    }
