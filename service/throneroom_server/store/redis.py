"""RedisStore: games in Redis, one hash and one stream per game.

Keys of a game share the hash tag ``{g:<id>}`` so Redis Cluster keeps them
on one slot (the Lua scripts touch both):

* ``{g:<id>}:game``  hash: ``meta``, ``state``, ``version``, ``seat:<n>``,
  ``idem:<key>`` (the version a move with that idempotency key created);
* ``{g:<id>}:log``   stream: one entry per version with ID ``<version>-0``
  and field ``e`` = the serialized StoredEntry.

Move path: one HMGET (load) + one EVALSHA (commit) = two round trips, both
on one multiplexed connection (``multiplex.py``) for speed; everything else
uses redis-py. Scripts are loaded once and re-loaded on NOSCRIPT.

Watching: each watched game has one reader per replica (``watch.py``) that
blocks on XREAD, so a watcher connected to any replica sees every move
committed through any other. Blocking reads use connections of their own,
apart from the command pool, so watchers can never starve creates, joins or
moves: on plain TCP URLs lean ones (``multiplex.py``, one read at a time
each, the idle ones kept, at most ``max_blocking_connections``), else
redis-py's; their timeout is set from the longest blocking time (never the
library's default, which redis-py 8 lowered to 5 s, shorter than a blocking
read).

Every write renews the time to live of the game's keys (``Retention``).
Redis errors are translated: unreachable or read-only (a replica, a
failover) -> StoreUnavailable; out of memory (``maxmemory`` with
``noeviction``) -> StoreFull. The scripts read before they write, so a
refused write leaves nothing half done.

Rate-limit buckets live under ``{rl:<scope>}:bucket`` (``take_tokens.lua``).

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
cluster store sends every command through the cluster client.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from importlib import resources
from typing import Any

import redis.asyncio as aioredis
import structlog
from redis.asyncio.cluster import RedisCluster
from redis.asyncio.connection import parse_url
from redis.exceptions import (
    ClusterDownError,
    MovedError,
    NoScriptError,
    OutOfMemoryError,
    ReadOnlyError,
    RedisClusterException,
    ResponseError,
    TryAgainError,
)
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError
from throneroom.v1 import game_pb2, storage_pb2

from throneroom_server.store.base import (
    MAX_SEATS,
    CommitResult,
    Committed,
    Duplicate,
    GameAlreadyExists,
    GameFull,
    LoadedGame,
    Retention,
    SeatTaken,
    Stale,
    StoreFull,
    StoreGameNotFound,
    StoreUnavailable,
    entry_bytes,
)
from throneroom_server.store.lobby import (
    SCAN_LIMIT,
    GamePage,
    ListedGame,
    LobbyStatus,
    member,
    member_game_id,
    member_game_type,
    page_of,
    status_of,
)
from throneroom_server.store.multiplex import MultiplexedConnection
from throneroom_server.store.notify import Notifier, Read, Row, channel_name

log = structlog.get_logger("throneroom.store")

_SEAT_FIELDS = [f"seat:{n}" for n in range(MAX_SEATS)]


def _lua(name: str) -> str:
    return resources.files("throneroom_server.store").joinpath("lua", name).read_text()


COMMIT_LUA = _lua("commit.lua")
CLAIM_SEAT_LUA = _lua("claim_seat.lua")
CREATE_GAME_LUA = _lua("create_game.lua")
TAKE_TOKENS_LUA = _lua("take_tokens.lua")
RESCHEDULE_DEADLINE_LUA = _lua("reschedule_deadline.lua")
LOBBY_NOTE_LUA = _lua("lobby_note.lua")

DEADLINES_KEY = "{clocks}:deadlines"
"""Sorted set: game id -> the earliest time (Unix ms) a clock of it may run out."""

COMMAND_TIMEOUT = 10.0
"""Seconds a command may take before the store is called unavailable."""
CONNECT_TIMEOUT = 5.0
BLOCKING_MARGIN = 10.0
"""Extra seconds a blocking read's socket waits beyond the blocking time."""


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


def _notifier(url: str, read: Read) -> Notifier:
    """The subscriber connection of a plain TCP URL (``notify.py``)."""
    kwargs = parse_url(url)
    return Notifier(
        str(kwargs.get("host", "localhost")),
        int(kwargs.get("port", 6379)),
        read,
        db=int(kwargs.get("db", 0)),
        username=kwargs.get("username"),
        password=kwargs.get("password"),
    )


def game_key(game_id: str) -> str:
    return f"{{g:{game_id}}}:game"


def log_key(game_id: str) -> str:
    return f"{{g:{game_id}}}:log"


def bucket_key(bucket: str) -> str:
    return f"{{rl:{bucket}}}:bucket"


LOBBY_SWEPT_KEY = "{lobby}:swept"
_LOBBY_SETS = ("all", "open", "started", "finished")


def lobby_key(game_type: str, status: LobbyStatus | None) -> str:
    """The index of ``game_type`` ("" = every type) in ``status`` (None = any)."""
    name = "all" if status is None else status.name.lower()
    return f"{{lobby}}:type:{game_type}:{name}" if game_type else f"{{lobby}}:{name}"


def lobby_keys(game_type: str) -> list[str]:
    """The KEYS of lobby_note.lua for a game of ``game_type``."""
    return [f"{{lobby}}:{n}" for n in _LOBBY_SETS] + [
        f"{{lobby}}:type:{game_type}:{n}" for n in _LOBBY_SETS
    ]


_LISTED_FIELDS = ["meta", "version", "finished", *_SEAT_FIELDS]


_UNREACHABLE = (RedisConnectionError, RedisTimeoutError, OSError, RedisClusterException)
"""Errors meaning the store cannot be reached (a cluster client that finds no
node, or whose slots are not all served, raises RedisClusterException)."""


def _refused(exc: ResponseError) -> StoreFull | StoreUnavailable | None:
    """The store error a Redis error reply means, or None for any other error."""
    text = str(exc)
    # redis-py names some errors by class (its message drops the code); the
    # multiplexed connection keeps the code in the text.
    if isinstance(exc, OutOfMemoryError) or text.startswith("OOM"):
        return StoreFull("Redis is at its maxmemory and refuses writes")
    if isinstance(exc, ReadOnlyError) or text.startswith("READONLY"):
        return StoreUnavailable("Redis is read-only (a replica, or failing over)")
    if isinstance(exc, (ClusterDownError, TryAgainError)):
        return StoreUnavailable("the Redis Cluster cannot answer now (failing over or resharding)")
    if isinstance(exc, MovedError) or text.startswith("MOVED"):
        return StoreUnavailable(
            "Redis is a cluster node: the service needs THRONEROOM_REDIS_CLUSTER=1 for it"
        )
    if text.startswith(("LOADING", "MASTERDOWN", "BUSY", "TRYAGAIN", "CLUSTERDOWN")):
        return StoreUnavailable(f"Redis cannot answer now ({text.split(' ', 1)[0]})")
    return None


def _status(raw: Any) -> tuple[str, int, str]:
    """A script's ``{status, value}`` reply, with the lobby member some
    replies add as a third element ("" when absent)."""
    status, value, *more = raw
    if isinstance(status, bytes):
        status = status.decode()
    noted = more[0] if more else b""
    return str(status), int(value), noted.decode() if isinstance(noted, bytes) else str(noted)


def _version_of(row_id: bytes) -> int:
    """A stream row's version: its ID is "<version>-0"."""
    return int(row_id.split(b"-", 1)[0])


def _field_e(fields: list[bytes]) -> bytes:
    """The serialized entry of a row's fields ([b"e", data])."""
    return fields[fields.index(b"e") + 1]


class RedisStore:
    def __init__(
        self,
        url: str,
        *,
        cluster: bool = False,
        max_connections: int = 256,
        max_blocking_connections: int = 2000,
        max_block_seconds: float = 60.0,
        retention: Retention | None = None,
    ) -> None:
        # decode_responses=False: every reply is bytes (the stubs cannot know).
        # Timeouts are explicit: library defaults change between versions.
        # Blocking reads (one per watched game on this replica, see watch.py)
        # get a client of their own. With a cluster, max_connections counts
        # per node.
        client: Any = RedisCluster if cluster else aioredis.Redis
        common = {
            "decode_responses": False,
            "socket_connect_timeout": CONNECT_TIMEOUT,
            "socket_keepalive": True,
        }
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
        self._hot = None if cluster else _hot_path(url)
        # Watching on notifications (notify.py) where the multiplexed path
        # is; a cluster's commits publish nothing and its feeds use XREAD.
        self._notes = None if self._hot is None else _notifier(url, self._range)
        self._db = int(parse_url(url).get("db", 0))

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
        fields = ["meta", "state", "version", f"idem:{idempotency_key}", "clock", *_SEAT_FIELDS]
        try:
            if self._hot is not None:
                values = await self._hot.execute("HMGET", game_key(game_id), *fields)
            else:
                values = await self._redis.hmget(game_key(game_id), fields)
        except _UNREACHABLE as exc:
            raise StoreUnavailable(str(exc)) from exc
        except ResponseError as exc:
            raise _refused(exc) or exc from exc
        meta_raw, state_raw, version_raw, idem_raw, clock_raw, *seat_raw = values
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
            idempotent_version=int(idem_raw) if idempotency_key and idem_raw is not None else None,
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
        status, value, started = _status(raw)
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
            entry_bytes(entry, state_bytes),
            f"idem:{idempotency_key}" if idempotency_key else "",
            str(self.retention.ttl_ms(finished=finished)),
            b"" if clock is None else clock.SerializeToString(),
            "1" if finished else "",
            "" if self.cluster else channel_name(game_id, self._db),
        ]
        notes = self._notes
        if notes is None:
            raw = await self._call(self._commit, keys=keys, args=args)
        else:
            notes.committing(game_id)
            try:
                raw = await self._call(self._commit, keys=keys, args=args)
            finally:
                notes.committed(game_id)
        status, value, ended = _status(raw)
        if status == "OK":
            if ended:
                await self._note_lobby(ended, LobbyStatus.FINISHED)
            return Committed(value)
        if status == "STALE":
            return Stale(value)
        if status == "DUPLICATE":
            return Duplicate(value)
        raise StoreGameNotFound(game_id)

    async def read_entries(
        self, game_id: str, after_version: int, limit: int
    ) -> Sequence[storage_pb2.StoredEntry]:
        try:
            if self._hot is not None:
                found = await self._range(game_id, after_version, limit)
                return [storage_pb2.StoredEntry.FromString(data) for _, data in found]
            rows = await self._redis.xrange(
                log_key(game_id), min=f"({after_version}-0", max="+", count=limit
            )
        except _UNREACHABLE as exc:
            raise StoreUnavailable(str(exc)) from exc
        except ResponseError as exc:
            raise _refused(exc) or exc from exc
        return [storage_pb2.StoredEntry.FromString(fields[b"e"]) for _, fields in rows]

    async def _range(self, game_id: str, after_version: int, limit: int) -> list[Row]:
        """XRANGE on the multiplexed connection: (version, serialized entry) rows."""
        assert self._hot is not None
        reply = await self._hot.execute(
            "XRANGE", log_key(game_id), f"({after_version}-0", "+", "COUNT", limit
        )
        return [(_version_of(row_id), _field_e(fields)) for row_id, fields in reply]

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
                found = await self._notes.wait(game_id, after_version, timeout, limit, seen)
            except _UNREACHABLE as exc:
                raise StoreUnavailable(str(exc)) from exc
            except ResponseError as exc:
                raise _refused(exc) or exc from exc
            return [storage_pb2.StoredEntry.FromString(data) for _, data in found]
        key = log_key(game_id)
        block_ms = max(1, int(min(timeout, self._max_block_seconds) * 1000))
        try:
            reply = await self._blocking.xread(
                {key: f"{after_version}-0"}, count=limit, block=block_ms
            )
            rows = [(i, fields[b"e"]) for _, found in reply or [] for i, fields in found]
        except _UNREACHABLE as exc:
            raise StoreUnavailable(str(exc)) from exc
        except ResponseError as exc:
            raise _refused(exc) or exc from exc
        held = after_version if seen is None else max(after_version, seen())
        # A row's ID is "<version>-0": the rows the caller holds are not parsed.
        return [
            storage_pb2.StoredEntry.FromString(data)
            for row_id, data in rows
            if int(row_id.split(b"-", 1)[0]) > held
        ]

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

    async def _note_lobby(self, noted: str, status: LobbyStatus | None) -> None:
        """Put the game of member ``noted`` in the index under ``status``
        (None: it is gone), right after the game's own write. That write is
        done and acknowledged whatever happens here: a failed note is logged,
        not raised (the index catches up at the game's next status change,
        and listings never trust it over the record)."""
        try:
            await self._call(
                self._lobby_note,
                keys=lobby_keys(member_game_type(noted)),
                args=[noted, 0 if status is None else int(status)],
            )
        except (StoreUnavailable, StoreFull) as exc:
            log.warning("lobby_note_failed", member=noted, error=str(exc))

    async def _note_many(self, notes: Sequence[tuple[str, LobbyStatus | None]]) -> None:
        """``lobby_note.lua`` for each, raising on failure: in one round trip
        (a pipeline) on one node; on a cluster (whose pipelines do not carry
        scripts), one call each, all to the ``{lobby}`` slot's node."""
        if not notes:
            return
        calls = [
            (lobby_keys(member_game_type(noted)), [noted, 0 if status is None else int(status)])
            for noted, status in notes
        ]
        if self.cluster:
            for keys, args in calls:
                await self._call(self._lobby_note, keys=keys, args=args)
            return
        try:
            async with self._redis.pipeline(transaction=False) as pipe:
                for keys, args in calls:
                    await self._lobby_note(keys=keys, args=args, client=pipe)
                await pipe.execute()
        except _UNREACHABLE as exc:
            raise StoreUnavailable(str(exc)) from exc
        except ResponseError as exc:
            raise _refused(exc) or exc from exc

    async def _listed(self, members: list[str]) -> list[ListedGame | None]:
        """Each member's game as its record says (None: gone): one pipelined
        round trip (on a cluster, the client sends each game's HMGET to its
        node, concurrently)."""
        keys = [game_key(member_game_id(noted)) for noted in members]
        try:
            if self.cluster:
                rows = await asyncio.gather(*(self._redis.hmget(k, _LISTED_FIELDS) for k in keys))
            else:
                async with self._redis.pipeline(transaction=False) as pipe:
                    for key in keys:
                        pipe.hmget(key, _LISTED_FIELDS)
                    rows = await pipe.execute()
        except _UNREACHABLE as exc:
            raise StoreUnavailable(str(exc)) from exc
        except ResponseError as exc:
            raise _refused(exc) or exc from exc
        out: list[ListedGame | None] = []
        for noted, (meta_raw, version_raw, finished_raw, *seat_raw) in zip(
            members, rows, strict=True
        ):
            if meta_raw is None or version_raw is None:
                out.append(None)
                continue
            meta = storage_pb2.StoredGameMeta.FromString(meta_raw)
            taken = frozenset(n for n, raw in enumerate(seat_raw) if raw is not None)
            out.append(
                ListedGame(
                    game_id=member_game_id(noted),
                    meta=meta,
                    version=int(version_raw),
                    seats_taken=taken,
                    status=status_of(meta.num_seats, taken, finished_raw is not None),
                )
            )
        return out

    async def _index_range(self, key: str, after: str, count: int) -> list[str]:
        try:
            rows = await self._redis.zrangebylex(
                key, f"({after}" if after else "-", "+", start=0, num=count
            )
        except _UNREACHABLE as exc:
            raise StoreUnavailable(str(exc)) from exc
        except ResponseError as exc:
            raise _refused(exc) or exc from exc
        return [row.decode() for row in rows]

    async def list_games(
        self, game_type: str, status: LobbyStatus | None, limit: int, after: str
    ) -> GamePage:
        key = lobby_key(game_type, status)
        found: list[tuple[str, ListedGame]] = []
        repairs: list[tuple[str, LobbyStatus | None]] = []
        scanned, cursor = 0, after
        while len(found) <= limit:
            if scanned >= SCAN_LIMIT:
                break  # the page ends early; the cursor says where to read on
            want = min(limit + 1 - len(found) + 4, SCAN_LIMIT - scanned)
            members = await self._index_range(key, cursor, want)
            for noted, listed in zip(members, await self._listed(members), strict=True):
                scanned += 1
                cursor = noted
                if listed is None:
                    repairs.append((noted, None))
                elif status is not None and listed.status != status:
                    repairs.append((noted, listed.status))  # the index lags: move it on
                else:
                    found.append((noted, listed))
                    if len(found) > limit:
                        break
            if len(members) < want:
                cursor = ""  # the end of the index
                break
        try:
            await self._note_many(repairs)
        except (StoreUnavailable, StoreFull) as exc:  # the page is right without them
            log.warning("lobby_repair_failed", entries=len(repairs), error=str(exc))
        return page_of(found, limit, cursor)

    async def sweep_lobby(self, limit: int) -> int:
        try:
            raw = await self._redis.get(LOBBY_SWEPT_KEY)
        except _UNREACHABLE as exc:
            raise StoreUnavailable(str(exc)) from exc
        after = raw.decode() if raw else ""
        members = await self._index_range(lobby_key("", None), after, limit)
        listed = await self._listed(members)
        try:
            await self._redis.set(LOBBY_SWEPT_KEY, members[-1] if len(members) == limit else "")
        except _UNREACHABLE as exc:
            raise StoreUnavailable(str(exc)) from exc
        except ResponseError as exc:
            raise _refused(exc) or exc from exc
        await self._note_many(
            [(m, None if g is None else g.status) for m, g in zip(members, listed, strict=True)]
        )
        return sum(g is None for g in listed)

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
        try:
            await self._redis.ping()
        except _UNREACHABLE as exc:
            raise StoreUnavailable(str(exc)) from exc

    async def close(self) -> None:
        if self._hot is not None:
            self._hot.close()
        if self._notes is not None:
            self._notes.close()
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
