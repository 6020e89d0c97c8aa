"""Combat over random positions (hypothesis): every attack offered can be carried
out, is the unit's one attack of the turn, draws exactly the dice it shows as
events, and leaves a consistent field; the same dice give the same result."""

from __future__ import annotations

from dataclasses import dataclass

from hypothesis import given, settings
from hypothesis import strategies as st
from throneroom.games.kill_the_king.board import DEFAULT_BOARD, Coord, Position, Terrain
from throneroom.games.kill_the_king.data import UNITS, Direction, Level, Side, UnitType
from throneroom.v1 import kill_the_king_pb2 as pb
from throneroom_server.games.kill_the_king.combat import (
    apply_attack,
    apply_follow_up,
    attack_moves,
    follow_up_moves,
)
from throneroom_server.games.rng import Rng, seed_rng

from tests.games.kill_the_king.combat_positions import (
    Counter,
    Event,
    Move,
    dice_rolled,
    field,
    position,
)

IN_SCOPE = (
    UnitType.ARCHER,
    UnitType.SPEARMEN,
    UnitType.SWORDSMEN,
    UnitType.CAVALRY,
    UnitType.CATAPULT,
    UnitType.BATTERING_RAM,
    UnitType.KNIGHT,
    UnitType.RANGER,
)
CREWS = (UnitType.ARCHER, UnitType.SPEARMEN, UnitType.SWORDSMEN)
RUINABLE = (*DEFAULT_BOARD.walls, *DEFAULT_BOARD.gates)
ON_FIELD, DEAD = pb.KillTheKingUnit.STATUS_ON_FIELD, pb.KillTheKingUnit.STATUS_DEAD


class CountingRng(Rng):
    """The game's generator, counting the dice it gives."""

    def __init__(self, seed: int) -> None:
        msg = pb.KillTheKingState().rng
        seed_rng(msg, seed)
        super().__init__(msg)
        self.drawn = 0

    def below(self, n: int) -> int:
        self.drawn += 1
        return super().below(n)


def _may_stand(kind: UnitType, side: Side, where: Position) -> bool:
    spec = UNITS[kind]
    if where.level is Level.WALL:
        return spec.may_stand_on_wall or (side is Side.DEFENDER and spec.wall_setup_immobile)
    return not (where.level is Level.GROUND and DEFAULT_BOARD.space(*where.coord).is_wall)


@st.composite
def positions(draw: st.DrawFn) -> pb.KillTheKingState:
    ruins = draw(st.lists(st.sampled_from(RUINABLE), max_size=2, unique=True))
    board = DEFAULT_BOARD.ruined(ruins)
    anchor = draw(st.sampled_from(board.positions())).coord
    counters: list[Counter] = []
    taken: set[Coord] = set()
    for _ in range(draw(st.integers(4, 16))):
        kind = draw(st.sampled_from(IN_SCOPE))
        side = draw(st.sampled_from((Side.ATTACKER, Side.DEFENDER)))
        # a crowd around one space, so that units meet
        square = Coord(anchor.row + draw(st.integers(-2, 2)), anchor.col + draw(st.integers(-2, 2)))
        if not board.contains(square) or square in taken or not board.space(*square).levels:
            continue
        where = Position(square, board.level_of(square))
        if not _may_stand(kind, side, where):
            continue
        facing = draw(st.sampled_from(list(Direction)))
        climb = None
        if UNITS[kind].may_climb and where.level is Level.GROUND and draw(st.booleans()):
            climbs = board.climbs(where.coord)
            climb = climbs[0][0] if climbs else None
        taken.add(where.coord)
        ram = len(counters)
        moved = kind is UnitType.CATAPULT and draw(st.booleans())
        counters.append(
            Counter(kind, side, where.coord, facing, where.level, moved=moved, climb=climb)
        )
        if kind is UnitType.BATTERING_RAM and draw(st.booleans()):
            crew_side = draw(st.sampled_from((Side.ATTACKER, Side.DEFENDER)))
            crew = draw(st.sampled_from(CREWS))
            counters.append(Counter(crew, crew_side, where.coord, facing, where.level, ram))
    return position(*counters, ruins=tuple(ruins))


def _standing_positions(state: pb.KillTheKingState) -> list[tuple[int, int, int]]:
    return [
        (u.square.row, u.square.col, u.level)
        for u in state.units
        if u.status == ON_FIELD and u.carried_by < 0
    ]


@dataclass
class Outcome:
    state: pb.KillTheKingState
    events: list[Event]
    drawn: int


def _play(state: pb.KillTheKingState, seat: int, move: Move, seed: int) -> Outcome:
    after = pb.KillTheKingState()
    after.CopyFrom(state)
    rng = CountingRng(seed)
    events: list[Event] = []
    if move.HasField("attack"):
        apply_attack(after, field(after), seat, move, rng, events)
    else:
        apply_follow_up(after, field(after), seat, move, rng, events)
    return Outcome(after, events, rng.drawn)


def _check_field(before: pb.KillTheKingState, outcome: Outcome) -> None:
    after, events = outcome.state, outcome.events
    assert len(dice_rolled(events)) == outcome.drawn, "every die drawn is an event"
    for event in events:
        if event.HasField("attacked"):
            a = event.attacked
            assert a.value == a.base_value + sum(a.modifier_values)
            assert len(a.modifiers) == len(a.modifier_values)
        if event.HasField("die_rolled"):
            d = event.die_rolled
            assert 1 <= d.value <= 6 and d.success == (d.value <= d.needed)
        if event.HasField("unit_killed"):
            assert after.units[event.unit_killed.unit].status == DEAD
    assert len(after.units) == len(before.units), "nobody appears or vanishes"
    spots = _standing_positions(after)
    assert len(spots) == len(set(spots)), "one unit per position"
    for u in after.units:
        if u.status == ON_FIELD and u.carried_by >= 0:
            ram = after.units[u.carried_by]
            assert ram.status == ON_FIELD and ram.square == u.square
        if u.status == ON_FIELD and u.level == Level.WALL:
            assert field(after).space(u.square.row, u.square.col).is_wall
    if after.HasField("follow_up"):
        cavalry = after.units[after.follow_up.unit]
        assert cavalry.type == UnitType.CAVALRY and cavalry.status == ON_FIELD
        vacated = (after.follow_up.vacated.row, after.follow_up.vacated.col)
        assert field(after).space(*vacated).terrain is not Terrain.DOOR
        assert all((r, c) != vacated for r, c, _ in _standing_positions(after))


@settings(max_examples=200, deadline=None)
@given(positions(), st.sampled_from((0, 1)), st.integers(0, 2**32))
def test_every_offered_attack_is_carried_out_consistently(
    state: pb.KillTheKingState, seat: int, seed: int
) -> None:
    state.turn_side = state.seats[seat].side
    moves = attack_moves(state, field(state), seat)
    keys = [(m.attack.unit, m.attack.target.row, m.attack.target.col) for m in moves]
    assert keys == sorted(keys) and len(set(keys)) == len(keys)
    for move in moves:
        assert state.units[move.attack.unit].seat == seat
        outcome = _play(state, seat, move, seed)
        assert _play(state, seat, move, seed) == outcome, "the same dice, the same result"
        _check_field(state, outcome)
        attacker = outcome.state.units[move.attack.unit]
        announced = any(e.HasField("attacked") for e in outcome.events)
        assert attacker.attacked is announced, "only a free climb (KK-45) is no attack"
        again = attack_moves(outcome.state, field(outcome.state), seat)
        if attacker.attacked:
            assert all(m.attack.unit != attacker.id for m in again)
        for follow in follow_up_moves(outcome.state, field(outcome.state), seat):
            followed = _play(outcome.state, seat, follow, seed + 1)
            _check_field(outcome.state, followed)
            assert not followed.state.HasField("follow_up")
