"""Kill the King's enums (values are the throneroom.v1 proto's) and facing geometry.

Part of :mod:`throneroom.games.kill_the_king.data`, which re-exports it.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from types import MappingProxyType

from throneroom.v1 import kill_the_king_pb2 as pb

# -- enums (values are the proto's) ------------------------------------------------


class UnitType(enum.IntEnum):
    """Every kind of counter: the eleven units of the chart and the five leaders."""

    ARCHER = pb.UNIT_TYPE_ARCHER
    SPEARMEN = pb.UNIT_TYPE_SPEARMEN
    SWORDSMEN = pb.UNIT_TYPE_SWORDSMEN
    PEASANT = pb.UNIT_TYPE_PEASANT
    CAVALRY = pb.UNIT_TYPE_CAVALRY
    WAR_ELEPHANT = pb.UNIT_TYPE_WAR_ELEPHANT
    FLAMING_PIGS = pb.UNIT_TYPE_FLAMING_PIGS
    BATTERING_RAM = pb.UNIT_TYPE_BATTERING_RAM
    CATAPULT = pb.UNIT_TYPE_CATAPULT
    BALLISTA = pb.UNIT_TYPE_BALLISTA
    SIEGE_TOWER = pb.UNIT_TYPE_SIEGE_TOWER
    RANGER = pb.UNIT_TYPE_RANGER
    TREASURER = pb.UNIT_TYPE_TREASURER
    KNIGHT = pb.UNIT_TYPE_KNIGHT
    ENGINEER = pb.UNIT_TYPE_ENGINEER
    BEASTMASTER = pb.UNIT_TYPE_BEASTMASTER


class Side(enum.IntEnum):
    ATTACKER = pb.SIDE_ATTACKER
    DEFENDER = pb.SIDE_DEFENDER

    @property
    def other(self) -> Side:
        return Side.DEFENDER if self is Side.ATTACKER else Side.ATTACKER


class Mode(enum.IntEnum):
    KILL_THE_KING = pb.KILL_THE_KING_MODE_KILL_THE_KING
    ATTACK_AND_DEFENSE = pb.KILL_THE_KING_MODE_ATTACK_AND_DEFENSE
    KILL_THE_KING_GIGA = pb.KILL_THE_KING_MODE_KILL_THE_KING_GIGA
    ATTACK_AND_DEFENSE_GIGA = pb.KILL_THE_KING_MODE_ATTACK_AND_DEFENSE_GIGA


class Direction(enum.IntEnum):
    """An orthogonal direction; NORTH is towards the castle (row + 1)."""

    NORTH = pb.DIRECTION_NORTH
    EAST = pb.DIRECTION_EAST
    SOUTH = pb.DIRECTION_SOUTH
    WEST = pb.DIRECTION_WEST

    @property
    def delta(self) -> tuple[int, int]:
        """(row, col) change of one step."""
        return _DELTAS[self]

    @property
    def opposite(self) -> Direction:
        return Direction((self.value + 1) % 4 + 1)

    @property
    def left(self) -> Direction:
        """The direction to the left of a unit facing this way."""
        return Direction((self.value + 2) % 4 + 1)

    @property
    def right(self) -> Direction:
        return Direction(self.value % 4 + 1)

    def toward(self, face: Face) -> Direction:
        """The direction a given face of a unit facing this way looks to."""
        if face is Face.FRONT:
            return self
        if face is Face.BACK:
            return self.opposite
        return self.left if face is Face.LEFT else self.right


_DELTAS: Mapping[Direction, tuple[int, int]] = MappingProxyType(
    {
        Direction.NORTH: (1, 0),
        Direction.EAST: (0, 1),
        Direction.SOUTH: (-1, 0),
        Direction.WEST: (0, -1),
    }
)


class Level(enum.IntEnum):
    GROUND = pb.LEVEL_GROUND
    WALL = pb.LEVEL_WALL
    STAIRS = pb.LEVEL_STAIRS


class Face(enum.IntEnum):
    """A face of a counter, relative to its facing (the arrow is the front)."""

    FRONT = pb.FACE_FRONT
    LEFT = pb.FACE_LEFT
    RIGHT = pb.FACE_RIGHT
    BACK = pb.FACE_BACK


def face_hit(facing: Direction, attack_from: Direction) -> Face:
    """The face of a unit facing ``facing`` that an attack coming *from* the
    direction ``attack_from`` (seen from the unit) hits (KK-36)."""
    if attack_from is facing:
        return Face.FRONT
    if attack_from is facing.opposite:
        return Face.BACK
    return Face.LEFT if attack_from is facing.left else Face.RIGHT


class Category(enum.Enum):
    """The chart's groups; 'infantry' is what may man a Battering Ram (KK-89)."""

    INFANTRY = "infantry"
    MOUNTED = "mounted"  # Cavalry
    BEAST = "beast"  # War Elephant, Flaming Pigs
    SIEGE_ENGINE = "siege engine"  # Battering Ram, Catapult, Ballista, Siege Tower
    LEADER = "leader"


class AttackKind(enum.Enum):
    """How a unit's attack chooses what it hits (KK-34, KK-64..KK-98)."""

    MELEE = "melee"
    """The one space adjacent to its front."""
    SPEAR = "spear"
    """Both spaces straight ahead, one roll for each enemy in them."""
    VOLLEY = "volley"
    """One target straight ahead at a distance with a value (Archer)."""
    CROSS = "cross"
    """A centre straight ahead and its four orthogonal neighbours (Catapult)."""
    BOLT = "bolt"
    """Every unit on one chosen level straight ahead at distances 3-6 (Ballista)."""
    RAM = "ram"
    """Only the gate or the King's Door adjacent to its front (Battering Ram)."""
    EXPLOSION = "explosion"
    """No attack of its own: it explodes (Flaming Pigs, KK-87)."""
    NONE = "none"
    """Cannot attack (Siege Tower)."""
