"""The registry of games the service plays: one entry per game.

Games are registered explicitly here (no plugin discovery). Everything else a
game needs to be known (the service's catalogue and envelopes, the conformance
suite's variants, the golden files) is derived from the registered engine's
definition. Fixture games (``definition.fixture``, e.g. ``nim``) are included
only when asked for (``include_fixtures=True`` or THRONEROOM_FIXTURE_GAMES=1).

King Is Dead and King's Life are still written against the bare Game protocol
of core.py: they are registered through the kit's adapter (``legacy_game``)
with their test declarations below, until each is ported onto a
GameDefinition (then its entry becomes just its engine class).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from throneroom_server.games.core import Game
from throneroom_server.games.kit import EnvelopeGame, Golden, LegacyEngine, Testing, Variant
from throneroom_server.games.kit.service import KitGame, ServiceGame

AnyGame = KitGame[Any, Any, Any, Any, Any]
"""What the registry holds for each game (the Game protocol and the kit's additions)."""


def _registered() -> list[AnyGame]:
    """Every game, in catalogue order: ONE entry per game."""
    from throneroom_server.games.kill_the_king.engine import KillTheKing  # noqa: PLC0415
    from throneroom_server.games.nim import Nim  # noqa: PLC0415

    return [*_legacy_games(), KillTheKing(), Nim()]


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


# --- Games not yet ported onto the kit ----------------------------------------------------


def _legacy_games() -> list[AnyGame]:
    from throneroom.v1 import kings_life_pb2  # noqa: PLC0415

    from throneroom_server.games.king_is_dead import KingIsDead  # noqa: PLC0415
    from throneroom_server.games.kings_life import KingsLife  # noqa: PLC0415
    from throneroom_server.games.kit import legacy_game  # noqa: PLC0415

    king_is_dead = legacy_game(
        KingIsDead,
        testing=Testing(
            variants=tuple(
                Variant(seats, (("mordred", True),) if mordred else ())
                for seats in (2, 3, 4)
                for mordred in (False, True)
            ),
            examples=8,
            deep_rate=0.3,
            golden=(
                Golden(Variant(2), seed=1),
                Golden(Variant(3), seed=2),
                Golden(Variant(4), seed=3),
                Golden(Variant(4, (("mordred", True),)), seed=4),
            ),
        ),
    )
    phase = kings_life_pb2.KingsLifeState
    simultaneous_phases = {
        phase.PHASE_MULLIGAN: "mulligan",
        phase.PHASE_INITIAL_ROUND: "initial_round",
        phase.PHASE_QUEEN_WINDOW: "queen_window",
    }

    def kings_life_decision(state: kings_life_pb2.KingsLifeState) -> tuple[str, int] | None:
        name = simultaneous_phases.get(state.phase)
        return (name, 0) if name is not None else None

    kings_life = legacy_game(
        KingsLife,
        testing=Testing(
            variants=tuple(Variant(seats) for seats in range(4, 9)),
            examples=4,
            deep_rate=0.15,
            # The drawer sees its new cards in draw order; its view keeps only the hand.
            unordered_event_fields=frozenset({"cards_drawn.cards"}),
            golden=(Golden(Variant(4), seed=5), Golden(Variant(8), seed=6)),
        ),
        decisions=kings_life_decision,
    )
    return [king_is_dead(), kings_life()]
