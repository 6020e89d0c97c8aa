"""What the seats to act must decide in Kill the King, in words (the end of
"<who> must ..."), and the placement of any reserve counter of a type.

Counters of one type are alike before they are placed, so the engine offers
only the next one of each type (the lowest id in the side's reserve, KK-22);
:func:`interchangeable` lets a person name any of them and says which one is
placed::

    >>> from throneroom.v1 import kill_the_king_pb2 as pb
    >>> view = pb.KillTheKingView(phase=pb.KillTheKingState.PHASE_PLACEMENT)
    >>> task(view, "en")
    'place their counters, unseen by the other side (or end the placement)'
"""

from __future__ import annotations

from typing import Final

from throneroom.games.kill_the_king import words as w
from throneroom.games.kill_the_king.squares import square_name
from throneroom.games.reader import Reader
from throneroom.v1 import kill_the_king_pb2 as pb

__all__ = ["TASKS", "interchangeable", "task"]

_PHASE = pb.KillTheKingState
Words = dict[str, str]

TASKS: Final[dict[int, Words]] = {
    _PHASE.PHASE_CHOOSE_SIDE: {
        "en": "choose a side: attacker or defender",
        "es": "elegir bando: atacante o defensor",
        "pt": "escolher um lado: atacante ou defensor",
    },
    _PHASE.PHASE_PURCHASE: {
        "en": "buy units with their coins (or end the purchases)",
        "es": "comprar unidades con sus monedas (o terminar las compras)",
        "pt": "comprar unidades com as suas moedas (ou terminar as compras)",
    },
    _PHASE.PHASE_LEADER: {
        "en": "choose a leader",
        "es": "elegir un líder",
        "pt": "escolher um líder",
    },
    _PHASE.PHASE_EXTRA_PURCHASE: {
        "en": "make the Treasurer's extra purchases",
        "es": "hacer las compras adicionales del Tesorero",
        "pt": "fazer as compras adicionais do Tesoureiro",
    },
    _PHASE.PHASE_PLACEMENT: {
        "en": "place their counters, unseen by the other side (or end the placement)",
        "es": "colocar sus fichas, sin que las vea el otro bando (o terminar el despliegue)",
        "pt": "colocar as suas fichas, sem que o outro lado as veja (ou terminar)",
    },
    _PHASE.PHASE_REINFORCEMENT: {
        "en": "bring in reinforcements (or end the phase)",
        "es": "hacer entrar refuerzos (o terminar la fase)",
        "pt": "trazer reforços (ou terminar a fase)",
    },
    _PHASE.PHASE_MOVEMENT: {
        "en": "move units (or end the movement phase)",
        "es": "mover unidades (o terminar la fase de movimiento)",
        "pt": "mover unidades (ou terminar a fase de movimento)",
    },
    _PHASE.PHASE_ATTACK: {
        "en": "attack with units (or end the attack phase)",
        "es": "atacar con unidades (o terminar la fase de ataque)",
        "pt": "atacar com unidades (ou terminar a fase de ataque)",
    },
    _PHASE.PHASE_FOLLOW_UP: {
        "en": "decide whether the Cavalry advances and charges again",
        "es": "decidir si la Caballería avanza y carga de nuevo",
        "pt": "decidir se a Cavalaria avança e carrega de novo",
    },
    _PHASE.PHASE_DISBAND: {
        "en": "remove units (the Treasurer is dead)",
        "es": "retirar unidades (el Tesorero ha muerto)",
        "pt": "retirar unidades (o Tesoureiro morreu)",
    },
}
_DECIDE: Final[Words] = {"en": "decide", "es": "decidir", "pt": "decidir"}
_SAME: Final[Words] = {
    "en": (
        "u{asked} and u{placed} are both {kind} in reserve, alike until placed "
        "(the next one of a type is placed first): placing u{placed} on {square}"
    ),
    "es": (
        "u{asked} y u{placed} son del mismo tipo ({kind}), en reserva, iguales hasta colocarlas "
        "(se coloca primero la siguiente de cada tipo): se coloca u{placed} en {square}"
    ),
    "pt": (
        "u{asked} e u{placed} são do mesmo tipo ({kind}), na reserva, iguais até serem colocadas "
        "(coloca-se primeiro a próxima de cada tipo): coloca-se u{placed} em {square}"
    ),
}


def _bare(name: str) -> str:
    """An English unit name without its article ("an Archer" -> "Archer")."""
    return name.removeprefix("an ").removeprefix("a ")


def task(view: pb.KillTheKingView, lang: str = "en") -> str:
    """The end of "<who> must ...": the decision of the view's phase."""
    return Reader(lang).word(TASKS.get(view.phase, _DECIDE))


def _side_of(view: pb.KillTheKingView, viewer: int | None) -> int:
    if viewer is None or not 0 <= viewer < len(view.seats):
        return pb.SIDE_UNSPECIFIED
    return view.seats[viewer].side


def interchangeable(
    view: pb.KillTheKingView, move: pb.KillTheKingMove, viewer: int | None, lang: str = "en"
) -> tuple[pb.KillTheKingMove, str] | None:
    """A placement of a reserve counter that is not the next of its type: the
    same placement of the next one (the lowest id of that type in the side's
    reserve, as the engine offers it), and why; None for any other move."""
    if move.WhichOneof("decision") != "place":
        return None
    side = _side_of(view, viewer)
    reserve = sorted(
        (u for u in view.units if u.side == side and u.status == pb.KillTheKingUnit.STATUS_RESERVE),
        key=lambda u: u.id,
    )
    asked = next((u for u in reserve if u.id == move.place.unit), None)
    if side == pb.SIDE_UNSPECIFIED or asked is None:
        return None
    first = next(u for u in reserve if u.type == asked.type)
    if first.id == asked.id:
        return None
    same = pb.KillTheKingMove()
    same.CopyFrom(move)
    same.place.unit = first.id
    r = Reader(lang, viewer)
    why = r.word(_SAME).format(
        asked=asked.id,
        placed=first.id,
        kind=_bare(w.unit_name(asked.type, r)) if r.lang == "en" else w.unit_name(asked.type, r),
        square=square_name(move.place.square),
    )
    return same, why
