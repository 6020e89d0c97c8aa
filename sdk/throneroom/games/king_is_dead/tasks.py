"""What the seat to act must decide in The King Is Dead, in words (the end
of "<who> must ..."), with the cards and colours named in the reader's language."""

from __future__ import annotations

from throneroom.games.king_is_dead.names import card_name, faction_name
from throneroom.v1 import king_is_dead_pb2 as kid_pb

__all__ = ["task"]


def task(view: kid_pb.KingIsDeadView, lang: str) -> str:
    pending = view.pending
    decision = kid_pb.KingIsDeadPending
    card = card_name(pending.card, lang) if pending.card else ""
    colour = faction_name(pending.colour, lang) if pending.colour else ""
    if pending.decision == decision.DECISION_TURN:
        passes = f" ({view.consecutive_passes} passed in a row)" if view.consecutive_passes else ""
        return f"play an action card or pass{passes}"
    if pending.decision == decision.DECISION_CROWN:
        return f"resolve the {card}: swap two region cards and crown one of them"
    if pending.decision == decision.DECISION_GARRISON:
        return (
            f"resolve the {card}: move up to two followers into a bordering region "
            "(one may come back)"
        )
    if pending.decision == decision.DECISION_AMBASSADOR:
        return f"resolve the {card}: exchange one follower of a region with one of another"
    if pending.decision == decision.DECISION_SETTLE:
        return f"resolve the {card}: put a {colour} follower in a region"
    if pending.decision == decision.DECISION_PLACE:
        left = "the last one" if pending.remaining == 1 else f"{pending.remaining} to place"
        return f"resolve the {card}: put a {colour} follower in a region ({left})"
    if pending.decision == decision.DECISION_SUMMON:
        after = f" after the {card}" if card else ""
        return f"summon a follower from a region to their court{after}"
    return "decide"
