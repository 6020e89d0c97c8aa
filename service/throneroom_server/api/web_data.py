"""Each game's data for the web client, as JSON, made by the game's SDK package.

The boards the web client draws need facts that a view does not carry (a
map's borders, what card id 37 is, the terrain of every space). Rather than a
second, hand-copied copy in JavaScript, the client reads them from
``/web/data/<game>.json``, which the game's client makes at run time
(``game_client(game).web_data()``, in ``throneroom.games.<game>.web``, from
the same tables the rules engines import); a game without any has no file.
Here too: ``/web/data/options.json``, every game's options. Names of enums
are the proto's names, as in the views' JSON (``"REGION_CALEDONIA"``), so the
client matches them without numbers.

    >>> data = game_data("king_is_dead")
    >>> len(data["regions"]), len(data["borders"])
    (8, 13)
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from typing import Any

from google.protobuf.descriptor import FieldDescriptor
from throneroom.games.outcomes import SHARED_ENDINGS
from throneroom.games.protocol import game_client, game_names
from throneroom.games.reader import by_language
from throneroom.v1 import game_pb2

Json = dict[str, Any]


# -- every game's options ------------------------------------------------------------------

_FIELD_KINDS: Mapping[int, str] = {
    FieldDescriptor.TYPE_BOOL: "bool",
    FieldDescriptor.TYPE_ENUM: "enum",
    FieldDescriptor.TYPE_STRING: "string",
}


def options_data() -> Json:
    """The fields of each game's options message, from the proto descriptors, so
    that the lobby's form knows a flag from a number from a choice (and the
    choices): ``{"killTheKing": {"mode": {"kind": "enum", "values": [...]}}}``,
    keyed by the JSON names that CreateGame takes."""
    games: Json = {}
    for entry in game_pb2.GameOptions.DESCRIPTOR.oneofs_by_name["game"].fields:
        fields: Json = {}
        options = entry.message_type
        assert options is not None, entry.name
        for option in options.fields:
            kind = _FIELD_KINDS.get(option.type, "number")
            spec: Json = {"kind": "list" if _repeated(option) else kind, "name": option.name}
            if option.type == FieldDescriptor.TYPE_ENUM:
                values = option.enum_type.values if option.enum_type is not None else ()
                spec["values"] = [v.name for v in values if v.number != 0]
            fields[option.json_name] = spec
        games[entry.json_name] = {"game": entry.name, "fields": fields}
    return {"options": games}


def _repeated(field: FieldDescriptor) -> bool:
    return bool(field.is_repeated)


def _client_data(game: str) -> Json | None:
    """The game's own data, its ``words`` with the endings the service itself
    decides for every game (``outcomes.SHARED_ENDINGS``: one text source for
    them, the SDK's) where the game's words have none of their own."""
    data = game_client(game).web_data()
    if data is not None:
        words = data.setdefault("words", {})
        for lang, shared in _SHARED_WORDS.items():
            words[lang] = {**shared, **words.get(lang, {})}
    return data


_SHARED_WORDS = by_language(SHARED_ENDINGS)


GAME_DATA: Mapping[str, Callable[[], Json | None]] = {
    "options": options_data,
    **{game: functools.partial(_client_data, game) for game in game_names()},
}
"""The data files by name: every game's options, and each game's own data (by its
registered name; None: a game whose board needs nothing beyond its view)."""


def game_data(game: str) -> Json:
    """``game``'s data for the web client (KeyError for a game without any)."""
    made = GAME_DATA[game]()
    if made is None:
        raise KeyError(game)
    return made
