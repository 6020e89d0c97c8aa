"""The engine of a defined game: the Game protocol, derived from its definition.

A game's engine is one line::

    class Nim(Engine[NimOptions, NimState, NimMove, NimEvent, NimView]):
        definition = NIM

``Engine`` supplies everything the definition implies: option checks, ``to_act``
from the phase table, ``legal_moves`` as the generators' moves in key order,
and the one checked ``apply`` (a move is legal exactly when the enumeration
produces it). Subclassing and overriding a method works as for any class (the
conformance suite plants defects that way).
"""

from __future__ import annotations

import heapq
import itertools
from collections.abc import Callable, Iterable, Sequence
from functools import partial
from typing import Generic, NoReturn, TypeVar

from google.protobuf import text_format
from google.protobuf.message import Message
from throneroom.games.messages import GameMessages

from throneroom_server.games.core import (
    GameFinishedError,
    GameInfo,
    IllegalMoveError,
    InvalidMoveError,
    InvalidOptionsError,
    NotYourTurnError,
    Outcome,
    Seat,
    Viewer,
    check_seat,
)
from throneroom_server.games.kit.chance import Picker, with_picker
from throneroom_server.games.kit.definition import GameDefinition, Testing
from throneroom_server.games.kit.fast import bound
from throneroom_server.games.kit.messages import Key
from throneroom_server.games.kit.phases import MoveKind, Phase, PhaseTransitionError

OptionsT = TypeVar("OptionsT", bound=Message)
StateT = TypeVar("StateT", bound=Message)
MoveT = TypeVar("MoveT", bound=Message)
EventT = TypeVar("EventT", bound=Message)
ViewT = TypeVar("ViewT", bound=Message)

DecisionKey = tuple[str, int]
"""Which simultaneous decision a state is in: (phase name, epoch)."""


def one_line(message: Message) -> str:
    return text_format.MessageToString(message, as_one_line=True) or "(empty)"


class Engine(Generic[OptionsT, StateT, MoveT, EventT, ViewT]):
    """The rules engine of one game definition (see the module docstring)."""

    definition: GameDefinition[OptionsT, StateT, MoveT, EventT, ViewT]
    info: GameInfo

    def __init_subclass__(cls, **kwargs: object) -> None:
        super().__init_subclass__(**kwargs)
        definition = cls.__dict__.get("definition")
        if isinstance(definition, GameDefinition) and "info" not in cls.__dict__:
            cls.info = definition.info

    memo: object
    """The memo this engine object owns (``definition.fast.memo``; None for a
    definition without one): it only saves work."""
    running: GameDefinition[OptionsT, StateT, MoveT, EventT, ViewT]
    """The definition as this engine runs it: ``definition`` with its
    ``memoized`` functions bound to ``memo`` (kit.fast.bound); the definition
    itself when it reads no memo. Plain instance attributes, set when the
    engine is built and again when ``definition`` or ``memo`` is set (no
    descriptor: the hot paths read them at every call)."""

    def __init__(self, memo: object | None = None) -> None:
        """``memo``: the engine's memo (``definition.fast.memo``), a fresh one by
        default; a test may hand one in (e.g. one that verifies itself)."""
        if memo is None:
            factory = self.definition.fast.memo
            memo = factory() if factory is not None else None
        self.memo = memo

    def __setattr__(self, name: str, value: object) -> None:
        object.__setattr__(self, name, value)
        # hasattr, not ``self.__dict__``: reading the instance's ``__dict__`` makes
        # CPython 3.11 look up every attribute of the object the slow way.
        if name in ("definition", "memo") and hasattr(self, "memo"):
            object.__setattr__(self, "running", bound(self.definition, self.memo))

    # -- what the game is ---------------------------------------------------------------

    @property
    def name(self) -> str:
        return self.info.name

    @property
    def messages(self) -> GameMessages[OptionsT, StateT, MoveT, EventT, ViewT]:
        return self.running.messages

    @property
    def testing(self) -> Testing:
        return self.running.testing

    @property
    def fixture(self) -> bool:
        return self.running.fixture

    # -- options and setup ------------------------------------------------------------------

    def default_options(self) -> OptionsT:
        options = self.messages.options()
        options.CopyFrom(self.running.default_options)
        return options

    def validate_options(self, options: OptionsT, num_seats: int) -> None:
        d = self.running
        if not d.min_seats <= num_seats <= d.max_seats:
            raise InvalidOptionsError(
                f"{d.title} is played by {d.min_seats} to {d.max_seats} seats, not {num_seats}"
            )
        unknown = unknown_enum_value(options)
        if unknown is not None:
            raise InvalidOptionsError(unknown)
        for option in d.options:
            value = getattr(options, option.name)
            if option.minimum is not None and value < option.minimum:
                raise InvalidOptionsError(
                    f"option {option.name} is at least {option.minimum}, not {value}"
                )
            if option.maximum is not None and value > option.maximum:
                raise InvalidOptionsError(
                    f"option {option.name} is at most {option.maximum}, not {value}"
                )
        if d.check_options is not None:
            d.check_options(options, num_seats)

    def setup(
        self, options: OptionsT, num_seats: int, seed: int, chance: Picker | None = None
    ) -> StateT:
        """The initial state; ``chance`` (kit.chance) chooses the setup's chance
        steps (deals, shuffles, initiative dice), the seeded RNG by default."""
        self.validate_options(options, num_seats)
        setup = self.running.setup
        if chance is None:
            state = setup(options, num_seats, seed)
        else:
            state = with_picker(chance, partial(setup, options, num_seats, seed))
        start = self.running.phases.current(state)
        if start.name not in self.running.phases.start:
            raise PhaseTransitionError(
                f"setup left the game in phase {start.name!r}, not a start phase of the table"
            )
        if start.over != state.HasField("outcome"):
            raise PhaseTransitionError(
                f"setup left the game in phase {start.name!r} with the outcome "
                f"{'unset' if start.over else 'set'}"
            )
        return state

    def setup_events(self, state: StateT) -> list[EventT]:
        """The public events of a fresh game (for its history)."""
        events = self.running.setup_events
        return events(state) if events is not None else []

    def max_decisions(self, options: OptionsT, num_seats: int) -> int:
        return self.running.max_decisions(options, num_seats)

    # -- who acts, what they may do -----------------------------------------------------------

    def phase(self, state: StateT) -> Phase[StateT]:
        """The row of the phase table the state is in."""
        return self.running.phases.current(state)

    def to_act(self, state: StateT) -> tuple[Seat, ...]:
        d = self.running
        turn_seat = d.turn_seat
        if turn_seat is not None:
            # Every acting phase is a turn of the same seat (``one_turn``): the phase
            # itself is not needed, only whether the game is over (the outcome, kept
            # in step with the end phase at setup and every move).
            return () if state.HasField("outcome") else (turn_seat(state),)
        table = d.phases
        phase = table.phase_by_key.get(table.phase_key(state)) or table.current(state)
        seat = phase.seat
        if seat is not None:
            return (seat(state),)
        return tuple(phase.acting(state))

    def decision_key(self, state: StateT) -> DecisionKey | None:
        """The simultaneous decision the state is in (phase name and epoch), or
        None when the current phase is not simultaneous."""
        phase = self.phase(state)
        if not phase.simultaneous:
            return None
        return (phase.name, phase.epoch(state) if phase.epoch is not None else 0)

    def legal_moves(self, state: StateT, seat: Seat) -> Sequence[MoveT]:
        d = self.running
        turn_seat = d.turn_seat
        phase = d.one_turn  # see to_act
        if turn_seat is not None and phase is not None:
            if state.HasField("outcome") or seat != turn_seat(state):
                return []
        else:
            table = d.phases
            phase = table.phase_by_key.get(table.phase_key(state)) or table.current(state)
            acting = phase.seat
            if acting is not None:
                if seat != acting(state):
                    return []
            elif not phase.is_asked(state, seat):
                return []
        if phase.generate is not None:
            listed = phase.generate(state, seat)
            if phase.ordered:
                # _as_sequence(listed), without the call for a known Sequence type
                if _SEQUENCE_TYPES.get(type(listed)):
                    return listed  # type: ignore[return-value]
                return _as_sequence(listed)
            return sorted(listed, key=d.move_key)
        key = d.move_key
        kinds = d.phase_kinds[phase.name]
        if len(kinds) == 1:
            listed = _generator(kinds[0])(state, seat)
            if kinds[0].ordered:
                return _as_sequence(listed)
            return sorted(listed, key=key)
        lists = [list(_generator(kind)(state, seat)) for kind in kinds]
        if all(kind.ordered for kind in kinds):
            return _joined(lists, key)
        moves = [move for listed_kind in lists for move in listed_kind]
        moves.sort(key=key)
        return moves

    def move_key(self, move: MoveT) -> Key:
        return self.running.move_key(move)

    # -- the one checked apply ------------------------------------------------------------------

    def check(self, state: StateT, seat: Seat, move: MoveT) -> MoveKind[StateT, MoveT, EventT]:
        """The move's kind when ``seat`` may play ``move`` now; otherwise raises
        InvalidMoveError (malformed whatever the state), GameFinishedError,
        NotYourTurnError or IllegalMoveError (with the game's explanation)."""
        return self._check(state, seat, move, self.phase(state))[0]

    def _check(
        self, state: StateT, seat: Seat, move: MoveT, phase: Phase[StateT]
    ) -> tuple[MoveKind[StateT, MoveT, EventT], MoveT]:
        """The move's kind and the enumeration's own copy of the move (equal to it)."""
        d = self.running
        # First, so that the game's own words come first; what it returns (e.g. the
        # move parsed) is handed to the kind's ``member``.
        checked = d.check_move(state, move) if d.check_move is not None else None
        kind_of_checked = d.kind_of_checked
        if kind_of_checked is not None:  # the kind check_move read (a promise, kit.checks)
            kind = d.kinds.get(kind_of_checked(checked))
        else:
            # d.kind_of(move), without the call (a move of a oneof: its kind; else the one)
            oneof = d.kinds_oneof
            kind = d.kinds.get(move.WhichOneof(oneof)) if oneof is not None else d.kind_of(move)
        if kind is None:
            names = ", ".join(d.kinds)
            raise InvalidMoveError(f"{d.title}: the move is empty; set one of: {names}")
        if d.walk_enums:
            bad = d.undeclared_enum(move)
            if bad is not None:
                raise InvalidMoveError(f"{d.title}: the move is malformed: {bad}")
        seats = d._num_seats(state)
        if not 0 <= seat < seats:
            check_seat(seats, seat)
        if phase.over:
            outcome = d.outcome_of(state)
            summary = f" ({outcome.summary})" if outcome is not None and outcome.summary else ""
            raise GameFinishedError(f"{d.title}: the game is over{summary}")
        acting = phase.seat
        if not (seat == acting(state) if acting is not None else phase.is_asked(state, seat)):
            raise NotYourTurnError(_not_your_turn(d.title, phase, phase.acting(state), seat))
        if kind.name not in phase.moves:
            allowed = " or ".join(phase.moves)
            raise IllegalMoveError(
                f"{d.title}, {phase.name}: seat {seat} may play {allowed} now, not {kind.name}"
            )
        member = kind.member
        listed = (
            member(state, seat, move, checked)
            if member is not None
            else self._listed(kind, phase, state, seat, move)
        )
        if listed is None:
            reason = kind.explain(state, seat, move) if kind.explain is not None else ""
            raise IllegalMoveError(
                reason
                or f"{d.title}, {phase.name}: {one_line(move)} is not a legal move of seat {seat}"
            )
        return kind, listed

    def _listed(
        self,
        kind: MoveKind[StateT, MoveT, EventT],
        phase: Phase[StateT],
        state: StateT,
        seat: Seat,
        move: MoveT,
    ) -> MoveT | None:
        """Membership in the enumeration: the listed move equal to ``move``, or
        None. Asks the kind's narrowing, else the kind's generator, else the
        phase's (the smallest list that is exact). A kind's ``member``, when it
        has one, answers instead (see ``_check``)."""
        candidates: Iterable[MoveT]
        if kind.narrow is not None:
            candidates = kind.narrow(state, seat, move)
        elif kind.generate is not None:
            candidates = kind.generate(state, seat)
        else:
            assert phase.generate is not None, "checked when the definition is built"
            candidates = phase.generate(state, seat)
        for candidate in candidates:
            if candidate == move:
                return candidate
        return None

    def is_legal(self, state: StateT, seat: Seat, move: MoveT) -> bool:
        """Whether ``apply`` would accept the move (no exception)."""
        try:
            self.check(state, seat, move)
        except (InvalidMoveError, IllegalMoveError):
            return False
        return True

    def apply(
        self, state: StateT, seat: Seat, move: MoveT, chance: Picker | None = None
    ) -> tuple[StateT, list[EventT]]:
        """The checked apply: the kind's effect plays the enumeration's own copy
        of ``move`` on a copy of ``state``; the transition is checked against
        the phase table (``apply_into`` with a new message). ``chance``
        (kit.chance) chooses the move's chance steps, the in-state RNG by
        default; a ``ChanceNeeded`` it raises leaves ``state`` unchanged."""
        new = self.running.messages.state()
        if chance is None:
            return new, self.apply_into(state, seat, move, new)
        # A partial, not a lambda: a lambda would make this hot function's
        # arguments cells, built on every call (CPython 3.11), chance or not.
        return new, with_picker(chance, partial(self.apply_into, state, seat, move, new))

    @property
    def max_chance_outcomes(self) -> int:
        """The most outcomes one chance step of the game lists (0: no chance)."""
        return self.running.max_chance_outcomes

    def apply_into(self, state: StateT, seat: Seat, move: MoveT, new: StateT) -> list[EventT]:
        """``apply`` played into ``new``, an empty message of the state's type
        (e.g. the entry of a fresh ``GameState`` envelope, which then needs no
        copy of its own): ``new`` becomes the new state and the events are
        returned. A refused move leaves ``new`` as it was (the checks come
        before the copy)."""
        d = self.running
        table = d.phases
        phase_key = table.phase_key
        by_key = table.phase_by_key
        phase = by_key.get(phase_key(state)) or table.current(state)
        kind, listed = self._check(state, seat, move, phase)
        new.CopyFrom(state)
        events: list[EventT] = []
        kind.play(new, seat, listed, events)
        # The phase after the move is one the table allows after ``phase``, and it
        # ends the game exactly when the outcome is set (one lookup: over_after).
        if table.over_after[phase.name].get(phase_key(new)) is not new.HasField("outcome"):
            self._transition_error(phase, by_key.get(phase_key(new)) or table.current(new), new)
        return events

    def _transition_error(
        self, before: Phase[StateT], after: Phase[StateT], state: StateT
    ) -> NoReturn:
        """Raise the PhaseTransitionError of a move from ``before`` that left ``state``
        in ``after`` (when the table does not allow it)."""
        if after.name != before.name and after.name not in before.follows:
            raise PhaseTransitionError(
                f"a move in phase {before.name!r} led to {after.name!r}, which the table does "
                f"not list after it (follows: {', '.join(before.follows) or 'nothing'})"
            )
        if after.over != state.HasField("outcome"):
            raise PhaseTransitionError(
                f"phase {after.name!r} {'ends' if after.over else 'does not end'} the game, "
                f"yet the outcome is {'unset' if after.over else 'set'}"
            )
        raise AssertionError("over_after refused a transition the table allows")

    # -- outcome, views, checks -------------------------------------------------------------------

    def outcome(self, state: StateT) -> Outcome | None:
        return self.running.outcome_of(state)

    def view(self, state: StateT, viewer: Viewer) -> ViewT:
        return self.running.view(state, viewer)

    def redact_event(self, event: EventT, viewer: Viewer) -> EventT | None:
        return self.running.redact_event(event, viewer)

    @property
    def seat_view(self) -> Callable[[StateT, Seat, ViewT], None] | None:
        """The definition's ``seat_view`` (None: a seat's view is built whole)."""
        return self.running.fast.seat_view

    def check_invariants(self, state: StateT) -> None:
        table = self.running.phases
        phase = table.current(state)
        if phase.over != (self.running.outcome_of(state) is not None):
            raise AssertionError(f"phase {phase.name!r} and the outcome disagree")
        for invariant in self.running.invariants:
            invariant(state)

    def randomize_hidden(self, state: StateT, viewer: Viewer, seed: int) -> StateT:
        return self.running.randomize_hidden(state, viewer, seed)


def _not_your_turn(title: str, phase: Phase[StateT], acting: Sequence[Seat], seat: Seat) -> str:
    if phase.simultaneous:
        waiting = ", ".join(str(s) for s in acting)
        return f"{title}, {phase.name}: seat {seat} is not asked (waiting for seats {waiting})"
    return f"{title}, {phase.name}: it is seat {acting[0]}'s turn, not seat {seat}'s"


_SEQUENCE_TYPES: dict[type, bool] = {list: True, tuple: True}
"""Whether a generator's result type is a Sequence (the ABC check, once per type)."""


def _as_sequence(listed: Iterable[MoveT]) -> Sequence[MoveT]:
    """The generator's moves as a sequence (a list or a lazy Sequence as it is)."""
    cls = type(listed)
    known = _SEQUENCE_TYPES.get(cls)
    if known is None:
        known = _SEQUENCE_TYPES[cls] = issubclass(cls, Sequence)
    if known:
        return listed  # type: ignore[return-value]
    return list(listed)


def _joined(lists: Sequence[list[MoveT]], key: Callable[[MoveT], Key]) -> list[MoveT]:
    """Lists each in key order, as one list in key order: concatenated when
    they follow each other (two keys compared per join: the usual case, kinds
    whose keys start with the kind), merged otherwise."""
    filled = [listed for listed in lists if listed]
    for before, after in itertools.pairwise(filled):
        if key(before[-1]) >= key(after[0]):
            return list(heapq.merge(*filled, key=key))
    return [move for listed in filled for move in listed]


def _generator(
    kind: MoveKind[StateT, MoveT, EventT],
) -> Callable[[StateT, Seat], Iterable[MoveT]]:
    generate = kind.generate
    assert generate is not None, f"move kind {kind.name!r} has no generator (checked at build)"
    return generate


def unknown_enum_value(message: Message, prefix: str = "") -> str | None:
    """Why ``message`` is not valid options, if a field of it (or of a message
    in it) holds a number its enum does not define (proto3 keeps those)."""
    for field, value in message.ListFields():
        name = f"{prefix}{field.name}"
        if field.enum_type is not None:
            defined = field.enum_type.values_by_number
            for number in value if field.is_repeated else [value]:
                if number not in defined:
                    names = ", ".join(v.name for v in field.enum_type.values if v.number)
                    return f"option {name} has no value {number}: one of {names}"
        elif field.message_type is not None and not field.message_type.GetOptions().map_entry:
            for item in value if field.is_repeated else [value]:
                found = unknown_enum_value(item, f"{name}.")
                if found is not None:
                    return found
    return None
