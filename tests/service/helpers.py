"""Small helpers for driving the service through its gRPC stub in tests."""

from __future__ import annotations

import asyncio
import random
from dataclasses import dataclass

import grpc
from google.rpc import error_details_pb2
from grpc_status import rpc_status
from throneroom.v1 import game_pb2, nim_pb2, service_pb2, service_pb2_grpc
from throneroom_server.games.registry import build_registry
from throneroom_server.runtime.config import Config
from throneroom_server.runtime.server import RunningServer, create_server
from throneroom_server.store.base import Store


@dataclass
class Service:
    running: RunningServer
    channel: grpc.aio.Channel
    stub: service_pb2_grpc.ThroneroomStub
    address: str


async def start_service(
    store: Store, *, heartbeat_seconds: float = 15.0, http: bool = False
) -> Service:
    """A real gRPC server on a free port over ``store`` (fixture games on);
    ``http``: with the REST face too, on another free port (``running.http_port``)."""
    config = Config(
        listen="127.0.0.1:0",
        http_listen="127.0.0.1:0" if http else None,
        fixture_games=True,
        access_log=True,
        heartbeat_seconds=heartbeat_seconds,
    )
    running = await create_server(config, store)
    address = f"127.0.0.1:{running.port}"
    channel = grpc.aio.insecure_channel(address)
    return Service(running, channel, service_pb2_grpc.ThroneroomStub(channel), address)


@dataclass
class Seated:
    seat: int
    token: str


async def new_nim(
    stub: service_pb2_grpc.ThroneroomStub, *, seats: int = 2, pile: int = 10, seed: int = 1
) -> tuple[str, list[Seated]]:
    created = await stub.CreateGame(
        service_pb2.CreateGameRequest(
            options=game_pb2.GameOptions(nim=nim_pb2.NimOptions(pile=pile, max_take=3)),
            num_seats=seats,
            seed=seed,
        )
    )
    players = []
    for n in range(seats):
        joined = await stub.JoinGame(
            service_pb2.JoinGameRequest(game_id=created.game_id, display_name=f"p{n}")
        )
        players.append(Seated(joined.seat, joined.seat_token))
    return created.game_id, players


def nim_move(take: int) -> game_pb2.Move:
    return game_pb2.Move(nim=nim_pb2.NimMove(take=take))


def error_info(error: grpc.aio.AioRpcError) -> error_details_pb2.ErrorInfo:
    """The google.rpc.ErrorInfo detail of a failed call."""
    status = rpc_status.from_call(error)  # type: ignore[arg-type]
    assert status is not None, "the error carries no rich status"
    for detail in status.details:
        info = error_details_pb2.ErrorInfo()
        if detail.Unpack(info):
            return info
    raise AssertionError("no ErrorInfo detail")


async def snapshot_bytes(stub: service_pb2_grpc.ThroneroomStub, game_id: str, token: str) -> bytes:
    response = await stub.GetGame(service_pb2.GetGameRequest(game_id=game_id, seat_token=token))
    return response.snapshot.SerializeToString(deterministic=True)


async def history_bytes(stub: service_pb2_grpc.ThroneroomStub, game_id: str) -> bytes:
    response = await stub.GetHistory(service_pb2.GetHistoryRequest(game_id=game_id))
    return response.SerializeToString(deterministic=True)


# Every real game, in the variants of its golden playthroughs (declared once,
# in the game's definition: a new game needs no line here).
GOLDEN_CASES = [
    (name, golden.variant.seats, dict(golden.variant.options))
    for name, game in build_registry().items()
    for golden in game.testing.golden
]


async def race_nim_seat(
    stub: service_pb2_grpc.ThroneroomStub,
    game_id: str,
    seat: int,
    token: str,
    *,
    rng: random.Random,
    acknowledged: list[tuple[int, int]],
) -> None:
    """Play ``seat`` of a Nim game to its end, racing any other clients of the
    game: each acknowledged move is recorded as (version, seat); lost races
    must be reported as such (ABORTED or FAILED_PRECONDITION), never as
    another error."""
    while True:
        snap = (await stub.GetGame(service_pb2.GetGameRequest(game_id=game_id))).snapshot
        if snap.finished:
            return
        if seat not in snap.to_act:
            await asyncio.sleep(0)
            continue
        take = rng.randint(1, min(3, snap.view.nim.pile))
        try:
            result = await stub.ApplyMove(
                service_pb2.ApplyMoveRequest(
                    game_id=game_id,
                    seat_token=token,
                    expected_version=snap.version,
                    move=nim_move(take),
                    idempotency_key=f"{seat}-{snap.version}-{rng.random()}",
                )
            )
        except grpc.aio.AioRpcError as err:
            assert err.code() in (grpc.StatusCode.ABORTED, grpc.StatusCode.FAILED_PRECONDITION)
            continue
        acknowledged.append((result.version, seat))
