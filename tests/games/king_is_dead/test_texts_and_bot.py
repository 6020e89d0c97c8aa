"""The SDK's texts (three languages), its sentences, and the heuristic bot."""

from __future__ import annotations

import random
import subprocess
import sys

import pytest
from throneroom.bots import RandomBot
from throneroom.envelopes import unwrap, wrap
from throneroom.games import king_is_dead as texts
from throneroom.games.king_is_dead import bot as bot_module
from throneroom.games.king_is_dead import data
from throneroom.games.king_is_dead.bot import KingIsDeadBot
from throneroom.v1 import game_pb2
from throneroom.v1 import king_is_dead_pb2 as pb
from throneroom_server.games.king_is_dead import board
from throneroom_server.games.king_is_dead.endings import (
    TB_COURT_TOTAL,
    TB_FACTION_RECENCY,
    TB_LAST_CARD_PLAYED,
    TB_SECOND_FACTION,
    TB_SECOND_FACTION_RECENCY,
)

from .helpers import GAME, Event, Move

LANGS = ("en", "es", "pt")


def test_every_region_faction_and_card_has_texts_in_three_languages() -> None:
    for table, enum in (
        (texts.REGIONS, pb.Region),
        (texts.FACTIONS, pb.Faction),
        (texts.CARDS, pb.ActionCard),
    ):
        values = [v for v in enum.values() if v]
        assert sorted(table) == sorted(values)
        for value in values:
            for lang in LANGS:
                assert table[value][lang].name and table[value][lang].description
    for faction in board.COLOURS:
        assert [texts.colour_name(faction, lang) for lang in LANGS]
    assert texts.colour_name(pb.FACTION_WELSH, "pt") == "vermelho"


@pytest.mark.parametrize(
    ("card", "names"),
    [
        (pb.ACTION_CARD_CROWN, ("Crown", "Corona", "Coroa")),
        (pb.ACTION_CARD_GARRISON, ("Garrison", "Guarnición", "Guarnição")),
        (pb.ACTION_CARD_AMBASSADOR, ("Ambassador", "Embajador", "Embaixador")),
        (pb.ACTION_CARD_SETTLERS, ("Settlers", "Asentamiento", "Assentamentos")),
        (pb.ACTION_CARD_SCOTS, ("Scots", "Escoceses", "Escoceses")),
        (pb.ACTION_CARD_WELSH, ("Welsh", "Galeses", "Galeses")),
        (
            pb.ACTION_CARD_ROMANO_BRITISH,
            ("Romano-British", "Romano-británicos", "Romano-Britânicos"),
        ),
    ],
)
def test_card_names_as_the_rulebooks_say(card: int, names: tuple[str, str, str]) -> None:
    assert tuple(texts.card_name(card, lang) for lang in LANGS) == names


def test_region_names_as_printed() -> None:
    assert [texts.region_name(r) for r in board.REGIONS] == [
        board.REGION_NAMES[r] for r in board.REGIONS
    ]
    assert texts.region_name(pb.REGION_CALEDONIA, "pt") == "Caledônia"
    assert texts.region_name(pb.REGION_CALEDONIA, "xx") == "Caledonia"  # English fallback


def test_event_kinds_terminations_and_tiebreaks_are_all_named() -> None:
    kinds = [f.name for f in pb.KingIsDeadEvent.DESCRIPTOR.oneofs_by_name["kind"].fields]
    assert sorted(texts.EVENT_KINDS) == sorted(kinds)
    assert sorted(texts.TERMINATIONS) == ["control", "invasion", "loyalist"]
    codes = [
        TB_FACTION_RECENCY,
        TB_SECOND_FACTION,
        TB_SECOND_FACTION_RECENCY,
        TB_LAST_CARD_PLAYED,
        TB_COURT_TOTAL,
    ]
    assert sorted(texts.TIEBREAKS) == sorted(codes)
    for table in (texts.TERMINATIONS, texts.TIEBREAKS):
        assert all(set(v) == set(LANGS) for v in table.values())


def test_sentences_for_every_move_and_event_of_real_games() -> None:
    seen_moves: set[str] = set()
    seen_events: set[str] = set()
    for seed in range(12):
        options = GAME.default_options()
        options.mordred = seed % 2 == 1
        state = GAME.setup(options, 2 + seed % 3, seed)
        events: list[Event] = GAME.setup_events(state)
        chooser = random.Random(seed)
        while GAME.to_act(state):
            seat = GAME.to_act(state)[0]
            moves = GAME.legal_moves(state, seat)
            move: Move = moves[chooser.randrange(len(moves))]
            for lang in LANGS:
                sentence = texts.describe_move(move, lang)
                assert sentence and "{" not in sentence
            seen_moves.add(str(move.WhichOneof("decision")))
            state, new = GAME.apply(state, seat, move)
            events.extend(new)
        for event in events:
            for lang in LANGS:
                sentence = texts.describe_event(event, lang)
                assert sentence.endswith(".") and "?" not in sentence
            seen_events.add(str(event.WhichOneof("kind")))
    assert len(seen_moves) == 8
    assert {"setup", "card_played", "struggle_resolved", "game_ended"} <= seen_events


def test_some_sentences() -> None:
    move = pb.KingIsDeadMove(
        garrison=pb.KingIsDeadMove.Garrison(
            from_region=pb.REGION_DEVA,
            to_region=pb.REGION_RATAE,
            outgoing=[pb.FACTION_SCOTS, pb.FACTION_WELSH],
            returning=pb.FACTION_LOYALISTS,
        )
    )
    assert (
        texts.describe_move(move)
        == "Resolve the Garrison: Scots and Welsh from Deva to Ratae, Loyalists back to Deva"
    )
    assert texts.describe_move(move, "es").startswith(
        "Resuelve la Guarnición: Escoceses y Galeses de Deva a Ratae"
    )
    assert texts.describe_move(move, "es", mover=1, viewer=1).startswith("Resuelves la")
    assert texts.describe_move(move, "pt", mover=1, viewer=0, names=("Ana", "Rui")).startswith(
        "Rui resolve a Guarnição"
    )
    played = pb.KingIsDeadEvent.CardPlayed(seat=1, card=pb.ACTION_CARD_GARRISON, cards_left=5)
    event = pb.KingIsDeadEvent(card_played=played)
    assert texts.describe_event(event) == "Seat 1 plays Garrison (5 cards left)."
    assert texts.describe_event(event, "pt") == "Assento 1 joga Guarnição (5 cartas na mão)."
    assert texts.describe_event(event, "es", viewer=1) == "Juegas Guarnición (5 cartas en la mano)."


def test_sdk_modules_do_not_import_the_server() -> None:
    code = (
        "import sys\n"
        "import throneroom.games.king_is_dead, throneroom.games.king_is_dead.bot\n"
        "assert not [m for m in sys.modules if m.startswith('throneroom_server')]\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_bot_engine_and_texts_share_one_copy_of_the_data() -> None:
    # One home (throneroom.games.king_is_dead.data): the same objects everywhere.
    for name in ("BORDERS", "NEIGHBOURS", "HOMES", "BANNER", "CARD_FACTION", "REGIONS"):
        assert getattr(bot_module, name) is getattr(data, name) is getattr(board, name), name
    assert sorted(texts.REGIONS) == list(data.REGIONS)
    assert sorted(texts.CARDS) == sorted(data.CARDS)
    assert sorted(texts.FACTIONS) == sorted(texts.COLOURS) == sorted(data.COLOURS)
    # The region texts are written from the map data.
    assert "Aquae Sulis" in texts.REGIONS[data.DEVA]["en"].description
    assert "Din Eidyn" in texts.REGIONS[data.LONDINIUM]["en"].description
    assert texts.REGIONS[data.CAERLEON]["en"].description.startswith("Home region of the Welsh")


def _play(bots: list[object], seed: int, mordred: bool = False) -> list[int]:
    options = GAME.default_options()
    options.mordred = mordred
    state = GAME.setup(options, len(bots), seed)
    while acting := GAME.to_act(state):
        seat = acting[0]
        view = wrap(game_pb2.View, "king_is_dead", GAME.view(state, seat))
        legal = [wrap(game_pb2.Move, "king_is_dead", m) for m in GAME.legal_moves(state, seat)]
        chosen = bots[seat].choose("king_is_dead", seat, view, legal)  # type: ignore[attr-defined]
        assert chosen in legal
        state, _ = GAME.apply(state, seat, unwrap(chosen))  # type: ignore[arg-type]
    return list(state.outcome.winners)


@pytest.mark.parametrize(("seats", "mordred"), [(2, True), (3, False), (4, True)])
def test_bot_plays_legal_moves_to_the_end(seats: int, mordred: bool) -> None:
    bots: list[object] = [RandomBot(seed=s) for s in range(seats)]
    bots[1] = KingIsDeadBot(seed=1)
    assert _play(bots, seed=seats, mordred=mordred)


@pytest.mark.slow  # many whole games
def test_bot_beats_random_in_two_player_games() -> None:
    wins = 0
    for game in range(16):
        hero = game % 2
        bots: list[object] = [RandomBot(seed=game * 10 + s) for s in range(2)]
        bots[hero] = KingIsDeadBot(seed=game)
        wins += hero in _play(bots, seed=1000 + game)
    assert wins >= 13  # the full evaluation: scripts/bot_eval.py king_is_dead
