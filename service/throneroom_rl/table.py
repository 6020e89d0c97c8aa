"""One game of one kind laid out for learning agents: its engine, action codec,
view tensor, teams and rewards (what both adapters share).

A :class:`Table` is a registered game (``throneroom_server.games.registry``)
with a seat count and options (named as a tournament file names them:
``{"mordred": True}``, ``{"mode": "KILL_THE_KING_MODE_GIGA"}`` or its number).
It is found by the game's registered name, never by a list of games: every
registered game that declares an action codec and a view tensor
(``throneroom.games.protocol.GameClient.actions`` / ``observations``) is an
environment.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from google.protobuf.message import Message
from throneroom.envelopes import set_option
from throneroom.games.codec import ActionCodec
from throneroom.games.protocol import game_client
from throneroom.games.tensor import ViewTensor
from throneroom_server.games.kit import Engine, Variant
from throneroom_server.games.registry import AnyGame, build_registry

__all__ = ["OptionValue", "Table", "rl_game_names", "table", "variants"]

OptionValue = bool | int | str


@functools.cache
def _registry() -> Mapping[str, AnyGame]:
    return build_registry()


def rl_game_names() -> list[str]:
    """Every registered game (fixtures left out) with a codec and a view tensor."""
    names = []
    for name, game in _registry().items():
        client = game_client(name)
        seats = game.info.min_seats
        if client.actions(seats, {}) is not None and client.observations(seats, {}) is not None:
            names.append(name)
    return names


def variants(name: str) -> tuple[Variant, ...]:
    """The game's variants as its definition declares them for testing (every
    mode and seat count), or every seat count with the default options."""
    game = _registry()[name]
    declared = game.testing.variants
    if declared:
        return declared
    return tuple(Variant(n) for n in range(game.info.min_seats, game.info.max_seats + 1))


@dataclass(frozen=True)
class Table:
    """A game of ``name`` for ``seats`` seats with ``options`` (see the module doc)."""

    name: str
    seats: int
    options: tuple[tuple[str, OptionValue], ...]
    game: AnyGame
    engine: Engine[Any, Any, Any, Any, Any]
    """The same game as the kit's engine (its setup and apply take a chance picker)."""
    options_message: Message
    codec: ActionCodec[Any]
    tensor: ViewTensor
    teams: tuple[tuple[int, ...], ...]

    def __deepcopy__(self, memo: dict[int, Any]) -> Table:
        """The table itself: it is never changed (OpenSpiel's states copy theirs)."""
        return self

    def __reduce__(self) -> tuple[Any, tuple[str, int, dict[str, OptionValue]]]:
        """Pickled as its key: unpickling finds (or builds) the same table."""
        return table, (self.name, self.seats, dict(self.options))

    @property
    def num_actions(self) -> int:
        return self.codec.size

    @property
    def max_decisions(self) -> int:
        return int(self.game.max_decisions(self.options_message, self.seats))

    def setup(self, seed: int, chance: Any = None) -> Message:
        state: Message = self.engine.setup(self.options_message, self.seats, seed, chance=chance)
        return state

    def to_act(self, state: Message) -> Sequence[int]:
        acting: Sequence[int] = self.game.to_act(state)
        return acting

    def legal(self, state: Message, seat: int) -> dict[int, Message]:
        """The seat's legal moves by action number, in the engine's order."""
        moves = self.game.legal_moves(state, seat)
        return dict(zip(self.codec.mask(moves), moves, strict=True))

    def rewards(self, state: Message) -> list[float]:
        """Each seat's result once the game is over: 1 for a seat whose team is
        among the winners, -1 for the others, 0 for every seat when nobody won
        (a draw); all zeros before the end."""
        outcome = self.game.outcome(state)
        if outcome is None or not outcome.winners:
            return [0.0] * self.seats
        winners = set(outcome.winners)
        result = [-1.0] * self.seats
        for team in self.teams:
            if winners.intersection(team):
                for seat in team:
                    result[seat] = 1.0
        return result

    def view(self, state: Message, viewer: int | None) -> Message:
        view: Message = self.game.view(state, viewer)
        return view


def _options_message(game: AnyGame, options: Mapping[str, OptionValue]) -> Message:
    message: Message = game.default_options()
    for option, value in options.items():
        set_option(message, option, value)
    return message


@functools.cache
def _table(name: str, seats: int, options: tuple[tuple[str, OptionValue], ...]) -> Table:
    registry = _registry()
    if name not in registry:
        raise ValueError(f"no game {name[:40]!r} (known: {', '.join(rl_game_names())})")
    game = registry[name]
    info = game.info
    if not info.min_seats <= seats <= info.max_seats:
        raise ValueError(f"{info.title} is played by {info.min_seats} to {info.max_seats} seats")
    mapping = dict(options)
    message = _options_message(game, mapping)
    game.validate_options(message, seats)
    client = game_client(name)
    codec = client.actions(seats, mapping)
    tensor = client.observations(seats, mapping)
    if codec is None or tensor is None:
        raise ValueError(f"{info.title} declares no action codec or view tensor")
    teams = client.seat_teams(seats, mapping)
    if not isinstance(game, Engine):
        raise ValueError(f"{info.title} is not a kit engine: its chance steps are not listable")
    return Table(name, seats, options, game, game, message, codec, tensor, teams)


def table(name: str, seats: int | None = None, options: Mapping[str, Any] | None = None) -> Table:
    """The table of game ``name`` (default: its fewest seats and default options);
    cached: the codec of a large game takes a moment to build."""
    game = _registry().get(name)
    count = seats if seats is not None else (game.info.min_seats if game is not None else 0)
    return _table(name, count, tuple(sorted((options or {}).items())))


def iter_tables() -> Iterator[Table]:
    """Every variant of every game (for tests and benchmarks)."""
    for name in rl_game_names():
        for variant in variants(name):
            yield table(name, variant.seats, dict(variant.options))
