"""Kill the King's action codec: every move <-> ``0..N-1`` (docs/rl.md).

Units are named by their number in the game (``unit``: the index of the
counter, bought or placed in order), squares by ``(row, col)`` on the mode's
field (two joined boards in Giga), so N depends on the mode: it is the sum over
the move kinds of the product of their fields' domains, with the unit numbers
bounded by the most counters a game of the mode can hold (every coin of both
sides, and the Treasurers' extra coins, spent on the cheapest unit with the
most free extras, plus the free rams, the leaders and the reinforcements), the
same bound the engine's ``max_decisions`` uses::

    >>> from throneroom.games.kill_the_king.actions import action_codec
    >>> action_codec(0).size < action_codec(3).size
    True
"""

from __future__ import annotations

import functools

from throneroom.games.codec import ActionCodec, Axis, Shape
from throneroom.games.kill_the_king.data import (
    DEFAULT_MODE,
    LEADERS,
    UNITS,
    Mode,
    UnitType,
    mode_of,
)
from throneroom.games.kill_the_king.field import field_for
from throneroom.v1 import kill_the_king_pb2 as pb

__all__ = ["action_codec", "most_counters"]

_DIRECTIONS = [(d,) for d in (1, 2, 3, 4)]
_LEVELS = [(v,) for v in pb.Level.values()]
_UNIT_TYPES = [(t,) for t in pb.UnitType.values() if t]


def most_counters(mode: int) -> int:
    """An upper bound on the counters (units and leaders) of a game of ``mode``."""
    spec = mode_of(mode)
    buyable = [t for t, unit in UNITS.items() if unit.cost > 0 and t is not UnitType.BATTERING_RAM]
    cheapest = min(UNITS[t].cost for t in buyable)
    per_purchase = 1 + max(UNITS[t].free_extras for t in buyable)
    treasurer = LEADERS[UnitType.TREASURER].extra_coins
    coins = spec.attacker_budget + spec.defender_budget + 2 * spec.leaders_per_side * treasurer
    reinforcements = (
        spec.boards * spec.reinforcements_per_board * UNITS[UnitType.CAVALRY].cost // cheapest
    )
    return (
        coins // cheapest * per_purchase
        + spec.free_rams
        + 2 * spec.leaders_per_side
        + reinforcements
    )


@functools.cache
def action_codec(mode: int) -> ActionCodec[pb.KillTheKingMove]:
    """The codec of a game of ``mode`` (a ``KillTheKingMode`` value, 0: the default)."""
    board = field_for(Mode(mode) if mode else DEFAULT_MODE)
    squares = Axis(("square",), [((r, c),) for r in range(board.rows) for c in range(board.cols)])
    units = Axis(("unit",), [(u,) for u in range(most_counters(mode))])
    direction = Axis(("direction",), _DIRECTIONS)
    facing = Axis(("facing",), _DIRECTIONS)
    return ActionCodec(
        pb.KillTheKingMove,
        (
            Shape("choose_side", (Axis(("side",), [(pb.SIDE_ATTACKER,), (pb.SIDE_DEFENDER,)]),)),
            Shape("buy", (Axis(("unit",), _UNIT_TYPES),)),
            Shape("buy_suggested_army"),
            Shape("choose_leader", (Axis(("leader",), _UNIT_TYPES),)),
            Shape("place", (units, squares, facing)),
            Shape("reinforce", (Axis(("unit",), _UNIT_TYPES), squares, facing)),
            Shape("step", (units, direction)),
            Shape("rotate", (units, facing)),
            Shape("climb", (units, direction)),
            Shape("prepare_climb", (units, direction)),
            Shape("dismount", (units,)),
            Shape("attack", (units, Axis(("target",), squares.values), Axis(("level",), _LEVELS))),
            Shape("follow_up", (Axis(("advance",), [(False,), (True,)]),)),
            Shape("disband", (units,)),
            Shape("end_phase"),
        ),
    )
