"""The commit step: one move's record written by the store's compare-and-set.

Every path that commits a move goes through ``Committer.commit``: a seat's
move (``moves.py``, from a unary call or a play session's fast path) and a
timeout (``timeouts.py``). It puts the clocks' next deadline in the store's
deadline index first, commits (check the version and the idempotency key,
write the state, append the entry, bump the version: all or nothing) and
hands a committed version to this replica's watchers at once (``watch.py``).
What a result means to its caller (a replay for ``Duplicate``, another
attempt for ``Stale``) is the caller's.
"""

from __future__ import annotations

from throneroom.v1 import game_pb2, storage_pb2

from throneroom_server.app import clocks, records
from throneroom_server.app.gateway import Gateway, store_error
from throneroom_server.app.watch import WatchHub
from throneroom_server.games.kit.service import ServiceGame
from throneroom_server.store import (
    CommitResult,
    Committed,
    LoadedGame,
    Store,
    StoreFull,
    StoreGameNotFound,
    StoreUnavailable,
)


class Committer:
    """Commits entries to the store and publishes them to the replica's watchers."""

    def __init__(self, store: Store, gateway: Gateway, watch_hub: WatchHub) -> None:
        self.store = store
        self.gateway = gateway
        self.watch_hub = watch_hub

    async def note_deadline(self, game_id: str, clock: storage_pb2.StoredClock) -> None:
        """Put the clocks' next deadline in the index *before* the commit that
        makes it real: a crash between the two leaves an entry the sweeper
        finds stale and drops, never a deadline nobody watches."""
        deadline = clocks.next_deadline(clock)
        if deadline is not None:
            await self.gateway.guard(self.store.schedule_deadline(game_id, deadline))

    async def commit(
        self,
        game: ServiceGame,
        loaded: LoadedGame,
        state: game_pb2.GameState,
        entry: storage_pb2.StoredEntry,
        *,
        idempotency_key: str,
        clock: storage_pb2.StoredClock | None,
    ) -> CommitResult:
        """Commit ``entry`` (the version after ``loaded``'s) and the ``state``
        it makes, with the ``clock`` after it (None: no time control), as the
        version after ``loaded.version`` under ``idempotency_key`` ("" for
        none)."""
        game_id = loaded.game_id
        if clock is not None:
            entry.clock.CopyFrom(clock)
            await self.note_deadline(game_id, clock)
        try:  # (Gateway.guard, inline: the hot path)
            result = await self.store.commit(
                game_id,
                loaded.version,
                state,
                entry,
                idempotency_key,
                finished=records.outcome_of(game, state) is not None,
                clock=clock,
            )
        except (StoreUnavailable, StoreFull, StoreGameNotFound) as exc:
            raise store_error(exc) from exc
        if isinstance(result, Committed):
            # This replica's watchers get the entry now, unparsed (watch.py).
            self.watch_hub.publish(game_id, entry, state)
        return result
