"""Siege Towers (KK-95..KK-98, KK-140..KK-144): boarding from any side, up to
three stacked, moving only manned, settling for good next to a wall, the unit
on top stepping out first, crews that neither attack nor are attacked until
the tower is at a wall, the tower destroyed with everyone inside."""

from __future__ import annotations

from throneroom.games.kill_the_king.board import Coord
from throneroom.games.kill_the_king.data import Mode, Side, UnitType
from throneroom.games.kill_the_king.field import setup_squares
from throneroom.games.kill_the_king.rules import Scene, knight_bonus
from throneroom.v1 import kill_the_king_pb2 as pb
from throneroom_server.games.kill_the_king.combat import apply_attack, attack_moves

from tests.games.kill_the_king.combat_positions import (
    Dice,
    attacked,
    dice_rolled,
    field,
    killed,
    position,
    targets,
    unit,
)
from tests.games.kill_the_king.positions import (
    END,
    A,
    D,
    E,
    Field,
    N,
    S,
    W,
    legal,
    play,
    rotate,
    step,
    steps_of,
    walk,
)
from tests.games.kill_the_king.test_advanced_setup import KTK_ADV
from tests.games.kill_the_king.test_setup import after_sides, buy, leader

State = pb.KillTheKingState
TOWER, SWORDSMEN, ARCHER = UnitType.SIEGE_TOWER, UnitType.SWORDSMEN, UnitType.ARCHER
SPEARMEN, CAVALRY, KNIGHT = UnitType.SPEARMEN, UnitType.CAVALRY, UnitType.KNIGHT
CATAPULT, RANGER = UnitType.CATAPULT, UnitType.RANGER
DEAD, ON_FIELD = pb.KillTheKingUnit.STATUS_DEAD, pb.KillTheKingUnit.STATUS_ON_FIELD


def crew(state: State, tower: int) -> list[tuple[int, int]]:
    """(id, stack) of the units inside ``tower``, bottom first."""
    inside = [u for u in state.units if u.carried_by == tower and u.status == ON_FIELD]
    return sorted(((u.id, u.stack) for u in inside), key=lambda t: t[1])


def tower_field() -> Field:
    board = Field()
    board.put(KNIGHT, A, 0, 0, N)  # 0
    board.put(KNIGHT, D, 13, 5, N)  # 1
    return board


def test_infantry_and_leaders_board_from_any_side_up_to_three() -> None:
    """KK-95, KK-140: a step onto a friendly tower boards it, on top of the stack,
    facing as the tower; the move ends there. Cavalry, enemies and a fourth
    unit may not board."""
    board = tower_field()
    board.put(TOWER, A, 4, 5, N)  # 2
    board.put(SWORDSMEN, A, 4, 4, E)  # 3: west of it
    board.put(ARCHER, A, 5, 5, S)  # 4: north of it
    board.put(RANGER, A, 3, 5, N)  # 5: south, a leader
    board.put(SPEARMEN, A, 4, 6, W)  # 6: east
    state = board.turn(A, 1)
    state, events = play(state, step(3, E))
    assert events[-1].manned == pb.KillTheKingEvent.Manned(crew=3, engine=2)
    assert crew(state, 2) == [(3, 1)] and state.units[3].facing == pb.DIRECTION_NORTH
    assert steps_of(state, 3) == set()  # its move is over
    state = walk(state, 4, S)
    state = walk(state, 5, N)
    assert crew(state, 2) == [(3, 1), (4, 2), (5, 3)]
    assert W not in steps_of(state, 6)  # full


def test_cavalry_and_enemies_do_not_board() -> None:
    board = tower_field()
    board.put(TOWER, A, 4, 5, N)  # 2
    board.put(CAVALRY, A, 4, 4, E)  # 3
    board.put(SWORDSMEN, D, 4, 6, W)  # 4
    state = board.turn(A, 1)
    assert E not in steps_of(state, 3)
    state = board.turn(D, 1)
    assert W not in steps_of(state, 4)


def test_a_tower_moves_only_manned_and_its_crew_rides_along() -> None:
    """KK-95: movement 2 (+1 with the Ranger), only while manned."""
    board = tower_field()
    board.put(TOWER, A, 4, 5, N)  # 2
    board.put(TOWER, A, 4, 2, N)  # 3: unmanned
    board.put(SWORDSMEN, A, 4, 5, N, crew_of=2)  # 4
    state = board.turn(A, 1)
    state.units[4].stack = 1
    assert steps_of(state, 3) == set() and rotate(3, E) not in legal(state)
    state = walk(state, 2, N, N)
    assert steps_of(state, 2) == set()
    assert (state.units[4].square.row, state.units[4].square.col) == (6, 5)


def test_a_tower_ending_its_move_next_to_a_wall_stays_there_as_stairs() -> None:
    """KK-96, KK-142: the move ends next to the wall: ``immobile`` for good, the
    crew on both levels."""
    board = tower_field()
    board.put(TOWER, A, 6, 3, N)  # 2
    board.put(SWORDSMEN, A, 6, 3, N, crew_of=2)  # 3
    state = board.turn(A, 1)
    state.units[3].stack = 1
    state = walk(state, 2, N, N)
    assert not state.units[2].immobile
    state, _ = play(state, END)
    assert state.units[2].immobile and state.units[3].level == pb.LEVEL_STAIRS
    state, _ = play(state, END)
    state, _ = play(state, END)
    state, _ = play(state, END)  # the attacker's next turn
    assert steps_of(state, 2) == set()


def at_the_wall(*others: tuple[UnitType, Side, int, int, pb.Direction.ValueType]) -> State:
    """A tower at (8,3), next to the wall (9,3), with a Swordsmen (3, bottom) and
    a Spearmen (4, top) inside."""
    board = tower_field()
    board.put(TOWER, A, 8, 3, N)  # 2
    board.put(SWORDSMEN, A, 8, 3, N, crew_of=2)  # 3
    board.put(SPEARMEN, A, 8, 3, N, crew_of=2)  # 4
    for kind, side, row, col, facing in others:
        board.put(kind, side, row, col, facing)
    state = board.turn(A, 1)
    state.units[2].immobile = True
    for uid, stack in ((3, 1), (4, 2)):
        state.units[uid].stack = stack
        state.units[uid].level = pb.LEVEL_STAIRS
    return state


def test_the_unit_on_top_enters_the_wall_first() -> None:
    """KK-96, KK-143: only the top unit steps out: onto the free wall space next to
    the tower or onto free ground; an enemy on the wall is in its way."""
    state = at_the_wall()
    assert steps_of(state, 3) == set()
    assert steps_of(state, 4) == {N, E, S, W}
    state, events = play(state, step(4, N))
    assert [e.WhichOneof("kind") for e in events] == ["unmanned", "stepped"]
    assert (state.units[4].square.row, state.units[4].level) == (9, pb.LEVEL_WALL)
    assert crew(state, 2) == [(3, 1)] and steps_of(state, 3) == {E, S, W}
    blocked = at_the_wall((SWORDSMEN, D, 9, 3, S))
    assert steps_of(blocked, 4) == {E, S, W}


def test_crews_away_from_a_wall_neither_attack_nor_are_attacked() -> None:
    """KK-97: only the tower is there to be hit (defence 6, saves on 6)."""
    state = position(
        unit(TOWER, A, 5, 5, N),  # 0
        unit(SWORDSMEN, A, 5, 5, N, crew_of=0),  # 1
        unit(SWORDSMEN, D, 6, 5, S),  # 2
        turn=D,
    )
    state.units[1].stack = 1
    assert targets(attack_moves(state, field(state), 1)) == [(2, 5, 5)]
    events: list[pb.KillTheKingEvent] = []
    apply_attack(
        state, field(state), 1, attack_moves(state, field(state), 1)[0], Dice(1, 6), events
    )
    assert list(attacked(events).target_units) == [0]
    assert [(d.target_unit, d.needed) for d in dice_rolled(events)] == [(0, 3), (0, 6)]
    assert state.units[0].status == ON_FIELD
    state.turn_side, state.to_move = pb.SIDE_ATTACKER, 0
    assert targets(attack_moves(state, field(state), 0)) == []


def test_the_top_unit_at_a_wall_attacks_without_penalty_and_is_attacked() -> None:
    """KK-97, KK-141: the top unit fights from the tower as from stairs: no
    climbing penalty; the enemy on the wall attacks it, not the tower."""
    state = at_the_wall((SWORDSMEN, D, 9, 3, S))  # 5
    state.phase = State.PHASE_ATTACK
    moves = attack_moves(state, field(state), 0)
    assert targets(moves) == [(4, 9, 3)]
    events: list[pb.KillTheKingEvent] = []
    apply_attack(state, field(state), 0, moves[0], Dice(2, 6), events)
    a = attacked(events)
    assert a.value == 2 and not a.modifiers  # Spearmen 2 on the wall space, no penalty
    assert killed(events) == [(5, pb.CAUSE_ATTACK)]
    state = at_the_wall((SWORDSMEN, D, 9, 3, S))
    state.phase, state.turn_side, state.to_move = State.PHASE_ATTACK, pb.SIDE_DEFENDER, 1
    moves = attack_moves(state, field(state), 1)
    assert targets(moves) == [(5, 8, 3)]
    events = []
    apply_attack(state, field(state), 1, moves[0], Dice(1, 6), events)
    assert list(attacked(events).target_units) == [4]
    assert killed(events) == [(4, pb.CAUSE_ATTACK)]
    assert crew(state, 2) == [(3, 1)]


def test_the_top_unit_turns_inside_a_tower_at_the_wall() -> None:
    state = at_the_wall()
    assert rotate(4, E) in legal(state) and rotate(3, E) not in legal(state)


def test_a_catapult_destroys_the_tower_with_everyone_inside() -> None:
    """KK-98: the cross rolls for the exposed top unit and for the tower; the
    tower hit, everyone inside dies (TOWER_DESTROYED)."""
    state = position(
        unit(CATAPULT, D, 12, 3, S, level=None),  # 0
        unit(TOWER, A, 8, 3, N),  # 1
        unit(SWORDSMEN, A, 8, 3, N, crew_of=1),  # 2
        unit(SPEARMEN, A, 8, 3, N, crew_of=1),  # 3
        turn=D,
    )
    state.units[1].immobile = True
    for uid, stack in ((2, 1), (3, 2)):
        state.units[uid].stack = stack
        state.units[uid].level = pb.LEVEL_STAIRS
    moves = [m for m in attack_moves(state, field(state), 1) if m.attack.target.row == 8]
    events: list[pb.KillTheKingEvent] = []
    apply_attack(state, field(state), 1, moves[0], Dice(6, 4), events)  # 5 - 1 over the wall
    assert [d.target_unit for d in dice_rolled(events)] == [3, 1]
    assert killed(events) == [
        (1, pb.CAUSE_ATTACK),
        (2, pb.CAUSE_TOWER_DESTROYED),
        (3, pb.CAUSE_TOWER_DESTROYED),
    ]


def test_towers_on_row_4_and_crews_placed_inside() -> None:
    """KK-24, KK-26: the attacker places a tower on its fourth row; infantry placed
    on it start inside, facing as the tower."""
    assert Coord(3, 5) in setup_squares(Mode.KILL_THE_KING, Side.ATTACKER, TOWER)
    state = after_sides(KTK_ADV)
    attacker = state.to_move
    state, _ = play(state, buy(TOWER))
    while state.phase != State.PHASE_LEADER:
        offered = legal(state)
        state, _ = play(state, buy(SWORDSMEN) if buy(SWORDSMEN) in offered else offered[0])
    state, _ = play(state, leader(RANGER))
    state, _ = play(state, leader(KNIGHT))
    tower = next(u.id for u in state.units if u.type == pb.UNIT_TYPE_SIEGE_TOWER)
    place = pb.KillTheKingMove(
        place=pb.KillTheKingMove.Place(
            unit=tower, square=pb.Square(row=3, col=5), facing=pb.DIRECTION_EAST
        )
    )
    state, _ = play(state, place, attacker)
    sword = next(
        u.id for u in state.units if u.type == pb.UNIT_TYPE_SWORDSMEN and u.seat == attacker
    )
    onto = [
        m
        for m in legal(state, attacker)
        if m.place.unit == sword and (m.place.square.row, m.place.square.col) == (3, 5)
    ]
    assert [m.place.facing for m in onto] == [pb.DIRECTION_EAST]
    state, _ = play(state, onto[0], attacker)
    assert crew(state, tower) == [(sword, 1)]


def test_a_knight_inside_a_tower_helps_nobody() -> None:
    """KK-106, KK-141: even on top of a tower at the wall."""
    state = at_the_wall((SWORDSMEN, D, 9, 3, S), (SWORDSMEN, A, 8, 2, N))  # 5, 6
    state.units[4].type = pb.UNIT_TYPE_KNIGHT
    state.units[6].facing = pb.DIRECTION_NORTH
    state.phase = State.PHASE_ATTACK
    scene = Scene.of(state, field(state))
    assert knight_bonus(scene, state.units[6]) == 0
