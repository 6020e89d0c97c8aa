"""Building King's Life positions and playing moves in tests.

``scenario`` builds a consistent state (card conservation holds) with the
hands, displays, board and phase a test needs; every card not placed goes to
the deck (``deck_top`` first, in drawing order). The step helpers apply moves
and check the invariants after each one.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from throneroom.v1 import kings_life_pb2 as pb
from throneroom_server.games.kings_life import KingsLife
from throneroom_server.games.kings_life.data import (
    ACTIVITIES,
    ACTIVITY_CARD_VALUES,
    ALL_CARDS,
    DAYS,
    cards_of,
)
from throneroom_server.games.kings_life.phases import PHASE_NAMES, TABLE

ENGINE = KingsLife()
Move = pb.KingsLifeMove
Play = pb.KingsLifeMove.Play
State = pb.KingsLifeState
Event = pb.KingsLifeEvent
Phase = pb.KingsLifeState

TOURNEY, FEAST, HUNT, DANCE = ACTIVITIES
TUESDAY, WEDNESDAY, THURSDAY, FRIDAY, SATURDAY = DAYS


def A(activity: int, value: int, nth: int = 0) -> int:  # noqa: N802 - reads like a card
    """The ``nth`` activity card of that activity and face value (nth 0 of a 1 draws)."""
    block = ACTIVITIES.index(activity) * len(ACTIVITY_CARD_VALUES)
    indexes = [i for i, v in enumerate(ACTIVITY_CARD_VALUES) if v == value]
    return block + indexes[nth] + 1


def C(kind: int, nth: int = 0) -> int:  # noqa: N802
    """The ``nth`` card of a character."""
    return cards_of(kind)[nth]


def THIEF(value: int) -> int:  # noqa: N802
    return next(c for c in cards_of(pb.CHARACTER_THIEF) if _value(c) == value)


def _value(card: int) -> int:
    from throneroom_server.games.kings_life.data import CARD_VALUE

    return CARD_VALUE[card]


DUCHESS = C(pb.CHARACTER_DUCHESS)
DUCHESS_2 = C(pb.CHARACTER_DUCHESS, 1)
LITTLE_PRINCE = C(pb.CHARACTER_LITTLE_PRINCE)
MERCHANT = C(pb.CHARACTER_MERCHANT)
PRIEST = C(pb.CHARACTER_PRIEST)
PRINCESS = C(pb.CHARACTER_PRINCESS)
SORCERER = C(pb.CHARACTER_SORCERER)
DUKE = C(pb.CHARACTER_DUKE)
QUEEN = C(pb.CHARACTER_QUEEN)
ASTROLOGER = C(pb.CHARACTER_ASTROLOGER)
CHAMBERLAIN = C(pb.CHARACTER_CHAMBERLAIN)
CHAMBERLAIN_2 = C(pb.CHARACTER_CHAMBERLAIN, 1)
ASTROLOGER_2 = C(pb.CHARACTER_ASTROLOGER, 1)
DOG = C(pb.CHARACTER_DOG)
FOOL = C(pb.CHARACTER_FOOL)
GUARD = C(pb.CHARACTER_GUARD)
GUARD_2 = C(pb.CHARACTER_GUARD, 1)
JESTER = C(pb.CHARACTER_JESTER)
PEON = C(pb.CHARACTER_PEON)
RAINY_DAY = C(pb.CHARACTER_RAINY_DAY)
THIEF_3 = THIEF(3)
THIEF_4 = THIEF(4)


def scenario(
    seats: int = 4,
    *,
    hands: Mapping[int, Sequence[int]] | None = None,
    displays: Mapping[int, Sequence[int]] | None = None,
    preferences: Sequence[int] = (HUNT, DANCE, TOURNEY, FEAST),
    phase: int = Phase.PHASE_TURNS,
    turn: int = 0,
    first_player: int = 0,
    day: int = TUESDAY,
    deck_top: Sequence[int] = (),
    discard: Sequence[int] = (),
    removed: Sequence[int] = (),
    passed: Iterable[int] = (),
    supports: Mapping[int, int] | None = None,
    tokens: Sequence[int] | None = None,
    merchant_on: int = 0,
    sorcerer_on: int = 0,
    sorcerer_activity: int = 0,
    last_winner: int = -1,
    awaiting: Sequence[int] | None = None,
    seed: int = 7,
) -> State:
    """A consistent position; ``supports`` maps supporter -> supported seat."""
    state = ENGINE.setup(ENGINE.default_options(), seats, seed)
    _deal(state, hands or {}, displays or {}, deck_top=deck_top, discard=discard, removed=removed)
    del state.preferences[:]
    state.preferences.extend(preferences)  # type: ignore[arg-type]
    state.phase = phase  # type: ignore[assignment]
    state.turn = turn
    del state.awaiting[:]
    if TABLE[PHASE_NAMES[phase]].simultaneous:
        state.awaiting.extend(range(seats) if awaiting is None else awaiting)
        state.turn = -1
    state.first_player = first_player
    state.day = day  # type: ignore[assignment]
    state.last_winner = last_winner
    today = DAYS.index(day)
    if tokens is not None:
        for token, value in zip(state.tokens, tokens, strict=True):
            token.value = value
    del state.days[:]
    for index in range(today):
        state.days.add(
            day=DAYS[index], result=pb.KingsLifeDayRecord.RESULT_NO_PROGRAM, winner=-1, supporter=-1
        )
        state.tokens[index].status = pb.KingsLifeToken.STATUS_DISCARDED
    for seat in passed:
        state.players[seat].passed = True
    for supporter, supported in (supports or {}).items():
        state.players[supporter].supporting = supported
        state.players[supported].supporter = supporter
    state.merchant_on = merchant_on
    state.sorcerer_on = sorcerer_on
    state.sorcerer_activity = sorcerer_activity  # type: ignore[assignment]
    ENGINE.check_invariants(state)
    return state


def _deal(
    state: State,
    hands: Mapping[int, Sequence[int]],
    displays: Mapping[int, Sequence[int]],
    *,
    deck_top: Sequence[int],
    discard: Sequence[int],
    removed: Sequence[int],
) -> None:
    """Every card where the scenario puts it; the rest in the deck, under ``deck_top``."""
    for player in state.players:
        del player.hand[:]
        del player.display[:]
        del player.face_down_discards[:]
        del player.revealed[:]
        player.commitment = 0
        player.mulligan = False
    placed: list[int] = []
    for seat, cards in hands.items():
        state.players[seat].hand.extend(cards)
        placed.extend(cards)
    for seat, cards in displays.items():
        state.players[seat].display.extend(cards)
        placed.extend(cards)
    placed.extend(discard)
    placed.extend(removed)
    placed.extend(deck_top)
    assert len(set(placed)) == len(placed), "a card placed twice"
    rest = [c for c in ALL_CARDS if c not in set(placed)]
    del state.deck[:]
    state.deck.extend(rest + list(reversed(deck_top)))
    del state.discard[:]
    state.discard.extend(discard)
    del state.removed[:]
    state.removed.extend(removed)


def step(state: State, seat: int, move: pb.KingsLifeMove) -> tuple[State, list[pb.KingsLifeEvent]]:
    """Apply a move that must be legal, check it was listed and the invariants hold."""
    keys = {ENGINE.move_key(m) for m in ENGINE.legal_moves(state, seat)}
    assert ENGINE.move_key(move) in keys, f"not a legal move of seat {seat}: {move}"
    new, events = ENGINE.apply(state, seat, move)
    ENGINE.check_invariants(new)
    return new, events


def play(state: State, seat: int, card: int, **fields: object) -> tuple[State, list[Event]]:
    """Seat plays a card; every other seat then declines the Queen."""
    state, events = step(state, seat, Move(play=Play(card=card, **fields)))  # type: ignore[arg-type]
    state, more = decline_all(state)
    return state, events + more


def pass_(
    state: State, seat: int, support: int | None = None, hand_over: int = 0
) -> tuple[State, list[Event]]:
    passing = Move.Pass(hand_over=hand_over)
    if support is not None:
        passing.support = support
    return step(state, seat, Move(passing=passing))


def decline_all(state: State) -> tuple[State, list[Event]]:
    """Every seat asked in a Queen window declines."""
    events: list[Event] = []
    while state.phase == Phase.PHASE_QUEEN_WINDOW:
        seat = state.awaiting[0]
        state, more = step(state, seat, Move(queen=Move.Queen()))
        events += more
    return state, events


def kinds(events: Iterable[pb.KingsLifeEvent]) -> list[str]:
    return [e.WhichOneof("kind") or "" for e in events]


def of_kind(events: Iterable[pb.KingsLifeEvent], kind: str) -> list[pb.KingsLifeEvent]:
    return [e for e in events if e.WhichOneof("kind") == kind]


def legal(state: State, seat: int) -> list[pb.KingsLifeMove]:
    return ENGINE.legal_moves(state, seat)


def plays_of(state: State, seat: int, card: int) -> list[Play]:
    return [
        m.play for m in legal(state, seat) if m.WhichOneof("kind") == "play" and m.play.card == card
    ]


def all_pass(state: State) -> tuple[State, list[Event]]:
    """Everyone still in the day passes without support, in turn order."""
    events: list[Event] = []
    while state.phase == Phase.PHASE_TURNS and state.day == state.day:
        day = state.day
        state, more = pass_(state, state.turn)
        events += more
        if state.day != day or state.phase != Phase.PHASE_TURNS:
            break
    return state, events


def take_back(state: State, seat: int, card: int = 0) -> tuple[State, list[Event]]:
    """After the Fool: take ``card`` back from the display (0: done)."""
    return step(state, seat, Move(take_back=Move.TakeBack(card=card)))


def cancel_with_queen(state: State, queen_seat: int) -> tuple[State, list[pb.KingsLifeEvent]]:
    """Everyone answers the window; ``queen_seat`` cancels the pending card."""
    events: list[pb.KingsLifeEvent] = []
    target = state.turn
    while state.phase == Phase.PHASE_QUEEN_WINDOW:
        seat = state.awaiting[0]
        move = (
            Move(queen=Move.Queen(cancel=True, target=target))
            if seat == queen_seat
            else Move(queen=Move.Queen())
        )
        state, more = step(state, seat, move)
        events += more
    return state, events
