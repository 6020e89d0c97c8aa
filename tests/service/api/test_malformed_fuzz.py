"""A quick run of bench/fuzz.py (``make fuzz`` runs 100,000 cases): a few
hundred hypothesis-drawn requests through both faces of a real server, with no
server failure and no change made by any rejected call."""

from __future__ import annotations

import pytest

from bench.fuzz import report, run


@pytest.mark.slow  # a fuzzing pass
def test_a_quick_fuzz_finds_no_failure_and_no_change_on_rejection() -> None:
    tally = run(400, seed=20261130)
    assert tally.cases == 400
    assert tally.violations == [], report(tally, 0)
    # The run exercised both faces, accepted and rejected calls alike.
    assert tally.rejected_checked > 100
    labels = set(tally.histogram)
    assert {"grpc OK", "grpc INVALID_ARGUMENT", "http 200", "http 400"} <= labels, labels
    assert any(kind.startswith("grpc raw ") for kind in tally.by_kind)
    assert tally.by_kind["grpc Play"] > 10 and tally.by_kind["grpc ListGames"] > 0
