"""Derived data of recent states, owned by one engine object (never the module).

The movement phase is most of a game's decisions, and each asks the same
question twice: ``legal_moves`` lists the seat's moves, then the checked
``apply`` asks whether the move chosen is among them. ``Derived`` keeps the
listing of the last few states asked about, keyed by the state's bytes and the
seat, so that the membership test is a binary search of its ascending keys
instead of a second look at the field; the placement and the attack phase
are listed the same way. Every
answer depends on the state alone (the same bytes, the same listing), so the
engine stays pure: same input, same output, and one object may serve any
number of games. ``kit.checks.narrowing_problems`` proves the ``member`` hooks
answer exactly membership in the enumeration (the conformance suite and
tests/games/kill_the_king/test_derived.py run it).

After a free rotation the next listing is derived from the one before
(:func:`rotate`), and after a step whose only event is the step
itself too (:func:`step`, :func:`.listing.after_step`: only the
units within reach of the step's two squares are listed again); the step's
effect reads the field the listing kept. With ``verify`` every listing read
from the memo is listed again from scratch and compared, field included, and
the step's target read from the kept field is compared with a fresh read
(test_derived.py plays random games of every mode that way).

The definition (engine.py) declares what reads the memo (``kit.fast``): the
listed phases' generator (:meth:`Derived.moves`), the ``member`` of their move kinds
(:func:`member`) and the effects of ``rotate``, ``climb``, ``dismount`` and
``step`` (:func:`rotate`, :func:`plain_move`, :func:`step`); each engine
object binds them to its own ``Derived``.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable, Iterable
from typing import NamedTuple

from throneroom.v1 import kill_the_king_pb2 as pb

from throneroom_server.games.kill_the_king import (
    climbing,
    combat,
    grid,
    listing,
    movement,
    pigs,
    setup,
    turns,
)
from throneroom_server.games.kill_the_king import state as st
from throneroom_server.games.kill_the_king.keys import (
    END_PHASE,
    ROTATE,
    Key,
    LazyMoves,
)

State = pb.KillTheKingState
Move = pb.KillTheKingMove
Event = pb.KillTheKingEvent
MOVEMENT = pb.KillTheKingState.PHASE_MOVEMENT
PIG = pb.UNIT_TYPE_FLAMING_PIGS
TOWER = pb.UNIT_TYPE_SIEGE_TOWER

ENGINES = frozenset({pb.UNIT_TYPE_BATTERING_RAM, pb.UNIT_TYPE_SIEGE_TOWER})
"""Units that carry a crew (which turns with them)."""
PLACEMENT = pb.KillTheKingState.PHASE_PLACEMENT
ATTACK = pb.KillTheKingState.PHASE_ATTACK
LISTED_PHASES = frozenset({MOVEMENT, PLACEMENT, ATTACK})


def movement_keys(state: State, seat: int) -> list[Key]:
    """The movement phase's moves at once (one look at the field), ascending
    (:func:`.listing.movement_keys`; while a Siege Tower carries a crew,
    :func:`reference_keys`)."""
    keys = listing.movement_keys(state, seat)
    return keys if keys is not None else reference_keys(state, seat)


def reference_keys(state: State, seat: int) -> list[Key]:
    """The movement listing as the rules' modules give it, kind by kind (the
    reference :mod:`.listing` is tested against)."""
    scene = movement.Scene(state)
    keys = [*movement.movement_keys(scene, seat), *climbing.both_climb_keys(scene, seat)]
    if next(turns.end_phase_moves(state, seat), None) is not None:
        keys.append((END_PHASE,))
    keys.sort()
    return keys


class Listing(NamedTuple):
    """A listing kept by the memo: the ascending keys and, for the movement
    phase, the field as plain data when a step may derive the next
    listing from it (:func:`.listing.after_step`)."""

    keys: list[Key]
    plain: listing.Plain | None = None


def listed_keys(state: State, seat: int) -> list[Key]:
    """The keys of the phase's listing from scratch (see :func:`listed`)."""
    return listed(state, seat).keys


def listed(state: State, seat: int) -> Listing:
    """The phase's listing from scratch: the movement phase's, the placement's
    or the attack phase's (the phases listed at once)."""
    if state.phase == PLACEMENT:
        keys = setup.placement_moves(state, seat).keys
        return Listing(keys)
    if state.phase == ATTACK:
        keys = combat.attack_keys(state, st.field(state), seat)
        if next(turns.end_phase_moves(state, seat), None) is not None:
            keys.append((END_PHASE,))
        keys.sort()
        return Listing(keys)
    found = listing.plain_listing(state, seat)
    if found is None:
        keys = reference_keys(state, seat)
        return Listing(keys)
    keys, plain = found
    return Listing(keys, plain)


class Derived:
    """The movement listings of the last states asked about (at most ``limit``),
    by (state bytes, seat): each the ascending keys and (movement) the field
    as plain data.

    A free rotation changes nothing the listing reads but the unit's own facing
    and ``rotated`` flag (see :func:`rotate`), so the listing after
    it is the one before without that unit's rotations: stored at once, it
    spares the next ``legal_moves`` a look at the field. A plain step changes
    what the listing reads only near its two squares (:meth:`stepped`). With
    ``verify``, every listing taken from the memo is listed again from scratch
    and compared (the tests play many random games that way)."""

    __slots__ = ("_checked", "_listings", "limit", "verify")

    def __init__(self, limit: int = 8, *, verify: bool = False) -> None:
        self._listings: dict[tuple[bytes, int], Listing] = {}
        self._checked: tuple[int, Listing] | None = None
        self.limit = limit
        self.verify = verify

    def listing(self, state: State, seat: int) -> Listing:
        """The movement phase's keys for ``seat`` at ``state`` (listed once)."""
        memo_key = (state.SerializeToString(), seat)
        found = self._listings.get(memo_key)
        if found is None:
            found = listed(state, seat)
            self._store(memo_key, found)
        elif self.verify:
            fresh = listed(state, seat)
            assert fresh.keys == found.keys, f"memo {found.keys} != listed {fresh.keys}"
            assert fresh.plain == found.plain, f"memo {found.plain} != {fresh.plain}"
        return found

    def _store(self, memo_key: tuple[bytes, int], found: Listing) -> None:
        if len(self._listings) >= self.limit:
            self._listings.clear()
        self._listings[memo_key] = found

    def known(self, state: State, seat: int) -> Listing | None:
        """The memo's listing for ``seat`` at ``state``, if it holds it."""
        return self._listings.get((state.SerializeToString(), seat))

    def checked(self, state: State, seat: int) -> Listing | None:
        """The listing for ``seat`` at ``state`` that the membership test of
        the move being played read, taken once (the checked apply plays a
        move right after its ``member``, on a copy of the same state:
        ``kit.engine.Engine.apply``), which spares serializing the state
        again; without one, the memo's (:meth:`known`). With ``verify``, the
        listing taken is compared with one made from scratch."""
        taken, self._checked = self._checked, None
        if taken is None or taken[0] != seat:
            return self.known(state, seat)
        if self.verify:
            fresh = listed(state, seat)
            assert fresh.keys == taken[1].keys, f"checked {taken[1].keys} != {fresh.keys}"
        return taken[1]

    def rotated(self, state: State, seat: int, before: Listing, uid: int) -> None:
        """``state`` is a state whose listing for ``seat`` was ``before`` after
        a free rotation of unit ``uid`` that changed nothing else (checked by
        :func:`rotate`): its listing is ``before`` without the
        unit's rotations (a slice of the ascending keys)."""
        keys, plain = before
        start = bisect_left(keys, (ROTATE, uid))
        end = bisect_left(keys, (ROTATE, uid + 1), start)
        if plain is not None:  # turned: not again before another move (KK-31)
            plain = plain._replace(turned=tuple(sorted((*plain.turned, uid))))
        found = Listing(keys[:start] + keys[end:], plain)
        self._store((state.SerializeToString(), seat), found)

    def stepped(
        self, state: State, seat: int, before: Listing, *, uid: int, origin: int, active: int
    ) -> bool:
        """``state`` is a state whose listing for ``seat`` was ``before`` (with
        its plain field) after a step of unit ``uid`` from position ``origin``
        whose only event was the step (checked by :func:`step`),
        ``active`` the unit active before it: its listing is derived
        (:func:`.listing.after_step`) when it can be. Returns whether it was."""
        assert before.plain is not None
        found = listing.after_step(
            state, seat, before.keys, before.plain, uid=uid, origin=origin, active=active
        )
        if found is None:
            return False
        keys, plain = found
        self._store((state.SerializeToString(), seat), Listing(keys, plain))
        return True

    def moves(self, state: State, seat: int) -> LazyMoves:
        """The movement phase's or the placement's moves, from the memo."""
        return LazyMoves(self.listing(state, seat).keys)

    def member(self, state: State, seat: int, move: Move, key: Key) -> Move | None:
        """The listed move equal to ``move`` in the movement phase or the
        placement, or None."""
        found = self.listing(state, seat)
        self._checked = (seat, found)  # for the effect that follows (checked)
        keys = found.keys
        at = bisect_left(keys, key)  # the keys ascend: a search, no set to build
        if at == len(keys) or keys[at] != key:
            return None
        listed = LazyMoves.from_key(key)
        return listed if listed == move else None

    def __len__(self) -> int:
        return len(self._listings)


Play = Callable[[State, int, Move, list[Event]], None]
Narrow = Callable[[State, int, Move], Iterable[Move]]


def moves(memo: Derived, state: State, seat: int) -> LazyMoves:
    """The listed phases' generator (movement, placement, attack): the
    listing of ``memo``."""
    return memo.moves(state, seat)


def member(  # noqa: PLR0917 (the memo and what is bound, then the call shape)
    narrow: Narrow, memo: Derived, state: State, seat: int, move: Move, key: Key
) -> Move | None:
    """The membership test of a kind of the listed phases :
    in a listed phase a search of ``memo``'s listing (``key``: what
    ``check_move`` returned), elsewhere (e.g. ``end_phase`` in the
    reinforcement) the kind's own ``narrow`` (or generator)."""
    if state.phase in LISTED_PHASES:
        return memo.member(state, seat, move, key)
    return next((c for c in narrow(state, seat, move) if c == move), None)


def rotate(  # noqa: PLR0917 (the memo and what is bound, then the call shape)
    play: Play, memo: Derived, state: State, seat: int, move: Move, events: list[Event]
) -> None:
    """The rotation's effect (``play``); after a free one that changed nothing
    but the unit's facing and ``rotated`` flag (its one event, the movement
    phase still on; not a Siege Tower, whose exposed crew turns with it, nor a
    crew), the next listing is derived from the one before
    (:meth:`Derived.rotated`). No listing reads a unit's facing except a
    Flaming Pig's (which never turns) and a tower's crew's (left out): not a
    Ram's crew's; climbing attacks do not depend on facing. A rotation that
    cost a point (a Catapult's) is derived as a move (:func:`plain_move`)."""
    u = state.units[move.rotate.unit]
    if u.type != TOWER and u.carried_by < 0 and _rotation_cost(state, u):
        plain_move("rotated", play, memo, state, seat, move, events)
        return
    before = memo.checked(state, seat) if state.phase == MOVEMENT else None
    start = len(events)
    play(state, seat, move, events)
    if before is None or len(events) != start + 1 or state.phase != MOVEMENT:
        return
    event = events[start]
    if event.WhichOneof("kind") != "rotated" or event.rotated.cost != 0:
        return
    u = state.units[move.rotate.unit]
    if u.carried_by >= 0 or u.type == TOWER:
        return
    memo.rotated(state, seat, before, u.id)


def _rotation_cost(state: State, u: pb.KillTheKingUnit) -> int:
    return 0 if state.movement_locked_now else grid.CHARTS[u.type].rotation_cost


def plain_move(  # noqa: PLR0917 (the memo and what is bound, then the call shape)
    event_name: str,
    play: Play,
    memo: Derived,
    state: State,
    seat: int,
    move: Move,
    events: list[Event],
) -> None:
    """The effect (``play``) of a climb, a dismount or a rotation that cost a
    point; after one whose only event is its own (``event_name``), the movement
    phase still on, the next listing is derived from the one before as after a
    step (:meth:`Derived.stepped`) when that one kept its plain field."""
    before = memo.checked(state, seat) if state.phase == MOVEMENT else None
    if before is None or before.plain is None:
        play(state, seat, move, events)
        return
    kind = move.WhichOneof("decision")
    uid = getattr(move, kind).unit if kind is not None else -1
    origin = grid.position(state.units[uid])
    active = state.active_unit
    start = len(events)
    play(state, seat, move, events)
    if len(events) != start + 1 or state.phase != MOVEMENT:
        return
    if events[start].WhichOneof("kind") != event_name:
        return
    memo.stepped(state, seat, before, uid=uid, origin=origin, active=active)


def step(  # noqa: PLR0917 (the memo and what is bound, then the call shape)
    then_check: Callable[[Play], Play],
    play: Play,
    memo: Derived,
    state: State,
    seat: int,
    move: Move,
    events: list[Event],
) -> None:
    """The step's effect (``play``: ``then_check`` of ``movement.step``). When the listing
    before it kept its plain field, ``movement.step`` reads the field from it,
    and after a step whose only event was the step itself (the movement phase
    still on) the next listing is derived from the one before
    (:meth:`Derived.stepped`)."""
    before = memo.checked(state, seat) if state.phase == MOVEMENT else None
    if before is None or before.plain is None:
        play(state, seat, move, events)
        return
    field = listing.Field.of_plain(state, grid.tables(state), before.plain)

    def step(state: State, seat: int, move: Move, events: list[Event]) -> None:
        u, d = state.units[move.step.unit], move.step.direction
        if memo.verify and not (u.type == PIG and pigs.blocked_ahead(state, u)):
            # the plain field is the state's own (a blocked Pig explodes instead)
            assert listing.step_target(state, u, d, field) == listing.step_target(state, u, d)
            turned = tuple(v.id for v in state.units if v.rotated)
            assert field.turned == turned, f"kept {field.turned} != turned {turned}"
        movement.step(state, seat, move, events, field)

    uid = move.step.unit
    origin = grid.position(state.units[uid])
    active = state.active_unit
    start = len(events)
    then_check(step)(state, seat, move, events)
    if len(events) != start + 1 or state.phase != MOVEMENT:
        return
    if events[start].WhichOneof("kind") != "stepped":
        return
    memo.stepped(state, seat, before, uid=uid, origin=origin, active=active)
