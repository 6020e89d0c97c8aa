"""Whole games of every game and mode played in Chromium by clicking at a
person's pace (``PERSON_PACE_MS`` after each click) while in-page bots play
the other seats: the page's player picks its language, seats the bots, then
clicks on the board (a move list button where the board offers nothing, and
Confirm for a move of several clicks; in Kill the King it also ends a phase
at ``END_PHASE_CHANCE`` when it may, as a person does) until the outcome
shows; the "Game over" panel and its score table must agree with the game,
and the page must log no console error and throw nothing for the whole game.

The matrix: each game/mode of ``CASES`` at both ``SIZES`` (a desktop window,
1280x800, and a phone, 390x844, touch), in the language ``LANGUAGES[(i + s)
% 3]`` for the case's index ``i`` and the size's index ``s``: the language
rotates over en, es and pt, so each size uses every language, each game
(whose cases follow one another) plays in every language, and every case
plays in two. ``THRONEROOM_WEB_MATRIX=full`` runs the full product instead
(every case at every size in every language).

The clicks of the page's player are counted per game (the language choice,
seating the bots, and every click of its moves): ``THRONEROOM_CLICKS_FILE``
names a file each game appends a line to (case, size, language, clicks,
decisions, seconds)."""

from __future__ import annotations

import os
import random
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest

from tests.web.conftest import Server, Tab, opened_tab, running_server
from tests.web.helpers import PERSON_PACE_MS, Game, Person, new_game, open_as

pytestmark = pytest.mark.slow

LANGUAGES = ("en", "es", "pt")
#: Viewport name -> (width, height, touch screen).
SIZES = {"desktop": (1280, 800, False), "phone": (390, 844, True)}
#: How long the page's player waits for its turn (ms): the other seats' bots
#: play at their own pace, and a Giga side's movement is hundreds of moves.
TURN_TIMEOUT_MS = 600_000
#: How often the Kill the King player ends a phase when the list offers it.
END_PHASE_CHANCE = 0.5
#: The "Game over" title in each language (web/js/i18n.js ``gameOverTitle``).
GAME_OVER = {"en": "Game over", "es": "Fin de la partida", "pt": "Fim do jogo"}


@dataclass(frozen=True)
class Played:
    """One game of the matrix: a case, at a size, in a language."""

    case: Case
    size: str
    language: str

    @property
    def name(self) -> str:
        return f"{self.case.name}-{self.size}-{self.language}"


@dataclass(frozen=True)
class Case:
    name: str
    game_type: str
    seats: int
    options: dict[str, Any] = field(default_factory=dict)

    @property
    def purpose(self) -> tuple[frozenset[str], float]:
        """What the page's player aims at beyond clicking: in Kill the King it
        ends a phase now and then (``end``), as a person does once a few
        units have moved, rather than moving every unit to a standstill."""
        return (
            (frozenset({"end"}), END_PHASE_CHANCE)
            if self.game_type == "kill_the_king"
            else (
                frozenset(),
                0.0,
            )
        )


def _kk(mode: str, *, advanced: bool = False) -> dict[str, Any]:
    return {"mode": f"KILL_THE_KING_MODE_{mode}", "advanced": advanced}


CASES = (
    Case("king_is_dead-2", "king_is_dead", 2),
    Case("king_is_dead-4-mordred", "king_is_dead", 4, {"mordred": True}),
    Case("kings_life-4", "kings_life", 4),
    Case("kings_life-8", "kings_life", 8),
    Case("kill_the_king", "kill_the_king", 2, _kk("KILL_THE_KING")),
    Case("kill_the_king-advanced", "kill_the_king", 2, _kk("KILL_THE_KING", advanced=True)),
    Case("attack_and_defense", "kill_the_king", 2, _kk("ATTACK_AND_DEFENSE")),
    Case("attack_and_defense-advanced", "kill_the_king", 2,
         _kk("ATTACK_AND_DEFENSE", advanced=True)),
    Case("kill_the_king-giga-4", "kill_the_king", 4, _kk("KILL_THE_KING_GIGA")),
    Case("attack_and_defense-giga-4", "kill_the_king", 4, _kk("ATTACK_AND_DEFENSE_GIGA")),
    Case("nim-2", "nim", 2),
    Case("nim-3", "nim", 3, {"pile": 31, "maxTake": 4}),
)  # fmt: skip


def matrix() -> list[Any]:
    """The (case, size, language) games to play: the rotation, or the full product."""
    full = os.environ.get("THRONEROOM_WEB_MATRIX") == "full"
    games = []
    for i, case in enumerate(CASES):
        for s, size in enumerate(SIZES):
            languages = LANGUAGES if full else (LANGUAGES[(i + s) % len(LANGUAGES)],)
            for language in languages:
                played = Played(case, size, language)
                games.append(pytest.param(played, id=played.name))
    return games


@pytest.fixture(scope="module")
def fixture_server() -> Iterator[Server]:
    """The REST face serving the fixture games too (Nim)."""
    with running_server(fixtures=True) as running:
        yield running


def choose_language(person: Person, language: str) -> None:
    """The page's language picked in its frame, as a person picks it."""
    page = person.page
    if page.evaluate("document.documentElement.lang") != language:
        page.select_option("#language", language)
        person.clicks += 1
        page.wait_for_function("(l) => document.documentElement.lang === l", arg=language)


def seat_the_bots(person: Person, seats: int) -> None:
    assert person.click("#seat-bots")
    person.page.wait_for_function(
        "(n) => document.querySelectorAll('.seat .tag.bot').length === n", arg=seats - 1
    )


def check_the_outcome(tab: Tab, game: Game, language: str) -> None:
    """The "Game over" panel: its title and the outcome in the page's
    language, and a score table of every seat that marks the winners."""
    snapshot = game.snapshot()
    assert snapshot["finished"], snapshot
    page = tab.page
    page.wait_for_selector("#outcome #score-table")
    assert page.inner_text("#outcome h2") == GAME_OVER[language]
    outcome = snapshot["outcome"]
    # The outcome in words, in the page's language, as seat 0 reads it.
    assert page.inner_text("#outcome-text") == game.outcome_text(0, language)
    rows = page.locator("#score-table tbody tr")
    assert rows.count() == game_seats(snapshot)
    marked = page.locator("#score-table tbody tr.winner").evaluate_all(
        "(rows) => rows.map((r) => Number(r.dataset.seat))"
    )
    assert sorted(marked) == sorted(outcome.get("winners", [])), (marked, outcome)


def game_seats(snapshot: dict[str, Any]) -> int:
    return len(snapshot["seats"])


def record(line: str) -> None:
    path = os.environ.get("THRONEROOM_CLICKS_FILE")
    if path:
        with open(path, "a", encoding="utf-8") as out:
            out.write(line + "\n")


@pytest.mark.parametrize("played", matrix())
def test_a_whole_game_by_clicking(
    browser: Any, server: Server, fixture_server: Server, played: Played
) -> None:
    case, language = played.case, played.language
    width, height, touch = SIZES[played.size]
    host = fixture_server if case.game_type == "nim" else server
    seed = sum(map(ord, played.name))
    game = new_game(host, case.game_type, case.seats, join=1, options=case.options, seed=seed)
    started = time.monotonic()
    with opened_tab(browser, width=width, height=height, touch=touch) as tab:
        person = Person(tab, random.Random(seed), pace_ms=PERSON_PACE_MS, purpose=case.purpose)
        open_as(tab, game, 0)
        choose_language(person, language)
        seat_the_bots(person, case.seats)
        decisions = person.play_to_the_end(f"whole-{played.name}", TURN_TIMEOUT_MS)
        check_the_outcome(tab, game, language)
        assert decisions > 0
        errors = tab.unexpected_errors()
        assert errors == [], errors
    seconds = time.monotonic() - started
    record(
        f"{case.name} {played.size} {language}: clicks={person.clicks}"
        f" decisions={decisions} seconds={seconds:.0f}"
    )
