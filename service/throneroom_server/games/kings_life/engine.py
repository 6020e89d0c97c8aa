"""The King's Life engine: the Game protocol over the messages of kings_life.proto."""

from __future__ import annotations

from collections.abc import Sequence

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
from throneroom_server.games.kings_life import choices, days, invariants, phases, shapes, views
from throneroom_server.games.kings_life.data import (
    ALL_CARDS,
    DAYS,
    DECK_SIZE,
    MAX_PLAYERS,
    MIN_PLAYERS,
    TOKEN_VALUES,
    max_plays_per_day,
)
from throneroom_server.games.kings_life.phases import PHASES, PhaseRule
from throneroom_server.games.kings_life.table import NO_SEAT, Events, State
from throneroom_server.games.rng import Rng, seed_rng

Move = pb.KingsLifeMove
Phase = pb.KingsLifeState

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


def _asked(state: State, rule: PhaseRule, seat: Seat) -> bool:
    if rule.simultaneous:
        return seat in state.awaiting
    return seat == state.turn


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
        if PHASES[phase].simultaneous:
            return tuple(state.awaiting)
        return (state.turn,)

    def legal_moves(self, state: State, seat: Seat) -> list[pb.KingsLifeMove]:
        rule = PHASES[state.phase]
        if not rule.decisions or not _asked(state, rule, seat):
            return []
        # Each tree lists its moves in move_key order and the decisions come
        # in the order of their kinds, so the list is sorted as it is built
        # (the playout tests check it).
        moves: list[pb.KingsLifeMove] = []
        for decision in rule.decisions.values():
            moves.extend(choices.moves(decision.tree(state, seat)))
        return moves

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
        shapes.check(move, kind, state.num_seats)
        phase = state.phase
        if phase == Phase.PHASE_GAME_OVER:
            raise GameFinishedError("King's Life: the game is over")
        rule = PHASES[phase]
        if not _asked(state, rule, seat):
            if rule.simultaneous:
                raise NotYourTurnError(
                    f"{rule.text}: seat {seat} is not asked (waiting for seats "
                    f"{', '.join(map(str, state.awaiting))})"
                )
            raise NotYourTurnError(
                f"{rule.text}: it is seat {state.turn}'s decision, not seat {seat}'s"
            )
        decision = rule.decisions.get(kind)
        if decision is None:
            raise IllegalMoveError(f"{rule.text}: seat {seat} cannot answer with {kind}")
        legal = choices.check(decision.tree(state, seat), move, decision.what)
        new = State()
        new.CopyFrom(state)
        events = phases.decide(new, seat, decision, legal)
        return new, events

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
