"""Legality written once: each decision is a tree of choices, read two ways.

A decision (a Play, a Pass, an answer to the Queen ...) is built choice by
choice: which card, then which target, then which seat to support ... Each
``Pick`` names the move's part it decides (``read``), the values worth trying
(``domain``), the rules a value must satisfy (each a predicate with the
sentence that explains a refusal), and what follows a value (``then``: the
next Pick, or the finished move).

* ``moves(tree)`` walks every branch: the legal moves (the kit's generator of
  the move kind).
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

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

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


def moves(tree: Node) -> list[Move]:
    """Every legal move of the tree, in domain order (trees list their domains
    in ``move_key`` order, so the result is sorted)."""
    if isinstance(tree, Move):
        return [tree]
    found: list[Move] = []
    _collect(tree, found)
    return found


def _collect(pick: Pick[Any], found: list[Move]) -> None:
    rules = [rule.allows for rule in pick.rules]
    then = pick.then
    for value in pick.domain:
        for allows in rules:
            if not allows(value):
                break
        else:
            node = then(value)
            if isinstance(node, Move):
                found.append(node)
            else:
                _collect(node, found)


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
