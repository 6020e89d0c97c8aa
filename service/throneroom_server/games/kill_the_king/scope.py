"""What this engine implements of the rulebook: modes, units, leaders (KK-10).

The data (``throneroom.games.kill_the_king.data``) holds every unit, leader
and mode of the rulebook; the engine offers only what it implements, so the
purchase and leader menus and the options accepted are read from here. Later
issues extend these tuples as they add the advanced units, the Treasurer,
the Engineer, the Beastmaster and the Giga modes.
"""

from __future__ import annotations

from throneroom.games.kill_the_king.data import MODES, UNITS, Mode, ModeSpec, UnitType
from throneroom.v1 import kill_the_king_pb2 as pb

UNITS_IN_PLAY: tuple[UnitType, ...] = (
    UnitType.ARCHER,
    UnitType.SPEARMEN,
    UnitType.SWORDSMEN,
    UnitType.CAVALRY,
    UnitType.BATTERING_RAM,
    UnitType.CATAPULT,
)
"""The units this engine implements."""
LEADERS_IN_PLAY: tuple[UnitType, ...] = (UnitType.RANGER, UnitType.KNIGHT)
BUY_MENU: tuple[UnitType, ...] = tuple(
    t for t in UNITS_IN_PLAY if UNITS[t].cost > 0 and t is not UnitType.BATTERING_RAM
)
"""What a seat may buy (KK-16) or take as reinforcements (KK-39)."""
MODES_IN_PLAY: tuple[Mode, ...] = (Mode.KILL_THE_KING, Mode.ATTACK_AND_DEFENSE)


def spec_of(state: pb.KillTheKingState) -> ModeSpec:
    return MODES[Mode(state.mode)]
