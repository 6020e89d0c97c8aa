"""Nim: the framework's fixture game (see proto/throneroom/v1/nim.proto).

Small on purpose, yet it has what the framework must handle: turns, a chance
element (secrets dealt from the RNG), hidden information and an outcome.
"""

from __future__ import annotations

from collections.abc import Sequence

from throneroom.v1 import nim_pb2

from throneroom_server.games.core import (
    GameFinishedError,
    GameInfo,
    IllegalMoveError,
    InvalidMoveError,
    InvalidOptionsError,
    NotYourTurnError,
    OptionSpec,
    Outcome,
    Seat,
    Viewer,
)
from throneroom_server.games.rng import Rng, seed_rng

DEFAULT_PILE = 21
DEFAULT_MAX_TAKE = 3


class Nim:
    info = GameInfo(
        name="nim",
        title="Nim (fixture)",
        description="Take 1..max_take stones; whoever takes the last stone wins.",
        min_seats=2,
        max_seats=4,
        hidden_information=True,
        simultaneous_decisions=False,
        options=(
            OptionSpec("pile", "stones in the pile at the start", str(DEFAULT_PILE)),
            OptionSpec("max_take", "most stones one move may take", str(DEFAULT_MAX_TAKE)),
        ),
    )

    def default_options(self) -> nim_pb2.NimOptions:
        return nim_pb2.NimOptions(pile=DEFAULT_PILE, max_take=DEFAULT_MAX_TAKE)

    def validate_options(self, options: nim_pb2.NimOptions, num_seats: int) -> None:
        if not self.info.min_seats <= num_seats <= self.info.max_seats:
            raise InvalidOptionsError(f"nim is played by 2-4 seats, not {num_seats}")
        if options.pile < 0 or options.pile > 1000:
            raise InvalidOptionsError("pile must be in 1..1000")
        if options.max_take < 0 or options.max_take > 10:
            raise InvalidOptionsError("max_take must be in 1..10")

    def setup(self, options: nim_pb2.NimOptions, num_seats: int, seed: int) -> nim_pb2.NimState:
        self.validate_options(options, num_seats)
        state = nim_pb2.NimState(
            pile=options.pile or DEFAULT_PILE,
            max_take=options.max_take or DEFAULT_MAX_TAKE,
            num_seats=num_seats,
            last_mover=-1,
        )
        seed_rng(state.rng, seed)
        rng = Rng(state.rng)
        state.secrets.extend(rng.below(1000) for _ in range(num_seats))
        return state

    def max_decisions(self, options: nim_pb2.NimOptions, num_seats: int) -> int:
        return options.pile or DEFAULT_PILE

    def to_act(self, state: nim_pb2.NimState) -> Sequence[Seat]:
        return () if state.HasField("outcome") else (state.to_move,)

    def legal_moves(self, state: nim_pb2.NimState, seat: Seat) -> list[nim_pb2.NimMove]:
        if state.HasField("outcome") or seat != state.to_move:
            return []
        return [nim_pb2.NimMove(take=n) for n in range(1, min(state.max_take, state.pile) + 1)]

    def apply(
        self, state: nim_pb2.NimState, seat: Seat, move: nim_pb2.NimMove
    ) -> tuple[nim_pb2.NimState, list[nim_pb2.NimEvent]]:
        if move.take <= 0:
            raise InvalidMoveError(f"a move takes at least one stone, not {move.take}")
        if state.HasField("outcome"):
            raise GameFinishedError("the game is over")
        if seat != state.to_move:
            raise NotYourTurnError(f"it is seat {state.to_move}'s turn, not seat {seat}'s")
        if move.take > min(state.max_take, state.pile):
            raise IllegalMoveError(
                f"cannot take {move.take} stones: {state.pile} left, at most {state.max_take}"
            )
        new = nim_pb2.NimState()
        new.CopyFrom(state)
        new.pile -= move.take
        new.last_mover = seat
        events = [
            nim_pb2.NimEvent(
                took=nim_pb2.NimEvent.Took(seat=seat, stones=move.take, pile_left=new.pile)
            ),
            # A private event: only the mover learns (again) its secret.
            nim_pb2.NimEvent(
                secret_peeked=nim_pb2.NimEvent.SecretPeeked(seat=seat, secret=new.secrets[seat])
            ),
        ]
        if new.pile == 0:
            new.outcome.CopyFrom(
                Outcome(
                    winners=[seat],
                    termination="last_stone",
                    summary=f"seat {seat} took the last stone",
                )
            )
        else:
            # Reshuffle the mover's secret so secrets change over the game.
            new.secrets[seat] = Rng(new.rng).below(1000)
            new.to_move = (seat + 1) % new.num_seats
        return new, events

    def outcome(self, state: nim_pb2.NimState) -> Outcome | None:
        return state.outcome if state.HasField("outcome") else None

    def view(self, state: nim_pb2.NimState, viewer: Viewer) -> nim_pb2.NimView:
        view = nim_pb2.NimView(
            pile=state.pile,
            max_take=state.max_take,
            to_move=state.to_move,
            num_seats=state.num_seats,
        )
        if viewer is not None:
            view.my_secret = state.secrets[viewer]
        if state.HasField("outcome"):
            view.outcome.CopyFrom(state.outcome)
        return view

    def move_key(self, move: nim_pb2.NimMove) -> tuple[int, ...]:
        return (move.take,)

    def check_invariants(self, state: nim_pb2.NimState) -> None:
        assert state.pile >= 0, "negative pile"
        assert len(state.secrets) == state.num_seats, "one secret per seat"
        assert state.HasField("outcome") == (state.pile == 0), "over exactly when empty"

    def randomize_hidden(
        self, state: nim_pb2.NimState, viewer: Viewer, seed: int
    ) -> nim_pb2.NimState:
        new = nim_pb2.NimState()
        new.CopyFrom(state)
        seed_rng(new.rng, seed)
        rng = Rng(new.rng)
        for seat in range(new.num_seats):
            if seat != viewer:
                new.secrets[seat] = rng.below(1000)
        seed_rng(new.rng, seed ^ 0x9E3779B97F4A7C15)
        return new

    def redact_event(self, event: nim_pb2.NimEvent, viewer: Viewer) -> nim_pb2.NimEvent | None:
        if event.HasField("secret_peeked") and event.secret_peeked.seat != viewer:
            return None
        return event
