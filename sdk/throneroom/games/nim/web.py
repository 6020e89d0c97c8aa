"""Nim's data for the web client (``/web/data/nim.json``): the board's and the
pages' words in every language (from :mod:`.texts`, the one text source), so
that the web board, the lobby and the outcome speak the reader's language."""

from __future__ import annotations

from typing import Any

from throneroom.games.nim import texts
from throneroom.games.reader import LANGUAGES

Json = dict[str, Any]


def web_data() -> Json:
    """``{"game": "nim", "words": {lang: {"pile": "Pile: {n}", "limit": ...,
    "stone": ..., "stones": ..., "end.last_stone": ..., "opt.pile": ...}}}``:
    templates with ``{n}`` (a count of stones, with its noun), ``{m}`` (the
    limit) and ``{x}`` (a secret)."""
    words: Json = {}
    for lang in LANGUAGES:
        one, many = texts.STONE_NOUNS[lang]
        words[lang] = {
            **{key: template[lang] for key, template in texts.BOARD.items()},
            **{key: template[lang] for key, template in texts.PAGE.items()},
            "stone": one,
            "stones": many,
        }
    return {"game": "nim", "words": words}
