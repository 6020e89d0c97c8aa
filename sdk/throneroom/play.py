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

``websocket=`` (the REST face's address) plays the same session on a
WebSocket (``GET /v1/play``, :mod:`throneroom.play_socket`; needs
``pip install 'throneroom[websocket]'``): the same updates, results and
errors, at a lower cost per move for the server.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from types import TracebackType
from typing import Any, Protocol

import grpc

from throneroom._common import DEFAULT_HEARTBEAT_SECONDS, new_idempotency_key
from throneroom.errors import ThroneroomError, Unavailable, from_play_error, from_rpc_error
from throneroom.v1 import game_pb2, service_pb2, service_pb2_grpc

__all__ = ["AsyncPlaySession"]

_END = object()


class _Stream(Protocol):
    """What a session is played on: the gRPC ``Play`` call or a WebSocket."""

    async def write(self, request: service_pb2.PlayRequest) -> None: ...

    def __aiter__(self) -> AsyncIterator[service_pb2.PlayResponse]: ...

    async def close(self) -> None: ...


class _GrpcStream:
    """The ``Play`` RPC as a ``_Stream``: its status raised as a typed error."""

    def __init__(self, call: Any) -> None:
        self._call = call

    async def write(self, request: service_pb2.PlayRequest) -> None:
        await self._call.write(request)

    async def __aiter__(self) -> AsyncIterator[service_pb2.PlayResponse]:
        try:
            async for response in self._call:
                yield response
        except grpc.RpcError as rpc_error:
            if rpc_error.code() is not grpc.StatusCode.CANCELLED:
                raise from_rpc_error(rpc_error) from None

    async def close(self) -> None:
        self._call.cancel()


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
        websocket: str | None = None,
    ) -> None:
        self.stub = stub  # a grpc.aio channel's (AsyncClient.stub)
        self.websocket = websocket
        """The REST face's address to play on a WebSocket; None: the gRPC stream."""
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
        self._call: _Stream | None = None
        self._reader: asyncio.Task[None] | None = None
        self._updates: asyncio.Queue[Any] = asyncio.Queue()
        self._waiting: dict[str, asyncio.Future[service_pb2.PlayMoveResult]] = {}
        self._failure: ThroneroomError | None = None
        self._finished = False

    async def __aenter__(self) -> AsyncPlaySession:
        if self.websocket is not None:
            try:
                from throneroom.play_socket import SocketStream  # noqa: PLC0415
            except ImportError as exc:
                raise ImportError(
                    "a play session on a WebSocket needs aiohttp: "
                    "pip install 'throneroom[websocket]'"
                ) from exc
            self._call = await SocketStream.open(self.websocket)
        else:
            # grpc.aio: no request iterator; requests are written with write().
            self._call = _GrpcStream(self.stub.Play())  # type: ignore[call-arg]
        try:
            await self._call.write(service_pb2.PlayRequest(open=self._open))
        except BaseException:
            await self._call.close()  # its connection too, on a WebSocket
            raise
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
            await self._call.close()
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
        assert self._call is not None
        try:
            async for response in self._call:
                for result in response.results:
                    future = self._waiting.get(result.idempotency_key)
                    if future is not None and not future.done():
                        future.set_result(result)
                if response.HasField("update"):
                    self._updates.put_nowait(response.update)
        except ThroneroomError as error:
            self._failure = error
        finally:
            self._fail_pending(self._failure or Unavailable("the play session ended"))
            self._updates.put_nowait(_END)

    def _fail_pending(self, error: ThroneroomError) -> None:
        for future in self._waiting.values():
            if not future.done():
                future.set_exception(error)
