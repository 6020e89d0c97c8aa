"""The registry of games the service plays, by registered name.

Games are registered explicitly here (no plugin discovery): adding a game is
one line. The fixture game ``nim`` is registered only when asked for
(``include_fixtures=True`` or THRONEROOM_FIXTURE_GAMES=1), for tests.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from throneroom_server.games.core import Game

AnyGame = Game[Any, Any, Any, Any, Any]


def _real_games() -> list[AnyGame]:
    from throneroom_server.games.king_is_dead import KingIsDead  # noqa: PLC0415
    from throneroom_server.games.kings_life import KingsLife  # noqa: PLC0415

    return [KingIsDead(), KingsLife()]


def _fixture_games() -> list[AnyGame]:
    from throneroom_server.games.nim import Nim  # noqa: PLC0415

    return [Nim()]


def build_registry(*, include_fixtures: bool = False) -> Mapping[str, AnyGame]:
    """Name -> engine for every game this server plays."""
    games = _real_games() + (_fixture_games() if include_fixtures else [])
    return {g.info.name: g for g in games}


def real_game_names() -> list[str]:
    return [g.info.name for g in _real_games()]
