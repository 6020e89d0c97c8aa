"""The web client's routes (no browser): content types, caching, no listing, no
path traversal, and each game's data file equal to the SDK's tables."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from typing import Any

import pytest
from throneroom.games.kill_the_king.board import STANDARD_MAP, Terrain
from throneroom.games.kill_the_king.enums import Mode
from throneroom.games.kill_the_king.field import field_for
from throneroom.games.king_is_dead import data as kid
from throneroom.games.kings_life import texts as kl_texts
from throneroom.v1 import kill_the_king_pb2 as ktk_pb
from throneroom.v1 import king_is_dead_pb2 as kid_pb

from tests.web.conftest import Server


def fetch(
    server: Server, path: str, headers: dict[str, str] | None = None
) -> tuple[int, dict[str, str], bytes]:
    request = urllib.request.Request(server.base + path, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()


def test_index_is_html_with_a_content_security_policy(server: Server) -> None:
    status, headers, body = fetch(server, "/")
    assert status == 200
    assert headers["Content-Type"] == "text/html; charset=utf-8"
    assert "script-src 'self'" in headers["Content-Security-Policy"]
    assert headers["X-Content-Type-Options"] == "nosniff"
    assert headers["Cache-Control"] == "no-cache"
    assert b'<script type="module" src="/web/js/app.js">' in body


@pytest.mark.parametrize(
    ("path", "content_type"),
    [
        ("/web/js/app.js", "text/javascript; charset=utf-8"),
        ("/web/js/boards/king_is_dead.js", "text/javascript; charset=utf-8"),
        ("/web/style.css", "text/css; charset=utf-8"),
        ("/web/icon.svg", "image/svg+xml"),
        ("/web/data/king_is_dead.json", "application/json"),
    ],
)
def test_files_have_their_content_type_and_an_etag(
    server: Server, path: str, content_type: str
) -> None:
    status, headers, body = fetch(server, path)
    assert status == 200
    assert headers["Content-Type"] == content_type
    assert body
    etag = headers["ETag"]
    again, again_headers, again_body = fetch(server, path, {"If-None-Match": etag})
    assert (again, again_body) == (304, b"")
    assert again_headers["ETag"] == etag


@pytest.mark.parametrize(
    "path",
    [
        "/web/",
        "/web/js",
        "/web/js/",
        "/web/../pyproject.toml",
        "/web/%2e%2e/%2e%2e/pyproject.toml",
        "/web/js/..%2f..%2fapi%2fweb.py",
        "/web/..%5c..%5capi%5cweb.py",
        "/web//etc/passwd",
        "/web/%2Fetc%2Fpasswd",
        "/web/api/web.py",
        "/web/__init__.py",
        "/web/data/unknown.json",
        "/web/data/",
        "/index.html/../web/js/app.js/..",
    ],
)
def test_no_listing_and_no_path_outside_the_client(server: Server, path: str) -> None:
    status, headers, body = fetch(server, path)
    assert status == 404, (path, body[:200])
    assert headers["Content-Type"].startswith("application/json")
    assert json.loads(body)["error"]["reason"] == "ROUTE_NOT_FOUND"


def test_the_client_holds_no_python_or_hidden_file(server: Server) -> None:
    from throneroom_server.api.web import packaged_client

    names = set(packaged_client())
    assert "index.html" in names
    assert all(not n.endswith(".py") and "/." not in f"/{n}" for n in names), names


def data(server: Server, name: str) -> Any:
    status, _, body = fetch(server, f"/web/data/{name}.json")
    assert status == 200
    return json.loads(body)


def test_king_is_dead_data_is_the_sdks_map(server: Server) -> None:
    served = data(server, "king_is_dead")
    name = kid_pb.Region.Name
    assert [r["region"] for r in served["regions"]] == [name(r) for r in kid.REGIONS]
    assert served["borders"] == [[name(a), name(b)] for a, b in kid.BORDERS]
    assert served["homes"] == {kid_pb.Faction.Name(f): name(r) for f, r in kid.HOMES.items()}
    assert served["banner"] == {name(a): name(b) for a, b in kid.BANNER.items()}
    by_region = {r["region"]: r["names"] for r in served["regions"]}
    assert by_region["REGION_CALEDONIA"] == {
        "en": "Caledonia",
        "es": "Caledonia",
        "pt": "Caledônia",
    }
    assert len(served["cards"]) == len(kid.CARDS)
    assert served["saxonTokensForInvasion"] == kid.SAXON_TOKENS_FOR_INVASION


def test_kings_life_data_is_the_sdks_deck(server: Server) -> None:
    served = data(server, "kings_life")
    assert len(served["cards"]) == len(kl_texts.DECK)
    for card, face in zip(served["cards"], kl_texts.DECK, strict=True):
        assert (card["id"], card["name"], card["value"], card["sun"], card["draws"]) == (
            face.id,
            face.name,
            face.value,
            face.sun,
            face.draws,
        )
    assert [d["name"] for d in served["days"]] == [d.name for d in kl_texts.DAYS.values()]


def test_kill_the_king_data_is_the_sdks_board(server: Server) -> None:
    served = data(server, "kill_the_king")
    terrain_map = STANDARD_MAP.split("\n\n")[0].splitlines()[1:]
    one_board = served["modes"]["KILL_THE_KING_MODE_KILL_THE_KING"]["field"]
    # The text map lists the northmost row first; the data lists row 0 first.
    assert one_board["terrain"] == list(reversed(terrain_map))
    assert (one_board["rows"], one_board["cols"]) == (16, 11)
    for mode in Mode:
        field = served["modes"][ktk_pb.KillTheKingMode.Name(int(mode))]["field"]
        board = field_for(mode)
        assert (field["rows"], field["cols"], field["boards"]) == (
            board.rows,
            board.cols,
            board.boards,
        )
        for space in board:
            assert field["terrain"][space.coord.row][space.coord.col] == space.char
    gate_rows = [r for r, row in enumerate(one_board["terrain"]) if Terrain.GATE.value in row]
    assert gate_rows == [field_for(Mode.KILL_THE_KING).gates[0].row]
    assert {u["letter"] for u in served["units"]} >= {"A", "S", "W", "K"}


def test_options_data_comes_from_the_descriptors(server: Server) -> None:
    options = data(server, "options")["options"]
    assert options["kingIsDead"]["fields"]["mordred"]["kind"] == "bool"
    mode = options["killTheKing"]["fields"]["mode"]
    assert mode["kind"] == "enum"
    assert mode["values"] == [ktk_pb.KillTheKingMode.Name(m) for m in (1, 2, 3, 4)]
