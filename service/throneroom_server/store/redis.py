"""RedisStore: games in Redis, one hash and one stream per game.

Keys of a game share the hash tag ``{g:<id>}`` so Redis Cluster keeps them
on one slot (the Lua scripts touch both):

* ``{g:<id>}:game``  hash: ``meta``, ``state``, ``version``, ``seat:<n>``,
  ``i0`` .. ``i7`` (the idempotency records: each key's digest and the
  version its move created);
* ``{g:<id>}:log``   stream: one entry per version with ID ``<version>-0``,
  field ``e`` = the serialized StoredEntry without its state, and at a
  checkpoint field ``s`` = the state after it, compressed; once the game is
  finished, its rows packed into the hash's field ``logz``
  (``redis_layout.py`` has the details and the earlier layouts it reads).

Move path: one HMGET (load) + one EVALSHA (commit) = two round trips (a play
session's move: the EVALSHA only), on one multiplexed connection
(``multiplex.py``) for speed, as every script is; the rest (streams for
history, deadlines, the lobby's listings) uses redis-py. Scripts are loaded
once and re-loaded on NOSCRIPT.

Watching: each watched game has one reader per replica (``watch.py``), so a
watcher connected to any replica sees every move committed through any
other. On plain TCP URLs the reader waits on notifications (``notify.py``):
``commit.lua`` publishes each new version on the game's channel, one
subscriber connection per process (on a cluster: per primary, with shard
channels) carries every watched game's channel, and the stream is read
(XRANGE) only for versions the reader does not hold, never for the moves
this replica committed and published itself. Elsewhere (TLS, unix sockets)
it blocks on XREAD on redis-py connections of their own, apart from the
command pool, so watchers can never starve creates, joins or moves; their
timeout is set from the longest blocking time (never the library's default,
which redis-py 8 lowered to 5 s, shorter than a blocking read).

Every write renews the time to live of the game's keys (``Retention``).
Redis errors are translated: unreachable or read-only (a replica, a
failover) -> StoreUnavailable; out of memory (``maxmemory`` with
``noeviction``) -> StoreFull. The scripts read before they write, so a
refused write leaves nothing half done.

The lobby (``lobby.py`` has the scheme) is eight sorted sets per game type
in the ``{lobby}`` slot, all scores 0 so that members sort as text:
``{lobby}:all``, ``{lobby}:open``, ``{lobby}:started``, ``{lobby}:finished``
and the same four under ``{lobby}:type:<game type>:``, plus
``{lobby}:swept`` (where the retention sweep goes on). A Lua script touches
one slot only, so the game's scripts write the game and return its lobby
member when its status changed (field ``lobby`` of its hash, set at
creation); the store then notes the change in the index
(``lobby_note.lua``) right after. Listings read each candidate's hash
(pipelined) and believe only it, repairing what lags.

Redis Cluster (``cluster=True``, the ``THRONEROOM_REDIS_CLUSTER`` setting):
redis-py's cluster client routes each command and script by its keys' slot
and follows MOVED/ASK redirections; every script touches keys of one hash tag
only (a game's ``{g:<id>}``, the deadline index ``{clocks}``, the lobby ``{lobby}``, one bucket
``{rl:..}``), and a script missing on a node (a new or restarted primary) is
loaded there on NOSCRIPT. The multiplexed hot path talks to one node, so a
cluster store sends every command through the cluster client; its commits
publish on shard channels (SPUBLISH), which its notifier hears on one
connection per primary (``SlotRoute`` in ``shards.py`` names the node).

Rate-limit buckets live under ``{rl:<scope>}:bucket`` (``take_tokens.lua``).
The lobby's methods and the translation of Redis errors are in
``redis_lobby.py``.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Callable, Sequence
from importlib import resources
from typing import Any

import redis.asyncio as aioredis
from redis.asyncio.connection import parse_url
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff
from redis.exceptions import NoScriptError, ResponseError
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
    StoreError,
    StoreGameNotFound,
    StoreMisconfigured,
    StoreUnavailable,
    keeps_state,
    key_digest,
)
from throneroom_server.store.lobby import LobbyStatus, member
from throneroom_server.store.multiplex import MultiplexedConnection
from throneroom_server.store.notify import Notifier, Read, Row, channel_name
from throneroom_server.store.redis_layout import (
    compressed,
    entry_of_dict,
    entry_of_pairs,
    idempotent_version,
    legacy_field,
    packed,
    records_field,
    rows_of_log,
    script_status,
    version_of,
)
from throneroom_server.store.redis_lobby import (
    LOBBY_SWEPT_KEY,
    SEAT_FIELDS,
    RedisLobby,
    game_key,
    lobby_key,
    lobby_keys,
)
from throneroom_server.store.redis_lobby import UNREACHABLE as _UNREACHABLE
from throneroom_server.store.redis_lobby import log as _log
from throneroom_server.store.redis_lobby import refused as _refused
from throneroom_server.store.redis_replicated import Replicated
from throneroom_server.store.shards import GuardedCluster, ShardBreaker, SlotRoute

__all__ = [
    "LOBBY_SWEPT_KEY",
    "RedisStore",
    "bucket_key",
    "game_key",
    "lobby_key",
    "lobby_keys",
    "log_key",
]


def _lua(name: str) -> str:
    return resources.files("throneroom_server.store").joinpath("lua", name).read_text()


COMMIT_LUA = _lua("commit.lua")
CLAIM_SEAT_LUA = _lua("claim_seat.lua")
CREATE_GAME_LUA = _lua("create_game.lua")
TAKE_TOKENS_LUA = _lua("take_tokens.lua")
RESCHEDULE_DEADLINE_LUA = _lua("reschedule_deadline.lua")
LOBBY_NOTE_LUA = _lua("lobby_note.lua")
PACK_LOG_LUA = _lua("pack_log.lua")

DEADLINES_KEY = "{clocks}:deadlines"
"""Sorted set: game id -> the earliest time (Unix ms) a clock of it may run out."""

COMMAND_TIMEOUT = 10.0
"""Seconds a command may take before the store is called unavailable."""
CONNECT_TIMEOUT = 5.0
BLOCKING_MARGIN = 10.0
"""Extra seconds a blocking read's socket waits beyond the blocking time."""
CLUSTER_RETRIES = 1
"""Retries of a cluster call whose node dropped the connection (no back-off)."""


def _hot_path(url: str, timeout: float = COMMAND_TIMEOUT) -> MultiplexedConnection | None:
    """The multiplexed connection for plain TCP URLs (TLS and unix sockets
    use redis-py for every command)."""
    if not url.startswith("redis://"):
        return None
    kwargs = parse_url(url)
    return MultiplexedConnection(
        str(kwargs.get("host", "localhost")),
        int(kwargs.get("port", 6379)),
        db=int(kwargs.get("db", 0)),
        username=kwargs.get("username"),
        password=kwargs.get("password"),
        timeout=timeout,
    )


def _notifier(url: str, read: Read, *, route: SlotRoute | None = None) -> Notifier:
    """The subscriber connection of a plain TCP URL (``notify.py``); with a
    cluster's ``route``, one per primary, on shard channels."""
    kwargs = parse_url(url)
    return Notifier(
        str(kwargs.get("host", "localhost")),
        int(kwargs.get("port", 6379)),
        read,
        db=int(kwargs.get("db", 0)),
        username=kwargs.get("username"),
        password=kwargs.get("password"),
        route=route,
        sharded=route is not None,
        rerouted=None if route is None else route.stale,
        settled=None if route is None else route.settled,
    )


def log_key(game_id: str) -> str:
    return f"{{g:{game_id}}}:log"


def bucket_key(bucket: str) -> str:
    return f"{{rl:{bucket}}}:bucket"


class RedisStore(Replicated, RedisLobby):
    def __init__(
        self,
        url: str,
        *,
        cluster: bool = False,
        max_connections: int = 256,
        max_blocking_connections: int = 2000,
        max_block_seconds: float = 60.0,
        retention: Retention | None = None,
        min_replicas_acked: int = 0,
        replication_timeout_seconds: float = 1.0,
    ) -> None:
        if min_replicas_acked and cluster:
            raise StoreMisconfigured(
                "THRONEROOM_REDIS_MIN_REPLICAS_ACKED is not supported on a Redis Cluster"
            )
        self.min_replicas_acked = min_replicas_acked
        """Replicas that must confirm a commit (Redis WAIT) before it is done; 0: none."""
        self._wait_ms = max(1, round(replication_timeout_seconds * 1000))
        # decode_responses=False: every reply is bytes (the stubs cannot know).
        # Timeouts are explicit: library defaults change between versions.
        # Blocking reads (one per watched game on this replica, see watch.py)
        # get a client of their own. With a cluster, max_connections counts
        # per node.
        # A cluster's clients share one breaker per node (shards.py): a
        # failing primary costs only its own games.
        client: Any = GuardedCluster if cluster else aioredis.Redis
        common: dict[str, Any] = {
            "decode_responses": False,
            "socket_connect_timeout": CONNECT_TIMEOUT,
            "socket_keepalive": True,
        }
        if cluster:
            # One immediate retry (after the map's rebuild) for a node that
            # dropped a connection; redis-py's default retries with back-off
            # hold each call for a dead primary about a second.
            common["breaker"] = ShardBreaker()
            common["retry"] = Retry(NoBackoff(), CLUSTER_RETRIES)
        self._redis: Any = client.from_url(
            url, max_connections=max_connections, socket_timeout=COMMAND_TIMEOUT, **common
        )
        self._blocking: Any = client.from_url(
            url,
            max_connections=max_blocking_connections,
            socket_timeout=max_block_seconds + BLOCKING_MARGIN,
            **common,
        )
        self.cluster = cluster
        self._max_block_seconds = max_block_seconds
        self.retention = retention or Retention()
        self._commit = self._redis.register_script(COMMIT_LUA)
        self._claim_seat = self._redis.register_script(CLAIM_SEAT_LUA)
        self._create_game = self._redis.register_script(CREATE_GAME_LUA)
        self._take_tokens = self._redis.register_script(TAKE_TOKENS_LUA)
        self._reschedule = self._redis.register_script(RESCHEDULE_DEADLINE_LUA)
        self._lobby_note = self._redis.register_script(LOBBY_NOTE_LUA)
        self._pack_log = self._redis.register_script(PACK_LOG_LUA)
        self._hot = None if cluster else _hot_path(url)
        self._db = int(parse_url(url).get("db", 0))
        # Watching on notifications (notify.py) where the multiplexed path
        # is, and on a cluster's shard channels; else XREAD BLOCK.
        self._route: SlotRoute | None = None
        self._notes: Notifier | None = None
        if cluster and url.startswith("redis://"):
            self._route = SlotRoute(self._redis, db=self._db)
            self._notes = _notifier(url, self._rows, route=self._route)
        elif self._hot is not None:
            self._notes = _notifier(url, self._range)
        self._blocked: Counter[str] = Counter()  # XREAD BLOCK calls per game (waiting)

    async def create_game(
        self, game_id: str, meta: storage_pb2.StoredGameMeta, state: game_pb2.GameState
    ) -> None:
        noted = member(meta, game_id)
        created = await self._call(
            self._create_game,
            keys=[game_key(game_id)],
            args=[
                meta.SerializeToString(),
                state.SerializeToString(deterministic=True),
                self.retention.ttl_ms(finished=False),
                noted,
            ],
        )
        if int(created) != 1:
            raise GameAlreadyExists(game_id)
        await self._note_lobby(noted, LobbyStatus.OPEN)

    async def load(self, game_id: str, *, idempotency_key: str = "") -> LoadedGame:
        digest = key_digest(idempotency_key)
        records = records_field(digest) if digest else "i0"
        legacy = legacy_field(idempotency_key)
        fields = ["meta", "state", "version", records, legacy, "clock", *SEAT_FIELDS]
        try:
            if self._hot is not None:
                values = await self._hot.execute("HMGET", game_key(game_id), *fields)
            else:
                values = await self._redis.hmget(game_key(game_id), fields)
        except _UNREACHABLE as exc:
            raise StoreUnavailable(str(exc)) from exc
        except ResponseError as exc:
            raise _refused(exc) or exc from exc
        meta_raw, state_raw, version_raw, records_raw, legacy_raw, clock_raw, *seat_raw = values
        if meta_raw is None or state_raw is None or version_raw is None:
            raise StoreGameNotFound(game_id)
        seats = {
            n: storage_pb2.StoredSeat.FromString(raw)
            for n, raw in enumerate(seat_raw)
            if raw is not None
        }
        return LoadedGame(
            game_id=game_id,
            meta=storage_pb2.StoredGameMeta.FromString(meta_raw),
            version=int(version_raw),
            state=game_pb2.GameState.FromString(state_raw),
            seats=seats,
            idempotent_version=idempotent_version(digest, records_raw, legacy_raw),
            clock=storage_pb2.StoredClock.FromString(clock_raw) if clock_raw is not None else None,
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
        raw = await self._call(
            self._claim_seat,
            keys=[game_key(game_id), log_key(game_id)],
            args=[
                -1 if seat is None else seat,
                num_seats,
                record.SerializeToString(),
                self.retention.ttl_ms(finished=False),
                b"" if clock_if_full is None else clock_if_full.SerializeToString(),
            ],
        )
        status, value, started = script_status(raw)
        if status == "OK":
            if started:
                await self._note_lobby(started, LobbyStatus.STARTED)
            return value
        if status == "TAKEN":
            raise SeatTaken(str(value))
        if status == "FULL":
            raise GameFull(game_id)
        raise StoreGameNotFound(game_id)

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
        state_bytes = state.SerializeToString(deterministic=True)
        keys = [game_key(game_id), log_key(game_id)]
        args = [
            str(expected_version),
            state_bytes,
            entry.SerializeToString(deterministic=True),
            key_digest(idempotency_key),
            str(self.retention.ttl_ms(finished=finished)),
            b"" if clock is None else clock.SerializeToString(),
            "1" if finished else "",
            channel_name(game_id, self._db),
            compressed(state_bytes) if keeps_state(entry) else b"",
            legacy_field(idempotency_key) if idempotency_key else "",
            str(self._log_grace_ms()),
            "1" if self.cluster else "",
        ]
        commit = self._call if not self.min_replicas_acked else self._call_replicated
        notes = self._notes
        if notes is None:
            raw = await commit(self._commit, keys=keys, args=args)
        else:
            notes.committing(game_id)
            try:
                raw = await commit(self._commit, keys=keys, args=args)
            finally:
                notes.committed(game_id)
        status, value, ended = script_status(raw)
        if status == "OK":
            if ended:
                await self._note_lobby(ended, LobbyStatus.FINISHED)
            if finished:
                await self._pack(game_id)
            return Committed(value)
        if status == "STALE":
            return Stale(value)
        if status == "DUPLICATE":
            return Duplicate(value)
        raise StoreGameNotFound(game_id)

    async def _pack(self, game_id: str) -> None:
        """Pack the log of a game just finished (``pack_log.lua``). The move
        is committed whatever happens here: on an error its compacted log
        stays, which reads alike."""
        try:
            log = await self._redis.hget(game_key(game_id), "log")
            if log:
                args = [len(log), await asyncio.to_thread(packed, log)]  # (zlib: GIL released)
                await self._call(self._pack_log, keys=[game_key(game_id)], args=args)
        except (*_UNREACHABLE, ResponseError, StoreError) as exc:
            _log.warning("log_not_packed", game_id=game_id, error=str(exc))

    def _log_grace_ms(self) -> int:
        """How long a finished game's stream outlives its compaction (ms)."""
        grace = max(1, round(self.retention.finished_log_seconds * 1000))
        ttl = self.retention.ttl_ms(finished=True)
        return min(grace, ttl) if ttl else grace

    async def read_entries(
        self, game_id: str, after_version: int, limit: int
    ) -> Sequence[storage_pb2.StoredEntry]:
        try:
            if self._hot is not None:
                found = await self._range(game_id, after_version, limit)
            else:
                found = await self._rows(game_id, after_version, limit)
        except _UNREACHABLE as exc:
            raise StoreUnavailable(str(exc)) from exc
        except ResponseError as exc:
            raise _refused(exc) or exc from exc
        return [storage_pb2.StoredEntry.FromString(data) for _, data in found]

    async def _range(self, game_id: str, after_version: int, limit: int) -> list[Row]:
        """XRANGE on the multiplexed connection: (version, serialized entry)
        rows; none in the stream: those of the game's compacted log, if any."""
        hot = self._hot
        assert hot is not None
        reply = await hot.execute(
            "XRANGE", log_key(game_id), f"({after_version}-0", "+", "COUNT", limit
        )
        if not reply:
            log, logz = await hot.execute("HMGET", game_key(game_id), "log", "logz")
            return rows_of_log(log, logz, after_version, limit)
        return [(version_of(row_id), entry_of_pairs(fields)) for row_id, fields in reply]

    async def _rows(self, game_id: str, after_version: int, limit: int) -> list[Row]:
        """XRANGE through redis-py (a cluster, TLS, unix sockets): the rows
        after a version, or those of the game's compacted log."""
        rows = await self._redis.xrange(
            log_key(game_id), min=f"({after_version}-0", max="+", count=limit
        )
        found = [(version_of(i), entry_of_dict(fields)) for i, fields in rows]
        if not found:
            log, logz = await self._redis.hmget(game_key(game_id), ["log", "logz"])
            found = rows_of_log(log, logz, after_version, limit)
        return found

    async def wait_entries(
        self,
        game_id: str,
        after_version: int,
        timeout: float,
        limit: int = 100,
        *,
        seen: Callable[[], int] | None = None,
    ) -> Sequence[storage_pb2.StoredEntry]:
        if self._notes is not None:
            try:
                if self._route is not None:
                    await self._redis.initialize()  # the slot map (once)
                found = await self._notes.wait(game_id, after_version, timeout, limit, seen)
            except _UNREACHABLE as exc:
                raise StoreUnavailable(str(exc)) from exc
            except ResponseError as exc:
                raise _refused(exc) or exc from exc
            return [storage_pb2.StoredEntry.FromString(data) for _, data in found]
        key = log_key(game_id)
        block_ms = max(1, int(min(timeout, self._max_block_seconds) * 1000))
        blocked = self._blocked
        blocked[game_id] += 1
        try:
            reply = await self._blocking.xread(
                {key: f"{after_version}-0"}, count=limit, block=block_ms
            )
            rows = [(i, fields) for _, found in reply or [] for i, fields in found]
        except _UNREACHABLE as exc:
            raise StoreUnavailable(str(exc)) from exc
        except ResponseError as exc:
            raise _refused(exc) or exc from exc
        finally:
            blocked[game_id] -= 1
            if not blocked[game_id]:
                del blocked[game_id]
        held = after_version if seen is None else max(after_version, seen())
        # A row's ID is "<version>-0": the rows the caller holds are not parsed.
        return [
            storage_pb2.StoredEntry.FromString(entry_of_dict(fields))
            for row_id, fields in rows
            if version_of(row_id) > held
        ]

    def waiting(self, game_id: str) -> int:
        """The game's ``wait_entries`` calls asleep now (Store.waiting): on
        notifications, those subscribed, synced and not yet woken; with
        XREAD BLOCK (TLS and unix-socket URLs), those sent or
        being sent."""
        if self._notes is not None:
            return self._notes.waiting(game_id)
        return self._blocked[game_id]

    async def schedule_deadline(self, game_id: str, at_ms: int) -> None:
        try:
            await self._redis.zadd(DEADLINES_KEY, {game_id: at_ms}, lt=True)
        except _UNREACHABLE as exc:
            raise StoreUnavailable(str(exc)) from exc
        except ResponseError as exc:
            raise _refused(exc) or exc from exc

    async def due_deadlines(self, now_ms: int, limit: int) -> Sequence[tuple[str, int]]:
        try:
            rows = await self._redis.zrangebyscore(
                DEADLINES_KEY, "-inf", now_ms, start=0, num=limit, withscores=True
            )
        except _UNREACHABLE as exc:
            raise StoreUnavailable(str(exc)) from exc
        except ResponseError as exc:
            raise _refused(exc) or exc from exc
        return [(member.decode(), int(score)) for member, score in rows]

    async def reschedule_deadline(self, game_id: str, seen_ms: int, next_ms: int | None) -> None:
        await self._call(
            self._reschedule,
            keys=[DEADLINES_KEY],
            args=[game_id, seen_ms, "" if next_ms is None else next_ms],
        )

    async def take_tokens(
        self, bucket: str, capacity: float, per_second: float, cost: float = 1.0
    ) -> float:
        raw = await self._call(
            self._take_tokens,
            keys=[bucket_key(bucket)],
            args=[repr(float(capacity)), repr(float(per_second)), repr(float(cost))],
        )
        return int(raw) / 1000.0

    async def ping(self) -> None:
        """Reach Redis (else StoreUnavailable) and check that it is what the
        settings say: a Redis Cluster node used without ``cluster=True``
        (``THRONEROOM_REDIS_CLUSTER``) would serve only the games whose slots
        it holds, so it is refused here, at start-up (StoreMisconfigured)."""
        try:
            await self._redis.ping()
            if self.cluster:
                return
            info = await self._redis.info("cluster")
        except _UNREACHABLE as exc:
            raise StoreUnavailable(str(exc)) from exc
        if int(info.get("cluster_enabled", 0)) == 1:
            raise StoreMisconfigured(
                "REDIS_URL names a node of a Redis Cluster: set THRONEROOM_REDIS_CLUSTER=1"
                " (--redis-cluster) to use the cluster"
            )

    async def close(self) -> None:
        if self._hot is not None:
            self._hot.close()
        if self._notes is not None:
            self._notes.close()
        if self._route is not None:
            self._route.close()
        await self._redis.aclose()
        await self._blocking.aclose()

    async def _call(self, script: Any, *, keys: list[str], args: list[Any]) -> Any:
        """Run a registered script: EVALSHA on the multiplexed connection where
        there is one (one write and one future; when not connected, the
        connecting ``execute``), else through redis-py."""
        hot = self._hot
        try:
            if hot is None:
                return await script(keys=keys, args=args)
            command = ("EVALSHA", script.sha, len(keys), *keys, *args)
            try:
                waiting = hot.submit(command)
                return await (hot.execute(*command) if waiting is None else waiting)
            except NoScriptError:
                # Redis restarted or its scripts were flushed. NOSCRIPT is
                # answered before anything runs: load the script and retry.
                await self._redis.script_load(script.script)
                return await hot.execute(*command)
        except _UNREACHABLE as exc:
            raise StoreUnavailable(str(exc)) from exc
        except ResponseError as exc:
            raise _refused(exc) or exc from exc
