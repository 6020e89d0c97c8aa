"""Each mode's field and setup zones (KK-9, KK-23..KK-26, KK-102, KK-117, KK-126)."""

from __future__ import annotations

import pytest
from throneroom.games.kill_the_king.board import DEFAULT_BOARD, Coord, Terrain
from throneroom.games.kill_the_king.data import MODES, Join, Mode, Side, UnitType
from throneroom.games.kill_the_king.field import field_for, home_row, join_boards, setup_squares

U = UnitType
ROWS_0_2 = {Coord(r, c) for r in range(3) for c in range(11)}
ROW_3 = {Coord(3, c) for c in range(11)}
INSIDE = {s.coord for s in DEFAULT_BOARD if s.inside and s.terrain is not Terrain.DOOR}
WALL_LEVEL = set(DEFAULT_BOARD.walls) | set(DEFAULT_BOARD.gates)
OUTSIDE_WALLS = {Coord(8, c) for c in range(1, 10)} | {
    Coord(r, c) for r in range(9, 16) for c in (0, 10)
}


def test_one_board_modes_play_on_the_standard_board() -> None:
    assert field_for(Mode.KILL_THE_KING) is DEFAULT_BOARD
    assert field_for(Mode.ATTACK_AND_DEFENSE) is DEFAULT_BOARD


def test_giga_fields() -> None:
    """KK-9 / scenario S25 (Image 5): joined on the castle side the two castles make
    one closed castle with two doors; joined on the grass side the green fields meet."""
    castle = field_for(Mode.KILL_THE_KING_GIGA)
    assert (castle.rows, castle.cols, castle.boards) == (32, 11, 2)
    assert castle.gates == (Coord(9, 5), Coord(22, 5))
    assert castle.doors == (Coord(15, 5), Coord(16, 5))
    assert all(castle.space(r, 1).terrain is Terrain.WALL for r in range(9, 23)), "closed"
    assert castle.space(20, 3).board == 1 and castle.space(20, 3).local == Coord(11, 7)
    assert castle.space(3, 3).board == 0 and castle.space(3, 3).local == Coord(3, 3)
    assert len(castle.reinforcement_edge(0)) == len(castle.reinforcement_edge(1)) == 14
    assert {c.row for c in castle.reinforcement_edge(1)} == set(range(16, 23))
    assert set(castle.corner_stairs()) == {
        Coord(10, 2),
        Coord(10, 8),
        Coord(21, 2),
        Coord(21, 8),
    }
    grass = field_for(Mode.ATTACK_AND_DEFENSE_GIGA)
    in_play = grass.in_play(MODES[Mode.ATTACK_AND_DEFENSE_GIGA].zone_layer)
    assert {c.row for c in in_play} == set(range(7, 25))
    assert all(grass.space(*c).terrain is Terrain.GRASS for c in in_play)
    assert grass.space(15, 5).local == Coord(0, 5) and grass.space(16, 5).local == Coord(0, 5)
    assert grass.space(15, 5).board == 0 and grass.space(16, 5).board == 1
    assert grass.doors == (Coord(0, 5), Coord(31, 5)), "both castles at the far ends"


def test_join_refuses_nonsense() -> None:
    with pytest.raises(ValueError, match="CASTLE_SIDE or GRASS_SIDE"):
        join_boards(DEFAULT_BOARD, DEFAULT_BOARD, Join.NONE)


def test_joined_fields_are_consistent() -> None:
    """Adjacency on a joined field crosses the seam, and the seam's spaces match."""
    for mode in (Mode.KILL_THE_KING_GIGA, Mode.ATTACK_AND_DEFENSE_GIGA):
        board = field_for(mode)
        for here in board.positions():
            for _, there in board.steps(here):
                assert here in {p for _, p in board.steps(there)}
        for space in board:
            original = DEFAULT_BOARD.space(*space.local)
            assert (space.terrain, space.road, space.reinforcement) == (
                original.terrain,
                original.road,
                original.reinforcement,
            )


@pytest.mark.parametrize(
    ("mode", "side", "unit", "expected"),
    [
        # Kill the King: the attacker's first three rows, row 4 for the extra-row units.
        (Mode.KILL_THE_KING, Side.ATTACKER, U.SWORDSMEN, ROWS_0_2),
        (Mode.KILL_THE_KING, Side.ATTACKER, U.CATAPULT, ROWS_0_2),
        (Mode.KILL_THE_KING, Side.ATTACKER, U.BATTERING_RAM, ROWS_0_2),
        (Mode.KILL_THE_KING, Side.ATTACKER, U.PEASANT, ROWS_0_2 | ROW_3),
        (Mode.KILL_THE_KING, Side.ATTACKER, U.FLAMING_PIGS, ROWS_0_2 | ROW_3),
        (Mode.KILL_THE_KING, Side.ATTACKER, U.SIEGE_TOWER, ROWS_0_2 | ROW_3),
        # The defender: on or inside the wall; Cavalry not on walls; Catapult on walls.
        (Mode.KILL_THE_KING, Side.DEFENDER, U.ARCHER, INSIDE | WALL_LEVEL),
        (Mode.KILL_THE_KING, Side.DEFENDER, U.KNIGHT, INSIDE | WALL_LEVEL),
        (Mode.KILL_THE_KING, Side.DEFENDER, U.CAVALRY, INSIDE),
        (Mode.KILL_THE_KING, Side.DEFENDER, U.CATAPULT, INSIDE | WALL_LEVEL),
        (Mode.KILL_THE_KING, Side.DEFENDER, U.BALLISTA, INSIDE | WALL_LEVEL),
        (Mode.KILL_THE_KING, Side.DEFENDER, U.PEASANT, INSIDE | WALL_LEVEL),
        (Mode.KILL_THE_KING, Side.DEFENDER, U.FLAMING_PIGS, INSIDE | OUTSIDE_WALLS),
        # Attack and Defense: each side's first three rows (and row 4).
        (Mode.ATTACK_AND_DEFENSE, Side.ATTACKER, U.CAVALRY, ROWS_0_2),
        (Mode.ATTACK_AND_DEFENSE, Side.ATTACKER, U.PEASANT, ROWS_0_2 | ROW_3),
        (
            Mode.ATTACK_AND_DEFENSE,
            Side.DEFENDER,
            U.CATAPULT,
            {Coord(r, c) for r in (6, 7, 8) for c in range(11)},
        ),
        (
            Mode.ATTACK_AND_DEFENSE,
            Side.DEFENDER,
            U.PEASANT,
            {Coord(r, c) for r in (5, 6, 7, 8) for c in range(11)},
        ),
    ],
)
def test_setup_squares_per_mode_side_and_unit(
    mode: Mode, side: Side, unit: UnitType, expected: set[Coord]
) -> None:
    """KK-23..KK-25, scenario S24 (Images 1 and 4)."""
    assert setup_squares(mode, side, unit) == expected


def test_setup_zones_never_overlap() -> None:
    """KK-22: hidden placements cannot conflict."""
    for mode in Mode:
        for unit in U:
            attacker = setup_squares(mode, Side.ATTACKER, unit)
            defender = setup_squares(mode, Side.DEFENDER, unit)
            assert attacker and defender
            assert not attacker & defender, (mode, unit)
            assert attacker | defender <= field_for(mode).in_play(MODES[mode].zone_layer)


def test_giga_setup_zones() -> None:
    """KK-126: Kill the King Giga: attackers on both sides of the castle, defenders in
    the joined castle; Attack and Defense Giga: each team at its own end."""
    rows = {c.row for c in setup_squares(Mode.KILL_THE_KING_GIGA, Side.ATTACKER, U.ARCHER)}
    assert rows == {0, 1, 2, 29, 30, 31}
    inside = setup_squares(Mode.KILL_THE_KING_GIGA, Side.DEFENDER, U.CAVALRY)
    assert {c.row for c in inside} == set(range(10, 22))
    attackers = setup_squares(Mode.ATTACK_AND_DEFENSE_GIGA, Side.ATTACKER, U.PEASANT)
    defenders = setup_squares(Mode.ATTACK_AND_DEFENSE_GIGA, Side.DEFENDER, U.PEASANT)
    assert {c.row for c in attackers} == {7, 8, 9, 10}
    assert {c.row for c in defenders} == {21, 22, 23, 24}


def test_home_rows() -> None:
    """KK-102 (the Ranger's 'rearmost'), KK-117 (the defender's edge in Attack and
    Defense: its row 8)."""
    assert home_row(Mode.KILL_THE_KING, Side.ATTACKER) == 0
    assert home_row(Mode.KILL_THE_KING, Side.DEFENDER) == 15
    assert home_row(Mode.ATTACK_AND_DEFENSE, Side.DEFENDER) == 8
    assert home_row(Mode.ATTACK_AND_DEFENSE_GIGA, Side.ATTACKER) == 7
    assert home_row(Mode.ATTACK_AND_DEFENSE_GIGA, Side.DEFENDER) == 24
    with pytest.raises(ValueError, match="KK-131"):
        home_row(Mode.KILL_THE_KING_GIGA, Side.ATTACKER)
