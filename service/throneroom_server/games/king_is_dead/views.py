"""What a seat or a spectator may see, and states it cannot tell apart.

Everything is public except the cards in each hand (a seat sees its own) and
the played cards below the top of each pile: "the top card must always be
visible, but players may not look at the others". The RNG never leaves.
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Any

from google.protobuf.unknown_fields import UnknownFieldSet
from throneroom.v1 import king_is_dead_pb2 as pb
from throneroom.v1.common_pb2 import RngState

from throneroom_server.games.core import Viewer, check_seat
from throneroom_server.games.king_is_dead.board import CROWN, HAND, MAX_SEATS, MIN_SEATS, team_of
from throneroom_server.games.king_is_dead.lastcard import last_card_in_play, resolving_last_card
from throneroom_server.games.king_is_dead.methods import (
    clear_field,
    copy_from,
    has_field,
    merge_from_string,
    serialize,
)
from throneroom_server.games.king_is_dead.struggle import current_region
from throneroom_server.games.rng import Rng, seed_rng

_RESEED = 0x9E3779B97F4A7C15

_TEAMS = MappingProxyType(
    {n: tuple(team_of(seat, n) for seat in range(n)) for n in range(MIN_SEATS, MAX_SEATS + 1)}
)
"""Each seat's team (``team_of``) by the number of seats."""


def build_view(state: pb.KingIsDeadState, viewer: Viewer) -> pb.KingIsDeadView:
    view = public_view(state)
    if viewer is not None:
        seat_view(state, viewer, view)
    return view


def seat_view(state: pb.KingIsDeadState, seat: int, view: pb.KingIsDeadView) -> None:
    """Turn the spectator's view of ``state`` into ``seat``'s: its seat and hand
    (the definition's ``seat_view``: the service shares the rest between viewers)."""
    num_seats = state.num_seats
    if not 0 <= seat < num_seats:  # check_seat's test, with no call for a seat of the game
        check_seat(num_seats, seat)
    view.viewer = seat
    hand = state.seats[seat].hand
    if hand:  # (an empty hand leaves my_hand as the spectator's: empty)
        view.my_hand.extend(hand)


def public_view(state: pb.KingIsDeadState) -> pb.KingIsDeadView:
    """What every viewer sees: the view of a spectator. (Built once per version
    by the service: singular messages copied, the board merged from bytes; a
    message set through keyword arguments is serialized and parsed again. On the
    fresh view, a field often at its default is written only when it is not: an
    unset field reads its default, so the view is the same.)"""
    num_seats = state.num_seats
    view: Any = pb.KingIsDeadView()  # enum fields take the plain ints used here
    view.num_seats = num_seats
    if state.mordred:
        view.mordred = True
    view.current_struggle = current_region(state)
    if pool := state.loyalist_pool:
        view.loyalist_pool = pool
    if passes := state.consecutive_passes:
        view.consecutive_passes = passes
    view.cards_played = state.cards_played
    if last_card_in_play(state) or resolving_last_card(state):
        view.last_card_rule = True
    merge_from_string(view, _board(state))  # (message methods from the class: methods.py)
    copy_from(view.supply, state.supply)
    copy_from(view.removed, state.removed)
    copy_from(view.pending, state.pending)
    add = view.seats.add
    seats = state.seats
    teams = _TEAMS.get(num_seats, ())
    if len(teams) != len(seats):  # not a state of the game: each seat's team_of
        teams = tuple(team_of(i, num_seats) for i in range(len(seats)))
    for i, s in enumerate(seats):  # set one by one: keyword arguments cost more
        played = s.played
        shown = add()
        if i:
            shown.seat = i
        copy_from(shown.court, s.court)
        shown.cards_left = len(s.hand)
        shown.played_count = len(played)
        if played:
            shown.top_card = played[-1]  # else ACTION_CARD_UNSPECIFIED
        if s.has_crown_token:
            shown.has_crown_token = True
        if last := s.last_played:
            shown.last_played = last
        if team := teams[i]:
            shown.team = team
    if has_field(state, "last_exchange"):
        copy_from(view.last_exchange, state.last_exchange)
    if has_field(state, "outcome"):
        copy_from(view.outcome, state.outcome)
    else:
        view.to_move = state.to_move
    built: pb.KingIsDeadView = view
    return built


_BOARD = ("regions", "region_cards")
"""Fields the state and the view share: the same numbers and messages."""
_NOT_BOARD = tuple(f.name for f in pb.KingIsDeadState.DESCRIPTOR.fields if f.name not in _BOARD)


def _board(state: pb.KingIsDeadState) -> bytes:
    """The state's regions and region cards serialized alone, which are the
    view's fields of the same names (one copy, where adding each of the 16
    messages to the view costs three times as much)."""
    board: Any = pb.KingIsDeadState()  # cleared by the names listed above
    copy_from(board, state)
    for name in _NOT_BOARD:
        clear_field(board, name)
    if len(UnknownFieldSet(board)):  # stored by a later schema: its new fields stay out
        board.DiscardUnknownFields()
    return serialize(board)


def _check_board() -> None:
    for name in _BOARD:
        ours = pb.KingIsDeadState.DESCRIPTOR.fields_by_name[name]
        theirs = pb.KingIsDeadView.DESCRIPTOR.fields_by_name[name]
        same_message = ours.message_type is theirs.message_type is not None
        if ours.number != theirs.number or not same_message or not ours.is_repeated:
            raise TypeError(f"KingIsDeadState.{name} and KingIsDeadView.{name} differ")


_check_board()


def _set_cards(cards: Any, values: list[int]) -> None:
    """Replace the contents of a repeated ActionCard field."""
    cards[:] = values


def randomize_hidden(state: pb.KingIsDeadState, viewer: Viewer, seed: int) -> pb.KingIsDeadState:
    """Redraw, for every seat but the viewer, the cards below the top of its
    played pile and its hand from the seat's 8 cards (counts and the top card
    kept; a seat whose crown token is on a region card keeps its Crown among
    its played cards), and reseed the RNG."""
    new = pb.KingIsDeadState()
    new.CopyFrom(state)
    scratch = RngState()
    seed_rng(scratch, seed)
    rng = Rng(scratch)
    for seat, s in enumerate(new.seats):
        if seat == viewer:
            continue
        played: list[int] = list(s.played)
        pool: list[int] = list(HAND)
        below_count = 0
        top: list[int] = []
        if played:
            top = [played[-1]]
            pool.remove(played[-1])
            below_count = len(played) - 1
        below: list[int] = []
        if not s.has_crown_token and CROWN not in top:
            pool.remove(CROWN)
            below.append(CROWN)
        rng.shuffle(pool)
        take = below_count - len(below)
        below.extend(pool[:take])
        rng.shuffle(below)
        _set_cards(s.played, below + top)
        _set_cards(s.hand, sorted(pool[take:]))
    seed_rng(new.rng, seed ^ _RESEED)
    return new
