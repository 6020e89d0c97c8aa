"""Chance steps: every die, draw and shuffle of a game, listable and choosable.

DESIGN.md principle 12 ("chance is listable"). A game never asks its RNG for
a number directly: it asks :func:`draw` (one uniform pick among ``size``
outcomes, e.g. a d6 or one card of a deck) or :func:`shuffle`. Each such
call is one **chance step**: a :class:`ChanceStep` names it and lists its
outcomes with their probabilities (``ChanceStep.outcomes``).

Who picks the outcome is the :class:`Picker` of the call in progress:

* no picker (the default, how the service plays): the in-state RNG picks,
  exactly as ``Rng.below(size)`` always did, so the golden files stay byte for
  byte and the RNG advances identically; no ``ChanceStep`` is even built;
* :class:`Scripted`: the outcomes given, in order (exact tests, search, a
  research platform replaying a chance node's choice); when they run out, it
  raises :class:`ChanceNeeded` (or hands over to a ``then`` picker);
* :class:`RngPicker`: the in-state RNG, as an explicit picker (e.g. after a
  script); :class:`Sampled`: a seeded stream of its own samples the listed
  probabilities (search); :class:`Recorder` wraps any picker and keeps the
  steps and choices.

A picker is given to one call: ``Engine.setup(..., chance=picker)`` or
``Engine.apply(..., chance=picker)``; the engine installs it (a context
variable, reset when the call returns) for the draws the call makes. Engines
are pure, so a caller that meets ``ChanceNeeded`` learns the chance node (its
step, with the outcomes) and how many chance steps came before it in the call;
it chooses an outcome and calls again with that choice appended to the script
(the "replay prefix" protocol: ``explore`` below does it).

Shuffles are listed as a sequence of single draws, not as n! outcomes: the
Fisher-Yates shuffle the games always used, where step ``i`` (from the last
position down to the second) picks uniformly which of the ``i + 1`` items not
yet placed goes to position ``i``. Every permutation is reachable with
probability 1/n!, and each step's list stays small (at most n outcomes).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, MutableSequence, Sequence
from contextvars import ContextVar
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Generic, Protocol, TypeVar, cast

from throneroom.v1 import common_pb2

from throneroom_server.games.rng import Rng, seed_rng

_T = TypeVar("_T")
_R = TypeVar("_R")


@dataclass(frozen=True, slots=True)
class Outcome:
    """One outcome of a chance step: its index (what a picker returns), a
    label for people (a die face, a card) and its probability."""

    index: int
    label: str
    probability: Fraction


@dataclass(frozen=True, slots=True)
class ChanceStep:
    """One chance node: ``size`` equally likely outcomes (indexes 0..size-1).

    ``name`` says what is drawn, in the game's words (``"die:hit"``,
    ``"shuffle:deck"``); ``labels`` (optional) names each outcome for people
    (``"5"`` for a die's face 5, a card's notation for a draw)."""

    name: str
    size: int
    labels: tuple[str, ...] | None = None

    def __post_init__(self) -> None:
        if self.size < 1:
            raise ValueError(f"chance step {self.name!r} has no outcome (size {self.size})")
        if self.labels is not None and len(self.labels) != self.size:
            raise ValueError(
                f"chance step {self.name!r}: {len(self.labels)} labels for {self.size} outcomes"
            )

    @property
    def outcomes(self) -> tuple[Outcome, ...]:
        """Every outcome with its probability (they sum to exactly 1)."""
        p = Fraction(1, self.size)
        labels = self.labels
        return tuple(
            Outcome(i, labels[i] if labels is not None else str(i), p) for i in range(self.size)
        )

    def probability(self, index: int) -> Fraction:
        self.check(index)
        return Fraction(1, self.size)

    def check(self, index: int) -> int:
        """``index`` when it is one of the step's outcomes; else ValueError."""
        if not 0 <= index < self.size:
            raise ValueError(
                f"chance step {self.name!r} has outcomes 0..{self.size - 1}, not {index}"
            )
        return index


class ChanceNeeded(Exception):
    """A call reached a chance step its picker would not choose (a chance node).

    ``step`` lists the outcomes; ``position`` is how many chance steps the call
    made before it (the length of the script that reached it)."""

    def __init__(self, step: ChanceStep, position: int) -> None:
        super().__init__(f"chance step {step.name!r} ({step.size} outcomes) at {position}")
        self.step = step
        self.position = position


class Picker(Protocol):
    """Chooses the outcome of each chance step of one call."""

    def pick(self, step: ChanceStep, rng: Rng) -> int:
        """The index of the chosen outcome (``rng`` is the game's in-state RNG)."""
        ...


class RngPicker:
    """The in-state RNG picks (what happens with no picker at all)."""

    __slots__ = ()

    def pick(self, step: ChanceStep, rng: Rng) -> int:
        return rng.below(step.size)


@dataclass(slots=True)
class Scripted:
    """Picks the given outcome indexes in order; then ``then`` picks, or (None)
    :class:`ChanceNeeded` is raised at the first step beyond the script.

    A scripted pick does not advance the in-state RNG. ``used`` counts the
    script's entries taken so far; ``strict`` refuses a script left unused
    (see :meth:`done`)."""

    choices: Sequence[int]
    then: Picker | None = None
    used: int = 0

    def pick(self, step: ChanceStep, rng: Rng) -> int:
        if self.used < len(self.choices):
            index = step.check(self.choices[self.used])
            self.used += 1
            return index
        if self.then is None:
            raise ChanceNeeded(step, self.used)
        return self.then.pick(step, rng)

    def done(self) -> None:
        """Raise ValueError when part of the script was never drawn."""
        if self.used != len(self.choices):
            raise ValueError(f"{len(self.choices) - self.used} scripted outcome(s) never drawn")


@dataclass(slots=True)
class Recorder:
    """Wraps a picker (default: the RNG) and keeps each step and its choice."""

    inner: Picker = field(default_factory=RngPicker)
    steps: list[tuple[ChanceStep, int]] = field(default_factory=list)

    def pick(self, step: ChanceStep, rng: Rng) -> int:
        index = self.inner.pick(step, rng)
        self.steps.append((step, index))
        return index


class Sampled:
    """Samples each step's outcome by its listed probabilities with a PCG32
    stream of its own (seeded; the in-state RNG is not advanced): a search's
    sampled chance. Two pickers of one seed pick alike at like steps (common
    random numbers: the same dice for two candidate moves)."""

    __slots__ = ("_rng",)

    def __init__(self, seed: int) -> None:
        msg = common_pb2.RngState()
        seed_rng(msg, seed)
        self._rng = Rng(msg)

    def pick(self, step: ChanceStep, rng: Rng) -> int:
        outcomes = step.outcomes
        scale = math.lcm(*(o.probability.denominator for o in outcomes))
        point = self._rng.below(scale)
        for outcome in outcomes:
            point -= outcome.probability.numerator * (scale // outcome.probability.denominator)
            if point < 0:
                return outcome.index
        return outcomes[-1].index  # unreachable: the probabilities sum to 1


_ACTIVE: ContextVar[Picker | None] = ContextVar("throneroom_chance_picker", default=None)


def draw(
    rng: Rng,
    name: str,
    size: int,
    labels: Callable[[], tuple[str, ...]] | None = None,
) -> int:
    """One chance step: a uniform index in [0, size), chosen by the call's picker
    (the in-state RNG by default, as ``rng.below(size)``). ``labels`` builds the
    outcomes' labels, only when a picker asks."""
    picker = _ACTIVE.get()
    if picker is None:
        return rng.below(size)
    return picker.pick(ChanceStep(name, size, labels() if labels is not None else None), rng)


def shuffle(
    rng: Rng,
    items: MutableSequence[_T],
    name: str,
    label: Callable[[_T], str] = str,
) -> None:
    """Shuffle ``items`` in place as ``len(items) - 1`` chance steps (Fisher-Yates:
    the step for position ``i`` picks which of ``items[0..i]`` goes there), the
    same draws as ``Rng.shuffle`` by default."""
    picker = _ACTIVE.get()
    for i in range(len(items) - 1, 0, -1):
        if picker is None:
            j = rng.below(i + 1)
        else:
            step = ChanceStep(name, i + 1, tuple(label(item) for item in items[: i + 1]))
            j = picker.pick(step, rng)
        items[i], items[j] = items[j], items[i]


def arrangement(items: Sequence[_T], wanted: Sequence[_T]) -> list[int]:
    """The outcomes of :func:`shuffle`'s steps that turn ``items`` into ``wanted``
    (a permutation of it): a script choosing a deal, e.g. ``Scripted(arrangement(
    deck, my_deck))``."""
    rest = list(items)
    if sorted(map(repr, rest)) != sorted(map(repr, wanted)):
        raise ValueError("wanted is not a permutation of items")
    script = []
    for i in range(len(rest) - 1, 0, -1):
        j = rest.index(wanted[i], 0, i + 1)
        script.append(j)
        rest[i], rest[j] = rest[j], rest[i]
    return script


def choice(rng: Rng, items: Sequence[_T], name: str, label: Callable[[_T], str] = str) -> _T:
    """One uniformly drawn item of ``items`` (one chance step)."""
    return items[draw(rng, name, len(items), lambda: tuple(label(item) for item in items))]


def with_picker(picker: Picker | None, call: Callable[[], _R]) -> _R:
    """``call()`` with ``picker`` choosing its chance steps (None: the RNG)."""
    if picker is None:
        return call()
    token = _ACTIVE.set(picker)
    try:
        return call()
    finally:
        _ACTIVE.reset(token)


@dataclass(frozen=True, slots=True)
class Explored(Generic[_R]):
    """Where a call with a script ended: its ``result`` (every chance step
    chosen), or the next chance node (``step``) after the script."""

    result: _R | None
    step: ChanceStep | None


def explore(call: Callable[[Picker], _R], script: Iterable[int] = ()) -> Explored[_R]:
    """Run ``call(picker)`` with the outcomes of ``script``; stop at the next
    chance node. E.g. ``explore(lambda c: engine.apply(s, seat, m, chance=c), [4])``."""
    picker = Scripted(tuple(script))
    try:
        result = call(picker)
    except ChanceNeeded as need:
        return Explored(None, need.step)
    picker.done()
    return Explored(result, None)


def outcome_tree(
    call: Callable[[Picker], _R], limit: int = 10_000
) -> list[tuple[tuple[int, ...], Fraction, _R]]:
    """Every complete sequence of chance outcomes of ``call``, with its
    probability and the call's result (depth first, in outcome order); raises
    ValueError past ``limit`` leaves (e.g. a shuffle of a whole deck)."""
    leaves: list[tuple[tuple[int, ...], Fraction, _R]] = []
    pending: list[tuple[tuple[int, ...], Fraction]] = [((), Fraction(1))]
    while pending:
        script, p = pending.pop()
        found = explore(call, script)
        if found.step is None:
            leaves.append((script, p, cast(_R, found.result)))
            if len(leaves) > limit:
                raise ValueError(f"more than {limit} chance outcomes")
            continue
        step = found.step
        for outcome in reversed(step.outcomes):
            pending.append(((*script, outcome.index), p * outcome.probability))
    return leaves
