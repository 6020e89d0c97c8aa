"""Half-made selections survive updates (web/js/moves.js ``Picker.update``,
game.js ``setLegal``): in Kill the King's placement, where both seats place at
once, a player picks a reserve unit and a square, the other seat places
meanwhile (an update with new legal moves arrives), and the player completes
the move with a facing; a selection no longer legal is cut back to its legal
start."""

from __future__ import annotations

from tests.web.conftest import Server, Tab
from tests.web.helpers import Game, new_game, open_as, shown_version, wait_version

PICKER = """async () => {
    const { Picker } = await import('/web/js/moves.js');
    const picker = new Picker();
    picker.reset([["a", "x", "1"], ["a", "y", "1"], ["b", "x", "2"]]);
    picker.pick("a");
    picker.pick("x");
    const kept = picker.update([["a", "x", "1"], ["b", "x", "2"]]);
    const keptSelection = [...picker.selected];
    const cut = picker.update([["a", "y", "1"], ["b", "x", "2"]]);
    const cutSelection = [...picker.selected];
    const gone = picker.update([["b", "x", "2"]]);
    return { kept, keptSelection, cut, cutSelection, gone, goneSelection: picker.selected };
}"""


def test_picker_keeps_the_legal_start_of_a_selection(tab: Tab, server: Server) -> None:
    tab.page.goto(server.base + "/")
    seen = tab.page.evaluate(PICKER)
    assert seen["kept"] is True and seen["keptSelection"] == ["a", "x"]
    assert seen["cut"] is False and seen["cutSelection"] == ["a"]
    assert seen["gone"] is False and seen["goneSelection"] == []


def placement(game: Game) -> bool:
    snapshot = game.snapshot()
    return bool(
        snapshot["view"]["killTheKing"]["phase"] == "PHASE_PLACEMENT"
        and snapshot["toAct"] == [0, 1]
    )


def legal(game: Game, seat: int) -> dict[str, object]:
    listed: dict[str, object] = game.server.call(
        "GET", f"/v1/games/{game.game_id}/legal-moves", token=game.tokens[seat]
    )
    return listed


def test_a_placement_half_made_survives_the_other_seats_move(tab: Tab, server: Server) -> None:
    game = new_game(server, "kill_the_king", 2, seed=6)
    game.play_random(200, seed=1, stop=placement)
    assert placement(game)
    mine = legal(game, 0)
    place = mine["moves"][0]["killTheKing"]["place"]  # type: ignore[index]
    open_as(tab, game, 0)
    page = tab.page
    version = shown_version(tab)
    # Reserve unit, then square, at a person's pace.
    page.click(f"#board [data-key='reserve:{place['unit']}'].clickable")
    page.wait_for_selector("#clear-pick")
    page.wait_for_timeout(300)
    square = place.get("square", {})
    row, col = square.get("row", 0), square.get("col", 0)
    page.click(f"#board .cell.clickable[data-row='{row}'][data-col='{col}']")
    page.wait_for_selector("#board .face-arrow.clickable")
    # The other seat places: an update (and new legal moves) reaches the page.
    theirs = legal(game, 1)
    game.server.call(
        "POST",
        f"/v1/games/{game.game_id}/moves",
        {
            "expectedVersion": theirs["version"],
            "move": theirs["moves"][-1],  # type: ignore[index]
            "idempotencyKey": "other-seat-places",
        },
        token=game.tokens[1],
    )
    wait_version(tab, version + 1)
    page.wait_for_function(
        "(v) => !document.querySelector('#no-moves') && document.querySelector('#move-list')"
    )
    page.wait_for_timeout(300)
    # The selection is still there: the facing arrows are offered.
    assert page.locator("#clear-pick").count() == 1
    facing = place["facing"]
    page.click(f"#board .face-arrow.clickable[data-key='face:{facing}']")
    page.click("#confirm-move")
    wait_version(tab, version + 2)
    placed = next(u for u in game.view(0)["units"] if u["id"] == place["unit"])
    assert placed["status"] == "STATUS_ON_FIELD"
    assert (placed["square"].get("row", 0), placed["square"].get("col", 0)) == (row, col)
    assert placed["facing"] == facing
    assert tab.unexpected_errors() == []
