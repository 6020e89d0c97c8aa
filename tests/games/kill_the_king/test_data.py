"""The unit chart, leaders, modes, caps and budgets as data (docs/rules/kill_the_king.md
sections 2, 3, 10, 11): every value checked against the rulebook's text."""

from __future__ import annotations

import pytest
from throneroom.games.kill_the_king import data
from throneroom.games.kill_the_king.data import (
    BUYABLE,
    EXTRA_ROW_UNITS,
    INFANTRY,
    LEADERS,
    MODES,
    SIEGE_ENGINES,
    TILE_CAPS,
    UNITS,
    AttackKind,
    Category,
    Direction,
    Face,
    Join,
    Level,
    Mode,
    Side,
    UnitType,
    Victory,
    army_cost,
    army_units,
    face_hit,
    mode_of,
    team_of,
)
from throneroom.v1 import kill_the_king_pb2 as pb

U = UnitType

# (type, chart symbol, cost, movement, attack by distance, defence F/L/R/B, advanced):
# the rulebook's Units Overview, line by line.
CHART = [
    (U.ARCHER, "A", 3, 2, ((2, 2), (3, 3), (4, 4)), (1, 0, 0, 0), False),
    (U.SPEARMEN, "S", 3, 2, ((1, 2), (2, 2)), (4, 2, 2, 1), False),
    (U.SWORDSMEN, "Sw", 3, 3, ((1, 3),), (3, 3, 3, 1), False),
    (U.PEASANT, "P", 3, 3, ((1, 2),), (2, 1, 1, 1), True),
    (U.CAVALRY, "C", 9, 5, ((1, 5),), (4, 3, 3, 2), False),
    (U.WAR_ELEPHANT, "W", 15, 2, ((1, 6),), (4, 5, 5, 5), True),
    (U.FLAMING_PIGS, "F", 3, 3, ((1, 6),), (0, 0, 0, 0), True),
    (U.BATTERING_RAM, "B", 0, 3, ((1, 3),), (0, 0, 0, 0), False),
    (U.CATAPULT, "Ca", 12, 1, ((3, 5), (4, 5), (5, 5), (6, 5)), (0, 0, 0, 0), False),
    (U.BALLISTA, "Ba", 9, 2, ((3, 3), (4, 3), (5, 3), (6, 3)), (0, 0, 0, 0), True),
    (U.SIEGE_TOWER, "Si", 3, 2, (), (6, 6, 6, 6), True),
    (U.RANGER, "L", 0, 6, ((1, 4),), (3, 3, 3, 3), False),
    (U.TREASURER, "L", 0, 4, ((1, 1),), (1, 1, 1, 1), False),
    (U.KNIGHT, "L", 0, 5, ((1, 4),), (4, 4, 4, 4), False),
    (U.ENGINEER, "L", 0, 4, ((1, 1),), (1, 1, 1, 1), False),
    (U.BEASTMASTER, "L", 0, 5, ((1, 6),), (4, 4, 4, 4), True),
]


def test_enums_are_the_proto_enums() -> None:
    pairs = [
        (UnitType, pb.UnitType, "UNIT_TYPE_"),
        (Side, pb.Side, "SIDE_"),
        (Mode, pb.KillTheKingMode, "KILL_THE_KING_MODE_"),
        (Direction, pb.Direction, "DIRECTION_"),
        (Level, pb.Level, "LEVEL_"),
        (Face, pb.Face, "FACE_"),
    ]
    for python_enum, proto_enum, prefix in pairs:
        proto = {
            name.removeprefix(prefix): value
            for name, value in proto_enum.items()
            if not name.endswith("UNSPECIFIED")
        }
        assert {m.name: m.value for m in python_enum} == proto, python_enum.__name__


@pytest.mark.parametrize(("unit", "symbol", "cost", "move", "attack", "defence", "adv"), CHART)
def test_chart_entry(
    *,
    unit: UnitType,
    symbol: str,
    cost: int,
    move: int,
    attack: tuple[tuple[int, int], ...],
    defence: tuple[int, int, int, int],
    adv: bool,
) -> None:
    spec = UNITS[unit]
    assert spec.type is unit
    assert spec.chart_symbol == symbol
    assert (spec.cost, spec.movement) == (cost, move)
    assert spec.attack.by_distance == attack
    faces = (Face.FRONT, Face.LEFT, Face.RIGHT, Face.BACK)
    assert tuple(spec.defence.against(f) for f in faces) == defence
    assert spec.advanced is adv


def test_the_chart_has_eleven_units_and_five_leaders() -> None:
    assert len(UNITS) == 16 == len(CHART)
    assert sum(1 for u in UNITS.values() if u.is_leader) == 5
    assert set(LEADERS) == {u.type for u in UNITS.values() if u.is_leader}


def test_letters_are_unique_and_single() -> None:
    letters = [u.letter for u in UNITS.values()]
    assert len(set(letters)) == len(letters)
    assert all(len(x) == 1 and x.isalpha() and x.isupper() for x in letters)


def test_special_attack_patterns() -> None:
    archer, spear, catapult = UNITS[U.ARCHER], UNITS[U.SPEARMEN], UNITS[U.CATAPULT]
    assert archer.attack.kind is AttackKind.VOLLEY
    assert archer.attack.value_at(1) is None, "a blank space is needed"
    assert spear.attack.kind is AttackKind.SPEAR and spear.attack.distances == (1, 2)
    assert catapult.attack.kind is AttackKind.CROSS
    assert catapult.attack.neighbour_value == 4 and catapult.attack.value_at(4) == 5
    assert catapult.attack.distances == data.CATAPULT_CENTRE_DISTANCES
    assert UNITS[U.BALLISTA].attack.kind is AttackKind.BOLT
    assert UNITS[U.BATTERING_RAM].attack.kind is AttackKind.RAM
    assert UNITS[U.FLAMING_PIGS].attack.kind is AttackKind.EXPLOSION
    assert UNITS[U.SIEGE_TOWER].attack.kind is AttackKind.NONE


def test_door_values_and_who_may_attack_the_door() -> None:
    """KK-111, KK-112: 2 for everyone, 5 for the Ram; not Archers, Catapults, Ballistas."""
    assert UNITS[U.BATTERING_RAM].attack.door_value == 5
    others = [u for u in UNITS.values() if u.type is not U.BATTERING_RAM]
    assert all(u.attack.door_value == 2 for u in others)
    barred = {u.type for u in UNITS.values() if not u.may_attack_door}
    assert barred == {U.ARCHER, U.CATAPULT, U.BALLISTA, U.FLAMING_PIGS, U.SIEGE_TOWER}


def test_spearmen_defend_on_5_against_cavalry_in_front_only() -> None:
    """KK-73 (the chart's asterisk)."""
    spear = UNITS[U.SPEARMEN].defence
    assert spear.against(Face.FRONT, cavalry=True) == 5
    assert spear.against(Face.FRONT) == 4
    assert spear.against(Face.LEFT, cavalry=True) == 2
    assert UNITS[U.SWORDSMEN].defence.against(Face.FRONT, cavalry=True) == 3


def test_unit_rule_flags() -> None:
    assert {U.ARCHER, U.SPEARMEN, U.SWORDSMEN, U.PEASANT} == INFANTRY
    assert {u.type for u in UNITS.values() if u.may_man} == INFANTRY
    assert {U.BATTERING_RAM, U.CATAPULT, U.BALLISTA, U.SIEGE_TOWER} == SIEGE_ENGINES
    climbers = {u.type for u in UNITS.values() if u.may_climb}
    assert climbers == INFANTRY | set(LEADERS), "infantry and leaders climb (KK-44)"
    on_wall = {u.type for u in UNITS.values() if u.may_stand_on_wall}
    assert on_wall == INFANTRY | set(LEADERS)
    immobile = {u.type for u in UNITS.values() if u.wall_setup_immobile}
    assert immobile == {U.CATAPULT, U.BALLISTA}
    assert {u.type for u in UNITS.values() if u.road_bonus} == {U.CATAPULT, U.BALLISTA}
    assert {u.type for u in UNITS.values() if u.rotation_cost} == {U.CATAPULT}
    assert {u.type for u in UNITS.values() if not u.moves_and_attacks} == {
        U.CATAPULT,
        U.BALLISTA,
    }
    assert {u.type for u in UNITS.values() if not u.archers_may_attack} == {
        U.CATAPULT,
        U.BALLISTA,
    }
    assert {u.type for u in UNITS.values() if u.free_extras == 2} == {U.PEASANT, U.FLAMING_PIGS}
    assert {U.PEASANT, U.FLAMING_PIGS, U.SIEGE_TOWER} == EXTRA_ROW_UNITS
    assert UNITS[U.SIEGE_TOWER].capacity == 3 and UNITS[U.BATTERING_RAM].capacity == 1
    assert UNITS[U.CAVALRY].category is Category.MOUNTED


def test_buyable_units() -> None:
    """KK-16: the chart sells every unit but the free Ram; leaders are chosen."""
    assert set(BUYABLE) == {u for u in UnitType if u <= U.SIEGE_TOWER} - {U.BATTERING_RAM}
    assert list(BUYABLE) == sorted(BUYABLE)


def test_special_values() -> None:
    assert data.ARCHER_FROM_WALL_VALUE == 4
    assert (data.WALL_DEFENCE, data.GATE_DEFENCE, data.DOOR_DEFENCE) == (4, 3, 2)
    assert data.DOOR_SUPPORT_MAX == 2
    penalties = (
        data.CLIMBING_PENALTY,
        data.OVER_WALL_PENALTY,
        data.AT_WALL_TOP_PENALTY,
        data.WALL_TARGET_PENALTY,
        data.SECOND_CHARGE_PENALTY,
    )
    assert penalties == (-1,) * 5
    assert data.KNIGHT_BONUS == 1
    north = Direction.NORTH
    runs = [data.panic_direction(north, die) for die in range(1, 7)]
    assert (
        runs
        == [Direction.WEST, Direction.WEST, Direction.EAST, Direction.EAST] + [Direction.SOUTH] * 2
    ), "KK-82: 1-2 left, 3-4 right, 5-6 back"
    assert data.panic_direction(Direction.EAST, 1) is Direction.NORTH
    with pytest.raises(ValueError, match="not 7"):
        data.panic_direction(north, 7)


def test_leaders() -> None:
    """KK-100..KK-109."""
    ranger, treasurer, knight = LEADERS[U.RANGER], LEADERS[U.TREASURER], LEADERS[U.KNIGHT]
    engineer, beastmaster = LEADERS[U.ENGINEER], LEADERS[U.BEASTMASTER]
    assert ranger.movement_bonus == 1 and ranger.dies_if_rearmost and ranger.death_locks_movement
    assert treasurer.extra_coins == 9 and treasurer.flees_if_alone
    assert treasurer.death_removes_peasants_and_value == 12
    assert knight.adjacent_attack_bonus == 1 and knight.death_defence_penalty == -1
    assert engineer.engines_move_and_attack and engineer.death_destroys_siege_engines
    assert beastmaster.elephants_survive_panic and beastmaster.death_panics_elephants
    flags = [(r.movement_bonus, r.adjacent_attack_bonus, r.extra_coins) for r in LEADERS.values()]
    assert flags.count((0, 0, 0)) == 2, "only Ranger, Knight, Treasurer change numbers"


@pytest.mark.parametrize(
    (
        "mode",
        "seats",
        "boards",
        "join",
        "budgets",
        "rams",
        "leaders",
        "rounds",
        "victory",
        "through",
    ),
    [
        (Mode.KILL_THE_KING, (2, 2), 1, Join.NONE, (90, 45), 1, 1, 11, Victory.DOOR, 0),
        (
            Mode.ATTACK_AND_DEFENSE,
            (2, 2),
            1,
            Join.NONE,
            (60, 60),
            0,
            1,
            6,
            Victory.LEADER_AND_BREAKTHROUGH,
            2,
        ),
        (
            Mode.KILL_THE_KING_GIGA,
            (2, 4),
            2,
            Join.CASTLE_SIDE,
            (180, 90),
            2,
            2,
            11,
            Victory.DOOR,
            0,
        ),
        (
            Mode.ATTACK_AND_DEFENSE_GIGA,
            (2, 4),
            2,
            Join.GRASS_SIDE,
            (90, 90),
            0,
            1,
            6,
            Victory.LEADER_AND_BREAKTHROUGH,
            4,
        ),
    ],
)
def test_mode_table(
    *,
    mode: Mode,
    seats: tuple[int, int],
    boards: int,
    join: Join,
    budgets: tuple[int, int],
    rams: int,
    leaders: int,
    rounds: int,
    victory: Victory,
    through: int,
) -> None:
    """KK-10 and the rulebook's four mode sections."""
    spec = MODES[mode]
    assert (spec.min_seats, spec.max_seats) == seats
    assert (spec.boards, spec.join, spec.giga) == (boards, join, boards == 2)
    assert (spec.budget(Side.ATTACKER), spec.budget(Side.DEFENDER)) == budgets
    assert (spec.free_rams, spec.leaders_per_side, spec.rounds) == (rams, leaders, rounds)
    assert (spec.victory, spec.breakthrough_units) == (victory, through)
    assert spec.uses_castle is (victory is Victory.DOOR)
    castle = mode in (Mode.KILL_THE_KING, Mode.KILL_THE_KING_GIGA)
    assert (spec.reinforcement_round, spec.reinforcements_per_board) == (
        (6, 5) if castle else (0, 0)
    )


def test_default_mode() -> None:
    assert mode_of(0).mode is Mode.KILL_THE_KING
    assert mode_of(pb.KILL_THE_KING_MODE_ATTACK_AND_DEFENSE).mode is Mode.ATTACK_AND_DEFENSE


@pytest.mark.parametrize("mode", [Mode.KILL_THE_KING, Mode.ATTACK_AND_DEFENSE])
@pytest.mark.parametrize("side", list(Side))
def test_suggested_armies_cost_the_budgets(mode: Mode, side: Side) -> None:
    """KK-18 / scenario S23: the rulebook's suggested armies spend each budget exactly,
    use no Advanced unit, fit the caps, and suggest the Ranger and the Knight."""
    spec = MODES[mode]
    army = spec.suggested_army(side)
    assert army_cost(army) == spec.budget(side)
    units = list(army_units(army))
    assert all(not UNITS[u].advanced and u in BUYABLE for u in units)
    assert all(units.count(u) <= spec.cap(u) for u in set(units))
    expected = U.RANGER if side is Side.ATTACKER else U.KNIGHT
    assert spec.suggested_leader(side) is expected


def test_suggested_army_counts_as_printed() -> None:
    ktk = MODES[Mode.KILL_THE_KING]
    counts = dict(ktk.suggested_army(Side.ATTACKER))
    assert counts == {U.ARCHER: 7, U.SWORDSMEN: 6, U.SPEARMEN: 6, U.CAVALRY: 1, U.CATAPULT: 2}
    assert dict(ktk.suggested_army(Side.DEFENDER)) == {U.ARCHER: 6, U.SWORDSMEN: 4, U.SPEARMEN: 5}
    ad = MODES[Mode.ATTACK_AND_DEFENSE]
    assert dict(ad.suggested_army(Side.ATTACKER)) == {
        U.ARCHER: 4,
        U.SWORDSMEN: 4,
        U.SPEARMEN: 2,
        U.CAVALRY: 2,
        U.CATAPULT: 1,
    }
    assert dict(ad.suggested_army(Side.DEFENDER)) == {
        U.ARCHER: 5,
        U.SWORDSMEN: 4,
        U.SPEARMEN: 4,
        U.CAVALRY: 1,
        U.CATAPULT: 1,
    }
    assert not MODES[Mode.KILL_THE_KING_GIGA].suggested_army(Side.ATTACKER)


def test_tile_caps() -> None:
    """KK-19: every counter type has a cap; Giga doubles it; 'not enough Cavalry' can
    happen (the defender's 45 coins buy 5 Cavalry, leaving fewer than 5 of 6)."""
    assert set(TILE_CAPS) == set(UnitType)
    assert TILE_CAPS[U.ARCHER] == TILE_CAPS[U.SPEARMEN] == TILE_CAPS[U.SWORDSMEN] == 12
    assert (TILE_CAPS[U.CAVALRY], TILE_CAPS[U.CATAPULT]) == (6, 4)
    assert all(TILE_CAPS[leader] == 1 for leader in LEADERS)
    assert all(TILE_CAPS[u] % 3 == 0 for u in (U.PEASANT, U.FLAMING_PIGS))
    ktk, giga = MODES[Mode.KILL_THE_KING], MODES[Mode.KILL_THE_KING_GIGA]
    assert all(giga.cap(u) == 2 * ktk.cap(u) for u in UnitType)
    assert ktk.cap(U.BATTERING_RAM) >= ktk.free_rams and giga.cap(U.BATTERING_RAM) >= 2
    bought = ktk.budget(Side.DEFENDER) // UNITS[U.CAVALRY].cost
    assert ktk.cap(U.CAVALRY) - bought < ktk.reinforcements_per_board
    three_coin = [u for u in BUYABLE if UNITS[u].cost == 3 and not UNITS[u].advanced]
    extra = LEADERS[U.TREASURER].extra_coins
    for spec in MODES.values():
        room = sum(spec.cap(u) for u in three_coin) * 3
        assert room >= max(spec.budget(side) for side in Side) + extra, (
            f"{spec.name}: the caps must let every budget be spent to 0 (KK-16)"
        )


def test_defender_extra_zones() -> None:
    assert MODES[Mode.KILL_THE_KING].defender_extra_units == {U.FLAMING_PIGS}
    assert MODES[Mode.ATTACK_AND_DEFENSE].defender_extra_units == EXTRA_ROW_UNITS


def test_directions() -> None:
    n, e, s, w = Direction.NORTH, Direction.EAST, Direction.SOUTH, Direction.WEST
    assert [d.delta for d in (n, e, s, w)] == [(1, 0), (0, 1), (-1, 0), (0, -1)]
    assert [d.opposite for d in (n, e, s, w)] == [s, w, n, e]
    assert [d.left for d in (n, e, s, w)] == [w, n, e, s]
    assert [d.right for d in (n, e, s, w)] == [e, s, w, n]
    assert Side.ATTACKER.other is Side.DEFENDER and Side.DEFENDER.other is Side.ATTACKER


def test_toward() -> None:
    for facing in Direction:
        assert facing.toward(Face.FRONT) is facing
        assert facing.toward(Face.BACK) is facing.opposite
        assert face_hit(facing, facing.toward(Face.LEFT)) is Face.LEFT
        assert face_hit(facing, facing.toward(Face.RIGHT)) is Face.RIGHT


def test_face_hit() -> None:
    """KK-36: the face turned towards the attacker (scenario S4: a Spearmen hit from the
    side defends on 2)."""
    for facing in Direction:
        assert face_hit(facing, facing) is Face.FRONT
        assert face_hit(facing, facing.opposite) is Face.BACK
        assert face_hit(facing, facing.left) is Face.LEFT
        assert face_hit(facing, facing.right) is Face.RIGHT
    side = face_hit(Direction.NORTH, Direction.EAST)
    assert UNITS[U.SPEARMEN].defence.against(side) == 2


def test_teams() -> None:
    """KK-123: seats 0+2 against 1+3."""
    assert [team_of(s) for s in range(4)] == [0, 1, 0, 1]


def test_data_is_the_one_public_face() -> None:
    """data.py re-exports every public name of the modules it gathers."""
    from throneroom.games.kill_the_king import enums, modes, units

    for module in (enums, modes, units):
        public = {
            name
            for name, value in vars(module).items()
            if not name.startswith("_")
            and getattr(value, "__module__", module.__name__) == module.__name__
            and name not in {"annotations", "pb"}
            and not isinstance(value, type(enums))
        }
        assert public <= set(data.__all__), f"{module.__name__}: {public - set(data.__all__)}"


def test_docstring_examples() -> None:
    import doctest

    from throneroom.games.kill_the_king import board, field

    for module in (data, board, field):
        failed, tried = doctest.testmod(module)
        assert tried > 0 and failed == 0, module.__name__
