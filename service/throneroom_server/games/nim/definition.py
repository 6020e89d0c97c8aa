"""Nim's definition: the rules of :mod:`.rules` declared on the kit. ``NIM`` is
the object the engine runs."""

from __future__ import annotations

from throneroom.games.messages import GameMessages

from throneroom_server.games.kit import (
    Engine,
    GameDefinition,
    Golden,
    MoveKind,
    Option,
    PhaseTable,
    Testing,
    Variant,
    end,
    turn,
)
from throneroom_server.games.nim.rules import (
    DEFAULT_MAX_TAKE,
    DEFAULT_PILE,
    OVER,
    SECRET_RANGE,
    TAKE,
    Event,
    Move,
    Options,
    State,
    View,
    check_move,
    explain_take,
    max_decisions,
    narrow_take,
    one_secret_per_seat,
    over_exactly_when_empty,
    phase_of,
    pile_is_not_negative,
    randomize_hidden,
    redact_event,
    setup,
    take,
    take_moves,
    to_move,
    view,
)

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
