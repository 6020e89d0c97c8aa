"""The web client's words have one home per game (DESIGN.md principle 11): the
shared table (web/js/i18n.js) holds only words every game shares, and each
board module's labels are keys of its game's web data ``words`` (from the
game's SDK package)."""

from __future__ import annotations

import json
import re
from importlib import resources
from pathlib import Path

from throneroom.games.protocol import game_client
from throneroom_server.api.web import game_boards

I18N = resources.files("throneroom_server") / "web" / "js" / "i18n.js"

# Prefixes of a game's own words: its board's labels, options, sides, modes,
# endings and tie-breaks.
GAME_PREFIXES = ("b.", "opt.", "side.", "mode.", "modeName.", "tb.", "end.")
# The endings every game has, told by the service rather than by a game's
# rules (a player out of time, a player's program stopped): the shared table's.
SHARED = {"end.timeout", "end.forfeit:crash"}

_DEFINE = re.compile(r'^define\((".*?(?<!\\)"),', re.M)
# tr("b.dice"), tr("b.round", {...}), tr(giga ? "b.doors" : "b.door", ...)
_LITERAL = re.compile(r'"((?:b|side|mode|modeName|opt|end|tb)\.[A-Za-z_:]+)"')


def shared_keys(source: str) -> list[str]:
    return [json.loads(match) for match in _DEFINE.findall(source)]


def game_owned(keys: list[str]) -> list[str]:
    return [k for k in keys if k.startswith(GAME_PREFIXES) and k not in SHARED]


def test_the_shared_table_holds_no_games_words() -> None:
    keys = shared_keys(I18N.read_text(encoding="utf-8"))
    assert len(keys) > 150 and "gameOver" in keys and "end.timeout" in keys
    assert game_owned(keys) == []


def test_the_check_finds_a_planted_games_word() -> None:
    planted = I18N.read_text(encoding="utf-8") + '\ndefine("b.court", "Court", "Corte", "Corte");\n'
    assert game_owned(shared_keys(planted)) == ["b.court"]


def test_every_label_a_board_names_is_in_its_games_words() -> None:
    boards = game_boards()
    assert {"kill_the_king", "king_is_dead", "kings_life"} <= set(boards)
    every: set[str] = set()
    for game, board in boards.items():
        named = set(_LITERAL.findall(Path(str(board)).read_text(encoding="utf-8")))
        data = game_client(game).web_data()
        words = data["words"]["en"] if data else {}
        assert named - set(words) == set(), game
        every |= named
    assert {"b.dice", "b.court", "b.kingsWill"} <= every
