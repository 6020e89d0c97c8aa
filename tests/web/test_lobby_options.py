"""The lobby's words for options and games (web/js/lobby.js): a mode is
offered by its name, never as the enum's identifier; the seat counts follow
the mode (one board: two seats; Giga's two boards: up to four); each listed
game shows its options, its seats and its age; an outcome names how the game
ended and its tie-breaks in words."""

from __future__ import annotations

import re

import pytest

from tests.web.conftest import Server, Tab
from tests.web.helpers import new_game, open_as

GIGA = "KILL_THE_KING_MODE_ATTACK_AND_DEFENSE_GIGA"
# True once the lobby lists the game; until then each poll asks for the list again.
REFRESHED_UNTIL_LISTED = """(id) => {
    if (document.querySelector(`#game-list .game-row[data-game-id='${id}']`)) return true;
    document.querySelector('#list-refresh')?.click();
    return false;
}"""


def seat_choices(tab: Tab) -> list[str]:
    values: list[str] = tab.page.locator("#create-seats option").evaluate_all(
        "(options) => options.map((o) => o.value)"
    )
    return values


def test_modes_by_name_and_seats_by_mode(tab: Tab, server: Server) -> None:
    page = tab.page
    page.goto(server.base + "/")
    page.wait_for_selector("#create-form")
    page.select_option("#create-type", "kill_the_king")
    mode = page.locator("#opt-killTheKing-mode")
    labels = mode.locator("option").all_inner_texts()
    assert labels and not any(re.search(r"[A-Z]{3,}_[A-Z]", label) for label in labels), labels
    assert "Attack and Defense" in labels
    page.wait_for_function("() => document.querySelectorAll('#create-seats option').length === 1")
    assert seat_choices(tab) == ["2"]
    mode.select_option(GIGA)
    page.wait_for_function("() => document.querySelectorAll('#create-seats option').length === 3")
    assert seat_choices(tab) == ["2", "3", "4"]
    page.select_option("#create-seats", "3")
    page.click("#create-submit")
    page.wait_for_url("**/#/game/*/seat/0")
    game_id = page.url.split("/#/game/")[1].split("/")[0]
    snapshot = server.call("GET", f"/v1/games/{game_id}")["snapshot"]
    assert snapshot["numSeats"] == 3
    assert snapshot["view"]["killTheKing"]["mode"] == GIGA
    # The lobby's row: its mode by name, the seats, its age.
    page.evaluate("location.hash = '#/'")
    row = page.locator(f"#game-list .game-row[data-game-id='{game_id}']")
    page.wait_for_selector("#game-list .game-row, #game-list p")
    # The lobby's index may take a moment to list it: refresh until it does.
    page.wait_for_function(REFRESHED_UNTIL_LISTED, arg=game_id, polling=500)
    text = row.inner_text()
    assert "Attack and Defense Giga" in text and GIGA not in text
    assert "1/3 seats" in text and "just now" in text


@pytest.mark.parametrize(("game_type", "seats"), [("king_is_dead", 2), ("kings_life", 4)])
def test_the_outcome_in_words(tab: Tab, server: Server, game_type: str, seats: int) -> None:
    """How the game ended and its tie-breaks, in the game's own words (its
    web data's ``words``, from its SDK package)."""
    game = new_game(server, game_type, seats, seed=13)
    game.play_random(1000, seed=13)
    snapshot = game.snapshot()
    assert snapshot["finished"]
    words = server.call("GET", f"/web/data/{game_type}.json")["words"]["en"]
    open_as(tab, game, None)
    ended = tab.page.inner_text("#outcome-end")
    termination = snapshot["outcome"]["termination"]
    assert "_" not in ended, ended
    assert words[f"end.{termination}"] in ended, ended
    for tiebreak in snapshot["outcome"].get("tiebreaks", []):
        assert tiebreak not in ended
        assert words[f"tb.{tiebreak}"] in ended, ended
