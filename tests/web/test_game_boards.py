"""Each game's board is loaded from its own package: ``/web/js/boards/<game>.js``
is the ``board.js`` of the game's server package, and the page draws it. Nim
(the fixture game, served here with the fixture games on) draws its pile in the
reader's language, with the words of its web data."""

from __future__ import annotations

import re
from collections.abc import Iterator
from importlib import resources
from pathlib import Path

import pytest
from throneroom.games.nim import texts
from throneroom_server.api.web import game_boards, load_client
from throneroom_server.games.registry import build_registry

from tests.web.conftest import Server, Tab, running_server
from tests.web.helpers import new_game, open_as, wait_board_label
from tests.web.test_static import fetch


@pytest.fixture(scope="module")
def fixture_server() -> Iterator[Server]:
    """The REST face serving the fixture games too (Nim)."""
    with running_server(fixtures=True) as running:
        yield running


@pytest.mark.parametrize("game", ["king_is_dead", "kings_life", "kill_the_king", "nim"])
def test_each_board_is_its_packages_board_js(fixture_server: Server, game: str) -> None:
    status, headers, body = fetch(fixture_server, f"/web/js/boards/{game}.js")
    assert status == 200
    assert headers["Content-Type"] == "text/javascript; charset=utf-8"
    own = resources.files(f"throneroom_server.games.{game}") / "board.js"
    assert body == own.read_bytes()


@pytest.mark.parametrize(
    ("game", "seats", "title"),
    [
        ("king_is_dead", 2, "The King Is Dead"),
        ("kings_life", 4, "King's Life"),
        ("kill_the_king", 2, "Kill the King"),
    ],
)
def test_each_real_game_loads_its_own_board(
    tab: Tab, server: Server, game: str, seats: int, title: str
) -> None:
    """Its own board, drawn (the generic board is the view as data in a ``pre``)."""
    open_as(tab, new_game(server, game, seats), 0)
    label = tab.page.locator("#board svg.board").get_attribute("aria-label") or ""
    assert label.startswith(title), label
    assert tab.page.locator("#board .generic-view").count() == 0
    assert tab.page.locator("#board svg.board *").count() > 10


def test_the_nim_board_draws_the_pile_in_the_readers_language(
    tab: Tab, fixture_server: Server
) -> None:
    game = new_game(fixture_server, "nim", 2, options={"pile": 7, "maxTake": 2})
    open_as(tab, game, 0)
    page = tab.page
    assert page.locator("#board svg.board.nim circle.stone").count() == 7
    stones = page.locator("#board circle.stone")
    keys = stones.evaluate_all("(els) => els.map((e) => e.dataset.key)")
    assert keys == [f"take:{n}" for n in range(7, 0, -1)]
    wait_board_label(tab, re.escape("Pile: 7 stones · take 1 to 2 per move"))
    page.select_option("#language", "es")
    spanish = texts.BOARD["pile"]["es"].format(n="7 piedras")
    wait_board_label(tab, re.escape(spanish))
    caption = page.locator("#board svg.board text.small").text_content()
    assert caption == f"{spanish} · se toman de 1 a 2 por jugada"


def test_the_boards_are_found_by_the_registered_names() -> None:
    """Every registered game with a ``board.js`` in its package, and no other."""
    boards = game_boards()
    assert set(boards) == set(build_registry(include_fixtures=True))
    assert all(board.name == "board.js" for board in boards.values())


def test_a_board_may_not_shadow_a_shared_file(tmp_path: Path) -> None:
    (tmp_path / "js" / "boards").mkdir(parents=True)
    (tmp_path / "index.html").write_text("<html></html>")
    (tmp_path / "js" / "boards" / "duel.js").write_text("export default {};")
    board = tmp_path / "board.js"
    board.write_text("export default { title: 'Duel' };")
    files = load_client(tmp_path, data={}, boards={"solo": board})
    assert files["js/boards/solo.js"].body == board.read_bytes()
    with pytest.raises(RuntimeError, match="both a shared file and duel's own board"):
        load_client(tmp_path, data={}, boards={"duel": board})
