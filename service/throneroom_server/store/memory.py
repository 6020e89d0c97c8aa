"""MemoryStore: the embedded default store (one process, nothing persisted).

Records are kept serialized, exactly as Redis keeps them, so no mutable
message is ever shared between requests.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass, field

from throneroom.v1 import game_pb2, storage_pb2

from throneroom_server.store.base import (
    CommitResult,
    Committed,
    Duplicate,
    GameAlreadyExists,
    GameFull,
    LoadedGame,
    SeatTaken,
    Stale,
    StoreGameNotFound,
    entry_bytes,
)


@dataclass
class _Game:
    meta: bytes
    state: bytes
    version: int = 0
    seats: dict[int, bytes] = field(default_factory=dict)
    idempotency: dict[str, int] = field(default_factory=dict)
    entries: list[bytes] = field(default_factory=list)
    changed: asyncio.Event = field(default_factory=asyncio.Event)


class MemoryStore:
    def __init__(self) -> None:
        self._games: dict[str, _Game] = {}

    def _get(self, game_id: str) -> _Game:
        try:
            return self._games[game_id]
        except KeyError:
            raise StoreGameNotFound(game_id) from None

    async def create_game(
        self, game_id: str, meta: storage_pb2.StoredGameMeta, state: game_pb2.GameState
    ) -> None:
        if game_id in self._games:
            raise GameAlreadyExists(game_id)
        self._games[game_id] = _Game(
            meta=meta.SerializeToString(), state=state.SerializeToString(deterministic=True)
        )

    async def load(self, game_id: str, *, idempotency_key: str = "") -> LoadedGame:
        game = self._get(game_id)
        return LoadedGame(
            game_id=game_id,
            meta=storage_pb2.StoredGameMeta.FromString(game.meta),
            version=game.version,
            state=game_pb2.GameState.FromString(game.state),
            seats={s: storage_pb2.StoredSeat.FromString(b) for s, b in game.seats.items()},
            idempotent_version=game.idempotency.get(idempotency_key) if idempotency_key else None,
        )

    async def claim_seat(
        self, game_id: str, seat: int | None, num_seats: int, record: storage_pb2.StoredSeat
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
        return chosen

    async def commit(
        self,
        game_id: str,
        expected_version: int,
        state: game_pb2.GameState,
        entry: storage_pb2.StoredEntry,
        idempotency_key: str,
    ) -> CommitResult:
        game = self._get(game_id)
        # No await between the checks and the writes: atomic on the event loop.
        if idempotency_key and idempotency_key in game.idempotency:
            return Duplicate(game.idempotency[idempotency_key])
        if game.version != expected_version:
            return Stale(game.version)
        game.version += 1
        game.state = state.SerializeToString(deterministic=True)
        game.entries.append(entry_bytes(entry, game.state))
        if idempotency_key:
            game.idempotency[idempotency_key] = game.version
        game.changed.set()
        game.changed = asyncio.Event()
        return Committed(game.version)

    async def read_entries(
        self, game_id: str, after_version: int, limit: int
    ) -> Sequence[storage_pb2.StoredEntry]:
        game = self._get(game_id)
        chunk = game.entries[after_version : after_version + limit]
        return [storage_pb2.StoredEntry.FromString(b) for b in chunk]

    async def wait_entries(
        self, game_id: str, after_version: int, timeout: float, limit: int = 100
    ) -> Sequence[storage_pb2.StoredEntry]:
        game = self._get(game_id)
        if game.version <= after_version:
            changed = game.changed
            try:
                await asyncio.wait_for(changed.wait(), timeout)
            except TimeoutError:
                return []
        return await self.read_entries(game_id, after_version, limit)

    async def ping(self) -> None:
        return None

    async def close(self) -> None:
        return None
