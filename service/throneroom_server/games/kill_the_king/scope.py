"""What this engine implements of the rulebook: modes, units, leaders (KK-10).

The data (``throneroom.games.kill_the_king.data``) holds every unit, leader
and mode of the rulebook; the engine offers what it implements, so the
purchase and leader menus and the options accepted are read from here. The
units and leaders the chart marks Advanced are offered only when the game's
``advanced`` option is on (KK-10, KK-16, KK-20, KK-132). Every mode is in
play, the Giga modes for 2-4 seats in two teams (KK-123).
"""

from __future__ import annotations

from throneroom.games.kill_the_king.data import MODES, UNITS, Mode, ModeSpec, UnitType
from throneroom.v1 import kill_the_king_pb2 as pb

UNITS_IN_PLAY: tuple[UnitType, ...] = (
    UnitType.ARCHER,
    UnitType.SPEARMEN,
    UnitType.SWORDSMEN,
    UnitType.PEASANT,
    UnitType.CAVALRY,
    UnitType.WAR_ELEPHANT,
    UnitType.FLAMING_PIGS,
    UnitType.BATTERING_RAM,
    UnitType.CATAPULT,
    UnitType.BALLISTA,
    UnitType.SIEGE_TOWER,
)
"""The units this engine implements (the Advanced ones only with the option)."""
LEADERS_IN_PLAY: tuple[UnitType, ...] = (
    UnitType.RANGER,
    UnitType.TREASURER,
    UnitType.KNIGHT,
    UnitType.ENGINEER,
    UnitType.BEASTMASTER,
)
ALL_BUYABLE: tuple[UnitType, ...] = tuple(
    t for t in UNITS_IN_PLAY if UNITS[t].cost > 0 and t is not UnitType.BATTERING_RAM
)
"""Everything any game may buy (the advanced option on)."""
MODES_IN_PLAY: tuple[Mode, ...] = tuple(MODES)


def buy_menu(advanced: bool) -> tuple[UnitType, ...]:
    """What a seat may buy (KK-16) or take as reinforcements (KK-39): the
    Advanced units only with the option."""
    return ALL_BUYABLE if advanced else _STANDARD_BUY


def leader_menu(advanced: bool) -> tuple[UnitType, ...]:
    """The leaders a side may choose (KK-20): the Beastmaster only with the option."""
    return LEADERS_IN_PLAY if advanced else _STANDARD_LEADERS


_STANDARD_BUY = tuple(t for t in ALL_BUYABLE if not UNITS[t].advanced)
_STANDARD_LEADERS = tuple(t for t in LEADERS_IN_PLAY if not UNITS[t].advanced)


def spec_of(state: pb.KillTheKingState) -> ModeSpec:
    return MODES[Mode(state.mode)]
