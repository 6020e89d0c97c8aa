"""Nim's rules as plain functions over the generated messages: setup, the
phase, the one kind of move (take stones), views, redaction and invariants.
:mod:`.definition` declares them on the kit as ``NIM``."""

from __future__ import annotations

from collections.abc import Iterator

from throneroom.v1 import nim_pb2

from throneroom_server.games.core import InvalidMoveError, Outcome, Seat, Viewer
from throneroom_server.games.kit import chance
from throneroom_server.games.rng import Rng, seed_rng

Options = nim_pb2.NimOptions
State = nim_pb2.NimState
Move = nim_pb2.NimMove
Event = nim_pb2.NimEvent
View = nim_pb2.NimView

DEFAULT_PILE = 21
DEFAULT_MAX_TAKE = 3
SECRET_RANGE = 1000

# --- Setup ------------------------------------------------------------------------------


def setup(options: Options, num_seats: int, seed: int) -> State:
    state = State(
        pile=options.pile or DEFAULT_PILE,
        max_take=options.max_take or DEFAULT_MAX_TAKE,
        num_seats=num_seats,
        last_mover=-1,
    )
    seed_rng(state.rng, seed)
    rng = Rng(state.rng)
    state.secrets.extend(chance.draw(rng, "secret", SECRET_RANGE) for _ in range(num_seats))
    return state


def max_decisions(options: Options, num_seats: int) -> int:
    return options.pile or DEFAULT_PILE


# --- Phases: one seat takes at a time until the pile is empty -----------------------------

TAKE = "take"
OVER = "over"


def phase_of(state: State) -> str:
    return OVER if state.HasField("outcome") else TAKE


def to_move(state: State) -> Seat:
    return state.to_move


# --- The one kind of move: take stones ---------------------------------------------------


def take_moves(state: State, seat: Seat, only: int | None = None) -> Iterator[Move]:
    """Every legal take of ``seat`` (only the take of ``only`` stones, if legal:
    the generator narrowed, for the membership test)."""
    most = min(state.max_take, state.pile)
    for stones in range(1, most + 1) if only is None else (only,):
        if 1 <= stones <= most:
            yield Move(take=stones)


def narrow_take(state: State, seat: Seat, move: Move) -> Iterator[Move]:
    return take_moves(state, seat, only=move.take)


def explain_take(state: State, seat: Seat, move: Move) -> str:
    return f"cannot take {move.take} stones: {state.pile} left, at most {state.max_take}"


def check_move(state: State, move: Move) -> None:
    if move.take <= 0:
        raise InvalidMoveError(f"a move takes at least one stone, not {move.take}")


def take(state: State, seat: Seat, move: Move, events: list[Event]) -> None:
    state.pile -= move.take
    state.last_mover = seat
    events.append(Event(took=Event.Took(seat=seat, stones=move.take, pile_left=state.pile)))
    # A private event: only the mover learns (again) its secret.
    events.append(Event(secret_peeked=Event.SecretPeeked(seat=seat, secret=state.secrets[seat])))
    if state.pile == 0:
        state.outcome.CopyFrom(
            Outcome(
                winners=[seat],
                termination="last_stone",
                summary=f"seat {seat} took the last stone",
            )
        )
    else:
        # Reshuffle the mover's secret so secrets change over the game.
        state.secrets[seat] = chance.draw(Rng(state.rng), "secret", SECRET_RANGE)
        state.to_move = (seat + 1) % state.num_seats


# --- What each viewer sees ------------------------------------------------------------------


def view(state: State, viewer: Viewer) -> View:
    seen = View(
        pile=state.pile,
        max_take=state.max_take,
        to_move=state.to_move,
        num_seats=state.num_seats,
    )
    if viewer is not None:
        seen.my_secret = state.secrets[viewer]
    if state.HasField("outcome"):
        seen.outcome.CopyFrom(state.outcome)
    return seen


def redact_event(event: Event, viewer: Viewer) -> Event | None:
    if event.HasField("secret_peeked") and event.secret_peeked.seat != viewer:
        return None
    return event


def randomize_hidden(state: State, viewer: Viewer, seed: int) -> State:
    new = State()
    new.CopyFrom(state)
    seed_rng(new.rng, seed)
    rng = Rng(new.rng)
    for seat in range(new.num_seats):
        if seat != viewer:
            new.secrets[seat] = rng.below(SECRET_RANGE)
    seed_rng(new.rng, seed ^ 0x9E3779B97F4A7C15)
    return new


# --- Invariants -------------------------------------------------------------------------------


def pile_is_not_negative(state: State) -> None:
    assert state.pile >= 0, "negative pile"


def one_secret_per_seat(state: State) -> None:
    assert len(state.secrets) == state.num_seats, "one secret per seat"


def over_exactly_when_empty(state: State) -> None:
    assert state.HasField("outcome") == (state.pile == 0), "over exactly when empty"
