"""Dice: every six-sided die of Kill the King, drawn from the game's seeded RNG.

Each die is one ``DieRolled`` event carrying its purpose (KK-13 initiative,
hits, saves of units, walls, the gate and the King's Door), so a game can be
replayed and explained roll by roll. Each die is one chance step of the kit
(``kit.chance``: six outcomes, outcome ``i`` the face ``i + 1``), so a caller
can choose it. A die succeeds when its value is at most
``needed`` (the KK rule for hits and saves); an initiative roll has
``needed`` 0 and never "succeeds".
"""

from __future__ import annotations

from throneroom.games.kill_the_king.data import DIE_SIDES
from throneroom.v1 import kill_the_king_pb2 as pb

from throneroom_server.games.kit.chance import draw
from throneroom_server.games.rng import Rng

Event = pb.KillTheKingEvent
DieRolled = pb.KillTheKingEvent.DieRolled

DIE_STEPS: dict[int, str] = {
    value: "die:" + name.removeprefix("DIE_PURPOSE_").lower()
    for name, value in pb.DiePurpose.items()
}
"""The chance step of a die of each purpose (kit.chance): ``die:hit``, ``die:save`` ..."""
DIE_FACES = tuple(str(face) for face in range(1, DIE_SIDES + 1))
"""A die's outcomes: outcome ``i`` is the face ``i + 1``."""


def _faces() -> tuple[str, ...]:
    return DIE_FACES


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
    value = draw(rng, DIE_STEPS[purpose], DIE_SIDES, _faces) + 1
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
