"""Building King Is Dead states directly, and short names for moves.

``build`` makes a consistent state (the supply is what the board and courts
leave of each faction's 18 followers; the Loyalist pool what the board leaves
of 9) so that rules can be tested through apply() and legal_moves() from any
position the rulebook describes.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from throneroom.v1 import king_is_dead_pb2 as pb
from throneroom_server.games.king_is_dead import KingIsDead
from throneroom_server.games.king_is_dead.board import HAND, REGIONS

GAME = KingIsDead()

CAL: int = pb.REGION_CALEDONIA
DIN: int = pb.REGION_DIN_EIDYN
DEVA: int = pb.REGION_DEVA
EBO: int = pb.REGION_EBORACUM
CAER: int = pb.REGION_CAERLEON
RATAE: int = pb.REGION_RATAE
LON: int = pb.REGION_LONDINIUM
AQS: int = pb.REGION_AQUAE_SULIS

S: int = pb.FACTION_SCOTS
W: int = pb.FACTION_WELSH
R: int = pb.FACTION_ROMANO_BRITISH
L: int = pb.FACTION_LOYALISTS

C_S: int = pb.REGION_CONTROL_SCOTS
C_W: int = pb.REGION_CONTROL_WELSH
C_R: int = pb.REGION_CONTROL_ROMANO_BRITISH
C_L: int = pb.REGION_CONTROL_LOYALISTS
SAX: int = pb.REGION_CONTROL_SAXONS

CROWN: int = pb.ACTION_CARD_CROWN
GARRISON: int = pb.ACTION_CARD_GARRISON
AMBASSADOR: int = pb.ACTION_CARD_AMBASSADOR
SETTLERS: int = pb.ACTION_CARD_SETTLERS
SCOTS_CARD: int = pb.ACTION_CARD_SCOTS
WELSH_CARD: int = pb.ACTION_CARD_WELSH
RB_CARD: int = pb.ACTION_CARD_ROMANO_BRITISH

D = pb.KingIsDeadPending
M: Any = pb.KingIsDeadMove
State = pb.KingIsDeadState
Move = pb.KingIsDeadMove
Event = pb.KingIsDeadEvent

Counts = tuple[int, int, int, int] | tuple[int, int, int]


def _four(c: Counts) -> tuple[int, int, int, int]:
    return (c[0], c[1], c[2], c[3] if len(c) == 4 else 0)


def build(
    num_seats: int = 2,
    *,
    board: Mapping[int, Counts] | None = None,
    resolved: Sequence[tuple[int, int]] = (),
    order: Sequence[int] | None = None,
    courts: Sequence[Counts] | None = None,
    played: Sequence[Sequence[int]] | None = None,
    to_move: int = 0,
    mordred: bool = False,
    consecutive_passes: int = 0,
    crowned: Mapping[int, int] | None = None,
) -> State:
    """A state at the start of ``to_move``'s turn.

    board: followers per unresolved region (missing regions are empty);
    resolved: (region, control) in the order they were resolved;
    order: region cards by position (default: resolved ones first, in order,
    then the others in Region order); courts: per seat; played: each seat's
    played cards, first played first (cards_played/last_played follow seat
    order round by round); crowned: region -> seat whose crown token is on it.
    """
    board = dict(board or {})
    courts = list(courts or [(0, 0, 0)] * num_seats)
    played = [list(p) for p in (played or [[] for _ in range(num_seats)])]
    state = State(num_seats=num_seats, mordred=mordred)
    resolved_map = {region: (control, i + 1) for i, (region, control) in enumerate(resolved)}
    for region in REGIONS:
        reg: Any = state.regions.add(region=region)  # plain ints for enum fields
        if region in resolved_map:
            assert region not in board, "a resolved region is empty"
            reg.control, reg.resolved_order = resolved_map[region]
            continue
        s, w, r, loyal = _four(board.get(region, (0, 0, 0, 0)))
        reg.scots, reg.welsh, reg.romano_british, reg.loyalists = s, w, r, loyal
    if order is None:
        order = [r for r, _ in resolved] + [r for r in REGIONS if r not in resolved_map]
    for region in order:
        card = state.region_cards.add(region=region, face_up=region not in resolved_map)
        if crowned and region in crowned:
            card.crowned_by = crowned[region]
    removed = 2 if num_seats == 2 else 0
    for i, field in enumerate(("scots", "welsh", "romano_british")):
        on_board = sum(getattr(r, field) for r in state.regions)
        at_court = sum(c[i] for c in courts)
        setattr(state.removed, field, removed)
        left = 18 - removed - on_board - at_court
        assert left >= 0, f"too many {field} followers"
        setattr(state.supply, field, left)
    if mordred:
        black = sum(r.loyalists for r in state.regions)
        state.loyalist_pool = 9 - black
    # Cards played round by round in seat order give the last_played stamps.
    stamp = 0
    stamps = [0] * num_seats
    for round_ in range(max((len(p) for p in played), default=0)):
        for seat in range(num_seats):
            if round_ < len(played[seat]):
                stamp += 1
                stamps[seat] = stamp
    for seat in range(num_seats):
        hand = list(HAND)
        for played_card in played[seat]:
            hand.remove(played_card)
        seat_state: Any = state.seats.add(hand=hand, played=played[seat])
        seat_state.last_played = stamps[seat]
        seat_state.court.scots, seat_state.court.welsh, seat_state.court.romano_british = courts[
            seat
        ][:3]
        seat_state.has_crown_token = not (crowned and seat in crowned.values())
    state.cards_played = stamp
    state.to_move = to_move
    state.consecutive_passes = consecutive_passes
    state.pending.decision = D.DECISION_TURN
    GAME.check_invariants(state)
    return state


def cards_except(*keep: int) -> list[int]:
    """Played cards leaving exactly ``keep`` in hand."""
    hand = list(HAND)
    for card in keep:
        hand.remove(card)
    return hand


# -- moves ------------------------------------------------------------------------


def pass_() -> Move:
    move: Move = M(pass_turn=M.Pass())
    return move


def play(card: int) -> Move:
    move: Move = M(play_card=M.PlayCard(card=card))
    return move


def crown(a: int, b: int, crowned: int) -> Move:
    move: Move = M(crown=M.Crown(region_a=a, region_b=b, crowned=crowned))
    return move


def garrison(a: int, b: int, out: Iterable[int], back: int | None = None) -> Move:
    g = M.Garrison(from_region=a, to_region=b, outgoing=list(out))
    if back is not None:
        g.returning = back
    move: Move = M(garrison=g)
    return move


def ambassador(a: int, b: int, from_a: int | None, from_b: int | None) -> Move:
    m = M.Ambassador(region_a=a, region_b=b)
    if from_a is not None:
        m.from_a = from_a
    if from_b is not None:
        m.from_b = from_b
    move: Move = M(ambassador=m)
    return move


def settle(region: int) -> Move:
    move: Move = M(settle=M.Settle(region=region))
    return move


def place(region: int) -> Move:
    move: Move = M(place=M.Place(region=region))
    return move


def summon(region: int, faction: int) -> Move:
    move: Move = M(summon=M.Summon(region=region, faction=faction))
    return move


# -- playing ---------------------------------------------------------------------


def act(state: State, *moves: Move) -> tuple[State, list[Event]]:
    """Apply moves in turn, each by the seat to act; all events."""
    events: list[Event] = []
    for move in moves:
        seat = GAME.to_act(state)[0]
        state, new_events = GAME.apply(state, seat, move)
        GAME.check_invariants(state)
        events.extend(new_events)
    return state, events


def legal(state: State) -> list[Move]:
    acting = GAME.to_act(state)
    return list(GAME.legal_moves(state, acting[0])) if acting else []


def counts(state: State, region: int) -> tuple[int, int, int, int]:
    r = state.regions[region - 1]
    return (r.scots, r.welsh, r.romano_british, r.loyalists)


def court(state: State, seat: int) -> tuple[int, int, int]:
    c = state.seats[seat].court
    return (c.scots, c.welsh, c.romano_british)


def kinds(events: Iterable[Event]) -> list[str]:
    return [str(e.WhichOneof("kind")) for e in events]


def of_kind(events: Iterable[Event], kind: str) -> list[Any]:
    return [getattr(e, kind) for e in events if e.WhichOneof("kind") == kind]


def decision(state: State) -> int:
    return state.pending.decision


def pass_round(state: State) -> tuple[State, list[Event]]:
    """Everyone passes once (resolving the current struggle)."""
    return act(state, *[pass_() for _ in range(state.num_seats)])


def play_through(state: State, card: int) -> tuple[State, list[Event]]:
    """The seat to act plays ``card`` and takes the first legal choice at each
    of the card's decisions and the summon."""
    state, events = act(state, play(card))
    while not state.HasField("outcome") and decision(state) != D.DECISION_TURN:
        state, more = act(state, legal(state)[0])
        events.extend(more)
    return state, events
