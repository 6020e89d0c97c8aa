"""Check 12 (DESIGN.md principle 12, chance is listable), over every variant.

A random playout of each variant is played three ways:

1. as the service plays it (no picker: the in-state RNG draws);
2. with a :class:`~throneroom_server.games.kit.chance.Recorder` over the RNG,
   which lists every chance step met (each die, draw and shuffle step);
3. from another seed, with the recorded outcomes as a script.

The first two must give the same states byte for byte (listing chance changes
nothing the service stores); every listed step must have outcomes whose exact
probabilities sum to 1, no more of them than the game's
``max_chance_outcomes``, and a game declares chance (``info.chance``,
``max_chance_outcomes``) exactly when it has some. The third must give the
same states apart from their random generators and the same events: every
random thing a game does goes through a listed step, so a caller that chooses
the outcomes (a search, OpenSpiel's chance nodes, an exact test) decides the
whole game.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable
from fractions import Fraction

import pytest
from google.protobuf.message import Message
from throneroom_server.games.kit.chance import (
    ChanceStep,
    Picker,
    Recorder,
    RngPicker,
    Scripted,
    draw,
)
from throneroom_server.games.kit.engine import Engine
from throneroom_server.games.rng import Rng

from .messages import encode, without_rng
from .profiles import Case, conformance_cases

CASES = conformance_cases()
#: Decisions played per variant: enough to reach every game's first chance
#: steps after setup (dice, draws) while keeping the fast tier fast.
DECISIONS = 250
OTHER_SEED = 987_654_321

Play = list[tuple[int, Message]]  # the (seat, move) of each decision


def _engine(case: Case) -> Engine:  # type: ignore[type-arg]
    game = case.game
    assert isinstance(game, Engine), f"{case.id}: not a kit engine, so its chance is not listed"
    return game


def _random_play(engine: Engine, case: Case, seed: int, decisions: int) -> Play:  # type: ignore[type-arg]
    """The decisions of a seeded random playout (at most ``decisions``)."""
    choose = random.Random(seed)
    state = engine.setup(case.options, case.variant.seats, seed)
    play: Play = []
    while len(play) < decisions and engine.outcome(state) is None:
        seat = choose.choice(engine.to_act(state))
        move = choose.choice(engine.legal_moves(state, seat))
        state, _ = engine.apply(state, seat, move)
        play.append((seat, move))
    return play


def _replay(
    engine: Engine,  # type: ignore[type-arg]
    case: Case,
    seed: int,
    play: Play,
    picker: Callable[[], Picker | None],
) -> list[tuple[Message, list[Message]]]:
    """Each state (from setup on) and the events that led to it, with the
    chance steps of each call chosen by ``picker()``."""
    state = engine.setup(case.options, case.variant.seats, seed, chance=picker())
    states: list[tuple[Message, list[Message]]] = [(state, [])]
    for seat, move in play:
        state, events = engine.apply(state, seat, move, chance=picker())
        states.append((state, list(events)))
    return states


def check_chance(
    engine: Engine,  # type: ignore[type-arg]
    case: Case,
    seed: int = 12_345,
    decisions: int = DECISIONS,
) -> int:
    """Check 12 over one seeded random playout of ``case`` played by
    ``engine`` (its first ``decisions``); the number of chance steps it met."""
    play = _random_play(engine, case, seed, decisions)

    plain = _replay(engine, case, seed, play, lambda: None)
    recorder = Recorder(RngPicker())
    recorded = _replay(engine, case, seed, play, lambda: recorder)
    for i, ((a, a_events), (b, b_events)) in enumerate(zip(plain, recorded, strict=True)):
        assert encode(a) == encode(b), f"{case.id}: a listed chance changed state {i}"
        assert [encode(e) for e in a_events] == [encode(e) for e in b_events], (
            f"{case.id}: a listed chance changed the events of decision {i}"
        )

    steps: list[tuple[ChanceStep, int]] = recorder.steps
    most = engine.max_chance_outcomes
    for step, choice in steps:
        outcomes = step.outcomes
        assert sum((o.probability for o in outcomes), Fraction(0)) == 1, (
            f"{case.id}: the outcomes of {step.name!r} do not sum to 1"
        )
        assert [o.index for o in outcomes] == list(range(step.size))
        assert all(o.probability > 0 for o in outcomes), f"{case.id}: {step.name!r}"
        assert step.size <= most, (
            f"{case.id}: {step.name!r} lists {step.size} outcomes, "
            f"more than max_chance_outcomes = {most}"
        )
        assert 0 <= choice < step.size
    if steps:
        assert engine.info.chance and most > 0, (
            f"{case.id}: the game met {len(steps)} chance steps but does not declare chance"
        )
    if most == 0:
        assert not engine.info.chance, f"{case.id}: chance declared without max_chance_outcomes"

    script = Scripted([choice for _, choice in steps])
    scripted = _replay(engine, case, OTHER_SEED, play, lambda: script)
    script.done()
    for i, ((a, a_events), (b, b_events)) in enumerate(zip(plain, scripted, strict=True)):
        assert without_rng(a) == without_rng(b), (
            f"{case.id}: state {i} depends on the RNG beyond the listed chance steps"
        )
        assert [encode(e) for e in a_events] == [encode(e) for e in b_events], (
            f"{case.id}: the events of decision {i} depend on the RNG beyond the listed steps"
        )
    return len(steps)


@pytest.mark.parametrize("case", CASES, ids=[case.id for case in CASES])
def test_every_chance_step_is_listed_and_decides_the_game(case: Case) -> None:
    engine = _engine(case)
    met = check_chance(engine, case)
    if engine.info.chance:  # deals, shuffles and initiative dice come early: not vacuous
        assert met > 0, f"{case.id} declares chance but met no chance step"


@pytest.mark.slow
@pytest.mark.parametrize("case", CASES, ids=[case.id for case in CASES])
def test_whole_games_list_every_chance_step(case: Case) -> None:
    """Whole random games (every die of combat, every later draw), four seeds."""
    engine = _engine(case)
    whole = engine.max_decisions(case.options, case.variant.seats)
    for seed in range(1, 5):
        check_chance(engine, case, seed, whole)


def _planted(case: Case, seats_draw: Callable[[Message, int], None]) -> Engine:  # type: ignore[type-arg]
    """``case``'s engine with a setup that also does ``seats_draw(state, seed)``."""
    engine = _engine(case)
    definition = engine.definition
    setup = definition.setup

    def planted_setup(options: Message, num_seats: int, seed: int) -> Message:
        state = setup(options, num_seats, seed)
        seats_draw(state, seed)
        return state

    planted = dataclasses.replace(definition, setup=planted_setup)
    return type("Planted", (type(engine),), {"definition": planted})()  # type: ignore[no-any-return]


def test_the_check_catches_a_draw_that_bypasses_the_listing() -> None:
    """Nim whose secrets come from its RNG directly, not a listed draw: the
    scripted replay from another seed differs."""
    case = next(c for c in CASES if c.name == "nim")

    def unlisted(state: Message, seed: int) -> None:
        rng = Rng(state.rng)  # type: ignore[attr-defined]
        secrets = state.secrets  # type: ignore[attr-defined]
        secrets[:] = [rng.below(1000) for _ in secrets]

    with pytest.raises(AssertionError, match="depends on the RNG beyond the listed chance"):
        check_chance(_planted(case, unlisted), case)


def test_the_check_catches_a_step_over_max_chance_outcomes() -> None:
    """Nim drawing a secret among more outcomes than it declares."""
    case = next(c for c in CASES if c.name == "nim")
    most = _engine(case).max_chance_outcomes

    def too_wide(state: Message, seed: int) -> None:
        state.secrets[0] = draw(Rng(state.rng), "secret", most + 1)  # type: ignore[attr-defined]

    with pytest.raises(AssertionError, match="more than max_chance_outcomes"):
        check_chance(_planted(case, too_wide), case)
