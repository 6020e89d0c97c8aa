"""Game records: every game's record replays byte for byte through the
engines; a tampered record says where it stops agreeing; only finished games
are exported; timeouts (both policies) replay; the same record through gRPC,
REST and the SDK's files."""

from __future__ import annotations

import random

import aiohttp
import grpc
import pytest
from google.protobuf import json_format
from throneroom import records as record_files
from throneroom.envelopes import wrap_options
from throneroom.v1 import common_pb2, game_pb2, nim_pb2, service_pb2, service_pb2_grpc
from throneroom_server.app.errors import AppError
from throneroom_server.app.records import RecordMismatch, replay
from throneroom_server.app.service import App
from throneroom_server.games.registry import service_games
from throneroom_server.runtime.config import Config
from throneroom_server.runtime.server import create_server
from throneroom_server.store.base import Store
from throneroom_server.store.memory import MemoryStore

from tests.service.helpers import GOLDEN_CASES, error_info, new_nim, nim_move

GAMES = service_games(include_fixtures=True)


async def _played(app: App, game: str, seats: int, values: dict[str, object], seed: int) -> str:
    """A game played to its end through the App with random legal moves."""
    game_id, _ = await app.create_game(wrap_options(game, values), seats, seed)
    tokens = [(await app.join_game(game_id, None, f"p{n}"))[1] for n in range(seats)]
    rng = random.Random(seed)
    while True:
        snapshot = await app.get_game(game_id, "")
        if snapshot.finished:
            return game_id
        seat = snapshot.to_act[rng.randrange(len(snapshot.to_act))]
        version, _, moves = await app.legal_moves(game_id, tokens[seat])
        move = moves[rng.randrange(len(moves))]
        await app.apply_move(game_id, tokens[seat], version, move, f"k{version}-{seat}")


@pytest.mark.parametrize(("game", "seats", "values"), GOLDEN_CASES)
async def test_every_games_record_replays_byte_for_byte(
    game: str, seats: int, values: dict[str, object], tmp_path: object
) -> None:
    app = App(MemoryStore(), GAMES)
    game_id = await _played(app, game, seats, values, seed=31)
    record = await app.export_game(game_id)
    snapshot = await app.get_game(game_id, "")
    assert record.game_type == game and record.num_seats == seats and record.seed == 31
    assert record.display_names == [f"p{n}" for n in range(seats)]
    assert [m.version for m in record.moves] == list(range(1, snapshot.version + 1))
    assert record.outcome == snapshot.outcome
    final = replay(record, GAMES)
    assert final.SerializeToString(deterministic=True)  # a real state came out
    # One file, both encodings, the same message back; it replays from disk.
    for name in ("record.json", "record.pb"):
        path = record_files.save(record, f"{tmp_path}/{name}")
        assert record_files.load(path) == record
    assert record_files.replay(record_files.load(f"{tmp_path}/record.json")) == snapshot.version


async def test_a_tampered_record_says_where_it_stops_agreeing() -> None:
    app = App(MemoryStore(), GAMES)
    game_id = await _played(app, "king_is_dead", 2, {}, seed=5)
    record = await app.export_game(game_id)

    reseeded = service_pb2.GameRecord()
    reseeded.CopyFrom(record)
    reseeded.seed += 1  # another deal: the first events or moves no longer agree
    with pytest.raises(RecordMismatch):
        replay(reseeded, GAMES)

    altered = service_pb2.GameRecord()
    altered.CopyFrom(record)
    del altered.moves[3].events[:]
    with pytest.raises(RecordMismatch) as mismatch:
        replay(altered, GAMES)
    assert mismatch.value.version == 4 and "events" in mismatch.value.detail

    cut = service_pb2.GameRecord()
    cut.CopyFrom(record)
    del cut.moves[-1]
    with pytest.raises(RecordMismatch, match="not over"):
        replay(cut, GAMES)

    wrong_end = service_pb2.GameRecord()
    wrong_end.CopyFrom(record)
    wrong_end.final_state_sha256 = bytes(32)
    with pytest.raises(RecordMismatch, match="final state"):
        replay(wrong_end, GAMES)


async def test_only_a_finished_game_has_a_record() -> None:
    app = App(MemoryStore(), GAMES)
    game_id, _ = await app.create_game(wrap_options("nim", {"pile": 5}), 2, 1)
    with pytest.raises(AppError) as refused:
        await app.export_game(game_id)
    assert refused.value.reason == "GAME_NOT_FINISHED"
    with pytest.raises(AppError) as missing:
        await app.export_game("feedfacefeedface")
    assert missing.value.reason == "GAME_NOT_FOUND"


@pytest.mark.parametrize(
    "policy", [common_pb2.TIMEOUT_POLICY_LOSE, common_pb2.TIMEOUT_POLICY_DEFAULT_MOVE]
)
async def test_timeouts_replay(policy: common_pb2.TimeoutPolicy.ValueType) -> None:
    now = [1_800_000_000.0]
    app = App(MemoryStore(clock=lambda: now[0]), GAMES, clock=lambda: now[0])
    game_id, _ = await app.create_game(
        wrap_options("nim", {"pile": 4, "max_take": 3}),
        2,
        1,
        time_control=common_pb2.TimeControl(per_decision_seconds=5, on_timeout=policy),
    )
    tokens = [(await app.join_game(game_id, None, f"p{n}"))[1] for n in range(2)]
    await app.apply_move(game_id, tokens[0], 0, nim_move(1), "a")
    while not (await app.get_game(game_id, "")).finished:
        now[0] += 6
        await app.sweep_timeouts()
    record = await app.export_game(game_id)
    assert any(m.timeout for m in record.moves)
    if policy == common_pb2.TIMEOUT_POLICY_LOSE:
        assert not record.moves[-1].HasField("move")
        assert record.outcome.termination == "timeout"
    replay(record, GAMES)


async def test_the_record_through_grpc_and_rest(store: Store) -> None:
    config = Config(listen="127.0.0.1:0", http_listen="127.0.0.1:0", fixture_games=True)
    running = await create_server(config, store)
    try:
        async with grpc.aio.insecure_channel(f"127.0.0.1:{running.port}") as channel:
            stub = service_pb2_grpc.ThroneroomStub(channel)
            game_id, players = await new_nim(stub, pile=2)
            with pytest.raises(grpc.aio.AioRpcError) as early:
                await stub.ExportGame(service_pb2.ExportGameRequest(game_id=game_id))
            assert early.value.code() == grpc.StatusCode.FAILED_PRECONDITION
            assert error_info(early.value).reason == "GAME_NOT_FINISHED"
            await stub.ApplyMove(
                service_pb2.ApplyMoveRequest(
                    game_id=game_id,
                    seat_token=players[0].token,
                    expected_version=0,
                    move=nim_move(2),
                    idempotency_key="x",
                )
            )
            via_grpc = (
                await stub.ExportGame(service_pb2.ExportGameRequest(game_id=game_id))
            ).record
        async with (
            aiohttp.ClientSession() as session,
            session.get(
                f"http://127.0.0.1:{running.http_port}/v1/games/{game_id}/record"
            ) as response,
        ):
            assert response.status == 200
            via_rest = json_format.Parse(await response.text(), service_pb2.ExportGameResponse())
        assert via_rest.record == via_grpc
        assert via_grpc.moves[0].move == game_pb2.Move(nim=nim_pb2.NimMove(take=2))
        replay(via_grpc, GAMES)
    finally:
        await running.stop(None)
