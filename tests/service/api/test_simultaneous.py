"""Simultaneous decisions through the service: every seat answers at once,
each with exactly one ApplyMove, none refused; exactly-once still holds."""

from __future__ import annotations

import asyncio

import grpc
import pytest
from throneroom.v1 import game_pb2, kings_life_pb2, service_pb2, service_pb2_grpc

from tests.service.helpers import Service


async def _kings_life(stub: service_pb2_grpc.ThroneroomStub, seats: int) -> tuple[str, list[str]]:
    created = await stub.CreateGame(
        service_pb2.CreateGameRequest(
            options=game_pb2.GameOptions(kings_life=kings_life_pb2.KingsLifeOptions()),
            num_seats=seats,
            seed=11,
        )
    )
    tokens = []
    for n in range(seats):
        joined = await stub.JoinGame(
            service_pb2.JoinGameRequest(game_id=created.game_id, display_name=f"p{n}")
        )
        tokens.append(joined.seat_token)
    return created.game_id, tokens


async def _snapshot(
    stub: service_pb2_grpc.ThroneroomStub, game_id: str
) -> service_pb2.GameSnapshot:
    return (await stub.GetGame(service_pb2.GetGameRequest(game_id=game_id))).snapshot


async def _until_everyone_acts(
    stub: service_pb2_grpc.ThroneroomStub, game_id: str, tokens: list[str]
) -> service_pb2.GameSnapshot:
    """Play the first legal move of whoever acts alone until all seats act at once."""
    while True:
        snapshot = await _snapshot(stub, game_id)
        if len(snapshot.to_act) == len(tokens):
            return snapshot
        (seat,) = snapshot.to_act
        moves = await stub.ListLegalMoves(
            service_pb2.ListLegalMovesRequest(game_id=game_id, seat_token=tokens[seat])
        )
        await stub.ApplyMove(
            service_pb2.ApplyMoveRequest(
                game_id=game_id,
                seat_token=tokens[seat],
                expected_version=snapshot.version,
                move=moves.moves[0],
                idempotency_key=f"solo-{snapshot.version}",
            )
        )


@pytest.mark.parametrize("seats", [8])
async def test_eight_seats_answer_the_mulligan_at_once(service: Service, seats: int) -> None:
    stub = service.stub
    game_id, tokens = await _kings_life(stub, seats)
    snapshot = await _until_everyone_acts(stub, game_id, tokens)
    opened = snapshot.version
    assert snapshot.view.kings_life.phase == kings_life_pb2.KingsLifeState.PHASE_MULLIGAN
    # Every seat decides at the version the decision opened at ...
    requests = []
    for seat, token in enumerate(tokens):
        moves = await stub.ListLegalMoves(
            service_pb2.ListLegalMovesRequest(game_id=game_id, seat_token=token)
        )
        assert moves.version == opened
        requests.append(
            service_pb2.ApplyMoveRequest(
                game_id=game_id,
                seat_token=token,
                expected_version=opened,
                move=moves.moves[-1],
                idempotency_key=f"mulligan-{seat}",
            )
        )
    # ... and all answer at once, each with exactly one call: none is refused.
    replies = await asyncio.gather(*(stub.ApplyMove(r) for r in requests))
    versions = sorted(r.version for r in replies)
    assert versions == list(range(opened + 1, opened + seats + 1))  # gapless, once each
    assert not any(r.replayed for r in replies)
    # Retries with the same keys apply nothing again.
    retries = await asyncio.gather(*(stub.ApplyMove(r) for r in requests))
    assert [r.version for r in retries] == [r.version for r in replies]
    assert all(r.replayed for r in retries)
    after = await _snapshot(stub, game_id)
    assert after.version == opened + seats
    assert after.view.kings_life.phase != kings_life_pb2.KingsLifeState.PHASE_MULLIGAN
    history = await stub.GetHistory(
        service_pb2.GetHistoryRequest(game_id=game_id, from_version=opened)
    )
    assert sorted(e.seat for e in history.entries) == list(range(seats))


async def test_an_answer_from_before_the_decision_opened_is_still_stale(service: Service) -> None:
    stub = service.stub
    game_id, tokens = await _kings_life(stub, 4)
    snapshot = await _until_everyone_acts(stub, game_id, tokens)
    moves = await stub.ListLegalMoves(
        service_pb2.ListLegalMovesRequest(game_id=game_id, seat_token=tokens[0])
    )
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        await stub.ApplyMove(
            service_pb2.ApplyMoveRequest(
                game_id=game_id,
                seat_token=tokens[0],
                expected_version=snapshot.version - 1,  # before the mulligan opened
                move=moves.moves[0],
                idempotency_key="old",
            )
        )
    assert caught.value.code() is grpc.StatusCode.ABORTED
    with pytest.raises(grpc.aio.AioRpcError) as future:
        await stub.ApplyMove(
            service_pb2.ApplyMoveRequest(
                game_id=game_id,
                seat_token=tokens[0],
                expected_version=snapshot.version + 5,
                move=moves.moves[0],
                idempotency_key="future",
            )
        )
    assert future.value.code() is grpc.StatusCode.ABORTED
    assert (await _snapshot(stub, game_id)).version == snapshot.version
