"""Climbing in the movement phase (KK-44, KK-45, KK-47): an infantry unit or a
leader on the ground beside a wall climbs onto it (``climb``), onto an enemy
with the climbing attack (resolved by the combat module), or is set to climb
in the attack phase (``prepare_climb``)."""

from __future__ import annotations

from collections.abc import Iterator

from throneroom.games.kill_the_king.board import Coord, Position
from throneroom.games.kill_the_king.data import UNITS, Direction, Level
from throneroom.v1 import kill_the_king_pb2 as pb

from throneroom_server.games.kill_the_king import combat
from throneroom_server.games.kill_the_king import state as st
from throneroom_server.games.kill_the_king.keys import CLIMB, PREPARE_CLIMB, Key, move_from_key
from throneroom_server.games.kill_the_king.movement import (
    _TYPE,
    Scene,
    _passage_unit,
    allowance,
    listed,
)
from throneroom_server.games.kill_the_king.sequence import complete, other_move, start
from throneroom_server.games.rng import Rng

State = pb.KillTheKingState
Move = pb.KillTheKingMove
Event = pb.KillTheKingEvent
Unit = pb.KillTheKingUnit


# --- climbing (KK-44, KK-45) -------------------------------------------------------------------


def _climbs(
    scene: Scene, seat: int, only: int | None = None
) -> Iterator[tuple[Unit, Direction, Unit | None]]:
    """(climber, direction, enemy on the wall or None) for each climb allowed now."""
    state = scene.state
    if state.movement_locked_now:
        return
    board = scene.board
    if _passage_unit(state, board) is not None:
        return
    table = st.climbs(state)
    for u in scene.controlled(seat):
        if only not in (None, u.id):
            continue
        chart = UNITS[_TYPE[u.type]]
        if not chart.may_climb or u.moved or u.attacked or u.HasField("climb"):
            continue
        if u.level != int(Level.GROUND) or scene.points_left(u) < 1:
            continue
        for d, c in table[Coord(u.square.row, u.square.col)]:
            if c not in scene.in_play:
                continue
            held = scene.occupied.get(Position(c, Level.WALL))
            if held is None:
                yield u, d, None
            elif held.side != u.side and combat.can_climb_attack(state, board, u.id, d):
                yield u, d, held


def _climb_keys(
    scene: Scene, seat: int, *, prepared: bool, only: int | None = None
) -> Iterator[Key]:
    """Climbs (KK-44), or with ``prepared`` the climbs set for the attack phase
    (KK-45: onto an enemy only)."""
    for u, d, enemy in _climbs(scene, seat, only):
        if not prepared:
            yield (CLIMB, u.id, int(d))
        elif enemy is not None:
            yield (PREPARE_CLIMB, u.id, int(d))


def both_climb_keys(scene: Scene, seat: int) -> Iterator[Key]:
    for u, d, enemy in _climbs(scene, seat):
        yield (CLIMB, u.id, int(d))
        if enemy is not None:
            yield (PREPARE_CLIMB, u.id, int(d))


def climb_moves(state: State, seat: int) -> list[Move]:
    return [move_from_key(k) for k in _climb_keys(Scene(state), seat, prepared=False)]


def narrow_climb(state: State, seat: int, move: Move) -> list[Move]:
    keys = _climb_keys(Scene(state), seat, prepared=False, only=move.climb.unit)
    return listed(keys, move)


def climb(state: State, seat: int, move: Move, events: list[Event]) -> None:
    board = st.field(state)
    u = state.units[move.climb.unit]
    d = Direction(move.climb.direction)
    wall = st.coord(u).step(d)
    other_move(state)
    start(state, u, events)
    u.moved = True
    if st.occupant(state, Position(wall, Level.WALL)) is None:
        u.movement_used += 1
        st.put(u, wall, Level.WALL)
        events.append(
            Event(climbed=Event.Climbed(unit=u.id, wall=pb.Square(row=wall.row, col=wall.col)))
        )
        return
    u.movement_used = allowance(state, u)
    combat.climb_attack(state, board, u.id, d, Rng(state.rng), events)
    complete(state, events)


def prepare_climb_moves(state: State, seat: int) -> list[Move]:
    return [move_from_key(k) for k in _climb_keys(Scene(state), seat, prepared=True)]


def narrow_prepare_climb(state: State, seat: int, move: Move) -> list[Move]:
    keys = _climb_keys(Scene(state), seat, prepared=True, only=move.prepare_climb.unit)
    return listed(keys, move)


def prepare_climb(state: State, seat: int, move: Move, events: list[Event]) -> None:
    u = state.units[move.prepare_climb.unit]
    d = Direction(move.prepare_climb.direction)
    wall = st.coord(u).step(d)
    other_move(state)
    if state.active_unit != u.id:
        complete(state, events)
    state.active_unit = -1
    u.climb = pb.Direction.ValueType(d)
    events.append(
        Event(
            climb_prepared=Event.ClimbPrepared(
                unit=u.id, wall=pb.Square(row=wall.row, col=wall.col)
            )
        )
    )
