"""The SDK's play session (throneroom.play): a seat's updates and moves on one
Play stream, typed errors for rejected moves, replays for retried keys; each
test on the gRPC stream and on the WebSocket (``websocket=``)."""

from __future__ import annotations

import asyncio

import grpc
import pytest
from throneroom import (
    AsyncClient,
    AsyncPlaySession,
    GameNotFound,
    NotYourTurn,
    PermissionDenied,
    StaleVersion,
    ThroneroomError,
)
from throneroom.play_socket import play_url, session_error
from throneroom.v1 import nim_pb2
from throneroom_server.embedded import EmbeddedServer

from tests.sdk.test_aio import _game


@pytest.fixture(params=["grpc", "websocket"])
def over(request: pytest.FixtureRequest, server: EmbeddedServer) -> str | None:
    """Where sessions are played: None, the gRPC stream; else the REST face's address."""
    return None if request.param == "grpc" else server.http_address


def _take(n: int) -> nim_pb2.NimMove:
    return nim_pb2.NimMove(take=n)


async def test_two_sessions_play_a_game_to_the_end(aclient: AsyncClient, over: str | None) -> None:
    game_id, handles = await _game(aclient, pile=7, max_take=3)

    async def play(seat: int) -> list[tuple[int, int]]:
        made = []
        async with aclient.play_session(game_id, handles[seat].token, websocket=over) as session:
            async for update in session:
                if update.legal_moves:
                    best = max(update.legal_moves, key=lambda m: m.nim.take)
                    result = await session.move(update.version, best)
                    made.append((update.version, result.version))
            assert session.last_version == update.version
            assert update.snapshot.finished
        return made

    made0, made1 = await asyncio.wait_for(asyncio.gather(play(0), play(1)), 30)
    # 7 taken 3, 3, 1: seat 0 moves at 0 and 2, seat 1 at 1.
    assert made0 == [(0, 1), (2, 3)]
    assert made1 == [(1, 2)]


async def test_a_rejected_move_raises_its_typed_error_and_the_session_goes_on(
    aclient: AsyncClient, over: str | None
) -> None:
    game_id, (ada, bo) = await _game(aclient, pile=5, max_take=2)
    async with aclient.play_session(game_id, bo.token, websocket=over) as session:
        first = await anext(session)
        assert first.version == 0 and not first.legal_moves
        envelope = (await ada.legal_move_envelopes())[0]
        with pytest.raises(NotYourTurn):
            await session.move(0, envelope)
        await ada.play(_take(1))
        update = await anext(session)
        assert update.version == 1 and update.legal_moves
        with pytest.raises(StaleVersion) as caught:
            await session.move(0, update.legal_moves[0])
        assert caught.value.current_version == 1
        result = await session.move(1, update.legal_moves[0], idempotency_key="k")
        again = await session.move(1, update.legal_moves[0], idempotency_key="k")
        assert (result.version, result.replayed) == (2, False)
        assert (again.version, again.replayed) == (2, True)


async def test_a_session_with_a_wrong_token_raises_when_read(
    aclient: AsyncClient, over: str | None
) -> None:
    game_id, (ada, bo) = await _game(aclient)
    wrong = "0." + bo.token.split(".", 1)[1]  # seat 1's secret for seat 0
    session = AsyncPlaySession(aclient.stub, game_id, wrong, websocket=over)
    async with session:
        with pytest.raises(PermissionDenied):
            await anext(session)
        with pytest.raises(PermissionDenied):
            await session.move(0, (await ada.legal_move_envelopes())[0])


@pytest.mark.parametrize(
    ("address", "url"),
    [
        ("127.0.0.1:8080", "ws://127.0.0.1:8080/v1/play"),
        ("http://127.0.0.1:8080/", "ws://127.0.0.1:8080/v1/play"),
        ("https://games.example/throneroom", "wss://games.example/throneroom/v1/play"),
        ("wss://games.example/v1/play", "wss://games.example/v1/play"),
    ],
)
def test_a_websocket_address_becomes_the_sessions_url(address: str, url: str) -> None:
    assert play_url(address) == url


def test_a_websocket_address_of_another_scheme_is_refused() -> None:
    with pytest.raises(ValueError, match="not an http"):
        play_url("ftp://games.example")


def test_a_sessions_ending_error_frame_becomes_its_typed_error() -> None:
    body = (
        '{"error": {"code": "NOT_FOUND", "reason": "GAME_NOT_FOUND",'
        ' "message": "no game abc", "metadata": {"game_id": "abc"}}}'
    )
    error = session_error(body)
    assert isinstance(error, GameNotFound)
    assert (error.code, error.reason, error.metadata) == (
        grpc.StatusCode.NOT_FOUND,
        "GAME_NOT_FOUND",
        {"game_id": "abc"},
    )
    unreadable = session_error("not json")
    assert type(unreadable) is ThroneroomError
    assert "unreadable" in str(unreadable)
