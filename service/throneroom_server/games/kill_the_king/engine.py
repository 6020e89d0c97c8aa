"""Kill the King as one GameDefinition: its phase table, move kinds, views,
invariants and test declarations (docs/rules/kill_the_king.md, section 17).

The flow: CHOOSE_SIDE -> PURCHASE -> LEADER -> PLACEMENT (simultaneous,
hidden) -> rounds of turns: [REINFORCEMENT ->] MOVEMENT -> ATTACK [->
FOLLOW_UP / DISBAND -> ATTACK] -> ... -> OVER. Every effect is followed by the
checks that end the game at once (the King's Door, annihilation, KK-116,
KK-118).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import partial

from throneroom.games.kill_the_king.data import DIE_SIDES, LEADERS, UNITS, Mode, UnitType, mode_of
from throneroom.games.messages import GameMessages
from throneroom.v1 import kill_the_king_pb2 as pb

from throneroom_server.games.core import InvalidMoveError, InvalidOptionsError
from throneroom_server.games.kill_the_king import (
    climbing,
    combat,
    combat_deaths,
    derived,
    movement,
    setup,
    treasury,
    turns,
    views,
)
from throneroom_server.games.kill_the_king import state as st
from throneroom_server.games.kill_the_king.invariants import INVARIANTS
from throneroom_server.games.kill_the_king.keys import Key, move_key
from throneroom_server.games.kill_the_king.scope import (
    ALL_BUYABLE,
    LEADERS_IN_PLAY,
    MODES_IN_PLAY,
    UNITS_IN_PLAY,
)
from throneroom_server.games.kit import (
    Engine,
    Fast,
    GameDefinition,
    Golden,
    MoveKind,
    Option,
    PhaseField,
    PhaseTable,
    Testing,
    Variant,
    end,
    memoized,
    simultaneous,
    turn,
)
from throneroom_server.games.rng import Rng

Options = pb.KillTheKingOptions
State = pb.KillTheKingState
Move = pb.KillTheKingMove
Event = pb.KillTheKingEvent
View = pb.KillTheKingView
S = pb.KillTheKingState

Play = Callable[[State, int, Move, list[Event]], None]
Generate = Callable[[State, int], Iterable[Move]]


# --- setup and bounds -----------------------------------------------------------------------


def check_options(options: Options, num_seats: int) -> None:
    spec = mode_of(options.mode)
    if spec.mode not in MODES_IN_PLAY:
        raise InvalidOptionsError(f"the mode {spec.name} is not available yet")
    if not spec.min_seats <= num_seats <= spec.max_seats:
        players = (
            f"{spec.min_seats}"
            if spec.min_seats == spec.max_seats
            else f"{spec.min_seats}-{spec.max_seats}"
        )
        raise InvalidOptionsError(
            f"{spec.name} is for {players} players, not {num_seats}"
            + ("" if spec.giga else " (the Giga modes take 2-4 players in two teams)")
        )


def new_game(options: Options, num_seats: int, seed: int) -> State:
    return setup.setup_state(mode_of(options.mode).mode, options.advanced, num_seats, seed)


def max_decisions(options: Options, num_seats: int) -> int:
    """A bound on any game's decisions (KK-120): the setup (a purchase per three
    coins, the Treasurer's too, each bringing up to two free extras, two leaders,
    a placement per counter), then per turn for each counter its movement points
    (a Catapult's paid rotations among them), a climb, a prepared climb, a
    dismount, an attack and a follow-up; a free rotation of each counter
    between two of those other moves of its side (KK-31); plus the phase ends,
    the reinforcements and the removals after a Treasurer's death. Giga: every
    seat of a side ends its own phases, and each board half may get
    reinforcements."""
    spec = mode_of(options.mode)
    cheapest = min(UNITS[t].cost for t in ALL_BUYABLE)
    per_purchase = 1 + max(UNITS[t].free_extras for t in ALL_BUYABLE)
    treasurer = LEADERS[UnitType.TREASURER].extra_coins
    coins = spec.attacker_budget + spec.defender_budget + 2 * spec.leaders_per_side * treasurer
    counters = coins // cheapest * per_purchase + spec.free_rams + 2 * spec.leaders_per_side
    reinforcements = (
        spec.boards * spec.reinforcements_per_board * UNITS[UnitType.CAVALRY].cost // cheapest
    )
    counters += reinforcements
    most_movement = max(UNITS[t].movement for t in (*UNITS_IN_PLAY, *LEADERS_IN_PLAY))
    other_moves = counters * (most_movement + 5 + 1 + 1 + 1)  # points (bonuses), climbs, dismount
    free_rotations = counters * (other_moves + 1)
    phase_ends = 3 + 2 * (num_seats - 2) + (spec.boards - 1)
    per_turn = other_moves + free_rotations + counters * 2 + phase_ends + reinforcements + counters
    setup_moves = 1 + counters + 2 * spec.leaders_per_side + counters
    return setup_moves + spec.rounds * 2 * per_turn


# --- the phase table ---------------------------------------------------------------------------

_PHASE_NAMES = {
    S.PHASE_CHOOSE_SIDE: "choose_side",
    S.PHASE_PURCHASE: "purchase",
    S.PHASE_LEADER: "leader",
    S.PHASE_EXTRA_PURCHASE: "extra_purchase",
    S.PHASE_PLACEMENT: "placement",
    S.PHASE_REINFORCEMENT: "reinforcement",
    S.PHASE_MOVEMENT: "movement",
    S.PHASE_ATTACK: "attack",
    S.PHASE_FOLLOW_UP: "follow_up",
    S.PHASE_DISBAND: "disband",
    S.PHASE_OVER: "over",
}


phase_of: PhaseField[State] = PhaseField("phase", _PHASE_NAMES)
"""The phase of a state: its ``phase`` field's (read by the kit in C)."""


OVER = S.PHASE_OVER


def to_move(state: State) -> int:
    return state.to_move


def _then_check(play: Play) -> Play:
    """An effect of play, followed by the Flaming Pigs' explosions (KK-87,
    KK-150), the ends that come at once (KK-116, KK-118), then the removals a
    Treasurer's death owes (KK-104)."""

    def played(state: State, seat: int, move: Move, events: list[Event]) -> None:
        play(state, seat, move, events)
        # Flaming Pigs are Advanced: without the option none is in the game
        # (invariants.advanced_units_only_when_advanced), nothing can explode.
        if state.advanced and state.round > 0 and state.phase != OVER:
            combat_deaths.detonate(state, Rng(state.rng), events)  # on any turn (KK-87)
        if not turns.check_game_over(state, events):
            treasury.open_disband(state, events)

    return played


# --- attacks and follow-ups: the combat module's, wired here ----------------------------


def attack_moves(state: State, seat: int) -> list[Move]:
    return combat.attack_moves(state, st.field(state), seat)


def attack(state: State, seat: int, move: Move, events: list[Event]) -> None:
    combat.apply_attack(state, st.field(state), seat, move, Rng(state.rng), events)
    if state.HasField("follow_up") and state.phase == S.PHASE_ATTACK:
        state.resume_phase = S.PHASE_ATTACK
        state.phase = S.PHASE_FOLLOW_UP
        events.append(Event(phase_started=Event.PhaseStarted(phase=state.phase)))


def follow_up_moves(state: State, seat: int) -> list[Move]:
    return combat.follow_up_moves(state, st.field(state), seat)


def follow_up(state: State, seat: int, move: Move, events: list[Event]) -> None:
    combat.apply_follow_up(state, st.field(state), seat, move, Rng(state.rng), events)
    state.ClearField("follow_up")
    state.phase = state.resume_phase
    state.resume_phase = S.PHASE_UNSPECIFIED


def narrow_end_phase(state: State, seat: int, move: Move) -> list[Move]:
    return list(turns.end_phase_moves(state, seat))


def check_move(state: State, move: Move) -> Key:
    """Unit ids out of range are malformed (the kit checks the rest); then the
    move's key, which the listed kinds' ``member`` searches for."""
    kind = move.WhichOneof("decision")
    if kind in ("place", "step", "rotate", "climb", "prepare_climb", "dismount", "attack"):
        uid = getattr(move, kind).unit
        if not 0 <= uid < len(state.units):
            raise InvalidMoveError(f"no unit {uid}")
    return move_key(move)


PLAY = ("movement", "attack", "follow_up", "disband", "reinforcement")

LISTED = memoized(derived.Derived.moves)
"""The generator of the phases listed at once (placement, movement, attack):
the engine's ``Derived`` (derived.py), which keeps the last few listings."""

PHASES: PhaseTable[State] = PhaseTable(
    phase_of=phase_of,
    phases=(
        turn(
            "choose_side",
            seat=to_move,
            moves=["choose_side"],
            ends="the initiative winner picks its side (KK-14)",
            follows=["purchase"],
        ),
        turn(
            "purchase",
            seat=to_move,
            moves=["buy", "buy_suggested_army"],
            ends="neither seat can buy anything more (KK-16)",
            follows=["leader"],
        ),
        turn(
            "leader",
            seat=to_move,
            moves=["choose_leader"],
            ends="the defender has chosen its leader (KK-20)",
            follows=["extra_purchase", "placement"],
        ),
        turn(
            "extra_purchase",
            seat=to_move,
            moves=["buy"],
            ends="no Treasurer's side can buy anything more (KK-21)",
            follows=["placement"],
        ),
        simultaneous(
            "placement",
            seats=views.to_act,
            moves=["place"],
            generate=LISTED,
            ordered=True,
            ends="every seat has placed every counter: the reveal (KK-22, KK-27)",
            follows=["movement", "disband", "over"],
        ),
        turn(
            "reinforcement",
            seat=to_move,
            moves=["reinforce", "end_phase"],
            generate=turns.reinforcement_moves,
            ordered=True,
            ends="the defender ends it, its Cavalry placed (KK-40)",
            follows=["movement", "disband", "over"],
        ),
        turn(
            "movement",
            seat=to_move,
            moves=["step", "rotate", "climb", "prepare_climb", "dismount", "end_phase"],
            ends="the side ends it (KK-33)",
            generate=LISTED,
            ordered=True,
            follows=["attack", "disband", "over"],
        ),
        turn(
            "attack",
            seat=to_move,
            moves=["attack", "end_phase"],
            generate=LISTED,
            ordered=True,
            ends="the side ends it; then the end of the turn (KK-29, KK-34)",
            follows=["movement", "reinforcement", "follow_up", "disband", "over"],
        ),
        turn(
            "follow_up",
            seat=to_move,
            moves=["follow_up"],
            ends="the Cavalry advances and charges again, or stays (KK-78)",
            follows=["attack", "disband", "over"],
        ),
        turn(
            "disband",
            seat=to_move,
            moves=["disband"],
            ends="units worth 12 coins are removed (KK-104)",
            follows=["movement", "attack", "reinforcement", "over"],
        ),
        end("over"),
    ),
    start=("choose_side",),
)


Narrow = Callable[[State, int, Move], list[Move]]


def _kind(
    name: str,
    generate: Generate | Callable[[State, int], list[Move]],
    play: Play,
    narrow: Narrow | None = None,
    *,
    ordered: bool = False,
) -> MoveKind[State, Move, Event]:
    return MoveKind(name, generate=generate, play=_then_check(play), narrow=narrow, ordered=ordered)


def _listed_kind(
    name: str,
    generate: Generate | Callable[[State, int], list[Move]],
    play: Play,
    narrow: Narrow,
    effect: Callable[..., None] | None = None,
) -> MoveKind[State, Move, Event]:
    """A kind of the phases listed at once: its membership a search of the
    memo's listing (``derived.member``); ``effect`` (the memo first, then the
    kind's effect) derives the next listing from the one before."""
    checked = _then_check(play)
    return MoveKind(
        name,
        generate=generate,
        play=checked if effect is None else memoized(partial(effect, checked)),
        narrow=narrow,
        member=memoized(partial(derived.member, narrow)),
    )


def _attack_candidates(state: State, seat: int, move: Move) -> list[Move]:
    return attack_moves(state, seat)


MOVES: tuple[MoveKind[State, Move, Event], ...] = (
    _kind("choose_side", setup.choose_side_moves, setup.choose_side),
    _kind("buy", setup.buy_moves, setup.buy),
    _kind("buy_suggested_army", setup.suggested_army_moves, setup.buy_suggested_army),
    _kind("choose_leader", setup.leader_moves, setup.choose_leader),
    _listed_kind("place", setup.place_moves, setup.place, setup.narrow_place),
    _kind(
        "reinforce", turns.reinforce_moves, turns.reinforce, turns.narrow_reinforce, ordered=True
    ),
    _listed_kind(
        "step",
        movement.step_moves,
        movement.step,
        movement.narrow_step,
        partial(derived.step, _then_check),
    ),
    _listed_kind(
        "rotate", movement.rotate_moves, movement.rotate, movement.narrow_rotate, derived.rotate
    ),
    _listed_kind(
        "climb",
        climbing.climb_moves,
        climbing.climb,
        climbing.narrow_climb,
        partial(derived.plain_move, "climbed"),
    ),
    _listed_kind(
        "prepare_climb",
        climbing.prepare_climb_moves,
        climbing.prepare_climb,
        climbing.narrow_prepare_climb,
    ),
    _listed_kind(
        "dismount",
        movement.dismount_moves,
        movement.dismount,
        movement.narrow_dismount,
        partial(derived.plain_move, "flipped"),
    ),
    _listed_kind("attack", attack_moves, attack, _attack_candidates),
    _kind("follow_up", follow_up_moves, follow_up),
    _kind("disband", treasury.disband_moves, treasury.disband),
    _listed_kind("end_phase", turns.end_phase_moves, turns.end_phase, narrow_end_phase),
)

GIGA_VARIANTS = tuple(
    Variant(seats, (("mode", int(mode)),))
    for mode in (Mode.KILL_THE_KING_GIGA, Mode.ATTACK_AND_DEFENSE_GIGA)
    for seats in (2, 3, 4)
)
"""Both Giga modes at 2, 3 and 4 seats (KK-123), for the conformance suite and goldens."""

KILL_THE_KING: GameDefinition[Options, State, Move, Event, View] = GameDefinition(
    messages=GameMessages("kill_the_king", Options, State, Move, Event, View),
    title="Kill the King",
    description=(
        "Castle siege for two (or 2-4 in two teams on two joined boards, Giga): buy an "
        "army, place it hidden, then attack the King's Door (or break through in Attack "
        "and Defense) within the round limit."
    ),
    min_seats=2,
    max_seats=4,
    hidden_information=True,
    chance=True,
    max_chance_outcomes=DIE_SIDES,  # every chance step is a d6 (dice.py)
    default_options=Options(mode=pb.KILL_THE_KING_MODE_KILL_THE_KING),
    options=(
        Option(
            "mode",
            "KILL_THE_KING (default), ATTACK_AND_DEFENSE (2 players); KILL_THE_KING_GIGA "
            "or ATTACK_AND_DEFENSE_GIGA (two boards joined, 2-4 players in two teams: "
            "seats 0 and 2 against seats 1 and 3)",
        ),
        Option(
            "advanced",
            "the units and leader the chart marks Advanced (Peasant, War Elephant, "
            "Flaming Pigs, Ballista, Siege Tower, the Beastmaster)",
        ),
    ),
    max_decisions=max_decisions,
    setup=new_game,
    setup_events=setup.setup_events,
    phases=PHASES,
    moves=MOVES,
    check_options=check_options,
    check_move=check_move,
    fast=Fast(memo=derived.Derived),
    move_key=move_key,
    view=views.view,
    redact_event=views.redact_event,
    randomize_hidden=views.randomize_hidden,
    invariants=INVARIANTS,
    testing=Testing(
        variants=(
            Variant(2),
            Variant(2, (("mode", int(Mode.ATTACK_AND_DEFENSE)),)),
            Variant(2, (("advanced", True),)),
            Variant(2, (("mode", int(Mode.ATTACK_AND_DEFENSE)), ("advanced", True))),
            *GIGA_VARIANTS,
        ),
        examples=3,
        deep_rate=0.05,
        # Every die and every save is public (KK-35, KK-37, KK-121), but no view
        # keeps them: a missed attack and a saved one leave the same field.
        event_only_reveals=frozenset({"die_rolled", "unit_saved"}),
        golden=(
            Golden(Variant(2), seed=7),
            Golden(Variant(2, (("mode", int(Mode.ATTACK_AND_DEFENSE)),)), seed=7),
            Golden(Variant(2, (("advanced", True),)), seed=7),
            Golden(
                Variant(2, (("mode", int(Mode.ATTACK_AND_DEFENSE)), ("advanced", True))), seed=7
            ),
            # One playthrough per Giga mode (conformance plays all six variants):
            # two seats a team on the castle's two sides, and uneven teams.
            Golden(Variant(4, (("mode", int(Mode.KILL_THE_KING_GIGA)),)), seed=7),
            Golden(Variant(3, (("mode", int(Mode.ATTACK_AND_DEFENSE_GIGA)),)), seed=7),
        ),
    ),
)


class KillTheKing(Engine[Options, State, Move, Event, View]):
    """Kill the King's engine: KILL_THE_KING, its listings kept by the
    object's own ``Derived`` (``memo``: a memo of recent states; it only saves
    work, so the engine stays pure)."""

    definition = KILL_THE_KING

    def __init__(self, memo: derived.Derived | None = None) -> None:
        super().__init__(memo)

    @property
    def derived(self) -> derived.Derived:
        """The engine's memo of listings."""
        memo = self.memo
        assert isinstance(memo, derived.Derived)
        return memo
