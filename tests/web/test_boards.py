"""The King's Life and Kill the King boards drawn from real positions (games
advanced through the API with seeded random moves), checked element by element
against the view; a whole King's Life game played in the page against three
in-page bots; Kill the King's two-click moves (a unit, then a square)."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest
from throneroom.games.kill_the_king.enums import Mode
from throneroom.games.kill_the_king.field import field_for

from tests.web.conftest import Server, Tab
from tests.web.helpers import (
    Game,
    new_game,
    open_as,
    set_slider,
    shown_version,
    wait_board_label,
    wait_version,
)
from tests.web.test_play import click_a_move

MAX_DECISIONS = 600


def test_kings_life_board_shows_the_position(tab: Tab, server: Server) -> None:
    game = new_game(server, "kings_life", 5, seed=21)
    game.play_random(60, seed=2)
    view = game.view(0)
    open_as(tab, game, 0)
    page = tab.page
    assert page.locator("#board .player").count() == 5
    assert page.locator("#board .preference").count() == 4
    assert page.locator("#board .day").count() == 5
    assert page.locator("#board .support-token").count() == 5
    assert page.locator("#board .hand-card").count() == len(view["hand"])
    for seat, player in enumerate(view["players"]):
        shown = page.locator(f"#board .player[data-seat='{seat}'] .kl-card.display")
        assert shown.count() == len(player["display"])
        ids = [int(x) for x in shown.evaluate_all("(els) => els.map((e) => e.dataset.card)")]
        assert ids == player["display"]
    tops = page.locator("#board .preference").evaluate_all(
        "(els) => els.map((e) => e.dataset.activity)"
    )
    assert tops[:3] == view["preferences"]
    current = page.locator("#board .day.current").get_attribute("data-day")
    assert current == view["day"]
    tab.shot("kings_life")


def test_a_whole_kings_life_game_against_three_in_page_bots(tab: Tab, server: Server) -> None:
    rng = random.Random(8)
    game = new_game(server, "kings_life", 4, join=1, seed=31)
    # Bots answer simultaneous decisions while the page's player clicks: a
    # move chosen at a version that just passed is refused with 409 (shown to
    # the player as the server's sentence), which Chromium logs as well.
    tab.allow_status(409)
    open_as(tab, game, 0)
    page = tab.page
    page.click("#seat-bots")
    page.wait_for_function("() => document.querySelectorAll('.seat .tag.bot').length === 3")
    played = play_to_the_end(tab, rng, "kings_life")
    snapshot = game.snapshot()
    assert snapshot["finished"]
    assert played > 5
    scores = page.locator("#board .player .program").evaluate_all(
        "(els) => els.map((e) => e.textContent)"
    )
    assert all("score" in text for text in scores), scores
    assert page.inner_text("#outcome-text") == game.outcome_text(0)
    tab.shot("kings_life-over")


def play_to_the_end(tab: Tab, rng: random.Random, name: str) -> int:
    """The page's player makes every decision asked of it until the outcome shows."""
    page = tab.page
    decisions = 0
    for _ in range(MAX_DECISIONS):
        try:
            page.wait_for_function(
                """() => document.querySelector('#outcome') ||
                         document.querySelector('#move-list button.move:enabled')""",
                timeout=30_000,
            )
        except Exception:
            tab.shot(f"{name}-stuck")
            raise
        if page.locator("#outcome").count():
            return decisions
        version = shown_version(tab)
        if click_a_move(page, rng, version) != "none":
            decisions += 1
            wait_version(tab, version + 1)
    pytest.fail("the game did not end")


def units_drawn(view: dict[str, Any]) -> list[dict[str, Any]]:
    return [
        u
        for u in view["units"]
        if u["status"] == "STATUS_ON_FIELD" and u["carriedBy"] == -1 and "square" in u
    ]


def dice_version(game: Game) -> tuple[int, int]:
    """A version whose move rolled dice after the setup, and how many."""
    history = game.server.call("GET", f"/v1/games/{game.game_id}/history?pageSize=1000")
    for entry in reversed(history["entries"]):
        rolls = [e for e in entry["events"] if "dieRolled" in e["killTheKing"]]
        if rolls and rolls[0]["killTheKing"]["dieRolled"]["purpose"] != "DIE_PURPOSE_INITIATIVE":
            return int(entry["version"]), len(rolls)
    raise AssertionError("no attack rolled a die")


def test_kill_the_king_board_shows_the_field_units_and_dice(tab: Tab, server: Server) -> None:
    game = new_game(server, "kill_the_king", 2, seed=5)
    game.play_random(260, seed=3)
    view = game.view(0)
    open_as(tab, game, 0)
    page = tab.page
    svg = page.locator("#board svg.board")
    assert (svg.get_attribute("data-rows"), svg.get_attribute("data-cols")) == ("16", "11")
    assert page.locator("#board .cell").count() == 16 * 11
    assert page.locator("#board .cell.gate, #board .cell.rubble").count() >= 1
    assert page.locator("#board .cell.door").count() == 1
    board = field_for(Mode.KILL_THE_KING)
    assert page.locator("#board .cell.stairs").count() == len(board.stairs)
    assert page.locator("#board .cell.wall").count() == len(board.walls) - len(view["ruins"])
    drawn = units_drawn(view)
    assert page.locator("#board .unit").count() == len(drawn)
    ids = page.locator("#board .unit").evaluate_all(
        "(els) => els.map((e) => Number(e.dataset.unit))"
    )
    assert sorted(ids) == sorted(u["id"] for u in drawn)
    sides = Counter(
        page.locator("#board .unit").evaluate_all("(els) => els.map((e) => e.dataset.side)")
    )
    assert sides == Counter(u["side"] for u in drawn)
    facings = page.locator("#board .unit").evaluate_all(
        "(els) => els.map((e) => [Number(e.dataset.unit), e.dataset.facing])"
    )
    assert dict(map(tuple, facings)) == {u["id"]: u["facing"] for u in drawn}
    assert page.locator("#board .unit .facing").count() == len(drawn)
    tab.shot("kill_the_king")
    # The dice of a past move, shown with the history slider.
    version, rolls = dice_version(game)
    set_slider(tab, version)
    wait_board_label(tab, f"version {version}\\b")
    assert page.locator("#board .die").count() == min(rolls, 12)
    values = page.locator("#board .die").evaluate_all("(els) => els.map((e) => e.dataset.value)")
    assert all(v in {"1", "2", "3", "4", "5", "6"} for v in values)
    tab.shot("kill_the_king-dice")


def in_round_2(game: Game) -> bool:
    return int(game.snapshot()["view"]["killTheKing"].get("round", 0)) >= 2


@pytest.mark.parametrize(
    ("mode", "seats"), [(Mode.KILL_THE_KING_GIGA, 4), (Mode.ATTACK_AND_DEFENSE_GIGA, 3)]
)
def test_kill_the_king_giga_board_is_two_boards_joined(
    tab: Tab, server: Server, mode: Mode, seats: int
) -> None:
    """KK-9, KK-123: the 32-row field of a Giga game (two gates and two King's
    Doors on the castle side), every counter drawn, each seat with its team."""
    options = {"mode": f"KILL_THE_KING_MODE_{mode.name}"}
    game = new_game(server, "kill_the_king", seats, options=options, seed=5)
    game.play_random(900, seed=3, stop=in_round_2)
    view = game.view(1)
    assert int(view.get("round", 0)) >= 2
    open_as(tab, game, 1)
    page = tab.page
    svg = page.locator("#board svg.board")
    assert (svg.get_attribute("data-rows"), svg.get_attribute("data-cols")) == ("32", "11")
    assert page.locator("#board .cell").count() == 32 * 11
    board = field_for(mode)
    assert page.locator("#board .cell.door").count() == len(board.doors) == 2
    drawn = units_drawn(view)
    assert page.locator("#board .unit").count() == len(drawn)
    ids = page.locator("#board .unit").evaluate_all(
        "(els) => els.map((e) => Number(e.dataset.unit))"
    )
    assert sorted(ids) == sorted(u["id"] for u in drawn)
    assert max(u["square"].get("row", 0) for u in drawn) >= 16, "units on the second board"
    panel = page.locator("#board .ktk-panel").text_content() or ""
    assert "(team 1)" in panel and "(team 0)" in panel
    tab.shot(f"kill_the_king-giga-{mode.value}")


def movement_turn_of_seat_0(game: Game) -> bool:
    snapshot = game.snapshot()
    view = snapshot["view"]["killTheKing"]
    if snapshot["toAct"] != [0] or view["phase"] != "PHASE_MOVEMENT":
        return False
    listed = game.server.call("GET", f"/v1/games/{game.game_id}/legal-moves", token=game.tokens[0])
    return any("step" in m["killTheKing"] for m in listed["moves"])


def test_kill_the_king_unit_then_square(tab: Tab, server: Server) -> None:
    game = new_game(server, "kill_the_king", 2, seed=6)
    game.play_random(400, seed=4, stop=movement_turn_of_seat_0)
    assert movement_turn_of_seat_0(game)
    listed = game.server.call("GET", f"/v1/games/{game.game_id}/legal-moves", token=game.tokens[0])
    step = next(m["killTheKing"]["step"] for m in listed["moves"] if "step" in m["killTheKing"])
    open_as(tab, game, 0)
    page = tab.page
    version = shown_version(tab)
    unit = page.locator(f"#board .unit.clickable[data-unit='{step['unit']}']")
    unit.click()
    page.wait_for_selector("#clear-pick")
    assert page.locator("#board .cell.clickable").count() >= 1
    unit_view = next(u for u in game.view(0)["units"] if u["id"] == step["unit"])
    delta = {"DIRECTION_NORTH": (1, 0), "DIRECTION_EAST": (0, 1), "DIRECTION_SOUTH": (-1, 0)}
    d_row, d_col = delta.get(step["direction"], (0, -1))
    row = unit_view["square"].get("row", 0) + d_row
    col = unit_view["square"].get("col", 0) + d_col
    page.click(f"#board .cell.clickable[data-row='{row}'][data-col='{col}']")
    # Two clicks made the move: the page says it in words and waits for Confirm.
    assert "→" not in page.inner_text("#confirm-words")
    page.click("#confirm-move")
    wait_version(tab, version + 1)
    events = game.server.call("GET", f"/v1/games/{game.game_id}/history?fromVersion={version}")[
        "entries"
    ][0]["events"]
    stepped = [e["killTheKing"]["stepped"] for e in events if "stepped" in e["killTheKing"]]
    assert stepped and stepped[0]["unit"] == step["unit"]
    assert stepped[0]["toSquare"] == {"row": row, "col": col} or stepped[0]["toSquare"] == {
        k: v for k, v in {"row": row, "col": col}.items()
    }
