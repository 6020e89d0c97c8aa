"""The fast part of a definition: engine-owned memos and the speed promises.

A game may declare, in its definition's ``fast`` (:class:`Fast`), a ``memo``:
a factory of one memo for one engine object (listings of recent states, a
search's tables). Every function of the definition that reads it is declared
where it belongs (a phase's ``generate``, a kind's ``play``, ``member``,
``narrow``, ``explain`` or ``generate``, the definition's ``check_move``) as
``memoized(function)``, the function taking the memo first. An engine binds
each to its own memo (:func:`bound`: one bound method per function, which
the interpreter calls as it calls the function itself; a ``functools.partial``
for a declared partial),
so the definition a game exports is the one its engine runs, and the engine
stays pure: a memo only saves work (the same state, the same answer), and one
object may serve any number of games.

The speed promises (``check_move_refuses_enums``, ``kind_of_checked``,
``seat_view``) live here too; ``kit.checks`` proves each over real states.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from types import FunctionType, MethodType
from typing import Any, Concatenate, Generic, ParamSpec, TypeVar

from google.protobuf.message import Message

from throneroom_server.games.core import Seat

P = ParamSpec("P")
R = TypeVar("R")
StateT = TypeVar("StateT", bound=Message)
ViewT = TypeVar("ViewT", bound=Message)
DefinitionT = TypeVar("DefinitionT")
"""A ``GameDefinition`` (not imported: definition.py imports this module)."""


class Memoized(Generic[P, R]):
    """A function of the definition that reads the engine's memo (its first
    argument); see :func:`memoized`. Only an engine calls it, bound to its memo."""

    __slots__ = ("function",)

    def __init__(self, function: Callable[Concatenate[Any, P], R]) -> None:
        self.function = function

    def __call__(self, *args: P.args, **kwargs: P.kwargs) -> R:
        name = getattr(self.function, "__qualname__", repr(self.function))
        raise TypeError(f"{name} reads an engine's memo: call it through the engine")

    def __repr__(self) -> str:
        return f"memoized({getattr(self.function, '__qualname__', self.function)!r})"


def memoized(function: Callable[Concatenate[Any, P], R]) -> Callable[P, R]:
    """Declares ``function`` (the memo first, then the arguments of the place it
    is declared in) as reading the engine's memo (``Fast.memo``)."""
    return Memoized(function)


@dataclass(frozen=True)
class Fast(Generic[StateT, ViewT]):
    """What a definition declares for speed alone: the engine's memo and the
    promises its fast paths rely on (each proved by ``kit.checks``)."""

    memo: Callable[[], object] | None = None
    """A fresh memo for one engine (each engine object makes its own); None: the
    definition reads none (and declares no ``memoized`` function)."""
    check_move_refuses_enums: bool = False
    """``check_move`` raises InvalidMoveError for every move holding an enum value
    its enum does not declare (at any depth), so the kit skips its own walk for
    them. A promise: ``kit.checks.enum_refusal_problems`` proves it over states
    (tests/games/test_kit_fast_paths.py runs it for every game that makes it)."""
    kind_of_checked: Callable[[Any], str] | None = None
    """The name of the move's kind (its field of the kinds' oneof) from what
    ``check_move`` returned, when that holds it (e.g. the move parsed with its
    kind): the checked apply takes the kind from it instead of reading the oneof
    again. A promise: ``kit.checks.narrowing_problems`` proves it names the field
    the move sets, for every move it asks about that ``check_move`` lets through."""
    seat_view: Callable[[StateT, Seat, ViewT], None] | None = None
    """Turns a spectator's view of a state (``view(state, None)``) into
    ``seat``'s (``view(state, seat)``), in place, only adding: applied to an
    empty view it gives what the seat sees beyond a spectator, and that merged
    into the spectator's view (protobuf's merge: scalars set, repeated entries
    appended) is the seat's, so the service sends a seat the shared part's
    bytes followed by its own; and it sets no message field that the
    spectator's view holds (a parser that does not merge would lose the
    spectator's part: snapshots.py). The service then builds the part every
    viewer shares once per version. A promise: ``kit.checks.seat_view_problems``
    proves it over states (tests/games/test_kit_fast_paths.py runs it for every
    game that makes it)."""


def memoized_functions(definition: Any) -> list[str]:
    """Where ``definition`` declares a ``memoized`` function (for the build check)."""
    found = ["check_move"] if isinstance(definition.check_move, Memoized) else []
    for phase in definition.phases.phases:
        if isinstance(phase.generate, Memoized):
            found.append(f"phase {phase.name}: generate")
    for kind in definition.moves:
        found.extend(
            f"kind {kind.name}: {name}"
            for name in _KIND_FIELDS
            if isinstance(getattr(kind, name), Memoized)
        )
    return found


_KIND_FIELDS = ("play", "generate", "narrow", "explain", "member")


def bound(definition: DefinitionT, memo: object) -> DefinitionT:
    """``definition`` with each ``memoized`` function bound to ``memo`` (the same
    function bound once, so that functions shared by phases stay one object),
    the definition itself when it declares none."""
    if not memoized_functions(definition):
        return definition
    declared: Any = definition
    binds: dict[int, Callable[..., Any]] = {}

    def bind(function: Any) -> Any:
        if not isinstance(function, Memoized):
            return function
        found = binds.get(id(function))
        if found is None:
            found = binds[id(function)] = _bound_to(function.function, memo)
        return found

    table = declared.phases
    phases = tuple(dataclasses.replace(p, generate=bind(p.generate)) for p in table.phases)
    moves = tuple(
        dataclasses.replace(kind, **{name: bind(getattr(kind, name)) for name in _KIND_FIELDS})
        for kind in declared.moves
    )
    running: DefinitionT = dataclasses.replace(
        declared,
        phases=dataclasses.replace(table, phases=phases),
        moves=moves,
        check_move=bind(declared.check_move),
    )
    return running


def _bound_to(function: Callable[..., Any], memo: object) -> Callable[..., Any]:
    """``function`` with ``memo`` as its first argument: a bound method for a
    plain function (a call the interpreter inlines, no C call in between),
    else a partial (one partial of a partial: ``functools`` flattens it)."""
    if type(function) is FunctionType:
        return MethodType(function, memo)
    return partial(function, memo)
