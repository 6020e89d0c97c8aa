"""A game's history with the state after every version.

The store keeps each version's seat, move, events and clocks, but the state
after a move only at checkpoints (``store.base.keeps_state``: every
``CHECKPOINT_EVERY``-th version, and versions no move made) and the current
state in the game's record. ``History`` gives entries their states back: it
replays the moves since the nearest checkpoint before them (version 0: the
game's setup from its meta) with the pure engine, which gives the same state
byte for byte (engines are deterministic). Entries that carry their state
(checkpoints, and every entry an earlier release wrote) are taken as they are.

Who needs states: a watch's catch-up and a retried move's first answer (the
views of a past version), and each replica's watch feed (``watch.py``), which
follows the moves it reads from the state it holds, one ``apply`` per move.
History pages and records need only the entries.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from throneroom.v1 import game_pb2, storage_pb2

from throneroom_server.games.core import GameError
from throneroom_server.games.kit.service import ServiceGame
from throneroom_server.store import Store, StoreUnavailable
from throneroom_server.store.base import CHECKPOINT_EVERY


class HistoryUnreadable(StoreUnavailable):
    """The stored entries do not give a version's state (entries missing, or
    a move the engine refuses): the store's answer is unusable, as when it
    cannot be reached."""


class History:
    """Reads entries with their states (the module's docstring)."""

    def __init__(self, store: Store, games: Mapping[str, ServiceGame]) -> None:
        self.store = store
        self.games = games

    async def entries(
        self,
        game_id: str,
        after_version: int,
        limit: int,
        *,
        meta: storage_pb2.StoredGameMeta | None = None,
        held: tuple[int, game_pb2.GameState] | None = None,
    ) -> list[storage_pb2.StoredEntry]:
        """Up to ``limit`` entries after ``after_version``, oldest first, each
        with the state after it. ``held``: a (version, state) the caller has
        (used when it is ``after_version``'s); ``meta``: the game's, if known."""
        entries = list(await self.store.read_entries(game_id, after_version, limit))
        if not entries or entries[0].HasField("state"):
            self.follow(None, entries)
            return entries
        if held is not None and held[0] == after_version:
            base = held[1]
        else:
            base = await self.state_at(game_id, after_version, meta=meta)
        self.follow(base, entries)
        return entries

    async def state_at(
        self, game_id: str, version: int, *, meta: storage_pb2.StoredGameMeta | None = None
    ) -> game_pb2.GameState:
        """The state after ``version``: from the nearest checkpoint at or before it."""
        start = version - version % CHECKPOINT_EVERY
        while start > 0:
            entries = list(await self.store.read_entries(game_id, start - 1, version - start + 1))
            if len(entries) != version - start + 1 or entries[0].version != start:
                raise HistoryUnreadable(f"game {game_id}: versions {start}..{version} are missing")
            if entries[0].HasField("state"):
                return self.follow(None, entries)
            start -= CHECKPOINT_EVERY  # (no checkpoint here: look further back)
        if meta is None:
            loaded = await self.store.load(game_id)
            if loaded.version == version:
                return loaded.state
            meta = loaded.meta
        game = self.games.get(meta.game_type)
        if game is None:
            raise HistoryUnreadable(f"this server does not play {meta.game_type!r}")
        state = game.setup(meta.options, meta.num_seats, meta.seed)
        entries = list(await self.store.read_entries(game_id, 0, version)) if version else []
        if len(entries) != version:
            raise HistoryUnreadable(f"game {game_id}: versions 1..{version} are missing")
        return self.follow(state, entries) if entries else state

    def follow(
        self, state: game_pb2.GameState | None, entries: Sequence[storage_pb2.StoredEntry]
    ) -> game_pb2.GameState:
        """Give each of ``entries`` (consecutive versions after ``state``'s)
        its state: its own, or its move applied to the one before. Returns
        the last one (``state`` when there are no entries)."""
        for entry in entries:
            if not entry.HasField("state"):
                if state is None:
                    raise HistoryUnreadable(f"no state before version {entry.version}")
                entry.state.CopyFrom(self.after(state, entry))
            state = entry.state
        if state is None:
            raise HistoryUnreadable("no state to follow")
        return state

    def after(
        self, state: game_pb2.GameState, entry: storage_pb2.StoredEntry
    ) -> game_pb2.GameState:
        """The state after ``entry``'s move, applied to ``state`` (the one before)."""
        name = entry.move.WhichOneof("game")
        game = self.games.get(name or "")
        if game is None:
            raise HistoryUnreadable(f"version {entry.version} has no move this server plays")
        try:
            after, _ = game.apply(state, entry.seat, entry.move)
        except GameError as exc:
            raise HistoryUnreadable(f"version {entry.version} does not replay: {exc}") from exc
        return after
