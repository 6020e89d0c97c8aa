"""What each seat sees (KK-121, KK-122).

Only the hidden placement is secret: before the reveal a seat sees its own
placed counters, and another seat's counters appear in reserve (no square,
level or facing); its ``UnitPlaced`` events carry only the seat and how many
it has placed. Giga (KK-122): the secret is the team's, as its seats place
together behind one barrier; a seat sees its teammates' placements, and an
enemy counter placed appears in its team's pool (held by the team's first
seat), so which seat placed it is hidden too. Spectators see no placement
before the reveal. Everything else is public; the RNG never appears.
"""

from __future__ import annotations

from throneroom.games.kill_the_king.board import Coord
from throneroom.games.kill_the_king.data import UNITS, Level, Mode, Side, UnitType, team_of
from throneroom.games.kill_the_king.field import setup_squares
from throneroom.v1 import kill_the_king_pb2 as pb

from throneroom_server.games.core import Viewer
from throneroom_server.games.kill_the_king import state as st
from throneroom_server.games.kill_the_king import towers
from throneroom_server.games.rng import Rng, seed_rng

State = pb.KillTheKingState
View = pb.KillTheKingView
Event = pb.KillTheKingEvent
S = pb.KillTheKingState


def hidden_from(state: State, u: st.Unit, viewer: Viewer) -> bool:
    """Whether ``viewer`` may not see where ``u`` was placed (before the reveal):
    a counter placed by a seat of another team (KK-122)."""
    return state.phase == S.PHASE_PLACEMENT and (
        viewer is None or team_of(u.seat) != team_of(viewer)
    )


def to_act(state: State) -> list[int]:
    if state.phase == S.PHASE_OVER:
        return []
    if state.phase == S.PHASE_PLACEMENT:
        return [i for i, s in enumerate(state.seats) if not s.placed]
    return [state.to_move]


def render(state: State, viewer: Viewer) -> str:
    """The field as text with every visible counter's letter (KK-7): upper case
    for the attacker, lower case for the defender; a crew shows as its Ram."""
    overlay: dict[tuple[int, int], str] = {}
    for u in st.standing(state):
        if hidden_from(state, u, viewer):
            continue
        letter = UNITS[UnitType(u.type)].letter
        key = (u.square.row, u.square.col)
        if key in overlay and u.level != int(Level.WALL):
            continue
        overlay[key] = letter.upper() if u.side == int(Side.ATTACKER) else letter.lower()
    return st.field(state).render(overlay)


def view(state: State, viewer: Viewer) -> View:
    seen = View(
        num_seats=state.num_seats,
        viewer=-1 if viewer is None else viewer,
        mode=state.mode,
        advanced=state.advanced,
        phase=state.phase,
        seats=state.seats,
        round=state.round,
        turn_side=state.turn_side,
        to_act=to_act(state),
        active_unit=state.active_unit,
        gates=state.gates,
        ruins=state.ruins,
        door_destroyed=state.door_destroyed,
        reinforced_halves=state.reinforced_halves,
        defence_penalty=state.defence_penalty,
        reinforcement_value=state.reinforcement_value,
        initiative_seat=state.initiative_seat,
        reinforcement_cavalry=state.reinforcement_cavalry,
        reinforcement_half=state.reinforcement_half,
        field=render(state, viewer),
    )
    if state.HasField("follow_up"):
        seen.follow_up.CopyFrom(state.follow_up)
    for u in state.units:
        shown = seen.units.add()
        shown.CopyFrom(u)
        if u.status == st.ON_FIELD and hidden_from(state, u, viewer):
            _hide(shown)
            shown.seat = team_of(u.seat)  # back in its team's pool (KK-126)
    if state.HasField("outcome"):
        seen.outcome.CopyFrom(state.outcome)
    return seen


def _hide(u: st.Unit) -> None:
    u.status = st.RESERVE
    for name in ("square", "level", "facing", "immobile", "stack"):
        u.ClearField(name)
    u.carried_by = -1


def redact_event(event: Event, viewer: Viewer) -> Event | None:
    """A placement reaches the other seats (and spectators) as "seat n placed a
    counter": not which, where, or how many so far (KK-121); Giga: the seats
    of the placing seat's team see it in full (KK-122)."""
    if event.HasField("unit_placed") and (
        viewer is None or team_of(event.unit_placed.seat) != team_of(viewer)
    ):
        return Event(unit_placed=Event.UnitPlaced(seat=event.unit_placed.seat))
    return event


def randomize_hidden(state: State, viewer: Viewer, seed: int) -> State:
    """A state the viewer cannot tell from this one. During the placement the
    other teams' counters are hidden: which of them are placed (beyond the next
    one of each type, which stays in reserve so the team's choices are the
    same, KK-22), by which of the team's seats, and where; they are redrawn on
    free squares of their zones, placed by a seat of their team drawn at random."""
    new = State()
    new.CopyFrom(state)
    seed_rng(new.rng, seed)
    if new.phase == S.PHASE_PLACEMENT:
        rng = Rng(new.rng)
        board = st.field(new)
        hidden: list[st.Unit] = []
        mine = None if viewer is None else team_of(viewer)
        for team in sorted({team_of(i) for i in range(len(new.seats))} - {mine}):
            s = new.seats[team]
            mates = [i for i in range(len(new.seats)) if team_of(i) == team]
            next_of_type: set[int] = set()
            for u in new.units:
                if u.side != s.side:
                    continue
                u.seat = team
                if u.status == st.RESERVE and u.type not in next_of_type:
                    next_of_type.add(u.type)
                    continue
                if u.type in next_of_type and not s.placed:
                    u.status = st.ON_FIELD if rng.below(2) else st.RESERVE
                if u.status == st.ON_FIELD:
                    hidden.append(u)
                    u.seat = mates[rng.below(len(mates))] if len(mates) > 1 else team
                u.carried_by = -1
                u.stack = 0
                u.ClearField("square")
                u.ClearField("level")
                u.ClearField("facing")
                u.immobile = False
        taken = {
            st.coord(u) for u in st.standing(new) if viewer is not None and team_of(u.seat) == mine
        }
        for u in hidden:
            kind = UnitType(u.type)
            zone = sorted(setup_squares(Mode(new.mode), Side(u.side), kind) - taken)
            c: Coord = rng.choice(zone)
            taken.add(c)
            st.put(u, c, board.level_of(c))
            u.facing = pb.Direction.ValueType(rng.below(4) + 1)
            u.immobile = UNITS[kind].wall_setup_immobile and board.space(*c).is_wall
            if kind is UnitType.SIEGE_TOWER:  # a tower set next to a wall stays (KK-142)
                u.immobile = towers.next_to_wall(board, st.in_play(new), c)
    seed_rng(new.rng, seed ^ 0x9E3779B97F4A7C15)
    return new
