"""What the MCTS bot knows of The King Is Dead beyond its engine: the world
built from a view (:mod:`.mcts_world`), the memory of played cards
(:mod:`.mcts_memory`), and the heuristic bot's ``evaluate`` as the prior of a
wide node's moves and the value of a leaf (see :mod:`throneroom.bots.mcts`)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from throneroom.games.king_is_dead.bot import Model, evaluate

__all__ = ["CARD_VALUE", "prior", "value"]


def prior(game: Any, state: Any, actor: int, moves: Sequence[Any]) -> list[float]:
    """The heuristic bot's ``evaluate`` from the actor's view after each move,
    played on its model of the board (the summon after it is not looked at)."""
    model = Model.of(game.view(state, actor), actor)
    colour = state.pending.colour
    values = []
    for move in moves:
        after = model.copy()
        after.apply(move, colour=colour)
        values.append(evaluate(after))
    return values


def value(game: Any, state: Any, seats: int) -> list[float]:
    """The King Is Dead heuristic bot's ``evaluate`` from each seat's own view,
    squashed into (0, 1): it predicts the ending from the board and scores
    "do I win" plus the margins (see throneroom.games.king_is_dead.bot)."""
    values = []
    cards = [len(s.hand) for s in state.seats]
    for seat in range(seats):
        score = evaluate(Model.of(game.view(state, seat), seat))
        # Cards in hand are the last word in the struggles to come (the
        # heuristic bot's card_reserve: 0.3 per card kept).
        others = [cards[s] for s in range(seats) if s != seat]
        score += CARD_VALUE * (cards[seat] - sum(others) / len(others))
        values.append(1.0 / (1.0 + math.exp(-4.0 * (score - 0.5))))
    return values


CARD_VALUE = 0.3
