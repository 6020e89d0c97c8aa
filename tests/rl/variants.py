"""The variants the rl tests play: every mode and seat count of every game
(the registry's declared test variants), the long ones marked slow."""

from __future__ import annotations

import pytest
from throneroom_rl.table import rl_game_names, variants

# Kill the King's Giga boards and King's Life at 7-8 seats take seconds per
# game in Python; the fast tier plays one of each game's smaller variants.
FAST_DECISIONS = 600


def rl_variants(*, slow_past: int | None = None) -> list[object]:
    """pytest params (name, seats, options), ids like ``kings_life-5p``; the
    variants whose games run long (max_decisions past FAST_DECISIONS, and
    every variant but the first of a long game; past ``slow_past`` decisions
    every variant) are slow, and so are games of more than 6 seats."""
    from throneroom_rl.table import table

    params: list[object] = []
    for name in rl_game_names():
        for index, variant in enumerate(variants(name)):
            options = dict(variant.options)
            decisions = table(name, variant.seats, options).max_decisions
            long_game = decisions > FAST_DECISIONS
            slow = (long_game and index > 0) or variant.seats > 6
            slow = slow or (slow_past is not None and decisions > slow_past)
            marks = [pytest.mark.slow] if slow else []
            params.append(
                pytest.param(
                    name, variant.seats, options, id=f"{name}-{variant.label}", marks=marks
                )
            )
    return params
