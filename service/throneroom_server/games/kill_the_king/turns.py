"""Rounds and turns (KK-29, KK-33, KK-38..KK-41, KK-102, KK-116..KK-119).

A round is the attacker's turn, then the defender's; a turn is a movement
phase, then an attack phase, each ended by the side (``end_phase``). Giga: a
side's turn is the turns of its team's seats in seat order, each moving and
attacking with the counters it controls (KK-127); the checks of the end of a
turn run when the team's last seat ends its attacks. Kill the
King's defender may first get reinforcements at its turn of round 6. The end
of a turn runs, in order: the Ranger's rearmost check (KK-102), the
Treasurer's flight (KK-105), the victory
checks (KK-116, KK-117), then the next turn. ``check_game_over`` runs after
every move: the King's Door (KK-116) and annihilation (KK-118) end the game at
once.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache

from throneroom.games.kill_the_king.board import Coord
from throneroom.games.kill_the_king.data import (
    MODES,
    UNITS,
    Direction,
    Join,
    Level,
    Mode,
    Side,
    UnitType,
    Victory,
)
from throneroom.games.kill_the_king.field import home_row, rear_depth
from throneroom.v1 import kill_the_king_pb2 as pb

from throneroom_server.games.core import Outcome
from throneroom_server.games.kill_the_king import combat
from throneroom_server.games.kill_the_king import state as st
from throneroom_server.games.kill_the_king.keys import (
    END_PHASE,
    REINFORCE,
    Key,
    LazyMoves,
    move_from_key,
    move_key,
)
from throneroom_server.games.kill_the_king.movement import pigs_to_move
from throneroom_server.games.kill_the_king.scope import buy_menu, spec_of
from throneroom_server.games.kill_the_king.sequence import complete, other_move
from throneroom_server.games.kill_the_king.treasury import treasurer_flees

State = pb.KillTheKingState
Move = pb.KillTheKingMove
Event = pb.KillTheKingEvent
S = pb.KillTheKingState

ON_FIELD = st.ON_FIELD
ATTACKER, DEFENDER = int(Side.ATTACKER), int(Side.DEFENDER)
_RANGER = int(UnitType.RANGER)
_ROAD_BONUS = {int(t): UNITS[t].road_bonus for t in UNITS}

CAVALRY_SUBSTITUTE_VALUE = 9
"""Coins of value for each reinforcement Cavalry the cap does not allow (KK-39)."""


# --- starting a turn ------------------------------------------------------------------------


def start_turn(state: State, side: Side, events: list[Event]) -> None:
    """Open ``side``'s turn: a new round with the attacker (KK-29), the per-turn
    flags cleared, the road bonus (KK-62), a Ranger's lock (KK-101), then the
    reinforcements (KK-38, KK-128) or the movement phase of the side's (first)
    seat."""
    if side is Side.ATTACKER:
        state.round += 1
    seat = st.seat_of_side(state, side)
    state.turn_side = pb.Side.ValueType(side)
    state.to_move = seat
    state.turn_seat = seat
    state.active_unit = -1
    board = st.field(state)
    mine = int(side)
    for u in state.units:
        # Each flag cleared where it is set (the same message as clearing all).
        if u.movement_used:
            u.movement_used = 0
        if u.moved:
            u.moved = False
        if u.rotated:
            u.rotated = False
        if u.attacked:
            u.attacked = False
        if u.HasField("climb"):
            u.ClearField("climb")
        if u.bonus_movement:
            u.bonus_movement = 0
        if u.status == ON_FIELD and u.side == mine:
            bonus = _ROAD_BONUS[u.type]
            if bonus and board.space(u.square.row, u.square.col).road:
                u.bonus_movement = bonus
    team = st.team_seats(state, side)
    state.movement_locked_now = any(state.seats[i].movement_locked for i in team)
    for i in team:
        state.seats[i].movement_locked = False
    events.append(
        Event(turn_started=Event.TurnStarted(round=state.round, side=state.turn_side, seat=seat))
    )
    halves = reinforcements_due(state, side)
    if halves:
        _open_reinforcements(state, halves[0], events)
    else:
        _open(state, S.PHASE_MOVEMENT, events)


def _next_seat_turn(state: State, events: list[Event]) -> bool:
    """Giga: the team's next seat takes its turn (KK-127); False after the last."""
    later = [i for i in st.team_seats(state, Side(state.turn_side)) if i > state.turn_seat]
    if not later:
        return False
    seat = later[0]
    state.turn_seat = state.to_move = seat
    state.active_unit = -1
    events.append(
        Event(turn_started=Event.TurnStarted(round=state.round, side=state.turn_side, seat=seat))
    )
    _open(state, S.PHASE_MOVEMENT, events)
    return True


def _open(state: State, phase: pb.KillTheKingState.Phase.ValueType, events: list[Event]) -> None:
    state.phase = phase
    events.append(Event(phase_started=Event.PhaseStarted(phase=phase)))


# --- reinforcements (KK-38..KK-41) -------------------------------------------------------------


def leader_inside(state: State, side: Side) -> bool:
    """Whether a leader of ``side`` stands inside the castle walls (KK-38)."""
    board = st.field(state)
    return any(
        st.is_leader(u) and u.side == int(side) and board.space(*st.coord(u)).inside
        for u in st.on_field(state)
    )


def reinforcements_due(state: State, side: Side) -> list[int]:
    """The board halves that get reinforcements now, at the start of the
    defender's turn of the mode's round (KK-38): on one board, unless an
    attacking leader stands inside the walls; Kill the King Giga (KK-128),
    none when the attackers have all their leaders inside, else each half on
    which no attacking leader stands inside. Halves already done are left out."""
    spec = spec_of(state)
    if side is not Side.DEFENDER or spec.reinforcement_round != state.round:
        return []
    board = st.field(state)
    inside = [
        board.space(*st.coord(u)).board
        for u in st.on_field(state)
        if st.is_leader(u) and u.side == int(Side.ATTACKER) and board.space(*st.coord(u)).inside
    ]
    if spec.boards == 1:
        halves = [] if inside else [0]
    elif len(inside) >= spec.leaders_per_side:
        halves = []
    else:
        halves = [h for h in range(spec.boards) if h not in inside]
    return [h for h in halves if h not in state.reinforced_halves]


def _open_reinforcements(state: State, half: int, events: list[Event]) -> None:
    """Reinforcements for one board half, placed by the defending team's seat
    for that half (Giga: the first seat the first half, KK-128)."""
    seat = st.next_of_team(state, Side.DEFENDER, half)
    state.to_move = seat
    spec = spec_of(state)
    room = spec.cap(UnitType.CAVALRY) - st.counters(
        state, Side.DEFENDER, UnitType.CAVALRY, alive_only=True
    )
    cavalry = max(0, min(spec.reinforcements_per_board, room))
    state.reinforcement_cavalry = cavalry
    state.reinforcement_value = (spec.reinforcements_per_board - cavalry) * CAVALRY_SUBSTITUTE_VALUE
    state.reinforcement_half = half
    state.reinforced_halves.append(half)
    events.append(
        Event(
            reinforcements_due=Event.ReinforcementsDue(
                seat=seat, cavalry=cavalry, value=state.reinforcement_value
            )
        )
    )
    _open(state, S.PHASE_REINFORCEMENT, events)


def _free_edge(state: State) -> list[Coord]:
    board = st.field(state)
    taken = {(u.square.row, u.square.col) for u in st.standing(state)}
    half = state.reinforcement_half if board.boards > 1 else None
    return [c for c in st.reinforcement_edge(state, half) if c not in taken]


def _substitutes(state: State) -> list[UnitType]:
    spec = spec_of(state)
    counts = st.counts_by_counter(state, Side.DEFENDER, alive_only=True)
    return [
        kind
        for kind in buy_menu(state.advanced)
        if UNITS[kind].cost <= state.reinforcement_value
        and counts.get(int(kind), 0) < spec.cap(kind)
    ]


_FACINGS = tuple(int(d) for d in Direction)


def _reinforce_keys(state: State, edge: list[Coord]) -> list[Key]:
    """Cavalry first, then substitutes within the value left (KK-39, KK-40):
    a counter of each kind on each free space of the edge, facing any way."""
    kinds = [UnitType.CAVALRY] if state.reinforcement_cavalry > 0 else _substitutes(state)
    return [(REINFORCE, int(k), c.row, c.col, d) for k in kinds for c in edge for d in _FACINGS]


def reinforce_moves(state: State, seat: int) -> LazyMoves:
    """Every ``reinforce`` of the seat, ascending, built when read."""
    keys = _reinforce_keys(state, _free_edge(state))
    keys.sort()
    return LazyMoves(keys)


def reinforcement_moves(state: State, seat: int) -> LazyMoves:
    """The reinforcement phase's moves at once (the edge looked at once):
    every ``reinforce``, and ``end_phase`` once the Cavalry is placed or the
    edge is full (KK-40), ascending."""
    edge = _free_edge(state)
    keys = _reinforce_keys(state, edge)
    if state.reinforcement_cavalry == 0 or not edge:  # may_end_reinforcements
        keys.append((END_PHASE,))
    keys.sort()
    return LazyMoves(keys)


def narrow_reinforce(state: State, seat: int, move: Move) -> list[Move]:
    """The listed ``reinforce`` equal to ``move`` (a list of one), if any."""
    key = move_key(move)
    return [move_from_key(key)] if key in set(_reinforce_keys(state, _free_edge(state))) else []


def reinforce(state: State, seat: int, move: Move, events: list[Event]) -> None:
    r = move.reinforce
    kind = UnitType(r.unit)
    u = st.new_unit(state, kind, seat, free=True)
    u.status = st.ON_FIELD
    u.facing = r.facing
    st.put(u, (r.square.row, r.square.col), Level.GROUND)
    if kind is UnitType.CAVALRY and state.reinforcement_cavalry > 0:
        state.reinforcement_cavalry -= 1
    else:
        state.reinforcement_value -= UNITS[kind].cost
    events.append(Event(reinforced=Event.Reinforced(seat=seat, unit=u)))


def may_end_reinforcements(state: State) -> bool:
    return state.reinforcement_cavalry == 0 or not _free_edge(state)


# --- ending phases and turns ---------------------------------------------------------------


def end_phase_moves(state: State, seat: int) -> Iterator[Move]:
    phase = state.phase
    if phase == S.PHASE_REINFORCEMENT and not may_end_reinforcements(state):
        return
    if phase == S.PHASE_MOVEMENT and (_on_gate_passage(state) or pigs_to_move(state, seat)):
        return
    yield Move(end_phase=Move.EndPhase())


def _on_gate_passage(state: State) -> bool:
    """The active unit stands on the gate's passage: it must step on (KK-57)."""
    if state.active_unit < 0:
        return False
    u = state.units[state.active_unit]
    board = st.field(state)
    return (
        u.status == st.ON_FIELD
        and u.level == int(Level.GROUND)
        and board.space(*st.coord(u)).is_wall
    )


def end_phase(state: State, seat: int, move: Move, events: list[Event]) -> None:
    phase = state.phase
    if phase == S.PHASE_REINFORCEMENT:
        state.reinforcement_cavalry = 0
        state.reinforcement_value = 0
        halves = reinforcements_due(state, Side.DEFENDER)
        if halves:
            _open_reinforcements(state, halves[0], events)
            return
        state.to_move = state.turn_seat
        _open(state, S.PHASE_MOVEMENT, events)
    elif phase == S.PHASE_MOVEMENT:
        complete(state, events)  # the active unit's movement (KK-56)
        other_move(state)  # the phase's turns are over (KK-31)
        _open(state, S.PHASE_ATTACK, events)
    elif not _next_seat_turn(state, events):
        end_turn(state, events)


def rearmost_ranger_dies(state: State, side: Side) -> st.Unit | None:
    """The side's Ranger if he ends its turn as the rearmost friendly unit: no
    other friendly unit on the field as far back or further (KK-102); Giga:
    every unit of the team counts, each measured on its board half (KK-131)."""
    own = int(side)
    ranger = next(
        (u for u in state.units if u.type == _RANGER and u.side == own and u.status == ON_FIELD),
        None,
    )
    if ranger is None:
        return None
    mode = Mode(state.mode)
    home = _home_row(mode, side)

    def depth(u: st.Unit) -> int:
        if home is not None:  # rear_depth off the Kill the King Giga field
            return abs(u.square.row - home)
        return rear_depth(mode, side, st.coord(u))

    mine = depth(ranger)
    others = (u for u in st.on_field(state) if u.side == int(side) and u.id != ranger.id)
    return None if any(depth(u) <= mine for u in others) else ranger


@lru_cache(maxsize=16)
def _home_row(mode: Mode, side: Side) -> int | None:
    """``field.home_row`` (cached), None on the Kill the King Giga field
    (measured on each board half, KK-131)."""
    if MODES[mode].join is Join.CASTLE_SIDE:
        return None
    return home_row(mode, side)


def end_turn(state: State, events: list[Event]) -> None:
    """The end of the side's turn (KK-29): the Ranger's check, the victory
    checks, then the next turn."""
    side = Side(state.turn_side)
    ranger = rearmost_ranger_dies(state, side)
    if ranger is not None:
        combat.kill_unit(state, ranger, pb.CAUSE_REARMOST, -1, events)
    treasurer_flees(state, side, events)
    del state.defence_penalty[:]
    state.movement_locked_now = False
    if check_game_over(state, events):
        return
    spec = spec_of(state)
    if spec.victory is Victory.LEADER_AND_BREAKTHROUGH and breakthrough(state):
        finish(state, Side.ATTACKER, "leader_and_breakthrough", events)
        return
    if side is Side.DEFENDER and state.round >= spec.rounds:
        if spec.victory is Victory.DOOR:
            finish(state, Side.DEFENDER, "king_survived", events)
        else:
            finish(state, Side.DEFENDER, "breakthrough_failed", events)
        return
    start_turn(state, side.other, events)


def breakthrough(state: State) -> bool:
    """Attack and Defense (KK-117): the defender's leader is dead and enough
    attacking units stand on the defender's edge row."""
    spec = spec_of(state)
    leaders = [u for u in state.units if st.is_leader(u) and u.side == int(Side.DEFENDER)]
    if not leaders or any(u.status != st.DEAD for u in leaders):
        return False
    edge = home_row(Mode(state.mode), Side.DEFENDER)
    through = sum(
        1 for u in st.standing(state) if u.side == int(Side.ATTACKER) and u.square.row == edge
    )
    return through >= spec.breakthrough_units


# --- the end of the game ----------------------------------------------------------------------

_SUMMARIES = {
    "door": "the attacker destroyed the King's Door",
    "king_survived": "the King survived the last round",
    "leader_and_breakthrough": (
        "the attacker killed the defender's leader and broke through to its edge"
    ),
    "breakthrough_failed": "the attacker did not break through in time",
    "annihilation": "the other side has no unit left on the field",
}


def finish(state: State, winner: Side, termination: str, events: list[Event]) -> None:
    seats = [i for i, s in enumerate(state.seats) if s.side == int(winner)]
    summary = f"{winner.name.lower()} wins: {_SUMMARIES[termination]}"
    if spec_of(state).giga:  # every seat of the winning team wins (KK-157)
        names = " and ".join(str(seat) for seat in seats)
        listed = f"seat {names}" if len(seats) == 1 else f"seats {names}"
        summary = f"the {winner.name.lower()} team ({listed}) wins: {_SUMMARIES[termination]}"
    state.outcome.CopyFrom(Outcome(winners=seats, termination=termination, summary=summary))
    state.phase = S.PHASE_OVER
    state.active_unit = -1
    events.append(
        Event(
            game_ended=Event.GameEnded(
                termination=termination,
                winners=seats,
                winning_side=pb.Side.ValueType(winner),
                summary=summary,
            )
        )
    )


def check_game_over(state: State, events: list[Event]) -> bool:
    """The ends that come at once, after any move of play (KK-116, KK-118)."""
    if state.HasField("outcome"):
        return True
    if state.door_destroyed:
        finish(state, Side.ATTACKER, "door", events)
        return True
    if state.round == 0:
        return False  # setup: nothing is on the field yet
    # Both sides on the field: the scan stops at the first unit of each (the
    # units of the two sides alternate from the purchases on).
    attacker = defender = False
    for u in state.units:
        if u.status == ON_FIELD:
            if u.side == ATTACKER:
                if defender:
                    return False
                attacker = True
            elif u.side == DEFENDER:
                if attacker:
                    return False
                defender = True
    if not attacker:
        finish(state, Side.DEFENDER, "annihilation", events)
        return True
    if not defender:
        finish(state, Side.ATTACKER, "annihilation", events)
        return True
    return False
