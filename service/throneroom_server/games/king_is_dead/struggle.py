"""Power struggles: turns, passes, resolution, the Mordred banner and the end.

These functions change a state the engine has already copied. Turn order goes
on clockwise across power struggles (the Phil/Jo/Laura example). A seat with
no card left passes automatically (a ``forced`` pass event, not a decision);
once every hand is empty the remaining struggles therefore resolve with no
further decisions.
"""

from __future__ import annotations

from operator import attrgetter
from typing import Any

from throneroom.games.king_is_dead.rules import banner, region_winner
from throneroom.v1 import king_is_dead_pb2 as pb

from throneroom_server.games.king_is_dead.board import (
    AMBASSADOR,
    BANNER,
    CARD_FACTION,
    DECIDE_SUMMON,
    GARRISON,
    NONE,
    SAXONS,
    TURN,
    UNRESOLVED,
    Board,
    Counts,
)
from throneroom_server.games.king_is_dead.cards import (
    Key,
    RegionCardInfo,
    faction_decision,
    first_decision,
    mirror_of,
)
from throneroom_server.games.king_is_dead.endings import decide_ending
from throneroom_server.games.king_is_dead.methods import (
    clear,
    clear_field,
    has_field,
    set_in_parent,
)
from throneroom_server.games.king_is_dead.moves import move_key
from throneroom_server.games.king_is_dead.rules import game_end

State = pb.KingIsDeadState
Event = pb.KingIsDeadEvent
_E: Any = pb.KingIsDeadEvent
"""The event class, untyped: events carry plain ints where the stubs want enums."""

COUNT_FIELDS = ("scots", "welsh", "romano_british", "loyalists")
"""Follower count fields by colour - 1 (RegionState and Followers)."""
_NON_BLACK = attrgetter("scots", "welsh", "romano_british")
"""A RegionState's summonable followers, (scots, welsh, romano_british)."""


def new_event(kind: str) -> tuple[Event, Any]:
    """A fresh event and its body of ``kind``, to fill in field by field: quicker
    than building the nested messages with keyword arguments, and the same
    message. Every caller sets a field of the body, which sets the body in the
    event (even when the value is the field's default), so ``SetInParent`` is
    not called (test_struggle.py checks each kind)."""
    event = _E()
    return event, getattr(event, kind)


# -- reading the state as plain data --------------------------------------------------


def read_board(state: State) -> Board:
    return [
        None if r.control else (r.scots, r.welsh, r.romano_british, r.loyalists)
        for r in state.regions
    ]


_CONTROL = attrgetter("control")


def read_controls(state: State) -> list[int]:
    return list(map(_CONTROL, state.regions))  # each region's, read in C


def read_orders(state: State) -> list[int]:
    return [r.resolved_order for r in state.regions]


def read_cards(state: State) -> list[RegionCardInfo]:
    return [(c.region, c.face_up, has_field(c, "crowned_by")) for c in state.region_cards]


def read_supply(state: State) -> tuple[int, int, int]:
    s = state.supply
    return (s.scots, s.welsh, s.romano_british)


def read_courts(state: State) -> list[tuple[int, int, int]]:
    return [(c.scots, c.welsh, c.romano_british) for c in (s.court for s in state.seats)]


def current_card(state: State) -> pb.RegionCard | None:
    """The region card of the current power struggle: the first face-up one
    (None when none is left)."""
    for card in state.region_cards:
        if card.face_up:
            return card
    return None


def current_region(state: State) -> int:
    """The region of the current power struggle (0 when none is left)."""
    card = current_card(state)
    return card.region if card is not None else 0


def forbidden_mirror(state: State, seat: int) -> Key | None:
    """The undo rule: the mirror of the most recent card play, when that play
    was another seat's Garrison/Ambassador exchange and no power struggle has
    been resolved since."""
    if not has_field(state, "last_exchange"):
        return None
    last = state.last_exchange
    if last.seat == seat:
        return None
    return mirror_of(move_key(last.exchange))


def add_followers(msg: Any, colour: int, n: int) -> None:
    """Add ``n`` (possibly negative) followers of ``colour`` to a RegionState or
    Followers message."""
    name = COUNT_FIELDS[colour - 1]
    setattr(msg, name, getattr(msg, name) + n)


def counts_of(msg: pb.RegionState | pb.Followers) -> Counts:
    return (msg.scots, msg.welsh, msg.romano_british, msg.loyalists)


def set_counts(msg: pb.RegionState, counts: Counts) -> None:
    """Write a region's followers (rules.py's results) into its message."""
    msg.scots, msg.welsh, msg.romano_british, msg.loyalists = counts


# -- resolution ----------------------------------------------------------------------


def resolve_struggle(state: State, events: list[Event]) -> bool:
    """End the current power struggle: turn its card face down, place the
    control token, return the followers, place the Mordred banner's Loyalist,
    then check for the end of the game (rules.py decides each step). Whether
    the game ended."""
    card = current_card(state)
    assert card is not None, "a struggle is resolved only while one goes on"
    card.face_up = False
    region = card.region
    regions = state.regions
    controls = read_controls(state)  # before: this struggle's region is unresolved
    reg: Any = regions[region - 1]  # enum fields take the plain ints used here
    counts = counts_of(reg)
    control = region_winner(counts)
    order = 1 + len(controls) - controls.count(UNRESOLVED)  # the regions resolved before, +1
    reg.control = control
    reg.resolved_order = order
    reg.scots = reg.welsh = reg.romano_british = reg.loyalists = 0
    supply = state.supply
    supply.scots += counts[0]
    supply.welsh += counts[1]
    supply.romano_british += counts[2]
    clear_field(state, "last_exchange")
    state.consecutive_passes = 0
    event, resolved = new_event("struggle_resolved")
    resolved.region = region
    resolved.control = control
    followers = resolved.followers
    set_in_parent(followers)
    followers.scots, followers.welsh, followers.romano_british, followers.loyalists = counts
    resolved.order = order
    target = regions[BANNER[region] - 1]
    pool, to = banner(region, counts, state.loyalist_pool, state.mordred and not target.control)
    state.loyalist_pool = pool
    if to:
        target.loyalists += 1
        resolved.banner_region = to
    saxons = controls.count(SAXONS) + (control == SAXONS)  # after it
    resolved.saxon_tokens = saxons
    events.append(event)
    _, termination = game_end((control,), saxons - (control == SAXONS), order - 1)
    if termination:
        finish(state, termination, events)
        return True
    return False


def finish(state: State, termination: str, events: list[Event]) -> None:
    ending = decide_ending(
        termination,
        read_controls(state),
        read_orders(state),
        read_courts(state),
        [s.last_played for s in state.seats],
    )
    outcome = state.outcome
    outcome.termination = ending.termination
    outcome.winners.extend(ending.winners)
    outcome.summary = ending.summary
    outcome.tiebreaks.extend(ending.tiebreaks)
    clear(state.pending)
    state.pending.decision = NONE
    events.append(
        _E(
            game_ended=_E.GameEnded(
                termination=ending.termination,
                winners=ending.winners,
                ruling_faction=ending.ruling_faction,
                tiebreaks=ending.tiebreaks,
                summary=ending.summary,
            )
        )
    )


# -- turns -----------------------------------------------------------------------------


def record_pass(state: State, seat: int, events: list[Event], *, forced: bool) -> bool:
    """A pass (resolving the struggle when every seat has passed in a row).
    Whether the game ended."""
    passes = state.consecutive_passes + 1
    state.consecutive_passes = passes
    event, passed = new_event("passed")
    passed.seat = seat
    passed.consecutive_passes = passes
    passed.forced = forced
    events.append(event)
    return passes >= state.num_seats and resolve_struggle(state, events)


def advance(state: State, seat: int, events: list[Event]) -> None:
    """Give the turn to the next seat clockwise after ``seat``; seats without
    cards pass automatically (resolving struggles, perhaps ending the game).
    The game goes on when it is called."""
    num_seats = state.num_seats
    seats = state.seats
    cur = seat
    while True:
        cur = (cur + 1) % num_seats
        if seats[cur].hand:
            state.to_move = cur
            pending = state.pending
            clear(pending)
            pending.decision = TURN
            return
        if record_pass(state, cur, events, forced=True):
            return  # the game ended


class Reading:
    """A state as cards.Position, for the seat to act: each part read (once)
    when a card's first decision or the choices of a decision ask for it."""

    __slots__ = ("_board", "_controls", "seat", "state")  # board and controls read once

    def __init__(self, state: State, seat: int) -> None:
        self.state = state
        self.seat = seat
        self._board: Board | None = None
        self._controls: list[int] | None = None

    @property
    def board(self) -> Board:
        if self._board is None:
            self._board = read_board(self.state)
        return self._board

    @property
    def controls(self) -> list[int]:
        if self._controls is None:
            self._controls = read_controls(self.state)
        return self._controls

    @property
    def cards(self) -> list[RegionCardInfo]:
        return read_cards(self.state)

    @property
    def supply(self) -> tuple[int, int, int]:
        return read_supply(self.state)

    @property
    def forbidden(self) -> Key | None:
        return forbidden_mirror(self.state, self.seat)


def start_effect(state: State, seat: int, card: int, events: list[Event]) -> None:
    """A card has just been played: set up its first decision, or skip the
    effect (nothing at all can be done) and go on to the summon."""
    if card in CARD_FACTION:  # first_decision's last case (faction cards), with no Reading
        first = faction_decision(card, read_controls(state), read_supply(state))
    else:
        first = first_decision(card, Reading(state, seat))
    if first is None:
        if card in (GARRISON, AMBASSADOR):
            clear_field(state, "last_exchange")
        event, skipped = new_event("effect_skipped")
        skipped.seat = seat
        skipped.card = card
        events.append(event)
        start_summon(state, seat, card, events)
        return
    decision, colour, remaining = first
    pending: Any = state.pending  # enum fields take the plain ints used here
    pending.decision = decision
    pending.card = card
    pending.colour = colour
    pending.remaining = remaining


def start_summon(state: State, seat: int, card: int, events: list[Event]) -> None:
    """After a card's effect: the summon decision, or none when no follower can
    be taken (then the turn ends)."""
    # summon_possible(map(_NON_BLACK, state.regions)), in C: each region's three
    # counts as a tuple, any() of it is ``c[0] or c[1] or c[2]``.
    if any(map(any, map(_NON_BLACK, state.regions))):
        pending: Any = state.pending
        clear(pending)
        pending.decision = DECIDE_SUMMON
        pending.card = card
        return
    events.append(_E(summon_skipped=_E.SummonSkipped(seat=seat)))
    advance(state, seat, events)
