"""What the sync and asyncio clients share: defaults, the read-only face of a
game handle and the bookkeeping of a resumable watch (the retry policy is in
:mod:`throneroom.retry`)."""

from __future__ import annotations

import os
import uuid
from collections.abc import Mapping

import grpc
from google.protobuf.message import Message

from throneroom.envelopes import game_type_of, message_class, unwrap
from throneroom.errors import Unauthenticated
from throneroom.retry import NO_RETRY, RetryPolicy
from throneroom.v1 import common_pb2, game_pb2, service_pb2

DEFAULT_ADDRESS = "127.0.0.1:50051"
ADDRESS_ENV = "THRONEROOM_SERVER"
#: Seconds one attempt of a unary request may take (``RetryPolicy.attempt_timeout``).
DEFAULT_TIMEOUT = RetryPolicy().attempt_timeout
#: Seconds between the server's heartbeats on a watch stream.
DEFAULT_HEARTBEAT_SECONDS = 10
#: First and longest wait between snapshot reads while a game waits for seats.
START_POLL_SECONDS = (0.05, 1.0)

__all__ = [
    "ADDRESS_ENV",
    "DEFAULT_ADDRESS",
    "DEFAULT_HEARTBEAT_SECONDS",
    "DEFAULT_TIMEOUT",
    "NO_RETRY",
    "START_POLL_SECONDS",
    "STATUS_FILTERS",
    "HandleState",
    "RetryPolicy",
    "VersionGapError",
    "WatchCursor",
    "default_address",
    "list_games_request",
    "new_idempotency_key",
    "silence_limit",
    "spectator_error",
]


def default_address() -> str:
    """``$THRONEROOM_SERVER`` or ``127.0.0.1:50051``."""
    return os.environ.get(ADDRESS_ENV) or DEFAULT_ADDRESS


#: The lobby's status filters by name (``list_games(status=...)``, ``throneroom lobby``).
STATUS_FILTERS: Mapping[str, service_pb2.GameStatusFilter.ValueType] = {
    "any": service_pb2.GAME_STATUS_FILTER_ANY,
    "open": service_pb2.GAME_STATUS_FILTER_OPEN,
    "started": service_pb2.GAME_STATUS_FILTER_STARTED,
    "finished": service_pb2.GAME_STATUS_FILTER_FINISHED,
}


def list_games_request(
    game_type: str, status: str, page_size: int, page_token: str
) -> service_pb2.ListGamesRequest:
    """One page's request of the lobby; ``status`` is a name of :data:`STATUS_FILTERS`."""
    if status not in STATUS_FILTERS:
        raise ValueError(f"unknown status {status!r}: one of {', '.join(STATUS_FILTERS)}")
    if not 0 <= page_size <= 100:
        raise ValueError(f"page_size {page_size} is outside 0-100 (0: the server's 20)")
    return service_pb2.ListGamesRequest(
        game_type=game_type,
        status=STATUS_FILTERS[status],
        page_size=page_size,
        page_token=page_token,
    )


def new_idempotency_key() -> str:
    """A fresh idempotency key for one decision (a random UUID, 32 hex digits)."""
    return uuid.uuid4().hex


def spectator_error() -> Unauthenticated:
    return Unauthenticated(
        "a spectator's handle has no seat token: join or attach to a seat to do this",
        code=grpc.StatusCode.UNAUTHENTICATED,
        reason="SEAT_TOKEN_REQUIRED",
    )


class HandleState:
    """The read-only face of a game handle: one viewer's last snapshot.

    Everything here reads the last :class:`GameSnapshot` seen (from a refresh,
    a move or a watch update) without touching the network.
    """

    game_id: str
    token: str | None
    _seat: int | None
    _snapshot: service_pb2.GameSnapshot

    def _init_state(self, game_id: str, seat: int | None, token: str | None) -> None:
        self.game_id = game_id
        self._seat = seat
        self.token = token
        self._snapshot = service_pb2.GameSnapshot(game_id=game_id)
        if seat is not None:
            self._snapshot.viewer_seat = seat

    def _remember(self, snapshot: service_pb2.GameSnapshot) -> None:
        """Keep ``snapshot`` unless it is older than the one already held."""
        if snapshot.game_id and (
            snapshot.version >= self._snapshot.version or not self._snapshot.game_type
        ):
            self._snapshot = snapshot
            if self._seat is None and snapshot.HasField("viewer_seat"):
                self._seat = snapshot.viewer_seat

    def _require_token(self) -> str:
        if not self.token:
            raise spectator_error()
        return self.token

    @property
    def snapshot(self) -> service_pb2.GameSnapshot:
        """The last snapshot seen (the game as this viewer sees it)."""
        return self._snapshot

    @property
    def seat(self) -> int | None:
        """This handle's seat, or ``None`` for a spectator."""
        return self._seat

    @property
    def is_spectator(self) -> bool:
        return self.token is None

    @property
    def game_type(self) -> str:
        return self._snapshot.game_type

    @property
    def version(self) -> int:
        return self._snapshot.version

    @property
    def to_act(self) -> tuple[int, ...]:
        """The seats that must act now (several: a simultaneous decision)."""
        return tuple(self._snapshot.to_act)

    @property
    def my_turn(self) -> bool:
        """True when the game has begun and this handle's seat is among the seats that must act."""
        return (
            self._seat is not None
            and self._snapshot.started
            and self._seat in self._snapshot.to_act
        )

    @property
    def started(self) -> bool:
        """True once every seat is taken (moves are accepted only then)."""
        return self._snapshot.started

    @property
    def finished(self) -> bool:
        return self._snapshot.finished

    @property
    def outcome(self) -> common_pb2.Outcome | None:
        """How the game ended, or ``None`` while it goes on."""
        return self._snapshot.outcome if self._snapshot.finished else None

    @property
    def winners(self) -> tuple[int, ...]:
        return tuple(self._snapshot.outcome.winners) if self._snapshot.finished else ()

    @property
    def view_envelope(self) -> game_pb2.View:
        """The ``View`` envelope of the last snapshot (what bots receive)."""
        return self._snapshot.view

    @property
    def view(self) -> Message:
        """The game's own view message (e.g. a ``NimView``) of the last snapshot."""
        if game_type_of(self._snapshot.view):
            return unwrap(self._snapshot.view)
        return message_class(game_pb2.View, self._snapshot.game_type)()

    def __repr__(self) -> str:
        who = "spectator" if self._seat is None else f"seat {self._seat}"
        state = "finished" if self.finished else f"to_act={list(self.to_act)}"
        return (
            f"<{type(self).__name__} {self.game_type or '?'} {self.game_id} {who} "
            f"v{self.version} {state}>"
        )


class VersionGapError(Exception):
    """A watch stream skipped a version: the SDK reconnects from the last one seen."""


class WatchCursor:
    """Delivers each version of a game once, in order, across reconnections.

    With ``include_current`` the first update may be the version the watch
    starts from (the server's ``include_current``: "this is where the game
    is"); once anything is delivered, only later versions are.
    """

    def __init__(
        self, last_version: int, *, include_current: bool = False, with_legal_moves: bool = False
    ) -> None:
        self.last_version = last_version
        self.include_current = include_current
        self.with_legal_moves = with_legal_moves
        self.finished = False

    def accept(self, update: service_pb2.GameUpdate) -> bool:
        """True if ``update`` is the next version to deliver, False if already seen.

        Raises :class:`VersionGapError` if the stream jumped over a version.
        """
        current = self.include_current and update.version == self.last_version
        if update.version <= self.last_version and not current:
            return False
        if update.version > self.last_version + 1:
            raise VersionGapError(
                f"watch stream jumped from version {self.last_version} to {update.version}"
            )
        self.last_version = update.version
        self.include_current = False
        self.finished = update.snapshot.finished
        return True

    def request(
        self, game_id: str, token: str | None, heartbeat_seconds: int
    ) -> service_pb2.WatchGameRequest:
        return service_pb2.WatchGameRequest(
            game_id=game_id,
            seat_token=token or "",
            from_version=self.last_version,
            heartbeat_seconds=heartbeat_seconds,
            include_current=self.include_current,
            with_legal_moves=self.with_legal_moves and bool(token),
        )


def silence_limit(heartbeat_seconds: int) -> float:
    """Seconds without a message after which a watch stream is presumed dead."""
    return 3.0 * heartbeat_seconds + 2.0
