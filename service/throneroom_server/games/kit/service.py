"""What the service sees of a game: envelopes in, envelopes out.

The app layer holds a ``Mapping[str, ServiceGame]`` (``registry.service_games``)
and works only with the game.proto envelopes (``GameOptions``, ``GameState``,
``Move``, ``Event``, ``View``): no ``getattr(envelope, name)``, no ``Any``.
Each call unwraps with the game's typed :class:`~throneroom.games.messages.GameMessages`,
calls the engine and wraps the result. ``apply`` also keeps the decision clock
(see ``decisions.py``) and ``earliest_version`` answers the version question
of simultaneous decisions.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Generic, Protocol, TypeVar, cast

from google.protobuf.message import Message
from throneroom.games.messages import GameMessages, WrongGameError, varint
from throneroom.v1 import game_pb2, service_pb2

from throneroom_server.games.core import (
    Game,
    GameInfo,
    InvalidMoveError,
    InvalidOptionsError,
    Outcome,
    Seat,
    Viewer,
)
from throneroom_server.games.kit.decisions import advance_clock, earliest_version, start_clock
from throneroom_server.games.kit.definition import Testing
from throneroom_server.games.kit.engine import Engine
from throneroom_server.games.kit.keyed import KeyedMoves
from throneroom_server.games.kit.messages import Key

OptionsT = TypeVar("OptionsT", bound=Message)
StateT = TypeVar("StateT", bound=Message)
MoveT = TypeVar("MoveT", bound=Message)
EventT = TypeVar("EventT", bound=Message)
ViewT = TypeVar("ViewT", bound=Message)


class KitGame(Game[OptionsT, StateT, MoveT, EventT, ViewT], Protocol):
    """What the registry holds for every game: the Game protocol of core.py plus
    what the kit derives (messages, test declarations, simultaneous decisions).
    Implemented by ``kit.Engine`` (defined games) and ``kit.LegacyEngine`` (games
    still written against the bare Game protocol)."""

    @property
    def name(self) -> str: ...

    @property
    def messages(self) -> GameMessages[OptionsT, StateT, MoveT, EventT, ViewT]: ...

    @property
    def testing(self) -> Testing: ...

    @property
    def fixture(self) -> bool: ...

    def setup_events(self, state: StateT) -> list[EventT]: ...

    def decision_key(self, state: StateT) -> tuple[str, int] | None: ...

    @property
    def seat_view(self) -> Callable[[StateT, Seat, ViewT], None] | None:
        """Turns a spectator's view into a seat's, in place (None: views are
        built whole); see ``kit.fast.Fast.seat_view``."""
        ...


class ServiceGame(Protocol):
    """One game as the service uses it, over envelopes only."""

    @property
    def name(self) -> str: ...

    @property
    def info(self) -> GameInfo: ...

    def game_type(self) -> service_pb2.GameType:
        """The catalogue entry (ListGameTypes)."""
        ...

    def validate_options(self, options: game_pb2.GameOptions, num_seats: int) -> None:
        """InvalidOptionsError for another game's options, bad values or seat count."""
        ...

    def setup(
        self, options: game_pb2.GameOptions, num_seats: int, seed: int
    ) -> game_pb2.GameState: ...

    def setup_events(self, state: game_pb2.GameState) -> list[game_pb2.Event]: ...

    def to_act(self, state: game_pb2.GameState) -> list[Seat]: ...

    def outcome(self, state: game_pb2.GameState) -> Outcome | None: ...

    def legal_moves(self, state: game_pb2.GameState, seat: Seat) -> list[game_pb2.Move]: ...

    def encoded_legal_moves(
        self, state: game_pb2.GameState, seat: Seat, field_number: int
    ) -> bytes:
        """``legal_moves`` as the serialized entries of a repeated ``Move``
        field numbered ``field_number``: ``message.MergeFromString`` adds them
        to a message without building and copying each envelope."""
        ...

    def apply(
        self, state: game_pb2.GameState, seat: Seat, move: game_pb2.Move
    ) -> tuple[game_pb2.GameState, list[game_pb2.Event]]:
        """The checked apply; InvalidMoveError for an empty move or another game's."""
        ...

    def view(self, state: game_pb2.GameState, viewer: Viewer) -> game_pb2.View: ...

    def view_into(self, state: game_pb2.GameState, viewer: Viewer, into: game_pb2.View) -> None:
        """``view(state, viewer)`` written into ``into``, an empty envelope inside
        a message being built (no envelope made and copied into its parent)."""
        ...

    @property
    def shares_views(self) -> bool:
        """Whether a seat's view is the spectator's plus what ``add_seat_view``
        adds (else each viewer's view is built whole)."""
        ...

    def add_seat_view(self, state: game_pb2.GameState, seat: Seat, view: game_pb2.View) -> None:
        """Turn ``view``, the spectator's view of ``state`` (``view(state, None)``),
        into ``seat``'s, in place (only when ``shares_views``): the part every
        viewer shares is built once."""
        ...

    @property
    def public_events(self) -> bool:
        """Whether ``redact_events`` hands every viewer every event as it is."""
        ...

    def redact_events(
        self, events: Sequence[game_pb2.Event], viewer: Viewer
    ) -> list[game_pb2.Event]: ...

    def earliest_version(self, state: game_pb2.GameState, seat: Seat, current_version: int) -> int:
        """The oldest expected_version to accept for ``seat``'s move at ``current_version``."""
        ...


class EnvelopeGame(Generic[OptionsT, StateT, MoveT, EventT, ViewT]):
    """A KitGame behind the envelopes (implements ServiceGame)."""

    def __init__(self, game: KitGame[OptionsT, StateT, MoveT, EventT, ViewT]) -> None:
        self.game = game
        self.messages = game.messages
        self._name = game.messages.name
        self._encoded: dict[int, dict[Key, bytes]] = {}
        """Field number -> move key -> the move as an entry of that field (tag,
        length, envelope)."""
        self._seat_view = game.seat_view
        self._no_decisions = (
            isinstance(game, Engine) and not game.definition.phases.has_simultaneous
        )
        """``decision_key`` is None in every state (no phase is simultaneous)."""
        self._public_events = (
            isinstance(game, Engine)
            and type(game).redact_event is Engine.redact_event
            and game.definition.shows_every_event
        )
        """Every viewer sees every event as it is."""
        self._apply_into: Callable[[StateT, Seat, MoveT, StateT], list[EventT]] | None = (
            game.apply_into
            if isinstance(game, Engine)
            and type(game).apply is Engine.apply
            and type(game).apply_into is Engine.apply_into
            else None
        )
        """The engine's ``apply_into`` when it and ``apply`` are the kit's own
        (they play the same moves; an engine that overrides either is asked
        its ``apply``)."""
        self._outcome: Callable[[StateT], Outcome | None] = (
            game.definition.outcome_of
            if isinstance(game, Engine) and type(game).outcome is Engine.outcome
            else game.outcome
        )
        """The game's ``outcome`` (a kit engine's own: its definition's, one call less)."""
        self._view: Callable[[StateT, Viewer], ViewT] = (
            game.definition.view
            if isinstance(game, Engine) and type(game).view is Engine.view
            else game.view
        )
        """The game's ``view`` (a kit engine's own: its definition's, one call less)."""

    @property
    def name(self) -> str:
        return self._name

    def _state(self, envelope: game_pb2.GameState) -> StateT:
        """``messages.unwrap_state`` in one call (every use of a state goes through it)."""
        name = self._name
        if envelope.WhichOneof("game") != name:
            raise WrongGameError(envelope, name)
        state: StateT = getattr(envelope, name)
        return state

    @property
    def info(self) -> GameInfo:
        return self.game.info

    def game_type(self) -> service_pb2.GameType:
        info = self.info
        return service_pb2.GameType(
            name=self.name,
            title=info.title,
            description=info.description,
            min_seats=info.min_seats,
            max_seats=info.max_seats,
            default_options=self.messages.wrap_options(self.game.default_options()),
            options=[
                service_pb2.OptionInfo(
                    name=o.name, description=o.description, default_value=o.default
                )
                for o in info.options
            ],
            hidden_information=info.hidden_information,
            simultaneous_decisions=info.simultaneous_decisions,
        )

    def _options(self, options: game_pb2.GameOptions) -> OptionsT:
        try:
            return self.messages.unwrap_options(options)
        except WrongGameError as error:
            raise InvalidOptionsError(str(error)) from None

    def validate_options(self, options: game_pb2.GameOptions, num_seats: int) -> None:
        self.game.validate_options(self._options(options), num_seats)

    def setup(self, options: game_pb2.GameOptions, num_seats: int, seed: int) -> game_pb2.GameState:
        state = self.game.setup(self._options(options), num_seats, seed)
        envelope = self.messages.wrap_state(state)
        envelope.clock.CopyFrom(start_clock(num_seats))
        return envelope

    def setup_events(self, state: game_pb2.GameState) -> list[game_pb2.Event]:
        inner = self._state(state)
        return [self.messages.wrap_event(e) for e in self.game.setup_events(inner)]

    def to_act(self, state: game_pb2.GameState) -> list[Seat]:
        return list(self.game.to_act(self._state(state)))

    def outcome(self, state: game_pb2.GameState) -> Outcome | None:
        return self._outcome(self._state(state))

    def legal_moves(self, state: game_pb2.GameState, seat: Seat) -> list[game_pb2.Move]:
        inner = self._state(state)
        return [self.messages.wrap_move(m) for m in self.game.legal_moves(inner, seat)]

    def encoded_legal_moves(
        self, state: game_pb2.GameState, seat: Seat, field_number: int
    ) -> bytes:
        """Each move of a keyed enumeration (``KeyedMoves``) is serialized
        once per process: a key always stands for the same move (rules data,
        never game state), and at most ``ENCODED_MOVES_LIMIT`` are kept per
        field number."""
        moves = self.game.legal_moves(self._state(state), seat)
        if not isinstance(moves, KeyedMoves):
            tag = varint(field_number << 3 | 2)  # length-delimited
            return b"".join(tag + _framed(self.messages.wrap_move(m)) for m in moves)
        encoded = self._encoded.get(field_number)
        if encoded is None:
            encoded = self._encoded[field_number] = {}
        keys = moves.keys
        parts = list(map(encoded.get, keys))
        try:
            return b"".join(parts)  # type: ignore[arg-type]  # a TypeError names a None
        except TypeError:  # a move not encoded yet
            tag = varint(field_number << 3 | 2)  # length-delimited
            for i, key in enumerate(keys):
                if parts[i] is None:
                    framed = tag + _framed(self.messages.wrap_move(moves.from_key(key)))
                    if len(encoded) < ENCODED_MOVES_LIMIT:
                        encoded[key] = framed
                    parts[i] = framed
        return b"".join(cast(list[bytes], parts))

    def apply(
        self, state: game_pb2.GameState, seat: Seat, move: game_pb2.Move
    ) -> tuple[game_pb2.GameState, list[game_pb2.Event]]:
        """A kit engine's own checked apply plays into the new envelope's entry
        (``Engine.apply_into``: the state copied once); any other ``apply``
        (a legacy game, an engine that overrides it) returns its state, which
        is copied into the envelope."""
        try:
            inner_move = self.messages.unwrap_move(move)
        except WrongGameError as error:
            raise InvalidMoveError(str(error)) from None
        name = self._name
        before = self._state(state)
        game = self.game
        envelope = game_pb2.GameState()
        apply_into = self._apply_into
        if apply_into is not None:
            after: StateT = getattr(envelope, name)
            events = apply_into(before, seat, inner_move, after)
        else:
            after, events = game.apply(before, seat, inner_move)
            getattr(envelope, name).CopyFrom(after)
        num_seats = len(state.clock.opened_at) or _seats_hint(before)
        if self._no_decisions:
            # No decision stays open across a move: every seat's opens now
            # (what advance_clock gives without a decision, asked of nobody).
            moves = state.clock.moves + 1
            clock = envelope.clock
            clock.moves = moves
            clock.opened_at.extend([moves] * num_seats)
        else:
            envelope.clock.CopyFrom(
                advance_clock(
                    state.clock,
                    num_seats=num_seats,
                    mover=seat,
                    acting_before=game.to_act(before),
                    acting_after=game.to_act(after),
                    decision_before=game.decision_key(before),
                    decision_after=game.decision_key(after),
                )
            )
        wrap_event = self.messages.wrap_event
        return envelope, [wrap_event(e) for e in events]

    def view(self, state: game_pb2.GameState, viewer: Viewer) -> game_pb2.View:
        return self.messages.wrap_view(self.game.view(self._state(state), viewer))

    def view_into(self, state: game_pb2.GameState, viewer: Viewer, into: game_pb2.View) -> None:
        getattr(into, self._name).CopyFrom(self._view(self._state(state), viewer))

    @property
    def shares_views(self) -> bool:
        return self._seat_view is not None

    @property
    def public_events(self) -> bool:
        return self._public_events

    def add_seat_view(self, state: game_pb2.GameState, seat: Seat, view: game_pb2.View) -> None:
        seat_view = self._seat_view
        assert seat_view is not None, "only for a game that shares_views"
        seat_view(self._state(state), seat, self.messages.unwrap_view(view))

    def redact_events(
        self, events: Sequence[game_pb2.Event], viewer: Viewer
    ) -> list[game_pb2.Event]:
        """An event the game shows as it is (``redact_event`` returns the event
        itself) is handed on in its own envelope, not wrapped again."""
        out = []
        name, redact = self._name, self.game.redact_event
        for event in events:
            if event.WhichOneof("game") != name:
                raise WrongGameError(event, name)
            inner = getattr(event, name)
            shown = redact(inner, viewer)
            if shown is inner:
                out.append(event)
            elif shown is not None:
                out.append(self.messages.wrap_event(shown))
        return out

    def earliest_version(self, state: game_pb2.GameState, seat: Seat, current_version: int) -> int:
        inner = self._state(state)
        return earliest_version(
            state.clock,
            seat=seat,
            acting=self.game.to_act(inner),
            decision=self.game.decision_key(inner),
            current_version=current_version,
        )


ENCODED_MOVES_LIMIT = 100_000
"""Serialized moves kept per game type (a game's distinct moves are far fewer:
King Is Dead has a few thousand)."""


def _framed(move: game_pb2.Move) -> bytes:
    data = move.SerializeToString(deterministic=True)
    return varint(len(data)) + data


def _seats_hint(state: Message) -> int:
    """The seat count of a state stored before the clock existed (every known game
    state has ``num_seats``); 0 if unknown, which makes the clock strict."""
    fields = state.DESCRIPTOR.fields_by_name
    return int(getattr(state, "num_seats")) if "num_seats" in fields else 0  # noqa: B009
