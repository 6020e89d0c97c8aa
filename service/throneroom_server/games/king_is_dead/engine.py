"""The King Is Dead engine: the Game protocol over king_is_dead.proto."""

from __future__ import annotations

from throneroom.v1 import king_is_dead_pb2 as pb

from throneroom_server.games.core import (
    GameFinishedError,
    GameInfo,
    IllegalMoveError,
    InvalidOptionsError,
    NotYourTurnError,
    OptionSpec,
    Outcome,
    Seat,
    Viewer,
    check_seat,
)
from throneroom_server.games.king_is_dead.board import (
    CARDS,
    DECIDE_AMBASSADOR,
    DECIDE_CROWN,
    DECIDE_GARRISON,
    DECIDE_PLACE,
    DECIDE_SETTLE,
    DECIDE_SUMMON,
    FACTIONS,
    HAND,
    MAX_SEATS,
    MIN_SEATS,
    NUM_REGIONS,
    TURN,
)
from throneroom_server.games.king_is_dead.cards import (
    K_AMBASSADOR,
    K_CROWN,
    K_GARRISON,
    K_PASS,
    K_PLACE,
    K_PLAY,
    K_SETTLE,
    K_SUMMON,
    PASS_KEY,
    Key,
    crown_keys,
    decision_keys,
    exchange_is_legal,
    place_targets,
)
from throneroom_server.games.king_is_dead.effects import carry_out, play_card
from throneroom_server.games.king_is_dead.explain import explain_illegal
from throneroom_server.games.king_is_dead.invariants import check_invariants
from throneroom_server.games.king_is_dead.lastcard import (
    LastCardSearch,
    last_card_in_play,
    resolving_last_card,
)
from throneroom_server.games.king_is_dead.moves import LegalMoves, key_of, move_key
from throneroom_server.games.king_is_dead.setup import setup_state, setup_summary
from throneroom_server.games.king_is_dead.struggle import (
    COUNT_FIELDS,
    Reading,
    advance,
    forbidden_mirror,
    read_board,
    read_cards,
    read_controls,
    record_pass,
)
from throneroom_server.games.king_is_dead.views import build_view, randomize_hidden

State = pb.KingIsDeadState
Move = pb.KingIsDeadMove
Event = pb.KingIsDeadEvent

_DECISION_KIND = {
    DECIDE_CROWN: K_CROWN,
    DECIDE_GARRISON: K_GARRISON,
    DECIDE_AMBASSADOR: K_AMBASSADOR,
    DECIDE_SETTLE: K_SETTLE,
    DECIDE_PLACE: K_PLACE,
    DECIDE_SUMMON: K_SUMMON,
}


_PLAY_KEYS: tuple[Key, ...] = tuple((K_PLAY, card) for card in range(max(CARDS) + 1))
"""The key of playing each card, by card."""


def legal_keys(state: State, seat: Seat, search: LastCardSearch) -> list[Key]:
    """Every legal decision of ``seat`` now, as ascending move keys (``search``:
    the engine's 3-player last-card search, with its memos)."""
    if state.HasField("outcome") or seat != state.to_move:
        return []
    pending = state.pending
    d = pending.decision
    if d == TURN:
        cards: list[int] = sorted(set(state.seats[seat].hand))
        if last_card_in_play(state):
            cards = search.playable_cards(state, seat, cards)
        return [PASS_KEY, *[_PLAY_KEYS[c] for c in cards]]
    keys = decision_keys(d, pending.colour, Reading(state, seat))
    if resolving_last_card(state):
        keys = search.winning_keys(state, seat, keys)
    return keys


def is_legal(state: State, seat: Seat, key: Key, search: LastCardSearch) -> bool:
    """``key in legal_keys(state, seat, search)`` for the seat to act, cheaply."""
    d = state.pending.decision
    kind = key[0]
    if d == TURN:
        if kind == K_PASS:
            return True
        if kind != K_PLAY or key[1] not in state.seats[seat].hand:
            return False
        return not last_card_in_play(state) or key in legal_keys(state, seat, search)
    if _DECISION_KIND.get(d) != kind:
        return False
    if resolving_last_card(state):
        return key in legal_keys(state, seat, search)
    if kind == K_SUMMON:
        reg = state.regions[key[1] - 1]
        faction = key[2]
        return faction in FACTIONS and getattr(reg, COUNT_FIELDS[faction - 1]) > 0
    if kind == K_SETTLE:
        return not state.regions[key[1] - 1].control
    if kind == K_CROWN:
        return key in crown_keys(read_cards(state))
    if kind == K_PLACE:
        return bool(place_targets(read_controls(state), state.pending.colour, (key[1],)))
    return exchange_is_legal(read_board(state), key, forbidden_mirror(state, seat))


class KingIsDead:
    """The King Is Dead (2-4 players; option ``mordred``).

    The object owns the memos of its 3-player last-card search; they only
    save work (every answer depends on the state alone), so the engine stays
    pure and one object may serve any number of games.
    """

    info = GameInfo(
        name="king_is_dead",
        title="The King Is Dead",
        description=(
            "King Arthur is dead. Over eight power struggles, play action cards to decide "
            "which faction controls each region of Britain, and summon followers to court: "
            "the player with most followers of the ruling faction is crowned, unless the "
            "Saxons invade."
        ),
        min_seats=MIN_SEATS,
        max_seats=MAX_SEATS,
        hidden_information=True,
        simultaneous_decisions=False,
        options=(
            OptionSpec(
                "mordred",
                "the Mordred variant: 9 black Loyalist followers who may seize a region "
                "and end the game",
                "false",
            ),
        ),
    )

    def __init__(self) -> None:
        self.search = LastCardSearch()
        """The last-card search and its memos (legal_moves and apply share them)."""

    def default_options(self) -> pb.KingIsDeadOptions:
        return pb.KingIsDeadOptions(mordred=False)

    def validate_options(self, options: pb.KingIsDeadOptions, num_seats: int) -> None:
        if not MIN_SEATS <= num_seats <= MAX_SEATS:
            raise InvalidOptionsError(
                f"The King Is Dead is played by {MIN_SEATS} to {MAX_SEATS} players, not {num_seats}"
            )

    def setup(self, options: pb.KingIsDeadOptions, num_seats: int, seed: int) -> State:
        self.validate_options(options, num_seats)
        return setup_state(options, num_seats, seed)

    def setup_events(self, state: State) -> list[Event]:
        """The public setup summary of a freshly set-up state (courts, board,
        region card order), for a game's history."""
        return [setup_summary(state)]

    def max_decisions(self, options: pb.KingIsDeadOptions, num_seats: int) -> int:
        # Per card at most 5 decisions (play, 3 Settlers placements, summon); at
        # most N-1 passes before each card play and N passes ending each of the
        # 8 struggles: 5*8N + (N-1)*8N + 8N = 8N(N+5).
        cards = len(HAND) * num_seats
        return cards * 5 + cards * (num_seats - 1) + NUM_REGIONS * num_seats

    def to_act(self, state: State) -> tuple[Seat, ...]:
        return () if state.HasField("outcome") else (state.to_move,)

    def legal_moves(self, state: State, seat: Seat) -> LegalMoves:
        return LegalMoves(legal_keys(state, seat, self.search))

    def apply(self, state: State, seat: Seat, move: Move) -> tuple[State, list[Event]]:
        key = key_of(move)
        check_seat(state.num_seats, seat)
        if state.HasField("outcome"):
            raise GameFinishedError(f"The game is over ({state.outcome.summary})")
        if seat != state.to_move:
            raise NotYourTurnError(f"It is seat {state.to_move}'s turn, not seat {seat}'s.")
        if not is_legal(state, seat, key, self.search):
            raise IllegalMoveError(
                explain_illegal(state, seat, key, restricted=resolving_last_card(state))
            )
        new = State()
        new.CopyFrom(state)
        events: list[Event] = []
        kind = key[0]
        if kind == K_PASS:
            record_pass(new, seat, events, forced=False)
            advance(new, seat, events)
        elif kind == K_PLAY:
            play_card(new, seat, key[1], events)
        else:
            carry_out(new, seat, key, events)
        return new, events

    def outcome(self, state: State) -> Outcome | None:
        return state.outcome if state.HasField("outcome") else None

    def view(self, state: State, viewer: Viewer) -> pb.KingIsDeadView:
        return build_view(state, viewer)

    def redact_event(self, event: Event, viewer: Viewer) -> Event:
        # Every event is public: cards are shown when played, courts are open.
        return event

    def move_key(self, move: Move) -> tuple[int, ...]:
        return move_key(move)

    def check_invariants(self, state: State) -> None:
        check_invariants(state)

    def randomize_hidden(self, state: State, viewer: Viewer, seed: int) -> State:
        return randomize_hidden(state, viewer, seed)
