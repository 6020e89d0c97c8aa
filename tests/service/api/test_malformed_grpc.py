"""Malformed input through the gRPC face gets a clean INVALID_ARGUMENT (never
UNKNOWN or INTERNAL) and changes nothing; well-formed but wrong tokens stay
PERMISSION_DENIED; store errors never name the store's address."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator

import grpc
import pytest
import structlog
from throneroom.v1 import service_pb2
from throneroom_server.app import updates
from throneroom_server.runtime.config import Config
from throneroom_server.runtime.server import create_server
from throneroom_server.store.redis import RedisStore

from tests.service.helpers import (
    Service,
    error_info,
    history_bytes,
    new_nim,
    nim_move,
    snapshot_bytes,
)
from throneroom_dev.processes import free_port

METHODS = service_pb2.DESCRIPTOR.services_by_name["Throneroom"].methods


def _identity(data: bytes) -> bytes:
    return data


# Bytes no request message decodes from: a truncated varint, a length past the
# end, a group end without a start, and (where field 1 is a string) text that
# is not UTF-8.
UNDECODABLE = [b"\xff\xff\xff", b"\x0a\x7f" + b"x" * 10, b"\x0c"]
NOT_UTF8 = b"\x0a\x02\xff\xfe"


@pytest.mark.parametrize("method", [m.name for m in METHODS])
async def test_undecodable_requests_are_invalid_argument(service: Service, method: str) -> None:
    streaming = method == "WatchGame"
    path = f"/throneroom.v1.Throneroom/{method}"
    request_type = next(m.input_type for m in METHODS if m.name == method)
    first = request_type.fields_by_number.get(1)
    text_first = first is not None and first.type == first.TYPE_STRING
    for data in [*UNDECODABLE, *([NOT_UTF8] if text_first else [])]:
        if streaming:
            call = service.channel.unary_stream(
                path, request_serializer=_identity, response_deserializer=_identity
            )
            with pytest.raises(grpc.aio.AioRpcError) as err:
                async for _ in call(data):
                    pass
        else:
            unary = service.channel.unary_unary(
                path, request_serializer=_identity, response_deserializer=_identity
            )
            with pytest.raises(grpc.aio.AioRpcError) as err:
                await unary(data)
        assert err.value.code() == grpc.StatusCode.INVALID_ARGUMENT, (method, data)
        assert error_info(err.value).reason == "MALFORMED_REQUEST"
        assert (
            err.value.details()
            == f"the request is not a valid throneroom.v1.{method}Request message"
        )


async def test_unknown_fields_of_a_request_are_ignored(service: Service) -> None:
    game_id, players = await new_nim(service.stub)
    request = service_pb2.GetGameRequest(game_id=game_id, seat_token=players[0].token)
    data = request.SerializeToString() + b"\xba\x3e\x03abc"  # field 1000, 3 bytes
    call = service.channel.unary_unary(
        "/throneroom.v1.Throneroom/GetGame",
        request_serializer=_identity,
        response_deserializer=service_pb2.GetGameResponse.FromString,
    )
    response = await call(data)
    assert response.snapshot.game_id == game_id and response.snapshot.viewer_seat == 0


def _malformed_tokens(good: str) -> list[str]:
    seat, _, secret = good.partition(".")
    return [
        "garbage",
        f"\u00b2.{secret}",  # a Unicode digit: str.isdigit() says yes, int() fails
        f"\u0660.{secret}",  # ARABIC-INDIC DIGIT ZERO
        f"00.{secret}",
        f"0{seat}.{secret}",
        f"{seat}.{secret[:-1]}",
        f"{seat}.{secret}A",
        f"{seat}.{secret[:-1]}=",
        f"{seat}.{secret[:-1]}\u00e9",
        f"{seat}.",
        f".{secret}",
        f"{seat}{secret}",
        f"100.{secret}",
        f"-1.{secret}",
        f" {seat}.{secret}",
    ]


async def test_malformed_seat_tokens_are_invalid_argument_and_change_nothing(
    service: Service,
) -> None:
    stub = service.stub
    game_id, players = await new_nim(stub, pile=5)
    good = players[0].token
    before = (await snapshot_bytes(stub, game_id, good), await history_bytes(stub, game_id))
    for token in _malformed_tokens(good):
        for call in (
            stub.GetGame(service_pb2.GetGameRequest(game_id=game_id, seat_token=token)),
            stub.ApplyMove(
                service_pb2.ApplyMoveRequest(
                    game_id=game_id,
                    seat_token=token,
                    expected_version=0,
                    move=nim_move(1),
                    idempotency_key=uuid.uuid4().hex,
                )
            ),
        ):
            with pytest.raises(grpc.aio.AioRpcError) as err:
                await call
            assert err.value.code() == grpc.StatusCode.INVALID_ARGUMENT, token
            assert error_info(err.value).reason == "SEAT_TOKEN_MALFORMED", token
    assert before == (await snapshot_bytes(stub, game_id, good), await history_bytes(stub, game_id))


async def test_well_formed_wrong_tokens_stay_permission_denied(service: Service) -> None:
    stub = service.stub
    game_id, players = await new_nim(stub)
    _, others = await new_nim(stub, seed=2)
    secret = players[0].token.partition(".")[2]
    for token in (
        others[0].token,
        "1." + secret,
        "0." + "A" * 43,
        "0." + "-_" * 21 + "x",
        "7." + secret,
    ):
        with pytest.raises(grpc.aio.AioRpcError) as err:
            await stub.GetGame(service_pb2.GetGameRequest(game_id=game_id, seat_token=token))
        assert err.value.code() == grpc.StatusCode.PERMISSION_DENIED, token
        assert error_info(err.value).reason == "SEAT_TOKEN_INVALID"
    # The seat's own token, with seat 0 written "0", is accepted.
    snap = await stub.GetGame(
        service_pb2.GetGameRequest(game_id=game_id, seat_token=players[0].token)
    )
    assert snap.snapshot.viewer_seat == 0


@pytest.mark.parametrize(
    "game_id", ["\u00e9t\u00e9", "ab\u00b2", "\u0661\u0662", "a" * 65, "bad id", "a-b", "a.b"]
)
async def test_game_ids_are_ascii_letters_and_digits(service: Service, game_id: str) -> None:
    with pytest.raises(grpc.aio.AioRpcError) as err:
        await service.stub.GetGame(service_pb2.GetGameRequest(game_id=game_id))
    assert err.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert error_info(err.value).reason == "MALFORMED_REQUEST"


async def test_an_unreachable_store_is_unavailable_without_its_address() -> None:
    port = free_port()  # nothing listens there
    store = RedisStore(f"redis://127.0.0.1:{port}/0")
    running = await create_server(Config(listen="127.0.0.1:0", access_log=False), store)
    channel = grpc.aio.insecure_channel(f"127.0.0.1:{running.port}")
    from throneroom.v1 import service_pb2_grpc

    stub = service_pb2_grpc.ThroneroomStub(channel)
    try:
        with structlog.testing.capture_logs() as logs, pytest.raises(grpc.aio.AioRpcError) as err:
            await stub.GetGame(service_pb2.GetGameRequest(game_id="feedface"))
    finally:
        await channel.close()
        await running.stop(None)
    assert err.value.code() == grpc.StatusCode.UNAVAILABLE
    assert err.value.details() == "the game store is unavailable; retry"
    assert error_info(err.value).reason == "STORE_UNAVAILABLE"
    assert str(port) not in str(error_info(err.value))
    # The detail (which names the address) is in the server's log instead.
    # (The clock sweeper, also failing to reach the store, may log its own line.)
    logged = [e for e in logs if e["event"] == "store_unavailable"]
    assert logged and all(str(port) in e["detail"] for e in logged)


async def test_a_bug_in_a_watch_is_a_terse_internal_and_logged_whole(
    service: Service, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def broken(*args: object, **kwargs: object) -> AsyncIterator[object]:
        raise RuntimeError("secret internals")
        yield  # an async generator, as updates.watch is

    monkeypatch.setattr(updates, "watch", broken)
    with structlog.testing.capture_logs() as logs, pytest.raises(grpc.aio.AioRpcError) as err:
        async for _ in service.stub.WatchGame(service_pb2.WatchGameRequest(game_id="abc")):
            pass
    assert (err.value.code(), err.value.details()) == (grpc.StatusCode.INTERNAL, "internal error")
    (failure,) = [e for e in logs if e["event"] == "rpc_failed"]
    assert failure["exc_info"] is True


STANDARD = [
    ("/grpc.health.v1.Health/Check", "unary"),
    ("/grpc.health.v1.Health/Watch", "unary_stream"),
    ("/grpc.reflection.v1alpha.ServerReflection/ServerReflectionInfo", "stream_stream"),
]


@pytest.mark.parametrize(("path", "shape"), STANDARD)
async def test_health_and_reflection_refuse_undecodable_requests(
    service: Service, path: str, shape: str
) -> None:
    """The standard services decode as Throneroom's methods do: INVALID_ARGUMENT
    MALFORMED_REQUEST, never the UNKNOWN of a stock deserializer."""
    for data in [*UNDECODABLE, NOT_UTF8]:
        with pytest.raises(grpc.aio.AioRpcError) as err:
            if shape == "unary":
                await service.channel.unary_unary(
                    path, request_serializer=_identity, response_deserializer=_identity
                )(data)
            elif shape == "unary_stream":
                async for _ in service.channel.unary_stream(
                    path, request_serializer=_identity, response_deserializer=_identity
                )(data):
                    pass
            else:
                call = service.channel.stream_stream(
                    path, request_serializer=_identity, response_deserializer=_identity
                )()
                await call.write(data)
                await call.done_writing()
                async for _ in call:
                    pass
        assert err.value.code() == grpc.StatusCode.INVALID_ARGUMENT, (path, data)
        assert error_info(err.value).reason == "MALFORMED_REQUEST"


async def test_health_and_reflection_still_answer_well_formed_requests(service: Service) -> None:
    from grpc_health.v1 import health_pb2, health_pb2_grpc
    from grpc_reflection.v1alpha import reflection_pb2, reflection_pb2_grpc

    health = health_pb2_grpc.HealthStub(service.channel)
    answer = await health.Check(health_pb2.HealthCheckRequest(service=""))
    assert answer.status == health_pb2.HealthCheckResponse.SERVING
    watch = health.Watch(health_pb2.HealthCheckRequest(service=""))
    assert (await watch.read()).status == health_pb2.HealthCheckResponse.SERVING
    watch.cancel()
    stub = reflection_pb2_grpc.ServerReflectionStub(service.channel)
    call = stub.ServerReflectionInfo()
    await call.write(reflection_pb2.ServerReflectionRequest(list_services=""))
    await call.done_writing()
    names = [s.name async for r in call for s in r.list_services_response.service]
    assert "throneroom.v1.Throneroom" in names and "grpc.health.v1.Health" in names
