"""What players expect of a game page (web/js/game.js, panels.js, dom.js):
the tab's title says when it is your turn; the board marks what the last
move changed; skip links jump over the move list; every labelled SVG element
has a role (no aria-prohibited-attr); a finished game shows a score table, a
link to its record and a rematch with the same settings."""

from __future__ import annotations

from tests.web.conftest import Server, Tab
from tests.web.helpers import ENVELOPES, new_game, open_as, shown_version, wait_version


def test_your_turn_in_the_title_and_the_last_move_marked(tab: Tab, server: Server) -> None:
    game = new_game(server, "kill_the_king", 2, seed=6)
    game.play_random(200, seed=1, stop=lambda g: g.view()["phase"] == "PHASE_PLACEMENT")
    open_as(tab, game, 0)
    page = tab.page
    page.wait_for_selector("#move-list button.move:enabled")
    assert page.title().startswith("● Your turn · Kill the King")
    version = shown_version(tab)
    # A placement of a unit other than 0 on a square other than (0, 0) (the
    # JSON leaves zeros out).
    page.locator("#move-list button.move:enabled").last.click()
    wait_version(tab, version + 1)
    # The placement's unit and square are marked on the board.
    entry = game.server.call(
        "GET",
        f"/v1/games/{game.game_id}/history?fromVersion={version}",
        token=game.tokens[0],
    )["entries"][0]
    placed = next(
        e["killTheKing"]["unitPlaced"] for e in entry["events"] if "unitPlaced" in e["killTheKing"]
    )
    unit = placed["unit"]["id"]
    assert unit and placed["unit"]["square"]
    page.wait_for_selector(f"#board .unit.last-move[data-unit='{unit}']")
    assert page.locator("#board .last-move").count() >= 2
    # Seat 1 still places: seat 0's turn comes back only when it acts again.
    if 0 not in game.snapshot()["toAct"]:
        assert "Your turn" not in page.title()


def test_skip_links_and_labelled_svg_elements_have_roles(tab: Tab, server: Server) -> None:
    for game_type, seats in (("king_is_dead", 2), ("kings_life", 4), ("kill_the_king", 2)):
        game = new_game(server, game_type, seats, seed=3)
        game.play_random(6, seed=3)
        open_as(tab, game, 0)
        page = tab.page
        unlabelled = page.evaluate(
            "() => [...document.querySelectorAll('#board svg [aria-label]:not([role])')]"
            ".map((e) => e.tagName)"
        )
        assert unlabelled == [], (game_type, unlabelled[:5])
    page = tab.page
    order = page.evaluate(
        """() => {
            const ids = '#skip-board, #board, #skip-moves, #move-list, #no-moves, #log-section';
            const all = [...document.querySelectorAll(ids)];
            return all.map((e) => e.id);
        }"""
    )
    assert order[0] == "skip-board" and order.index("skip-moves") < order.index("log-section")
    page.focus("#skip-moves")
    page.keyboard.press("Enter")
    assert page.evaluate("document.activeElement.id") == "log-section"
    page.focus("#skip-board")
    page.keyboard.press("Enter")
    assert page.evaluate("document.activeElement.id") == "board"


def test_a_finished_game_has_scores_its_record_and_a_rematch(tab: Tab, server: Server) -> None:
    game = new_game(server, "kings_life", 4, seed=21)
    game.play_random(2000, seed=21)
    snapshot = game.snapshot()
    assert snapshot["finished"]
    open_as(tab, game, 0)
    page = tab.page
    page.wait_for_selector("#score-table")
    rows = page.locator("#score-table tbody tr")
    assert rows.count() == 4
    winners = set(snapshot["outcome"]["winners"])
    marked = {
        int(s)
        for s in rows.evaluate_all(
            "(rs) => rs.filter((r) => r.classList.contains('winner')).map((r) => r.dataset.seat)"
        )
    }
    assert marked == winners
    scores = [p.get("score", 0) for p in snapshot["view"]["kingsLife"]["players"]]
    shown = [
        int(x) for x in page.locator("#score-table tbody tr td:nth-child(4)").all_inner_texts()
    ]
    assert shown == scores
    href = page.get_attribute("#record-link", "href")
    assert href == f"/v1/games/{game.game_id}/record"
    record = server.call("GET", href)["record"]
    assert record["gameId"] == game.game_id
    page.click("#rematch")
    page.wait_for_function("(old) => !location.hash.includes(old)", arg=game.game_id)
    page.wait_for_url("**/#/game/*/seat/0")
    new_id = page.url.split("/#/game/")[1].split("/")[0]
    assert new_id != game.game_id
    created = server.call("GET", f"/v1/games/{new_id}")["snapshot"]
    assert created["gameType"] == "kings_life" and created["numSeats"] == 4
    assert ENVELOPES["kings_life"] in record["options"]
