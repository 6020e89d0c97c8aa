"""RedisStore's durability mode (``THRONEROOM_REDIS_MIN_REPLICAS_ACKED``): a
commit is done once ``WAIT`` says enough replicas hold it (a mixin: the
store has the clients, the multiplexed connection and the settings)."""

from __future__ import annotations

from typing import Any

from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import NoScriptError, ResponseError

from throneroom_server.store.base import StoreNotReplicated, StoreUnavailable
from throneroom_server.store.multiplex import MultiplexedConnection
from throneroom_server.store.redis_lobby import UNREACHABLE as _UNREACHABLE
from throneroom_server.store.redis_lobby import refused as _refused


def _status_of(raw: Any) -> str:
    status = raw[0]
    return status.decode() if isinstance(status, bytes) else str(status)


class Replicated:
    """``confirm_replicated`` and ``_call_replicated`` of RedisStore."""

    _redis: Any
    _hot: MultiplexedConnection | None
    min_replicas_acked: int
    _wait_ms: int

    async def confirm_replicated(self) -> None:
        """A tiny write (a probe key that expires) and ``WAIT`` on the same
        connection: replication is one ordered stream, so once replicas
        confirm the probe they hold every earlier write, a retried move's
        first commit among them."""
        if not self.min_replicas_acked:
            return
        probe = ("SET", "throneroom:replication-probe", "1", "PX", "60000")
        wait = ("WAIT", self.min_replicas_acked, self._wait_ms)
        try:
            _, acked = await self._with_wait(probe, wait)
        except _UNREACHABLE as exc:
            raise StoreUnavailable(str(exc)) from exc
        except ResponseError as exc:
            raise _refused(exc) or exc from exc
        if int(acked) < self.min_replicas_acked:
            raise StoreNotReplicated(
                f"{acked} of {self.min_replicas_acked} replicas confirmed within {self._wait_ms} ms"
            )

    async def _call_replicated(self, script: Any, *, keys: list[str], args: list[Any]) -> Any:
        """``_call``, then ``WAIT min_replicas_acked`` on the same connection
        (WAIT covers the writes of the connection it is sent on: the two are
        sent together, so no reconnection can come between them). A commit,
        or a duplicate of one, that too few replicas confirmed in time raises
        StoreNotReplicated; a refused one (stale, unknown game) is answered as is."""
        wait = ("WAIT", self.min_replicas_acked, self._wait_ms)
        command = ("EVALSHA", script.sha, len(keys), *keys, *args)
        try:
            for attempt in range(2):
                try:
                    raw, acked = await self._with_wait(command, wait)
                    break
                except NoScriptError:
                    if attempt:
                        raise
                    await self._redis.script_load(script.script)
        except _UNREACHABLE as exc:
            raise StoreUnavailable(str(exc)) from exc
        except ResponseError as exc:
            raise _refused(exc) or exc from exc
        if _status_of(raw) in ("OK", "DUPLICATE") and int(acked) < self.min_replicas_acked:
            raise StoreNotReplicated(
                f"{acked} of {self.min_replicas_acked} replicas confirmed the commit"
                f" within {self._wait_ms} ms"
            )
        return raw

    async def _with_wait(self, command: tuple[Any, ...], wait: tuple[Any, ...]) -> tuple[Any, Any]:
        """``command`` and ``wait`` written back to back on one connection."""
        hot = self._hot
        if hot is None:
            pipe = self._redis.pipeline(transaction=False)
            pipe.execute_command(*command)
            pipe.execute_command(*wait)
            raw, acked = await pipe.execute(raise_on_error=False)
            if isinstance(raw, Exception):
                raise raw
            if isinstance(acked, Exception):
                raise acked
            return raw, acked
        first = hot.submit(command)
        if first is None:  # not connected: connect, then both on the new connection
            await hot.execute("PING")
            first = hot.submit(command)
            if first is None:
                raise RedisConnectionError("the connection to Redis was lost")
        second = hot.submit(wait)
        if second is None:
            raise RedisConnectionError("the connection to Redis was lost")
        try:
            raw = await first
        finally:
            acked = await second
        return raw, acked
