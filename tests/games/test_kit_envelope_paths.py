"""The envelope face's short paths give, byte for byte, what the plain
composition gives: the engine's ``apply`` with its state and events wrapped
and the clock from ``advance_clock``; views built and wrapped; legal moves
wrapped and framed. Over random playouts of every registered game (every
variant its conformance suite plays) and the kit's test games (simultaneous
decisions), with and without the engine's ``apply_into``."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from google.protobuf import wrappers_pb2
from google.protobuf.message import Message
from throneroom.games.messages import varint
from throneroom.v1 import common_pb2, game_pb2, service_pb2
from throneroom_server.games.core import IllegalMoveError, InvalidMoveError, NotYourTurnError
from throneroom_server.games.kit import Engine, EnvelopeGame
from throneroom_server.games.kit.decisions import advance_clock, start_clock
from throneroom_server.games.registry import build_registry, service_games
from throneroom_server.games.rng import Rng, seed_rng

from tests.games.kit_games import SealedTakes, Settlers, Snap

AnyEngine = Engine[Any, Any, Any, Any, Any]

ENGINES: list[AnyEngine] = [
    *(g for g in build_registry(include_fixtures=True).values() if isinstance(g, Engine)),
    SealedTakes(),
    Snap(),
    Settlers(),
]


def _variants(game: AnyEngine) -> list[tuple[int, Message]]:
    """(seats, options) of each variant the conformance suite plays."""
    variants = game.testing.variants
    if not variants:
        return [
            (seats, game.default_options()) for seats in (game.info.min_seats, game.info.max_seats)
        ]
    out = []
    for variant in variants:
        options = game.default_options()
        for name, value in variant.options:
            setattr(options, name, value)
        out.append((variant.seats, options))
    return out


def _bytes(message: Message) -> tuple[bytes, bytes]:
    return message.SerializeToString(), message.SerializeToString(deterministic=True)


def _plain_apply(
    game: AnyEngine, state: game_pb2.GameState, seat: int, move: game_pb2.Move
) -> tuple[game_pb2.GameState, list[game_pb2.Event]]:
    """The composition the envelope face stands for: unwrap, the engine's pure
    ``apply``, wrap, the clock as ``advance_clock`` gives it."""
    m = game.messages
    before = m.unwrap_state(state)
    after, events = game.apply(before, seat, m.unwrap_move(move))
    envelope = m.wrap_state(after)
    envelope.clock.CopyFrom(
        advance_clock(
            state.clock,
            num_seats=len(state.clock.opened_at) or before.num_seats,
            mover=seat,
            acting_before=game.to_act(before),
            acting_after=game.to_act(after),
            decision_before=game.decision_key(before),
            decision_after=game.decision_key(after),
        )
    )
    return envelope, [m.wrap_event(e) for e in events]


def _playout(
    game: AnyEngine,
    face: EnvelopeGame[Any, Any, Any, Any, Any],
    seats: int,
    options: Message,
    seed: int,
) -> Iterator[tuple[game_pb2.GameState, int, game_pb2.Move]]:
    """(state envelope, seat, move) of each decision of one random playout
    through the envelope face, each checked against the plain composition."""
    stream = common_pb2.RngState()
    seed_rng(stream, seed)
    chooser = Rng(stream)
    state = face.setup(game.messages.wrap_options(options), seats, seed)
    for _ in range(150):
        acting = face.to_act(state)
        if not acting:
            return
        seat = chooser.choice(acting)
        moves = face.legal_moves(state, seat)
        move = moves[chooser.below(len(moves))]
        yield state, seat, move
        new, events = face.apply(state, seat, move)
        plain, plain_events = _plain_apply(game, state, seat, move)
        assert _bytes(new) == _bytes(plain)
        assert [_bytes(e) for e in events] == [_bytes(e) for e in plain_events]
        state = new


def _check_views(
    game: AnyEngine, face: EnvelopeGame[Any, Any, Any, Any, Any], state: game_pb2.GameState
) -> None:
    m = game.messages
    inner = m.unwrap_state(state)
    assert face.to_act(state) == list(game.to_act(inner))
    assert face.outcome(state) == game.outcome(inner)
    for viewer in [None, *range(inner.num_seats)]:
        plain = m.wrap_view(game.view(inner, viewer))
        assert _bytes(face.view(state, viewer)) == _bytes(plain)
        into = game_pb2.View()
        face.view_into(state, viewer, into)
        assert _bytes(into) == _bytes(plain)
        if viewer is not None and face.shares_views:
            shared = face.view(state, None)
            face.add_seat_view(state, viewer, shared)
            assert _bytes(shared) == _bytes(plain)
        if viewer is not None:
            listed = service_pb2.GameUpdate(
                legal_moves=[m.wrap_move(x) for x in game.legal_moves(inner, viewer)]
            )
            number = service_pb2.GameUpdate.DESCRIPTOR.fields_by_name["legal_moves"].number
            encoded = service_pb2.GameUpdate()
            encoded.MergeFromString(face.encoded_legal_moves(state, viewer, number))
            assert _bytes(encoded) == _bytes(listed)


class _OwnApply(Engine[Any, Any, Any, Any, Any]):
    """Marks a copy of an engine class whose ``apply`` is its own (the face
    falls back to ``apply`` and a copy)."""

    def apply(self, state: Any, seat: int, move: Any) -> tuple[Any, list[Any]]:
        return super().apply(state, seat, move)


def _own_apply(game: AnyEngine) -> AnyEngine:
    cls = type(f"OwnApply{type(game).__name__}", (_OwnApply, type(game)), {})
    engine: AnyEngine = cls()
    return engine


# The fast tier plays seed 1 of every variant; the slow tier seeds 2 and 3 too.
@pytest.mark.parametrize("seeds", [(1,), pytest.param((2, 3), marks=pytest.mark.slow)])
@pytest.mark.parametrize("own_apply", [False, True], ids=["apply_into", "own_apply"])
@pytest.mark.parametrize("game", ENGINES, ids=lambda g: type(g).__name__)
def test_the_envelope_face_gives_the_plain_composition(
    game: AnyEngine, own_apply: bool, seeds: tuple[int, ...]
) -> None:
    engine = _own_apply(game) if own_apply else game
    face = EnvelopeGame(engine)
    assert (face._apply_into is None) == own_apply
    decisions = 0
    for seats, options in _variants(engine):
        for seed in seeds:
            for state, _seat, _move in _playout(engine, face, seats, options, seed):
                if decisions % 3 == 0:
                    _check_views(engine, face, state)
                decisions += 1
    assert decisions >= 5 * len(seeds)  # every playout made decisions


def test_the_registry_faces_play_into_the_envelope() -> None:
    faces = service_games(include_fixtures=True)
    assert set(faces) == {"king_is_dead", "kill_the_king", "kings_life", "nim"}
    for face in faces.values():
        assert isinstance(face, EnvelopeGame) and face._apply_into is not None


@pytest.mark.parametrize("game", ENGINES, ids=lambda g: type(g).__name__)
def test_apply_into_leaves_the_message_alone_when_it_refuses(game: AnyEngine) -> None:
    seats = game.info.min_seats
    state = game.setup(game.default_options(), seats, 3)
    acting = list(game.to_act(state))
    idle = next((s for s in range(seats) if s not in acting), None)
    refusals: list[tuple[int, Message, type[Exception]]] = [
        (acting[0], game.messages.move(), InvalidMoveError)
    ]
    if idle is not None:
        refusals.append((idle, game.legal_moves(state, acting[0])[0], NotYourTurnError))
    for seat, move, error in refusals:
        new = game.messages.state()
        with pytest.raises(error):
            game.apply_into(state, seat, move, new)
        assert new.ByteSize() == 0
        face = EnvelopeGame(game)
        envelope = game.messages.wrap_state(state)
        envelope.clock.CopyFrom(start_clock(seats))
        with pytest.raises(error):
            face.apply(envelope, seat, game.messages.wrap_move(move))
    assert issubclass(NotYourTurnError, IllegalMoveError)


def test_the_face_refuses_another_games_envelopes() -> None:
    faces = service_games(include_fixtures=True)
    nim, kid = faces["nim"], faces["king_is_dead"]
    state = kid.setup(game_pb2.GameOptions(king_is_dead={}), 2, 1)
    nim_state = nim.setup(game_pb2.GameOptions(nim={}), 2, 1)
    move = nim.legal_moves(nim_state, 0)[0]
    with pytest.raises(InvalidMoveError, match="'nim' Move does not apply"):
        kid.apply(state, 0, move)
    for call in (
        lambda: nim.apply(state, 0, move),
        lambda: nim.to_act(state),
        lambda: nim.outcome(state),
        lambda: nim.view_into(state, None, game_pb2.View()),
        lambda: nim.encoded_legal_moves(state, 0, 1),
    ):
        with pytest.raises(ValueError, match="'king_is_dead' GameState does not apply"):
            call()


def test_varint_is_the_base_128_encoding() -> None:
    """As protobuf itself encodes a uint64 field (its tag, then the varint)."""
    for value in [*range(1, 20_000), 2**21 - 1, 2**21, 2**31, 2**63 - 1, 2**64 - 1]:
        encoded = wrappers_pb2.UInt64Value(value=value).SerializeToString()
        assert b"\x08" + varint(value) == encoded, value
    assert varint(0) == b"\x00"
    with pytest.raises(ValueError):
        varint(-1)
