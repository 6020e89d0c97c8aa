"""Derived data of recent states, owned by one engine object (never the module).

The movement phase is most of a game's decisions, and each asks the same
question twice: ``legal_moves`` lists the seat's moves, then the checked
``apply`` asks whether the move chosen is among them. ``Derived`` keeps the
listing of the last few states asked about, keyed by the state's bytes and the
seat, so that the membership test is a set lookup instead of a second look at
the field; the placement and the attack phase are listed the same way. Every
answer depends on the state alone (the same bytes, the same listing), so the
engine stays pure: same input, same output, and one object may serve any
number of games. ``kit.checks.narrowing_problems`` proves the ``member`` hooks
answer exactly membership in the enumeration (the conformance suite and
tests/games/kill_the_king/test_derived.py run it).

After a free rotation the next listing is derived from the one before
(:func:`after_free_rotation`); with ``verify`` every listing read from the
memo is listed again from scratch and compared (test_derived.py plays random
games of every mode that way).

:func:`definition_with` binds a definition to one ``Derived``: the listed
phases' generators and the ``member`` of their move kinds read it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

from throneroom.v1 import kill_the_king_pb2 as pb

from throneroom_server.games.kill_the_king import climbing, combat, movement, setup, turns
from throneroom_server.games.kill_the_king import state as st
from throneroom_server.games.kill_the_king.keys import (
    END_PHASE,
    ROTATE,
    Key,
    LazyMoves,
    move_key,
)
from throneroom_server.games.kit import GameDefinition, MoveKind

State = pb.KillTheKingState
Move = pb.KillTheKingMove
Event = pb.KillTheKingEvent
MOVEMENT = pb.KillTheKingState.PHASE_MOVEMENT

ENGINES = frozenset({pb.UNIT_TYPE_BATTERING_RAM, pb.UNIT_TYPE_SIEGE_TOWER})
"""Units that carry a crew (which turns with them)."""
PLACEMENT = pb.KillTheKingState.PHASE_PLACEMENT
ATTACK = pb.KillTheKingState.PHASE_ATTACK
LISTED_PHASES = frozenset({MOVEMENT, PLACEMENT, ATTACK})
LISTED_PHASE_NAMES = frozenset({"movement", "placement", "attack"})
MEMO_KINDS = frozenset(
    {"step", "rotate", "climb", "prepare_climb", "dismount", "end_phase", "place", "attack"}
)
"""The kinds of the phases listed through the memo (movement, placement,
attack), whose membership the memo's listing answers."""


def movement_keys(state: State, seat: int) -> list[Key]:
    """The movement phase's moves at once (one look at the field), ascending."""
    scene = movement.Scene(state)
    keys = [*movement.movement_keys(scene, seat), *climbing.both_climb_keys(scene, seat)]
    if next(turns.end_phase_moves(state, seat), None) is not None:
        keys.append((END_PHASE,))
    keys.sort()
    return keys


Listing = tuple[list[Key], frozenset[Key]]


def listed_keys(state: State, seat: int) -> list[Key]:
    """The keys of the phase's listing from scratch: the movement phase's or
    the placement's (the two phases listed at once)."""
    if state.phase == PLACEMENT:
        return setup.placement_moves(state, seat).keys
    if state.phase == ATTACK:
        keys = combat.attack_keys(state, st.field(state), seat)
        if next(turns.end_phase_moves(state, seat), None) is not None:
            keys.append((END_PHASE,))
        keys.sort()
        return keys
    return movement_keys(state, seat)


class Derived:
    """The movement listings of the last states asked about (at most ``limit``),
    by (state bytes, seat): each the ascending keys and their set.

    A free rotation changes nothing the listing reads but the unit's own facing
    and ``rotated`` flag (see :func:`after_free_rotation`), so the listing after
    it is the one before without that unit's rotations: stored at once, it
    spares the next ``legal_moves`` a look at the field. With ``verify``, every
    listing taken from the memo is listed again from scratch and compared (the
    tests play many random games that way)."""

    __slots__ = ("_listings", "limit", "verify")

    def __init__(self, limit: int = 8, *, verify: bool = False) -> None:
        self._listings: dict[tuple[bytes, int], Listing] = {}
        self.limit = limit
        self.verify = verify

    def listing(self, state: State, seat: int) -> Listing:
        """The movement phase's keys for ``seat`` at ``state`` (listed once)."""
        memo_key = (state.SerializeToString(), seat)
        found = self._listings.get(memo_key)
        if found is None:
            keys = listed_keys(state, seat)
            found = (keys, frozenset(keys))
            self._store(memo_key, found)
        elif self.verify:
            fresh = listed_keys(state, seat)
            assert fresh == found[0], f"memo {found[0]} != listed {fresh}"
        return found

    def _store(self, memo_key: tuple[bytes, int], found: Listing) -> None:
        if len(self._listings) >= self.limit:
            self._listings.clear()
        self._listings[memo_key] = found

    def known(self, state: State, seat: int) -> list[Key] | None:
        """The memo's keys for ``seat`` at ``state``, if it holds them."""
        found = self._listings.get((state.SerializeToString(), seat))
        return found[0] if found is not None else None

    def rotated(self, state: State, seat: int, before: list[Key], uid: int) -> None:
        """``state`` is a state whose listing for ``seat`` was ``before`` after
        a free rotation of unit ``uid`` that changed nothing else (checked by
        :func:`after_free_rotation`): its listing is ``before`` without the
        unit's rotations."""
        keys = [k for k in before if k[0] != ROTATE or k[1] != uid]
        self._store((state.SerializeToString(), seat), (keys, frozenset(keys)))

    def moves(self, state: State, seat: int) -> LazyMoves:
        """The movement phase's or the placement's moves, from the memo."""
        return LazyMoves(self.listing(state, seat)[0])

    def member(self, state: State, seat: int, move: Move, key: Key) -> Move | None:
        """The listed move equal to ``move`` in the movement phase or the
        placement, or None."""
        if key not in self.listing(state, seat)[1]:
            return None
        listed = LazyMoves.from_key(key)
        return listed if listed == move else None

    def __len__(self) -> int:
        return len(self._listings)


Play = Callable[[State, int, Move, list[Event]], None]


def after_free_rotation(play: Play, derived: Derived) -> Play:
    """The rotation's effect; after a free one that changed nothing but the
    unit's facing and ``rotated`` flag (its one event, the movement phase
    still on; not an engine, whose crew turns with it, nor a crew), the next
    listing is derived from the one before (:meth:`Derived.rotated`). No
    listing reads a unit's facing except a Flaming Pig's (which never turns)
    and a Siege Tower's (left out); climbing attacks do not depend on facing."""

    def played(state: State, seat: int, move: Move, events: list[Event]) -> None:
        before = derived.known(state, seat) if state.phase == MOVEMENT else None
        start = len(events)
        play(state, seat, move, events)
        if before is None or len(events) != start + 1 or state.phase != MOVEMENT:
            return
        event = events[start]
        if event.WhichOneof("kind") != "rotated" or event.rotated.cost != 0:
            return
        u = state.units[move.rotate.unit]
        if u.carried_by >= 0 or u.type in ENGINES:
            return
        derived.rotated(state, seat, before, u.id)

    return played


def definition_with(definition: GameDefinition[Any, Any, Any, Any, Any], derived: Derived) -> Any:
    """``definition`` with its movement phase listed through ``derived`` and the
    movement kinds' membership answered by it (elsewhere, e.g. ``end_phase`` in
    the attack phase, the kind's own narrowing as before)."""
    check = definition.check_move

    def check_move(state: State, move: Move) -> Key:
        """The engine's checks, then the move's key (handed to ``member``)."""
        if check is not None:
            check(state, move)
        return move_key(move)

    def bound(kind: MoveKind[State, Move, Event]) -> MoveKind[State, Move, Event]:
        if kind.name not in MEMO_KINDS:
            return kind
        play = after_free_rotation(kind.play, derived) if kind.name == "rotate" else kind.play
        narrow = kind.narrow
        generate = kind.generate

        def member(state: State, seat: int, move: Move, key: Key) -> Move | None:
            if state.phase in LISTED_PHASES:
                return derived.member(state, seat, move, key)
            candidates = narrow(state, seat, move) if narrow is not None else generate(state, seat)  # type: ignore[misc]
            return next((c for c in candidates if c == move), None)

        return dataclasses.replace(kind, member=member, play=play)

    phases = definition.phases
    table = dataclasses.replace(
        phases,
        phases=tuple(
            dataclasses.replace(p, generate=derived.moves, ordered=True)
            if p.name in LISTED_PHASE_NAMES
            else p
            for p in phases.phases
        ),
    )
    return dataclasses.replace(
        definition,
        phases=table,
        moves=tuple(bound(kind) for kind in definition.moves),
        check_move=check_move,
    )
