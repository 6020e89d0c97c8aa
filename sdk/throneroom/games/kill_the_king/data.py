"""Kill the King as data: the unit chart, the leaders, the modes, caps and budgets.

Everything here is a reading of the rulebook (``shared/rulebooks/003_…``) and
of RULES-NOTES.md, numbered as in docs/rules/kill_the_king.md (KK-n). Enum
values equal the throneroom.v1 ``kill_the_king.proto`` values, so a
``UnitType`` is usable wherever a message wants one::

    >>> UNITS[UnitType.SPEARMEN].defence.against(Face.FRONT, cavalry=True)
    5
    >>> MODES[Mode.KILL_THE_KING].budget(Side.ATTACKER)
    90
    >>> army_cost(MODES[Mode.ATTACK_AND_DEFENSE].suggested_army(Side.DEFENDER))
    60

The tables live by concept in :mod:`.enums`, :mod:`.units` and :mod:`.modes`;
this module is their one public face. The engine imports it; it needs only
the standard library and the generated messages.
"""

from __future__ import annotations

from throneroom.games.kill_the_king.enums import (
    AttackKind,
    Category,
    Direction,
    Face,
    Level,
    Mode,
    Side,
    UnitType,
    face_hit,
)
from throneroom.games.kill_the_king.modes import (
    DEFAULT_MODE,
    MODES,
    Army,
    Join,
    ModeSpec,
    Victory,
    army_cost,
    army_units,
    mode_of,
    team_of,
)
from throneroom.games.kill_the_king.units import (
    ARCHER_FROM_WALL_VALUE,
    AT_WALL_TOP_PENALTY,
    BUYABLE,
    CATAPULT_CENTRE_DISTANCES,
    CAVALRY_KILLED_OUTRIGHT_BY,
    CLIMBING_PENALTY,
    DIE_SIDES,
    DOOR_DEFENCE,
    DOOR_SUPPORT_MAX,
    EXTRA_ROW_UNITS,
    GATE_DEFENCE,
    INFANTRY,
    KNIGHT_BONUS,
    LEADERS,
    OVER_WALL_PENALTY,
    PANIC_DIRECTIONS,
    PANIC_STEPS,
    RANGED_ENGINES,
    SECOND_CHARGE_PENALTY,
    SIEGE_ENGINES,
    TILE_CAPS,
    UNITS,
    WALL_DEFENCE,
    WALL_TARGET_PENALTY,
    Attack,
    Defence,
    LeaderRules,
    UnitSpec,
    panic_direction,
)

__all__ = [
    "ARCHER_FROM_WALL_VALUE",
    "AT_WALL_TOP_PENALTY",
    "BUYABLE",
    "CATAPULT_CENTRE_DISTANCES",
    "CAVALRY_KILLED_OUTRIGHT_BY",
    "CLIMBING_PENALTY",
    "DEFAULT_MODE",
    "DIE_SIDES",
    "DOOR_DEFENCE",
    "DOOR_SUPPORT_MAX",
    "EXTRA_ROW_UNITS",
    "GATE_DEFENCE",
    "INFANTRY",
    "KNIGHT_BONUS",
    "LEADERS",
    "MODES",
    "OVER_WALL_PENALTY",
    "PANIC_DIRECTIONS",
    "PANIC_STEPS",
    "RANGED_ENGINES",
    "SECOND_CHARGE_PENALTY",
    "SIEGE_ENGINES",
    "TILE_CAPS",
    "UNITS",
    "WALL_DEFENCE",
    "WALL_TARGET_PENALTY",
    "Army",
    "Attack",
    "AttackKind",
    "Category",
    "Defence",
    "Direction",
    "Face",
    "Join",
    "LeaderRules",
    "Level",
    "Mode",
    "ModeSpec",
    "Side",
    "UnitSpec",
    "UnitType",
    "Victory",
    "army_cost",
    "army_units",
    "face_hit",
    "mode_of",
    "panic_direction",
    "team_of",
]
