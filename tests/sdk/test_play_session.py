"""The SDK's play session (throneroom.play): a seat's updates and moves on one
Play stream, typed errors for rejected moves, replays for retried keys."""

from __future__ import annotations

import asyncio

import pytest
from throneroom import AsyncClient, AsyncPlaySession, NotYourTurn, PermissionDenied, StaleVersion
from throneroom.v1 import nim_pb2

from tests.sdk.test_aio import _game


def _take(n: int) -> nim_pb2.NimMove:
    return nim_pb2.NimMove(take=n)


async def test_two_sessions_play_a_game_to_the_end(aclient: AsyncClient) -> None:
    game_id, handles = await _game(aclient, pile=7, max_take=3)

    async def play(seat: int) -> list[tuple[int, int]]:
        made = []
        async with aclient.play_session(game_id, handles[seat].token) as session:
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
    aclient: AsyncClient,
) -> None:
    game_id, (ada, bo) = await _game(aclient, pile=5, max_take=2)
    async with aclient.play_session(game_id, bo.token) as session:
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


async def test_a_session_with_a_wrong_token_raises_when_read(aclient: AsyncClient) -> None:
    game_id, (ada, bo) = await _game(aclient)
    wrong = "0." + bo.token.split(".", 1)[1]  # seat 1's secret for seat 0
    session = AsyncPlaySession(aclient.stub, game_id, wrong)
    async with session:
        with pytest.raises(PermissionDenied):
            await anext(session)
        with pytest.raises(PermissionDenied):
            await session.move(0, (await ada.legal_move_envelopes())[0])
