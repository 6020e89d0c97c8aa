"""The synchronous client: :class:`Client` and its per-game :class:`GameHandle`.

::

    with Client("127.0.0.1:50051") as client:
        game_id = client.create_game("nim", seats=2, options={"pile": 7})
        me = client.join(game_id, name="ada")
        ...
        for update in me.watch():        # the current version first, then each new one
            if me.my_turn:
                me.play(me.legal_moves()[0])
"""

from __future__ import annotations

import contextlib
import math
import random
import threading
import time
from collections.abc import Callable, Generator, Iterator, Mapping
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
from throneroom.retry import (
    CallRetries,
    Clock,
    Idempotency,
    Rand,
    RetryPolicy,
    WatchRetries,
)
from throneroom.v1 import game_pb2, service_pb2, service_pb2_grpc

Request = TypeVar("Request", bound=Message)
Response = TypeVar("Response", bound=Message)

__all__ = ["Client", "GameHandle"]


class Client:
    """A connection to a Throneroom server (``grpc.insecure_channel``).

    ``address`` defaults to ``$THRONEROOM_SERVER`` or ``127.0.0.1:50051``.
    ``retry`` says how transient failures are retried (:class:`RetryPolicy`:
    by default for up to 30 s per call, and a watch reconnects for as long as
    it is iterated); ``timeout``, when given, replaces the policy's deadline
    of each attempt (``None``: no deadline). ``stub`` is the raw generated
    ``ThroneroomStub`` for anything this layer does not cover. Use it as a
    context manager, or call :meth:`close`.

    ``clock`` (monotonic seconds), ``sleep`` and ``rand`` (uniform in [0, 1),
    for the jitter) are what the retries wait and draw with; tests inject
    their own.
    """

    def __init__(
        self,
        address: Address = None,
        *,
        timeout: float | EllipsisType | None = ...,
        retry: RetryPolicy | None = None,
        channel: grpc.Channel | None = None,
        clock: Clock = time.monotonic,
        sleep: Callable[[float], None] = time.sleep,
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
            else grpc.insecure_channel(conn.target, options=conn.options)
        )
        self.stub = service_pb2_grpc.ThroneroomStub(self._channel)

    @property
    def timeout(self) -> float | None:
        """The deadline of each attempt of a unary request, in seconds."""
        return self.retry.attempt_timeout

    def __enter__(self) -> Client:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def close(self) -> None:
        """Close the channel; handles of this client stop working."""
        self._channel.close()

    def __repr__(self) -> str:
        return f"<Client {self.address}>"

    # -- plumbing ---------------------------------------------------------

    def call(
        self,
        method: Callable[..., Response],
        request: Message,
        *,
        retry: bool = False,
    ) -> Response:
        """Call one unary method of :attr:`stub`, raising typed errors.

        ``retry=True`` says the request is idempotent: UNAVAILABLE and
        DEADLINE_EXCEEDED are retried with the *same* request as the retry
        policy says. Otherwise it is sent with ``wait_for_ready`` and retried
        only when the server declined it (RESOURCE_EXHAUSTED with RetryInfo).
        """
        idempotency = Idempotency.IDEMPOTENT if retry else Idempotency.UNSAFE
        retries = self.retries(idempotency)
        while True:
            try:
                return method(
                    request,
                    timeout=retries.attempt_timeout(),
                    wait_for_ready=None if retry else True,
                )
            except grpc.RpcError as rpc_error:
                error = from_rpc_error(rpc_error)
                delay = retries.delay_after(error)
                if delay is None:
                    raise error from None
            self.sleep(delay)

    def retries(self, idempotency: Idempotency) -> CallRetries:
        """A fresh retry schedule for one call, on this client's policy and clock."""
        return CallRetries(self.retry, idempotency, clock=self.clock, rand=self.rand)

    def watch_retries(self) -> WatchRetries:
        """A fresh reconnection schedule for one watch, on this client's policy and clock."""
        return WatchRetries(self.retry, clock=self.clock, rand=self.rand)

    # -- the service ------------------------------------------------------

    def game_types(self) -> list[service_pb2.GameType]:
        """The game types this server plays (name, seats, options and defaults)."""
        response = self.call(
            self.stub.ListGameTypes, service_pb2.ListGameTypesRequest(), retry=True
        )
        return list(response.game_types)

    def create_game(
        self,
        game_type: str,
        *,
        seats: int,
        options: Message | Mapping[str, OptionValue] | None = None,
        seed: int | None = None,
    ) -> str:
        """Create a game with ``seats`` empty seats and return its id.

        ``options`` is the game's options message (e.g. ``NimOptions(pile=7)``),
        a mapping of its fields (``{"pile": 7}``) or ``None`` for the defaults.
        ``seed`` fixes the game's random generator (random when ``None``).
        """
        request = service_pb2.CreateGameRequest(
            options=wrap_options(game_type, options), num_seats=seats
        )
        if seed is not None:
            request.seed = seed
        return self.call(self.stub.CreateGame, request).game_id

    def join(self, game_id: str, *, seat: int | None = None, name: str = "") -> GameHandle:
        """Take a seat (the next free one unless ``seat`` is given).

        The returned handle holds the seat's secret token (``handle.token``),
        which the server shows only this once: keep it to :meth:`attach` later.
        If reading the first snapshot fails after the seat was taken, the
        error raised carries the handle in ``error.handle``.
        """
        request = service_pb2.JoinGameRequest(game_id=game_id, display_name=name)
        if seat is not None:
            request.seat = seat
        response = self.call(self.stub.JoinGame, request)
        handle = GameHandle(self, game_id, seat=response.seat, token=response.seat_token)
        try:
            handle.refresh()
        except ThroneroomError as error:
            error.handle = handle
            raise
        return handle

    def attach(self, game_id: str, token: str) -> GameHandle:
        """A handle for a seat already taken, from its token."""
        handle = GameHandle(self, game_id, seat=None, token=token)
        handle.refresh()
        return handle

    def spectate(self, game_id: str) -> GameHandle:
        """A spectator's handle: it sees only public information and cannot play."""
        handle = GameHandle(self, game_id, seat=None, token=None)
        handle.refresh()
        return handle

    def get_game(self, game_id: str, token: str | None = None) -> service_pb2.GameSnapshot:
        """The game as a seat (with its token) or a spectator sees it now."""
        request = service_pb2.GetGameRequest(game_id=game_id, seat_token=token or "")
        return self.call(self.stub.GetGame, request, retry=True).snapshot

    def history(
        self,
        game_id: str,
        token: str | None = None,
        *,
        from_version: int = 0,
        page_size: int = 0,
    ) -> list[service_pb2.HistoryEntry]:
        """Every version after ``from_version`` with the events the viewer may see.

        Reads all pages (``page_size`` entries per request; 0 = server default).
        """
        entries: list[service_pb2.HistoryEntry] = []
        cursor = from_version
        while True:
            request = service_pb2.GetHistoryRequest(
                game_id=game_id, seat_token=token or "", from_version=cursor, page_size=page_size
            )
            response = self.call(self.stub.GetHistory, request, retry=True)
            entries.extend(response.entries)
            if response.next_from_version == 0 or response.next_from_version <= cursor:
                return entries
            cursor = response.next_from_version

    def ping(self) -> None:
        """Round trip to the server (raises :class:`Unavailable` if unreachable)."""
        self.call(self.stub.Ping, service_pb2.PingRequest(), retry=True)

    def list_games(
        self,
        game_type: str = "",
        *,
        status: str = "any",
        limit: int | None = None,
        page_size: int = 0,
    ) -> Iterator[service_pb2.GameSummary]:
        """The lobby's games, newest first: every type unless ``game_type``;
        ``status`` one of ``any``, ``open`` (a seat free), ``started``, ``finished``.

        Pages are read as the iterator is consumed (``page_size`` games per
        request, 0 = the server's 20, at most 100), at most ``limit`` games.
        """
        first = list_games_request(game_type, status, page_size, "")
        return self._list_games(first, limit)

    def _list_games(
        self, request: service_pb2.ListGamesRequest, limit: int | None
    ) -> Iterator[service_pb2.GameSummary]:
        given = 0
        while True:
            response = self.call(self.stub.ListGames, request, retry=True)
            for summary in response.games:
                if limit is not None and given >= limit:
                    return
                given += 1
                yield summary
            if not response.next_page_token:
                return
            request.page_token = response.next_page_token

    def export_game(self, game_id: str) -> service_pb2.GameRecord:
        """A finished game's full record (:mod:`throneroom.records` saves and
        replays it); FailedPrecondition ``GAME_NOT_FINISHED`` before its end."""
        request = service_pb2.ExportGameRequest(game_id=game_id)
        return self.call(self.stub.ExportGame, request, retry=True).record


def _watch_failure(rpc_error: grpc.RpcError, watchdog: _Watchdog | None) -> ThroneroomError:
    """Why a watch stream failed: its watchdog cancelled it, or the server's status."""
    if watchdog is not None and watchdog.fired:
        return Unavailable("the watch stream went silent")
    return from_rpc_error(rpc_error)


class _Watchdog:
    """Calls ``on_silence`` once if ``kick`` is not called for ``limit`` seconds."""

    def __init__(self, limit: float, on_silence: Callable[[], Any]) -> None:
        self._limit = limit
        self._on_silence = on_silence
        self._deadline = time.monotonic() + limit
        self._stopped = threading.Event()
        self.fired = False
        self._thread = threading.Thread(target=self._run, name="throneroom-watchdog", daemon=True)
        self._thread.start()

    def kick(self) -> None:
        """Something arrived: the silence starts again from now."""
        self._deadline = time.monotonic() + self._limit

    def pause(self) -> None:
        """The consumer holds an update: its own time is not the stream's silence."""
        self._deadline = math.inf

    def stop(self) -> None:
        self._stopped.set()

    def _run(self) -> None:
        while not self._stopped.wait(min(1.0, max(0.05, self._deadline - time.monotonic()))):
            if time.monotonic() >= self._deadline:
                self.fired = True
                self._on_silence()
                return


class GameHandle(HandleState):
    """One viewer's handle on one game: a seat (with its token) or a spectator.

    The read-only properties (``snapshot``, ``view``, ``version``, ``to_act``,
    ``my_turn``, ``finished``, ``outcome`` ...) show the last snapshot seen;
    :meth:`refresh`, :meth:`play` and :meth:`watch` keep it current.
    """

    def __init__(self, client: Client, game_id: str, *, seat: int | None, token: str | None):
        self.client = client
        self._init_state(game_id, seat, token)

    def refresh(self) -> service_pb2.GameSnapshot:
        """Read the game's current snapshot from the server."""
        self._snapshot = self.client.get_game(self.game_id, self.token)
        if self._seat is None and self._snapshot.HasField("viewer_seat"):
            self._seat = self._snapshot.viewer_seat
        return self._snapshot

    def legal_move_envelopes(self) -> list[game_pb2.Move]:
        """This seat's legal moves now, as ``Move`` envelopes, in the server's order.

        If the game has moved on since the last snapshot, the handle is
        refreshed so that :meth:`play` chooses at the version these moves are for.
        """
        request = service_pb2.ListLegalMovesRequest(
            game_id=self.game_id, seat_token=self._require_token()
        )
        response = self.client.call(self.client.stub.ListLegalMoves, request, retry=True)
        if response.version != self.version:
            self.refresh()
        return list(response.moves)

    def legal_moves(self) -> list[Message]:
        """This seat's legal moves now, as the game's own move messages (e.g. ``NimMove``)."""
        return [unwrap(move) for move in self.legal_move_envelopes()]

    def play(
        self,
        move: Message,
        *,
        idempotency_key: str | None = None,
        with_legal_moves: bool = False,
    ) -> service_pb2.ApplyMoveResponse:
        """Apply one decision for this seat, chosen at the handle's version.

        ``move`` is the game's move message or a ``Move`` envelope. The request
        carries ``expected_version`` = :attr:`version` and a fresh idempotency
        key (or ``idempotency_key``); transient failures are retried with that
        same key, so the move is applied at most once. If the game moved on,
        the handle is refreshed and :class:`StaleVersion` raised: choose again.
        ``with_legal_moves``: the response's ``legal_moves`` holds this seat's
        legal moves when it must act again at the new version.
        """
        request = service_pb2.ApplyMoveRequest(
            game_id=self.game_id,
            seat_token=self._require_token(),
            expected_version=self.version,
            move=wrap_move(self.game_type, move),
            idempotency_key=idempotency_key or new_idempotency_key(),
            with_legal_moves=with_legal_moves,
        )
        try:
            response = self.client.call(self.client.stub.ApplyMove, request, retry=True)
        except StaleVersion:
            with contextlib.suppress(ThroneroomError):  # StaleVersion is raised all the same
                self.refresh()
            raise
        self._remember(response.snapshot)
        return response

    def wait_until_started(self) -> None:
        """Return once every seat is taken, reading the snapshot every second at most.

        Taking a seat makes no new version, so no watch stream can tell; a
        watch waits here first, so its first update is a game that has begun.
        """
        delay = START_POLL_SECONDS[0]
        while not self.started and not self.finished:
            self.refresh()
            if self.started or self.finished:
                return
            self.client.sleep(delay)
            delay = min(delay * 2, START_POLL_SECONDS[1])

    def _why_the_watch_ended(self, cursor: WatchCursor) -> ThroneroomError | None:
        """The server ended the stream before the game finished: it may be
        shutting down, or the game may have finished at a version already seen
        (None). Only the snapshot tells."""
        try:
            snapshot = self.client.get_game(self.game_id, self.token)
        except ThroneroomError as error:
            return error
        self._remember(snapshot)
        if snapshot.finished and snapshot.version <= cursor.last_version:
            return None
        return Unavailable("the watch stream ended before the game finished")

    def history(self, *, from_version: int = 0) -> list[service_pb2.HistoryEntry]:
        """The versions after ``from_version`` with the events this viewer may see."""
        return self.client.history(self.game_id, self.token, from_version=from_version)

    def watch(
        self,
        from_version: int | None = None,
        *,
        include_current: bool = True,
        with_legal_moves: bool = False,
        heartbeat_seconds: int = DEFAULT_HEARTBEAT_SECONDS,
    ) -> Generator[service_pb2.GameUpdate, None, None]:
        """Every version after ``from_version`` (default: the handle's), then new ones.

        ``include_current`` (the default): when ``from_version`` is the
        current version, the first update is that version itself ("this is
        where the game is"), so ``for update in handle.watch(): if
        handle.my_turn: ...`` also plays the seat that must act first. With
        ``with_legal_moves``, an update at which this seat must act (and that
        is the newest version) carries its legal moves in ``legal_moves``.

        Each version is yielded exactly once and in order, even across lost
        connections: on UNAVAILABLE, an early end of the stream, a skipped
        version or ``3 * heartbeat_seconds + 2`` seconds of silence, it
        reconnects from the last version seen, waiting a jittered backoff
        that starts again after every message; by default it never gives up
        (``RetryPolicy.watch_budget``). The handle's snapshot follows the
        updates. A game still waiting for seats is waited for first (see
        :meth:`wait_until_started`). The iterator ends after the update that finishes the
        game (at once if the game is already finished at ``from_version``).
        """
        cursor = WatchCursor(
            self.version if from_version is None else from_version,
            include_current=include_current,
            with_legal_moves=with_legal_moves,
        )
        if self.finished and cursor.last_version >= self.version and not include_current:
            return
        self.wait_until_started()
        client = self.client
        retries = client.watch_retries()
        while True:
            call: grpc.CallIterator[service_pb2.WatchGameResponse] | None = None
            watchdog: _Watchdog | None = None
            reason: ThroneroomError | None = None
            try:
                request = cursor.request(self.game_id, self.token, heartbeat_seconds)
                call = client.stub.WatchGame(request)
                if heartbeat_seconds > 0:
                    watchdog = _Watchdog(silence_limit(heartbeat_seconds), call.cancel)
                for response in call:
                    if watchdog is not None:
                        watchdog.kick()
                    retries.delivered()
                    if not response.HasField("update") or not cursor.accept(response.update):
                        continue
                    self._remember(response.update.snapshot)
                    if watchdog is not None:
                        watchdog.pause()
                    yield response.update
                    if cursor.finished:
                        return
                    retries.delivered()  # the consumer's own time is not the stream's silence
                    if watchdog is not None:
                        watchdog.kick()
            except grpc.RpcError as rpc_error:
                reason = _watch_failure(rpc_error, watchdog)
            except VersionGapError as gap:
                reason = Unavailable(str(gap))
            finally:
                if watchdog is not None:
                    watchdog.stop()
                if call is not None:
                    call.cancel()  # type: ignore[no-untyped-call, unused-ignore]
            if reason is None:
                reason = self._why_the_watch_ended(cursor)
                if reason is None:
                    return
            delay = retries.delay_after(reason)
            if delay is None:
                raise reason
            client.sleep(delay)
