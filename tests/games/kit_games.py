"""Small games defined on the kit, for the kit's own tests (not registered).

* ``SealedTakes``: simultaneous Nim. Every round each seat secretly chooses how
  many stones to take; once all have chosen the choices are revealed and taken
  together; the round that empties the pile is won by the biggest choice. A
  pending choice lives in ``secrets`` (0 = not chosen yet). Built on the Nim
  messages.
* ``Snap``: like SealedTakes, but the first seat to choose 3 ("snap") ends the
  round at once, and the next round opens immediately for everyone: the same
  phase reopens in one move, so the phase declares an ``epoch`` (the round
  number, kept in ``last_mover``). ``SnapWithoutEpoch`` forgets it.
* ``Settlers``: seats take turns settling one region (a KingIsDeadMove with a
  Region enum), the last free region ends the game; built on the King Is Dead
  messages, to exercise enum checks and a move oneof with several kinds.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator

from throneroom.games.messages import GameMessages
from throneroom.v1 import king_is_dead_pb2 as kid
from throneroom.v1 import nim_pb2
from throneroom_server.games.core import Outcome, Seat, Viewer
from throneroom_server.games.kit import (
    Engine,
    GameDefinition,
    MoveKind,
    Option,
    PhaseTable,
    Testing,
    Variant,
    end,
    simultaneous,
    turn,
)
from throneroom_server.games.rng import Rng, seed_rng

State = nim_pb2.NimState
Move = nim_pb2.NimMove
Event = nim_pb2.NimEvent
View = nim_pb2.NimView
Options = nim_pb2.NimOptions

NIM_MESSAGES = GameMessages("nim", Options, State, Move, Event, View)

# --- SealedTakes -------------------------------------------------------------------------


def sealed_setup(options: Options, num_seats: int, seed: int) -> State:
    state = State(
        pile=options.pile or 12, max_take=options.max_take or 3, num_seats=num_seats, last_mover=0
    )
    seed_rng(state.rng, seed)
    state.secrets.extend([0] * num_seats)
    return state


def choosing(state: State) -> list[Seat]:
    return [seat for seat, chosen in enumerate(state.secrets) if chosen == 0]


def sealed_phase(state: State) -> str:
    return "over" if state.HasField("outcome") else "choose"


def choices(state: State, seat: Seat) -> Iterator[Move]:
    for stones in range(1, state.max_take + 1):
        yield Move(take=stones)


def reveal(state: State, events: list[Event]) -> None:
    chosen = list(state.secrets)
    state.pile = max(0, state.pile - sum(chosen))
    events.extend(
        Event(took=Event.Took(seat=s, stones=c, pile_left=state.pile)) for s, c in enumerate(chosen)
    )
    if state.pile == 0:
        most = max(chosen)
        state.outcome.CopyFrom(
            Outcome(
                winners=[s for s, c in enumerate(chosen) if c == most],
                termination="last_round",
                summary=f"the pile emptied; the most taken was {most}",
            )
        )
    state.secrets[:] = [0] * state.num_seats
    state.last_mover += 1  # the round number


def choose(state: State, seat: Seat, move: Move, events: list[Event]) -> None:
    state.secrets[seat] = move.take
    if all(state.secrets):
        reveal(state, events)


def sealed_view(state: State, viewer: Viewer) -> View:
    view = View(pile=state.pile, max_take=state.max_take, to_move=-1, num_seats=state.num_seats)
    if viewer is not None:
        view.my_secret = state.secrets[viewer]
    if state.HasField("outcome"):
        view.outcome.CopyFrom(state.outcome)
    return view


def sealed_randomize(state: State, viewer: Viewer, seed: int) -> State:
    new = State()
    new.CopyFrom(state)
    seed_rng(new.rng, seed)
    rng = Rng(new.rng)
    for seat, chosen in enumerate(new.secrets):
        if seat != viewer and chosen:
            new.secrets[seat] = 1 + rng.below(new.max_take)
    return new


def one_choice_per_seat(state: State) -> None:
    assert len(state.secrets) == state.num_seats, "one pending choice per seat"


SEALED: GameDefinition[Options, State, Move, Event, View] = GameDefinition(
    messages=NIM_MESSAGES,
    title="Sealed takes",
    description="Simultaneous Nim.",
    min_seats=2,
    max_seats=4,
    hidden_information=True,
    chance=False,
    default_options=Options(pile=12, max_take=3),
    options=(Option("pile", "stones at the start", minimum=0, maximum=100),),
    max_decisions=lambda options, seats: (options.pile or 12) * seats,
    setup=sealed_setup,
    phases=PhaseTable(
        phase_of=sealed_phase,
        phases=(
            simultaneous(
                "choose",
                seats=choosing,
                moves=["take"],
                ends="every seat has chosen: the choices are revealed together",
                follows=["over"],
            ),
            end("over"),
        ),
        start=("choose",),
    ),
    moves=(MoveKind("take", generate=choices, play=choose),),
    view=sealed_view,
    randomize_hidden=sealed_randomize,
    invariants=(one_choice_per_seat,),
    # The reveal shows every choice; the view keeps only the pile (which stops at 0).
    testing=Testing(variants=(Variant(2), Variant(3)), event_only_reveals=frozenset({"took"})),
)


class SealedTakes(Engine[Options, State, Move, Event, View]):
    definition = SEALED


# --- Snap: the same phase reopens within one move ------------------------------------------


def snap(state: State, seat: Seat, move: Move, events: list[Event]) -> None:
    state.secrets[seat] = move.take
    if move.take == 3 or all(state.secrets):
        for other, chosen in enumerate(state.secrets):
            if not chosen:
                state.secrets[other] = 1
        reveal(state, events)


def round_number(state: State) -> int:
    return state.last_mover


def _snap_phases(epoch: bool) -> PhaseTable[State]:
    return PhaseTable(
        phase_of=sealed_phase,
        phases=(
            simultaneous(
                "choose",
                seats=choosing,
                moves=["take"],
                ends="every seat has chosen, or one snapped (chose 3)",
                follows=["over"],
                epoch=round_number if epoch else None,
            ),
            end("over"),
        ),
        start=("choose",),
    )


SNAP = dataclasses.replace(
    SEALED,
    title="Snap",
    phases=_snap_phases(epoch=True),
    moves=(MoveKind("take", generate=choices, play=snap),),
)


class Snap(Engine[Options, State, Move, Event, View]):
    definition = SNAP


class SnapWithoutEpoch(Engine[Options, State, Move, Event, View]):
    definition = dataclasses.replace(SNAP, phases=_snap_phases(epoch=False))


# --- Settlers: enums and several move kinds ------------------------------------------------

KidState = kid.KingIsDeadState
KidMove = kid.KingIsDeadMove
KID_MESSAGES = GameMessages(
    "king_is_dead",
    kid.KingIsDeadOptions,
    KidState,
    KidMove,
    kid.KingIsDeadEvent,
    kid.KingIsDeadView,
)
REGIONS = (kid.REGION_CALEDONIA, kid.REGION_DIN_EIDYN, kid.REGION_DEVA)


def settlers_setup(options: kid.KingIsDeadOptions, num_seats: int, seed: int) -> KidState:
    state = KidState(num_seats=num_seats)
    for region in REGIONS:
        state.regions.add(region=region)
    return state


def settlers_phase(state: KidState) -> str:
    return "over" if state.HasField("outcome") else "settle"


def free_regions(state: KidState, seat: Seat) -> Iterator[KidMove]:
    for region in state.regions:
        if not region.control:
            yield KidMove(settle=KidMove.Settle(region=region.region))


def passes(state: KidState, seat: Seat) -> Iterator[KidMove]:
    yield KidMove(pass_turn=KidMove.Pass())


def settle(state: KidState, seat: Seat, move: KidMove, events: list[kid.KingIsDeadEvent]) -> None:
    for region in state.regions:
        if region.region == move.settle.region:
            region.control = kid.REGION_CONTROL_SCOTS
    if all(r.control for r in state.regions):
        state.outcome.CopyFrom(
            Outcome(winners=[seat], termination="settled", summary=f"seat {seat} settled last")
        )
    else:
        state.to_move = (seat + 1) % state.num_seats


def pass_turn(
    state: KidState, seat: Seat, move: KidMove, events: list[kid.KingIsDeadEvent]
) -> None:
    state.to_move = (seat + 1) % state.num_seats


def _never(state: KidState, seat: Seat) -> Iterator[KidMove]:
    return iter(())


def _unplayable(
    state: KidState, seat: Seat, move: KidMove, events: list[kid.KingIsDeadEvent]
) -> None:
    raise AssertionError("never listed, so never played")


OTHER_KINDS = ("play_card", "crown", "garrison", "ambassador", "place", "summon")

SETTLERS: GameDefinition[
    kid.KingIsDeadOptions, KidState, KidMove, kid.KingIsDeadEvent, kid.KingIsDeadView
] = GameDefinition(
    messages=KID_MESSAGES,
    title="Settlers",
    description="Settle the last free region.",
    min_seats=2,
    max_seats=3,
    hidden_information=False,
    chance=False,
    default_options=kid.KingIsDeadOptions(),
    options=(),
    max_decisions=lambda options, seats: 100,
    setup=settlers_setup,
    phases=PhaseTable(
        phase_of=settlers_phase,
        phases=(
            turn(
                "settle",
                seat=lambda state: state.to_move,
                moves=["settle", "pass_turn"],
                ends="every region is settled",
                follows=["over"],
            ),
            turn(
                "never",
                seat=lambda state: state.to_move,
                moves=OTHER_KINDS,
                ends="never entered",
                follows=["over"],
            ),
            end("over"),
        ),
        start=("settle", "never"),
    ),
    moves=(
        MoveKind(
            "settle",
            generate=free_regions,
            play=settle,
            explain=lambda state, seat, move: f"region {move.settle.region} is settled already",
        ),
        MoveKind("pass_turn", generate=passes, play=pass_turn),
        *(MoveKind(name, generate=_never, play=_unplayable) for name in OTHER_KINDS),
    ),
    view=lambda state, viewer: kid.KingIsDeadView(num_seats=state.num_seats),
    randomize_hidden=lambda state, viewer, seed: state,
    invariants=(),
)


class Settlers(
    Engine[kid.KingIsDeadOptions, KidState, KidMove, kid.KingIsDeadEvent, kid.KingIsDeadView]
):
    definition = SETTLERS
