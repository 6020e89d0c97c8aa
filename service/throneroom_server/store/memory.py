"""MemoryStore: the embedded default store (one process, nothing persisted).

Records are kept serialized, as Redis keeps them (entries with a state only
at checkpoints, idempotency keys as 8-byte digests), so no mutable message is
ever shared between requests. Retention and token buckets behave
as on Redis, on an injectable monotonic clock.
"""

from __future__ import annotations

import asyncio
import bisect
import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from throneroom.v1 import game_pb2, storage_pb2

from throneroom_server.store.base import (
    CommitResult,
    Committed,
    Duplicate,
    GameAlreadyExists,
    GameFull,
    LoadedGame,
    Retention,
    SeatTaken,
    Stale,
    StoreGameNotFound,
    keeps_state,
    key_digest,
    with_state,
)
from throneroom_server.store.lobby import (
    GamePage,
    ListedGame,
    LobbyStatus,
    member,
    member_game_id,
    member_game_type,
    page_of,
    status_of,
)


@dataclass
class _Game:
    meta: bytes
    state: bytes
    version: int = 0
    seats: dict[int, bytes] = field(default_factory=dict)
    idempotency: dict[bytes, int] = field(default_factory=dict)
    """Each used idempotency key's digest (``key_digest``) -> its version."""
    entries: list[bytes] = field(default_factory=list)
    waiters: list[tuple[asyncio.Future[None], Callable[[], int] | None]] = field(
        default_factory=list
    )
    """The feeds waiting for the next commit (``wait_entries``), each with its
    ``seen``."""
    waking: bool = False
    """A commit's ``_wake_behind`` is due."""
    expires_at: float = math.inf
    clock: bytes | None = None
    member: str = ""  # in the lobby (lobby.py)
    finished: bool = False


@dataclass
class _Bucket:
    tokens: float
    at: float


SWEEP_EVERY = 1024
"""Creates between two sweeps of expired games."""


class MemoryStore:
    def __init__(
        self,
        *,
        retention: Retention | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._games: dict[str, _Game] = {}
        self._buckets: dict[str, _Bucket] = {}
        self._deadlines: dict[str, int] = {}
        self._lobby: list[str] = []  # every game's lobby member, sorted: newest first
        self._lobby_swept = ""  # where the lobby's retention sweep goes on
        self.retention = retention or Retention()
        self._clock = clock
        self._creates = 0

    def _get(self, game_id: str) -> _Game:
        game = self._games.get(game_id)
        if game is None:
            raise StoreGameNotFound(game_id)
        if game.expires_at <= self._clock():
            self._drop(game_id)
            raise StoreGameNotFound(game_id)
        return game

    def _drop(self, game_id: str) -> None:
        game = self._games.pop(game_id)
        at = bisect.bisect_left(self._lobby, game.member)
        if at < len(self._lobby) and self._lobby[at] == game.member:
            del self._lobby[at]

    def _renew(self, game: _Game, *, finished: bool) -> None:
        ttl_ms = self.retention.ttl_ms(finished=finished)
        game.expires_at = self._clock() + ttl_ms / 1000 if ttl_ms else math.inf

    def _sweep(self) -> None:
        now = self._clock()
        for game_id in [g for g, game in self._games.items() if game.expires_at <= now]:
            self._drop(game_id)
        for name in [b for b, bucket in self._buckets.items() if bucket.at < now - 3600]:
            del self._buckets[name]

    async def confirm_replicated(self) -> None:
        """One process, no replicas: nothing to wait for."""

    async def create_game(
        self, game_id: str, meta: storage_pb2.StoredGameMeta, state: game_pb2.GameState
    ) -> None:
        self._creates += 1
        if self._creates % SWEEP_EVERY == 0:
            self._sweep()
        if game_id in self._games:
            if self._games[game_id].expires_at > self._clock():
                raise GameAlreadyExists(game_id)
            self._drop(game_id)
        game = _Game(
            meta=meta.SerializeToString(),
            state=state.SerializeToString(deterministic=True),
            member=member(meta, game_id),
        )
        self._renew(game, finished=False)
        self._games[game_id] = game
        bisect.insort(self._lobby, game.member)

    async def load(self, game_id: str, *, idempotency_key: str = "") -> LoadedGame:
        game = self._get(game_id)
        return LoadedGame(
            game_id=game_id,
            meta=storage_pb2.StoredGameMeta.FromString(game.meta),
            version=game.version,
            state=game_pb2.GameState.FromString(game.state),
            seats={s: storage_pb2.StoredSeat.FromString(b) for s, b in game.seats.items()},
            idempotent_version=game.idempotency.get(key_digest(idempotency_key))
            if idempotency_key
            else None,
            clock=storage_pb2.StoredClock.FromString(game.clock)
            if game.clock is not None
            else None,
        )

    async def claim_seat(
        self,
        game_id: str,
        seat: int | None,
        num_seats: int,
        record: storage_pb2.StoredSeat,
        *,
        clock_if_full: storage_pb2.StoredClock | None = None,
    ) -> int:
        game = self._get(game_id)
        if seat is not None:
            if seat in game.seats:
                raise SeatTaken(str(seat))
            chosen = seat
        else:
            free = [s for s in range(num_seats) if s not in game.seats]
            if not free:
                raise GameFull(game_id)
            chosen = free[0]
        game.seats[chosen] = record.SerializeToString()
        if clock_if_full is not None and len(game.seats) == num_seats:
            game.clock = clock_if_full.SerializeToString()
        self._renew(game, finished=False)
        return chosen

    async def commit(
        self,
        game_id: str,
        expected_version: int,
        state: game_pb2.GameState,
        entry: storage_pb2.StoredEntry,
        idempotency_key: str,
        *,
        finished: bool = False,
        clock: storage_pb2.StoredClock | None = None,
    ) -> CommitResult:
        game = self._get(game_id)
        digest = key_digest(idempotency_key)
        # No await between the checks and the writes: atomic on the event loop.
        if digest and digest in game.idempotency:
            return Duplicate(game.idempotency[digest])
        if game.version != expected_version:
            return Stale(game.version)
        game.version += 1
        game.state = state.SerializeToString(deterministic=True)
        data = entry.SerializeToString(deterministic=True)
        game.entries.append(with_state(data, game.state) if keeps_state(entry) else data)
        if digest:
            game.idempotency[digest] = game.version
        if clock is not None:
            game.clock = clock.SerializeToString()
        game.finished = game.finished or finished
        self._renew(game, finished=finished)
        if game.waiters and not game.waking:
            # Once the committing task's step is over: by then a replica's
            # feed holds the version it committed itself (``seen``).
            game.waking = True
            asyncio.get_running_loop().call_soon(_wake_behind, game)
        return Committed(game.version)

    async def read_entries(
        self, game_id: str, after_version: int, limit: int
    ) -> Sequence[storage_pb2.StoredEntry]:
        game = self._get(game_id)
        chunk = game.entries[after_version : after_version + limit]
        return [storage_pb2.StoredEntry.FromString(b) for b in chunk]

    async def wait_entries(
        self,
        game_id: str,
        after_version: int,
        timeout: float,
        limit: int = 100,
        *,
        seen: Callable[[], int] | None = None,
    ) -> Sequence[storage_pb2.StoredEntry]:
        game = self._get(game_id)
        if game.version <= after_version:
            # One future and one timer per wait (no task, no timeout context).
            loop = asyncio.get_running_loop()
            waiter: asyncio.Future[None] = loop.create_future()
            game.waiters.append((waiter, seen))
            timer = loop.call_later(timeout, _time_up, waiter)
            try:
                await waiter
            except TimeoutError:
                return []
            finally:
                timer.cancel()
                for i, (waiting, _) in enumerate(game.waiters):
                    if waiting is waiter:  # timed out or cancelled: no commit took it
                        del game.waiters[i]
                        break
        end = after_version + limit
        if seen is not None:
            after_version = max(after_version, seen())
        return await self.read_entries(game_id, after_version, end - after_version)

    def waiting(self, game_id: str) -> int:
        """The game's ``wait_entries`` calls asleep now (Store.waiting): the
        waiters no commit or timeout has woken yet."""
        game = self._games.get(game_id)
        return 0 if game is None else sum(not waiter.done() for waiter, _ in game.waiters)

    async def schedule_deadline(self, game_id: str, at_ms: int) -> None:
        noted = self._deadlines.get(game_id)
        if noted is None or at_ms < noted:
            self._deadlines[game_id] = at_ms

    async def due_deadlines(self, now_ms: int, limit: int) -> Sequence[tuple[str, int]]:
        due = sorted((at, game_id) for game_id, at in self._deadlines.items() if at <= now_ms)
        return [(game_id, at) for at, game_id in due[:limit]]

    async def reschedule_deadline(self, game_id: str, seen_ms: int, next_ms: int | None) -> None:
        if self._deadlines.get(game_id) != seen_ms:
            return
        if next_ms is None:
            del self._deadlines[game_id]
        else:
            self._deadlines[game_id] = next_ms

    async def list_games(
        self, game_type: str, status: LobbyStatus | None, limit: int, after: str
    ) -> GamePage:
        now = self._clock()
        found: list[tuple[str, ListedGame]] = []
        expired: list[str] = []
        at = bisect.bisect_right(self._lobby, after) if after else 0
        for entry in self._lobby[at:]:
            if game_type and member_game_type(entry) != game_type:
                continue
            game_id = member_game_id(entry)
            game = self._games[game_id]
            if game.expires_at <= now:
                expired.append(game_id)
                continue
            listed = self._listed(game_id, game)
            if status is None or listed.status == status:
                found.append((entry, listed))
                if len(found) > limit:
                    break
        for game_id in expired:
            self._drop(game_id)
        return page_of(found, limit, "")

    @staticmethod
    def _listed(game_id: str, game: _Game) -> ListedGame:
        meta = storage_pb2.StoredGameMeta.FromString(game.meta)
        taken = frozenset(game.seats)
        return ListedGame(
            game_id=game_id,
            meta=meta,
            version=game.version,
            seats_taken=taken,
            status=status_of(meta.num_seats, taken, game.finished),
        )

    async def sweep_lobby(self, limit: int) -> int:
        # Statuses are read from the records, so only expired games are left
        # to drop: ``limit`` entries after the previous step's, then wrap.
        at = bisect.bisect_right(self._lobby, self._lobby_swept) if self._lobby_swept else 0
        step = self._lobby[at : at + limit]
        self._lobby_swept = step[-1] if len(step) == limit else ""
        now = self._clock()
        gone = [g for g in map(member_game_id, step) if self._games[g].expires_at <= now]
        for game_id in gone:
            self._drop(game_id)
        return len(gone)

    async def take_tokens(
        self, bucket: str, capacity: float, per_second: float, cost: float = 1.0
    ) -> float:
        now = self._clock()
        saved = self._buckets.get(bucket)
        if saved is None:
            saved = self._buckets[bucket] = _Bucket(tokens=capacity, at=now)
        tokens = min(capacity, saved.tokens + max(0.0, now - saved.at) * per_second)
        saved.at = now
        if tokens >= cost:
            saved.tokens = tokens - cost
            return 0.0
        saved.tokens = tokens
        return (cost - tokens) / per_second

    async def ping(self) -> None:
        return None

    async def close(self) -> None:
        return None


def _wake_behind(game: _Game) -> None:
    """Wake the feeds waiting on ``game`` that lack its newest version (a feed
    whose ``seen`` holds it waits on: waking it would read nothing new)."""
    game.waking = False
    version = game.version
    kept: list[tuple[asyncio.Future[None], Callable[[], int] | None]] = []
    for waiter, seen in game.waiters:
        if waiter.done():
            continue
        if seen is not None and seen() >= version:
            kept.append((waiter, seen))
        else:
            waiter.set_result(None)
    game.waiters = kept


def _time_up(waiter: asyncio.Future[None]) -> None:
    if not waiter.done():
        waiter.set_exception(TimeoutError())
