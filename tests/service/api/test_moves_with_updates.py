"""Legal moves delivered with a seat's updates: one stream and one ApplyMove
per decision (watch ``with_legal_moves``/``include_current``, ApplyMove
``with_legal_moves``), on both stores and both transports."""

from __future__ import annotations

import asyncio

from throneroom.v1 import service_pb2
from throneroom_server.store.base import Store

from tests.service.helpers import Service, new_nim, nim_move
from tests.service.rest_helpers import Rest, start, stop
from tests.service.rest_helpers import new_nim as rest_nim


async def test_a_seat_plays_a_whole_game_with_one_stream_and_one_call_per_decision(
    service: Service,
) -> None:
    stub = service.stub
    game_id, players = await new_nim(stub, pile=9)
    calls = {0: 0, 1: 0}

    async def play(seat: int) -> list[int]:
        """Take the largest legal amount whenever the stream says it is our turn."""
        token = players[seat].token
        stream = stub.WatchGame(
            service_pb2.WatchGameRequest(
                game_id=game_id, seat_token=token, with_legal_moves=True, include_current=True
            )
        )
        seen = []
        async for item in stream:
            update = item.update
            seen.append(update.version)
            if update.snapshot.finished:
                break
            if seat in update.snapshot.to_act:
                assert update.legal_moves, update
                move = max(update.legal_moves, key=lambda m: m.nim.take)
                calls[seat] += 1
                reply = await stub.ApplyMove(
                    service_pb2.ApplyMoveRequest(
                        game_id=game_id,
                        seat_token=token,
                        expected_version=update.version,
                        move=move,
                        idempotency_key=f"{seat}-{update.version}",
                        with_legal_moves=True,
                    )
                )
                # Nim alternates: after our move it is never our turn again at once.
                assert list(reply.legal_moves) == []
            else:
                assert list(update.legal_moves) == []
        return seen

    seen0, seen1 = await asyncio.wait_for(asyncio.gather(play(0), play(1)), 30)
    # 9 taken 3 at a time: three moves; both streams start at version 0.
    assert seen0 == seen1 == [0, 1, 2, 3]
    assert calls == {0: 2, 1: 1}


async def test_the_current_version_comes_first_even_mid_game(service: Service) -> None:
    stub = service.stub
    game_id, players = await new_nim(stub, pile=9)
    await stub.ApplyMove(
        service_pb2.ApplyMoveRequest(
            game_id=game_id,
            seat_token=players[0].token,
            expected_version=0,
            move=nim_move(2),
            idempotency_key="a",
        )
    )
    stream = stub.WatchGame(
        service_pb2.WatchGameRequest(
            game_id=game_id,
            seat_token=players[1].token,
            from_version=1,
            with_legal_moves=True,
            include_current=True,
        )
    )
    first = (await stream.read()).update
    stream.cancel()
    assert (first.version, first.seat) == (1, 0)
    assert len(first.events) >= 1  # the events of the move that made version 1
    assert sorted(m.nim.take for m in first.legal_moves) == [1, 2, 3]
    # Without include_current, nothing until the next move (a heartbeat).
    stream = stub.WatchGame(
        service_pb2.WatchGameRequest(game_id=game_id, from_version=1, heartbeat_seconds=1)
    )
    assert (await stream.read()).WhichOneof("kind") == "heartbeat"
    stream.cancel()


async def test_a_replayed_move_carries_legal_moves_only_while_current(service: Service) -> None:
    stub = service.stub
    game_id, players = await new_nim(stub, seats=3, pile=20)
    request = service_pb2.ApplyMoveRequest(
        game_id=game_id,
        seat_token=players[0].token,
        expected_version=0,
        move=nim_move(1),
        idempotency_key="x",
        with_legal_moves=True,
    )
    first = await stub.ApplyMove(request)
    assert list(first.legal_moves) == []  # seat 1 acts next
    retry = await stub.ApplyMove(request)
    assert retry.replayed and list(retry.legal_moves) == []
    # Seat 1's move: its retry after seat 2 moved is no longer current.
    move1 = service_pb2.ApplyMoveRequest(
        game_id=game_id,
        seat_token=players[1].token,
        expected_version=1,
        move=nim_move(1),
        idempotency_key="y",
        with_legal_moves=True,
    )
    await stub.ApplyMove(move1)
    await stub.ApplyMove(
        service_pb2.ApplyMoveRequest(
            game_id=game_id,
            seat_token=players[2].token,
            expected_version=2,
            move=nim_move(1),
            idempotency_key="z",
        )
    )
    # Seat 0 is to act at version 3; its own move's retry (version 1) is old.
    again = await stub.ApplyMove(request)
    assert again.replayed and again.version == 1 and list(again.legal_moves) == []


async def test_rest_watch_takes_the_flags_in_the_query(store: Store) -> None:
    rest: Rest = await start(store)
    try:
        game = await rest_nim(rest)
        path = f"/v1/games/{game.game_id}/watch?includeCurrent=true&withLegalMoves=true"
        async with rest.session.get(
            rest.base + path, headers={"Authorization": f"Bearer {game.tokens[0]}"}
        ) as response:
            assert response.status == 200
            lines = []
            async for raw in response.content:
                lines.append(raw.decode().strip())
                if lines[-1].startswith("data: "):
                    break
        assert lines[0] == "event: update"
        assert '"legalMoves":[{"nim"' in lines[-1]
        status, body, _ = await rest.call(
            "GET", f"/v1/games/{game.game_id}/watch?includeCurrent=maybe"
        )
        assert status == 400, body
    finally:
        await stop(rest)
