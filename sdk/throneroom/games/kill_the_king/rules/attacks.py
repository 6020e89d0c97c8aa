"""Every attack of a unit, by its chart's pattern (KK-34): the one dispatch
the attack phase, the climbing attacks and the Cavalry's second charge use.

The patterns themselves are in :mod:`.strikes` (melee, spear, volley,
cross, ram, the door, climbing) and in the modules of the units that have
their own (:mod:`.bolt`).
"""

from __future__ import annotations

from throneroom.games.kill_the_king.data import (
    LEADERS,
    SECOND_CHARGE_PENALTY,
    UNITS,
    AttackKind,
    Face,
    UnitType,
)
from throneroom.games.kill_the_king.rules.bolt import bolt_strikes
from throneroom.games.kill_the_king.rules.scene import Scene, Strike
from throneroom.games.kill_the_king.rules.strikes import (
    cross_strikes,
    melee_strikes,
    prepared_climb_strikes,
    ram_strikes,
    spear_strikes,
    volley_strikes,
)
from throneroom.games.kill_the_king.rules.table import Table, Unit
from throneroom.v1 import kill_the_king_pb2 as pb

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


def defence_value(state: Table, attacker: Unit, defender: Unit, face: Face, *, crew: bool) -> int:
    """The value ``defender`` saves on when hit on ``face`` (KK-35): its chart
    value for that face (Spearmen 5 in front against Cavalry, not as a Ram's crew,
    KK-73), -1 on every face while its side's Knight's death penalty lasts
    (KK-107), never below 0."""
    spec = UNITS[UnitType(defender.type)]
    cavalry = UnitType(attacker.type) is UnitType.CAVALRY and not crew
    value = spec.defence.against(face, cavalry=cavalry)
    if defender.side in state.defence_penalty:
        value += LEADERS[UnitType.KNIGHT].death_defence_penalty
    return max(0, value)
