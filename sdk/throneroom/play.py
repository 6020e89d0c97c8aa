"""A seat's play session (the Play RPC) on ``grpc.aio``: its updates and its
moves' results on one bidirectional stream, the cheapest way to play::

    async with client.play_session(game_id, token) as session:
        async for update in session:
            if update.legal_moves:
                await session.move(update.version, random.choice(update.legal_moves))

Iterating gives every version after ``from_version`` in order (the current one
first), each carrying the seat's legal moves when it must act, and ends after
the update that finishes the game. ``move`` sends one move and returns its
:class:`~throneroom.v1.service_pb2.PlayMoveResult` (the version it made; a
retry with the same idempotency key is ``replayed``); a rejected move raises
the typed error ApplyMove would have raised (``NotYourTurn``,
``StaleVersion`` ...) and the session goes on. An error of the session itself
(the token, the game, the server going away) ends it: iterating and pending
moves raise it. The session does not reconnect on its own: open a new one
from the last version seen (``last_version``) and retry unanswered moves
with the same idempotency keys (they apply once).
"""

from __future__ import annotations

import asyncio
import contextlib
from types import TracebackType
from typing import Any

import grpc

from throneroom._common import DEFAULT_HEARTBEAT_SECONDS, new_idempotency_key
from throneroom.errors import ThroneroomError, Unavailable, from_play_error, from_rpc_error
from throneroom.v1 import game_pb2, service_pb2, service_pb2_grpc

__all__ = ["AsyncPlaySession"]

_END = object()


class AsyncPlaySession:
    """One seat's Play stream (see the module's documentation)."""

    def __init__(
        self,
        stub: service_pb2_grpc.ThroneroomStub,
        game_id: str,
        token: str,
        *,
        from_version: int = 0,
        with_legal_moves: bool = True,
        include_current: bool = True,
        heartbeat_seconds: int = DEFAULT_HEARTBEAT_SECONDS,
    ) -> None:
        self.stub = stub  # a grpc.aio channel's (AsyncClient.stub)
        self.game_id = game_id
        self.token = token
        self.last_version = from_version
        """The newest version this session delivered."""
        self._open = service_pb2.WatchGameRequest(
            game_id=game_id,
            seat_token=token,
            from_version=from_version,
            with_legal_moves=with_legal_moves,
            include_current=include_current,
            heartbeat_seconds=heartbeat_seconds,
        )
        self._call: Any = None
        self._reader: asyncio.Task[None] | None = None
        self._updates: asyncio.Queue[Any] = asyncio.Queue()
        self._waiting: dict[str, asyncio.Future[service_pb2.PlayMoveResult]] = {}
        self._failure: ThroneroomError | None = None
        self._finished = False

    async def __aenter__(self) -> AsyncPlaySession:
        # grpc.aio: no request iterator; requests are written with write().
        self._call = self.stub.Play()  # type: ignore[call-arg]
        await self._call.write(service_pb2.PlayRequest(open=self._open))
        self._reader = asyncio.get_running_loop().create_task(self._read())
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()

    async def close(self) -> None:
        if self._call is not None:
            self._call.cancel()
        if self._reader is not None:
            self._reader.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._reader
        self._fail_pending(self._failure or Unavailable("the play session was closed"))

    def __aiter__(self) -> AsyncPlaySession:
        return self

    async def __anext__(self) -> service_pb2.GameUpdate:
        if self._finished:
            raise StopAsyncIteration
        item = await self._updates.get()
        if item is _END:
            self._updates.put_nowait(_END)  # every later read ends too
            if self._failure is not None:
                raise self._failure
            raise StopAsyncIteration
        update: service_pb2.GameUpdate = item
        self.last_version = update.version
        self._finished = update.snapshot.finished
        return update

    async def move(
        self,
        expected_version: int,
        move: game_pb2.Move,
        *,
        idempotency_key: str | None = None,
    ) -> service_pb2.PlayMoveResult:
        """Send one move (chosen at ``expected_version``) and wait for its
        result; raises the typed error of a rejected move."""
        key = idempotency_key or new_idempotency_key()
        if self._call is None:
            raise RuntimeError("open the session first: async with client.play_session(...)")
        if self._failure is not None:
            raise self._failure
        if key in self._waiting:
            raise ValueError(f"a move with idempotency key {key!r} is already waiting")
        future: asyncio.Future[service_pb2.PlayMoveResult] = (
            asyncio.get_running_loop().create_future()
        )
        self._waiting[key] = future
        try:
            await self._call.write(
                service_pb2.PlayRequest(
                    move=service_pb2.PlayMove(
                        expected_version=expected_version, move=move, idempotency_key=key
                    )
                )
            )
            result = await future
        finally:
            self._waiting.pop(key, None)
        if result.HasField("error"):
            raise from_play_error(result.error)
        return result

    async def _read(self) -> None:
        try:
            async for response in self._call:
                for result in response.results:
                    future = self._waiting.get(result.idempotency_key)
                    if future is not None and not future.done():
                        future.set_result(result)
                if response.HasField("update"):
                    self._updates.put_nowait(response.update)
        except grpc.RpcError as rpc_error:
            if rpc_error.code() is not grpc.StatusCode.CANCELLED:
                self._failure = from_rpc_error(rpc_error)
        finally:
            self._fail_pending(self._failure or Unavailable("the play session ended"))
            self._updates.put_nowait(_END)

    def _fail_pending(self, error: ThroneroomError) -> None:
        for future in self._waiting.values():
            if not future.done():
                future.set_exception(error)
