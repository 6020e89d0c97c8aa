"""Nim: the framework's fixture game (see proto/throneroom/v1/nim.proto), and the
worked example of docs/adding-a-game.md.

Small on purpose, yet it has what the framework must handle: turns, a chance
element (secrets dealt from the RNG), hidden information and an outcome. The
whole game is the definition ``NIM`` at the bottom: everything above it is
plain functions over the generated messages.
"""

from __future__ import annotations

from collections.abc import Iterator

from throneroom.games.messages import GameMessages
from throneroom.v1 import nim_pb2

from throneroom_server.games.core import InvalidMoveError, Outcome, Seat, Viewer
from throneroom_server.games.kit import (
    Engine,
    GameDefinition,
    Golden,
    MoveKind,
    Option,
    PhaseTable,
    Testing,
    Variant,
    chance,
    end,
    turn,
)
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


# --- The definition ---------------------------------------------------------------------------

NIM: GameDefinition[Options, State, Move, Event, View] = GameDefinition(
    messages=GameMessages("nim", Options, State, Move, Event, View),
    title="Nim (fixture)",
    description="Take 1..max_take stones; whoever takes the last stone wins.",
    min_seats=2,
    max_seats=4,
    hidden_information=True,
    chance=True,
    max_chance_outcomes=SECRET_RANGE,
    default_options=Options(pile=DEFAULT_PILE, max_take=DEFAULT_MAX_TAKE),
    options=(
        Option("pile", "stones in the pile at the start", minimum=0, maximum=1000),
        Option("max_take", "most stones one move may take", minimum=0, maximum=10),
    ),
    max_decisions=max_decisions,
    setup=setup,
    phases=PhaseTable(
        phase_of=phase_of,
        phases=(
            turn(
                TAKE, seat=to_move, moves=["take"], ends="the last stone is taken", follows=[OVER]
            ),
            end(OVER),
        ),
        start=(TAKE,),
    ),
    moves=(
        MoveKind("take", generate=take_moves, play=take, narrow=narrow_take, explain=explain_take),
    ),
    check_move=check_move,
    view=view,
    redact_event=redact_event,
    randomize_hidden=randomize_hidden,
    invariants=(pile_is_not_negative, one_secret_per_seat, over_exactly_when_empty),
    testing=Testing(
        variants=(Variant(2), Variant(3), Variant(4)),
        examples=10,
        deep_rate=1.0,
        golden=(Golden(Variant(2), seed=7),),
    ),
    fixture=True,
)


class Nim(Engine[Options, State, Move, Event, View]):
    """Nim's engine: everything derived from NIM."""

    definition = NIM
