"""Which variants of each game the conformance suite plays, and how hard.

Every game of ``build_registry(include_fixtures=True)`` is played, as its
definition's ``testing`` declares (``kit.Testing``: variants, examples, deep
rate, event-only reveals...): there is no per-game table here. A game that
declares no variants is played with its default options at every seat count
from ``info.min_seats`` to ``info.max_seats``. Options are named by their field
name on the game's options message and looked up on its descriptor, so a
variant may name an option before the engine has it: such a variant is left out
of the playouts (``test_variant_table_is_playable`` reports it).
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Mapping
from dataclasses import dataclass, field

from google.protobuf.message import Message
from throneroom_server.games.kit import Variant
from throneroom_server.games.registry import AnyGame, build_registry

__all__ = ["Variant"]

OptionValue = bool | int | str


@dataclass(frozen=True)
class GameProfile:
    """How the suite plays one game (read from its definition's ``testing``)."""

    variants: tuple[Variant, ...]
    examples: int = 3
    """Hypothesis examples (random playouts) per variant."""
    deep_rate: float = 0.25
    """Chance that a step gets the expensive checks (every legal move applied,
    mutated moves rejected, every viewer's view and hidden-information checks).
    The first step and the final state always get them."""
    chance_at_setup: bool | None = None
    """Whether different seeds deal different initial states (not counting the
    RNG itself); None means: if the game declares hidden information."""
    event_only_reveals: frozenset[str] = field(default_factory=frozenset)
    """Event kinds (the set field of the event's oneof) that legitimately show a
    viewer something its view does not keep afterwards (e.g. a hand shown and
    then discarded). The event leak check (9d) leaves them out; see
    docs/conformance.md. Keep this list short: each entry weakens the check."""
    unordered_event_fields: frozenset[str] = field(default_factory=frozenset)
    """Repeated event fields, as "kind.field" paths, whose order may show what the
    view does not keep (e.g. cards listed in the order they were drawn): 9d
    compares them as multisets. Narrower than event_only_reveals."""


def _declared(game: AnyGame) -> GameProfile:
    testing = game.testing
    return GameProfile(
        variants=testing.variants,
        examples=testing.examples,
        deep_rate=testing.deep_rate,
        chance_at_setup=testing.chance_at_setup,
        event_only_reveals=testing.event_only_reveals,
        unordered_event_fields=testing.unordered_event_fields,
    )


PROFILES: Mapping[str, GameProfile] = {
    name: _declared(game)
    for name, game in build_registry(include_fixtures=True).items()
    if game.testing.variants
}
"""The games that declare their variants, by name (derived from the registry)."""

EXAMPLES_ENV = "THRONEROOM_CONFORMANCE_EXAMPLES"
"""Set to a number to play that many examples per variant instead (e.g. a long nightly run)."""


def profile_for(game: AnyGame) -> GameProfile:
    profile = PROFILES.get(game.info.name)
    if profile is None:
        seats = range(game.info.min_seats, game.info.max_seats + 1)
        profile = GameProfile(variants=tuple(Variant(n) for n in seats))
    override = os.environ.get(EXAMPLES_ENV)
    if override:
        profile = dataclasses.replace(profile, examples=int(override))
    return profile


def build_options(game: AnyGame, variant: Variant) -> Message | None:
    """The game's default options with the variant's options set; None when the
    options message has no field of one of the names."""
    options: Message = game.default_options()
    fields = options.DESCRIPTOR.fields_by_name
    for name, value in variant.options:
        if name not in fields:
            return None
        setattr(options, name, value)
    return options


def variant_problem(game: AnyGame, variant: Variant) -> str | None:
    """Why the game cannot play this variant of the table, or None if it can."""
    info = game.info
    if not info.min_seats <= variant.seats <= info.max_seats:
        return (
            f"{info.name} {variant.label}: {variant.seats} seats is outside the declared "
            f"{info.min_seats}..{info.max_seats}"
        )
    if build_options(game, variant) is None:
        names = ", ".join(name for name, _ in variant.options)
        options_type = type(game.default_options()).__name__
        return f"{info.name} {variant.label}: {options_type} has no field named {names}"
    return None


@dataclass(frozen=True)
class Case:
    """One (game, variant) the suite plays."""

    name: str
    game: AnyGame
    variant: Variant
    options: Message
    profile: GameProfile

    @property
    def id(self) -> str:
        return f"{self.name}-{self.variant.label}"


def registry() -> Mapping[str, AnyGame]:
    return build_registry(include_fixtures=True)


def conformance_cases() -> list[Case]:
    """Every playable (game, variant) of every registered game, in registry order."""
    cases = []
    for name, game in registry().items():
        profile = profile_for(game)
        for variant in profile.variants:
            options = build_options(game, variant)
            if options is None or variant_problem(game, variant) is not None:
                continue
            cases.append(Case(name, game, variant, options, profile))
    return cases


def first_case(name: str) -> Case:
    """The game's first playable variant, or its fewest seats with default options."""
    for case in conformance_cases():
        if case.name == name:
            return case
    game = registry()[name]
    variant = Variant(game.info.min_seats)
    return Case(name, game, variant, game.default_options(), profile_for(game))
