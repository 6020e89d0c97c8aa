"""Positions built from notation through the public API, checked with the engines.

These tests are the proof that the notation is a usable test builder: each
one writes a position as text, parses it with ``throneroom.notation``, checks
the engine accepts it (its invariants hold) and checks a rules consequence.
"""

from __future__ import annotations

from throneroom import notation
from throneroom.v1 import king_is_dead_pb2 as kid_pb
from throneroom.v1 import kings_life_pb2 as kl_pb
from throneroom_server.games.king_is_dead import KingIsDead
from throneroom_server.games.kings_life import KingsLife
from throneroom_server.games.kings_life.data import (
    ALL_CARDS,
    CARD_ACTIVITY,
    CARD_VALUE,
    TOKEN_VALUES,
    cards_of,
)
from throneroom_server.games.nim import Nim

KID = notation.for_game("king_is_dead")
KL = notation.for_game("kings_life")
NIM = notation.for_game("nim")

# Two players: 2 of each faction removed; 18 per faction in all.
ENDGAME = (
    "seats=2 map=3s1w/-/-/-/2w/-/2r/- cards=cal/din/dev/ebo/cae/rat/lon/aqu "
    "p0=s/cgattwr/2s2w2r/13/c p1=ct/gatswr/1s1w1r/12/c "
    "supply=10s10w11r removed=2s2w2r turn=0 pending=turn played=13"
)


def kid_legal(state: kid_pb.KingIsDeadState) -> list[str]:
    engine = KingIsDead()
    seat = engine.to_act(state)[0]
    return [KID.format_move(m) for m in engine.legal_moves(state, seat)]


def test_one_card_left_is_the_only_card_to_play() -> None:
    state = KID.parse_position(ENDGAME)
    KingIsDead().check_invariants(state)
    assert kid_legal(state) == ["pass", "play scots"]


def test_the_scots_card_places_next_to_caledonia_which_borders_only_din_eidyn() -> None:
    engine = KingIsDead()
    state, _ = engine.apply(KID.parse_position(ENDGAME), 0, KID.parse_move("play scots"))
    engine.check_invariants(state)
    text = KID.format_position(state)
    assert "pending=place:s:s:2" in text and "p0=-/cgattwrs/" in text
    assert kid_legal(state) == ["place din"]


def test_two_passes_in_a_row_resolve_the_struggle_for_the_majority() -> None:
    engine = KingIsDead()
    text = ENDGAME.replace("turn=0", "turn=1") + " passes=1"
    state = KID.parse_position(text)
    engine.check_invariants(state)
    after, _ = engine.apply(state, 1, KID.parse_move("pass"))
    engine.check_invariants(after)
    written = KID.format_position(after)
    # Caledonia (3 blue, 1 red) goes to the Scots, first; its card turns face down
    # and its followers go back to the supply.
    assert " map==s1/-/-/-/2w/" in written and " cards=cal-/din/" in written
    assert after.regions[0].control == kid_pb.REGION_CONTROL_SCOTS
    assert "supply=13s11w11r" in written


def test_the_garrison_moves_only_across_a_border() -> None:
    text = (
        "seats=2 map=3s1w/-/-/-/2w/-/2r/- cards=cal/din/dev/ebo/cae/rat/lon/aqu "
        "p0=cattswr/g/2s2w2r/1/c p1=cgattswr/-/1s1w1r/0/c "
        "supply=10s10w11r removed=2s2w2r turn=0 pending=garrison:g played=1"
    )
    state = KID.parse_position(text)
    KingIsDead().check_invariants(state)
    legal = kid_legal(state)
    from_caledonia = {m.split()[1] for m in legal if m.startswith("garrison cal>")}
    assert from_caledonia == {"cal>din"}
    assert "garrison cal>din sw" in legal
    assert not any(m.startswith("garrison cal>dev") for m in legal)


def test_a_mordred_position_keeps_its_black_followers() -> None:
    text = (
        "seats=3 mordred=yes map=1s/1l/-/-/-/-/-/- cards=din/cal/dev/ebo/cae/rat/lon/aqu "
        "p0=cgattswr/-/-/0/c p1=cgattswr/-/-/0/c p2=cgattswr/-/-/0/c "
        "supply=17s18w18r removed=- pool=8 turn=2 pending=turn"
    )
    state = KID.parse_position(text)
    KingIsDead().check_invariants(state)
    assert state.regions[1].loyalists == 1 and state.loyalist_pool == 8
    assert kid_legal(state)[0] == "pass" and len(kid_legal(state)) == 8
    assert KID.format_position(state) == text


def _sun_activity_card(activity: int, value: int) -> int:
    return next(c for c in ALL_CARDS if CARD_ACTIVITY[c] == activity and CARD_VALUE[c] == value)


def test_the_sorcerer_turns_a_displayed_card_into_any_other_activity() -> None:
    engine = KingsLife()
    sorcerer = cards_of(kl_pb.CHARACTER_SORCERER)[0]
    hunt = _sun_activity_card(kl_pb.ACTIVITY_HUNT, 3)
    tourney = _sun_activity_card(kl_pb.ACTIVITY_TOURNEY, 1)
    hands = {0: [sorcerer, tourney], 1: [], 2: [], 3: []}
    others = [c for c in ALL_CARDS if c not in (sorcerer, hunt, tourney)]
    for seat in (1, 2, 3):
        hands[seat], others = others[:5], others[5:]
    fields = [
        "seats=4 day=tue phase=turns first=0 turn=0 prefs=hunt,dance,tourney,feast",
        "deck=" + ",".join(str(c) for c in others),
        "tokens=" + ",".join(str(v) for v in TOKEN_VALUES),
        f"p0.display={hunt}",
        *(f"p{seat}.hand={','.join(str(c) for c in cards)}" for seat, cards in hands.items()),
    ]
    state = KL.parse_position(" ".join(fields))
    engine.check_invariants(state)
    legal = [KL.format_move(m) for m in engine.legal_moves(state, 0)]
    assert [m for m in legal if m.startswith(f"play {sorcerer} ")] == [
        f"play {sorcerer} on {hunt} as {name}" for name in ("tourney", "feast", "dance")
    ]
    assert f"play {tourney}" in legal and "pass" in legal
    # Seat 0 turns Hunt into Dance; its program is then Dance, not Hunt.
    after, _ = engine.apply(state, 0, KL.parse_move(f"play {sorcerer} on {hunt} as dance"))
    while after.phase == kl_pb.KingsLifeState.PHASE_QUEEN_WINDOW:
        after, _ = engine.apply(after, after.awaiting[0], KL.parse_move("decline"))
    written = KL.format_position(after)
    assert f"sorcerer={hunt}/dance" in written
    program = next(p for p in engine.view(after, None).programs if p.seat == 0)
    assert program.activity == kl_pb.ACTIVITY_DANCE


def test_a_nim_position_with_one_stone_left_has_one_move_that_wins() -> None:
    engine = Nim()
    state = NIM.parse_position("seats=3 pile=1 max=3 turn=2 secrets=1,2,3 last=1 rng=1/1")
    engine.check_invariants(state)
    assert [NIM.format_move(m) for m in engine.legal_moves(state, 2)] == ["take 1"]
    after, _ = engine.apply(state, 2, NIM.parse_move("1"))
    assert NIM.format_position(after).endswith(
        'winners=2 end=last_stone summary="seat 2 took the last stone"'
    )
