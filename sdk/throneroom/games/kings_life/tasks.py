"""What the seats to act must decide in King's Life, in words (the end of
"<who> must ...")."""

from __future__ import annotations

from throneroom.v1 import kings_life_pb2 as kl_pb

__all__ = ["task"]

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


def task(view: kl_pb.KingsLifeView) -> str:
    return _KL_PHASES.get(view.phase, "decide")
