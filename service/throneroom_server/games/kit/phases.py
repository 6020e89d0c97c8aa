"""The table of phases: who decides, which kinds of move, what may follow.

A game's flow is a finite set of named phases. The state says which phase it
is in (``PhaseTable.phase_of``, usually one enum field of the state); each
phase declares, as data:

* who acts: one seat (``turn``), several seats answering the same decision,
  collected hidden (``simultaneous``), several seats acting in any order with
  public moves (``shared``), or nobody, the game being over (``end``);
* which kinds of move the acting seats may make (the move kinds of the game's
  ``MoveKind`` table: the oneof fields of its move message);
* what ends it (a sentence, for people) and which phases may follow it.

The game's own move effects change the phase field (the flow stays plain,
typed code over the state). The kit checks every transition against the table
when a move is applied, and checks the table itself when the definition is
built: unique names, declared successors, every phase reachable from a start
phase, an end phase reachable from every phase. Unlike boardgame.io's
``endIf``/``next`` hooks the flow is not hidden in callbacks run by the
framework, yet it is declared, listed and enforced.
"""

from __future__ import annotations

import enum
from collections import deque
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from operator import attrgetter
from types import MappingProxyType
from typing import Any, Generic, TypeVar

from google.protobuf.message import Message

from throneroom_server.games.core import Seat

StateT = TypeVar("StateT", bound=Message)
MoveT = TypeVar("MoveT", bound=Message)
EventT = TypeVar("EventT", bound=Message)


class PhaseTableError(ValueError):
    """A phase table (or move table) that cannot describe a game; raised when the
    definition is built, i.e. when the game's module is imported."""


class PhaseTransitionError(AssertionError):
    """A move left the game in a phase the table does not allow after the
    phase it was played in (an engine bug, reported like a broken invariant)."""


class PhaseKind(enum.Enum):
    TURN = "turn"
    """One seat decides."""
    SIMULTANEOUS = "simultaneous"
    """Several seats answer the same decision, hidden from each other."""
    SHARED = "shared"
    """Several seats may act, in any order, and each move is public and may change
    what the others may do (e.g. the two players of a team moving their halves
    of one army): the service checks versions strictly."""
    END = "end"
    """The game is over: nobody acts and the state holds the outcome."""


@dataclass(frozen=True)
class Phase(Generic[StateT]):
    """One row of the table. Build it with :func:`turn`, :func:`simultaneous` or
    :func:`end`."""

    name: str
    kind: PhaseKind
    acting: Callable[[StateT], Sequence[Seat]]
    """The seats that must decide now, ascending."""
    moves: tuple[str, ...]
    """The move kinds the acting seats may play (names of the MoveKind table)."""
    ends: str
    """What ends the phase, in one sentence (documentation)."""
    follows: tuple[str, ...]
    """The phases a move may lead to (staying in this phase is always allowed)."""
    epoch: Callable[[StateT], int] | None = None
    """Simultaneous phases only: a number that changes whenever a new instance of
    the phase opens. Needed only when one move can close an instance before every
    seat has answered and open the next instance of the same phase (see
    docs/adding-a-game.md, "Simultaneous decisions")."""
    generate: Callable[[StateT, Seat], Iterable[Any]] | None = None
    """Every legal move of the phase at once, when one computation lists several
    kinds (e.g. "pass, or play one of these cards"); otherwise each kind's
    generator is used."""
    ordered: bool = False
    """The phase's generator yields in ascending move_key order (see MoveKind)."""
    asks: Callable[[StateT, Seat], bool] | None = None
    """Whether a seat acts now: ``seat in acting(state)`` without building the
    sorted tuple (the constructors below derive it from the same function as
    ``acting``); None: read ``acting``."""
    seat: Callable[[StateT], Seat] | None = None
    """A ``turn`` phase's one acting seat (``acting`` is ``(seat(state),)``): the
    engine asks it directly, with no tuple built and no call in between."""
    is_asked: Callable[[StateT, Seat], bool] = field(init=False, repr=False, compare=False)
    """``asks``, or the membership test on ``acting``."""
    simultaneous: bool = field(init=False, repr=False, compare=False)
    over: bool = field(init=False, repr=False, compare=False)
    """An end phase: the game is over."""
    followers: frozenset[str] = field(init=False, repr=False, compare=False)
    """``follows`` as a set (read at every move that changes the phase)."""

    def __post_init__(self) -> None:
        # Plain attributes rather than properties: read at every move.
        acting = self.acting

        def in_acting(state: StateT, seat: Seat) -> bool:
            return seat in acting(state)

        object.__setattr__(self, "is_asked", self.asks or in_acting)
        object.__setattr__(self, "simultaneous", self.kind is PhaseKind.SIMULTANEOUS)
        object.__setattr__(self, "over", self.kind is PhaseKind.END)
        object.__setattr__(self, "followers", frozenset(self.follows))


def _nobody(state: Message) -> Sequence[Seat]:
    return ()


def _asks_nobody(state: Message, seat: Seat) -> bool:
    return False


Generator = Callable[[StateT, Seat], Iterable[Any]]
"""A phase's own generator: every legal move of the phase, whatever its kind."""


def turn(
    name: str,
    *,
    seat: Callable[[StateT], Seat],
    moves: Sequence[str],
    ends: str,
    follows: Sequence[str] = (),
    generate: Generator[StateT] | None = None,
    ordered: bool = False,
) -> Phase[StateT]:
    """A phase in which the one seat ``seat(state)`` decides."""
    return Phase(
        name,
        PhaseKind.TURN,
        lambda state: (seat(state),),
        tuple(moves),
        ends,
        (*follows,),
        generate=generate,
        ordered=ordered,
        asks=lambda state, asked: asked == seat(state),
        seat=seat,
    )


def simultaneous(
    name: str,
    *,
    seats: Callable[[StateT], Iterable[Seat]],
    moves: Sequence[str],
    ends: str,
    follows: Sequence[str] = (),
    epoch: Callable[[StateT], int] | None = None,
    generate: Generator[StateT] | None = None,
    ordered: bool = False,
) -> Phase[StateT]:
    """A phase in which every seat of ``seats(state)`` (those who still owe an
    answer) decides, each unseen by the others."""
    return Phase(
        name,
        PhaseKind.SIMULTANEOUS,
        lambda state: tuple(sorted(seats(state))),
        tuple(moves),
        ends,
        (*follows,),
        epoch=epoch,
        generate=generate,
        ordered=ordered,
        asks=lambda state, asked: asked in seats(state),
    )


def shared(
    name: str,
    *,
    seats: Callable[[StateT], Iterable[Seat]],
    moves: Sequence[str],
    ends: str,
    follows: Sequence[str] = (),
    generate: Generator[StateT] | None = None,
    ordered: bool = False,
) -> Phase[StateT]:
    """A phase in which every seat of ``seats(state)`` may act, in any order, each
    move public (not a simultaneous decision: answers are not independent)."""
    return Phase(
        name,
        PhaseKind.SHARED,
        lambda state: tuple(sorted(seats(state))),
        tuple(moves),
        ends,
        (*follows,),
        generate=generate,
        ordered=ordered,
        asks=lambda state, asked: asked in seats(state),
    )


def end(name: str, *, ends: str = "never: the game is over") -> Phase[StateT]:
    """The game is over: nobody acts, the state's outcome is set."""
    return Phase(name, PhaseKind.END, _nobody, (), ends, (), asks=_asks_nobody)


class PhaseField(Generic[StateT]):
    """``phase_of`` as data: the phase a state is in is named by the value of one
    field of it (``path``, dotted for a nested field, e.g. ``"pending.decision"``)
    through ``names`` (value -> phase name).

    Called, it is a ``phase_of`` like any other (an unnamed value gives a name no
    table has, e.g. ``"phase=7"``, so the table refuses it). Given to a
    :class:`PhaseTable`, it lets the kit read the phase with no Python call: the
    field in C (``operator.attrgetter``), then one lookup of its value."""

    __slots__ = ("names", "path", "read")

    def __init__(self, path: str, names: Mapping[Any, str]) -> None:
        self.path = path
        self.names: Mapping[Any, str] = MappingProxyType(dict(names))
        """Field value (an enum value) -> phase name."""
        self.read: Callable[[StateT], int] = attrgetter(path)

    def __call__(self, state: StateT) -> str:
        value = self.read(state)
        name = self.names.get(value)
        return name if name is not None else f"{self.path}={value}"

    def __repr__(self) -> str:
        return f"PhaseField({self.path!r}, {dict(self.names)!r})"


@dataclass(frozen=True)
class PhaseTable(Generic[StateT]):
    """Every phase of a game, and how to read the current one from a state."""

    phase_of: Callable[[StateT], str]
    """The name of the phase a state is in: a function, or a :class:`PhaseField`
    (one field of the state names it; the kit then reads it with no Python call)."""
    phases: tuple[Phase[StateT], ...]
    start: tuple[str, ...]
    """The phases setup may leave a game in."""
    _by_name: Mapping[str, Phase[StateT]] = field(init=False, repr=False, compare=False)
    phase_key: Callable[[StateT], Hashable] = field(init=False, repr=False, compare=False)
    """What names the phase of a state: the ``PhaseField``'s field value, else
    ``phase_of`` itself (the name). ``phase_by_key.get(phase_key(state))`` is the
    current phase, or None (then ``current`` raises)."""
    phase_by_key: Mapping[Hashable, Phase[StateT]] = field(init=False, repr=False, compare=False)
    over_after: Mapping[str, Mapping[Hashable, bool]] = field(init=False, repr=False, compare=False)
    """For each phase's name, the phase key of every phase a move in it may lead
    to (itself and its ``follows``) with whether that phase ends the game: the
    checked apply's transition check is
    ``over_after[before.name].get(phase_key(state)) is state.HasField("outcome")``
    (one lookup; a key it lacks, None, is a phase not allowed or no phase)."""

    def __post_init__(self) -> None:
        by_name: dict[str, Phase[StateT]] = {}
        for phase in self.phases:
            if not phase.name:
                raise PhaseTableError("a phase needs a name")
            if phase.name in by_name:
                raise PhaseTableError(f"two phases are named {phase.name!r}")
            by_name[phase.name] = phase
        object.__setattr__(self, "_by_name", by_name)
        phase_key: Callable[[StateT], Hashable] = self.phase_of
        phase_by_key: dict[Hashable, Phase[StateT]] = {n: p for n, p in by_name.items()}
        if isinstance(self.phase_of, PhaseField):
            phase_key = self.phase_of.read
            phase_by_key = {
                value: by_name[name]
                for value, name in self.phase_of.names.items()
                if name in by_name
            }
        object.__setattr__(self, "phase_key", phase_key)
        object.__setattr__(self, "phase_by_key", MappingProxyType(phase_by_key))
        self._check_rows()
        over_after = {
            before.name: MappingProxyType(
                {
                    key: after.over
                    for key, after in phase_by_key.items()
                    if after is before or after.name in before.followers
                }
            )
            for before in self.phases
        }
        object.__setattr__(self, "over_after", MappingProxyType(over_after))
        self._check_flow()

    def _check_rows(self) -> None:
        for phase in self.phases:
            where = f"phase {phase.name!r}"
            for target in phase.follows:
                if target not in self._by_name:
                    raise PhaseTableError(f"{where} is followed by {target!r}, which is no phase")
            if phase.over:
                continue
            if not phase.moves:
                raise PhaseTableError(f"{where}: seats act in it, so it must allow a move kind")
            if len(set(phase.moves)) != len(phase.moves):
                raise PhaseTableError(f"{where} lists a move kind twice")
            if not phase.ends.strip():
                raise PhaseTableError(f"{where}: say what ends it (ends=...)")
            if phase.epoch is not None and not phase.simultaneous:
                raise PhaseTableError(f"{where}: only a simultaneous phase has an epoch")
            if phase.ordered and phase.generate is None:
                raise PhaseTableError(f"{where}: `ordered` describes the phase's generator")
        if not any(phase.over for phase in self.phases):
            raise PhaseTableError("the table has no end phase: a game must be able to finish")

    def _check_flow(self) -> None:
        if not self.start:
            raise PhaseTableError("name the phases setup may leave a game in (start=...)")
        for name in self.start:
            if name not in self._by_name:
                raise PhaseTableError(f"start phase {name!r} is no phase")
        reached = _reachable(self.start, self._by_name)
        unreachable = [p.name for p in self.phases if p.name not in reached]
        if unreachable:
            raise PhaseTableError(f"no flow from the start reaches the phases {unreachable}")
        for phase in self.phases:
            if not any(self._by_name[n].over for n in _reachable((phase.name,), self._by_name)):
                raise PhaseTableError(f"phase {phase.name!r} can never lead to an end phase")

    def __getitem__(self, name: str) -> Phase[StateT]:
        return self._by_name[name]

    def __contains__(self, name: object) -> bool:
        return name in self._by_name

    def current(self, state: StateT) -> Phase[StateT]:
        """The phase ``state`` is in; PhaseTransitionError if the table has no such phase."""
        phase = self.phase_by_key.get(self.phase_key(state))
        if phase is None:
            name = self.phase_of(state)
            raise PhaseTransitionError(f"the state is in phase {name!r}, which the table lacks")
        return phase

    def allows(self, before: str, after: str) -> bool:
        """Whether a move played in phase ``before`` may leave the game in ``after``."""
        return before == after or after in self._by_name[before].follows

    @property
    def move_kinds(self) -> frozenset[str]:
        """Every move kind some phase allows."""
        return frozenset(kind for phase in self.phases for kind in phase.moves)

    @property
    def has_simultaneous(self) -> bool:
        return any(phase.simultaneous for phase in self.phases)

    def describe(self) -> str:
        """The table as Markdown (docs, ``--help`` texts, reviews)."""
        lines = [
            "| phase | who acts | moves | ends when | then |",
            "|---|---|---|---|---|",
        ]
        for phase in self.phases:
            moves = ", ".join(phase.moves) or "-"
            follows = ", ".join(phase.follows) or "-"
            lines.append(
                f"| {phase.name} | {phase.kind.value} | {moves} | {phase.ends} | {follows} |"
            )
        return "\n".join(lines)


def _reachable(start: Iterable[str], by_name: Mapping[str, Phase[StateT]]) -> set[str]:
    seen = set(start)
    queue = deque(seen)
    while queue:
        for target in by_name[queue.popleft()].follows:
            if target not in seen:
                seen.add(target)
                queue.append(target)
    return seen


@dataclass(frozen=True)
class MoveKind(Generic[StateT, MoveT, EventT]):
    """One kind of move: how to list every legal one, and what playing one does.

    ``name`` is the field of the move message's oneof that carries this kind (for
    a move message without a oneof, the game's only kind, any name).

    Legality is written once, in ``generate`` (or the phase's generator): the
    kit accepts a move exactly when it equals a move the enumeration lists (for
    the seat, in the current state).
    ``narrow``, if given, lists only the legal moves that *could* equal the move
    being checked (e.g. those of its region); it must be the generator restricted
    (a subset of ``generate``'s moves that includes every listed move equal to the
    one asked about). ``explain`` says why an unlisted move is illegal.
    ``member``, if given, answers the membership test at once, instead of
    ``narrow`` or the generators: the enumeration's own copy of the move (equal
    to it), or None when the enumeration does not list it. It is handed what
    ``check_move`` returned for the move (e.g. the move parsed, so that it is not
    read twice). ``kit.checks.narrowing_problems`` proves it is exactly
    membership in the enumeration, as it does for ``narrow``.
    """

    name: str
    play: Callable[[StateT, Seat, MoveT, list[EventT]], None]
    """Carry out a legal move on ``state`` (a fresh copy, changed in place),
    appending the events it causes."""
    generate: Callable[[StateT, Seat], Iterable[MoveT]] | None = None
    """Every legal move of this kind; None only when every phase allowing the
    kind has its own generator."""
    narrow: Callable[[StateT, Seat, MoveT], Iterable[MoveT]] | None = None
    explain: Callable[[StateT, Seat, MoveT], str] | None = None
    ordered: bool = False
    """``generate`` yields its moves already in ascending ``move_key`` order (then
    the kit merges instead of sorting, and a phase with this one kind hands the
    generator's Sequence out as it is: lazy sequences stay lazy). The
    conformance suite's check 5 catches a generator that breaks the promise."""
    member: Callable[[StateT, Seat, MoveT, Any], MoveT | None] | None = None
    """Membership answered by the game (see above): (state, seat, move, what
    ``check_move`` returned) -> the listed move equal to ``move``, or None."""
