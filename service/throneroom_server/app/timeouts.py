"""Clocks and timeouts: a seat whose time ran out loses its turn (or the game).

A game with a time control keeps each seat's clock in its record
(``clocks.py``); a move past the mover's deadline is refused and the timeout
applied instead. Every deadline is also in the store's deadline index, so
that some replica applies a timeout even when nobody moves: each replica's
sweeper (``Timeouts.run``) looks at the index once a second. Whoever gets
there first (a move, a sweeper) applies the timeout through the same
compare-and-set commit as a move, so it applies once, and a move and a
timeout racing for one version never both apply. The timeout is what the
time control says: the engine's first legal move for the seat, or a forfeit.
"""

from __future__ import annotations

import asyncio

import structlog
from throneroom.v1 import common_pb2, game_pb2, storage_pb2

from throneroom_server.app import clocks, records
from throneroom_server.app.commit import Committer
from throneroom_server.app.errors import AppError, ErrorKind
from throneroom_server.app.gateway import Gateway
from throneroom_server.app.lobby import Lobby
from throneroom_server.app.metrics import Metrics
from throneroom_server.games.kit.service import ServiceGame
from throneroom_server.store import Committed, LoadedGame, Store

log = structlog.get_logger("throneroom.app")

MAX_CLAIM_ROUNDS = 16
"""Rounds of one claim (load the game, apply the first late seat's timeout):
each may apply one timeout, or meet a version committed meanwhile and look again."""


def acting(game: ServiceGame, state: game_pb2.GameState) -> list[int]:
    """The seats to act (none once a seat lost on time)."""
    return [] if state.HasField("forfeit") else game.to_act(state)


def clock_after(
    game: ServiceGame,
    loaded: LoadedGame,
    mover: int,
    new_state: game_pb2.GameState,
    now_ms: int,
) -> storage_pb2.StoredClock | None:
    """The clocks after ``mover``'s move (None: the game has no time control)."""
    if loaded.clock is None or not loaded.meta.HasField("time_control"):
        return None
    if records.outcome_of(game, new_state) is not None:
        return clocks.stopped(loaded.clock)
    return clocks.after_move(
        loaded.meta.time_control,
        loaded.clock,
        mover=mover,
        acting_before=acting(game, loaded.state),
        acting_after=acting(game, new_state),
        now_ms=now_ms,
    )


def late_seats(game: ServiceGame, loaded: LoadedGame, now_ms: int) -> list[int]:
    """The seats to act whose time ran out by ``now_ms``."""
    if loaded.clock is None or records.outcome_of(game, loaded.state) is not None:
        return []
    return clocks.expired(loaded.clock, acting(game, loaded.state), now_ms)


class Timeouts:
    """The App's timeouts: claimed by a move that comes late or by the sweeper,
    through the gateway (a game loaded, its engine, store calls, the clock)
    and committed by the one commit step (``commit.py``)."""

    def __init__(
        self,
        store: Store,
        gateway: Gateway,
        committer: Committer,
        *,
        metrics: Metrics | None = None,
    ) -> None:
        self.store = store
        self.gateway = gateway
        self.committer = committer
        self.metrics = metrics

    async def claim(self, game_id: str) -> int:
        """Apply every timeout of the game that is due now, each through the
        same compare-and-set commit as a move (a move and a timeout racing for
        one version never both apply; two replicas claiming the same timeout
        apply it once). Returns how many this call applied."""
        applied = 0
        for _ in range(MAX_CLAIM_ROUNDS):
            now_ms = self.gateway.now_ms()
            try:
                loaded = await self.gateway.load(game_id)
            except AppError as error:
                if error.kind is ErrorKind.NOT_FOUND:
                    return applied
                raise
            game = self.gateway.game_of(loaded)
            late = late_seats(game, loaded, now_ms)
            if not late:
                return applied
            if await self._apply(game, loaded, late[0]):
                applied += 1
        return applied

    async def _apply(self, game: ServiceGame, loaded: LoadedGame, seat: int) -> bool:
        """Commit the timeout of ``seat`` as of its deadline; False if another
        commit got there first (the caller reloads and looks again)."""
        assert loaded.clock is not None
        control = loaded.meta.time_control
        at_ms = loaded.clock.deadline_ms[seat]
        acting_before = acting(game, loaded.state)
        entry = storage_pb2.StoredEntry(version=loaded.version + 1, seat=seat, timeout=True)
        if control.on_timeout == common_pb2.TIMEOUT_POLICY_DEFAULT_MOVE:
            move = game.legal_moves(loaded.state, seat)[0]  # the engine's first
            new_state, events = game.apply(loaded.state, seat, move)
            entry.move.CopyFrom(move)
            entry.events.extend(events)
            clock = clocks.after_move(
                control,
                loaded.clock,
                mover=seat,
                acting_before=acting_before,
                acting_after=acting(game, new_state),
                now_ms=at_ms,
            )
            if records.outcome_of(game, new_state) is not None:
                clock = clocks.stopped(clock)
        else:
            new_state = records.forfeited(loaded.state, seat, loaded.meta.num_seats)
            clock = clocks.stopped(loaded.clock)
        result = await self.committer.commit(
            game, loaded, new_state, entry, idempotency_key="", clock=clock
        )
        if isinstance(result, Committed):
            log.info("timeout_applied", game_id=loaded.game_id, seat=seat, version=result.version)
            if self.metrics is not None:
                self.metrics.timeouts.labels(loaded.meta.game_type).inc()
            return True
        return False

    async def sweep(self, limit: int = 100) -> int:
        """One pass of this replica's sweeper over the deadline index: claim
        what is due, then note each game's next deadline. Returns the number
        of timeouts this pass applied."""
        store, guard = self.store, self.gateway.guard
        applied = 0
        due = await guard(store.due_deadlines(self.gateway.now_ms(), limit))
        for game_id, seen in due:
            applied += await self.claim(game_id)
            try:
                loaded = await self.gateway.load(game_id)
            except AppError as error:
                if error.kind is not ErrorKind.NOT_FOUND:
                    raise
                await guard(store.reschedule_deadline(game_id, seen, None))
                continue
            running = None
            game = self.gateway.game_of(loaded)
            if loaded.clock is not None and records.outcome_of(game, loaded.state) is None:
                running = clocks.next_deadline(loaded.clock)
            await guard(store.reschedule_deadline(game_id, seen, running))
        return applied

    async def run(self, interval_seconds: float, lobby: Lobby, closing: asyncio.Event) -> None:
        """Sweep every ``interval_seconds`` until ``closing`` is set (a background
        task): the clocks' deadlines, and a step of the lobby's retention sweep."""
        while not closing.is_set():
            await lobby.sweep()
            try:
                await self.sweep()
            except AppError as error:  # the store is down: try again next round
                log.warning("timeout_sweep_failed", reason=error.reason)
            try:
                await asyncio.wait_for(closing.wait(), interval_seconds)
            except TimeoutError:
                continue
