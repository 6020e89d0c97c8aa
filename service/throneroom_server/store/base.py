"""The Store protocol: what the app layer needs from a game store.

A game is kept as:
* its meta (immutable after creation) and seats (each claimed once);
* its current version and current state (version 0 = the initial state);
* one entry per committed move (``StoredEntry``: seat, move, events, clocks,
  an 8-byte digest of the request), readable by version and waitable, so any
  replica can serve history and watchers. Only *checkpoints* also keep the
  state after their move (``keeps_state``: every ``CHECKPOINT_EVERY``-th
  version, and a version no move made, a timeout's forfeit); the states in
  between are replayed from the nearest checkpoint with the pure engine
  (``app/history.py``). Entries written by earlier releases keep a state
  each, and are read as they are;
* its idempotency keys, each as an 8-byte digest (``key_digest``) mapped to
  the version its move created.

``commit`` is the one write on the move path and is atomic: check the
expected version, write the state, append the entry, record the idempotency
key, bump the version -- all or nothing.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

from throneroom.games.messages import varint
from throneroom.v1 import game_pb2, storage_pb2

from throneroom_server.store.lobby import GamePage, LobbyStatus

MAX_SEATS = 8
"""Every game plays with at most this many seats (King's Life: 8)."""

_ENTRY_STATE_TAG = bytes([(5 << 3) | 2])  # StoredEntry.state: field 5, length-delimited

CHECKPOINT_EVERY = 16
"""Every this many versions an entry keeps the state after its move."""

DIGEST_BYTES = 8
"""Idempotency keys and requests are kept as this many bytes of their SHA-256."""


def keeps_state(entry: storage_pb2.StoredEntry) -> bool:
    """Whether the entry is a checkpoint, stored with the state after it: every
    ``CHECKPOINT_EVERY``-th version, and a version without a move (a timeout's
    forfeit, which no engine move replays)."""
    return entry.version % CHECKPOINT_EVERY == 0 or not entry.HasField("move")


def key_digest(idempotency_key: str) -> bytes:
    """The 8 bytes an idempotency key is stored as ("" for none: no key)."""
    if not idempotency_key:
        return b""
    return hashlib.sha256(idempotency_key.encode()).digest()[:DIGEST_BYTES]


def with_state(entry_data: bytes, state_bytes: bytes) -> bytes:
    """A serialized entry with ``state`` set to the serialized state
    (protobuf messages concatenate)."""
    return entry_data + _ENTRY_STATE_TAG + varint(len(state_bytes)) + state_bytes


class StoreError(Exception):
    """Base of the store's errors."""


class StoreUnavailable(StoreError):
    """The backing store cannot be reached."""


class StoreNotReplicated(StoreUnavailable):
    """The commit was written on the primary but fewer replicas than asked
    (``THRONEROOM_REDIS_MIN_REPLICAS_ACKED``) confirmed it in time: it must not
    be reported as done. A retry with the same idempotency key finds it and
    answers once it is replicated."""


class StoreMisconfigured(StoreError):
    """The store answers but is not what the settings say (a Redis Cluster
    node without ``THRONEROOM_REDIS_CLUSTER``): found at start-up, fatal."""


class StoreFull(StoreError):
    """The store refuses writes for lack of memory (Redis at its ``maxmemory``
    with the ``noeviction`` policy). Nothing was written."""


class StoreGameNotFound(StoreError):
    """No game with this id."""


class GameAlreadyExists(StoreError):
    """A game with this id exists already (ids are random; practically never)."""


class SeatTaken(StoreError):
    """The requested seat has been claimed already."""


class GameFull(StoreError):
    """Every seat has been claimed."""


@dataclass(frozen=True)
class Retention:
    """How long games are kept (every write renews the clock).

    A game with no write (create, join, move) for ``idle_seconds`` is
    abandoned and removed with all its keys (entries and idempotency records
    included); a finished game is removed ``finished_seconds`` after its last
    move. ``None`` keeps games forever (tests and embedding only).
    """

    idle_seconds: float | None = 14 * 24 * 3600.0
    finished_seconds: float | None = 7 * 24 * 3600.0
    finished_log_seconds: float = 60.0
    """On Redis, how long a finished game's stream is kept beside the copy of
    its entries that the finishing commit makes (``redis_layout.py``): its
    watchers read the last move from it meanwhile."""

    def ttl_ms(self, *, finished: bool) -> int:
        """The time to live of a game's keys after a write, in ms (0 = none)."""
        seconds = self.finished_seconds if finished else self.idle_seconds
        return 0 if seconds is None else max(1, round(seconds * 1000))


KEEP_FOREVER = Retention(idle_seconds=None, finished_seconds=None)


@dataclass(frozen=True)
class LoadedGame:
    game_id: str
    meta: storage_pb2.StoredGameMeta
    version: int
    state: game_pb2.GameState
    seats: Mapping[int, storage_pb2.StoredSeat]
    idempotent_version: int | None
    """The version created by the move with the requested idempotency key, if
    that key was used already."""
    clock: storage_pb2.StoredClock | None = None
    """The clocks at the current version (games with a time control, once started)."""


@dataclass(frozen=True)
class Committed:
    version: int


@dataclass(frozen=True)
class Stale:
    current_version: int


@dataclass(frozen=True)
class Duplicate:
    """The idempotency key was recorded meanwhile (a concurrent retry)."""

    version: int


CommitResult = Committed | Stale | Duplicate


class Store(Protocol):
    async def confirm_replicated(self) -> None:
        """Return once what this store has written so far is confirmed by the
        replicas the settings ask for (nothing to wait for without them); else
        raise StoreNotReplicated. Answering a retried move from its first
        result waits here, as the first answer waited in ``commit``."""
        ...

    async def create_game(
        self, game_id: str, meta: storage_pb2.StoredGameMeta, state: game_pb2.GameState
    ) -> None:
        """Store a new game at version 0. Raises GameAlreadyExists."""
        ...

    async def load(self, game_id: str, *, idempotency_key: str = "") -> LoadedGame:
        """The game's current version, state, meta and seats (one round trip).
        Raises StoreGameNotFound."""
        ...

    async def claim_seat(
        self,
        game_id: str,
        seat: int | None,
        num_seats: int,
        record: storage_pb2.StoredSeat,
        *,
        clock_if_full: storage_pb2.StoredClock | None = None,
    ) -> int:
        """Atomically claim ``seat`` (or the lowest free seat when None), and
        when that takes the last free seat, store ``clock_if_full`` as the
        game's clocks (they start with the game). Raises StoreGameNotFound,
        SeatTaken or GameFull."""
        ...

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
        """Atomically: if the version is ``expected_version`` and the key is new,
        write ``state`` (and ``clock``, the clocks after the move, when given),
        append ``entry`` (passed without a state; its version must be
        expected_version + 1), with that state when it is a checkpoint
        (``keeps_state``), record the key and bump the version. ``finished``
        (the move ended the game) switches the game to the finished retention.
        Raises StoreFull when the store refuses writes (nothing written)."""
        ...

    async def read_entries(
        self, game_id: str, after_version: int, limit: int
    ) -> Sequence[storage_pb2.StoredEntry]:
        """Up to ``limit`` entries with version > after_version, oldest first;
        only checkpoints (and entries of earlier releases) carry a state
        (``app/history.py`` fills in the others)."""
        ...

    async def wait_entries(
        self,
        game_id: str,
        after_version: int,
        timeout: float,
        limit: int = 100,
        *,
        seen: Callable[[], int] | None = None,
    ) -> Sequence[storage_pb2.StoredEntry]:
        """Like read_entries, but waits up to ``timeout`` seconds for at least
        one. ``seen``: asked when the read returns, the newest version the
        caller already holds; the entries up to it are left out, unparsed (a
        replica's feed holds the versions it committed itself, watch.py)."""
        ...

    def waiting(self, game_id: str) -> int:
        """How many ``wait_entries`` calls on the game are asleep now, until a
        commit (or a notification of one) or their timeout wakes them: there
        for tests and operators, to tell that a watch is waiting (counted from
        what the waits hold; nothing on the move path). Where Redis is read
        with XREAD BLOCK (a cluster; TLS and unix-socket URLs), the reads sent
        or being sent (Redis may not hold them yet)."""
        ...

    async def schedule_deadline(self, game_id: str, at_ms: int) -> None:
        """Note that ``game_id`` has a clock running out at ``at_ms`` (the
        deadline index every replica's sweeper reads). An earlier entry of the
        game is kept: the index holds the earliest time to look again."""
        ...

    async def due_deadlines(self, now_ms: int, limit: int) -> Sequence[tuple[str, int]]:
        """Up to ``limit`` (game id, noted time) whose noted time is at or
        before ``now_ms``, earliest first."""
        ...

    async def reschedule_deadline(self, game_id: str, seen_ms: int, next_ms: int | None) -> None:
        """Replace the game's index entry noted at ``seen_ms`` by ``next_ms``
        (None: remove it), unless it changed meanwhile (a newer commit noted
        an earlier time: that one stays)."""
        ...

    async def list_games(
        self, game_type: str, status: LobbyStatus | None, limit: int, after: str
    ) -> GamePage:
        """The lobby (``lobby.py``): up to ``limit`` games of ``game_type``
        ("" = any) in ``status`` (None = any), newest first, after the cursor
        ``after`` ("" = from the newest), each as its own record says."""
        ...

    async def sweep_lobby(self, limit: int) -> int:
        """One step of the lobby's retention sweep: look at up to ``limit``
        index entries after the previous step's, drop those whose game is
        gone and move the others to their record's status. Returns how many
        were dropped."""
        ...

    async def take_tokens(
        self, bucket: str, capacity: float, per_second: float, cost: float = 1.0
    ) -> float:
        """A token bucket shared by every replica on this store: take ``cost``
        tokens from ``bucket`` (full at ``capacity``, refilled at
        ``per_second``). Returns 0.0 when taken, else the seconds until enough
        tokens will be there (nothing taken)."""
        ...

    async def ping(self) -> None:
        """Raise StoreUnavailable if the store cannot be reached."""
        ...

    async def close(self) -> None: ...
