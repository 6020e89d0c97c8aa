"""Kill the King's field drawn with its coordinates, spelt as the notation
spells a square (``b10``: column b, row 10), the same spelling as the
squares' labels and the move list."""

from __future__ import annotations

from tests.web.conftest import Server, Tab
from tests.web.helpers import new_game, open_as


def test_the_field_has_coordinates_as_the_notation_spells_them(tab: Tab, server: Server) -> None:
    game = new_game(server, "kill_the_king", 2, seed=6)
    open_as(tab, game, None)
    page = tab.page
    svg = page.locator("#board svg.board")
    rows, cols = int(svg.get_attribute("data-rows") or 0), int(svg.get_attribute("data-cols") or 0)
    labels = page.locator("#board .coordinates text").all_text_contents()
    letters = [chr(ord("a") + c) for c in range(cols)]
    assert labels[: 2 * cols : 2] == letters  # along the bottom
    assert labels[1 : 2 * cols : 2] == letters  # along the top
    assert labels[2 * cols :] == [str(r + 1) for r in range(rows)]
    square = page.get_attribute("#board .cell[data-row='9'][data-col='1']", "aria-label") or ""
    assert square.startswith("b10:")
