"""The asyncio client: :class:`AsyncClient` and :class:`AsyncGameHandle`.

The same API as :mod:`throneroom.client` on ``grpc.aio``: every method that
talks to the server is ``async``, and :meth:`AsyncGameHandle.watch` is an
async iterator::

    async with AsyncClient() as client:
        game_id = await client.create_game("nim", seats=2)
        me = await client.join(game_id)
        async for update in me.watch():
            if me.my_turn:
                await me.play((await me.legal_moves())[0])
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import time
from collections.abc import AsyncGenerator, AsyncIterator, Awaitable, Callable, Mapping
from types import EllipsisType, TracebackType
from typing import Any, TypeVar

import grpc
from google.protobuf.message import Message

from throneroom._common import (
    DEFAULT_HEARTBEAT_SECONDS,
    START_POLL_SECONDS,
    HandleState,
    VersionGapError,
    WatchCursor,
    list_games_request,
    new_idempotency_key,
    silence_limit,
)
from throneroom.addresses import Address, connection
from throneroom.envelopes import OptionValue, unwrap, wrap_move, wrap_options
from throneroom.errors import StaleVersion, ThroneroomError, Unavailable, from_rpc_error
from throneroom.play import AsyncPlaySession
from throneroom.retry import (
    CallRetries,
    Clock,
    Idempotency,
    Rand,
    RetryPolicy,
    WatchRetries,
)
from throneroom.v1 import game_pb2, service_pb2, service_pb2_grpc

Response = TypeVar("Response", bound=Message)

__all__ = ["AsyncClient", "AsyncGameHandle"]


class AsyncClient:
    """A connection to a Throneroom server over ``grpc.aio``.

    Arguments as for :class:`throneroom.Client` (``sleep`` is a coroutine
    function here, ``asyncio.sleep`` by default). Create it inside a running
    event loop; use ``async with`` or ``await client.close()``.
    """

    def __init__(
        self,
        address: Address = None,
        *,
        timeout: float | EllipsisType | None = ...,
        retry: RetryPolicy | None = None,
        channel: grpc.aio.Channel | None = None,
        clock: Clock = time.monotonic,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
        rand: Rand = random.random,
    ) -> None:
        conn = connection(address, timeout, retry)
        self.address = conn.address
        self.retry = conn.policy
        self.clock = clock
        self.sleep = sleep
        self.rand = rand
        self._channel = (
            channel
            if channel is not None
            else grpc.aio.insecure_channel(conn.target, options=conn.options)
        )
        self.stub = service_pb2_grpc.ThroneroomStub(self._channel)

    @property
    def timeout(self) -> float | None:
        """The deadline of each attempt of a unary request, in seconds."""
        return self.retry.attempt_timeout

    async def __aenter__(self) -> AsyncClient:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()

    async def close(self) -> None:
        await self._channel.close(None)

    def __repr__(self) -> str:
        return f"<AsyncClient {self.address}>"

    async def call(
        self,
        method: Callable[..., Awaitable[Response]],
        request: Message,
        *,
        retry: bool = False,
    ) -> Response:
        """Call one unary method of :attr:`stub`, raising typed errors (see ``Client.call``)."""
        idempotency = Idempotency.IDEMPOTENT if retry else Idempotency.UNSAFE
        retries = self.retries(idempotency)
        while True:
            try:
                return await method(
                    request,
                    timeout=retries.attempt_timeout(),
                    wait_for_ready=None if retry else True,
                )
            except grpc.RpcError as rpc_error:
                error = from_rpc_error(rpc_error)
                delay = retries.delay_after(error)
                if delay is None:
                    raise error from None
            await self.sleep(delay)

    def retries(self, idempotency: Idempotency) -> CallRetries:
        """A fresh retry schedule for one call, on this client's policy and clock."""
        return CallRetries(self.retry, idempotency, clock=self.clock, rand=self.rand)

    def watch_retries(self) -> WatchRetries:
        """A fresh reconnection schedule for one watch, on this client's policy and clock."""
        return WatchRetries(self.retry, clock=self.clock, rand=self.rand)

    def play_session(
        self,
        game_id: str,
        token: str,
        *,
        from_version: int = 0,
        with_legal_moves: bool = True,
        include_current: bool = True,
        websocket: str | None = None,
    ) -> AsyncPlaySession:
        """A seat's play session (``async with``): its updates and its moves on
        one stream, the cheapest way to play (see :mod:`throneroom.play`);
        ``websocket``: the REST face's address (``host:port`` or a URL), to play
        the session on a WebSocket instead of the gRPC stream."""
        return AsyncPlaySession(
            self.stub,
            game_id,
            token,
            from_version=from_version,
            with_legal_moves=with_legal_moves,
            include_current=include_current,
            websocket=websocket,
        )

    async def game_types(self) -> list[service_pb2.GameType]:
        response = await self.call(
            self.stub.ListGameTypes, service_pb2.ListGameTypesRequest(), retry=True
        )
        return list(response.game_types)

    async def create_game(
        self,
        game_type: str,
        *,
        seats: int,
        options: Message | Mapping[str, OptionValue] | None = None,
        seed: int | None = None,
    ) -> str:
        request = service_pb2.CreateGameRequest(
            options=wrap_options(game_type, options), num_seats=seats
        )
        if seed is not None:
            request.seed = seed
        response = await self.call(self.stub.CreateGame, request)
        return response.game_id

    async def join(
        self, game_id: str, *, seat: int | None = None, name: str = ""
    ) -> AsyncGameHandle:
        request = service_pb2.JoinGameRequest(game_id=game_id, display_name=name)
        if seat is not None:
            request.seat = seat
        response = await self.call(self.stub.JoinGame, request)
        handle = AsyncGameHandle(self, game_id, seat=response.seat, token=response.seat_token)
        try:
            await handle.refresh()
        except ThroneroomError as error:
            error.handle = handle
            raise
        return handle

    async def attach(self, game_id: str, token: str) -> AsyncGameHandle:
        handle = AsyncGameHandle(self, game_id, seat=None, token=token)
        await handle.refresh()
        return handle

    async def spectate(self, game_id: str) -> AsyncGameHandle:
        handle = AsyncGameHandle(self, game_id, seat=None, token=None)
        await handle.refresh()
        return handle

    async def get_game(self, game_id: str, token: str | None = None) -> service_pb2.GameSnapshot:
        request = service_pb2.GetGameRequest(game_id=game_id, seat_token=token or "")
        response = await self.call(self.stub.GetGame, request, retry=True)
        return response.snapshot

    async def history(
        self,
        game_id: str,
        token: str | None = None,
        *,
        from_version: int = 0,
        page_size: int = 0,
    ) -> list[service_pb2.HistoryEntry]:
        entries: list[service_pb2.HistoryEntry] = []
        cursor = from_version
        while True:
            request = service_pb2.GetHistoryRequest(
                game_id=game_id, seat_token=token or "", from_version=cursor, page_size=page_size
            )
            response = await self.call(self.stub.GetHistory, request, retry=True)
            entries.extend(response.entries)
            if response.next_from_version == 0 or response.next_from_version <= cursor:
                return entries
            cursor = response.next_from_version

    async def ping(self) -> None:
        await self.call(self.stub.Ping, service_pb2.PingRequest(), retry=True)

    def list_games(
        self,
        game_type: str = "",
        *,
        status: str = "any",
        limit: int | None = None,
        page_size: int = 0,
    ) -> AsyncIterator[service_pb2.GameSummary]:
        """As :meth:`throneroom.Client.list_games`: an async iterator over the lobby
        (``async for summary in client.list_games("nim", status="open")``)."""
        first = list_games_request(game_type, status, page_size, "")
        return self._list_games(first, limit)

    async def _list_games(
        self, request: service_pb2.ListGamesRequest, limit: int | None
    ) -> AsyncIterator[service_pb2.GameSummary]:
        given = 0
        while True:
            response = await self.call(self.stub.ListGames, request, retry=True)
            for summary in response.games:
                if limit is not None and given >= limit:
                    return
                given += 1
                yield summary
            if not response.next_page_token:
                return
            request.page_token = response.next_page_token

    async def export_game(self, game_id: str) -> service_pb2.GameRecord:
        request = service_pb2.ExportGameRequest(game_id=game_id)
        return (await self.call(self.stub.ExportGame, request, retry=True)).record


class AsyncGameHandle(HandleState):
    """The asyncio twin of :class:`throneroom.GameHandle`."""

    def __init__(
        self, client: AsyncClient, game_id: str, *, seat: int | None, token: str | None
    ) -> None:
        self.client = client
        self._init_state(game_id, seat, token)

    async def refresh(self) -> service_pb2.GameSnapshot:
        self._snapshot = await self.client.get_game(self.game_id, self.token)
        if self._seat is None and self._snapshot.HasField("viewer_seat"):
            self._seat = self._snapshot.viewer_seat
        return self._snapshot

    async def legal_move_envelopes(self) -> list[game_pb2.Move]:
        request = service_pb2.ListLegalMovesRequest(
            game_id=self.game_id, seat_token=self._require_token()
        )
        response = await self.client.call(self.client.stub.ListLegalMoves, request, retry=True)
        if response.version != self.version:
            await self.refresh()
        return list(response.moves)

    async def legal_moves(self) -> list[Message]:
        return [unwrap(move) for move in await self.legal_move_envelopes()]

    async def play(
        self,
        move: Message,
        *,
        idempotency_key: str | None = None,
        with_legal_moves: bool = False,
    ) -> service_pb2.ApplyMoveResponse:
        request = service_pb2.ApplyMoveRequest(
            game_id=self.game_id,
            seat_token=self._require_token(),
            expected_version=self.version,
            move=wrap_move(self.game_type, move),
            idempotency_key=idempotency_key or new_idempotency_key(),
            with_legal_moves=with_legal_moves,
        )
        try:
            response = await self.client.call(self.client.stub.ApplyMove, request, retry=True)
        except StaleVersion:
            with contextlib.suppress(ThroneroomError):  # StaleVersion is raised all the same
                await self.refresh()
            raise
        self._remember(response.snapshot)
        return response

    async def wait_until_started(self) -> None:
        """Return once every seat is taken (see ``GameHandle.wait_until_started``)."""
        delay = START_POLL_SECONDS[0]
        while not self.started and not self.finished:
            await self.refresh()
            if self.started or self.finished:
                return
            await self.client.sleep(delay)
            delay = min(delay * 2, START_POLL_SECONDS[1])

    async def history(self, *, from_version: int = 0) -> list[service_pb2.HistoryEntry]:
        return await self.client.history(self.game_id, self.token, from_version=from_version)

    async def watch(
        self,
        from_version: int | None = None,
        *,
        include_current: bool = True,
        with_legal_moves: bool = False,
        heartbeat_seconds: int = DEFAULT_HEARTBEAT_SECONDS,
    ) -> AsyncGenerator[service_pb2.GameUpdate, None]:
        """Async iterator over the versions after ``from_version`` (see ``GameHandle.watch``),
        starting with the current one when ``include_current``."""
        cursor = WatchCursor(
            self.version if from_version is None else from_version,
            include_current=include_current,
            with_legal_moves=with_legal_moves,
        )
        if self.finished and cursor.last_version >= self.version and not include_current:
            return
        await self.wait_until_started()
        client = self.client
        retries = client.watch_retries()
        limit = silence_limit(heartbeat_seconds) if heartbeat_seconds > 0 else None
        while True:
            call: grpc.aio.UnaryStreamCall[Any, service_pb2.WatchGameResponse] | None = None
            reason: ThroneroomError | None = None
            try:
                request = cursor.request(self.game_id, self.token, heartbeat_seconds)
                call = client.stub.WatchGame(request)
                responses = aiter(call)
                while True:
                    try:
                        response = await asyncio.wait_for(anext(responses), limit)
                    except StopAsyncIteration:
                        break
                    except TimeoutError:
                        reason = Unavailable("the watch stream went silent")
                        break
                    retries.delivered()
                    if not response.HasField("update") or not cursor.accept(response.update):
                        continue
                    self._remember(response.update.snapshot)
                    yield response.update
                    if cursor.finished:
                        return
                    retries.delivered()  # the consumer's own time is not the stream's silence
            except grpc.RpcError as rpc_error:
                reason = from_rpc_error(rpc_error)
            except VersionGapError as gap:
                reason = Unavailable(str(gap))
            finally:
                if call is not None:
                    call.cancel()
            if reason is None:
                try:
                    snapshot = await client.get_game(self.game_id, self.token)
                except ThroneroomError as error:
                    reason = error
                else:
                    self._remember(snapshot)
                    if snapshot.finished and snapshot.version <= cursor.last_version:
                        return
                    reason = Unavailable("the watch stream ended before the game finished")
            delay = retries.delay_after(reason)
            if delay is None:
                raise reason
            await client.sleep(delay)
