"""Golden playthroughs: every case of throneroom_dev.golden, played again
now, must equal its committed file in tests/golden/."""

from __future__ import annotations

import difflib
from pathlib import Path

import pytest

from throneroom_dev.golden import (
    CASES,
    FULL_VIEW_DECISIONS,
    VIEW_EVERY,
    GoldenCase,
    prints_views,
    render,
)

GOLDEN_DIR = Path(__file__).parent / "golden"
FIX = "run `make golden` after an intended rules change (and read the diff before committing)"


@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
def test_golden_playthrough_is_unchanged(case: GoldenCase) -> None:
    path = GOLDEN_DIR / f"{case.name}.txt"
    assert path.exists(), f"{path} is missing: {FIX}"
    expected = path.read_text(encoding="utf-8")
    actual = render(case)
    if actual != expected:
        diff = difflib.unified_diff(
            expected.splitlines(), actual.splitlines(), str(path), "played now", lineterm=""
        )
        shown = "\n".join(list(diff)[:80])
        pytest.fail(f"{case.name} no longer plays as {path} says: {FIX}\n{shown}")


def test_golden_folder_holds_exactly_the_cases() -> None:
    files = {path.stem for path in GOLDEN_DIR.glob("*.txt")}
    stray = files - {case.name for case in CASES}
    assert not stray, f"golden files without a case in golden.py: {sorted(stray)}"
    assert len({case.name for case in CASES}) == len(CASES), "two cases share a file name"


def test_golden_rendering_is_deterministic() -> None:
    nim = next(case for case in CASES if case.game == "nim")
    assert render(nim) == render(nim)


def test_views_are_printed_early_then_every_tenth_decision_and_at_the_end() -> None:
    assert all(prints_views(v, last=False) for v in range(FULL_VIEW_DECISIONS + 1))
    later = [v for v in range(FULL_VIEW_DECISIONS + 1, 200) if prints_views(v, last=False)]
    assert later == [v for v in range(70, 200, VIEW_EVERY)]
    assert prints_views(173, last=True)
