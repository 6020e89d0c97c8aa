"""ReplayRecord: a record's versions as a viewer sees them, nothing stored.
Every game's replayed updates are the ones the live game gave (the final
snapshot as GetGame's, for a spectator and for a seat; every version's
events as GetHistory's), pages join up, a record that does not replay or a
bad request is INVALID_ARGUMENT and stores nothing, and the call answers on
gRPC and REST (the web client's "Open a record")."""

from __future__ import annotations

import random

import aiohttp
import grpc
import pytest
from google.protobuf import json_format
from throneroom.envelopes import wrap_options
from throneroom.v1 import service_pb2, service_pb2_grpc
from throneroom_server.app.errors import AppError
from throneroom_server.app.service import App
from throneroom_server.games.registry import service_games
from throneroom_server.runtime.config import Config
from throneroom_server.runtime.server import create_server
from throneroom_server.store.memory import MemoryStore

from tests.service.helpers import GOLDEN_CASES, error_info

GAMES = service_games(include_fixtures=True)


async def _finished(
    app: App, game: str, seats: int, values: dict[str, object], seed: int
) -> tuple[str, list[str]]:
    """A game played to its end with random legal moves: its id and tokens."""
    game_id, _ = await app.create_game(wrap_options(game, values), seats, seed)
    tokens = [(await app.join_game(game_id, None, f"p{n}"))[1] for n in range(seats)]
    rng = random.Random(seed)
    while not (snapshot := await app.get_game(game_id, "")).finished:
        seat = snapshot.to_act[rng.randrange(len(snapshot.to_act))]
        version, _, moves = await app.legal_moves(game_id, tokens[seat])
        await app.apply_move(game_id, tokens[seat], version, rng.choice(moves), f"k{version}")
    return game_id, tokens


async def _all_updates(
    app: App, record: service_pb2.GameRecord, *, viewer: int | None = None, page: int = 0
) -> list[service_pb2.GameUpdate]:
    updates: list[service_pb2.GameUpdate] = []
    request = service_pb2.ReplayRecordRequest(record=record, page_size=page)
    if viewer is not None:
        request.viewer_seat = viewer
    while True:
        response = await app.replay_record(request)
        assert response.last_version == len(record.moves)
        updates.extend(response.updates)
        if not response.HasField("next_from_version"):
            return updates
        assert response.next_from_version == updates[-1].version + 1
        request.from_version = response.next_from_version


async def _history(
    app: App, game_id: str, token: str, lang: str = ""
) -> list[service_pb2.HistoryEntry]:
    entries: list[service_pb2.HistoryEntry] = []
    while True:
        page = await app.history(
            game_id, token, entries[-1].version if entries else 0, 1000, describe_language=lang
        )
        entries.extend(page.entries)
        if not page.HasField("next_from_version"):
            return entries


@pytest.mark.parametrize(("game", "seats", "values"), GOLDEN_CASES)
async def test_the_replayed_updates_are_the_live_games(
    game: str, seats: int, values: dict[str, object]
) -> None:
    store = MemoryStore()
    app = App(store, GAMES)
    game_id, tokens = await _finished(app, game, seats, values, seed=17)
    record = await app.export_game(game_id)
    stored = await store.load(game_id)

    spectator = await _all_updates(app, record)
    assert [u.version for u in spectator] == list(range(len(record.moves) + 1))
    assert spectator[0].seat == -1 and not spectator[0].events
    assert spectator[-1].snapshot == await app.get_game(game_id, "")
    history = await _history(app, game_id, "")
    assert [list(u.events) for u in spectator[1:]] == [list(e.events) for e in history]
    assert [u.seat for u in spectator[1:]] == [e.seat for e in history]

    seat = seats - 1
    as_seat = await _all_updates(app, record, viewer=seat, page=7)  # pages of 7 join up
    assert [u.version for u in as_seat] == [u.version for u in spectator]
    assert as_seat[-1].snapshot == await app.get_game(game_id, tokens[seat])
    seat_history = await _history(app, game_id, tokens[seat])
    assert [list(u.events) for u in as_seat[1:]] == [list(e.events) for e in seat_history]
    assert await store.load(game_id) == stored  # nothing written


async def test_descriptions_come_in_the_language_asked() -> None:
    app = App(MemoryStore(), GAMES)
    game_id, _ = await _finished(app, "king_is_dead", 2, {}, seed=3)
    record = await app.export_game(game_id)
    request = service_pb2.ReplayRecordRequest(record=record, describe_language="es", viewer_seat=0)
    updates = (await app.replay_record(request)).updates
    history = await _history(app, game_id, "", "es")
    mine = [u for u in updates[1:] if u.seat == 0]
    assert mine and all(u.move_description.text for u in mine)
    assert all(len(u.event_texts) == len(u.events) for u in updates)
    spectator = (
        await app.replay_record(
            service_pb2.ReplayRecordRequest(record=record, describe_language="es")
        )
    ).updates
    assert [list(u.event_texts) for u in spectator[1:]] == [list(e.event_texts) for e in history]


async def test_a_record_that_does_not_replay_or_a_bad_request_is_refused() -> None:
    app = App(MemoryStore(), GAMES)
    game_id, _ = await _finished(app, "king_is_dead", 2, {}, seed=9)
    record = await app.export_game(game_id)
    tampered = service_pb2.GameRecord()
    tampered.CopyFrom(record)
    tampered.seed += 1
    unknown = service_pb2.GameRecord()
    unknown.CopyFrom(record)
    unknown.game_type = "chess"
    cases = [
        (service_pb2.ReplayRecordRequest(record=tampered), "RECORD_MISMATCH"),
        (service_pb2.ReplayRecordRequest(record=unknown), "RECORD_MISMATCH"),
        (service_pb2.ReplayRecordRequest(), "RECORD_MISMATCH"),  # no record at all
        (service_pb2.ReplayRecordRequest(record_data=b"\xff\xff not a record"), "RECORD_MISMATCH"),
        (
            service_pb2.ReplayRecordRequest(record=record, record_data=record.SerializeToString()),
            "MALFORMED_REQUEST",
        ),
        (service_pb2.ReplayRecordRequest(record=record, viewer_seat=2), "BAD_SEAT"),
        (service_pb2.ReplayRecordRequest(record=record, viewer_seat=-1), "BAD_SEAT"),
        (
            service_pb2.ReplayRecordRequest(record=record, describe_language="fr"),
            "MALFORMED_REQUEST",
        ),
    ]
    for request, reason in cases:
        with pytest.raises(AppError) as refused:
            await app.replay_record(request)
        assert refused.value.reason == reason
        assert refused.value.kind.name == "INVALID_ARGUMENT"
    as_data = service_pb2.ReplayRecordRequest(record_data=record.SerializeToString())
    assert await app.replay_record(as_data) == await app.replay_record(
        service_pb2.ReplayRecordRequest(record=record)
    )
    beyond = await app.replay_record(
        service_pb2.ReplayRecordRequest(record=record, from_version=len(record.moves) + 5)
    )
    assert not beyond.updates and not beyond.HasField("next_from_version")


async def test_replay_record_through_grpc_and_rest() -> None:
    config = Config(listen="127.0.0.1:0", http_listen="127.0.0.1:0")
    running = await create_server(config, MemoryStore())
    try:
        game_id, _ = await _finished(running.app, "kings_life", 4, {}, seed=11)
        record = await running.app.export_game(game_id)
        async with grpc.aio.insecure_channel(f"127.0.0.1:{running.port}") as channel:
            stub = service_pb2_grpc.ThroneroomStub(channel)
            request = service_pb2.ReplayRecordRequest(record=record, page_size=20)
            via_grpc = await stub.ReplayRecord(request)
            assert [u.version for u in via_grpc.updates] == list(range(20))
            tampered = service_pb2.GameRecord()
            tampered.CopyFrom(record)
            del tampered.moves[5].events[:]
            with pytest.raises(grpc.aio.AioRpcError) as refused:
                await stub.ReplayRecord(service_pb2.ReplayRecordRequest(record=tampered))
            assert refused.value.code() == grpc.StatusCode.INVALID_ARGUMENT
            assert error_info(refused.value).reason == "RECORD_MISMATCH"
            assert "version 6" in (refused.value.details() or "")
        # The web client posts the record file's JSON (ExportGame's) as it is.
        exported = json_format.MessageToDict(record)
        base = f"http://127.0.0.1:{running.http_port}/v1/records/replay"
        async with aiohttp.ClientSession() as session:
            async with session.post(base, json={"record": exported, "pageSize": 20}) as response:
                assert response.status == 200
                via_rest = json_format.Parse(
                    await response.text(), service_pb2.ReplayRecordResponse()
                )
            assert via_rest == via_grpc
            malformed = {"Content-Type": "application/json"}
            async with session.post(base, data=b"{not json", headers=malformed) as response:
                assert response.status == 400
    finally:
        await running.stop(None)
