"""Size limits and unknown fields (limits.py) through a real server: padding is
discarded before anything is stored or echoed, oversized moves, options and
display names are refused before anything is stored, and the limits are
configurable."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator

import grpc
import pytest
from google.protobuf.message import Message
from throneroom.v1 import (
    game_pb2,
    kings_life_pb2,
    nim_pb2,
    service_pb2,
    service_pb2_grpc,
)
from throneroom_server.app.limits import Limits
from throneroom_server.app.service import App, AppConfig
from throneroom_server.games.nim import Nim
from throneroom_server.games.registry import serve
from throneroom_server.runtime.config import Config, load_config
from throneroom_server.runtime.server import create_server
from throneroom_server.store.base import Store
from throneroom_server.store.memory import MemoryStore

from tests.service.helpers import (
    Service,
    error_info,
    history_bytes,
    new_nim,
    nim_move,
    snapshot_bytes,
)


def varint(n: int) -> bytes:
    out = bytearray()
    while True:
        byte, n = n & 0x7F, n >> 7
        out.append(byte | (0x80 if n else 0))
        if not n:
            return bytes(out)


def with_padding(message: Message, size: int, field_number: int = 999) -> Message:
    """``message`` carrying an unknown length-delimited field of ``size`` bytes."""
    out = type(message)()
    out.MergeFromString(
        message.SerializeToString() + varint(field_number << 3 | 2) + varint(size) + b"\x5a" * size
    )
    assert out.ByteSize() > size
    return out


def has_unknown_fields(message: Message) -> bool:
    bare = type(message)()
    bare.CopyFrom(message)
    bare.DiscardUnknownFields()
    return bare.ByteSize() != message.ByteSize()


def _apply(game_id: str, token: str, version: int, move: game_pb2.Move) -> Message:
    return service_pb2.ApplyMoveRequest(
        game_id=game_id,
        seat_token=token,
        expected_version=version,
        move=move,
        idempotency_key=uuid.uuid4().hex,
    )


async def _kings_life_until_a_card_play(
    stub: service_pb2_grpc.ThroneroomStub,
) -> tuple[str, list[str], int, int, game_pb2.Move]:
    """A 4-seat King's Life game played (first legal move each time) up to the
    first decision that plays a card: (game id, tokens, version, seat, the play)."""
    created = await stub.CreateGame(
        service_pb2.CreateGameRequest(
            options=game_pb2.GameOptions(kings_life=kings_life_pb2.KingsLifeOptions()),
            num_seats=4,
            seed=11,
        )
    )
    gid = created.game_id
    tokens = [
        (await stub.JoinGame(service_pb2.JoinGameRequest(game_id=gid))).seat_token for _ in range(4)
    ]
    for _ in range(300):
        snap = (await stub.GetGame(service_pb2.GetGameRequest(game_id=gid))).snapshot
        seat = snap.to_act[0]
        moves = (
            await stub.ListLegalMoves(
                service_pb2.ListLegalMovesRequest(game_id=gid, seat_token=tokens[seat])
            )
        ).moves
        plays = [m for m in moves if m.kings_life.WhichOneof("kind") == "play"]
        if plays:
            return gid, tokens, snap.version, seat, plays[0]
        await stub.ApplyMove(_apply(gid, tokens[seat], snap.version, moves[0]))
    raise AssertionError("no card play within 300 decisions")


async def test_a_padded_kings_life_card_play_is_stripped_and_the_watch_update_stays_small(
    service: Service,
) -> None:
    """The probe's attack: 1 MiB of unknown fields inside a card play, which the
    engine copies into the public event. It is discarded on arrival: the move is
    applied as if unpadded, and the watch update of that version is small."""
    stub = service.stub
    gid, tokens, version, seat, play = await _kings_life_until_a_card_play(stub)
    move = game_pb2.Move()
    move.CopyFrom(play)
    move.kings_life.play.CopyFrom(with_padding(play.kings_life.play, 1 << 20))
    assert move.ByteSize() > 1 << 20
    result = await stub.ApplyMove(_apply(gid, tokens[seat], version, move))
    assert result.version == version + 1
    assert not any(has_unknown_fields(e) for e in result.events)
    stream = stub.WatchGame(
        service_pb2.WatchGameRequest(game_id=gid, seat_token=tokens[seat], from_version=version)
    )
    first = await stream.read()
    stream.cancel()
    assert isinstance(first, service_pb2.WatchGameResponse)
    assert first.update.version == version + 1
    assert first.ByteSize() < 64 * 1024, first.ByteSize()
    assert any(e.kings_life.WhichOneof("kind") for e in first.update.events)
    assert not any(has_unknown_fields(e) for e in first.update.events)
    history = await stub.GetHistory(
        service_pb2.GetHistoryRequest(game_id=gid, from_version=version, page_size=1)
    )
    assert history.ByteSize() < 64 * 1024


async def test_a_move_over_the_size_limit_is_refused_and_changes_nothing(
    service: Service,
) -> None:
    stub = service.stub
    gid, tokens, version, seat, _ = await _kings_life_until_a_card_play(stub)
    huge = game_pb2.Move(
        kings_life=kings_life_pb2.KingsLifeMove(
            exchange=kings_life_pb2.KingsLifeMove.Exchange(discard=list(range(1, 3000)))
        )
    )
    assert huge.ByteSize() > 4096
    before = (await snapshot_bytes(stub, gid, tokens[seat]), await history_bytes(stub, gid))
    with pytest.raises(grpc.aio.AioRpcError) as err:
        await stub.ApplyMove(_apply(gid, tokens[seat], version, huge))
    assert err.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert error_info(err.value).reason == "MOVE_TOO_LARGE"
    assert "4096" in (err.value.details() or "")
    after = (await snapshot_bytes(stub, gid, tokens[seat]), await history_bytes(stub, gid))
    assert before == after


async def test_padded_options_are_stored_without_their_padding(
    service: Service, store: Store
) -> None:
    options = game_pb2.GameOptions(nim=nim_pb2.NimOptions(pile=7, max_take=3))
    padded = game_pb2.GameOptions()
    padded.CopyFrom(options)
    padded.nim.CopyFrom(with_padding(options.nim, 100_000))
    padded = with_padding(padded, 100_000, field_number=77)  # and at the top level
    created = await service.stub.CreateGame(
        service_pb2.CreateGameRequest(options=padded, num_seats=2)
    )
    loaded = await store.load(created.game_id)
    assert loaded.meta.options == options
    assert loaded.meta.options.ByteSize() == options.ByteSize()


async def _server_with(config: Config, store: Store) -> AsyncIterator[Service]:
    running = await create_server(config, store)
    address = f"127.0.0.1:{running.port}"
    channel = grpc.aio.insecure_channel(address)
    yield Service(running, channel, service_pb2_grpc.ThroneroomStub(channel), address)
    await channel.close()
    await running.stop(None)


@pytest.fixture
async def tight(store: Store) -> AsyncIterator[Service]:
    """A server whose move and options limits are a few bytes."""
    config = Config(
        listen="127.0.0.1:0",
        fixture_games=True,
        access_log=False,
        max_move_bytes=5,
        max_options_bytes=6,
    )
    async for service in _server_with(config, store):
        yield service


async def test_the_limits_come_from_the_configuration(tight: Service) -> None:
    stub = tight.stub
    options = game_pb2.GameOptions(nim=nim_pb2.NimOptions(pile=200, max_take=3))
    assert options.ByteSize() > 6
    with pytest.raises(grpc.aio.AioRpcError) as err:
        await stub.CreateGame(service_pb2.CreateGameRequest(options=options, num_seats=2))
    assert (err.value.code(), error_info(err.value).reason) == (
        grpc.StatusCode.INVALID_ARGUMENT,
        "OPTIONS_TOO_LARGE",
    )
    gid, players = await new_nim(stub, pile=10)  # 6 bytes of options: accepted
    small, large = nim_move(1), game_pb2.Move(nim=nim_pb2.NimMove(take=1 << 20))
    assert small.ByteSize() <= 5 < large.ByteSize()
    with pytest.raises(grpc.aio.AioRpcError) as err:
        await stub.ApplyMove(_apply(gid, players[0].token, 0, large))
    assert error_info(err.value).reason == "MOVE_TOO_LARGE"
    applied = await stub.ApplyMove(_apply(gid, players[0].token, 0, small))
    assert applied.version == 1


async def test_display_names_have_at_most_64_characters(service: Service) -> None:
    stub = service.stub
    created = await stub.CreateGame(
        service_pb2.CreateGameRequest(
            options=game_pb2.GameOptions(nim=nim_pb2.NimOptions(pile=5, max_take=3)), num_seats=2
        )
    )
    with pytest.raises(grpc.aio.AioRpcError) as err:
        await stub.JoinGame(
            service_pb2.JoinGameRequest(game_id=created.game_id, display_name="é" * 65)
        )
    assert error_info(err.value).reason == "DISPLAY_NAME_TOO_LONG"
    snap = (await stub.GetGame(service_pb2.GetGameRequest(game_id=created.game_id))).snapshot
    assert not any(s.taken for s in snap.seats)
    joined = await stub.JoinGame(
        service_pb2.JoinGameRequest(game_id=created.game_id, display_name="é" * 64)
    )
    assert joined.seat == 0


async def test_an_embedder_calling_the_app_gets_the_same_stripping_and_limits() -> None:
    """The App strips and bounds moves itself (not only the gRPC decoder)."""
    store = MemoryStore()
    app = App(store, {"nim": serve(Nim())}, config=AppConfig(limits=Limits(max_move_bytes=64)))
    gid, _ = await app.create_game(
        game_pb2.GameOptions(nim=nim_pb2.NimOptions(pile=9, max_take=3)), 2, 1
    )
    _, token = await app.join_game(gid, None, "a")
    await app.join_game(gid, None, "b")
    move = game_pb2.Move()
    move.nim.CopyFrom(with_padding(nim_pb2.NimMove(take=1), 10_000))
    result = await app.apply_move(gid, token, 0, move, "k1")
    assert result.version == 1
    (entry,) = await store.read_entries(gid, 0, 10)
    assert entry.move == nim_move(1) and not has_unknown_fields(entry.move)


def test_the_limits_are_read_from_the_environment() -> None:
    config = load_config(
        [],
        {"THRONEROOM_MAX_MOVE_BYTES": "100", "THRONEROOM_MAX_OPTIONS_BYTES": "200"},
    )
    assert config.limits == Limits(max_move_bytes=100, max_options_bytes=200)
    assert load_config([], {}).limits == Limits()
    assert load_config(["--max-move-bytes", "7"], {}).limits.max_move_bytes == 7
