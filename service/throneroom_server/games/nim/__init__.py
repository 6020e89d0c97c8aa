"""Nim: the framework's fixture game (proto/throneroom/v1/nim.proto) and the
worked example of docs/adding-a-game.md.

Small on purpose, yet it has what the framework must handle: turns, a chance
element (secrets dealt from the RNG), hidden information and an outcome. Its
rules are plain functions (:mod:`.rules`), declared on the kit as ``NIM``
(:mod:`.definition`), the object the engine runs; its web board is
``board.js``, served as ``/web/js/boards/nim.js``.
"""

from throneroom_server.games.nim.definition import NIM, Nim
from throneroom_server.games.nim.rules import DEFAULT_MAX_TAKE, DEFAULT_PILE, SECRET_RANGE

__all__ = ["DEFAULT_MAX_TAKE", "DEFAULT_PILE", "NIM", "SECRET_RANGE", "Nim"]
