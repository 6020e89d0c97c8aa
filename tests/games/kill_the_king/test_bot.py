"""KillTheKingBot: from its own view it always picks one of the legal moves,
in whole games of both modes on both sides, and makes the deliberate choices
its plan says (the killable leader, the gate taken by climbing, the door)."""

from __future__ import annotations

import pytest
from throneroom.bots import Bot, RandomBot
from throneroom.envelopes import unwrap, wrap
from throneroom.games.kill_the_king.bot import KillTheKingBot
from throneroom.games.kill_the_king.bot.combat import attack_worth, chance
from throneroom.games.kill_the_king.bot.model import Situation
from throneroom.games.kill_the_king.data import Mode, Side, UnitType
from throneroom.v1 import game_pb2

from .positions import END, ENGINE, GATE, A, D, Field, Move, State, legal, play
from .positions import N as NORTH
from .positions import S as SOUTH

GAME = "kill_the_king"


def choose(bot: Bot, state: State, seat: int) -> Move:
    """The bot's move from the seat's view, checked to be one of the legal moves."""
    view = wrap(game_pb2.View, GAME, ENGINE.view(state, seat))
    moves = [wrap(game_pb2.Move, GAME, m) for m in ENGINE.legal_moves(state, seat)]
    chosen = bot.choose(GAME, seat, view, moves)
    assert chosen in moves, "a bot picks one of the legal moves"
    move = unwrap(chosen)
    assert isinstance(move, Move)
    return move


def play_game(mode: Mode, bots: list[Bot], seed: int, *, advanced: bool = False) -> State:
    options = ENGINE.default_options()
    options.mode = int(mode)
    options.advanced = advanced
    state = ENGINE.setup(options, 2, seed)
    decisions = 0
    while acting := ENGINE.to_act(state):
        seat = acting[0]
        state, _ = ENGINE.apply(state, seat, choose(bots[seat], state, seat))
        decisions += 1
        assert decisions < 20_000, "the game did not end"
    assert ENGINE.outcome(state) is not None
    return state


@pytest.mark.parametrize("mode", [Mode.KILL_THE_KING, Mode.ATTACK_AND_DEFENSE])
def test_two_bots_play_a_whole_game_each_on_the_side_it_prefers(mode: Mode) -> None:
    """Both sides are played by the bot: whoever wins the initiative, each gets its side."""
    bots: list[Bot] = [KillTheKingBot(1, side=Side.ATTACKER), KillTheKingBot(2, side=D)]
    state = play_game(mode, bots, seed=3)
    assert [Side(s.side) for s in state.seats] == [A, D]


@pytest.mark.parametrize("mode", [Mode.KILL_THE_KING, Mode.ATTACK_AND_DEFENSE])
def test_with_the_advanced_option_the_bots_buy_and_field_the_advanced_units(mode: Mode) -> None:
    """KK-132: each side buys its advanced units first, and a whole game is played."""
    bots: list[Bot] = [KillTheKingBot(1, side=Side.ATTACKER), KillTheKingBot(2, side=D)]
    state = play_game(mode, bots, seed=3, advanced=True)
    owned = {(u.side, UnitType(u.type)) for u in state.units}
    assert (int(A), UnitType.WAR_ELEPHANT) in owned and (int(A), UnitType.BALLISTA) in owned
    assert (int(A), UnitType.SIEGE_TOWER) in owned
    assert (int(D), UnitType.BALLISTA) in owned and (int(D), UnitType.PEASANT) in owned


@pytest.mark.parametrize("mode", [Mode.KILL_THE_KING, Mode.ATTACK_AND_DEFENSE])
@pytest.mark.parametrize("side", [A, D])
def test_the_bot_beats_a_random_seat(mode: Mode, side: Side) -> None:
    """A seeded game against a random seat, with the bot on the given side (seeds
    where it wins the initiative, so the side is its choice), ends in its win."""
    for seed in range(20):
        bots: list[Bot] = [KillTheKingBot(seed, side=side), RandomBot(seed)]
        state = play_game(mode, bots, seed)
        if Side(state.seats[0].side) is side:
            break
    else:
        pytest.fail("the bot never got its side")
    outcome = ENGINE.outcome(state)
    assert outcome is not None and list(outcome.winners) == [0], outcome.summary


def test_it_strikes_the_killable_leader_rather_than_an_easier_soldier() -> None:
    """Attack and Defense: one Swordsmen faces the defender's Knight (the leader
    the attacker must kill, KK-117), another an Archer it is likelier to kill;
    the bot strikes the leader first."""
    board = Field(mode=Mode.ATTACK_AND_DEFENSE)
    near_leader = board.put(UnitType.SWORDSMEN, A, 5, 5, NORTH)
    near_archer = board.put(UnitType.SWORDSMEN, A, 5, 2, NORTH)
    leader = board.put(UnitType.KNIGHT, D, 6, 5)
    board.put(UnitType.ARCHER, D, 6, 2)
    board.put(UnitType.SWORDSMEN, D, 8, 9)
    state, _ = play(board.turn(A, 1), END)
    assert state.phase == State.PHASE_ATTACK
    move = choose(KillTheKingBot(0), state, 0)
    assert move.WhichOneof("decision") == "attack"
    assert move.attack.unit == near_leader
    assert (move.attack.target.row, move.attack.target.col) == (6, 5)
    assert state.units[leader].type == UnitType.KNIGHT
    assert near_archer != move.attack.unit


def test_a_swordsmen_at_the_wall_climbs_and_takes_the_gate() -> None:
    """Kill the King: with the Ram waiting before the closed gate, a Swordsmen
    standing under the front wall climbs it, walks to the space above the gate
    and ends its move there: the gate is the attacker's (KK-56)."""
    board = Field()
    ram = board.put(UnitType.BATTERING_RAM, A, 8, 5, NORTH)
    board.put(UnitType.SWORDSMEN, A, 8, 5, NORTH, crew_of=ram)
    climber = board.put(UnitType.SWORDSMEN, A, 8, 3, NORTH)
    board.put(UnitType.KNIGHT, A, 6, 5)
    board.put(UnitType.SWORDSMEN, D, 14, 5)
    state = board.turn(A, 2)
    bot = KillTheKingBot(0)
    decisions = 0
    while state.phase == State.PHASE_MOVEMENT:
        move = choose(bot, state, 0)
        state, _ = play(state, move)
        decisions += 1
        assert decisions < 40
    assert state.gates[0].controlled_by == int(A)
    u = state.units[climber]
    assert (u.square.row, u.square.col) == tuple(GATE)


def test_the_ram_at_the_door_attacks_it() -> None:
    """The manned Ram before the King's Door attacks the door (its 5 wins the game)."""
    board = Field()
    ram = board.put(UnitType.BATTERING_RAM, A, 14, 5, NORTH)
    board.put(UnitType.SWORDSMEN, A, 14, 5, NORTH, crew_of=ram)
    board.put(UnitType.SWORDSMEN, A, 13, 4, NORTH)
    board.put(UnitType.ARCHER, D, 12, 8)
    state, _ = play(board.turn(A, 5), END)
    move = choose(KillTheKingBot(0), state, 0)
    assert move.WhichOneof("decision") == "attack" and move.attack.unit == ram
    assert (move.attack.target.row, move.attack.target.col) == (15, 5)
    assert any(m == move for m in legal(state))


def test_its_estimate_counts_a_cavalry_hit_by_a_ballista_or_an_elephant_as_removed() -> None:
    """KK-77: a Cavalry hit by a Ballista or a War Elephant is removed on the hit
    (no save, no flip), so the estimate is the hit chance times a whole Cavalry
    (its 9 coins); against a Swordsmen's attack it saves and only flips (worth
    4); a dismounted Cavalry saves as the Swordsmen it is."""
    board = Field()
    elephant = board.put(UnitType.WAR_ELEPHANT, A, 4, 5, NORTH)
    board.put(UnitType.CAVALRY, D, 5, 5, SOUTH)
    swordsmen = board.put(UnitType.SWORDSMEN, A, 4, 2, NORTH)
    board.put(UnitType.CAVALRY, D, 5, 2, SOUTH)  # hit from the south: its front, saving on 4
    ballista = board.put(UnitType.BALLISTA, A, 4, 8, NORTH)
    board.put(UnitType.CAVALRY, D, 7, 8, SOUTH)
    on_foot = board.put(UnitType.BALLISTA, A, 4, 0, NORTH)
    board.put(UnitType.SWORDSMEN, D, 7, 0, SOUTH, dismounted=True)
    state = board.turn(A, 1)
    sit = Situation(ENGINE.view(state, 0), 0)

    def estimate(uid: int) -> float:
        u = sit.by_id[uid]
        return attack_worth(sit, u, u.coord, u.level, u.facing)

    assert estimate(elephant) == pytest.approx(chance(6) * 9)
    assert estimate(ballista) == pytest.approx(chance(3) * 9)
    assert estimate(swordsmen) == pytest.approx(chance(3) * (1 - chance(4)) * 4)
    assert estimate(on_foot) == pytest.approx(chance(3) * (1 - chance(3)) * 3)
