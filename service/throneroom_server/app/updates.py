"""A seat's or spectator's stream of updates, for WatchGame and play sessions.

The game's feed on this replica (``watch.py``) brings new entries; the store
is read directly only to catch up (a resume point behind the feed). A watcher
too slow to keep up is dropped with UNAVAILABLE (``WATCH_TOO_SLOW``, metadata
``resume_from_version``).

``include_current``: when ``from_version`` is at or past the current version,
the stream starts with an update of the current version. ``with_legal_moves``:
an update that is the newest version the stream knows of carries the watching
seat's legal moves when it must act.

A play session (``play.py``) passes an ``Outbox``: the results of the seat's
own moves. A result rides on the update of the version its move made when
that update is still to be sent, else it is sent alone at once.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncGenerator, Sequence
from dataclasses import dataclass, replace

from throneroom.v1 import game_pb2, service_pb2, storage_pb2

from throneroom_server.app import records
from throneroom_server.app.access import LOCAL, Caller
from throneroom_server.app.describe import Describer
from throneroom_server.app.errors import AppError, ErrorKind, exhausted
from throneroom_server.app.gateway import Viewer, display_names, store_error
from throneroom_server.app.moves import KnownGame, request_hash, same_request
from throneroom_server.app.service import DEFAULT_PAGE, App
from throneroom_server.app.watch import Subscription, TooManyStreams, WatcherTooSlow
from throneroom_server.games.kit.service import ServiceGame
from throneroom_server.store import LoadedGame, StoreError

SETTLE_SECONDS = 1.0
"""How long an update of the session's own move waits for the commit's answer
(which is already on its way) so that the result rides on it."""

Results = list[service_pb2.PlayMoveResult]
Response = service_pb2.WatchGameResponse | bytes
"""A stream's update or heartbeat: the message, or its serialized form (an
update as ``Snapshots.framed`` builds it)."""
Sent = tuple[Response | None, Results]
"""One response of a stream (None: results alone), and the move results that
ride on it (play sessions only)."""

_LEGAL_MOVES_NUMBER = service_pb2.GameUpdate.DESCRIPTOR.fields_by_name["legal_moves"].number


def serialized(response: Response) -> bytes:
    """A stream's response as bytes (the WatchGame handler's serializer)."""
    return response if isinstance(response, bytes) else response.SerializeToString()


def parsed(response: Response) -> service_pb2.WatchGameResponse:
    """A stream's response as a message."""
    if isinstance(response, bytes):
        return service_pb2.WatchGameResponse.FromString(response)
    return response


class Outbox:
    """The results of a play session's moves not yet sent, in the order made.

    At most ``limit`` wait: the session reads its next move only when there is
    room (``wait_room``), so a client that sends moves and never reads holds
    nothing unbounded."""

    __slots__ = (
        "_failure",
        "_pending",
        "_room",
        "_settled",
        "_subscription",
        "in_flight",
        "known",
        "limit",
        "viewer",
    )

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._pending: Results = []
        self._subscription: Subscription | None = None
        self._failure: BaseException | None = None
        self._room = asyncio.Event()
        self._room.set()
        self.in_flight: game_pb2.Move | None = None
        """The move being applied now (``applying``)."""
        self.known: tuple[LoadedGame, int, game_pb2.GameState] | None = None
        """The game as loaded, and the newest version and state the stream sent."""
        self.viewer: tuple[str, Viewer] | None = None
        """The stream's token and the seat it proved when the stream opened."""
        self._settled = asyncio.Event()

    def known_at(self, version: int) -> KnownGame | None:
        """The game at ``version`` if that is the newest the stream sent (for
        ``App.play_move``, whose commit verifies it is still the current one)."""
        known, viewer = self.known, self.viewer
        if known is None or viewer is None or known[1] != version:
            return None
        loaded, _, state = known
        game = LoadedGame(loaded.game_id, loaded.meta, version, state, loaded.seats, None)
        return KnownGame(game, *viewer)

    def applying(self, move: game_pb2.Move) -> None:
        """``move`` is being applied: when the feed brings the version it made
        before the commit's answer (another connection reads the store), the
        stream waits for the answer, so the result still rides on the update."""
        self.in_flight = move
        self._settled.clear()

    async def settled(self, timeout: float) -> None:
        """Until the move being applied has its result (or ``timeout`` passed)."""
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(timeout):
                await self._settled.wait()

    def attach(self, subscription: Subscription, viewer: tuple[str, Viewer]) -> None:
        """The stream's subscription, its token and the seat it proved."""
        self._subscription = subscription
        self.viewer = viewer

    def put(self, result: service_pb2.PlayMoveResult) -> None:
        self.in_flight = None
        self._settled.set()
        self._pending.append(result)
        if len(self._pending) >= self.limit:
            self._room.clear()
        self._nudge()

    def fail(self, error: BaseException) -> None:
        """End the session with ``error`` (a malformed request, a bug)."""
        self.in_flight = None
        self._settled.set()
        self._failure = error
        self._nudge()

    async def wait_room(self) -> None:
        """Until fewer than ``limit`` results wait to be sent."""
        await self._room.wait()

    def _taken(self, kept: Results) -> None:
        self._pending = kept
        if len(kept) < self.limit:
            self._room.set()

    def _nudge(self) -> None:
        if self._subscription is not None:
            self._subscription.nudge()

    def loose(self, last: int) -> Results:
        """Results to send alone now: rejections, replays and results whose
        version's update was already sent (``last``). Raises the failure."""
        if self._failure is not None:
            raise self._failure
        if not self._pending:
            return []
        loose = [r for r in self._pending if r.version <= last]
        if loose:
            self._taken([r for r in self._pending if r.version > last])
        return loose

    def riding(self, version: int) -> Results:
        """The results that ride on the update of ``version``."""
        if not self._pending:
            return []
        riding = [r for r in self._pending if r.version == version]
        if riding:
            self._taken([r for r in self._pending if r.version != version])
        return riding


async def watch(
    app: App,
    game_id: str,
    token: str,
    from_version: int,
    heartbeat_seconds: float,
    *,
    with_legal_moves: bool = False,
    include_current: bool = False,
    describe_language: str = "",
    caller: Caller = LOCAL,
) -> AsyncGenerator[Response, None]:
    """WatchGame's use case: every version after ``from_version`` in order,
    then each new one as it is committed (through any replica), with
    heartbeats while nothing happens; ends once the game is finished and
    delivered, or on shutdown. The stream without move results (closing it
    closes the stream at once: its slot is given back). Each response is a
    message or its bytes (``serialized`` and ``parsed`` make either one)."""
    items = stream(
        app,
        game_id,
        token,
        from_version,
        heartbeat_seconds,
        with_legal_moves=with_legal_moves,
        include_current=include_current,
        describe_language=describe_language,
        caller=caller,
    )
    async with contextlib.aclosing(items):
        async for response, _ in items:
            assert response is not None
            yield response


async def stream(
    app: App,
    game_id: str,
    token: str,
    from_version: int,
    heartbeat_seconds: float,
    *,
    with_legal_moves: bool = False,
    include_current: bool = False,
    describe_language: str = "",
    caller: Caller,
    outbox: Outbox | None = None,
) -> AsyncGenerator[Sent, None]:
    """Every version after ``from_version`` in order, then each new one as it
    is committed (through any replica), with heartbeats while nothing
    happens; ends once the game is finished and delivered, or on shutdown.
    ``describe_language``: updates carry descriptions (describe.py)."""
    gateway = app.gateway
    loaded, viewer, game, words = await gateway.read_for(game_id, token, caller, describe_language)
    heartbeat = _heartbeat(app, heartbeat_seconds)
    sub = _subscribe(app, game_id, caller, loaded)
    if outbox is not None:
        outbox.attach(sub, (token, viewer))
    last = from_version
    held = (loaded.version, loaded.state)  # a version and its state, for the catch-up
    reader = _Reader(app, game, viewer, viewer.seat if with_legal_moves else None, words)
    no_results: Results = []
    try:
        current = loaded.version
        finished = records.outcome_of(game, loaded.state) is not None
        if include_current and from_version >= current:
            last = current
            first = await current_update(app, loaded, viewer, reader.seat, words)
            if outbox is not None:
                outbox.known = (loaded, current, loaded.state)
            yield first, outbox.riding(current) if outbox else no_results
        while not app.closing:
            if outbox is not None:
                loose = outbox.loose(last)
                if loose:
                    yield None, loose
                    # Look again: a result decided while that was written has
                    # nudged the subscription, and the drain below would
                    # forget the nudge (the result would wait for a heartbeat).
                    continue
            pushed = _drain(app, sub, last)
            if pushed:
                current = max(current, pushed[-1].version)
            if last >= current:
                if finished:
                    return
                await sub.wait(heartbeat, app.shutdown)
                if sub.woken or app.closing:
                    continue
                yield _heartbeat_response(max(last, current)), no_results
                continue
            entries = await _catch_up(app, sub, loaded, pushed, last, held=held, wait=heartbeat)
            if not entries:
                continue
            if len(loaded.seats) < loaded.meta.num_seats:
                # Seats were free when the watch began: show who has joined since.
                loaded, reader = await _joined(app, game_id, reader)
            for entry in entries:
                if outbox is not None and _rides(outbox, entry, viewer):
                    await outbox.settled(SETTLE_SECONDS)  # this seat's move: its result rides
                last = entry.version
                current = max(current, last)
                held = (last, entry.state)
                newest = last == current and sub.latest <= last
                response, ended = reader.update(loaded, entry, newest)
                finished = finished or ended
                if outbox is not None:
                    outbox.known = (loaded, last, entry.state)
                yield response, outbox.riding(last) if outbox else no_results
        if outbox is not None:  # shutting down: what is decided is still told
            loose = outbox.loose(last)
            if loose:
                yield None, loose
    finally:
        app.watch_hub.unsubscribe(sub)


async def _joined(app: App, game_id: str, reader: _Reader) -> tuple[LoadedGame, _Reader]:
    """The game loaded again (seats were free), and the reader naming its players."""
    loaded = await app.gateway.load(game_id)
    if reader.words is not None:
        reader = replace(reader, words=replace(reader.words, names=display_names(loaded)))
    return loaded, reader


def _heartbeat(app: App, asked_seconds: float) -> float:
    """Seconds between heartbeats: the asked ones (0: the default) within bounds."""
    seconds = asked_seconds or app.config.heartbeat_seconds
    return min(max(seconds, 0.05), app.config.max_heartbeat_seconds)


def _heartbeat_response(version: int) -> service_pb2.WatchGameResponse:
    return service_pb2.WatchGameResponse(heartbeat=service_pb2.Heartbeat(version=version))


def _subscribe(app: App, game_id: str, caller: Caller, loaded: LoadedGame) -> Subscription:
    """The caller's subscription to the game's feed on this replica, within its stream limits."""
    hub = app.watch_hub
    per_client = app.access.streams_per_client(caller, hub.limits.streams_per_client)
    try:
        return hub.subscribe(
            game_id, caller.client_id, loaded.version, per_client, state=loaded.state
        )
    except TooManyStreams as exc:
        raise exhausted("TOO_MANY_STREAMS", str(exc)) from exc


def _drain(app: App, sub: Subscription, last: int) -> list[storage_pb2.StoredEntry]:
    """The entries pushed to ``sub`` since its last drain; a watcher dropped for
    falling behind is told where to resume (after ``last``, the last version sent)."""
    try:
        return sub.drain()
    except WatcherTooSlow as exc:
        raise AppError(
            ErrorKind.UNAVAILABLE,
            "WATCH_TOO_SLOW",
            f"this watcher fell more than {app.watch_hub.limits.buffer_entries} versions "
            f"behind and was dropped; resume from version {last}",
            {"resume_from_version": str(last)},
        ) from exc
    except StoreError as exc:
        raise store_error(exc) from exc


def _rides(outbox: Outbox, entry: storage_pb2.StoredEntry, viewer: Viewer) -> bool:
    """Whether ``entry`` is the move this seat's session has in flight (its result
    rides on this update)."""
    return (
        outbox.in_flight is not None
        and entry.seat == viewer.seat
        and same_request(entry.request_sha256, request_hash(entry.seat, outbox.in_flight))
    )


async def _catch_up(
    app: App,
    sub: Subscription,
    loaded: LoadedGame,
    pushed: list[storage_pb2.StoredEntry],
    last: int,
    *,
    held: tuple[int, game_pb2.GameState],
    wait: float,
) -> list[storage_pb2.StoredEntry]:
    """The entries after ``last``: the pushed ones when they follow on, else the
    store's; none (after a short wait) while the store lags what the feed saw."""
    entries = [e for e in pushed if e.version > last]
    if entries and entries[0].version == last + 1:
        return entries
    entries = await app.gateway.guard(
        app.states.entries(loaded.game_id, last, DEFAULT_PAGE, meta=loaded.meta, held=held)
    )
    if not entries:
        await sub.wait(min(wait, 0.05), app.shutdown)
    return entries


@dataclass(frozen=True, slots=True)
class _Reader:
    """How a stream shows an entry: the game's rules, the viewer, the seat whose
    legal moves ride on the newest update (None: no legal moves) and the
    sentences (None: no descriptions)."""

    app: App
    game: ServiceGame
    viewer: Viewer
    seat: int | None
    words: Describer | None

    def update(
        self, loaded: LoadedGame, entry: storage_pb2.StoredEntry, newest: bool
    ) -> tuple[Response, bool]:
        """The viewer's update for ``entry`` (with the seat's legal moves when it
        is the ``newest``), and whether the game is finished there."""
        app, game, seat, state = self.app, self.game, self.seat, entry.state
        if self.words is None and len(loaded.seats) == loaded.meta.num_seats:
            # Serialized as it is built (snapshots.framed): nothing parsed.
            shared = app.snapshots.shared_update(game, loaded, entry)
            moves = b""
            if newest and seat is not None and seat in shared.to_act:
                moves = game.encoded_legal_moves(state, seat, _LEGAL_MOVES_NUMBER)
            framed = app.snapshots.framed(
                game, loaded, entry, self.viewer.seat, shared=shared, legal_moves=moves
            )
            return framed, shared.finished
        response = service_pb2.WatchGameResponse()
        update = response.update  # built in place: nothing copied into its parent
        app.snapshots.update(game, loaded, entry, self.viewer.seat, update)
        if newest:
            app.gateway.add_moves(update, loaded, state, seat)
        if self.words is not None:
            self.words.annotate_entry(update, entry, self.viewer.seat)
        return response, update.snapshot.finished


async def current_update(
    app: App,
    loaded: LoadedGame,
    viewer: Viewer,
    seat: int | None,
    words: Describer | None = None,
) -> service_pb2.WatchGameResponse:
    """The update of the loaded (current) version, as the stream would have
    sent it (version 0: no mover, seat -1, no events)."""
    gateway = app.gateway
    game = gateway.game_of(loaded)
    response = service_pb2.WatchGameResponse()
    update = response.update
    update.version = loaded.version
    update.seat = -1
    gateway.snapshot(
        loaded, loaded.state, loaded.version, viewer, loaded.clock, into=update.snapshot
    )
    gateway.add_moves(update, loaded, loaded.state, seat)
    entries: Sequence[storage_pb2.StoredEntry] = ()
    if loaded.version > 0:
        entries = await gateway.guard(app.store.read_entries(loaded.game_id, loaded.version - 1, 1))
        if entries and entries[0].version == loaded.version:
            update.seat = entries[0].seat
            update.timeout = entries[0].timeout
            update.events.extend(gateway.visible_events(game, entries[0].events, viewer))
    if words is not None:
        if update.seat >= 0:
            words.annotate_entry(update, entries[0], viewer.seat)
        else:
            words.annotate(update, None, -1)
    return response
