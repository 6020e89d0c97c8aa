"""Combat through the registered game (the kit's checked apply): the attack
phase offers the combat module's attacks, a Cavalry's kill opens the follow-up
decision and returns to the attack phase (KK-78), a climb in the movement phase
is the climbing attack (KK-44), the King's Door destroyed ends the game
(KK-116). Dice come from the state's RNG: each test looks for the first seed
that gives the outcome it needs, and shows it in the events."""

from __future__ import annotations

from collections.abc import Callable

from throneroom.games.kill_the_king.data import UnitType
from throneroom.v1 import kill_the_king_pb2 as pb
from throneroom_server.games.registry import build_registry
from throneroom_server.games.rng import seed_rng

from tests.games.kill_the_king.combat_positions import (
    A,
    Counter,
    D,
    E,
    Event,
    Move,
    N,
    S,
    attack,
    dice_rolled,
    kinds,
    position,
    unit,
)

GAME = build_registry()["kill_the_king"]
State = pb.KillTheKingState
Played = tuple[State, list[Event]]
DEAD = pb.KillTheKingUnit.STATUS_DEAD


def first_seed(
    state: State, seat: int, move: Move, wanted: Callable[[State, list[Event]], bool]
) -> Played:
    """The move applied with the first RNG seed whose result is ``wanted``."""
    for seed in range(200):
        trial = State()
        trial.CopyFrom(state)
        seed_rng(trial.rng, seed)
        after, events = GAME.apply(trial, seat, move)
        if wanted(after, list(events)):
            return after, list(events)
    raise AssertionError("no seed of 200 gives that result")


def leaders() -> tuple[Counter, ...]:
    """Both sides keep a leader far away, so nobody is wiped out."""
    return (unit(UnitType.RANGER, A, 0, 0, N), unit(UnitType.KNIGHT, D, 12, 5, N))


def test_the_follow_up_decision_through_the_engine() -> None:
    state = position(
        unit(UnitType.CAVALRY, A, 4, 4, N),
        unit(UnitType.SWORDSMEN, D, 5, 4, S),
        unit(UnitType.SPEARMEN, D, 6, 4, S),
        *leaders(),
    )
    assert attack(0, 5, 4) in GAME.legal_moves(state, 0)
    after, events = first_seed(
        state, 0, attack(0, 5, 4), lambda s, _: s.phase == State.PHASE_FOLLOW_UP
    )
    assert kinds(events)[-2:] == ["unit_killed", "phase_started"]
    stay, advance = (Move(follow_up=Move.FollowUp(advance=b)) for b in (False, True))
    assert sorted(GAME.legal_moves(after, 0), key=lambda m: m.follow_up.advance) == [
        stay,
        advance,
    ]
    assert GAME.legal_moves(after, 1) == []
    back, events = GAME.apply(after, 0, advance)
    assert back.phase == State.PHASE_ATTACK and not back.HasField("follow_up")
    assert kinds(events)[:2] == ["followed_up", "attacked"]
    assert dice_rolled(events)[0].needed == 4, "5 - 1 (SECOND_CHARGE)"
    assert (back.units[0].square.row, back.units[0].square.col) == (5, 4)


def test_a_climb_in_the_movement_phase_is_the_climbing_attack() -> None:
    state = position(
        unit(UnitType.SWORDSMEN, A, 8, 3, E),
        unit(UnitType.SPEARMEN, D, 9, 3, S),
        *leaders(),
    )
    state.phase = State.PHASE_MOVEMENT
    climb = Move(climb=Move.Climb(unit=0, direction=pb.DIRECTION_NORTH))
    assert climb in GAME.legal_moves(state, 0)
    after, events = first_seed(state, 0, climb, lambda s, _: s.units[1].status == DEAD)
    assert events[0].attacked.climbing and events[0].attacked.value == 2
    climber = after.units[0]
    assert (climber.square.row, climber.level, climber.attacked) == (9, pb.LEVEL_WALL, True)
    assert "climbed" in kinds(events)


def test_the_kings_door_destroyed_ends_the_game() -> None:
    state = position(
        unit(UnitType.BATTERING_RAM, A, 14, 5, N),
        unit(UnitType.SWORDSMEN, A, 14, 5, N, crew_of=0),
        *leaders(),
    )
    door = attack(0, 15, 5)
    assert door in GAME.legal_moves(state, 0)
    after, events = first_seed(state, 0, door, lambda s, _: s.door_destroyed)
    assert kinds(events)[-1] == "game_ended"
    assert after.phase == State.PHASE_OVER
    assert after.outcome.termination == "door" and list(after.outcome.winners) == [0]
