"""Small helpers for driving the service through its gRPC stub in tests."""

from __future__ import annotations

from dataclasses import dataclass

import grpc
from google.rpc import error_details_pb2
from grpc_status import rpc_status
from throneroom.v1 import game_pb2, nim_pb2, service_pb2, service_pb2_grpc
from throneroom_server.config import Config
from throneroom_server.server import RunningServer, create_server
from throneroom_server.store.base import Store


@dataclass
class Service:
    running: RunningServer
    channel: grpc.aio.Channel
    stub: service_pb2_grpc.ThroneroomStub
    address: str


async def start_service(store: Store, *, heartbeat_seconds: float = 15.0) -> Service:
    """A real gRPC server on a free port over ``store`` (fixture games on)."""
    config = Config(
        listen="127.0.0.1:0",
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
