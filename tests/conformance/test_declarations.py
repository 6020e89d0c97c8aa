"""What each game declares, checked once per game or variant: its info, its
options, its message types (check 9a: no view or event type can hold an RNG or
a whole state) and its setup (check 2: a function of options, seats and seed)."""

from __future__ import annotations

import pytest
from google.protobuf.descriptor import Descriptor
from google.protobuf.message import Message
from throneroom.v1 import game_pb2
from throneroom_server.games.core import InvalidOptionsError
from throneroom_server.games.registry import AnyGame

from .messages import RNG_STATE, descriptor_of, encode, reachable_types, without_rng
from .profiles import (
    PROFILES,
    Case,
    conformance_cases,
    first_case,
    registry,
    variant_problem,
)

GAMES = registry()
CASES = conformance_cases()
SETUP_SEEDS = (0, 1, 2, 3, 0xDEADBEEF, 2**32, 2**63, 2**64 - 1)


def _first_move_messages(game: AnyGame, case: Case) -> tuple[Message, Message, list[Message]]:
    """The initial state, a legal move and the events it caused, for the case."""
    state: Message = game.setup(case.options, case.variant.seats, 0)
    seat = game.to_act(state)[0]
    move: Message = game.legal_moves(state, seat)[0]
    _, events = game.apply(state, seat, move)
    return state, move, list(events)


@pytest.mark.parametrize("name", list(GAMES))
def test_game_info_is_consistent(name: str) -> None:
    game = GAMES[name]
    info = game.info
    assert info.name == name, f"registered as {name!r} but info.name is {info.name!r}"
    assert 1 <= info.min_seats <= info.max_seats, (
        f"{name}: seats {info.min_seats}..{info.max_seats}"
    )
    assert info.title, f"{name}: info.title is empty"
    first, second = game.default_options(), game.default_options()
    assert first is not second and encode(first) == encode(second), (
        f"{name}: default_options() must return a fresh, equal message each time"
    )
    fields = first.DESCRIPTOR.fields_by_name
    for spec in info.options:
        assert spec.name in fields, (
            f"{name}: option {spec.name!r} is listed in info.options but "
            f"{type(first).__name__} has no such field"
        )
    declared = {case.variant.seats: case.options for case in CASES if case.name == name}
    for seats in range(info.min_seats, info.max_seats + 1):
        try:
            game.validate_options(game.default_options(), seats)
        except InvalidOptionsError:
            # Some seat counts need other options (Kill the King: 3-4 seats only
            # in its Giga modes): a declared variant must play them.
            assert seats in declared, (
                f"{name}: {seats} seats are in the declared range but neither the "
                "default options nor a declared variant accept them"
            )
            game.validate_options(declared[seats], seats)


@pytest.mark.parametrize("name", list(GAMES))
def test_seat_counts_outside_the_declared_range_are_refused(name: str) -> None:
    game = GAMES[name]
    for seats in (game.info.min_seats - 1, game.info.max_seats + 1):
        with pytest.raises(InvalidOptionsError):
            game.validate_options(game.default_options(), seats)
        with pytest.raises(InvalidOptionsError):
            game.setup(game.default_options(), seats, 1)


@pytest.mark.parametrize("name", [n for n in PROFILES if n in GAMES])
def test_variant_table_is_playable(name: str) -> None:
    """Every variant the suite's table lists is one the engine plays (seat range and
    option names): otherwise the playouts silently leave it out."""
    game = GAMES[name]
    problems = [p for v in PROFILES[name].variants if (p := variant_problem(game, v))]
    assert not problems, "variants the conformance table lists but the engine cannot play:\n" + (
        "\n".join(problems)
    )


@pytest.mark.parametrize("name", list(GAMES))
def test_messages_are_the_game_proto_envelope_entries(name: str) -> None:
    """The service wraps the engine's messages in the game.proto envelopes under the
    game's registered name: the engine must use exactly those message types."""
    game = GAMES[name]
    case = first_case(name)
    state, move, events = _first_move_messages(game, case)
    view = game.view(state, None)
    produced: dict[str, Message] = {
        "GameOptions": case.options,
        "GameState": state,
        "Move": move,
        "View": view,
    }
    if events:
        produced["Event"] = events[0]
    for envelope_name, message in produced.items():
        envelope: Descriptor = getattr(game_pb2, envelope_name).DESCRIPTOR
        field = envelope.fields_by_name.get(name)
        assert field is not None, f"game.proto's {envelope_name} has no entry named {name!r}"
        assert field.message_type is not None
        expected = field.message_type.full_name
        actual = message.DESCRIPTOR.full_name
        assert actual == expected, (
            f"{name}: the engine's {envelope_name} message is {actual}, but game.proto's "
            f"{envelope_name}.{name} is {expected}"
        )


def _state_types() -> set[str]:
    """The games' state messages (the oneof entries; not the service's own
    fields beside them, such as a timeout's forfeit Outcome)."""
    return {
        f.message_type.full_name
        for f in game_pb2.GameState.DESCRIPTOR.oneofs_by_name["game"].fields
        if f.message_type is not None
    }


@pytest.mark.parametrize("envelope", [game_pb2.View, game_pb2.Event])
def test_no_view_or_event_type_can_hold_an_rng_or_a_state(envelope: type[Message]) -> None:
    """Check 9a, over every game in game.proto: no View or Event message reaches an
    RngState or a whole game state at any depth."""
    reachable = reachable_types(descriptor_of(envelope()))
    assert RNG_STATE not in reachable, f"{envelope.__name__} can hold an RngState"
    assert not reachable & _state_types(), (
        f"{envelope.__name__} can hold a full game state: {reachable & _state_types()}"
    )


@pytest.mark.parametrize("name", list(GAMES))
def test_the_engines_views_and_events_cannot_hold_an_rng(name: str) -> None:
    """Check 9a on the types the engine actually returns (whatever the envelopes say)."""
    game = GAMES[name]
    state, _, events = _first_move_messages(game, first_case(name))
    for message in [game.view(state, None), game.view(state, 0), *events]:
        reachable = reachable_types(descriptor_of(message))
        assert RNG_STATE not in reachable, f"{message.DESCRIPTOR.full_name} can hold an RngState"
        assert state.DESCRIPTOR.full_name not in reachable, (
            f"{message.DESCRIPTOR.full_name} can hold a {state.DESCRIPTOR.full_name}"
        )


@pytest.mark.parametrize("case", CASES, ids=[case.id for case in CASES])
def test_setup_is_a_function_of_options_seats_and_seed(case: Case) -> None:
    game, seats = case.game, case.variant.seats
    fresh = type(game)()
    states = []
    for seed in SETUP_SEEDS:
        state = game.setup(case.options, seats, seed)
        game.check_invariants(state)
        assert encode(game.setup(case.options, seats, seed)) == encode(state), (
            f"{case.id}: setup() with seed {seed} gave two different states"
        )
        assert encode(fresh.setup(case.options, seats, seed)) == encode(state), (
            f"{case.id}: setup() with seed {seed} differs in a fresh engine instance"
        )
        states.append(state)
    assert len({encode(s) for s in states}) == len(states), (
        f"{case.id}: different seeds gave identical initial states (is the RNG seeded?)"
    )
    chance = case.profile.chance_at_setup
    if chance is None:
        chance = game.info.hidden_information
    if chance:
        assert len({without_rng(s) for s in states}) > 1, (
            f"{case.id}: {len(SETUP_SEEDS)} seeds all dealt the same initial state"
        )
