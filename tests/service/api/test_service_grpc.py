"""The service through a real gRPC server, on both stores, with the Nim fixture game.

Every rejected request is shown to change nothing: the snapshot and the history
are byte-identical before and after.
"""

from __future__ import annotations

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection_pb2, reflection_pb2_grpc
from throneroom.v1 import game_pb2, service_pb2

from tests.service.helpers import (
    Service,
    error_info,
    history_bytes,
    new_nim,
    nim_move,
    snapshot_bytes,
)


async def test_lists_game_types(service: Service) -> None:
    response = await service.stub.ListGameTypes(service_pb2.ListGameTypesRequest())
    names = {t.name: t for t in response.game_types}
    assert {"king_is_dead", "kings_life", "nim"} <= set(names)
    nim = names["nim"]
    assert (nim.min_seats, nim.max_seats) == (2, 4)
    assert nim.default_options.WhichOneof("game") == "nim"
    assert [o.name for o in nim.options] == ["pile", "max_take"]


async def test_play_a_game_to_the_end(service: Service) -> None:
    stub = service.stub
    game_id, players = await new_nim(stub, pile=5)
    version = 0
    while True:
        snap = (await stub.GetGame(service_pb2.GetGameRequest(game_id=game_id))).snapshot
        assert snap.version == version
        assert not snap.HasField("viewer_seat")
        if snap.finished:
            break
        (seat,) = snap.to_act
        token = players[seat].token
        moves = await stub.ListLegalMoves(
            service_pb2.ListLegalMovesRequest(game_id=game_id, seat_token=token)
        )
        assert moves.version == version and moves.seat == seat
        result = await stub.ApplyMove(
            service_pb2.ApplyMoveRequest(
                game_id=game_id,
                seat_token=token,
                expected_version=version,
                move=moves.moves[-1],
                idempotency_key=f"m{version}",
            )
        )
        version += 1
        assert result.version == version
        assert result.snapshot.viewer_seat == seat
        assert not result.replayed
    assert snap.outcome.winners == [1]  # 5 stones, take 3 then 2
    assert snap.outcome.termination == "last_stone"
    history = await stub.GetHistory(service_pb2.GetHistoryRequest(game_id=game_id))
    assert [e.version for e in history.entries] == [1, 2]
    assert not history.HasField("next_from_version")  # the last page


async def test_views_are_redacted_per_seat(service: Service) -> None:
    stub = service.stub
    game_id, players = await new_nim(stub)
    mine = (
        await stub.GetGame(service_pb2.GetGameRequest(game_id=game_id, seat_token=players[0].token))
    ).snapshot
    spectator = (await stub.GetGame(service_pb2.GetGameRequest(game_id=game_id))).snapshot
    assert mine.view.nim.HasField("my_secret")
    assert not spectator.view.nim.HasField("my_secret")
    # A private event reaches only its seat, in the reply, the history and the stream.
    result = await stub.ApplyMove(
        service_pb2.ApplyMoveRequest(
            game_id=game_id,
            seat_token=players[0].token,
            expected_version=0,
            move=nim_move(1),
            idempotency_key="a",
        )
    )
    assert [e.nim.WhichOneof("kind") for e in result.events] == ["took", "secret_peeked"]
    seat1 = await stub.GetHistory(
        service_pb2.GetHistoryRequest(game_id=game_id, seat_token=players[1].token)
    )
    assert [e.nim.WhichOneof("kind") for e in seat1.entries[0].events] == ["took"]
    spect = await stub.GetHistory(service_pb2.GetHistoryRequest(game_id=game_id))
    assert [e.nim.WhichOneof("kind") for e in spect.entries[0].events] == ["took"]


async def test_join_rules(service: Service) -> None:
    stub = service.stub
    created = await stub.CreateGame(
        service_pb2.CreateGameRequest(options=game_pb2.GameOptions(nim={}), num_seats=2)
    )
    gid = created.game_id
    first = await stub.JoinGame(service_pb2.JoinGameRequest(game_id=gid, seat=1, display_name="Jo"))
    assert first.seat == 1
    assert len(first.seat_token) > 40  # 256 random bits, base64
    with pytest.raises(grpc.aio.AioRpcError) as taken:
        await stub.JoinGame(service_pb2.JoinGameRequest(game_id=gid, seat=1))
    assert taken.value.code() == grpc.StatusCode.FAILED_PRECONDITION
    assert error_info(taken.value).reason == "SEAT_TAKEN"
    # Moves wait until every seat is taken.
    with pytest.raises(grpc.aio.AioRpcError) as early:
        await stub.ApplyMove(
            service_pb2.ApplyMoveRequest(
                game_id=gid,
                seat_token=first.seat_token,
                expected_version=0,
                move=nim_move(1),
                idempotency_key="x",
            )
        )
    assert error_info(early.value).reason == "GAME_NOT_STARTED"
    second = await stub.JoinGame(service_pb2.JoinGameRequest(game_id=gid))
    assert second.seat == 0
    with pytest.raises(grpc.aio.AioRpcError) as full:
        await stub.JoinGame(service_pb2.JoinGameRequest(game_id=gid))
    assert error_info(full.value).reason == "GAME_FULL"
    with pytest.raises(grpc.aio.AioRpcError) as bad_seat:
        await stub.JoinGame(service_pb2.JoinGameRequest(game_id=gid, seat=7))
    assert bad_seat.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    snap = (await stub.GetGame(service_pb2.GetGameRequest(game_id=gid))).snapshot
    assert [(s.seat, s.taken, s.display_name) for s in snap.seats] == [
        (0, True, ""),
        (1, True, "Jo"),
    ]
    assert snap.started


async def test_create_rejects_bad_requests(service: Service) -> None:
    stub = service.stub
    cases = [
        (service_pb2.CreateGameRequest(num_seats=2), "MALFORMED_REQUEST"),
        (
            service_pb2.CreateGameRequest(options=game_pb2.GameOptions(nim={}), num_seats=9),
            "INVALID_OPTIONS",
        ),
        (
            service_pb2.CreateGameRequest(
                options=game_pb2.GameOptions(nim={"pile": -3}), num_seats=2
            ),
            "INVALID_OPTIONS",
        ),
    ]
    for request, reason in cases:
        with pytest.raises(grpc.aio.AioRpcError) as err:
            await stub.CreateGame(request)
        assert err.value.code() == grpc.StatusCode.INVALID_ARGUMENT
        assert error_info(err.value).reason == reason
        assert error_info(err.value).domain == "throneroom"


def _apply(
    game_id: str, token: str, version: int, move: game_pb2.Move, key: str = "k"
) -> service_pb2.ApplyMoveRequest:
    return service_pb2.ApplyMoveRequest(
        game_id=game_id, seat_token=token, expected_version=version, move=move, idempotency_key=key
    )


async def test_every_error_path_changes_nothing(service: Service) -> None:
    stub = service.stub
    game_id, players = await new_nim(stub, pile=3)
    _, other_players = await new_nim(stub, seed=2)
    # One real move so the game is at version 1 with seat 1 to act.
    await stub.ApplyMove(_apply(game_id, players[0].token, 0, nim_move(1), "first"))
    p0, p1 = players[0].token, players[1].token
    cases: list[tuple[service_pb2.ApplyMoveRequest, grpc.StatusCode, str]] = [
        (
            _apply(game_id, "", 1, nim_move(1)),
            grpc.StatusCode.UNAUTHENTICATED,
            "SEAT_TOKEN_REQUIRED",
        ),
        (
            _apply(game_id, "garbage", 1, nim_move(1)),
            grpc.StatusCode.INVALID_ARGUMENT,
            "SEAT_TOKEN_MALFORMED",
        ),
        (
            _apply(game_id, "1." + "A" * 43, 1, nim_move(1)),
            grpc.StatusCode.PERMISSION_DENIED,
            "SEAT_TOKEN_INVALID",
        ),
        (
            _apply(game_id, other_players[1].token, 1, nim_move(1)),
            grpc.StatusCode.PERMISSION_DENIED,
            "SEAT_TOKEN_INVALID",
        ),
        (_apply(game_id, p0, 1, nim_move(1)), grpc.StatusCode.FAILED_PRECONDITION, "NOT_YOUR_TURN"),
        (_apply(game_id, p1, 0, nim_move(1)), grpc.StatusCode.ABORTED, "STALE_VERSION"),
        (_apply(game_id, p1, 5, nim_move(1)), grpc.StatusCode.ABORTED, "STALE_VERSION"),
        (
            _apply(game_id, p1, 1, nim_move(3), "big"),
            grpc.StatusCode.FAILED_PRECONDITION,
            "ILLEGAL_MOVE",
        ),
        (_apply(game_id, p1, 1, nim_move(0)), grpc.StatusCode.INVALID_ARGUMENT, "INVALID_MOVE"),
        (_apply(game_id, p1, 1, game_pb2.Move()), grpc.StatusCode.INVALID_ARGUMENT, "INVALID_MOVE"),
        (
            _apply(game_id, p1, 1, game_pb2.Move(king_is_dead={})),
            grpc.StatusCode.INVALID_ARGUMENT,
            "INVALID_MOVE",
        ),
        (
            _apply(game_id, p1, 1, nim_move(1), ""),
            grpc.StatusCode.INVALID_ARGUMENT,
            "MALFORMED_REQUEST",
        ),
        (
            _apply(game_id, p1, 1, nim_move(1), "k" * 129),
            grpc.StatusCode.INVALID_ARGUMENT,
            "MALFORMED_REQUEST",
        ),
        (_apply("nosuchgame", p1, 1, nim_move(1)), grpc.StatusCode.NOT_FOUND, "GAME_NOT_FOUND"),
        (
            _apply("bad id!", p1, 1, nim_move(1)),
            grpc.StatusCode.INVALID_ARGUMENT,
            "MALFORMED_REQUEST",
        ),
    ]
    for request, code, reason in cases:
        before = (await snapshot_bytes(stub, game_id, p1), await history_bytes(stub, game_id))
        with pytest.raises(grpc.aio.AioRpcError) as err:
            await stub.ApplyMove(request)
        assert (err.value.code(), error_info(err.value).reason) == (code, reason), request
        assert err.value.details()  # a human sentence
        after = (await snapshot_bytes(stub, game_id, p1), await history_bytes(stub, game_id))
        assert before == after, f"{reason} changed the game"
    # The stale error says where the game is.
    with pytest.raises(grpc.aio.AioRpcError) as stale:
        await stub.ApplyMove(_apply(game_id, p1, 0, nim_move(1)))
    assert error_info(stale.value).metadata["current_version"] == "1"
    # The rejected "big" key was not recorded: it can be used for a legal move now.
    ok = await stub.ApplyMove(_apply(game_id, p1, 1, nim_move(2), "big"))
    assert ok.version == 2 and not ok.replayed


async def test_finished_game_rejects_moves(service: Service) -> None:
    stub = service.stub
    game_id, players = await new_nim(stub, pile=2)
    await stub.ApplyMove(_apply(game_id, players[0].token, 0, nim_move(2), "win"))
    before = await history_bytes(stub, game_id)
    with pytest.raises(grpc.aio.AioRpcError) as err:
        await stub.ApplyMove(_apply(game_id, players[1].token, 1, nim_move(1), "late"))
    assert err.value.code() == grpc.StatusCode.FAILED_PRECONDITION
    assert error_info(err.value).reason == "GAME_FINISHED"
    assert await history_bytes(stub, game_id) == before
    moves = await stub.ListLegalMoves(
        service_pb2.ListLegalMovesRequest(game_id=game_id, seat_token=players[1].token)
    )
    assert list(moves.moves) == []


async def test_reading_calls_reject_bad_tokens_and_unknown_games(service: Service) -> None:
    stub = service.stub
    game_id, _ = await new_nim(stub)
    with pytest.raises(grpc.aio.AioRpcError) as err:
        await stub.GetGame(service_pb2.GetGameRequest(game_id=game_id, seat_token="0." + "A" * 43))
    assert err.value.code() == grpc.StatusCode.PERMISSION_DENIED
    with pytest.raises(grpc.aio.AioRpcError) as err:
        await stub.ListLegalMoves(service_pb2.ListLegalMovesRequest(game_id=game_id))
    assert err.value.code() == grpc.StatusCode.UNAUTHENTICATED
    for call in (
        stub.GetGame(service_pb2.GetGameRequest(game_id="missing")),
        stub.GetHistory(service_pb2.GetHistoryRequest(game_id="missing")),
        stub.JoinGame(service_pb2.JoinGameRequest(game_id="missing")),
    ):
        with pytest.raises(grpc.aio.AioRpcError) as err:
            await call
        assert err.value.code() == grpc.StatusCode.NOT_FOUND


async def test_idempotent_retry_returns_the_first_result(service: Service) -> None:
    stub = service.stub
    game_id, players = await new_nim(stub)
    request = _apply(game_id, players[0].token, 0, nim_move(2), "retry-me")
    first = await stub.ApplyMove(request)
    second = await stub.ApplyMove(request)
    assert second.replayed and not first.replayed
    assert second.version == first.version == 1
    assert list(second.events) == list(first.events)
    assert second.snapshot == first.snapshot
    history = await stub.GetHistory(service_pb2.GetHistoryRequest(game_id=game_id))
    assert [e.version for e in history.entries] == [1]
    # Even after the game moved on, the retry still answers with the first result.
    await stub.ApplyMove(_apply(game_id, players[1].token, 1, nim_move(1), "other"))
    third = await stub.ApplyMove(request)
    assert third.replayed and third.version == 1 and third.snapshot == first.snapshot
    # The same key with a different move is refused, not applied.
    with pytest.raises(grpc.aio.AioRpcError) as err:
        await stub.ApplyMove(_apply(game_id, players[0].token, 2, nim_move(1), "retry-me"))
    assert error_info(err.value).reason == "IDEMPOTENCY_KEY_REUSED"
    snap = (await stub.GetGame(service_pb2.GetGameRequest(game_id=game_id))).snapshot
    assert snap.version == 2


async def test_health_and_reflection(service: Service) -> None:
    health = health_pb2_grpc.HealthStub(service.channel)
    for name in ("", "throneroom.v1.Throneroom"):
        reply = await health.Check(health_pb2.HealthCheckRequest(service=name))
        assert reply.status == health_pb2.HealthCheckResponse.SERVING
    refl = reflection_pb2_grpc.ServerReflectionStub(service.channel)

    async def requests():  # type: ignore[no-untyped-def]
        yield reflection_pb2.ServerReflectionRequest(list_services="")

    async for reply in refl.ServerReflectionInfo(requests()):
        names = {s.name for s in reply.list_services_response.service}
        assert "throneroom.v1.Throneroom" in names
        assert "grpc.health.v1.Health" in names
        break


async def test_ping(service: Service) -> None:
    assert await service.stub.Ping(service_pb2.PingRequest()) == service_pb2.PingResponse()
