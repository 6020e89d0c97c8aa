"""Legality written once: each decision is a tree of choices, read two ways.

A decision (a Play, a Pass, an answer to the Queen ...) is built choice by
choice: which card, then which target, then which seat to support ... Each
``Pick`` names the move's part it decides (``read``), the values worth trying
(``domain``), the rules a value must satisfy (each a predicate with the
sentence that explains a refusal), and what follows a value (``then``: the
next Pick, or the finished move).

* ``moves(tree)`` walks every branch: the legal moves (the kit's generator of
  the move kind), each finished move built only when it is read.
* ``walk(tree, move)`` walks the one branch the move takes: the legal move
  made of the same choices (the kit's ``narrow``: the kit compares it with the
  move given), else the sentence of the first rule a choice breaks;
  ``refusal(tree, move)`` is that sentence (the kit's ``explain``).

Both walks test the same predicate at every Pick -- the value is in the
domain and every rule allows it -- so ``walk`` reaches a move equal to the
one given exactly when ``moves`` produces it. There is no second copy of any
rule to drift apart.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from itertools import repeat
from typing import Any, Generic, TypeVar, cast, overload

from throneroom.v1 import kings_life_pb2 as pb

T = TypeVar("T")
Move = pb.KingsLifeMove


# Rule and Pick are built afresh for every legal_moves / apply call, so they
# are plain slotted dataclasses (a frozen one's __init__ costs ~10% of random
# play); nothing mutates them.


@dataclass(slots=True)
class Rule(Generic[T]):
    """A condition on one choice, with the sentence that explains a refusal."""

    allows: Callable[[T], bool]
    refusal: Callable[[T], str]


@dataclass(slots=True)
class Pick(Generic[T]):
    """One choice of a decision."""

    read: Callable[[Move], T]
    """The value the given move chose here."""
    domain: Sequence[T]
    """Every value worth trying, in ``move_key`` order (enumeration walks it,
    and the engine's legal moves come out sorted without a sort)."""
    outside: Callable[[T], str]
    """Why a value outside the domain is refused."""
    then: Callable[[T], Node]
    """What follows the chosen value: the next Pick or the finished move."""
    rules: Sequence[Rule[T]] = ()
    leaf: bool = False
    """``then`` makes a finished move of every value, from the value and what
    the tree captured when it was built (never reading the state later): the
    enumeration then builds a listed move only when it is read."""

    def refusal(self, value: T) -> str | None:
        """None when ``value`` is a legal choice, else the sentence saying why not."""
        if value not in self.domain:
            return self.outside(value)
        for rule in self.rules:
            if not rule.allows(value):
                return rule.refusal(value)
        return None


Node = Pick[Any] | Move
"""A decision tree: a Pick, or a finished (legal) move."""


def done(move: Move) -> Node:
    return move


def moves(*trees: Node) -> TreeMoves:
    """Every legal move of the trees, tree by tree, in domain order (trees
    list their domains in ``move_key`` order, so the result is sorted)."""
    thens: list[Callable[[Any], Move]] = []
    values: list[Any] = []
    for tree in trees:
        if isinstance(tree, Move):
            thens.append(_built)
            values.append(tree)
        else:
            _collect(tree, thens, values)
    return TreeMoves(thens, values)


def _built(move: Move) -> Move:
    return move


def _collect(pick: Pick[Any], thens: list[Callable[[Any], Move]], values: list[Any]) -> None:
    rules = [rule.allows for rule in pick.rules]
    then = pick.then
    if pick.leaf:  # then makes a Move of every value (the Pick's promise)
        start = len(values)
        for value in pick.domain:
            for allows in rules:
                if not allows(value):
                    break
            else:
                values.append(value)
        thens.extend(repeat(cast("Callable[[Any], Move]", then), len(values) - start))
        return
    for value in pick.domain:
        for allows in rules:
            if not allows(value):
                break
        else:
            node = then(value)
            if isinstance(node, Move):
                thens.append(_built)
                values.append(node)
            else:
                _collect(node, thens, values)


class TreeMoves(Sequence[Move]):
    """The legal moves of decision trees, in order; a leaf's move is built
    when it is read (a bot reads one of them, the kit's checked apply walks
    the tree again), each read building an equal message."""

    __slots__ = ("_thens", "_values")

    def __init__(self, thens: list[Callable[[Any], Move]], values: list[Any]) -> None:
        self._thens = thens
        self._values = values

    def __len__(self) -> int:
        return len(self._values)

    @overload
    def __getitem__(self, index: int) -> Move: ...

    @overload
    def __getitem__(self, index: slice) -> list[Move]: ...

    def __getitem__(self, index: int | slice) -> Move | list[Move]:
        if isinstance(index, slice):
            return list(map(_build, self._thens[index], self._values[index]))
        return self._thens[index](self._values[index])

    def __iter__(self) -> Iterator[Move]:
        return map(_build, self._thens, self._values)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, TreeMoves | list | tuple):
            return len(other) == len(self) and all(a == b for a, b in zip(self, other, strict=True))
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"TreeMoves({list(self)!r})"


def _build(then: Callable[[Any], Move], value: Any) -> Move:
    return then(value)


NOT_SPELLED = "no legal decision is spelled like this one"
"""Why a move is refused whose every choice is legal, yet which is not the
move those choices make (a field the tree does not read is set)."""


def walk(tree: Node, move: Move) -> Move | str:
    """Follow the branch ``move`` takes: the move the tree makes from the same
    choices (the only legal move that can equal ``move``; equal to it exactly
    when ``moves(tree)`` produces ``move``), or the sentence of the first rule
    a choice breaks."""
    node = tree
    while not isinstance(node, Move):
        value = node.read(move)
        why = node.refusal(value)
        if why is not None:
            return why
        node = node.then(value)
    return node


def refusal(tree: Node, move: Move) -> str | None:
    """Why ``moves(tree)`` does not produce ``move`` (None: it does)."""
    found = walk(tree, move)
    if isinstance(found, str):
        return found
    return None if found == move else NOT_SPELLED
