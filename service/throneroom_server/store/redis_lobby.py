"""The lobby's index on Redis: RedisStore's part of it (``lobby.py`` has the
scheme, ``redis.py`` the store), and the Redis errors every part translates."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any

import structlog
from redis.exceptions import (
    ClusterDownError,
    MovedError,
    OutOfMemoryError,
    ReadOnlyError,
    RedisClusterException,
    ResponseError,
    TryAgainError,
)
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError
from throneroom.v1 import storage_pb2

from throneroom_server.store.base import MAX_SEATS, StoreFull, StoreUnavailable
from throneroom_server.store.lobby import (
    SCAN_LIMIT,
    GamePage,
    ListedGame,
    LobbyStatus,
    member_game_id,
    member_game_type,
    page_of,
    status_of,
)

log = structlog.get_logger("throneroom.store")

SEAT_FIELDS = [f"seat:{n}" for n in range(MAX_SEATS)]


def game_key(game_id: str) -> str:
    return f"{{g:{game_id}}}:game"


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


LISTED_FIELDS = ["meta", "version", "finished", *SEAT_FIELDS]


UNREACHABLE = (RedisConnectionError, RedisTimeoutError, OSError, RedisClusterException)
"""Errors meaning the store cannot be reached (a cluster client that finds no
node, or whose slots are not all served, raises RedisClusterException)."""


def refused(exc: ResponseError) -> StoreFull | StoreUnavailable | None:
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


class RedisLobby:
    """RedisStore's lobby methods (a mixin: the store has the clients, the
    ``lobby_note.lua`` script and ``_call``, which runs a script)."""

    _redis: Any
    _lobby_note: Any
    cluster: bool

    async def _call(self, script: Any, *, keys: list[str], args: list[Any]) -> Any:
        raise NotImplementedError  # RedisStore's

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
        except UNREACHABLE as exc:
            raise StoreUnavailable(str(exc)) from exc
        except ResponseError as exc:
            raise refused(exc) or exc from exc

    async def _listed(self, members: list[str]) -> list[ListedGame | None]:
        """Each member's game as its record says (None: gone): one pipelined
        round trip (on a cluster, the client sends each game's HMGET to its
        node, concurrently)."""
        keys = [game_key(member_game_id(noted)) for noted in members]
        try:
            if self.cluster:
                rows = await asyncio.gather(*(self._redis.hmget(k, LISTED_FIELDS) for k in keys))
            else:
                async with self._redis.pipeline(transaction=False) as pipe:
                    for key in keys:
                        pipe.hmget(key, LISTED_FIELDS)
                    rows = await pipe.execute()
        except UNREACHABLE as exc:
            raise StoreUnavailable(str(exc)) from exc
        except ResponseError as exc:
            raise refused(exc) or exc from exc
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
        except UNREACHABLE as exc:
            raise StoreUnavailable(str(exc)) from exc
        except ResponseError as exc:
            raise refused(exc) or exc from exc
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
        except UNREACHABLE as exc:
            raise StoreUnavailable(str(exc)) from exc
        after = raw.decode() if raw else ""
        members = await self._index_range(lobby_key("", None), after, limit)
        listed = await self._listed(members)
        try:
            await self._redis.set(LOBBY_SWEPT_KEY, members[-1] if len(members) == limit else "")
        except UNREACHABLE as exc:
            raise StoreUnavailable(str(exc)) from exc
        except ResponseError as exc:
            raise refused(exc) or exc from exc
        await self._note_many(
            [(m, None if g is None else g.status) for m, g in zip(members, listed, strict=True)]
        )
        return sum(g is None for g in listed)
