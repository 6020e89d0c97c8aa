"""A game as one declarative definition: what it is, its options, its flow, its moves.

``GameDefinition`` gathers, in one value, everything the service, the SDK,
the conformance suite and the golden files need to know about a game; an
:class:`~throneroom_server.games.kit.engine.Engine` subclass naming it is the
game's engine, and one line in ``registry.py`` registers it. See
docs/kit.md for a worked example (Nim).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from operator import attrgetter
from typing import Any, Generic, TypeVar

from google.protobuf.descriptor import FieldDescriptor
from google.protobuf.message import Message
from throneroom.games.messages import GameMessages

from throneroom_server.games.core import GameInfo, OptionSpec, Outcome, Seat, Viewer
from throneroom_server.games.kit.fast import Fast, memoized_functions
from throneroom_server.games.kit.messages import (
    Key,
    check_keyable,
    derived_key,
    descriptor,
    enum_checker,
    has_enums,
    key_function,
    kinds_oneof,
    oneof_kinds,
)
from throneroom_server.games.kit.phases import MoveKind, Phase, PhaseTable, PhaseTableError

OptionsT = TypeVar("OptionsT", bound=Message)
StateT = TypeVar("StateT", bound=Message)
MoveT = TypeVar("MoveT", bound=Message)
EventT = TypeVar("EventT", bound=Message)
ViewT = TypeVar("ViewT", bound=Message)

OptionValue = bool | int | str


@dataclass(frozen=True)
class Option:
    """One option a client may set: a field of the game's options message.

    ``minimum``/``maximum`` bound an integer option (checked by the kit); the
    default shown to clients is read from the definition's default options."""

    name: str
    description: str
    minimum: int | None = None
    maximum: int | None = None


@dataclass(frozen=True)
class Variant:
    """A seat count and the options (by field name) that differ from the defaults."""

    seats: int
    options: tuple[tuple[str, OptionValue], ...] = ()

    @property
    def label(self) -> str:
        parts = [f"{self.seats}p"]
        for name, value in self.options:
            parts.append(name if value is True else f"{name}={value}")
        return "-".join(parts)


@dataclass(frozen=True)
class Golden:
    """A golden playthrough: tests/golden/<game>-<variant label>.txt, played from ``seed``."""

    variant: Variant
    seed: int


@dataclass(frozen=True)
class Testing:
    """How the shared test tools play the game (data, read by the conformance
    suite, the golden tool and the benchmarks)."""

    variants: tuple[Variant, ...] = ()
    """The variants the conformance suite plays; empty: every seat count with the
    default options."""
    examples: int = 3
    """Hypothesis examples (random playouts) per variant."""
    deep_rate: float = 0.25
    """Chance that a playout step gets the expensive checks."""
    chance_at_setup: bool | None = None
    """Whether different seeds deal different initial states; None: if the game
    has hidden information."""
    event_only_reveals: frozenset[str] = frozenset()
    """Event kinds that show a viewer something its view does not keep (see
    docs/conformance.md, check 9d). Keep it short: each entry weakens the check."""
    unordered_event_fields: frozenset[str] = frozenset()
    """Repeated event fields ("kind.field") compared as multisets by check 9d."""
    golden: tuple[Golden, ...] = ()
    """The golden playthroughs of the game."""


def _public(event: EventT, viewer: Viewer) -> EventT | None:
    return event


@dataclass(frozen=True)
class GameDefinition(Generic[OptionsT, StateT, MoveT, EventT, ViewT]):
    """Everything about one game, declared once (checked when built).

    Conventions the kit relies on (checked here): the state message has an
    ``int32 num_seats`` and an ``Outcome outcome`` field; the move message
    carries its kinds in one oneof (or has one kind); the option names exist.
    """

    messages: GameMessages[OptionsT, StateT, MoveT, EventT, ViewT]
    """The five messages; ``messages.name`` is the registered name."""
    title: str
    description: str
    min_seats: int
    max_seats: int
    hidden_information: bool
    chance: bool
    """Whether the game draws from its seeded RNG (deals, shuffles, dice)."""
    default_options: OptionsT
    options: tuple[Option, ...]
    max_decisions: Callable[[OptionsT, int], int]
    """An upper bound on the moves of any playout (OpenSpiel's max game length)."""
    setup: Callable[[OptionsT, int, int], StateT]
    """The initial state from checked options, the seat count and the seed."""
    phases: PhaseTable[StateT]
    moves: tuple[MoveKind[StateT, MoveT, EventT], ...]
    view: Callable[[StateT, Viewer], ViewT]
    randomize_hidden: Callable[[StateT, Viewer, int], StateT]
    invariants: tuple[Callable[[StateT], None], ...]
    """Each raises AssertionError when a law of the state does not hold."""
    redact_event: Callable[[EventT, Viewer], EventT | None] = _public
    check_options: Callable[[OptionsT, int], None] | None = None
    """Further option checks (raise InvalidOptionsError), after the kit's own."""
    check_move: Callable[[StateT, MoveT], object] | None = None
    """Further malformed-move checks (raise InvalidMoveError), e.g. a seat number
    out of range; run first, on any move (even an empty one). The kit then refuses
    empty moves and undeclared enum values itself. What it returns (e.g. the move
    parsed; usually None) is handed to the kinds' ``MoveKind.member``."""
    fast: Fast[StateT, ViewT] = field(default_factory=Fast)
    """The engine's memo and the speed promises (see kit.fast)."""
    move_key: Callable[[MoveT], Key] = derived_key
    setup_events: Callable[[StateT], list[EventT]] | None = None
    """The public events of a fresh game, for its history (e.g. the deal)."""
    testing: Testing = Testing()
    fixture: bool = False
    """A game for the framework's own tests (registered only when asked for)."""
    max_chance_outcomes: int = 0
    """The most outcomes one chance step lists (kit.chance; a d6: 6, a draw from a
    deck: the deck's size); 0 for a game without chance. The conformance suite
    checks every step it meets against it (OpenSpiel's max_chance_outcomes)."""
    info: GameInfo = field(init=False)
    kinds: dict[str, MoveKind[StateT, MoveT, EventT]] = field(init=False, repr=False)
    phase_kinds: dict[str, tuple[MoveKind[StateT, MoveT, EventT], ...]] = field(
        init=False, repr=False, compare=False
    )
    """Phase name -> the move kinds it allows, in the table's order."""
    _num_seats: Callable[[StateT], int] = field(init=False, repr=False, compare=False)
    move_has_enums: bool = field(init=False, repr=False)
    walk_enums: bool = field(init=False, repr=False, compare=False)
    """Whether the checked apply walks the move for undeclared enum values: it can
    hold one and ``check_move`` does not refuse them already."""
    undeclared_enum: Callable[[MoveT], str | None] = field(init=False, repr=False, compare=False)
    """The first enum value of a move its enum does not declare (a path), or None
    (``messages.enum_checker``, specialised to the move message)."""
    kinds_oneof: str | None = field(init=False, repr=False)
    """The oneof of the move message that carries the kinds (None: one kind)."""
    one_turn: Phase[StateT] | None = field(init=False, repr=False, compare=False)
    """When every phase in which seats act is a ``turn`` of the same seat with
    the same generator (or there is one such phase): one of them, which stands
    for all in ``to_act`` and ``legal_moves`` (who acts and what they may do
    are the same in each; whether the game is over is its outcome, which the
    kit keeps in step with the end phase). None otherwise."""
    turn_seat: Callable[[StateT], Seat] | None = field(init=False, repr=False, compare=False)
    """``one_turn``'s seat function (None with it)."""
    kind_of_checked: Callable[[Any], str] | None = field(init=False, repr=False, compare=False)
    """``fast.kind_of_checked``, one attribute away for the checked apply."""

    def __post_init__(self) -> None:
        name = self.messages.name
        if not 1 <= self.min_seats <= self.max_seats:
            raise PhaseTableError(f"{name}: seats {self.min_seats}..{self.max_seats}")
        self._check_state_fields()
        self._check_options()
        try:
            oneof = kinds_oneof(self.messages.move)
        except TypeError as error:
            raise PhaseTableError(f"{name}: {error}") from None
        object.__setattr__(self, "kinds_oneof", oneof)
        object.__setattr__(self, "kinds", self._check_moves())
        object.__setattr__(
            self,
            "phase_kinds",
            {p.name: tuple(self.kinds[k] for k in p.moves) for p in self.phases.phases},
        )
        object.__setattr__(self, "move_has_enums", has_enums(self.messages.move))
        refused = self.fast.check_move_refuses_enums
        if refused and self.check_move is None:
            raise PhaseTableError(f"{name}: check_move_refuses_enums needs a check_move")
        if self.fast.kind_of_checked is not None and self.check_move is None:
            raise PhaseTableError(f"{name}: kind_of_checked needs a check_move")
        reading = memoized_functions(self)
        if reading and self.fast.memo is None:
            raise PhaseTableError(f"{name}: {', '.join(reading)} read a memo, and fast has none")
        object.__setattr__(self, "walk_enums", self.move_has_enums and not refused)
        object.__setattr__(self, "undeclared_enum", enum_checker(self.messages.move))
        object.__setattr__(self, "_num_seats", attrgetter("num_seats"))
        one_turn = _one_turn(self.phases)
        object.__setattr__(self, "one_turn", one_turn)
        object.__setattr__(self, "turn_seat", one_turn.seat if one_turn is not None else None)
        object.__setattr__(self, "kind_of_checked", self.fast.kind_of_checked)
        specs = tuple(
            OptionSpec(o.name, o.description, _default_text(self.default_options, o.name))
            for o in self.options
        )
        info = GameInfo(
            name=name,
            title=self.title,
            description=self.description,
            min_seats=self.min_seats,
            max_seats=self.max_seats,
            hidden_information=self.hidden_information,
            simultaneous_decisions=self.phases.has_simultaneous,
            options=specs,
            chance=self.chance,
        )
        object.__setattr__(self, "info", info)

    @property
    def shows_every_event(self) -> bool:
        """Every viewer sees every event as it is (``redact_event`` left at its default)."""
        return self.redact_event is _public

    @property
    def name(self) -> str:
        return self.messages.name

    def _check_state_fields(self) -> None:
        fields = descriptor(self.messages.state).fields_by_name
        num_seats = fields.get("num_seats")
        outcome = fields.get("outcome")
        if num_seats is None or num_seats.type != FieldDescriptor.TYPE_INT32:
            raise PhaseTableError(f"{self.name}: the state needs an `int32 num_seats` field")
        if outcome is None or outcome.message_type is None:
            raise PhaseTableError(f"{self.name}: the state needs an `Outcome outcome` field")
        if outcome.message_type.full_name != Outcome.DESCRIPTOR.full_name:
            raise PhaseTableError(f"{self.name}: the state's `outcome` must be an Outcome")

    def _check_options(self) -> None:
        fields = descriptor(self.messages.options).fields_by_name
        if not isinstance(self.default_options, self.messages.options):
            raise PhaseTableError(f"{self.name}: default_options is not a {self.messages.options}")
        for option in self.options:
            if option.name not in fields:
                raise PhaseTableError(
                    f"{self.name}: option {option.name!r} is no field of "
                    f"{self.messages.options.DESCRIPTOR.name}"
                )

    def _check_moves(self) -> dict[str, MoveKind[StateT, MoveT, EventT]]:
        kinds: dict[str, MoveKind[StateT, MoveT, EventT]] = {}
        for kind in self.moves:
            if kind.name in kinds:
                raise PhaseTableError(f"{self.name}: two move kinds are named {kind.name!r}")
            kinds[kind.name] = kind
        declared = oneof_kinds(self.messages.move)
        if declared:
            for kind_name in kinds:
                if kind_name not in declared:
                    raise PhaseTableError(
                        f"{self.name}: move kind {kind_name!r} is no field of the oneof of "
                        f"{self.messages.move.DESCRIPTOR.name} ({', '.join(declared)})"
                    )
            missing = [k for k in declared if k not in kinds]
            if missing:
                raise PhaseTableError(f"{self.name}: the move kinds {missing} have no MoveKind")
        elif len(kinds) != 1:
            raise PhaseTableError(
                f"{self.name}: {self.messages.move.DESCRIPTOR.name} has no oneof, so the game "
                f"has exactly one move kind, not {len(kinds)}"
            )
        for phase in self.phases.phases:
            if phase.generate is not None:
                continue
            for kind_name in phase.moves:
                found = kinds.get(kind_name)
                if found is not None and found.generate is None:
                    raise PhaseTableError(
                        f"{self.name}: move kind {kind_name!r} has no generator, and phase "
                        f"{phase.name!r} has none either"
                    )
        used = self.phases.move_kinds
        for kind_name in used - set(kinds):
            raise PhaseTableError(
                f"{self.name}: a phase allows {kind_name!r}, which is no move kind"
            )
        for kind_name in set(kinds) - used:
            raise PhaseTableError(f"{self.name}: no phase allows the move kind {kind_name!r}")
        if self.move_key is derived_key:
            try:
                check_keyable(self.messages.move)
            except TypeError as error:
                raise PhaseTableError(f"{self.name}: {error}") from None
            object.__setattr__(self, "move_key", key_function(self.messages.move))
        return kinds

    def kind_of(self, move: MoveT) -> MoveKind[StateT, MoveT, EventT] | None:
        """The kind of ``move``; None for an empty move."""
        if self.kinds_oneof is None:
            return next(iter(self.kinds.values())) if move.ListFields() else None
        chosen = move.WhichOneof(self.kinds_oneof)
        return self.kinds.get(chosen) if chosen else None

    def seats_of(self, state: StateT) -> int:
        """The seat count a state was set up for."""
        seats: int = self._num_seats(state)
        return seats

    def outcome_of(self, state: StateT) -> Outcome | None:
        if not state.HasField("outcome"):
            return None
        outcome: Outcome = getattr(state, "outcome")  # noqa: B009 (checked field)
        return outcome

    def acting(self, state: StateT) -> Sequence[Seat]:
        return self.phases.current(state).acting(state)


def _one_turn(table: PhaseTable[StateT]) -> Phase[StateT] | None:
    """The phase standing for every acting phase of ``table`` (see
    ``GameDefinition.one_turn``), or None."""
    acting = [phase for phase in table.phases if not phase.over]
    first = acting[0]
    if first.seat is None or any(phase.seat is not first.seat for phase in acting):
        return None
    if len(acting) == 1:
        return first
    if first.generate is None or any(
        phase.generate is not first.generate or phase.ordered != first.ordered for phase in acting
    ):
        return None
    return first


def _default_text(options: Message, name: str) -> str:
    field_desc = descriptor(options).fields_by_name[name]
    value = getattr(options, name)
    if field_desc.type == FieldDescriptor.TYPE_BOOL:
        return "true" if value else "false"
    if field_desc.type == FieldDescriptor.TYPE_ENUM and not field_desc.is_repeated:
        assert field_desc.enum_type is not None
        enum_value = field_desc.enum_type.values_by_number.get(value)
        return enum_value.name if enum_value is not None else str(value)
    if field_desc.is_repeated:
        return ",".join(str(v) for v in value)
    return str(value)
