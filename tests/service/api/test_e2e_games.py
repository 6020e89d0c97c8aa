"""Every real game end to end through a real gRPC server, on both stores.

Create, join every seat, play to the end with random legal moves (through
ListLegalMoves and ApplyMove), watch the whole game from another server, and
read the history: every version exactly once, the final snapshots agree.
"""

from __future__ import annotations

import asyncio
import random

import grpc
import pytest
from throneroom.envelopes import wrap_options
from throneroom.v1 import game_pb2, service_pb2, service_pb2_grpc
from throneroom_server.store.redis import RedisStore

from tests.service.helpers import GOLDEN_CASES, Service, start_service


async def _play_to_the_end(
    stub: service_pb2_grpc.ThroneroomStub,
    game: str,
    seats: int,
    values: dict[str, object],
    seed: int,
) -> tuple[str, list[str], int]:
    created = await stub.CreateGame(
        service_pb2.CreateGameRequest(
            options=wrap_options(game, values), num_seats=seats, seed=seed
        )
    )
    game_id = created.game_id
    tokens = [
        (
            await stub.JoinGame(service_pb2.JoinGameRequest(game_id=game_id, display_name=f"p{n}"))
        ).seat_token
        for n in range(seats)
    ]
    rng = random.Random(seed)
    for version in range(20_000):
        snap = (await stub.GetGame(service_pb2.GetGameRequest(game_id=game_id))).snapshot
        assert snap.version == version
        if snap.finished:
            return game_id, tokens, version
        assert snap.to_act, "an unfinished game must have a seat to act"
        seat = rng.choice(list(snap.to_act))
        moves = await stub.ListLegalMoves(
            service_pb2.ListLegalMovesRequest(game_id=game_id, seat_token=tokens[seat])
        )
        assert moves.version == version and moves.moves
        reply = await stub.ApplyMove(
            service_pb2.ApplyMoveRequest(
                game_id=game_id,
                seat_token=tokens[seat],
                expected_version=version,
                move=rng.choice(list(moves.moves)),
                idempotency_key=f"{seed}-{version}",
            )
        )
        assert reply.version == version + 1
        assert reply.snapshot.viewer_seat == seat
    raise AssertionError("the game did not end")


@pytest.mark.parametrize(
    ("game", "seats", "values"),
    GOLDEN_CASES,
    ids=[f"{g}-{s}p" + (f"-mode={o['mode']}" if "mode" in o else "") for g, s, o in GOLDEN_CASES],
)
async def test_game_end_to_end(
    service: Service, game: str, seats: int, values: dict[str, object]
) -> None:
    stub = service.stub
    game_id, tokens, final = await _play_to_the_end(stub, game, seats, values, seed=seats * 101)
    snap = (await stub.GetGame(service_pb2.GetGameRequest(game_id=game_id))).snapshot
    assert snap.finished and snap.outcome.winners and snap.outcome.termination
    assert all(0 <= w < seats for w in snap.outcome.winners)
    # History: every version once, for a seat and for a spectator.
    for token in (tokens[0], ""):
        versions: list[int] = []
        start = 0
        while True:
            page = await stub.GetHistory(
                service_pb2.GetHistoryRequest(
                    game_id=game_id, seat_token=token, from_version=start, page_size=50
                )
            )
            versions += [e.version for e in page.entries]
            if not page.next_from_version:
                break
            start = page.next_from_version
        assert versions == list(range(1, final + 1))
    # A watcher from the start sees every version once and ends with the game.
    updates = [
        item.update
        async for item in stub.WatchGame(
            service_pb2.WatchGameRequest(game_id=game_id, seat_token=tokens[-1], from_version=0)
        )
        if item.WhichOneof("kind") == "update"
    ]
    assert [u.version for u in updates] == list(range(1, final + 1))
    mine = (
        await stub.GetGame(service_pb2.GetGameRequest(game_id=game_id, seat_token=tokens[-1]))
    ).snapshot
    assert updates[-1].snapshot == mine
    # The finished game refuses moves and changes nothing.
    with pytest.raises(grpc.aio.AioRpcError) as err:
        await stub.ApplyMove(
            service_pb2.ApplyMoveRequest(
                game_id=game_id,
                seat_token=tokens[0],
                expected_version=final,
                move=game_pb2.Move(**{game: {}}),
                idempotency_key="late",
            )
        )
    assert err.value.code() in (
        grpc.StatusCode.FAILED_PRECONDITION,
        grpc.StatusCode.INVALID_ARGUMENT,
    )
    assert (
        await stub.GetGame(service_pb2.GetGameRequest(game_id=game_id))
    ).snapshot.version == final


async def test_king_is_dead_watched_from_a_second_server_on_the_same_redis(
    clean_redis: str,
) -> None:
    """Replica A takes the moves, replica B streams them, both over one Redis."""
    replica_a = await start_service(RedisStore(clean_redis))
    replica_b = await start_service(RedisStore(clean_redis))
    try:
        created = await replica_a.stub.CreateGame(
            service_pb2.CreateGameRequest(
                options=wrap_options("king_is_dead", {}), num_seats=3, seed=9
            )
        )
        stream = replica_b.stub.WatchGame(
            service_pb2.WatchGameRequest(game_id=created.game_id, from_version=0)
        )
        seen: list[int] = []

        async def consume() -> None:
            async for item in stream:
                if item.WhichOneof("kind") == "update":
                    seen.append(item.update.version)

        task = asyncio.create_task(consume())
        # Join and play on replica A (a new game: the watcher waits for its first move).
        tokens = [
            (
                await replica_a.stub.JoinGame(service_pb2.JoinGameRequest(game_id=created.game_id))
            ).seat_token
            for _ in range(3)
        ]
        rng = random.Random(3)
        version = 0
        while True:
            snap = (
                await replica_a.stub.GetGame(service_pb2.GetGameRequest(game_id=created.game_id))
            ).snapshot
            if snap.finished:
                break
            seat = snap.to_act[0]
            moves = await replica_a.stub.ListLegalMoves(
                service_pb2.ListLegalMovesRequest(game_id=created.game_id, seat_token=tokens[seat])
            )
            await replica_a.stub.ApplyMove(
                service_pb2.ApplyMoveRequest(
                    game_id=created.game_id,
                    seat_token=tokens[seat],
                    expected_version=version,
                    move=rng.choice(list(moves.moves)),
                    idempotency_key=str(version),
                )
            )
            version += 1
        await asyncio.wait_for(task, 30)
        assert seen == list(range(1, version + 1))
    finally:
        for svc in (replica_a, replica_b):
            await svc.channel.close()
            await svc.running.stop(None)
