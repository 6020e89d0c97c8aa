"""The hidden-information checks (9c, 9d) must not be vacuous: for every game that
declares hidden information, randomize_hidden must actually redraw something
(beyond the RNG) in some sampled state, and the event comparison must actually
compare non-empty event lists."""

from __future__ import annotations

import pytest

from .playout import Playout
from .profiles import first_case, registry
from .report import Stats

HIDDEN = [name for name, game in registry().items() if game.info.hidden_information]
STEPS = 40
SEEDS = (1, 2, 3)


@pytest.mark.parametrize("name", HIDDEN)
def test_hidden_information_checks_bite(name: str) -> None:
    case = first_case(name)
    total = Stats()
    for seed in SEEDS:
        stats = Playout.of(case, seed, seed, deep_rate=1.0, stop_after=STEPS).run()
        total.worlds += stats.worlds
        total.worlds_with_hidden_changes += stats.worlds_with_hidden_changes
        total.event_comparisons += stats.event_comparisons
    assert total.worlds_with_hidden_changes > 0, (
        f"{case.id}: {name} declares hidden information, but randomize_hidden() changed "
        f"nothing beyond the RNG in {total.worlds} sampled (state, viewer) pairs"
    )
    assert total.event_comparisons > 0, (
        f"{case.id}: the event leak check (9d) never compared a non-empty event list in "
        f"{len(SEEDS)} playouts of {STEPS} steps"
    )
