"""Game storage: the Store protocol and its Redis and in-memory implementations."""

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
    Store,
    StoreError,
    StoreFull,
    StoreGameNotFound,
    StoreMisconfigured,
    StoreNotReplicated,
    StoreUnavailable,
)

__all__ = [
    "CommitResult",
    "Committed",
    "Duplicate",
    "GameAlreadyExists",
    "GameFull",
    "LoadedGame",
    "Retention",
    "SeatTaken",
    "Stale",
    "Store",
    "StoreError",
    "StoreFull",
    "StoreGameNotFound",
    "StoreMisconfigured",
    "StoreNotReplicated",
    "StoreUnavailable",
]
