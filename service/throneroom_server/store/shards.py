"""A Redis Cluster client whose failing primary costs only that primary's games.

redis-py's cluster client answers a connection error on one node by marking
its whole slot map stale: the next command of *every* caller rebuilds it
(``CLUSTER SLOTS`` and ``COMMAND`` under one lock), and each retry of each
call for the dead node's slots does it again. While a primary is down (the
cluster's ``cluster-node-timeout`` plus the replica's election) the calls for
its games keep failing slowly and every other game waits behind the rebuilds.

``GuardedCluster`` puts a breaker per node in front of that client. A call's
key gives its slot and, from the slot map as it is, its node; a node that
just failed a call is *down* for ``BREAKER_HOLD_SECONDS``: calls for its slots
are refused at once (``ShardDown``, a connection error: the store reports
``UNAVAILABLE`` with its retry hint) without touching the client, so the map
is rebuilt once per failure, not once per call. After the hold one call goes
through as a probe: it fails (down again; the map it rebuilds shows the
promoted replica once the cluster has one) or succeeds (the node serves
again). Once the promoted replica is in the map, the slots map to it, a node
that never failed, and the games move at once.

Calls without a key (``PING``, ``INFO``, ``SCRIPT LOAD``) and pipelines pass
unguarded. The breaker reads two of redis-py's own helpers to find a call's
node (``_determine_slot``, ``nodes_manager``); the version is pinned
(constraints.txt) and the failover test catches a release that moves them.

``SlotRoute`` gives the watchers' notifier (``notify.py``) the node of a
game's shard channel from the same slot map, and refreshes the map when a
subscription finds it stale.
"""

from __future__ import annotations

import asyncio
import math
import time
from collections.abc import Callable
from typing import Any

import structlog
from redis.asyncio.cluster import RedisCluster
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import RedisClusterException, RedisError, ResponseError
from redis.exceptions import TimeoutError as RedisTimeoutError

from throneroom_server.store.notify import Address, channel_name

__all__ = ["BREAKER_HOLD_SECONDS", "GuardedCluster", "ShardBreaker", "ShardDown", "SlotRoute"]

log = structlog.get_logger(__name__)

BREAKER_HOLD_SECONDS = 0.5
"""How long a node that failed a call is refused before one call probes it."""


class ShardDown(RedisConnectionError):
    """A call for a node whose breaker is open: refused without trying it."""


class ShardBreaker:
    """Per node (``host:port``): up, down until a time, or down and probed.

    ``admit`` says whether a call may go to the node; a call admitted must
    end with ``failed`` (the node did not answer), ``succeeded`` (it
    answered, even with an error reply) or ``released`` (it ended otherwise,
    e.g. cancelled)."""

    def __init__(
        self, hold: float = BREAKER_HOLD_SECONDS, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.hold = hold
        self._clock = clock
        self._down: dict[str, float] = {}  # node -> refused until
        self._probing: set[str] = set()

    def admit(self, node: str) -> bool:
        until = self._down.get(node)
        if until is None:
            return True
        if self._clock() < until or node in self._probing:
            return False
        self._probing.add(node)  # half open: this call is the probe
        return True

    def failed(self, node: str) -> None:
        self._down[node] = self._clock() + self.hold
        self._probing.discard(node)

    def succeeded(self, node: str) -> None:
        self._down.pop(node, None)
        self._probing.discard(node)

    def released(self, node: str) -> None:
        self._probing.discard(node)

    def down(self) -> tuple[str, ...]:
        """The nodes refused now (or being probed), for logs and tests."""
        return tuple(sorted(self._down))


class GuardedCluster(RedisCluster):
    """``RedisCluster`` with a ``ShardBreaker`` in front of each keyed command.

    Two clients of one store (commands and blocking reads) share one breaker
    (``breaker=``), so a node found down by either is refused by both."""

    def __init__(self, *args: Any, breaker: ShardBreaker | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.breaker = breaker or ShardBreaker()

    async def execute_command(self, *args: Any, **kwargs: Any) -> Any:
        node = None if kwargs.get("target_nodes") is not None else await self._node_of(args)
        if node is None:
            return await super().execute_command(*args, **kwargs)
        if not self.breaker.admit(node):
            raise ShardDown(f"Redis node {node} failed a call just now; retry shortly")
        try:
            result = await super().execute_command(*args, **kwargs)
        except (RedisConnectionError, RedisTimeoutError, OSError):
            self.breaker.failed(node)
            raise
        except AttributeError as exc:
            # redis-py's race: a connection of the failed node torn down
            # (``disconnect_free_connections``) while a call writes on it
            # ("'NoneType' object has no attribute 'writelines'").
            self.breaker.failed(node)
            raise RedisConnectionError(f"connection to Redis node {node} closed") from exc
        except ResponseError:
            self.breaker.succeeded(node)  # it answered
            raise
        except BaseException:
            self.breaker.released(node)
            raise
        self.breaker.succeeded(node)
        return result

    async def _node_of(self, args: tuple[Any, ...]) -> str | None:
        """The name of the node serving the command's key now, or None when
        it has no key or the slot map is not loaded yet. A map marked stale
        by a failure still maps every slot (to the node that failed, until a
        rebuild shows its replica promoted), so it is read as it is."""
        try:
            slot = await self._determine_slot(*args)
        except (RedisClusterException, ResponseError, IndexError, KeyError, AttributeError):
            return None
        if slot is None:
            return None
        try:
            node = self.nodes_manager.get_node_from_slot(slot)
        except (RedisClusterException, IndexError, KeyError):
            return None
        return str(node.name)


class SlotRoute:
    """The node (host, port) whose connection carries a game's shard channel:
    the primary of the game's slot in the cluster client's map (``Route`` of
    ``notify.py``). ``stale`` refreshes the map in the background (a
    subscription refused or ended, a node lost): one refresh at a time, at
    most one per ``hold``; the channels concerned subscribe again meanwhile
    and fail fast until the map names a live node."""

    def __init__(
        self,
        cluster: RedisCluster,
        *,
        db: int = 0,
        hold: float = BREAKER_HOLD_SECONDS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._cluster = cluster
        self._db = db
        self.hold = hold
        self._clock = clock
        self._refreshing: asyncio.Task[None] | None = None
        self._last = -math.inf
        self.refreshes = 0  # map refreshes started (tests, logs)

    def __call__(self, game_id: str) -> Address:
        slot = self._cluster.keyslot(channel_name(game_id, self._db))
        try:
            node = self._cluster.nodes_manager.get_node_from_slot(slot)
        except (RedisClusterException, IndexError, KeyError) as exc:
            self.stale()
            raise RedisConnectionError(f"no Redis node serves slot {slot} now") from exc
        return str(node.host), int(node.port)

    def stale(self) -> None:
        refreshing = self._refreshing
        now = self._clock()
        if (refreshing is not None and not refreshing.done()) or now < self._last + self.hold:
            return
        self._last = now
        self.refreshes += 1
        self._refreshing = asyncio.get_running_loop().create_task(self._refresh())

    async def settled(self) -> None:
        """Until the refresh under way, if any, is done (its errors logged)."""
        refreshing = self._refreshing
        if refreshing is not None and not refreshing.done():
            await asyncio.shield(refreshing)

    async def _refresh(self) -> None:
        try:
            await self._cluster.nodes_manager.initialize()
        except (RedisError, OSError) as exc:  # the next stale() tries again
            log.info("cluster_slot_map_refresh_failed", error=type(exc).__name__)

    def close(self) -> None:
        if self._refreshing is not None:
            self._refreshing.cancel()
