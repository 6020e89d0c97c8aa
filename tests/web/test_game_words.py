"""The web client's words have one home per game (DESIGN.md principle 11): the
shared table (web/js/i18n.js) holds only words every game shares, and each
board module's labels are keys of its game's web data ``words`` (from the
game's SDK package)."""

from __future__ import annotations

import json
import re
from importlib import resources
from pathlib import Path

from throneroom.games.outcomes import SHARED_ENDINGS
from throneroom.games.protocol import game_client, game_names
from throneroom_server.api.web import game_boards
from throneroom_server.api.web_data import game_data

I18N = resources.files("throneroom_server") / "web" / "js" / "i18n.js"

# Prefixes of a game's own words: its board's labels, options, sides, modes,
# endings and tie-breaks.
GAME_PREFIXES = ("b.", "opt.", "side.", "mode.", "modeName.", "tb.", "end.")

_DEFINE = re.compile(r'^define\((".*?(?<!\\)"),', re.M)
# tr("b.dice"), tr("b.round", {...}), tr(giga ? "b.doors" : "b.door", ...)
_LITERAL = re.compile(r'"((?:b|side|mode|modeName|opt|end|tb)\.[A-Za-z_:]+)"')


def shared_keys(source: str) -> list[str]:
    return [json.loads(match) for match in _DEFINE.findall(source)]


def game_owned(keys: list[str]) -> list[str]:
    return [k for k in keys if k.startswith(GAME_PREFIXES)]


def test_the_shared_table_holds_no_games_words() -> None:
    keys = shared_keys(I18N.read_text(encoding="utf-8"))
    assert len(keys) > 150 and "gameOver" in keys
    assert game_owned(keys) == []


def test_every_games_web_data_tells_the_services_own_endings() -> None:
    """A timeout and a forfeit, whatever the game, in its web data's words
    (from the SDK's outcomes.SHARED_ENDINGS), a game's own words first."""
    for game in game_names():
        data = game_data(game)
        for lang in ("en", "es", "pt"):
            for key, words in SHARED_ENDINGS.items():
                assert data["words"][lang][key] == words[lang], (game, lang, key)
    assert (
        game_data("kill_the_king")["words"]["es"]["end.door"]
        == (game_client("kill_the_king").web_data()["words"]["es"]["end.door"])
    )


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
