"""Kill the King's documented spellings (docs/notation.md): canonical forms,
accepted aliases, and positions written field by field."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from google.protobuf import text_format
from throneroom import notation
from throneroom.games.kill_the_king import notation as kill_the_king
from throneroom.v1 import kill_the_king_pb2 as pb

KTK = notation.for_game("kill_the_king")

MOVES = [
    # (canonical notation, the move in protobuf text format): the table of docs/notation.md
    ("side attacker", "choose_side { side: SIDE_ATTACKER }"),
    ("side defender", "choose_side { side: SIDE_DEFENDER }"),
    ("buy archer", "buy { unit: UNIT_TYPE_ARCHER }"),
    ("buy war_elephant", "buy { unit: UNIT_TYPE_WAR_ELEPHANT }"),
    ("buy suggested", "buy_suggested_army {}"),
    ("leader knight", "choose_leader { leader: UNIT_TYPE_KNIGHT }"),
    (
        "place u7 c2 n",
        "place { unit: 7 square { row: 1 col: 2 } facing: DIRECTION_NORTH }",
    ),
    (
        "place u0 a1 s",
        "place { square {} facing: DIRECTION_SOUTH }",
    ),
    (
        "reinforce cavalry a12 e",
        "reinforce { unit: UNIT_TYPE_CAVALRY square { row: 11 col: 0 } facing: DIRECTION_EAST }",
    ),
    ("step u7 n", "step { unit: 7 direction: DIRECTION_NORTH }"),
    ("rotate u7 e", "rotate { unit: 7 facing: DIRECTION_EAST }"),
    ("climb u4 n", "climb { unit: 4 direction: DIRECTION_NORTH }"),
    ("prepare u4 w", "prepare_climb { unit: 4 direction: DIRECTION_WEST }"),
    ("dismount u9", "dismount { unit: 9 }"),
    ("attack u3 e5", "attack { unit: 3 target { row: 4 col: 4 } }"),
    (
        "attack u8 f10 wall",
        "attack { unit: 8 target { row: 9 col: 5 } level: LEVEL_WALL }",
    ),
    ("attack u8 k32 ground", "attack { unit: 8 target { row: 31 col: 10 } level: LEVEL_GROUND }"),
    ("advance", "follow_up { advance: true }"),
    ("stay", "follow_up {}"),
    ("disband u11", "disband { unit: 11 }"),
    ("end", "end_phase {}"),
]


@pytest.mark.parametrize(("written", "proto"), MOVES)
def test_canonical_moves(written: str, proto: str) -> None:
    move = text_format.Parse(proto, pb.KillTheKingMove())
    assert KTK.format_move(move) == written
    assert KTK.parse_move(written) == move


def test_the_table_has_every_kind_of_move() -> None:
    kinds = {KTK.parse_move(w).WhichOneof("decision") for w, _ in MOVES}
    assert kinds == {
        f.name for f in pb.KillTheKingMove.DESCRIPTOR.oneofs_by_name["decision"].fields
    }


ALIASES = [
    # (accepted text, its canonical spelling)
    ("SIDE ATTACKER", "side attacker"),
    ("side a", "side attacker"),
    ("side def", "side defender"),
    ("side white", "side defender"),
    ("side side_defender", "side defender"),
    ("buy A", "buy archer"),
    ("buy w", "buy swordsmen"),
    ("buy sw", "buy swordsmen"),
    ("buy sp", "buy spearmen"),
    ("buy swordsman", "buy swordsmen"),
    ("buy War-Elephant", "buy war_elephant"),
    ("buy elephant", "buy war_elephant"),
    ("buy pigs", "buy flaming_pigs"),
    ("buy ram", "buy battering_ram"),
    ("buy tower", "buy siege_tower"),
    ("buy k", "buy catapult"),
    ("buy unit_type_ballista", "buy ballista"),
    ("buy army", "buy suggested"),
    ("leader n", "leader knight"),
    ("leader beast", "leader beastmaster"),
    ("place 7 C2 North", "place u7 c2 n"),
    ("  step   u7\tnorth ", "step u7 n"),
    ("rotate u12 direction_west", "rotate u12 w"),
    ("prepare_climb u4 south", "prepare u4 s"),
    ("prepare-climb u4 e", "prepare u4 e"),
    ("attack 3 e5 stair", "attack u3 e5 stairs"),
    ("attack u3 e5 level_wall", "attack u3 e5 wall"),
    ("reinforce c a16 e", "reinforce cavalry a16 e"),
    ("END", "end"),
]


@pytest.mark.parametrize(("text", "canonical"), ALIASES)
def test_accepted_aliases(text: str, canonical: str) -> None:
    move = KTK.parse_move(text)
    assert KTK.format_move(move) == canonical
    assert KTK.parse_move(canonical) == move


@pytest.mark.parametrize("ambiguous", ["buy ca", "buy s_", "leader x", "side x"])
def test_ambiguous_or_unknown_prefixes_are_refused(ambiguous: str) -> None:
    with pytest.raises(notation.NotationError):
        KTK.parse_move(ambiguous)


def test_squares_are_chess_like_from_the_attackers_edge() -> None:
    assert kill_the_king.square_text(pb.Square(row=0, col=0)) == "a1"
    assert kill_the_king.square_text(pb.Square(row=9, col=5)) == "f10"  # the outer gate
    assert kill_the_king.square_text(pb.Square(row=15, col=5)) == "f16"  # the King's Door
    assert kill_the_king.square_text(pb.Square(row=31, col=10)) == "k32"  # a Giga field's corner
    assert kill_the_king.read_square("f10") == (9, 5)
    assert isinstance(kill_the_king.read_square("f0"), str)
    assert isinstance(kill_the_king.read_square("f01"), str)


# -- positions ------------------------------------------------------------------------------

POSITION = (
    "seats=2 mode=kill_the_king phase=movement round=3 turn=a0 active=0 gates=f10:d "
    "ruins=c10:2 p0.side=attacker p0.rolls=4,5 p1.side=defender p1.team=1 p1.rolls=4,2 "
    "u0=swordsmen:a0:c8:n:mp=2:moved u1=archer:d1:e10#:s u2=battering_ram:a0:f9:n "
    "u3=spearmen:a0:f9:n:in=2 u4=knight:d1:reserve u5=archer:d1:dead@c3:s "
    "u6=catapult:d1:b10#:s:immobile u7=ranger:a0:f10#:w u8=cavalry:a0:e9:n:climb=n "
    "rng=00000000000004d2/0000000000000007"
)
POSITION_PROTO = """
num_seats: 2 mode: KILL_THE_KING_MODE_KILL_THE_KING phase: PHASE_MOVEMENT round: 3
turn_side: SIDE_ATTACKER to_move: 0 active_unit: 0
gates { square { row: 9 col: 5 } controlled_by: SIDE_DEFENDER }
ruins { square { row: 9 col: 2 } round: 2 }
seats { side: SIDE_ATTACKER initiative_rolls: [4, 5] }
seats { side: SIDE_DEFENDER team: 1 initiative_rolls: [4, 2] }
units { id: 0 type: UNIT_TYPE_SWORDSMEN seat: 0 side: SIDE_ATTACKER status: STATUS_ON_FIELD
        square { row: 7 col: 2 } level: LEVEL_GROUND facing: DIRECTION_NORTH carried_by: -1
        movement_used: 2 moved: true }
units { id: 1 type: UNIT_TYPE_ARCHER seat: 1 side: SIDE_DEFENDER status: STATUS_ON_FIELD
        square { row: 9 col: 4 } level: LEVEL_WALL facing: DIRECTION_SOUTH carried_by: -1 }
units { id: 2 type: UNIT_TYPE_BATTERING_RAM seat: 0 side: SIDE_ATTACKER status: STATUS_ON_FIELD
        square { row: 8 col: 5 } level: LEVEL_GROUND facing: DIRECTION_NORTH carried_by: -1 }
units { id: 3 type: UNIT_TYPE_SPEARMEN seat: 0 side: SIDE_ATTACKER status: STATUS_ON_FIELD
        square { row: 8 col: 5 } level: LEVEL_GROUND facing: DIRECTION_NORTH carried_by: 2 }
units { id: 4 type: UNIT_TYPE_KNIGHT seat: 1 side: SIDE_DEFENDER status: STATUS_RESERVE
        carried_by: -1 }
units { id: 5 type: UNIT_TYPE_ARCHER seat: 1 side: SIDE_DEFENDER status: STATUS_DEAD
        square { row: 2 col: 2 } level: LEVEL_GROUND facing: DIRECTION_SOUTH carried_by: -1 }
units { id: 6 type: UNIT_TYPE_CATAPULT seat: 1 side: SIDE_DEFENDER status: STATUS_ON_FIELD
        square { row: 9 col: 1 } level: LEVEL_WALL facing: DIRECTION_SOUTH carried_by: -1
        immobile: true }
units { id: 7 type: UNIT_TYPE_RANGER seat: 0 side: SIDE_ATTACKER status: STATUS_ON_FIELD
        square { row: 9 col: 5 } level: LEVEL_WALL facing: DIRECTION_WEST carried_by: -1 }
units { id: 8 type: UNIT_TYPE_CAVALRY seat: 0 side: SIDE_ATTACKER status: STATUS_ON_FIELD
        square { row: 8 col: 4 } level: LEVEL_GROUND facing: DIRECTION_NORTH carried_by: -1
        climb: DIRECTION_NORTH }
rng { state: 1234 inc: 7 }
"""


def test_a_position_field_by_field() -> None:
    state = text_format.Parse(POSITION_PROTO, pb.KillTheKingState())
    assert KTK.parse_position(POSITION) == state
    assert KTK.format_position(state) == POSITION


def test_fields_at_their_defaults_are_left_out() -> None:
    state = KTK.parse_position("seats=2")
    assert state == pb.KillTheKingState(
        num_seats=2, active_unit=-1, seats=[pb.KillTheKingSeat(), pb.KillTheKingSeat()]
    )
    assert KTK.format_position(state) == "seats=2 mode=unspecified phase=unspecified turn=x0"


UNIT_SPELLINGS = [
    # (the u0= value, what it says), one per part of the grammar
    ("archer:a0:c3", "type:STATUS_ON_FIELD square level:LEVEL_GROUND"),
    ("archer:a0:c3#", "level:LEVEL_WALL"),
    ("archer:a0:c3/", "level:LEVEL_STAIRS"),
    ("archer:a0:c3?", "level:LEVEL_UNSPECIFIED"),
    ("archer:a0:reserve", "status:STATUS_RESERVE"),
    ("archer:a0:reserve@c3#", "status:STATUS_RESERVE level:LEVEL_WALL"),
    ("archer:a0:on_field", "status:STATUS_ON_FIELD no square"),
    ("archer:x-1:unspecified", "side:SIDE_UNSPECIFIED seat:-1"),
    ("archer:d1:dead:level=wall", "status:STATUS_DEAD level:LEVEL_WALL"),
    ("cavalry:a0:c3:e:dismounted:free", "dismounted free"),
    ("spearmen:a0:c3:n:in=4:stack=2", "carried_by:4 stack:2"),
    ("archer:a0:c3:n:mp=3:moved:rotated:attacked", "movement_used:3 moved rotated attacked"),
    ("archer:a0:c3:n:climb=unspecified", "climb present, 0"),
    ("catapult:d1:b10#:s:id=12:immobile", "immobile id:12"),
]


@pytest.mark.parametrize(("value", "says"), UNIT_SPELLINGS)
def test_unit_spellings(value: str, says: str) -> None:
    state = KTK.parse_position(f"seats=1 u0={value}")
    (unit,) = state.units
    assert KTK.format_position(state).endswith(f"u0={value}")
    expected = {
        "STATUS_RESERVE": unit.status == pb.KillTheKingUnit.STATUS_RESERVE,
        "STATUS_DEAD": unit.status == pb.KillTheKingUnit.STATUS_DEAD,
        "LEVEL_WALL": unit.level == pb.LEVEL_WALL,
        "LEVEL_STAIRS": unit.level == pb.LEVEL_STAIRS,
        "LEVEL_UNSPECIFIED": unit.level == pb.LEVEL_UNSPECIFIED and unit.HasField("square"),
        "no square": not unit.HasField("square"),
        "SIDE_UNSPECIFIED": unit.side == pb.SIDE_UNSPECIFIED,
        "seat:-1": unit.seat == -1,
        "dismounted": unit.dismounted,
        "free": unit.free,
        "carried_by:4": unit.carried_by == 4,
        "stack:2": unit.stack == 2,
        "movement_used:3": unit.movement_used == 3,
        "moved": unit.moved,
        "rotated": unit.rotated,
        "attacked": unit.attacked,
        "climb present, 0": unit.HasField("climb") and unit.climb == 0,
        "immobile": unit.immobile,
        "id:12": unit.id == 12,
    }
    for claim, holds in expected.items():
        if claim in says:
            assert holds, claim
    if "id:" not in says:
        assert unit.id == 0
    if "in=" not in value:
        assert unit.carried_by == -1


def test_unit_flags_are_read_in_any_order_and_written_in_one() -> None:
    state = KTK.parse_position("seats=1 u0=Archer:A0:C3:N:ATTACKED:mp=1:moved")
    assert KTK.format_position(state).endswith("u0=archer:a0:c3:n:mp=1:moved:attacked")


def test_other_fields() -> None:
    state = KTK.parse_position(
        "seats=2 mode=ad advanced=yes phase=follow_up resume=attack follow=3@e6 "
        "reinf=3/18/0 door=destroyed reinforced=0 penalty=d initiative=1 "
        "gates=f10:a:destroyed,-:x p0.coins=12 p0.extra=9 p0.placed=yes p1.locked=yes "
        'p1.disband=6 end=door winners=0 summary="the King\'s Door fell"'
    )
    assert state.mode == pb.KILL_THE_KING_MODE_ATTACK_AND_DEFENSE and state.advanced
    assert state.phase == state.PHASE_FOLLOW_UP and state.resume_phase == state.PHASE_ATTACK
    assert state.follow_up == pb.KillTheKingFollowUp(unit=3, vacated=pb.Square(row=5, col=4))
    assert (state.reinforcement_cavalry, state.reinforcement_value) == (3, 18)
    assert state.door_destroyed and list(state.reinforced_halves) == [0]
    assert list(state.defence_penalty) == [pb.SIDE_DEFENDER] and state.initiative_seat == 1
    assert state.gates[0].destroyed and state.gates[0].controlled_by == pb.SIDE_ATTACKER
    assert not state.gates[1].HasField("square")
    assert state.seats[0].coins == 12 and state.seats[0].extra_coins == 9
    assert state.seats[0].placed and state.seats[1].movement_locked
    assert state.seats[1].disband_value_left == 6
    assert state.outcome.termination == "door" and list(state.outcome.winners) == [0]
    assert KTK.parse_position(KTK.format_position(state)) == state


# -- the documentation ----------------------------------------------------------------------

DOCS = Path(__file__).resolve().parents[2] / "docs" / "notation.md"


def _section(text: str, heading: str, occurrence: int) -> str:
    """The ``occurrence``-th section under ``heading`` (up to the next heading)."""
    start = -1
    for _ in range(occurrence + 1):
        start = text.index(heading, start + 1)
    end = text.find("\n#", start + len(heading))
    return text[start : end if end != -1 else len(text)]


def test_the_documented_moves_are_canonical() -> None:
    moves = _section(DOCS.read_text(), "### Kill the King", 0)
    rows = re.findall(r"^\| [^|]+ \| `([^`]+)` \| `([^`]+)` \|$", moves, re.M)
    assert len(rows) >= len(pb.KillTheKingMove.DESCRIPTOR.oneofs_by_name["decision"].fields)
    for written, proto in rows:
        move = text_format.Parse(proto, pb.KillTheKingMove())
        assert KTK.format_move(move) == written
        assert KTK.parse_move(written) == move


def test_the_documented_position_is_the_grammar_example() -> None:
    positions = _section(DOCS.read_text(), "### Kill the King", 1)
    example = positions.split("```")[1].strip()
    assert " ".join(example.split()) == POSITION
