"""The web client's record page: a record file (JSON, and binary) chosen on
the lobby is replayed by the server (nothing stored) and stepped through with
the game's board: buttons, arrow keys, Home and End, the log; the view of any
seat; a file that is not a record says so."""

from __future__ import annotations

from pathlib import Path

from google.protobuf import json_format
from throneroom import records as record_files
from throneroom.v1 import service_pb2

from tests.web.conftest import Server, Tab
from tests.web.helpers import new_game, shown_version, wait_version


def _finished_record(
    server: Server, game_type: str, seats: int, seed: int
) -> service_pb2.GameRecord:
    game = new_game(server, game_type, seats, seed=seed)
    game.play_random(5000, seed=seed)
    assert game.snapshot()["finished"]
    exported = server.call("GET", f"/v1/games/{game.game_id}/record")
    return json_format.ParseDict(exported, service_pb2.ExportGameResponse()).record


def _open(tab: Tab, server: Server, path: Path) -> None:
    page = tab.page
    page.goto(server.base + "/")
    page.wait_for_selector("body[data-ready='lobby']")
    page.set_input_files("#record-file", str(path))
    page.wait_for_selector("body[data-ready='record']")
    page.wait_for_selector("#board svg.board")


def test_a_record_file_steps_through_with_its_board(
    tab: Tab, server: Server, tmp_path: Path
) -> None:
    record = _finished_record(server, "king_is_dead", 2, seed=21)
    last = len(record.moves)
    path = record_files.save(record, tmp_path / "game.json")
    games_before = server.call("GET", "/v1/games")
    _open(tab, server, path)
    page = tab.page
    assert shown_version(tab) == 0
    assert "Version 0 of" in (page.text_content("#status") or "")
    page.click("#record-next")
    wait_version(tab, 1)
    page.keyboard.press("ArrowRight")
    wait_version(tab, 2)
    page.keyboard.press("ArrowLeft")
    page.wait_for_function(
        "() => /version 1 of/.test(document.querySelector('#record-label').textContent)"
    )
    assert shown_version(tab) == 1
    page.keyboard.press("End")
    wait_version(tab, last)
    page.wait_for_selector("#outcome")
    assert page.is_disabled("#record-next") and page.is_disabled("#record-last")
    assert page.locator("#event-log li").count() == last
    page.keyboard.press("Home")
    page.wait_for_function("() => document.querySelector('#record-first').disabled")
    assert shown_version(tab) == 0
    # A log line shows its version.
    page.click("#event-log li[data-version='3'] button.version")
    wait_version(tab, 3)
    # Any seat's view (a record reveals every secret): the page asks again.
    page.select_option("#record-viewer", "1")
    page.wait_for_function(
        "() => /view\\. Version 3 of/.test(document.querySelector('#status').textContent)"
    )
    assert "P1" in (page.text_content("#status") or "")
    assert server.call("GET", "/v1/games") == games_before  # nothing was stored


def test_a_binary_record_and_a_file_that_is_not_one(
    tab: Tab, server: Server, tmp_path: Path
) -> None:
    record = _finished_record(server, "kings_life", 4, seed=5)
    binary = record_files.save(record, tmp_path / "game.pb")
    _open(tab, server, binary)
    page = tab.page
    page.keyboard.press("End")
    wait_version(tab, len(record.moves))
    page.wait_for_selector("#outcome")

    junk = tmp_path / "notes.json"
    junk.write_text('{"hello": "world"}')
    page.goto(server.base + "/")
    page.wait_for_selector("body[data-ready='lobby']")
    tab.allow_status(400)  # the server refuses it; the page says so
    page.set_input_files("#record-file", str(junk))
    page.wait_for_selector("#record-error")
    assert "notes.json" in (page.text_content("#record-error") or "")
    assert page.locator("#record-file-page").count() == 1  # another file can be chosen
