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


def test_a_square_is_spelled_one_way_everywhere() -> None:
    from throneroom.games import kill_the_king
    from throneroom.games.kill_the_king.notation import square_text
    from throneroom.games.kill_the_king.web import web_data

    gate = pb.Square(row=9, col=1)
    assert kill_the_king.square_name(gate) == square_text(gate) == "b10"
    for mode in web_data()["modes"].values():
        field = mode["field"]
        assert field["squareNames"][9][1] == "b10"
        assert len(field["squareNames"]) == field["rows"]
    wall = Event(wall_destroyed=Event.WallDestroyed(square=gate))
    assert describe_event(wall) == "The wall at b10 falls"
    assert describe_event(wall, lang="es") == "Cae el muro de b10"
    assert describe_event(wall, lang="pt") == "A muralha em b10 cai"


def test_units_are_named_with_their_articles() -> None:
    def buy(unit: int, lang: str = "en") -> str:
        return describe_move(Move(buy=Move.Buy(unit=unit)), mover=0, viewer=0, lang=lang)

    assert buy(pb.UNIT_TYPE_ARCHER) == "You buy an Archer"
    assert buy(pb.UNIT_TYPE_SPEARMEN) == "You buy Spearmen"
    assert buy(pb.UNIT_TYPE_CATAPULT, "es") == "Compras una Catapulta"
    assert buy(pb.UNIT_TYPE_CAVALRY, "pt") == "Você compra Cavalaria"
    leader = Move(choose_leader=Move.ChooseLeader(leader=pb.UNIT_TYPE_RANGER))
    assert describe_move(leader) == "Choose the Ranger as leader"  # not "the The Ranger"
    assert describe_move(leader, lang="es") == "Elige como líder al Explorador"
    placed = Event(
        unit_placed=Event.UnitPlaced(
            seat=1, unit=pb.KillTheKingUnit(type=pb.UNIT_TYPE_SPEARMEN, square=pb.Square())
        )
    )
    assert describe_event(placed, names=("Ana", "Rui")) == "Rui places Spearmen on a1"
    assert describe_event(placed, viewer=1) == "You place Spearmen on a1"
    due = Event(reinforcements_due=Event.ReinforcementsDue(seat=0, cavalry=1, value=1))
    assert describe_event(due) == (
        "Seat 0 gets reinforcements: 1 Cavalry counter and units worth 1 coin"
    )
    ended = Event(game_ended=Event.GameEnded(termination="door", winners=[0], winning_side=1))
    assert describe_event(ended, viewer=1) == (
        "Game over (the attacker destroyed the King's Door): victory for the attacker (seat 0)"
    )
