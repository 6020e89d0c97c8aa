"""A Cavalry hit by a Catapult, a Ballista or a War Elephant is removed at once,
with no save (docs/rules/kill_the_king.md KK-77; issue 35).

The rulebook (Cavalry): "When a Cavalry unit is successfully hit and fails to
defend the attack, it is immediately converted to a Swordsmen unit. ... If a
Cavalry unit is hit by Siege Engines or War Elephants it is killed instantly
without converting." The unit chart: "If hit by Siege Engines, the unit is
immediately removed from the game without flipping." And "hit" is the attack
roll alone: "If the attacker scores a hit by rolling equal to or less than the
unit's attack value, the defending player must then roll a die ...".

So the hit die is the only die: no SAVE die is rolled or shown for such a
Cavalry, and it dies a Cavalry (no ``Flipped``). A dismounted Cavalry is
Swordsmen and saves as Swordsmen do; other units keep their save against the
Ballista and the War Elephant; the Catapult allows no save to anyone.
"""

from __future__ import annotations

from collections.abc import Callable

from throneroom.games.kill_the_king.data import UnitType
from throneroom.games.kill_the_king.texts import describe_event
from throneroom.v1 import kill_the_king_pb2 as pb
from throneroom_server.games.kill_the_king.combat import apply_attack, attack_moves
from throneroom_server.games.registry import build_registry
from throneroom_server.games.rng import seed_rng

from tests.games.kill_the_king.combat_positions import (
    A,
    D,
    Dice,
    Event,
    Move,
    N,
    S,
    W,
    attack,
    dice_rolled,
    field,
    killed,
    kinds,
    position,
    unit,
)
from tests.games.kill_the_king.positions import Field, play, step

State = pb.KillTheKingState
Played = tuple[State, list[Event]]
BALLISTA, ELEPHANT, CATAPULT = UnitType.BALLISTA, UnitType.WAR_ELEPHANT, UnitType.CATAPULT
CAVALRY, SWORDSMEN, SPEARMEN = UnitType.CAVALRY, UnitType.SWORDSMEN, UnitType.SPEARMEN
RANGER, KNIGHT = UnitType.RANGER, UnitType.KNIGHT
HIT, SAVE, PANIC = pb.DIE_PURPOSE_HIT, pb.DIE_PURPOSE_SAVE, pb.DIE_PURPOSE_PANIC
DEAD, ON_FIELD = pb.KillTheKingUnit.STATUS_DEAD, pb.KillTheKingUnit.STATUS_ON_FIELD
GROUND = pb.LEVEL_GROUND
GAME = build_registry()["kill_the_king"]


def bolt(uid: int, row: int, col: int) -> Move:
    """A Ballista's attack on the ground level of its line."""
    return Move(attack=Move.Attack(unit=uid, target=pb.Square(row=row, col=col), level=GROUND))


def strike(state: State, seat: int, move: Move, dice: Dice) -> list[Event]:
    assert move in attack_moves(state, field(state), seat)
    events: list[Event] = []
    apply_attack(state, field(state), seat, move, dice, events)
    assert dice.left == [], "every die the test gave is rolled"
    return events


def dismounted(state: State, uid: int) -> None:
    """Unit ``uid`` (a Cavalry) has flipped to its Swordsmen side (KK-76)."""
    state.units[uid].type = pb.UNIT_TYPE_SWORDSMEN
    state.units[uid].dismounted = True


def died_a_cavalry(state: State, uid: int) -> bool:
    u = state.units[uid]
    return u.status == DEAD and u.type == int(CAVALRY) and not u.dismounted


def test_ballista_a_cavalry_hit_is_removed_with_no_save_others_keep_theirs() -> None:
    """The chart: "If hit by Siege Engines, the unit is immediately removed from
    the game without flipping": the bolt's hit die on the Cavalry is its only
    die. The dismounted Cavalry behind it (Swordsmen now) and a Spearmen roll
    their saves on the face hit as usual (KK-94)."""
    state = position(
        unit(BALLISTA, A, 4, 3, N),  # 0: the line is rows 7-10 of column 3
        unit(CAVALRY, D, 7, 3, S),  # 1: faces the bolt
        unit(CAVALRY, D, 8, 3, N),  # 2: behind it, dismounted, its back to the bolt
        unit(SPEARMEN, D, 10, 3, S),  # 3: inside the wall, over which the bolt flies
    )
    dismounted(state, 2)
    events = strike(state, 0, bolt(0, 7, 3), Dice(3, 2, 1, 1, 4))
    assert [(d.purpose, d.target_unit, d.success) for d in dice_rolled(events)] == [
        (HIT, 1, True),
        (HIT, 2, True),
        (SAVE, 2, True),
        (HIT, 3, True),
        (SAVE, 3, True),
    ]
    saves = [d for d in dice_rolled(events) if d.purpose == SAVE]
    assert [(d.face, d.needed) for d in saves] == [(pb.FACE_BACK, 1), (pb.FACE_FRONT, 4)]
    assert killed(events) == [(1, pb.CAUSE_ATTACK)]
    assert "flipped" not in kinds(events)
    assert [e.unit_saved.unit for e in events if e.HasField("unit_saved")] == [2, 3]
    assert died_a_cavalry(state, 1)
    assert state.units[2].status == ON_FIELD and state.units[3].status == ON_FIELD


def test_ballista_a_dismounted_cavalry_that_fails_its_save_dies() -> None:
    """A Cavalry that dismounted is Swordsmen "for the rest of the game": hit by
    the bolt it saves on its face (3 in front) and, failing, dies (KK-77)."""
    state = position(unit(BALLISTA, A, 4, 3, N), unit(CAVALRY, D, 7, 3, S))
    dismounted(state, 1)
    events = strike(state, 0, bolt(0, 7, 3), Dice(1, 4))
    assert [(d.purpose, d.needed) for d in dice_rolled(events)] == [(HIT, 3), (SAVE, 3)]
    assert killed(events) == [(1, pb.CAUSE_ATTACK)]
    assert state.units[1].type == int(SWORDSMEN)


def test_ballista_a_miss_leaves_the_cavalry_mounted() -> None:
    """Only a hit removes it: a hit die above 3 misses and nothing else is rolled."""
    state = position(unit(BALLISTA, A, 4, 3, N), unit(CAVALRY, D, 7, 3, S))
    events = strike(state, 0, bolt(0, 7, 3), Dice(4))
    assert [(d.purpose, d.success) for d in dice_rolled(events)] == [(HIT, False)]
    assert killed(events) == [] and state.units[1].type == int(CAVALRY)
    assert state.units[1].status == ON_FIELD


def test_war_elephant_its_attack_removes_a_cavalry_with_no_save() -> None:
    """The rulebook: "If a Cavalry unit is hit by Siege Engines or War Elephants
    it is killed instantly without converting": the Elephant's hit (6) on a
    Cavalry is the only die, from the front as from the back."""
    for facing in (S, N):
        state = position(unit(ELEPHANT, A, 4, 5, N), unit(CAVALRY, D, 5, 5, facing))
        events = strike(state, 0, attack(0, 5, 5), Dice(6))
        assert [(d.purpose, d.needed, d.success) for d in dice_rolled(events)] == [(HIT, 6, True)]
        assert killed(events) == [(1, pb.CAUSE_ATTACK)] and "flipped" not in kinds(events)
        assert died_a_cavalry(state, 1)


def test_war_elephant_a_dismounted_cavalry_and_other_units_save_against_it() -> None:
    """A dismounted Cavalry is Swordsmen and saves against the Elephant (front 3);
    so does any other unit (a Spearmen's front 4): only the Cavalry loses it."""
    state = position(unit(ELEPHANT, A, 4, 5, N), unit(CAVALRY, D, 5, 5, S))
    dismounted(state, 1)
    events = strike(state, 0, attack(0, 5, 5), Dice(6, 3))
    assert [(d.purpose, d.needed, d.success) for d in dice_rolled(events)] == [
        (HIT, 6, True),
        (SAVE, 3, True),
    ]
    assert kinds(events)[-1] == "unit_saved" and state.units[1].status == ON_FIELD
    spearmen = position(unit(ELEPHANT, A, 4, 5, N), unit(SPEARMEN, D, 5, 5, S))
    events = strike(spearmen, 0, attack(0, 5, 5), Dice(1, 5))
    assert [(d.purpose, d.needed) for d in dice_rolled(events)] == [(HIT, 6), (SAVE, 4)]
    assert killed(events) == [(1, pb.CAUSE_ATTACK)]


def test_war_elephant_tramples_a_cavalry_without_a_die_or_a_flip() -> None:
    """The War Elephant "Can walk through units in the movement phase. All the
    units that stood in the way are automatically killed": no hit roll, so no
    die at all for the Cavalry it walks over, and it dies a Cavalry (KK-81)."""
    board = Field()
    board.put(KNIGHT, A, 0, 0, N)  # 0
    board.put(KNIGHT, D, 13, 5, N)  # 1
    board.put(ELEPHANT, A, 4, 5, N)  # 2
    board.put(CAVALRY, D, 5, 5, S)  # 3
    state, events = play(board.turn(A, 1), step(2, N))
    assert killed(events) == [(3, pb.CAUSE_TRAMPLED)]
    assert "die_rolled" not in kinds(events) and "flipped" not in kinds(events)
    assert died_a_cavalry(state, 3)


def test_war_elephant_in_its_panic_runs_a_cavalry_down_without_a_die_for_it() -> None:
    """The chart: "If the War Elephant fails his front defence roll he panics
    before he dies ... moves three tiles in a random direction and kills any
    unit it shares a space with": the dice are the Elephant's (hit, save,
    panic), none the Cavalry's, which dies without flipping (KK-82)."""
    state = position(
        unit(SWORDSMEN, D, 6, 5, S),  # 0: attacks its front
        unit(ELEPHANT, A, 5, 5, N),  # 1
        unit(CAVALRY, D, 5, 4, W),  # 2: on its left, where a panic die of 1-2 sends it
        unit(KNIGHT, A, 0, 0, N),
        turn=D,
    )
    events = strike(state, 1, attack(0, 5, 5), Dice(3, 5, 1))
    assert [(d.purpose, d.target_unit) for d in dice_rolled(events)] == [
        (HIT, 1),
        (SAVE, 1),
        (PANIC, 1),
    ]
    assert killed(events) == [(2, pb.CAUSE_TRAMPLED), (1, pb.CAUSE_PANIC)]
    assert "flipped" not in kinds(events) and died_a_cavalry(state, 2)


def test_catapult_a_cavalry_hit_is_removed_and_nobody_saves() -> None:
    """The Catapult "Hits the target space and all orthogonally adjacent spaces
    on every attack, rolls to hit for each affected unit, and affected units may
    not make a defense roll", and a Cavalry "If hit by Siege Engines, the unit
    is immediately removed from the game without flipping"; a dismounted
    Cavalry dies as the Swordsmen it is, also without a save (KK-67)."""
    state = position(
        unit(CATAPULT, A, 2, 5, N),  # 0: centre (6,5)
        unit(CAVALRY, D, 6, 5, S),  # 1: centre
        unit(CAVALRY, D, 7, 5, S),  # 2: north, dismounted
        unit(SWORDSMEN, D, 6, 6, S),  # 3: east
        unit(CAVALRY, D, 6, 4, S),  # 4: west, missed
    )
    dismounted(state, 2)
    events = strike(state, 0, attack(0, 6, 5), Dice(5, 4, 1, 5))
    assert [(d.purpose, d.target_unit, d.success) for d in dice_rolled(events)] == [
        (HIT, 1, True),
        (HIT, 2, True),
        (HIT, 3, True),
        (HIT, 4, False),
    ]
    assert killed(events) == [(u, pb.CAUSE_ATTACK) for u in (1, 2, 3)]
    assert "flipped" not in kinds(events) and "unit_saved" not in kinds(events)
    assert died_a_cavalry(state, 1) and state.units[2].type == int(SWORDSMEN)
    assert state.units[4].status == ON_FIELD and state.units[4].type == int(CAVALRY)


def test_the_events_and_their_sentences_show_the_hit_and_the_death_only() -> None:
    """Through the registered game (dice from the state's RNG): the Ballista's
    attack on a Cavalry is announced, its hit die rolled, and the Cavalry killed
    by the attack at once; the sentences clients show say just that."""
    state = position(
        unit(BALLISTA, A, 4, 3, N),  # 0
        unit(CAVALRY, D, 7, 3, S),  # 1
        unit(RANGER, A, 0, 0, N),  # 2
        unit(KNIGHT, D, 12, 5, N),  # 3
    )
    state.advanced = True  # the Ballista is an Advanced unit
    move = bolt(0, 7, 3)
    assert move in GAME.legal_moves(state, 0)
    after, events = first_seed(state, 0, move, lambda s: s.units[1].status == DEAD)
    assert kinds(events)[:3] == ["attacked", "die_rolled", "unit_killed"]
    assert [d.purpose for d in dice_rolled(events)] == [HIT]
    hit = dice_rolled(events)[0]
    assert [describe_event(e) for e in events[:3]] == [
        "Unit 0 attacks d8 at 3",
        f"Seat 0 rolls {hit.value} to hit, target {hit.needed}: "
        + ("success" if hit.success else "failure"),
        "Unit 1 is killed (attacked)",
    ]
    assert died_a_cavalry(after, 1)


def first_seed(state: State, seat: int, move: Move, wanted: Callable[[State], bool]) -> Played:
    """The move applied with the first RNG seed whose result is ``wanted``."""
    for seed in range(200):
        trial = State()
        trial.CopyFrom(state)
        seed_rng(trial.rng, seed)
        after, events = GAME.apply(trial, seat, move)
        if wanted(after):
            return after, list(events)
    raise AssertionError("no seed of 200 gives that result")
