"""What is derived from the registered definitions: the registry itself, the
typed envelopes, the golden cases, the conformance profiles, the service face."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from google.protobuf.message import Message
from throneroom.envelopes import ENVELOPES, GameMessages, WrongGameError, game_types_of
from throneroom.v1 import game_pb2, nim_pb2
from throneroom_server.games.registry import (
    build_registry,
    real_game_names,
    service_games,
)

from tests.conformance.playout import Playout
from tests.conformance.profiles import PROFILES
from tests.games.kit_games import SealedTakes, Snap
from throneroom_dev.golden import CASES, golden_cases

GAMES = build_registry(include_fixtures=True)
GOLDEN_DIR = Path(__file__).parents[1] / "golden"


def test_every_game_of_game_proto_is_registered_once() -> None:
    in_proto = game_types_of(game_pb2.GameState)
    for envelope in ENVELOPES:
        assert game_types_of(envelope) == in_proto, f"{envelope.__name__} lists other games"
    assert sorted(GAMES) == sorted(in_proto), "game.proto and the registry disagree"


def test_fixture_games_are_registered_only_when_asked_for() -> None:
    real = build_registry()
    assert "nim" not in real and "nim" in GAMES
    assert list(real) == real_game_names() == [n for n, g in GAMES.items() if not g.fixture]


@pytest.mark.parametrize("name", list(GAMES))
def test_each_engine_declares_the_messages_of_its_envelope_entries(name: str) -> None:
    game = GAMES[name]
    derived = GameMessages.of(name)
    assert game.name == game.info.name == name
    assert game.messages == derived or (
        [c.DESCRIPTOR.full_name for c in _classes(game.messages)]
        == [c.DESCRIPTOR.full_name for c in _classes(derived)]
    )
    fresh = type(game)()
    assert fresh is not game and fresh.info == game.info, "engines are built without arguments"


def _classes(messages: GameMessages[Any, Any, Any, Any, Any]) -> list[type[Message]]:
    return [messages.options, messages.state, messages.move, messages.event, messages.view]


@pytest.mark.parametrize("name", list(GAMES))
def test_typed_envelopes_round_trip(name: str) -> None:
    game = GAMES[name]
    messages = game.messages
    state = game.setup(game.default_options(), game.info.min_seats, 1)
    seat = game.to_act(state)[0]
    move = game.legal_moves(state, seat)[0]
    _, events = game.apply(state, seat, move)
    assert messages.unwrap_state(messages.wrap_state(state)) == state
    assert messages.unwrap_move(messages.wrap_move(move)) == move
    assert messages.unwrap_view(messages.wrap_view(game.view(state, None))) == game.view(
        state, None
    )
    assert messages.unwrap_options(messages.wrap_options(game.default_options())) == (
        game.default_options()
    )
    for event in events:
        assert messages.unwrap_event(messages.wrap_event(event)) == event
    other = next(n for n in GAMES if n != name)
    with pytest.raises(WrongGameError) as caught:
        messages.unwrap_move(GAMES[other].messages.wrap_move(GAMES[other].messages.move()))
    assert (caught.value.expected, caught.value.given) == (name, other)


def test_the_golden_cases_are_the_declared_ones_and_have_their_files() -> None:
    assert golden_cases(GAMES) == CASES
    assert {case.name for case in CASES} == {p.stem for p in GOLDEN_DIR.glob("*.txt")}
    assert golden_cases({"nim": GAMES["nim"]}) == tuple(c for c in CASES if c.game == "nim")
    assert golden_cases({}) == ()


def test_the_conformance_profiles_are_the_declared_testing() -> None:
    for name, game in GAMES.items():
        testing = game.testing
        if not testing.variants:
            assert name not in PROFILES
            continue
        profile = PROFILES[name]
        assert profile.variants == testing.variants and profile.examples == testing.examples
        assert profile.deep_rate == testing.deep_rate
        assert profile.unordered_event_fields == testing.unordered_event_fields


def test_the_service_catalogue_is_derived() -> None:
    catalogue = service_games(include_fixtures=True)
    assert list(catalogue) == list(GAMES)
    nim = catalogue["nim"].game_type()
    assert (nim.name, nim.min_seats, nim.max_seats) == ("nim", 2, 4)
    assert nim.default_options == game_pb2.GameOptions(nim=nim_pb2.NimOptions(pile=21, max_take=3))
    assert [(o.name, o.default_value) for o in nim.options] == [("pile", "21"), ("max_take", "3")]
    kl = catalogue["kings_life"].game_type()
    assert kl.simultaneous_decisions and kl.hidden_information


@pytest.mark.parametrize("engine", [SealedTakes, Snap])
@pytest.mark.parametrize("seats", [2, 3])
def test_a_simultaneous_kit_game_keeps_the_conformance_contract(
    engine: type[SealedTakes], seats: int
) -> None:
    from throneroom_server.games.kit import Variant

    game = engine()
    for seed in range(3):
        stats = Playout(
            game,  # type: ignore[arg-type]
            name="nim",
            variant=Variant(seats),
            options=game.default_options(),
            seed=seed,
            choice_seed=seed,
            event_only_reveals=game.testing.event_only_reveals,
        ).run()
        assert stats.steps > 0 and stats.rejections > 0


@pytest.mark.parametrize("name", real_game_names())
def test_every_real_game_has_sdk_texts_found_by_its_name(name: str) -> None:
    from throneroom.games.protocol import game_client

    found = game_client(name)
    game = GAMES[name]
    state = game.setup(game.default_options(), game.info.min_seats, 3)
    seat = game.to_act(state)[0]
    move = game.legal_moves(state, seat)[0]
    sentence = found.describe_move(move, mover=seat)
    assert sentence, f"sdk/throneroom/games/{name}/client.py describes no move"
    _, events = game.apply(state, seat, move)
    for event in events:
        assert found.describe_event(event)


def test_texts_of_unknown_or_textless_games_are_none() -> None:
    from throneroom.games.protocol import UnknownGame, game_client

    with pytest.raises(UnknownGame):
        game_client("chess")
    with pytest.raises(UnknownGame):
        game_client("king_is_dead_names")  # a helper module is no game
    from throneroom.games.protocol import BasicGameClient

    textless = BasicGameClient("nim")  # a game without an SDK package of its own
    assert textless.describe_move(nim_pb2.NimMove(take=1)) is None
    assert game_client("nim").describe_move(nim_pb2.NimMove(take=1)) == "Take 1 stone"
