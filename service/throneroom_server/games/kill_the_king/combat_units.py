"""Every attack of a unit, by its chart's pattern (KK-34): the one dispatch
the attack phase, the climbing attacks and the Cavalry's second charge use.

The patterns themselves are in :mod:`.combat_strikes` (melee, spear, volley,
cross, ram, the door, climbing) and in the modules of the units that have
their own (:mod:`.ballista`).
"""

from __future__ import annotations

from throneroom.games.kill_the_king.data import SECOND_CHARGE_PENALTY, UNITS, AttackKind
from throneroom.v1 import kill_the_king_pb2 as pb

from throneroom_server.games.kill_the_king.ballista import bolt_strikes
from throneroom_server.games.kill_the_king.combat_scene import Scene, Strike
from throneroom_server.games.kill_the_king.combat_strikes import (
    cross_strikes,
    melee_strikes,
    prepared_climb_strikes,
    ram_strikes,
    spear_strikes,
    volley_strikes,
)
from throneroom_server.games.kill_the_king.state import Unit

_KINDS = {int(t): UNITS[t].attack.kind for t in UNITS}


def strikes_of(scene: Scene, u: Unit) -> list[Strike]:
    """Every legal attack of ``u`` in its side's attack phase (KK-34), by target
    square. The caller checks whose unit it is and that it has not attacked.
    Flaming Pigs (EXPLOSION) and Siege Towers (NONE) never attack."""
    if u.HasField("climb"):
        return prepared_climb_strikes(scene, u)
    kind = _KINDS[u.type]
    if kind is AttackKind.MELEE:
        strikes = melee_strikes(scene, u)
    elif kind is AttackKind.SPEAR:
        strikes = spear_strikes(scene, u)
    elif kind is AttackKind.VOLLEY:
        strikes = volley_strikes(scene, u)
    elif kind is AttackKind.CROSS:
        strikes = cross_strikes(scene, u)
    elif kind is AttackKind.RAM:
        strikes = ram_strikes(scene, u)
    elif kind is AttackKind.BOLT:
        strikes = bolt_strikes(scene, u)
    else:
        strikes = []
    return [s for s in strikes if s.can_hit]


def second_charge(scene: Scene, u: Unit) -> Strike | None:
    """A Cavalry's second attack after advancing (KK-78): the enemy now adjacent to
    its front, at -1 (SECOND_CHARGE); never the door."""
    extra = ((pb.ATTACK_MODIFIER_SECOND_CHARGE, SECOND_CHARGE_PENALTY),)
    strikes = [s for s in melee_strikes(scene, u, extra=extra, door=False) if s.can_hit]
    return strikes[0] if strikes else None
