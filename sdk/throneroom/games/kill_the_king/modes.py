"""The four game modes as data: boards, seats, budgets, rounds, victory, armies.

Part of :mod:`throneroom.games.kill_the_king.data`, which re-exports it.
"""

from __future__ import annotations

import enum
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from types import MappingProxyType

from throneroom.games.kill_the_king.enums import Mode, Side, UnitType
from throneroom.games.kill_the_king.units import EXTRA_ROW_UNITS, TILE_CAPS, UNITS

# -- modes ----------------------------------------------------------------------------------


class Victory(enum.Enum):
    """What the attacker must achieve (KK-116..KK-118, KK-129, KK-130)."""

    DOOR = "door"
    """Destroy a King's Door within the round limit."""
    LEADER_AND_BREAKTHROUGH = "leader_and_breakthrough"
    """Kill the defenders' leader(s) and stand on the far edge with N units."""


class Join(enum.Enum):
    """How a Giga field joins two boards (board.py builds it)."""

    NONE = "none"
    CASTLE_SIDE = "castle side"
    GRASS_SIDE = "grass side"


Army = tuple[tuple[UnitType, int], ...]
"""(unit type, count) pairs in chart order."""


@dataclass(frozen=True)
class ModeSpec:
    """One game mode's numbers (KK-10, KK-15, KK-116..KK-130)."""

    mode: Mode
    name: str
    boards: int
    join: Join
    min_seats: int
    max_seats: int
    attacker_budget: int
    defender_budget: int
    free_rams: int
    """Battering Rams the attacking side gets for free."""
    leaders_per_side: int
    rounds: int
    uses_castle: bool
    victory: Victory
    breakthrough_units: int = 0
    """LEADER_AND_BREAKTHROUGH: units needed on the far edge."""
    reinforcement_round: int = 0
    """The defender's turn of this round starts with reinforcements (0: none)."""
    reinforcements_per_board: int = 0
    """Cavalry per board half (per defending player) when they come."""
    suggested_attacker: Army = ()
    suggested_defender: Army = ()
    suggested_attacker_leader: UnitType | None = None
    suggested_defender_leader: UnitType | None = None
    zone_layer: str = ""
    """The board map's zone layer this mode places by (board.py)."""
    defender_extra_units: frozenset[UnitType] = frozenset()
    """Units the defender may also place on its extra zone ('d' in the zone
    layer): Kill the King, Flaming Pigs outside the walls (KK-24); Attack and
    Defense, what the attacker may place on row 4 (KK-24)."""

    def budget(self, side: Side) -> int:
        return self.attacker_budget if side is Side.ATTACKER else self.defender_budget

    def suggested_army(self, side: Side) -> Army:
        return self.suggested_attacker if side is Side.ATTACKER else self.suggested_defender

    def suggested_leader(self, side: Side) -> UnitType | None:
        if side is Side.ATTACKER:
            return self.suggested_attacker_leader
        return self.suggested_defender_leader

    def cap(self, unit: UnitType) -> int:
        """Counters of ``unit`` one side may have in this mode (KK-19)."""
        return TILE_CAPS[unit] * self.boards

    @property
    def giga(self) -> bool:
        return self.boards > 1


_KTK_ATTACKER: Army = (
    (UnitType.ARCHER, 7),
    (UnitType.SPEARMEN, 6),
    (UnitType.SWORDSMEN, 6),
    (UnitType.CAVALRY, 1),
    (UnitType.CATAPULT, 2),
)
_KTK_DEFENDER: Army = (
    (UnitType.ARCHER, 6),
    (UnitType.SPEARMEN, 5),
    (UnitType.SWORDSMEN, 4),
)
_AD_ATTACKER: Army = (
    (UnitType.ARCHER, 4),
    (UnitType.SPEARMEN, 2),
    (UnitType.SWORDSMEN, 4),
    (UnitType.CAVALRY, 2),
    (UnitType.CATAPULT, 1),
)
_AD_DEFENDER: Army = (
    (UnitType.ARCHER, 5),
    (UnitType.SPEARMEN, 4),
    (UnitType.SWORDSMEN, 4),
    (UnitType.CAVALRY, 1),
    (UnitType.CATAPULT, 1),
)

MODES: Mapping[Mode, ModeSpec] = MappingProxyType(
    {
        Mode.KILL_THE_KING: ModeSpec(
            Mode.KILL_THE_KING,
            "Kill the King",
            boards=1,
            join=Join.NONE,
            min_seats=2,
            max_seats=2,
            attacker_budget=90,
            defender_budget=45,
            free_rams=1,
            leaders_per_side=1,
            rounds=11,
            uses_castle=True,
            victory=Victory.DOOR,
            reinforcement_round=6,
            reinforcements_per_board=5,
            suggested_attacker=_KTK_ATTACKER,
            suggested_defender=_KTK_DEFENDER,
            suggested_attacker_leader=UnitType.RANGER,
            suggested_defender_leader=UnitType.KNIGHT,
            zone_layer="kill_the_king",
            defender_extra_units=frozenset({UnitType.FLAMING_PIGS}),
        ),
        Mode.ATTACK_AND_DEFENSE: ModeSpec(
            Mode.ATTACK_AND_DEFENSE,
            "Attack and Defense",
            boards=1,
            join=Join.NONE,
            min_seats=2,
            max_seats=2,
            attacker_budget=60,
            defender_budget=60,
            free_rams=0,
            leaders_per_side=1,
            rounds=6,
            uses_castle=False,
            victory=Victory.LEADER_AND_BREAKTHROUGH,
            breakthrough_units=2,
            suggested_attacker=_AD_ATTACKER,
            suggested_defender=_AD_DEFENDER,
            suggested_attacker_leader=UnitType.RANGER,
            suggested_defender_leader=UnitType.KNIGHT,
            zone_layer="attack_and_defense",
            defender_extra_units=EXTRA_ROW_UNITS,
        ),
        Mode.KILL_THE_KING_GIGA: ModeSpec(
            Mode.KILL_THE_KING_GIGA,
            "Kill the King (giga)",
            boards=2,
            join=Join.CASTLE_SIDE,
            min_seats=2,
            max_seats=4,
            attacker_budget=180,
            defender_budget=90,
            free_rams=2,
            leaders_per_side=2,
            rounds=11,
            uses_castle=True,
            victory=Victory.DOOR,
            reinforcement_round=6,
            reinforcements_per_board=5,
            zone_layer="kill_the_king",
            defender_extra_units=frozenset({UnitType.FLAMING_PIGS}),
        ),
        Mode.ATTACK_AND_DEFENSE_GIGA: ModeSpec(
            Mode.ATTACK_AND_DEFENSE_GIGA,
            "Attack and Defense (giga)",
            boards=2,
            join=Join.GRASS_SIDE,
            min_seats=2,
            max_seats=4,
            attacker_budget=90,
            defender_budget=90,
            free_rams=0,
            leaders_per_side=1,
            rounds=6,
            uses_castle=False,
            victory=Victory.LEADER_AND_BREAKTHROUGH,
            breakthrough_units=4,
            zone_layer="attack_and_defense",
            defender_extra_units=EXTRA_ROW_UNITS,
        ),
    }
)
"""The four modes. Giga modes have no suggested armies in the rulebook."""

DEFAULT_MODE = Mode.KILL_THE_KING


def mode_of(value: int) -> ModeSpec:
    """The mode of an options value; 0 (UNSPECIFIED) is the default mode."""
    return MODES[Mode(value) if value else DEFAULT_MODE]


def army_units(army: Army) -> Iterator[UnitType]:
    """Each unit of an army, one by one, in chart order."""
    for unit, count in army:
        for _ in range(count):
            yield unit


def army_cost(army: Army) -> int:
    return sum(UNITS[unit].cost * count for unit, count in army)


def team_of(seat: int) -> int:
    """Giga: the team of a seat (seats 0+2 and 1+3); a seat is its own team otherwise."""
    return seat % 2
