"""Setup: initiative, sides, purchases, leaders, the hidden placement (KK-13..KK-28).

Each function over the state is either a generator of legal moves (the kit's
``generate``) or an effect (``play``: changes the working copy in place and
appends events). The flow: CHOOSE_SIDE -> PURCHASE -> LEADER -> PLACEMENT
(simultaneous and hidden) -> the reveal -> round 1 (turns.start_turn).

The purchase and leader menus are ``scope.buy_menu`` and
``scope.leader_menu``: the Advanced units and the Beastmaster only with the
``advanced`` option. A side led by the Treasurer spends his extra coins after
the leader choice (PHASE_EXTRA_PURCHASE, KK-21).
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache

from throneroom.games.kill_the_king.board import Coord, Position
from throneroom.games.kill_the_king.data import (
    LEADERS,
    MODES,
    UNITS,
    Direction,
    Mode,
    Side,
    UnitType,
    army_cost,
    army_units,
    team_of,
)
from throneroom.games.kill_the_king.field import setup_squares
from throneroom.v1 import kill_the_king_pb2 as pb

from throneroom_server.games.kill_the_king import state as st
from throneroom_server.games.kill_the_king import towers
from throneroom_server.games.kill_the_king.dice import roll
from throneroom_server.games.kill_the_king.keys import (
    PLACE,
    Key,
    LazyMoves,
    move_from_key,
    move_key,
)
from throneroom_server.games.kill_the_king.scope import buy_menu, leader_menu, spec_of
from throneroom_server.games.kill_the_king.turns import start_turn
from throneroom_server.games.rng import Rng, seed_rng

State = pb.KillTheKingState
Move = pb.KillTheKingMove
Event = pb.KillTheKingEvent
Phase = pb.KillTheKingState.Phase

# --- a fresh game: initiative (KK-13) -----------------------------------------------------


def setup_state(mode: Mode, advanced: bool, num_seats: int, seed: int) -> State:
    """A fresh game: every seat rolled for initiative (ties re-rolled, KK-13); the
    winner is to choose its side. Giga: the first seat of each team rolls for
    its team (KK-123); team of a seat = seat % 2."""
    state = State(
        num_seats=num_seats,
        mode=pb.KillTheKingMode.ValueType(mode),
        advanced=advanced,
        phase=pb.KillTheKingState.PHASE_CHOOSE_SIDE,
        active_unit=-1,
    )
    seed_rng(state.rng, seed)
    for seat in range(num_seats):
        state.seats.add(team=team_of(seat))
    rng = Rng(state.rng)
    scratch: list[Event] = []
    while True:
        values = []
        for seat in range(min(num_seats, 2)):  # one roll per team (KK-123)
            value = roll(rng, scratch, pb.DIE_PURPOSE_INITIATIVE, seat=seat).value
            state.seats[seat].initiative_rolls.append(value)
            values.append(value)
        best = max(values)
        if values.count(best) == 1:
            state.initiative_seat = values.index(best)
            break
    state.to_move = state.initiative_seat
    spec = MODES[mode]
    if spec.uses_castle:
        board = st.field(state)
        for gate in board.gates:
            g = state.gates.add(controlled_by=pb.SIDE_DEFENDER)
            g.square.row, g.square.col = gate
    return state


def setup_events(state: State) -> list[Event]:
    """The public events of a fresh game: the setup, then every initiative die."""
    events = [
        Event(
            setup=Event.GameSetUp(
                mode=state.mode, advanced=state.advanced, num_seats=state.num_seats
            )
        )
    ]
    rounds = len(state.seats[0].initiative_rolls)
    for k in range(rounds):
        for seat, s in enumerate(state.seats[:2]):
            events.append(
                Event(
                    die_rolled=Event.DieRolled(
                        purpose=pb.DIE_PURPOSE_INITIATIVE,
                        seat=seat,
                        value=s.initiative_rolls[k],
                        unit=-1,
                        target_unit=-1,
                    )
                )
            )
    return events


# --- choosing sides (KK-14, KK-15, KK-88) ----------------------------------------------------


def choose_side_moves(state: State, seat: int) -> Iterator[Move]:
    for side in (Side.ATTACKER, Side.DEFENDER):
        yield Move(choose_side=Move.ChooseSide(side=pb.Side.ValueType(side)))


def choose_side(state: State, seat: int, move: Move, events: list[Event]) -> None:
    """The winner's side is its team's; the other team plays the other (KK-123)."""
    side = Side(move.choose_side.side)
    spec = spec_of(state)
    for i, s in enumerate(state.seats):
        mine = side if team_of(i) == team_of(seat) else side.other
        s.side = pb.Side.ValueType(mine)
        s.coins = spec.budget(mine)
    events.append(Event(side_chosen=Event.SideChosen(seat=seat, side=move.choose_side.side)))
    attacker = st.seat_of_side(state, Side.ATTACKER)
    for _ in range(spec.free_rams):
        ram = st.new_unit(state, UnitType.BATTERING_RAM, attacker, free=True)
        events.append(
            Event(
                unit_bought=Event.UnitBought(
                    seat=attacker,
                    unit=ram.type,
                    cost=0,
                    coins_left=state.seats[attacker].coins,
                    unit_ids=[ram.id],
                )
            )
        )
    state.phase = pb.KillTheKingState.PHASE_PURCHASE
    state.to_move = attacker
    state.turn_side = pb.SIDE_ATTACKER
    events.append(Event(phase_started=Event.PhaseStarted(phase=state.phase)))


# --- purchases (KK-16..KK-19) -----------------------------------------------------------------


def _buyable(state: State, seat: int) -> Iterator[UnitType]:
    side = st.side_of(state, seat)
    spec = spec_of(state)
    coins = state.seats[seat].coins
    counts = st.counts_by_counter(state, side)
    for kind in buy_menu(state.advanced):
        chart = UNITS[kind]
        if chart.cost <= coins and counts.get(int(kind), 0) < spec.cap(kind):
            yield kind


def can_buy(state: State, seat: int) -> bool:
    return next(_buyable(state, seat), None) is not None


def _bought_nothing(state: State, seat: int) -> bool:
    return not any(u.seat == seat and not u.free for u in state.units)


def _suggested_fits(state: State, seat: int) -> bool:
    side = st.side_of(state, seat)
    spec = spec_of(state)
    army = spec.suggested_army(side)
    if not army or army_cost(army) > state.seats[seat].coins:
        return False
    menu = buy_menu(state.advanced)
    return all(kind in menu and count <= spec.cap(kind) for kind, count in army)


def buy_moves(state: State, seat: int) -> Iterator[Move]:
    for kind in _buyable(state, seat):
        yield Move(buy=Move.Buy(unit=pb.UnitType.ValueType(kind)))


def suggested_army_moves(state: State, seat: int) -> Iterator[Move]:
    """The rulebook's army for the mode and side, as the seat's first purchase (KK-18)."""
    if _bought_nothing(state, seat) and _suggested_fits(state, seat):
        yield Move(buy_suggested_army=Move.BuySuggestedArmy())


def _buy_one(state: State, seat: int, kind: UnitType, events: list[Event]) -> None:
    """One unit bought, and the free extras that come with it (Peasants, Flaming
    Pigs: two more, as far as the cap allows, KK-17). Giga: paid from the
    team's coins (every seat of the team holds them) into the team's pool,
    held by its first seat (KK-124, KK-126)."""
    chart = UNITS[kind]
    side = st.side_of(state, seat)
    for mate in st.team_seats(state, side):
        state.seats[mate].coins -= chart.cost
    holder = st.seat_of_side(state, side)
    u = st.new_unit(state, kind, holder)
    ids = [u.id]
    room = spec_of(state).cap(kind) - st.counts_by_counter(state, side).get(int(kind), 0)
    for _ in range(min(chart.free_extras, room)):
        ids.append(st.new_unit(state, kind, holder, free=True).id)
    events.append(
        Event(
            unit_bought=Event.UnitBought(
                seat=seat,
                unit=u.type,
                cost=chart.cost,
                coins_left=state.seats[seat].coins,
                unit_ids=ids,
            )
        )
    )


def buy(state: State, seat: int, move: Move, events: list[Event]) -> None:
    _buy_one(state, seat, UnitType(move.buy.unit), events)
    _next_purchase(state, seat, events)


def buy_suggested_army(state: State, seat: int, move: Move, events: list[Event]) -> None:
    army = spec_of(state).suggested_army(st.side_of(state, seat))
    for kind in army_units(army):
        _buy_one(state, seat, kind, events)
    _next_purchase(state, seat, events)


_LEADERS = frozenset(int(t) for t in st.LEADER_TYPES)


def next_buyer(state: State, side: Side) -> int:
    """The seat of ``side``'s team to make its next purchase: the team's seats
    take its purchases in seat order (KK-124)."""
    mine = int(side)
    made = sum(1 for u in state.units if u.side == mine and not u.free and u.type not in _LEADERS)
    return st.next_of_team(state, side, made)


def _tally(state: State) -> tuple[dict[int, int], dict[int, dict[int, int]]]:
    """For each side (as a number), from one look at the units: the purchases
    made (``next_buyer``) and its counters of each type
    (``st.counts_by_counter``)."""
    made = {int(Side.ATTACKER): 0, int(Side.DEFENDER): 0}
    counts: dict[int, dict[int, int]] = {int(Side.ATTACKER): {}, int(Side.DEFENDER): {}}
    for u in state.units:
        side = u.side
        if not u.free and u.type not in _LEADERS:
            made[side] = made.get(side, 0) + 1
        mine = counts.setdefault(side, {})
        kind = _CAVALRY if u.dismounted else u.type
        mine[kind] = mine.get(kind, 0) + 1
    return made, counts


def _can_buy(state: State, seat: int, counts: dict[int, dict[int, int]]) -> bool:
    """``can_buy`` with the counters tallied."""
    side = state.seats[seat].side
    spec = spec_of(state)
    coins = state.seats[seat].coins
    mine = counts.get(side, {})
    return any(
        UNITS[kind].cost <= coins and mine.get(int(kind), 0) < spec.cap(kind)
        for kind in buy_menu(state.advanced)
    )


_CAVALRY = int(UnitType.CAVALRY)


def _next_purchase(state: State, seat: int, events: list[Event]) -> None:
    """Purchases alternate between the sides (Giga: the teams, each buying
    as one, KK-124); a side that can buy nothing is skipped (KK-16). The
    purchase step is followed by the leader choice; the extra purchase (the
    Treasurer's coins, KK-21) by the placement."""
    side = st.side_of(state, seat)
    made, counts = _tally(state)
    other = st.next_of_team(state, side.other, made[int(side.other)])  # next_buyer
    again = st.next_of_team(state, side, made[int(side)])
    if _can_buy(state, other, counts):
        state.to_move = other
    elif _can_buy(state, again, counts):
        state.to_move = again
    elif state.phase == pb.KillTheKingState.PHASE_EXTRA_PURCHASE:
        _open_placement(state, events)
        return
    else:
        state.phase = pb.KillTheKingState.PHASE_LEADER
        state.to_move = st.seat_of_side(state, Side.ATTACKER)
        events.append(Event(phase_started=Event.PhaseStarted(phase=state.phase)))
    state.turn_side = state.seats[state.to_move].side


# --- leaders (KK-20) ------------------------------------------------------------------------


def leader_moves(state: State, seat: int) -> Iterator[Move]:
    """The leader menu, less the kinds the seat's side already has: a Kill the
    King Giga team never has two leaders of the same kind (KK-125)."""
    side = int(st.side_of(state, seat))
    have = {u.type for u in state.units if u.side == side and st.is_leader(u)}
    for kind in leader_menu(state.advanced):
        if int(kind) not in have:
            yield Move(choose_leader=Move.ChooseLeader(leader=pb.UnitType.ValueType(kind)))


def leader_chooser(state: State) -> int | None:
    """The seat to choose a leader next: the attackers first; a side chooses
    the mode's number of leaders, its team's seats in seat order (KK-20,
    KK-125); None when every leader is chosen."""
    per_side = spec_of(state).leaders_per_side
    for side in (Side.ATTACKER, Side.DEFENDER):
        chosen = sum(1 for u in state.units if u.side == int(side) and st.is_leader(u))
        if chosen < per_side:
            return st.next_of_team(state, side, chosen)
    return None


def choose_leader(state: State, seat: int, move: Move, events: list[Event]) -> None:
    kind = UnitType(move.choose_leader.leader)
    side = st.side_of(state, seat)
    u = st.new_unit(state, kind, st.seat_of_side(state, side))
    for mate in st.team_seats(state, side):  # the team's coins (KK-124)
        state.seats[mate].extra_coins += LEADERS[kind].extra_coins
    events.append(Event(leader_chosen=Event.LeaderChosen(seat=seat, leader=u.type, unit_id=u.id)))
    chooser = leader_chooser(state)
    if chooser is not None:
        state.to_move = chooser
        state.turn_side = state.seats[chooser].side
        return
    _open_extra_purchase(state, events)


def _open_extra_purchase(state: State, events: list[Event]) -> None:
    """ "Finally ... any extra units are added" (KK-21): a side led by the
    Treasurer gets his coins now and buys with them as in KK-16, attacker
    first; without one (or nothing to buy) the placement starts."""
    for s in state.seats:
        s.coins += s.extra_coins
        s.extra_coins = 0
    buyers = [
        seat
        for seat in (next_buyer(state, Side.ATTACKER), next_buyer(state, Side.DEFENDER))
        if can_buy(state, seat)
    ]
    if not buyers:
        _open_placement(state, events)
        return
    state.phase = pb.KillTheKingState.PHASE_EXTRA_PURCHASE
    state.to_move = buyers[0]
    state.turn_side = state.seats[buyers[0]].side
    events.append(Event(phase_started=Event.PhaseStarted(phase=state.phase)))


def _open_placement(state: State, events: list[Event]) -> None:
    state.phase = pb.KillTheKingState.PHASE_PLACEMENT
    state.turn_side = pb.SIDE_UNSPECIFIED
    for s in state.seats:
        s.placed = False
    events.append(Event(phase_started=Event.PhaseStarted(phase=state.phase)))


# --- the hidden placement (KK-22..KK-27) ------------------------------------------------------


def placing(state: State) -> list[int]:
    """The seats still placing (simultaneous)."""
    return [i for i, s in enumerate(state.seats) if not s.placed]


@lru_cache(maxsize=64)
def _zone(mode: Mode, side: Side, kind: UnitType) -> tuple[Coord, ...]:
    return tuple(sorted(setup_squares(mode, side, kind)))


def _next_of_each_type(state: State, seat: int) -> list[st.Unit]:
    """The lowest-id reserve counter of each type of the seat's side (Giga: of
    its team's pool, KK-126): counters of one type are alike before they are
    placed, so placing them in id order loses nothing (KK-22)."""
    side = state.seats[seat].side
    seen: set[int] = set()
    out = []
    for u in state.units:
        if u.side == side and u.status == st.RESERVE and u.type not in seen:
            seen.add(u.type)
            out.append(u)
    return out


def _place_keys(state: State, seat: int, only: int | None = None) -> list[Key]:
    """The seat's placements (KK-22), ascending: by unit (the next counter of
    each type, by id), square, facing."""
    board = st.field(state)
    side = st.side_of(state, seat)
    mode = Mode(state.mode)
    # One look at the units: the team's standing ones, each engine's crew, the
    # next counter of each type in reserve (``_next_of_each_type``).
    mine = int(side)
    team: list[st.Unit] = []
    crews: dict[int, int] = {}
    reserve: dict[int, st.Unit] = {}
    for u in state.units:
        status = u.status
        if status == st.ON_FIELD:
            if u.carried_by >= 0:
                crews[u.carried_by] = crews.get(u.carried_by, 0) + 1
            elif u.side == mine:
                team.append(u)
        elif status == st.RESERVE and u.side == mine and u.type not in reserve:
            reserve[u.type] = u
    taken = {st.position(u) for u in team}
    taken_squares = {p.coord for p in taken}
    # the squares whose place at rest (above the gate on its space) is taken
    full = {c for c in taken_squares if Position(c, board.level_of(c)) in taken}
    rams = {
        st.coord(u): u for u in team if u.seat == seat and u.type == _RAM and not crews.get(u.id)
    }
    towers_here = {
        st.coord(u): u
        for u in team
        if u.seat == seat and u.type == _TOWER and crews.get(u.id, 0) < towers.CAPACITY
    }
    keys: list[Key] = []
    for u in reserve.values():
        if only not in (None, u.id):
            continue
        kind = UnitType(u.type)
        may_man = UNITS[kind].may_man
        may_board = UNITS[kind].may_stand_on_wall
        first = len(keys)
        if may_board:  # inside its tower wherever the tower stands (KK-144)
            for c, tower in towers_here.items():
                keys.append((PLACE, u.id, c.row, c.col, tower.facing))
        # The squares where something stands (or a tower waits) are looked at one
        # by one; on the others the unit may stand facing any way.
        special = taken_squares | towers_here.keys() if may_board else taken_squares
        zone, flat, index = _zone_keys(mode, side, kind, u.id)
        start = 0
        for at in sorted(index[c] for c in special if c in index):
            keys.extend(flat[start:at])
            start = at + _WAYS
            c = zone[at // _WAYS]
            if c in towers_here and may_board:
                continue
            engine = rams.get(c) if may_man else None
            if engine is not None:
                keys.append((PLACE, u.id, c.row, c.col, engine.facing))
                continue
            if c in full:
                continue
            keys.extend(flat[at:start])
        keys.extend(flat[start:])
        if may_board and towers_here:  # the towers' places among the others
            keys[first:] = sorted(keys[first:])
    return keys


_FACINGS = tuple(int(d) for d in Direction)
_RAM, _TOWER = int(UnitType.BATTERING_RAM), int(UnitType.SIEGE_TOWER)


_WAYS = len(_FACINGS)


@lru_cache(maxsize=1024)
def _zone_keys(
    mode: Mode, side: Side, kind: UnitType, uid: int
) -> tuple[tuple[Coord, ...], tuple[Key, ...], dict[Coord, int]]:
    """The unit's zone (ascending), its placements there facing each way
    (ascending: ``_WAYS`` a square), and where each square's start."""
    zone = _zone(mode, side, kind)
    flat = tuple((PLACE, uid, c.row, c.col, d) for c in zone for d in _FACINGS)
    return zone, flat, {c: _WAYS * i for i, c in enumerate(zone)}


def placement_moves(state: State, seat: int) -> LazyMoves:
    """Every placement of the seat (KK-22), ascending, built when read."""
    return LazyMoves(_place_keys(state, seat))


def place_moves(state: State, seat: int) -> list[Move]:
    return list(placement_moves(state, seat))


def narrow_place(state: State, seat: int, move: Move) -> list[Move]:
    key = move_key(move)
    return [move_from_key(key)] if key in set(_place_keys(state, seat, move.place.unit)) else []


def place(state: State, seat: int, move: Move, events: list[Event]) -> None:
    board = st.field(state)
    p = move.place
    u = state.units[p.unit]
    where = Coord(p.square.row, p.square.col)
    engine = next(
        (
            r
            for r in st.units_at(state, where)
            if r.type in (int(UnitType.BATTERING_RAM), int(UnitType.SIEGE_TOWER)) and r.seat == seat
        ),
        None,
    )
    u.status = st.ON_FIELD
    u.seat = seat  # Giga: the seat that places a counter controls it (KK-126)
    u.facing = p.facing
    if engine is not None and engine.type == int(UnitType.SIEGE_TOWER):
        towers.board_tower(state, u, engine)
    elif engine is not None:
        st.put(u, where, board.level_of(where))
        u.carried_by = engine.id
        u.level = engine.level
    else:
        st.put(u, where, board.level_of(where))
        if UNITS[UnitType(u.type)].wall_setup_immobile and board.space(*where).is_wall:
            u.immobile = True
        if u.type == int(UnitType.SIEGE_TOWER):
            towers.settle(state, u, board, st.in_play(state))
    placed = sum(1 for x in state.units if x.seat == seat and x.status == st.ON_FIELD)
    events.append(Event(unit_placed=Event.UnitPlaced(seat=seat, placed=placed, unit=u)))
    if not any(x.side == u.side and x.status == st.RESERVE for x in state.units):
        for mate in st.team_seats(state, Side(u.side)):  # the team's pool is placed
            state.seats[mate].placed = True
    if all(s.placed for s in state.seats):
        _reveal(state, events)


def _reveal(state: State, events: list[Event]) -> None:
    """Every seat is done: all units become visible (KK-22), then round 1 (KK-27)."""
    events.append(Event(placement_revealed=Event.PlacementRevealed(units=list(st.on_field(state)))))
    start_turn(state, Side.ATTACKER, events)
