"""Random playouts with the real engines, for the notation tests."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from google.protobuf.message import Message
from throneroom_server.games.registry import AnyGame, build_registry

REGISTRY = build_registry(include_fixtures=True)


@dataclass
class Step:
    """One state of a playout, with the legal moves of every seat to act."""

    state: Any
    legal: dict[int, list[Any]]


def playout(
    game: str, seats: int, seed: int, choice_seed: int, options: Message | None = None
) -> Iterator[Step]:
    """Every state from setup to the end, moves chosen by ``random.Random(choice_seed)``."""
    engine: AnyGame = REGISTRY[game]
    state = engine.setup(options if options is not None else engine.default_options(), seats, seed)
    chooser = random.Random(choice_seed)
    while True:
        acting = list(engine.to_act(state))
        legal = {seat: list(engine.legal_moves(state, seat)) for seat in acting}
        yield Step(state, legal)
        if not acting:
            return
        seat = acting[chooser.randrange(len(acting))]
        moves = legal[seat]
        state, _ = engine.apply(state, seat, moves[chooser.randrange(len(moves))])
