"""What the MCTS bot knows of Kill the King beyond its engine: a rollout search
of the attack phase, the dice sampled from the engine's listed chance outcomes.

The MCTS bot (:mod:`throneroom.bots.mcts`) plays Kill the King by its rollout
search (a ``Guide``): in a two-seat game, at a decision of the attack phase
(which attack, or none) or a Cavalry's follow-up, the candidates are the
heuristic bot's own choice, ending the phase, and the ``ATTACK_CANDIDATES``
attacks the heuristic values most (``attack_value``); every other decision is
the heuristic bot's. Each sample plays every surviving candidate in the same
world (:mod:`.mcts_world`) and then the heuristic bot in both seats to the
start of the next turn (``horizon`` turns on: ``stage`` counts turns), every
die drawn by ``kit.chance.Sampled`` from the dice's listed outcomes with one
seed per sample, so each candidate meets the same dice (``paired_chance``).
The state reached is valued by ``estimate``: the standing army's worth of
each side (coins, the bought price of its units alive), the gate and the
King's Door down counting for the attacker, through a logistic.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from throneroom.games.kill_the_king.bot import KillTheKingBot, attack_value
from throneroom.games.kill_the_king.bot.model import Situation
from throneroom.games.kill_the_king.data import UNITS, Side, UnitType
from throneroom.v1 import kill_the_king_pb2 as pb

__all__ = ["candidates", "estimate", "policy", "rewards", "stage"]

S = pb.KillTheKingState
ATTACK_CANDIDATES = 2
"""Attacks searched beside the heuristic's choice and ending the phase."""
DOOR_WORTH = 0.5
"""The King's Door destroyed, in the estimate's units (a share of the armies' worth)."""
GATE_WORTH = 0.15
"""An outer gate destroyed, likewise."""
SHARPNESS = 6.0
"""The logistic's slope on the estimate's margin."""
_SEARCHED = frozenset({S.PHASE_ATTACK, S.PHASE_FOLLOW_UP})

_HEURISTIC = KillTheKingBot()


def policy(seat: int, view: pb.KillTheKingView, moves: list[pb.KillTheKingMove]) -> Any:
    """The heuristic bot's move (each side wants to defend when it may choose)."""
    return moves[_HEURISTIC.decide(view, seat, moves)]


def candidates(
    seat: int, view: pb.KillTheKingView, moves: Sequence[pb.KillTheKingMove], chosen: int
) -> list[int]:
    """The indices of the moves worth searching, the heuristic's ``chosen`` first."""
    if view.num_seats != 2 or view.phase not in _SEARCHED:
        return [chosen]
    picks = [chosen]
    if view.phase == S.PHASE_FOLLOW_UP:
        return [*picks, *(i for i in range(len(moves)) if i != chosen)]
    picks += [i for i, m in enumerate(moves) if m.WhichOneof("decision") == "end_phase"]
    sit = Situation(view, seat)
    valued = []
    for i, move in enumerate(moves):
        if move.WhichOneof("decision") == "attack":
            worth = attack_value(sit, move)
            if worth is not None:
                valued.append((-worth, i))
    picks += [i for _, i in sorted(valued)[:ATTACK_CANDIDATES]]
    return list(dict.fromkeys(picks))


def stage(state: pb.KillTheKingState) -> int:
    """Turns played: two a round (the attacker's, then the defender's)."""
    return 2 * state.round + (1 if state.turn_side == int(Side.DEFENDER) else 0)


def rewards(state: pb.KillTheKingState, winners: Sequence[int]) -> list[float]:
    """1 to each winning seat of a finished game, 0 to the others."""
    return [1.0 if seat in winners else 0.0 for seat in range(state.num_seats)]


def estimate(state: pb.KillTheKingState) -> list[float]:
    """Each seat's reward when a rollout stops (see the module doc)."""
    if state.HasField("outcome"):
        return rewards(state, list(state.outcome.winners))
    worth = {int(Side.ATTACKER): 0.0, int(Side.DEFENDER): 0.0}
    for u in state.units:
        if u.status != pb.KillTheKingUnit.STATUS_DEAD and u.side in worth:
            worth[u.side] += UNITS[UnitType(u.type)].cost
    total = max(1.0, sum(worth.values()))
    margin = (worth[int(Side.ATTACKER)] - worth[int(Side.DEFENDER)]) / total
    margin += DOOR_WORTH * state.door_destroyed
    margin += GATE_WORTH * sum(1 for g in state.gates if g.destroyed)
    attacker = 1.0 / (1.0 + math.exp(-SHARPNESS * margin))
    return [attacker if s.side == int(Side.ATTACKER) else 1.0 - attacker for s in state.seats]
