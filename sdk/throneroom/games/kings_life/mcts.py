"""What the MCTS bot knows of King's Life: its rollout policy, its move
groups and how it scores a finished game.

- **Rollouts** are played by the heuristic bot (:class:`KingsLifeBot`) in
  every seat, each from its own view of the sampled world: a day of King's
  Life is a long exchange of small decisions (about 40 a day at 4 seats) whose
  value shows only when the king chooses, so uniformly random playouts say
  little, while the heuristic's are a fair model of a reasonable table.
- **Move groups** cut the branching of a turn (up to about 50 moves: each
  card with its targets, each pass with its support and hand-over) to one
  candidate per card played (for the Guard and the Peon, per player
  supported) and one per player supported by a pass, each group represented
  by its variant that does best on the public table: the play that leaves the
  bot furthest ahead (``Table.after`` then ``Table.margin``, the heuristic's own
  simulation of the king's choice), the hand-over that helps the supported
  player most. The Tuesday exchange (42 subsets of at most three cards) keeps
  the heuristic's choice, keeping everything, and the subsets the heuristic
  ranks best. The heuristic's own choice is always a candidate. Other
  decisions (commit, Queen, Duke, take-back) are small and kept whole.
- **The reward** of a finished game, for each seat: 1 for a winner (a shared
  victory counts for each, as in the tournament's standings) plus
  ``MARGIN_WEIGHT`` times its victory-point margin over the best other seat
  (clamped to ``MARGIN_SCALE`` points either way, so a close loss is worth
  more than a rout), which lowers the variance of the estimate without
  changing what is preferred when the win is at stake. Victory points are
  counted as the rulebook counts them (day cards, support token values, one
  per kept Princess / Little Prince).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from throneroom.games.kings_life import card_face
from throneroom.games.kings_life.bot import KingsLifeBot, Table, keep_value
from throneroom.games.kings_life.data import DAY_POINTS, DAYS, KEPT_CARD_POINTS, TOKEN_VALUES
from throneroom.v1 import kings_life_pb2 as pb
from throneroom.v1.kings_life_pb2 import KingsLifeMove, KingsLifeState, KingsLifeView

__all__ = ["MARGIN_SCALE", "MARGIN_WEIGHT", "candidates", "policy", "rewards", "victory_points"]

MARGIN_WEIGHT = 0.3
MARGIN_SCALE = 6.0
EXCHANGE_CANDIDATES = 4
"""How many of the heuristic's best-ranked Tuesday exchanges are searched (besides
its own choice and keeping the whole hand)."""

_HEURISTIC = KingsLifeBot()
_SUPPORTING_PLAYS = frozenset({pb.CHARACTER_GUARD, pb.CHARACTER_PEON})


def policy(seat: int, view: KingsLifeView, moves: list[KingsLifeMove]) -> KingsLifeMove:
    """The heuristic bot's move (it draws no random numbers: one instance serves all)."""
    return _HEURISTIC.decide(seat, view, moves)


def victory_points(state: KingsLifeState) -> list[int]:
    """Each seat's victory points as the game stands (the final score at its end)."""
    points = [
        sum(DAY_POINTS[d] for d in p.days_won) + KEPT_CARD_POINTS * len(p.kept)
        for p in state.players
    ]
    for token in state.tokens:
        if token.status == pb.KingsLifeToken.STATUS_WON:
            points[token.holder] += token.value
    return points


def rewards(state: KingsLifeState, winners: Sequence[int]) -> list[float]:
    """Each seat's reward for a finished game (see the module doc)."""
    points = victory_points(state)
    out = []
    for seat, mine in enumerate(points):
        best_other = max(p for s, p in enumerate(points) if s != seat)
        margin = max(-MARGIN_SCALE, min(MARGIN_SCALE, mine - best_other)) / MARGIN_SCALE
        out.append((1.0 if seat in winners else 0.0) + MARGIN_WEIGHT * margin)
    return out


def stage(state: KingsLifeState) -> int:
    """The day's index (0: Tuesday): rollouts may stop a few days on."""
    return DAYS.index(state.day)


_TOKEN_MEAN = sum(TOKEN_VALUES) / len(TOKEN_VALUES)


def estimate(state: KingsLifeState) -> list[float]:
    """Each seat's reward when a rollout stops at the start of a day (hands
    just filled up): the victory points so far plus a share of the points
    still to be won (the days' cards and an average token each) in proportion
    to the strength of the hand (``keep_value``), scored like a finished game
    on these projected points but with the win softened by a logistic of the
    margin (one point of margin: 73%)."""
    remaining = DAYS[DAYS.index(state.day) :]
    to_win = sum(DAY_POINTS[d] + _TOKEN_MEAN for d in remaining)
    strength = [1.0 + sum(keep_value(c) for c in p.hand) for p in state.players]
    total = sum(strength)
    points = victory_points(state)
    projected = [p + to_win * h / total for p, h in zip(points, strength, strict=True)]
    out = []
    for seat, mine in enumerate(projected):
        margin = mine - max(p for s, p in enumerate(projected) if s != seat)
        clamped = max(-MARGIN_SCALE, min(MARGIN_SCALE, margin)) / MARGIN_SCALE
        out.append(1.0 / (1.0 + math.exp(-margin)) + MARGIN_WEIGHT * clamped)
    return out


def candidates(seat: int, view: KingsLifeView, moves: Sequence[Any], chosen: int) -> list[int]:
    """The indices of the moves worth searching, the heuristic's ``chosen`` first."""
    kind = moves[chosen].WhichOneof("kind")
    picks = [chosen]
    if kind == "exchange":
        ranked = sorted(
            range(len(moves)),
            key=lambda i: (-sum(2.5 - keep_value(c) for c in moves[i].exchange.discard), i),
        )
        picks += [i for i in range(len(moves)) if not moves[i].exchange.discard]
        picks += ranked[:EXCHANGE_CANDIDATES]
    elif kind in ("play", "passing"):
        table = Table.of(view)
        best: dict[tuple[int, ...], tuple[float, int]] = {}
        for index, move in enumerate(moves):
            group, score = _group(table, seat, move)
            if group not in best or score > best[group][0]:
                best[group] = (score, index)
        picks += [index for _, index in best.values()]
    else:
        picks += range(len(moves))
    return list(dict.fromkeys(picks))


def _group(table: Table, seat: int, move: KingsLifeMove) -> tuple[tuple[int, ...], float]:
    """A turn move's group and how well it represents it (higher is better)."""
    if move.WhichOneof("kind") == "passing":
        passing = move.passing
        if not passing.HasField("support"):
            return (0,), 0.0
        return (0, passing.support + 1), _gift_value(table, passing.support, passing.hand_over)
    play = move.play
    if card_face(play.card).character in _SUPPORTING_PLAYS:
        if not play.HasField("support"):
            return (play.card,), 0.0
        return (play.card, play.support + 1), _gift_value(table, play.support, play.hand_over)
    return (play.card,), float(table.after(seat, play).margin(seat))


def _gift_value(table: Table, target: int, gift: int) -> float:
    """The supported player's program once it has the card handed over (0: none)."""
    if not gift:
        return float(table.program(target)[0])
    sim = table.copy()
    sim.move_card(gift, target)
    return float(sim.program(target)[0])
