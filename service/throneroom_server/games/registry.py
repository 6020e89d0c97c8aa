"""The registry of games the service plays: one entry per game.

Games are registered explicitly here, one line each in ``ENGINES`` (no plugin
discovery). Everything else a
game needs to be known (the service's catalogue and envelopes, the conformance
suite's variants, the golden files) is derived from the registered engine's
definition. Fixture games (``definition.fixture``, e.g. ``nim``) are included
only when asked for (``include_fixtures=True`` or THRONEROOM_FIXTURE_GAMES=1).

King Is Dead, King's Life and Nim are kit games: each entry is the game's
engine class. ``serve`` still wraps a bare Game-protocol object (a test
double) through the kit's adapter.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import Any

from throneroom_server.games.core import Game
from throneroom_server.games.kit import EnvelopeGame, LegacyEngine
from throneroom_server.games.kit.service import KitGame, ServiceGame

AnyGame = KitGame[Any, Any, Any, Any, Any]
"""What the registry holds for each game (the Game protocol and the kit's additions)."""


ENGINES: tuple[str, ...] = (
    "throneroom_server.games.king_is_dead:KingIsDead",
    "throneroom_server.games.kill_the_king.engine:KillTheKing",
    "throneroom_server.games.kings_life:KingsLife",
    "throneroom_server.games.nim:Nim",
)
"""Every game, in catalogue order: ONE line per game, ``module:EngineClass``
(imported when the registry is first built, so importing this module is cheap)."""


def _registered() -> list[AnyGame]:
    """Every game's engine, in catalogue order."""
    engines: list[AnyGame] = []
    for entry in ENGINES:
        module, _, name = entry.partition(":")
        engines.append(getattr(importlib.import_module(module), name)())
    return engines


def build_registry(*, include_fixtures: bool = False) -> Mapping[str, AnyGame]:
    """Name -> engine for every game this server plays."""
    games = [g for g in _registered() if include_fixtures or not g.fixture]
    registry = {g.name: g for g in games}
    if len(registry) != len(games):
        raise ValueError("two registered games share a name")
    return registry


def real_game_names() -> list[str]:
    return [g.name for g in _registered() if not g.fixture]


def service_games(*, include_fixtures: bool = False) -> Mapping[str, ServiceGame]:
    """Name -> the game as the service uses it (over the game.proto envelopes)."""
    return {
        name: EnvelopeGame(game)
        for name, game in build_registry(include_fixtures=include_fixtures).items()
    }


def serve(game: Game[Any, Any, Any, Any, Any]) -> ServiceGame:
    """Any engine as the service uses it: a registered one, or a bare Game-protocol
    object (a test double) through the adapter."""
    if isinstance(game, LegacyEngine) or _is_kit_engine(game):
        return EnvelopeGame(game)  # type: ignore[arg-type]  # checked just above
    return EnvelopeGame(LegacyEngine.wrap(game))


def _is_kit_engine(game: object) -> bool:
    from throneroom_server.games.kit import Engine  # noqa: PLC0415

    return isinstance(game, Engine)
