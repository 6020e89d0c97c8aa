"""Application errors: a kind (mapped to a gRPC status by the transport), a
stable machine-readable reason, an English sentence and optional metadata.

Messages go to clients: they never carry internal detail (addresses, driver
text); such detail is logged server-side instead (see ``store_unavailable``).
They are also bounded (``MAX_MESSAGE_CHARS``), so an error that quotes a
client's input can never outgrow gRPC's trailing-metadata limit.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping

import structlog

log = structlog.get_logger("throneroom.errors")

MAX_MESSAGE_CHARS = 1024


class ErrorKind(enum.Enum):
    INVALID_ARGUMENT = "INVALID_ARGUMENT"
    FAILED_PRECONDITION = "FAILED_PRECONDITION"
    ABORTED = "ABORTED"
    UNAUTHENTICATED = "UNAUTHENTICATED"
    PERMISSION_DENIED = "PERMISSION_DENIED"
    NOT_FOUND = "NOT_FOUND"
    UNAVAILABLE = "UNAVAILABLE"
    RESOURCE_EXHAUSTED = "RESOURCE_EXHAUSTED"


class AppError(Exception):
    def __init__(
        self,
        kind: ErrorKind,
        reason: str,
        message: str,
        metadata: Mapping[str, str] | None = None,
        *,
        retry_after: float | None = None,
    ) -> None:
        if len(message) > MAX_MESSAGE_CHARS:
            message = message[: MAX_MESSAGE_CHARS - 1] + "\u2026"
        super().__init__(message)
        self.kind = kind
        self.reason = reason
        self.message = message
        self.metadata = dict(metadata or {})
        self.retry_after = retry_after
        """Seconds the client should wait before retrying (google.rpc.RetryInfo,
        HTTP Retry-After), when the service knows."""

    def __repr__(self) -> str:
        return f"AppError({self.kind.value}, {self.reason}, {self.message!r})"


def invalid(reason: str, message: str) -> AppError:
    return AppError(ErrorKind.INVALID_ARGUMENT, reason, message)


def precondition(reason: str, message: str) -> AppError:
    return AppError(ErrorKind.FAILED_PRECONDITION, reason, message)


def game_not_found(game_id: str) -> AppError:
    return AppError(ErrorKind.NOT_FOUND, "GAME_NOT_FOUND", f"no game with id {game_id!r}")


def stale_version(expected: int, current: int) -> AppError:
    return AppError(
        ErrorKind.ABORTED,
        "STALE_VERSION",
        f"the move was chosen at version {expected} but the game is at version {current}",
        {"current_version": str(current)},
    )


def store_unavailable(detail: str) -> AppError:
    """The client learns only that the store is down; ``detail`` (the driver's
    text, which names hosts and ports) goes to the server's log."""
    log.warning("store_unavailable", detail=detail)
    return AppError(
        ErrorKind.UNAVAILABLE, "STORE_UNAVAILABLE", "the game store is unavailable; retry"
    )


def not_replicated(detail: str) -> AppError:
    """A move written on the primary that too few replicas confirmed in time
    (THRONEROOM_REDIS_MIN_REPLICAS_ACKED): not done yet as far as the client
    knows; retrying with the same idempotency key answers it once replicated."""
    log.warning("commit_not_replicated", detail=detail)
    return AppError(
        ErrorKind.UNAVAILABLE,
        "NOT_REPLICATED",
        "the move is not yet confirmed by enough replicas; retry it with the same idempotency key",
        retry_after=1.0,
    )


def shutting_down() -> AppError:
    """A stream this replica ends because it is shutting down (not because the
    game is over): the client resumes on another replica from its last version."""
    return AppError(
        ErrorKind.UNAVAILABLE,
        "SHUTTING_DOWN",
        "the server is shutting down; resume from your last version (another replica serves it)",
        retry_after=1.0,
    )


def exhausted(reason: str, message: str, *, retry_after: float | None = None) -> AppError:
    """A limit or quota is reached (RESOURCE_EXHAUSTED, HTTP 429)."""
    return AppError(ErrorKind.RESOURCE_EXHAUSTED, reason, message, retry_after=retry_after)


def store_full() -> AppError:
    return AppError(
        ErrorKind.RESOURCE_EXHAUSTED,
        "STORE_FULL",
        "the game store is out of memory and refuses writes; nothing was changed, retry later",
        retry_after=5.0,
    )
