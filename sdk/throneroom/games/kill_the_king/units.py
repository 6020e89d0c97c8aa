"""The unit chart, the special values of the Unit Rules, the leaders and the tile caps.

Part of :mod:`throneroom.games.kill_the_king.data`, which re-exports it. Rule
numbers (KK-n) are those of docs/rules/kill_the_king.md.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from throneroom.games.kill_the_king.enums import AttackKind, Category, Direction, Face, UnitType

# -- the chart -----------------------------------------------------------------------


@dataclass(frozen=True)
class Defence:
    """Defence values by face: front, left, right, back (KK-35)."""

    front: int
    left: int
    right: int
    back: int
    front_against_cavalry: int | None = None
    """Spearmen: 5 when Cavalry attacks their front (not while manning a Ram)."""

    @classmethod
    def all(cls, value: int) -> Defence:
        return cls(value, value, value, value)

    def against(self, face: Face, *, cavalry: bool = False) -> int:
        """The value the defender must roll equal to or under on ``face``."""
        if face is Face.FRONT:
            if cavalry and self.front_against_cavalry is not None:
                return self.front_against_cavalry
            return self.front
        if face is Face.LEFT:
            return self.left
        if face is Face.RIGHT:
            return self.right
        return self.back


@dataclass(frozen=True)
class Attack:
    """A unit's attack as the chart gives it."""

    kind: AttackKind
    by_distance: tuple[tuple[int, int], ...] = ()
    """(distance, attack value) pairs, ascending: the spaces it reaches straight
    ahead (CROSS: distances of the centre)."""
    neighbour_value: int | None = None
    """CROSS: the value on the four spaces around the centre."""
    door_value: int = 2
    """Against the King's Door (KK-112: 2 for everyone, the Ram 5)."""

    def value_at(self, distance: int) -> int | None:
        for d, value in self.by_distance:
            if d == distance:
                return value
        return None

    @property
    def distances(self) -> tuple[int, ...]:
        return tuple(d for d, _ in self.by_distance)


@dataclass(frozen=True)
class UnitSpec:
    """One line of the unit chart with the Unit Rules that concern it."""

    type: UnitType
    name: str
    chart_symbol: str
    """The chart's symbol (A, S, Sw, ..., L for every leader)."""
    letter: str
    """One letter in the notation and the rendered field: upper case for the
    attacker's units, lower case for the defender's."""
    category: Category
    cost: int
    movement: int
    attack: Attack
    defence: Defence
    advanced: bool = False
    """Marked Advanced in the chart (only with the ``advanced`` option)."""
    free_extras: int = 0
    """Units of the same type that come free with each one bought."""
    road_bonus: int = 0
    """Extra movement when it starts its turn on a road (KK-62)."""
    rotation_cost: int = 0
    """Movement points a rotation costs (KK-31)."""
    may_climb: bool = False
    may_man: bool = False
    """May man a Battering Ram: infantry only (KK-89). Siege Tower crews are the
    units that may stand on a wall (KK-95)."""
    may_stand_on_wall: bool = False
    """May enter wall spaces (by stairs, along the wall, by climbing) and be
    placed on them (KK-46)."""
    wall_setup_immobile: bool = False
    """The defender may place it on a wall at setup, where it never leaves its
    space (KK-25)."""
    extra_setup_row: bool = False
    """May also be placed on the fourth row (Peasant, Flaming Pigs, Siege Tower)."""
    archers_may_attack: bool = True
    may_attack_door: bool = True
    moves_and_attacks: bool = True
    """False: cannot move and attack in the same turn (Catapult, Ballista)."""
    capacity: int = 0
    """Crew it carries (Battering Ram 1, Siege Tower 3)."""
    rules: tuple[str, ...] = ()
    """The chart's rule lines, in our words (texts for clients)."""

    @property
    def is_leader(self) -> bool:
        return self.category is Category.LEADER

    @property
    def is_siege_engine(self) -> bool:
        return self.category is Category.SIEGE_ENGINE


def _melee(value: int) -> Attack:
    return Attack(AttackKind.MELEE, ((1, value),))


_UNIT_LIST: tuple[UnitSpec, ...] = (
    UnitSpec(
        UnitType.ARCHER,
        "Archer",
        "A",
        "A",
        Category.INFANTRY,
        cost=3,
        movement=2,
        attack=Attack(AttackKind.VOLLEY, ((2, 2), (3, 3), (4, 4))),
        defence=Defence(1, 0, 0, 0),
        may_climb=True,
        may_man=True,
        may_stand_on_wall=True,
        may_attack_door=False,
        rules=(
            "Shoots over troops and walls (-1 over a wall).",
            "Needs a blank space between itself and its target: distance 2 to 4.",
            "Cannot attack adjacent targets, except from a wall at units beneath (value 4).",
            "Attacks one target within its range.",
            "Cannot attack Catapults or Ballistas.",
        ),
    ),
    UnitSpec(
        UnitType.SPEARMEN,
        "Spearmen",
        "S",
        "S",
        Category.INFANTRY,
        cost=3,
        movement=2,
        attack=Attack(AttackKind.SPEAR, ((1, 2), (2, 2))),
        defence=Defence(4, 2, 2, 1, front_against_cavalry=5),
        may_climb=True,
        may_man=True,
        may_stand_on_wall=True,
        rules=(
            "Front defence 5 against Cavalry, unless manning a Battering Ram.",
            "Attacks both spaces in front of it, ignoring friendly units.",
            "Cannot attack ground units from a wall, but can from stairs.",
        ),
    ),
    UnitSpec(
        UnitType.SWORDSMEN,
        "Swordsmen",
        "Sw",
        "W",
        Category.INFANTRY,
        cost=3,
        movement=3,
        attack=_melee(3),
        defence=Defence(3, 3, 3, 1),
        may_climb=True,
        may_man=True,
        may_stand_on_wall=True,
    ),
    UnitSpec(
        UnitType.PEASANT,
        "Peasant",
        "P",
        "P",
        Category.INFANTRY,
        cost=3,
        movement=3,
        attack=_melee(2),
        defence=Defence(2, 1, 1, 1),
        advanced=True,
        free_extras=2,
        extra_setup_row=True,
        may_climb=True,
        may_man=True,
        may_stand_on_wall=True,
        rules=(
            "Two more Peasants come free with each one bought.",
            "The attacker may also place them on row 4.",
        ),
    ),
    UnitSpec(
        UnitType.CAVALRY,
        "Cavalry",
        "C",
        "C",
        Category.MOUNTED,
        cost=9,
        movement=5,
        attack=_melee(5),
        defence=Defence(4, 3, 3, 2),
        rules=(
            "After a kill it may move into the space and attack once more ahead at -1.",
            "When killed it flips to Swordsmen.",
            "Hit by a Catapult, a Ballista or a War Elephant it dies at once, with no save.",
            "May dismount (flip to Swordsmen) at any time of its movement phase.",
        ),
    ),
    UnitSpec(
        UnitType.WAR_ELEPHANT,
        "War Elephant",
        "W",
        "E",
        Category.BEAST,
        cost=15,
        movement=2,
        attack=_melee(6),
        defence=Defence(4, 5, 5, 5),
        advanced=True,
        rules=(
            "Walks through units, killing them.",
            "Panics when it fails its front defence roll: moves three spaces, then dies.",
            "No defence roll against siege engines.",
        ),
    ),
    UnitSpec(
        UnitType.FLAMING_PIGS,
        "Flaming Pigs",
        "F",
        "F",
        Category.BEAST,
        cost=3,
        movement=3,
        attack=Attack(AttackKind.EXPLOSION, ((1, 6),)),
        defence=Defence.all(0),
        advanced=True,
        free_extras=2,
        extra_setup_row=True,
        may_attack_door=False,
        rules=(
            "Two more come free with each one bought.",
            "Moves forward only, at least one space each turn.",
            "Explodes when another unit is adjacent, killing all adjacent ground units.",
        ),
    ),
    UnitSpec(
        UnitType.BATTERING_RAM,
        "Battering Ram",
        "B",
        "B",
        Category.SIEGE_ENGINE,
        cost=0,
        movement=3,
        attack=Attack(AttackKind.RAM, ((1, 3),), door_value=5),
        defence=Defence.all(0),
        capacity=1,
        rules=(
            "Free for the attacker; attacks only the gate and the King's Door (5).",
            "Must be manned by infantry to move or attack.",
        ),
    ),
    UnitSpec(
        UnitType.CATAPULT,
        "Catapult",
        "Ca",
        "K",
        Category.SIEGE_ENGINE,
        cost=12,
        movement=1,
        attack=Attack(AttackKind.CROSS, ((3, 5), (4, 5), (5, 5), (6, 5)), neighbour_value=4),
        defence=Defence.all(0),
        road_bonus=1,
        rotation_cost=1,
        wall_setup_immobile=True,
        archers_may_attack=False,
        may_attack_door=False,
        moves_and_attacks=False,
        rules=(
            "Hits the centre (5) and its four neighbours (4); no defence rolls.",
            "Centre 3 to 6 spaces ahead; over units and walls (-1 over a wall).",
            "Destroys walls and the gate (-1; they defend on 4 and 3).",
            "Cannot move and attack in one turn; rotating costs 1 movement point.",
        ),
    ),
    UnitSpec(
        UnitType.BALLISTA,
        "Ballista",
        "Ba",
        "L",
        Category.SIEGE_ENGINE,
        cost=9,
        movement=2,
        attack=Attack(AttackKind.BOLT, ((3, 3), (4, 3), (5, 3), (6, 3))),
        defence=Defence.all(0),
        advanced=True,
        road_bonus=1,
        wall_setup_immobile=True,
        archers_may_attack=False,
        may_attack_door=False,
        moves_and_attacks=False,
        rules=(
            "Attacks the spaces 3 to 6 ahead, on the wall level or on the ground.",
            "-1 against units on a wall; can attack the gate, not walls or the door.",
        ),
    ),
    UnitSpec(
        UnitType.SIEGE_TOWER,
        "Siege Tower",
        "Si",
        "T",
        Category.SIEGE_ENGINE,
        cost=3,
        movement=2,
        attack=Attack(AttackKind.NONE),
        defence=Defence.all(6),
        advanced=True,
        extra_setup_row=True,
        may_attack_door=False,
        capacity=3,
        rules=(
            "Manned by up to three units; moves only when manned.",
            "Once adjacent to a wall it stays and serves as stairs.",
            "Destroyed with its crew by a Catapult, Ballista or War Elephant.",
        ),
    ),
    UnitSpec(
        UnitType.RANGER,
        "The Ranger",
        "L",
        "R",
        Category.LEADER,
        cost=0,
        movement=6,
        attack=_melee(4),
        defence=Defence.all(3),
        may_climb=True,
        may_stand_on_wall=True,
    ),
    UnitSpec(
        UnitType.TREASURER,
        "The Treasurer",
        "L",
        "Q",
        Category.LEADER,
        cost=0,
        movement=4,
        attack=_melee(1),
        defence=Defence.all(1),
        may_climb=True,
        may_stand_on_wall=True,
    ),
    UnitSpec(
        UnitType.KNIGHT,
        "The Knight",
        "L",
        "N",
        Category.LEADER,
        cost=0,
        movement=5,
        attack=_melee(4),
        defence=Defence.all(4),
        may_climb=True,
        may_stand_on_wall=True,
    ),
    UnitSpec(
        UnitType.ENGINEER,
        "The Engineer",
        "L",
        "G",
        Category.LEADER,
        cost=0,
        movement=4,
        attack=_melee(1),
        defence=Defence.all(1),
        may_climb=True,
        may_stand_on_wall=True,
    ),
    UnitSpec(
        UnitType.BEASTMASTER,
        "The Beastmaster",
        "L",
        "M",
        Category.LEADER,
        cost=0,
        movement=5,
        attack=_melee(6),
        defence=Defence.all(4),
        advanced=True,
        may_climb=True,
        may_stand_on_wall=True,
    ),
)

UNITS: Mapping[UnitType, UnitSpec] = MappingProxyType({u.type: u for u in _UNIT_LIST})
"""Every counter type's chart entry."""

BUYABLE: tuple[UnitType, ...] = tuple(
    u.type for u in _UNIT_LIST if not u.is_leader and u.type is not UnitType.BATTERING_RAM
)
"""What the chart sells (the Ram is never bought: it comes free, KK-88)."""

INFANTRY: frozenset[UnitType] = frozenset(
    u.type for u in _UNIT_LIST if u.category is Category.INFANTRY
)
SIEGE_ENGINES: frozenset[UnitType] = frozenset(u.type for u in _UNIT_LIST if u.is_siege_engine)
EXTRA_ROW_UNITS: frozenset[UnitType] = frozenset(u.type for u in _UNIT_LIST if u.extra_setup_row)
"""Units the attacker may also place on row 4 (KK-24)."""
RANGED_ENGINES: frozenset[UnitType] = frozenset({UnitType.CATAPULT, UnitType.BALLISTA})
CAVALRY_KILLED_OUTRIGHT_BY: frozenset[UnitType] = frozenset(
    {UnitType.CATAPULT, UnitType.BALLISTA, UnitType.WAR_ELEPHANT}
)
"""A Cavalry hit by one of these is removed at once, with no save roll and no flip
to Swordsmen (KK-77): "If a Cavalry unit is hit by Siege Engines or War Elephants
it is killed instantly without converting" ("hit": the attack roll alone, KK-35).
The Catapult and the Ballista are the siege engines that attack units."""

# -- special values of the Unit Rules ---------------------------------------------------

ARCHER_FROM_WALL_VALUE = 4
"""An Archer on a wall attacking a unit on an adjacent space beneath it (KK-49)."""
WALL_DEFENCE = 4
"""A wall space's defence roll against a Catapult (KK-50)."""
GATE_DEFENCE = 3
"""The outer gate's defence roll (KK-58; also against Flaming Pigs, KK-87)."""
DOOR_DEFENCE = 2
"""The King's Door's defence roll (KK-114)."""
DOOR_SUPPORT_MAX = 2
"""Most the stairs support (and the Knight) add to a door attack (KK-113)."""
SECOND_CHARGE_PENALTY = -1
CLIMBING_PENALTY = -1
OVER_WALL_PENALTY = -1
AT_WALL_TOP_PENALTY = -1
WALL_TARGET_PENALTY = -1
KNIGHT_BONUS = 1
CATAPULT_CENTRE_DISTANCES = (3, 4, 5, 6)
"""Catapult: 2 to 5 spaces between it and the centre (RULES-NOTES)."""
PANIC_STEPS = 3
PANIC_DIRECTIONS: tuple[tuple[range, Face], ...] = (
    (range(1, 3), Face.LEFT),
    (range(3, 5), Face.RIGHT),
    (range(5, 7), Face.BACK),
)
"""A War Elephant's panic die: 1-2 left, 3-4 right, 5-6 back (KK-82)."""
DIE_SIDES = 6


def panic_direction(facing: Direction, die: int) -> Direction:
    """Where a War Elephant facing ``facing`` runs on a panic die of ``die`` (KK-82)."""
    for values, face in PANIC_DIRECTIONS:
        if die in values:
            return facing.toward(face)
    raise ValueError(f"a die shows 1 to {DIE_SIDES}, not {die}")


# -- leaders ------------------------------------------------------------------------------


@dataclass(frozen=True)
class LeaderRules:
    """What a leader gives while alive, what its death costs, how it can die (KK-99..KK-109)."""

    type: UnitType
    movement_bonus: int = 0
    """Ranger: +1 movement for every friendly unit."""
    adjacent_attack_bonus: int = 0
    """Knight: +1 attack for orthogonally adjacent friendly units."""
    extra_coins: int = 0
    """Treasurer: coins spent after the leader choice."""
    engines_move_and_attack: bool = False
    """Engineer: adjacent Catapults and Ballistas may attack after moving."""
    elephants_survive_panic: bool = False
    """Beastmaster."""
    dies_if_rearmost: bool = False
    """Ranger: dies when it ends its side's turn as the rearmost friendly unit."""
    flees_if_alone: bool = False
    """Treasurer: dies when it ends its side's turn without an adjacent friendly unit."""
    death_locks_movement: bool = False
    """Ranger: its side cannot move (only rotate) in its next turn."""
    death_defence_penalty: int = 0
    """Knight: -1 defence on all faces for its side, for the rest of the turn."""
    death_removes_peasants_and_value: int = 0
    """Treasurer: all Peasants, then units worth at least this many coins."""
    death_destroys_siege_engines: bool = False
    """Engineer."""
    death_panics_elephants: bool = False
    """Beastmaster: every friendly War Elephant panics and dies."""


LEADERS: Mapping[UnitType, LeaderRules] = MappingProxyType(
    {
        UnitType.RANGER: LeaderRules(
            UnitType.RANGER, movement_bonus=1, dies_if_rearmost=True, death_locks_movement=True
        ),
        UnitType.TREASURER: LeaderRules(
            UnitType.TREASURER,
            extra_coins=9,
            flees_if_alone=True,
            death_removes_peasants_and_value=12,
        ),
        UnitType.KNIGHT: LeaderRules(
            UnitType.KNIGHT, adjacent_attack_bonus=1, death_defence_penalty=-1
        ),
        UnitType.ENGINEER: LeaderRules(
            UnitType.ENGINEER, engines_move_and_attack=True, death_destroys_siege_engines=True
        ),
        UnitType.BEASTMASTER: LeaderRules(
            UnitType.BEASTMASTER, elephants_survive_panic=True, death_panics_elephants=True
        ),
    }
)

# -- tile caps ------------------------------------------------------------------------------

TILE_CAPS: Mapping[UnitType, int] = MappingProxyType(
    {
        UnitType.ARCHER: 12,
        UnitType.SPEARMEN: 12,
        UnitType.SWORDSMEN: 12,
        UnitType.PEASANT: 12,
        UnitType.CAVALRY: 6,
        UnitType.WAR_ELEPHANT: 2,
        UnitType.FLAMING_PIGS: 6,
        UnitType.BATTERING_RAM: 1,
        UnitType.CATAPULT: 4,
        UnitType.BALLISTA: 2,
        UnitType.SIEGE_TOWER: 2,
        UnitType.RANGER: 1,
        UnitType.TREASURER: 1,
        UnitType.KNIGHT: 1,
        UnitType.ENGINEER: 1,
        UnitType.BEASTMASTER: 1,
    }
)
"""Counters of each type one side has in one box (KK-19; RULES-NOTES: caps are
data). A Giga game uses two boxes: twice as many. A flipped Cavalry still uses
a Cavalry counter."""
