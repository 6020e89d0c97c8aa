"""Who passes the outer gate (KK-55, KK-56), from the state or a seat's view.

The defenders pass their gate's passage always; the attackers only while
they control it. Control changes when a unit completes its movement above
the gate, and a unit's movement is complete once another unit moves, so the
side controlling the gate for the next unit to move is the active unit's
when it stands above the gate (:func:`gate_side`). The engine's movement
and listing and the bot's planner ask here.
"""

from __future__ import annotations

from throneroom.games.kill_the_king.board import Coord
from throneroom.games.kill_the_king.data import Side
from throneroom.games.kill_the_king.rules.table import ON_FIELD, Table
from throneroom.v1 import kill_the_king_pb2 as pb

Gate = pb.KillTheKingGate
_WALL = pb.LEVEL_WALL
_DEFENDER = int(Side.DEFENDER)
_ATTACKER = int(Side.ATTACKER)


def gate_side(table: Table, gate: Gate) -> int:
    """The side controlling ``gate`` for the next unit to move (KK-56): the
    active unit standing above it completes its movement, taking the gate,
    before another unit moves; else the side that controls it."""
    active = table.active_unit
    if active >= 0 and not gate.destroyed:
        u = table.units[active]
        if u.status == ON_FIELD and u.level == _WALL:
            square = u.square
            if square.row == gate.square.row and square.col == gate.square.col:
                return u.side
    return gate.controlled_by


def gate_open_for(table: Table, side: int, coord: Coord) -> bool:
    """Whether ``side``'s units may use the passage of the gate at ``coord``
    (KK-55): the defenders always, the attackers only while they control it
    (as the next unit to move sees it, :func:`gate_side`); no gate there: no."""
    if side == _DEFENDER:
        return True
    for g in table.gates:
        if (g.square.row, g.square.col) == coord:
            return gate_side(table, g) == _ATTACKER
    return False
