"""Dice: every six-sided die of Kill the King, drawn from the game's seeded RNG.

Each die is one ``DieRolled`` event carrying its purpose (KK-13 initiative,
hits, saves of units, walls, the gate and the King's Door), so a game can be
replayed and explained roll by roll. A die succeeds when its value is at most
``needed`` (the KK rule for hits and saves); an initiative roll has
``needed`` 0 and never "succeeds".
"""

from __future__ import annotations

from throneroom.games.kill_the_king.data import DIE_SIDES
from throneroom.v1 import kill_the_king_pb2 as pb

from throneroom_server.games.rng import Rng

Event = pb.KillTheKingEvent
DieRolled = pb.KillTheKingEvent.DieRolled


def roll(
    rng: Rng,
    events: list[Event],
    purpose: pb.DiePurpose.ValueType,
    *,
    seat: int,
    needed: int = 0,
    unit: int = -1,
    target_unit: int = -1,
    target: tuple[int, int] | None = None,
    face: pb.Face.ValueType = pb.FACE_UNSPECIFIED,
) -> DieRolled:
    """Roll one d6 for ``purpose``; append its event and return it.

    ``needed`` is the highest value that succeeds (an attack or defence
    value); the returned message's ``value`` and ``success`` are the result.
    ``unit`` is the unit rolling (or attacking), ``target_unit`` and
    ``target`` the unit or space concerned.
    """
    value = rng.below(DIE_SIDES) + 1
    event = Event(
        die_rolled=DieRolled(
            purpose=purpose,
            seat=seat,
            value=value,
            needed=needed,
            success=value <= needed,
            unit=unit,
            target_unit=target_unit,
            face=face,
        )
    )
    if target is not None:
        event.die_rolled.target.row, event.die_rolled.target.col = target
    events.append(event)
    return event.die_rolled
