"""The King's Life engine: the Game protocol over the messages of kings_life.proto."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations, pairwise

from throneroom.v1 import kings_life_pb2 as pb

from throneroom_server.games.core import (
    GameFinishedError,
    GameInfo,
    IllegalMoveError,
    InvalidMoveError,
    InvalidOptionsError,
    NotYourTurnError,
    Outcome,
    Seat,
    Viewer,
    check_seat,
)
from throneroom_server.games.kings_life import (
    characters,
    days,
    invariants,
    reckoning,
    suggestions,
    views,
)
from throneroom_server.games.kings_life.data import (
    ALL_CARDS,
    DAYS,
    DECK_SIZE,
    EXCHANGE_MAX,
    MAX_PLAYERS,
    MIN_PLAYERS,
    TOKEN_VALUES,
    max_plays_per_day,
)
from throneroom_server.games.kings_life.table import NO_SEAT, Events, State, card_name
from throneroom_server.games.rng import Rng, seed_rng

Move = pb.KingsLifeMove
Phase = pb.KingsLifeState

_EXPECTED = {
    Phase.PHASE_EXCHANGE: ("exchange",),
    Phase.PHASE_MULLIGAN: ("mulligan",),
    Phase.PHASE_INITIAL_ROUND: ("commit",),
    Phase.PHASE_QUEEN_WINDOW: ("queen",),
    Phase.PHASE_TURNS: ("play", "passing"),
    Phase.PHASE_FOOL_TAKE_BACK: ("take_back",),
    Phase.PHASE_FOOL_PASS: ("passing",),
    Phase.PHASE_DUKE: ("duke",),
}
_PHASE_TEXT = {
    Phase.PHASE_EXCHANGE: "Tuesday's exchange: discard up to 3 cards",
    Phase.PHASE_MULLIGAN: "the mulligan round: take or keep",
    Phase.PHASE_INITIAL_ROUND: "the initial round: commit a sun card",
    Phase.PHASE_QUEEN_WINDOW: "the Queen window: cancel or decline",
    Phase.PHASE_TURNS: "a turn: play a card or pass",
    Phase.PHASE_FOOL_TAKE_BACK: "the Fool: take back a display card or stop",
    Phase.PHASE_FOOL_PASS: "the Fool's pass",
    Phase.PHASE_DUKE: "the end of the day: play the Duke or not",
}
_SIMULTANEOUS = frozenset(
    {Phase.PHASE_MULLIGAN, Phase.PHASE_INITIAL_ROUND, Phase.PHASE_QUEEN_WINDOW}
)
_KIND_ORDER = {
    "exchange": 0,
    "mulligan": 1,
    "commit": 2,
    "queen": 3,
    "passing": 4,
    "play": 5,
    "duke": 6,
    "take_back": 7,
}


class KingsLife:
    """King's Life for 4-8 players (see docs/rules/kings_life.md)."""

    info = GameInfo(
        name="kings_life",
        title="King's Life",
        description=(
            "Five days at court: suggest programs of tourneys, feasts, hunts and dances "
            "to the king, support the favourites and play characters to sway him."
        ),
        min_seats=MIN_PLAYERS,
        max_seats=MAX_PLAYERS,
        hidden_information=True,
        simultaneous_decisions=True,
        options=(),
    )

    # --- Options and setup ---------------------------------------------------------

    def default_options(self) -> pb.KingsLifeOptions:
        return pb.KingsLifeOptions()

    def validate_options(self, options: pb.KingsLifeOptions, num_seats: int) -> None:
        if not MIN_PLAYERS <= num_seats <= MAX_PLAYERS:
            raise InvalidOptionsError(
                f"King's Life is played by {MIN_PLAYERS}-{MAX_PLAYERS} players, not {num_seats}"
            )

    def setup(self, options: pb.KingsLifeOptions, num_seats: int, seed: int) -> State:
        self.validate_options(options, num_seats)
        state = State(
            num_seats=num_seats,
            day=pb.DAY_TUESDAY,
            turn=NO_SEAT,
            queen_canceller=NO_SEAT,
            queen_target=NO_SEAT,
            last_winner=NO_SEAT,
        )
        seed_rng(state.rng, seed)
        rng = Rng(state.rng)
        tokens = list(TOKEN_VALUES)
        rng.shuffle(tokens)
        for value in tokens:
            state.tokens.add(value=value, holder=NO_SEAT)
        for _ in range(num_seats):
            state.players.add(supporter=NO_SEAT, supporting=NO_SEAT)
        deck = list(ALL_CARDS)
        rng.shuffle(deck)
        state.deck.extend(deck)
        state.first_player = rng.below(num_seats)
        days.begin_day(state, [])
        return state

    def max_decisions(self, options: pb.KingsLifeOptions, num_seats: int) -> int:
        # Per day and seat: exchange, mulligan, initial card, initial Queen
        # window, its pass, the Duke's Queen window (+1 for the Duke itself);
        # and per play on a turn the play and the others' Queen window; plus
        # the Fool's take-backs (a card taken back lands in a hand that passes,
        # so at most one per card a day) and one "done" per Fool (its player
        # passes, so at most one per seat a day).
        per_day = (6 + max_plays_per_day()) * num_seats + 1 + DECK_SIZE + num_seats
        return per_day * len(DAYS)

    # --- Who acts, what they may do ---------------------------------------------------

    def to_act(self, state: State) -> Sequence[Seat]:
        phase = state.phase
        if phase == Phase.PHASE_GAME_OVER:
            return ()
        if phase in _SIMULTANEOUS:
            return tuple(state.awaiting)
        return (state.turn,)

    def legal_moves(self, state: State, seat: Seat) -> list[pb.KingsLifeMove]:
        phase = state.phase
        if phase == Phase.PHASE_GAME_OVER:
            return []
        if phase in _SIMULTANEOUS:
            if seat not in state.awaiting:
                return []
        elif seat != state.turn:
            return []
        if phase == Phase.PHASE_QUEEN_WINDOW:
            return suggestions.queen_moves(state, seat)
        if phase == Phase.PHASE_TURNS:
            return suggestions.pass_moves(state, seat) + characters.play_moves(state, seat)
        if phase == Phase.PHASE_INITIAL_ROUND:
            return suggestions.commit_moves(state, seat)
        if phase == Phase.PHASE_FOOL_PASS:
            return suggestions.pass_moves(state, seat)
        if phase == Phase.PHASE_FOOL_TAKE_BACK:
            return characters.take_back_moves(state, seat)
        if phase == Phase.PHASE_MULLIGAN:
            moves = [Move(mulligan=Move.Mulligan(take=False))]
            if days.may_mulligan(state.players[seat]):
                moves.append(Move(mulligan=Move.Mulligan(take=True)))
            return moves
        if phase == Phase.PHASE_EXCHANGE:
            hand = sorted(state.players[seat].hand)
            return [
                Move(exchange=Move.Exchange(discard=combo))
                for size in range(min(EXCHANGE_MAX, len(hand)) + 1)
                for combo in combinations(hand, size)
            ]
        if phase == Phase.PHASE_DUKE:
            return reckoning.duke_moves(state, seat)
        raise AssertionError(f"unknown phase {phase}")  # pragma: no cover

    def move_key(self, move: pb.KingsLifeMove) -> tuple[int, ...]:
        kind = move.WhichOneof("kind")
        if kind is None:
            return (-1,)
        order = _KIND_ORDER[kind]
        if kind == "play":
            p = move.play
            return (
                order,
                p.card,
                p.target_card,
                p.activity,
                p.token_day,
                p.support + 1 if p.HasField("support") else 0,
                p.hand_over,
                len(p.positions),
                *p.positions,
                *p.cards,
            )
        if kind == "passing":
            q = move.passing
            return (order, q.support + 1 if q.HasField("support") else 0, q.hand_over)
        if kind == "queen":
            if not move.queen.cancel:
                return (order, 0)
            return (order, 1, move.queen.target)
        if kind == "exchange":
            cards = move.exchange.discard
            return (order, len(cards), *cards)
        if kind == "mulligan":
            return (order, int(move.mulligan.take))
        if kind == "commit":
            return (order, move.commit.card)
        if kind == "take_back":
            return (order, move.take_back.card)
        return (order, int(move.duke.play))

    # --- Applying a decision -------------------------------------------------------------

    def apply(self, state: State, seat: Seat, move: pb.KingsLifeMove) -> tuple[State, Events]:
        kind = move.WhichOneof("kind")
        if kind is None:
            raise InvalidMoveError(
                "a King's Life move names one decision (exchange, mulligan, commit, queen, "
                "play, passing, duke or take_back); this one is empty"
            )
        check_seat(state.num_seats, seat)
        self._check_shape(state, kind, move)
        phase = state.phase
        if phase == Phase.PHASE_GAME_OVER:
            raise GameFinishedError("King's Life: the game is over")
        if phase in _SIMULTANEOUS:
            if seat not in state.awaiting:
                raise NotYourTurnError(
                    f"{_PHASE_TEXT[phase]}: seat {seat} is not asked (waiting for seats "
                    f"{', '.join(map(str, state.awaiting))})"
                )
        elif seat != state.turn:
            raise NotYourTurnError(
                f"{_PHASE_TEXT[phase]}: it is seat {state.turn}'s decision, not seat {seat}'s"
            )
        if kind not in _EXPECTED[phase]:
            raise IllegalMoveError(f"{_PHASE_TEXT[phase]}: seat {seat} cannot answer with {kind}")
        new = State()
        new.CopyFrom(state)
        events: Events = []
        if kind == "queen":
            q = move.queen
            suggestions.check_queen(state, seat, q.cancel, q.target)
            suggestions.answer_queen(new, seat, q.cancel, q.target, events)
        elif kind == "play":
            characters.check_play(state, seat, move.play)
            suggestions.play_card(new, seat, move.play, events)
        elif kind == "passing":
            p = move.passing
            target = p.support if p.HasField("support") else None
            suggestions.check_support(state, seat, target, p.hand_over, "Pass", guard=False)
            suggestions.pass_turn(new, seat, target, p.hand_over, events)
        elif kind == "take_back":
            card = move.take_back.card
            characters.check_take_back(state, seat, card)
            characters.take_back(new, seat, card, events)
        elif kind == "commit":
            suggestions.check_commit(state, seat, move.commit.card)
            suggestions.commit(new, seat, move.commit.card, events)
        elif kind == "mulligan":
            take = move.mulligan.take
            if take and not days.may_mulligan(state.players[seat]):
                raise IllegalMoveError(
                    f"Mulligan: seat {seat} holds an activity card; only a hand of "
                    "character cards may be mulliganed"
                )
            days.answer_mulligan(new, seat, take, events)
        elif kind == "exchange":
            cards = list(move.exchange.discard)
            if len(cards) > EXCHANGE_MAX:
                raise IllegalMoveError(
                    f"Exchange: seat {seat} may discard at most {EXCHANGE_MAX} cards, "
                    f"not {len(cards)}"
                )
            hand = state.players[seat].hand
            for card in cards:
                if card not in hand:
                    raise IllegalMoveError(
                        f"Exchange: {card_name(card)} is not in seat {seat}'s hand"
                    )
            days.exchange(new, seat, cards, events)
        else:
            play = move.duke.play
            reckoning.check_duke(state, seat, play)
            reckoning.answer_duke(new, seat, play, events)
        return new, events

    @staticmethod
    def _check_shape(state: State, kind: str, move: pb.KingsLifeMove) -> None:
        """Malformed moves (InvalidMoveError), whatever the state."""
        n = state.num_seats

        def card_ok(card: int) -> bool:
            return 1 <= card <= DECK_SIZE

        if kind == "play":
            characters.check_play_shape(move.play, n)
        elif kind == "passing":
            p = move.passing
            if p.HasField("support") and not 0 <= p.support < n:
                raise InvalidMoveError(f"Pass: seat {p.support} does not exist")
            if p.hand_over and not card_ok(p.hand_over):
                raise InvalidMoveError(f"Pass: hand_over {p.hand_over} is not a card")
        elif kind == "queen":
            q = move.queen
            if q.cancel and not q.HasField("target"):
                raise InvalidMoveError("Queen: a cancel names the target seat")
            if not q.cancel and q.HasField("target"):
                raise InvalidMoveError("Queen: a decline names no target")
            if q.HasField("target") and not 0 <= q.target < n:
                raise InvalidMoveError(f"Queen: seat {q.target} does not exist")
        elif kind == "exchange":
            cards = list(move.exchange.discard)
            if not all(card_ok(c) for c in cards):
                raise InvalidMoveError(f"Exchange: {cards} names a card that does not exist")
            if any(a >= b for a, b in pairwise(cards)):
                raise InvalidMoveError("Exchange: the cards must be listed once each, ascending")
        elif kind == "commit":
            card = move.commit.card
            if card and not card_ok(card):
                raise InvalidMoveError(f"Commit: card {card} does not exist")
        elif kind == "take_back":
            card = move.take_back.card
            if card and not card_ok(card):
                raise InvalidMoveError(f"Fool: take-back card {card} does not exist")

    # --- Outcome, views, checks ---------------------------------------------------------

    def outcome(self, state: State) -> Outcome | None:
        return state.outcome if state.HasField("outcome") else None

    def view(self, state: State, viewer: Viewer) -> pb.KingsLifeView:
        return views.view(state, viewer)

    def redact_event(self, event: pb.KingsLifeEvent, viewer: Viewer) -> pb.KingsLifeEvent:
        return views.redact_event(event, viewer)

    def randomize_hidden(self, state: State, viewer: Viewer, seed: int) -> State:
        return views.randomize_hidden(state, viewer, seed)

    def check_invariants(self, state: State) -> None:
        invariants.check(state)
