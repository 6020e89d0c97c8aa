"""Sentences for a person at a terminal: moves, events and the pending decision.

The games' own sentence makers (``describe_move``/``describe_event`` of
:mod:`throneroom.games.king_is_dead`, in English, Spanish or Portuguese, and
of :mod:`throneroom.games.kings_life`, in English) are used where a game has
them; other games fall back to their notation. Nothing here needs ``rich``.
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence

from google.protobuf.message import Message

from throneroom import notation
from throneroom.envelopes import game_type_of, one_line, unwrap
from throneroom.games import king_is_dead as kid
from throneroom.games import kings_life as kl
from throneroom.v1 import game_pb2, service_pb2
from throneroom.v1 import king_is_dead_pb2 as kid_pb
from throneroom.v1 import kings_life_pb2 as kl_pb

__all__ = [
    "LANGUAGES",
    "event_sentences",
    "move_notation",
    "move_sentence",
    "pending_sentence",
]

#: Languages of the sentences (The King Is Dead has all three; others fall back to English).
LANGUAGES = kid.LANGUAGES


def move_notation(game_type: str, move: Message) -> str:
    """The move in the game's notation (protobuf text for a game without one)."""
    with contextlib.suppress(ValueError):
        return notation.for_game(game_type).format_move(move)
    return one_line(move) or "(empty move)"


def move_sentence(game_type: str, move: Message, seat: int | None, lang: str = "en") -> str:
    """The move as a sentence ("Play the Garrison card", "seat 2 passes ...")."""
    if isinstance(move, kid_pb.KingIsDeadMove):
        return kid.describe_move(move, lang)
    if isinstance(move, kl_pb.KingsLifeMove):
        return kl.describe_move(move, seat)
    return move_notation(game_type, move)


def event_sentences(events: Sequence[game_pb2.Event], lang: str = "en") -> list[str]:
    """Each visible event as a sentence, in order (hidden ones say so)."""
    sentences = []
    for envelope in events:
        if not game_type_of(envelope):
            continue
        event = unwrap(envelope)
        if isinstance(event, kid_pb.KingIsDeadEvent):
            sentences.append(kid.describe_event(event, lang))
        elif isinstance(event, kl_pb.KingsLifeEvent):
            sentences.append(kl.describe_event(event))
        else:
            sentences.append(one_line(event))
    return sentences


def _seat_name(snapshot: service_pb2.GameSnapshot, seat: int) -> str:
    for info in snapshot.seats:
        if info.seat == seat and info.display_name:
            return f"seat {seat} ({info.display_name})"
    return f"seat {seat}"


def pending_sentence(snapshot: service_pb2.GameSnapshot, lang: str = "en") -> str:
    """Who must decide what, in words: the game's state as one sentence."""
    if snapshot.finished:
        winners = ", ".join(_seat_name(snapshot, w) for w in snapshot.outcome.winners)
        verb = "wins" if len(snapshot.outcome.winners) == 1 else "win"
        text = f"Game over: {winners or 'nobody'} {verb}"
        return text + (f" ({snapshot.outcome.summary})" if snapshot.outcome.summary else "")
    if not snapshot.started:
        free = [str(s.seat) for s in snapshot.seats if not s.taken]
        return f"Waiting for every seat to be taken (free: seat {', '.join(free)})"
    who = " and ".join(_seat_name(snapshot, s) for s in snapshot.to_act)
    view = unwrap(snapshot.view) if game_type_of(snapshot.view) else None
    if isinstance(view, kid_pb.KingIsDeadView):
        return f"{who} must {_king_is_dead_task(view, lang)}"
    if isinstance(view, kl_pb.KingsLifeView):
        return f"{who} must {_kings_life_task(view)}"
    return f"{who} must move"


def _king_is_dead_task(view: kid_pb.KingIsDeadView, lang: str) -> str:
    pending = view.pending
    decision = kid_pb.KingIsDeadPending
    card = kid.card_name(pending.card, lang) if pending.card else ""
    colour = kid.faction_name(pending.colour, lang) if pending.colour else ""
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


_KL_PHASES = {
    kl_pb.KingsLifeState.PHASE_EXCHANGE: "exchange up to three cards of their hand (or keep it)",
    kl_pb.KingsLifeState.PHASE_MULLIGAN: "take or decline the mulligan",
    kl_pb.KingsLifeState.PHASE_INITIAL_ROUND: "commit a sun card face down",
    kl_pb.KingsLifeState.PHASE_QUEEN_WINDOW: (
        "answer the Queen window: cancel with a Queen or decline"
    ),
    kl_pb.KingsLifeState.PHASE_TURNS: "play a card or pass",
    kl_pb.KingsLifeState.PHASE_FOOL_PASS: "pass after the Fool, choosing whom to support",
    kl_pb.KingsLifeState.PHASE_DUKE: "play the Duke or not",
    kl_pb.KingsLifeState.PHASE_FOOL_TAKE_BACK: "take cards back with the Fool",
}


def _kings_life_task(view: kl_pb.KingsLifeView) -> str:
    return _KL_PHASES.get(view.phase, "decide")
