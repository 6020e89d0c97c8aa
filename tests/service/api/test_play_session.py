"""The Play RPC: a seat's moves in and its updates out on one bidirectional
stream, with ApplyMove's guarantees (exactly once per idempotency key,
rejections change nothing) and WatchGame's (gapless, resumable), on both stores."""

from __future__ import annotations

import asyncio
import dataclasses
from typing import Any

import grpc
import pytest
from throneroom.v1 import game_pb2, nim_pb2, service_pb2
from throneroom_server.app.errors import AppError
from throneroom_server.app.service import App, KnownGame, Viewer
from throneroom_server.games.registry import service_games
from throneroom_server.store.base import Store

from tests.service.helpers import Service, error_info, new_nim, nim_move


def opening(game_id: str, token: str, from_version: int = 0) -> service_pb2.PlayRequest:
    return service_pb2.PlayRequest(
        open=service_pb2.WatchGameRequest(
            game_id=game_id,
            seat_token=token,
            from_version=from_version,
            with_legal_moves=True,
            include_current=True,
        )
    )


def move(version: int, take: int, key: str) -> service_pb2.PlayRequest:
    return service_pb2.PlayRequest(
        move=service_pb2.PlayMove(
            expected_version=version, move=nim_move(take), idempotency_key=key
        )
    )


async def next_response(call: Any) -> service_pb2.PlayResponse:
    response: service_pb2.PlayResponse = await asyncio.wait_for(call.read(), 10)
    assert response is not grpc.aio.EOF
    return response


async def test_two_sessions_play_a_whole_game_each_result_riding_on_its_update(
    service: Service,
) -> None:
    stub = service.stub
    game_id, players = await new_nim(stub, pile=9)
    opened = [asyncio.Event(), asyncio.Event()]

    async def play(seat: int) -> list[service_pb2.PlayResponse]:
        call = stub.Play()
        await call.write(opening(game_id, players[seat].token))
        seen = []
        while True:
            response = await next_response(call)
            seen.append(response)
            opened[seat].set()
            update = response.update
            if update.snapshot.finished:
                break
            if seat in update.snapshot.to_act:
                # Both sessions open first: each is to see version 0.
                await opened[1 - seat].wait()
                best = max(update.legal_moves, key=lambda m: m.nim.take)
                await call.write(
                    service_pb2.PlayRequest(
                        move=service_pb2.PlayMove(
                            expected_version=update.version,
                            move=best,
                            idempotency_key=f"{seat}-{update.version}",
                        )
                    )
                )
        call.cancel()
        return seen

    seen0, seen1 = await asyncio.wait_for(asyncio.gather(play(0), play(1)), 30)
    # Every response is an update (the results ride on them): versions 0-3, no gap.
    assert [r.update.version for r in seen0] == [r.update.version for r in seen1] == [0, 1, 2, 3]
    # Seat 0 moved at 0 and 2, seat 1 at 1: each sees its own results on the
    # update of the version its move made, and nothing else.
    assert [[(x.idempotency_key, x.version) for x in r.results] for r in seen0] == [
        [],
        [("0-0", 1)],
        [],
        [("0-2", 3)],
    ]
    assert [[x.version for x in r.results] for r in seen1] == [[], [], [2], []]
    history = await stub.GetHistory(service_pb2.GetHistoryRequest(game_id=game_id))
    assert [(e.version, e.seat) for e in history.entries] == [(1, 0), (2, 1), (3, 0)]


async def test_a_rejected_move_is_a_result_the_session_goes_on_and_nothing_changed(
    service: Service,
) -> None:
    stub = service.stub
    game_id, players = await new_nim(stub, pile=9)
    call = stub.Play()
    await call.write(opening(game_id, players[1].token))
    assert (await next_response(call)).update.version == 0
    await call.write(move(0, 1, "early"))  # seat 1 moves on seat 0's turn
    rejected = await next_response(call)
    assert not rejected.HasField("update")
    [result] = rejected.results
    assert result.idempotency_key == "early"
    assert result.version == 0
    assert result.error.code == grpc.StatusCode.FAILED_PRECONDITION.value[0]
    assert result.error.reason == "NOT_YOUR_TURN"
    assert result.error.message
    snapshot = await stub.GetGame(service_pb2.GetGameRequest(game_id=game_id))
    assert snapshot.snapshot.version == 0
    # Seat 0 moves through ApplyMove: the session sees it, then plays on.
    await stub.ApplyMove(
        service_pb2.ApplyMoveRequest(
            game_id=game_id,
            seat_token=players[0].token,
            expected_version=0,
            move=nim_move(2),
            idempotency_key="a",
        )
    )
    update = await next_response(call)
    assert update.update.version == 1
    assert list(update.update.legal_moves)
    await call.write(move(0, 1, "stale"))  # chosen at an old version
    stale = (await next_response(call)).results[0]
    assert stale.error.reason == "STALE_VERSION"
    assert stale.error.code == grpc.StatusCode.ABORTED.value[0]
    assert stale.error.metadata["current_version"] == "1"
    await call.write(move(1, 3, "good"))
    made = await next_response(call)
    assert made.update.version == 2
    assert [(r.idempotency_key, r.version, r.replayed) for r in made.results] == [
        ("good", 2, False)
    ]
    call.cancel()


async def test_results_of_moves_sent_at_once_come_before_any_heartbeat(service: Service) -> None:
    """Moves sent in a burst: each result is sent as soon as it is decided, not
    at the next heartbeat (a result decided while the stream was writing the
    one before it once waited for the heartbeat: found by bench/fuzz.py)."""
    stub = service.stub
    game_id, players = await new_nim(stub, pile=9)
    call = stub.Play()
    request = opening(game_id, players[1].token)
    request.open.heartbeat_seconds = 30  # far beyond the test's wait for any response
    await call.write(request)
    assert (await next_response(call)).update.version == 0
    burst = 40
    for n in range(burst):  # seat 1 moves on seat 0's turn: each a rejection
        await call.write(move(0, 1, f"early-{n}"))
    keys: list[str] = []
    while len(keys) < burst:
        response = await next_response(call)
        assert response.WhichOneof("kind") is None, "a heartbeat came before every result"
        keys.extend(r.idempotency_key for r in response.results)
        assert all(r.error.reason == "NOT_YOUR_TURN" for r in response.results)
    assert keys == [f"early-{n}" for n in range(burst)]
    call.cancel()


async def test_a_retried_move_is_replayed_never_applied_twice(service: Service) -> None:
    stub = service.stub
    game_id, players = await new_nim(stub, pile=9)
    call = stub.Play()
    await call.write(opening(game_id, players[0].token))
    await next_response(call)
    await call.write(move(0, 2, "k"))
    first = await next_response(call)
    assert [(r.version, r.replayed) for r in first.results] == [(1, False)]
    await call.write(move(0, 2, "k"))  # the same key again: the first result
    again = await next_response(call)
    assert not again.HasField("update")
    assert [(r.version, r.replayed) for r in again.results] == [(1, True)]
    await call.write(move(0, 3, "k"))  # the same key for another move
    reused = (await next_response(call)).results[0]
    assert reused.error.reason == "IDEMPOTENCY_KEY_REUSED"
    history = await stub.GetHistory(service_pb2.GetHistoryRequest(game_id=game_id))
    assert [e.version for e in history.entries] == [1]
    call.cancel()


async def test_a_session_resumes_from_a_version(service: Service) -> None:
    stub = service.stub
    game_id, players = await new_nim(stub, pile=9)
    for version, (seat, take) in enumerate([(0, 1), (1, 1)]):
        await stub.ApplyMove(
            service_pb2.ApplyMoveRequest(
                game_id=game_id,
                seat_token=players[seat].token,
                expected_version=version,
                move=nim_move(take),
                idempotency_key=f"m{version}",
            )
        )
    call = stub.Play()
    await call.write(opening(game_id, players[0].token, from_version=1))
    update = (await next_response(call)).update
    assert update.version == 2
    assert update.seat == 1
    assert list(update.legal_moves)  # seat 0 acts at the newest version
    call.cancel()


@pytest.mark.parametrize(
    "first",
    [
        service_pb2.PlayRequest(move=service_pb2.PlayMove(idempotency_key="x")),
        service_pb2.PlayRequest(),
    ],
)
async def test_a_session_must_open_first(service: Service, first: service_pb2.PlayRequest) -> None:
    call = service.stub.Play()
    await call.write(first)
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        await call.read()
    assert caught.value.code() is grpc.StatusCode.INVALID_ARGUMENT
    assert error_info(caught.value).reason == "MALFORMED_REQUEST"


async def test_opening_twice_ends_the_session(service: Service) -> None:
    stub = service.stub
    game_id, players = await new_nim(stub, pile=9)
    call = stub.Play()
    await call.write(opening(game_id, players[0].token))
    await next_response(call)
    await call.write(opening(game_id, players[0].token))
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        await asyncio.wait_for(call.read(), 10)
    assert caught.value.code() is grpc.StatusCode.INVALID_ARGUMENT
    assert error_info(caught.value).reason == "MALFORMED_REQUEST"


async def test_a_wrong_token_ends_the_session_as_a_watch_would(service: Service) -> None:
    stub = service.stub
    game_id, players = await new_nim(stub, pile=9)
    wrong = "0." + players[1].token.split(".", 1)[1]  # seat 1's secret for seat 0
    call = stub.Play()
    await call.write(opening(game_id, wrong))
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        await asyncio.wait_for(call.read(), 10)
    assert caught.value.code() is grpc.StatusCode.PERMISSION_DENIED


async def test_a_spectator_session_cannot_move(service: Service) -> None:
    stub = service.stub
    game_id, _ = await new_nim(stub, pile=9)
    call = stub.Play()
    await call.write(opening(game_id, ""))
    assert (await next_response(call)).update.version == 0
    await call.write(move(0, 1, "s"))
    result = (await next_response(call)).results[0]
    assert result.error.reason == "SEAT_TOKEN_REQUIRED"
    call.cancel()


async def test_a_sessions_copy_of_the_game_is_verified_by_the_commit(store: Store) -> None:
    """The session's fast path decides on the state its stream delivered; the
    commit's compare-and-set refuses that copy once it is stale, and a key
    already used is replayed, never applied again."""
    app = App(store, service_games(include_fixtures=True))
    options = game_pb2.GameOptions(nim=nim_pb2.NimOptions(pile=9, max_take=3))
    game_id, _ = await app.create_game(options, 2, 1)
    _, token0 = await app.join_game(game_id, 0, "a")
    _, token1 = await app.join_game(game_id, 1, "b")
    at_0 = KnownGame(
        dataclasses.replace(await store.load(game_id), idempotent_version=None),
        token0,
        Viewer(0),
    )
    loads = 0
    load = store.load

    async def counted(*args: Any, **kwargs: Any) -> Any:
        nonlocal loads
        loads += 1
        return await load(*args, **kwargs)

    store.load = counted  # type: ignore[method-assign]
    done = await app.play_move(game_id, token0, 0, nim_move(2), "x", known=at_0)
    assert (done.version, done.replayed) == (1, False)
    assert loads == 0  # decided on the session's copy, verified by the commit
    # The same key with the copy at version 0 (now stale): the first result.
    again = await app.play_move(game_id, token0, 0, nim_move(2), "x", known=at_0)
    assert (again.version, again.replayed) == (1, True)
    # Another key on the stale copy: refused as ApplyMove refuses it.
    with pytest.raises(AppError) as caught:
        await app.play_move(game_id, token0, 0, nim_move(1), "y", known=at_0)
    assert caught.value.reason == "STALE_VERSION"
    assert loads == 1  # the stale copy was refused: decided again on the store's
    # A wrong turn on a current copy: the precise error of the store's copy.
    at_1 = KnownGame(
        dataclasses.replace(await store.load(game_id), idempotent_version=None),
        token0,
        Viewer(0),
    )
    with pytest.raises(AppError) as caught:
        await app.play_move(game_id, token0, 1, nim_move(1), "z", known=at_1)
    assert caught.value.reason == "NOT_YOUR_TURN"
    # A token other than the one the copy's seat was proven with is checked
    # itself: seat 1's move on seat 0's copy is seat 1's.
    done = await app.play_move(game_id, token1, 1, nim_move(3), "w", known=at_1)
    assert done.version == 2
    at_2 = KnownGame(
        dataclasses.replace(await store.load(game_id), idempotent_version=None),
        token1,
        Viewer(1),
    )
    forged = token0[:-1] + ("x" if token0[-1] != "x" else "y")
    with pytest.raises(AppError) as caught:  # seat 0's turn, but not seat 0's token
        await app.play_move(game_id, forged, 2, nim_move(1), "v", known=at_2)
    assert caught.value.reason == "SEAT_TOKEN_INVALID"
    entries = await store.read_entries(game_id, 0, 10)
    assert [(e.version, e.seat) for e in entries] == [(1, 0), (2, 1)]


def test_a_response_is_serialized_as_the_play_response_holding_it() -> None:
    from throneroom_server.api.play import serialize

    update = service_pb2.WatchGameResponse(update=service_pb2.GameUpdate(version=3, seat=1))
    results = [
        service_pb2.PlayMoveResult(idempotency_key="k" * 200, version=3),
        service_pb2.PlayMoveResult(idempotency_key="b", replayed=True, version=2),
    ]
    whole = service_pb2.PlayResponse(update=update.update, results=results)
    assert serialize((update, results)) == whole.SerializeToString()
    assert (
        serialize((None, results[1:]))
        == service_pb2.PlayResponse(results=results[1:]).SerializeToString()
    )
    assert (
        serialize((update, []))
        == service_pb2.PlayResponse(update=update.update).SerializeToString()
    )


async def test_a_session_opened_with_a_language_carries_descriptions(service: Service) -> None:
    """``describe_language`` in ``open`` works as on WatchGame: the legal moves'
    descriptions, each update's event texts, and the move described to its
    mover only; the result still rides on the mover's update."""
    stub = service.stub
    game_id, players = await new_nim(stub, pile=9)
    calls = []
    for player in players:
        call = stub.Play()
        request = opening(game_id, player.token)
        request.open.describe_language = "en"
        await call.write(request)
        calls.append(call)
    first = [(await next_response(call)).update for call in calls]
    assert len(first[0].legal_move_descriptions) == len(first[0].legal_moves) == 3
    assert first[0].legal_move_descriptions[1].notation
    assert not first[1].legal_moves and not first[1].legal_move_descriptions
    await calls[0].write(move(0, 2, "described"))
    mine, theirs = [await next_response(call) for call in calls]
    assert mine.update.version == theirs.update.version == 1
    assert [r.idempotency_key for r in mine.results] == ["described"]
    assert mine.update.move_description.notation  # the mover's own move
    assert not theirs.update.HasField("move_description")  # others read the events
    assert len(mine.update.event_texts) == len(mine.update.events) > 0
    assert len(theirs.update.event_texts) == len(theirs.update.events) > 0
    assert len(theirs.update.legal_move_descriptions) == len(theirs.update.legal_moves) > 0
    for call in calls:
        call.cancel()


async def test_a_session_opened_with_an_unknown_language_ends_malformed(service: Service) -> None:
    game_id, players = await new_nim(service.stub, pile=9)
    call = service.stub.Play()
    request = opening(game_id, players[0].token)
    request.open.describe_language = "xx"
    await call.write(request)
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        await asyncio.wait_for(call.read(), 10)
    assert caught.value.code() is grpc.StatusCode.INVALID_ARGUMENT
    assert error_info(caught.value).reason == "MALFORMED_REQUEST"
