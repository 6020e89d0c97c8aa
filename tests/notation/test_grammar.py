"""The documented spellings (docs/notation.md): canonical forms and accepted aliases."""

from __future__ import annotations

import pytest
from google.protobuf import text_format
from throneroom import notation
from throneroom.v1 import king_is_dead_pb2, kings_life_pb2, nim_pb2
from throneroom_server.games.king_is_dead import KingIsDead
from throneroom_server.games.kings_life import KingsLife
from throneroom_server.games.nim import Nim

KID_MOVES = [
    # (canonical notation, the move in protobuf text format)
    ("pass", "pass_turn {}"),
    ("play garrison", "play_card { card: ACTION_CARD_GARRISON }"),
    ("play romano_british", "play_card { card: ACTION_CARD_ROMANO_BRITISH }"),
    (
        "crown cal* dev",
        "crown { region_a: REGION_CALEDONIA region_b: REGION_DEVA crowned: REGION_CALEDONIA }",
    ),
    (
        "crown din aqu*",
        "crown { region_a: REGION_DIN_EIDYN region_b: REGION_AQUAE_SULIS"
        " crowned: REGION_AQUAE_SULIS }",
    ),
    (
        "garrison cal>din sw/r",
        "garrison { from_region: REGION_CALEDONIA to_region: REGION_DIN_EIDYN"
        " outgoing: [FACTION_SCOTS, FACTION_WELSH] returning: FACTION_ROMANO_BRITISH }",
    ),
    (
        "garrison rat>lon l",
        "garrison { from_region: REGION_RATAE to_region: REGION_LONDINIUM"
        " outgoing: FACTION_LOYALISTS }",
    ),
    (
        "ambassador s@cal w@din",
        "ambassador { region_a: REGION_CALEDONIA region_b: REGION_DIN_EIDYN"
        " from_a: FACTION_SCOTS from_b: FACTION_WELSH }",
    ),
    (
        "ambassador cal r@ebo",
        "ambassador { region_a: REGION_CALEDONIA region_b: REGION_EBORACUM"
        " from_b: FACTION_ROMANO_BRITISH }",
    ),
    ("settle cae", "settle { region: REGION_CAERLEON }"),
    ("place lon", "place { region: REGION_LONDINIUM }"),
    ("summon s@cal", "summon { region: REGION_CALEDONIA faction: FACTION_SCOTS }"),
]

KL_MOVES = [
    ("exchange 3 17 40", "exchange { discard: [3, 17, 40] }"),
    ("exchange none", "exchange {}"),
    ("mulligan", "mulligan { take: true }"),
    ("keep", "mulligan {}"),
    ("commit 12", "commit { card: 12 }"),
    ("commit none", "commit {}"),
    ("queen 2", "queen { cancel: true target: 2 }"),
    ("decline", "queen {}"),
    ("play 52 on 31", "play { card: 52 target_card: 31 }"),
    ("play 55 on 31 as hunt", "play { card: 55 target_card: 31 activity: ACTIVITY_HUNT }"),
    ("play 66 swap 3 40", "play { card: 66 cards: [3, 40] }"),
    ("play 60 pos 0 3", "play { card: 60 positions: [0, 3] }"),
    ("play 58 day thu", "play { card: 58 token_day: DAY_THURSDAY }"),
    ("play 64 support 2 give 31", "play { card: 64 support: 2 hand_over: 31 }"),
    ("play 67 support 0", "play { card: 67 support: 0 }"),
    ("pass", "passing {}"),
    ("pass support 0", "passing { support: 0 }"),
    ("pass support 2 give 31", "passing { support: 2 hand_over: 31 }"),
    ("duke", "duke { play: true }"),
    ("no-duke", "duke {}"),
    ("back 31", "take_back { card: 31 }"),
    ("done", "take_back {}"),
]


@pytest.mark.parametrize(("written", "proto"), KID_MOVES)
def test_king_is_dead_moves(written: str, proto: str) -> None:
    move = text_format.Parse(proto, king_is_dead_pb2.KingIsDeadMove())
    assert notation.for_game("king_is_dead").format_move(move) == written
    assert notation.for_game("king_is_dead").parse_move(written) == move


@pytest.mark.parametrize(("written", "proto"), KL_MOVES)
def test_kings_life_moves(written: str, proto: str) -> None:
    move = text_format.Parse(proto, kings_life_pb2.KingsLifeMove())
    assert notation.for_game("kings_life").format_move(move) == written
    assert notation.for_game("kings_life").parse_move(written) == move


@pytest.mark.parametrize(
    ("alias", "canonical"),
    [
        ("Summon Scots@Caledonia", "summon s@cal"),
        ("summon blue@din_eidyn", "summon s@din"),
        ("summon S@Din-Eidyn", "summon s@din"),
        ("play gar", "play garrison"),
        ("play rb", "play romano_british"),
        ("play Romano-British", "play romano_british"),
        ("play action_card_crown", "play crown"),
        ("crown aquae_sulis *deva", "crown aqu dev*"),
        ("settle  AQUAESULIS", "settle aqu"),
        ("garrison EBO>Lon  -/s", "garrison ebo>lon -/s"),
    ],
)
def test_king_is_dead_aliases(alias: str, canonical: str) -> None:
    kid = notation.for_game("king_is_dead")
    assert kid.format_move(kid.parse_move(alias)) == canonical


@pytest.mark.parametrize(
    ("alias", "canonical"),
    [
        ("PLAY 55 ON 31 AS Tourney", "play 55 on 31 as tourney"),
        ("play 58 day Thursday", "play 58 day thu"),
        ("play 55 as dan on 9", "play 55 on 9 as dance"),
        ("noduke", "no-duke"),
        ("no_duke", "no-duke"),
    ],
)
def test_kings_life_aliases(alias: str, canonical: str) -> None:
    kl = notation.for_game("kings_life")
    assert kl.format_move(kl.parse_move(alias)) == canonical


def test_nim_moves() -> None:
    nim = notation.for_game("nim")
    assert nim.format_move(nim_pb2.NimMove(take=2)) == "take 2"
    assert nim.parse_move("2") == nim.parse_move("TAKE 2") == nim_pb2.NimMove(take=2)


def test_the_position_of_a_new_nim_game() -> None:
    state = Nim().setup(nim_pb2.NimOptions(pile=5, max_take=2), 2, 42)
    text = notation.for_game("nim").format_position(state)
    secrets = ",".join(str(s) for s in state.secrets)
    assert text.startswith(f"seats=2 pile=5 max=2 turn=0 secrets={secrets} last=-1 rng=")
    assert notation.for_game("nim").parse_position(text.upper().replace("RNG", "rng")) == state


def test_fields_may_come_in_any_order_and_defaults_may_be_left_out() -> None:
    kl = notation.for_game("kings_life")
    state = kl.parse_position("phase=mulligan awaiting=0,1,2,3 seats=4")
    assert state.turn == -1 and state.last_winner == -1 and state.queen_target == -1
    assert [p.supporter for p in state.players] == [-1] * 4
    assert kl.format_position(state) == "seats=4 phase=mulligan first=0 awaiting=0,1,2,3"


def test_boards_show_a_seat_its_own_secrets_only() -> None:
    kid_engine, kl_engine = KingIsDead(), KingsLife()
    kid = notation.for_game("king_is_dead")
    state = kid_engine.setup(king_is_dead_pb2.KingIsDeadOptions(mordred=True), 3, 7)
    seat_board = kid.render_view(kid_engine.view(state, 1), 1)
    spectator_board = kid.render_view(kid_engine.view(state, None), None)
    assert "as seat 1" in seat_board and "seat 1 (you)" in seat_board
    assert "Your hand: Crown, Garrison" in seat_board
    assert "Your hand" not in spectator_board and "as spectator" in spectator_board
    assert "Caledonia [cal]" in spectator_board and "<- power struggle" in spectator_board
    assert "Loyalist pool" in spectator_board

    kl = notation.for_game("kings_life")
    kl_state = kl_engine.setup(kl_engine.default_options(), 4, 7)
    for seat in range(4):
        board = kl.render_view(kl_engine.view(kl_state, seat), seat)
        assert "The king prefers: 1." in board and "Support tokens: Tuesday" in board
        (line,) = [line for line in board.splitlines() if line.startswith("Your hand: ")]
        shown = [int(item.split()[0]) for item in line.removeprefix("Your hand: ").split(", ")]
        assert shown == sorted(kl_state.players[seat].hand)
    spectator = kl.render_view(kl_engine.view(kl_state, None), None)
    assert "Your hand" not in spectator and "as spectator" in spectator
