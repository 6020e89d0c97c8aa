"""The Game protocol every rules engine implements, its errors and its metadata.

An engine is a stateless object whose methods are pure functions over the
generated protobuf messages of its own .proto file (the proto is the model):

* ``setup(options, num_seats, seed)`` builds the initial state;
* ``to_act(state)`` says which seats must decide now (several seats at once is
  a simultaneous decision, collected hidden and revealed together);
* ``legal_moves(state, seat)`` enumerates every legal decision, sorted and
  deterministic;
* ``apply(state, seat, move)`` returns a *new* state and the events the move
  caused; the input state is never modified;
* ``view(state, seat)`` is the only way state leaves the service;
  ``redact_event(event, seat)`` is the same for events.

Randomness comes only from the RNG state carried inside the game state (see
``rng.py``); no engine reads the time.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Generic, Protocol, TypeVar

from google.protobuf.message import Message
from throneroom.v1 import common_pb2

Seat = int
"""A seat number, 0-based, in turn order."""

Viewer = int | None
"""A seat, or None for a spectator (who sees only public information)."""

OptionsT = TypeVar("OptionsT", bound=Message)
StateT = TypeVar("StateT", bound=Message)
MoveT = TypeVar("MoveT", bound=Message)
EventT = TypeVar("EventT", bound=Message)
ViewT_co = TypeVar("ViewT_co", bound=Message, covariant=True)

Outcome = common_pb2.Outcome


class GameError(Exception):
    """Base of every error an engine raises. ``reason`` is a stable machine code."""

    reason: str = "GAME_ERROR"

    def __init__(self, message: str, *, reason: str | None = None) -> None:
        super().__init__(message)
        if reason is not None:
            self.reason = reason

    @property
    def message(self) -> str:
        return str(self.args[0])


class InvalidOptionsError(GameError):
    """Options or seat count that the game does not accept (maps to INVALID_ARGUMENT)."""

    reason = "INVALID_OPTIONS"


class InvalidMoveError(GameError):
    """A malformed move: not a well-formed decision of this game at all, e.g. an
    empty oneof or an enum value out of range (maps to INVALID_ARGUMENT)."""

    reason = "INVALID_MOVE"


class IllegalMoveError(GameError):
    """A well-formed move the rules do not allow now (maps to FAILED_PRECONDITION).

    Reasons: ``ILLEGAL_MOVE`` (default), ``NOT_YOUR_TURN``, ``GAME_FINISHED``.
    """

    reason = "ILLEGAL_MOVE"


class NotYourTurnError(IllegalMoveError):
    reason = "NOT_YOUR_TURN"


class GameFinishedError(IllegalMoveError):
    reason = "GAME_FINISHED"


@dataclass(frozen=True)
class OptionSpec:
    """One option of a game, as listed to clients."""

    name: str
    description: str
    default: str


@dataclass(frozen=True)
class GameInfo:
    """What a game is, declared up front as data (as OpenSpiel's GameType)."""

    name: str
    """Registered name; also the oneof field name in the GameOptions/GameState/
    Move/Event/View envelopes of game.proto."""
    title: str
    description: str
    min_seats: int
    max_seats: int
    hidden_information: bool
    simultaneous_decisions: bool
    options: Sequence[OptionSpec] = field(default_factory=tuple)
    chance: bool = False
    """Whether the game draws from its seeded RNG (deals, shuffles, dice)."""


class Game(Protocol, Generic[OptionsT, StateT, MoveT, EventT, ViewT_co]):
    """A pure, deterministic rules engine (see the module docstring)."""

    info: GameInfo

    def default_options(self) -> OptionsT:
        """A fresh options message holding the defaults."""
        ...

    def validate_options(self, options: OptionsT, num_seats: int) -> None:
        """Raise InvalidOptionsError when the options or seat count are not playable."""
        ...

    def setup(self, options: OptionsT, num_seats: int, seed: int) -> StateT:
        """The initial state. ``seed`` is any integer in [0, 2**64)."""
        ...

    def max_decisions(self, options: OptionsT, num_seats: int) -> int:
        """An upper bound on the number of moves any playout can take (termination)."""
        ...

    def to_act(self, state: StateT) -> Sequence[Seat]:
        """Seats that must decide now, ascending; empty once the game is over."""
        ...

    def legal_moves(self, state: StateT, seat: Seat) -> Sequence[MoveT]:
        """Every legal decision of ``seat`` now, in a deterministic sorted order;
        empty when the seat is not to act or the game is over."""
        ...

    def apply(self, state: StateT, seat: Seat, move: MoveT) -> tuple[StateT, list[EventT]]:
        """Apply one decision. Returns the new state and the (unredacted) events.

        Never modifies ``state``. Raises InvalidMoveError for malformed moves and
        IllegalMoveError (or a subclass) for moves not in ``legal_moves``.
        """
        ...

    def outcome(self, state: StateT) -> Outcome | None:
        """The outcome once the game is over, else None."""
        ...

    def view(self, state: StateT, viewer: Viewer) -> ViewT_co:
        """What ``viewer`` may see. The only way state leaves the service."""
        ...

    def redact_event(self, event: EventT, viewer: Viewer) -> EventT | None:
        """The event as ``viewer`` may see it (a redacted copy, the event itself
        when it is public, or None when the viewer may not know it happened)."""
        ...

    def move_key(self, move: MoveT) -> tuple[int, ...]:
        """The sort key of ``legal_moves``: moves are listed in ascending key
        order and no two legal moves share a key."""
        ...

    def check_invariants(self, state: StateT) -> None:
        """Raise AssertionError if a conservation law or structural invariant of
        the state does not hold (cubes, cards, units...). Used by the
        conformance suite after every move; cheap enough to call often."""
        ...

    def randomize_hidden(self, state: StateT, viewer: Viewer, seed: int) -> StateT:
        """A state ``viewer`` cannot tell apart from ``state``: every fact hidden
        from the viewer (other seats' hands, deck order, face-down cards, the
        RNG...) redrawn at random from what is consistent with the viewer's
        knowledge, everything the viewer knows kept. ``view(result, viewer)``
        must equal ``view(state, viewer)``; the conformance suite uses this to
        prove views leak nothing (and bots may use it to sample worlds)."""
        ...


def check_seat(num_seats: int, seat: Seat) -> None:
    """Reject a seat number outside the game (a malformed request)."""
    if not 0 <= seat < num_seats:
        raise InvalidMoveError(f"seat {seat} does not exist in a {num_seats}-seat game")
