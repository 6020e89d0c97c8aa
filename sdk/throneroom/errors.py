"""Typed exceptions for every error the Throneroom service returns.

The service attaches a ``google.rpc.ErrorInfo`` (domain ``"throneroom"``) to
each error status, with a machine-readable reason code (see the header of
``proto/throneroom/v1/service.proto``). :func:`from_rpc_error` turns a gRPC
error into the most specific exception below, chosen by reason first and by
status code when the reason is unknown or missing (for example when the
channel itself could not reach the server)::

    ThroneroomError
    ├── InvalidArgument            INVALID_ARGUMENT
    │   ├── InvalidMove            INVALID_MOVE
    │   ├── InvalidOptions         INVALID_OPTIONS
    │   └── UnknownGameType        UNKNOWN_GAME_TYPE
    ├── IllegalMove                FAILED_PRECONDITION (ILLEGAL_MOVE)
    │   ├── NotYourTurn            NOT_YOUR_TURN
    │   ├── GameFinished           GAME_FINISHED
    │   ├── GameNotStarted         GAME_NOT_STARTED
    │   ├── SeatTaken              SEAT_TAKEN
    │   └── GameFull               GAME_FULL
    ├── StaleVersion               ABORTED (STALE_VERSION, .current_version)
    ├── Unauthenticated            UNAUTHENTICATED
    ├── PermissionDenied           PERMISSION_DENIED
    ├── GameNotFound               NOT_FOUND
    ├── Unavailable                UNAVAILABLE
    ├── DeadlineExceeded           DEADLINE_EXCEEDED
    └── ResourceExhausted          RESOURCE_EXHAUSTED

Any other status (``INTERNAL``, ``CANCELLED`` ...) becomes a plain
:class:`ThroneroomError` carrying its code. A ``google.rpc.RetryInfo`` detail
(the server saying when to try again) is kept as ``retry_delay`` in seconds.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

import grpc
from google.protobuf.message import DecodeError
from google.rpc import error_details_pb2, status_pb2  # type: ignore[import-untyped, unused-ignore]

from throneroom.v1 import service_pb2

ERROR_DOMAIN = "throneroom"
#: The trailer carrying the serialized ``google.rpc.Status`` (grpcio-status's key;
#: read here so that the SDK needs no more than grpcio, protobuf and googleapis-common-protos).
STATUS_DETAILS_KEY = "grpc-status-details-bin"


class ThroneroomError(Exception):
    """Base of every error the SDK raises for a failed request.

    ``code`` is the gRPC status code (``None`` for an error detected on the
    client before any request), ``reason`` the service's reason code (``""``
    when the status carried none), ``message`` the English sentence and
    ``metadata`` the ErrorInfo metadata.
    """

    default_code: grpc.StatusCode | None = None
    #: Set by ``join()`` when the seat was taken but its first snapshot could
    #: not be read: the seat's handle (with its token), so the seat is not lost.
    handle: Any = None
    #: Seconds the server asked the client to wait before trying again
    #: (``google.rpc.RetryInfo``), or ``None`` when it did not say.
    retry_delay: float | None = None
    #: How many attempts the SDK made before raising this error (1: no retry).
    attempts: int = 1

    def __init__(
        self,
        message: str,
        *,
        code: grpc.StatusCode | None = None,
        reason: str = "",
        metadata: Mapping[str, str] | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.code = code if code is not None else self.default_code
        self.reason = reason
        self.metadata: dict[str, str] = dict(metadata or {})

    def __str__(self) -> str:
        return f"{self.reason}: {self.message}" if self.reason else self.message

    def __repr__(self) -> str:
        code = self.code.name if self.code is not None else None
        return f"{type(self).__name__}({self.message!r}, code={code}, reason={self.reason!r})"


class InvalidArgument(ThroneroomError):
    """The request is malformed (INVALID_ARGUMENT)."""

    default_code = grpc.StatusCode.INVALID_ARGUMENT


class InvalidMove(InvalidArgument):
    """The move message is malformed: empty, wrong game, fields out of range."""


class InvalidOptions(InvalidArgument):
    """The game options or seat count are not valid for the game type."""


class UnknownGameType(InvalidArgument):
    """The server does not play this game type."""


class IllegalMove(ThroneroomError):
    """Well-formed, but not allowed in the game's current state (FAILED_PRECONDITION)."""

    default_code = grpc.StatusCode.FAILED_PRECONDITION


class NotYourTurn(IllegalMove):
    """The seat is not among the seats that must act now."""


class GameFinished(IllegalMove):
    """The game is over; it accepts no more moves."""


class GameNotStarted(IllegalMove):
    """Moves are accepted only once every seat is taken."""


class SeatTaken(IllegalMove):
    """The requested seat already has a player."""


class GameFull(IllegalMove):
    """Every seat of the game is taken."""


class StaleVersion(ThroneroomError):
    """The move was chosen at an older version (ABORTED); nothing was applied."""

    default_code = grpc.StatusCode.ABORTED

    def __init__(
        self,
        message: str,
        *,
        code: grpc.StatusCode | None = None,
        reason: str = "",
        metadata: Mapping[str, str] | None = None,
    ) -> None:
        super().__init__(message, code=code, reason=reason, metadata=metadata)
        raw = self.metadata.get("current_version", "")
        #: The game's version when the move was rejected (-1 if the server did not say).
        self.current_version: int = int(raw) if raw.isdigit() else -1


class Unauthenticated(ThroneroomError):
    """The request needs a seat token and carried none."""

    default_code = grpc.StatusCode.UNAUTHENTICATED


class PermissionDenied(ThroneroomError):
    """The seat token is not valid for this game."""

    default_code = grpc.StatusCode.PERMISSION_DENIED


class GameNotFound(ThroneroomError):
    """No game has this id."""

    default_code = grpc.StatusCode.NOT_FOUND


class Unavailable(ThroneroomError):
    """The server or its store cannot be reached right now; retrying may help."""

    default_code = grpc.StatusCode.UNAVAILABLE


class DeadlineExceeded(ThroneroomError):
    """The request took longer than its deadline; it may or may not have run."""

    default_code = grpc.StatusCode.DEADLINE_EXCEEDED


class ResourceExhausted(ThroneroomError):
    """A quota or size limit refused the request (``retry_delay``: when to try again)."""

    default_code = grpc.StatusCode.RESOURCE_EXHAUSTED


_BY_REASON: Mapping[str, type[ThroneroomError]] = {
    "MALFORMED_REQUEST": InvalidArgument,
    "IDEMPOTENCY_KEY_REUSED": InvalidArgument,
    "INVALID_MOVE": InvalidMove,
    "INVALID_OPTIONS": InvalidOptions,
    "UNKNOWN_GAME_TYPE": UnknownGameType,
    "ILLEGAL_MOVE": IllegalMove,
    "NOT_YOUR_TURN": NotYourTurn,
    "GAME_FINISHED": GameFinished,
    "GAME_NOT_STARTED": GameNotStarted,
    "SEAT_TAKEN": SeatTaken,
    "GAME_FULL": GameFull,
    "STALE_VERSION": StaleVersion,
    "SEAT_TOKEN_REQUIRED": Unauthenticated,
    "SEAT_TOKEN_INVALID": PermissionDenied,
    "GAME_NOT_FOUND": GameNotFound,
    "STORE_UNAVAILABLE": Unavailable,
    "SHUTTING_DOWN": Unavailable,
}

_BY_CODE: Mapping[grpc.StatusCode, type[ThroneroomError]] = {
    grpc.StatusCode.INVALID_ARGUMENT: InvalidArgument,
    grpc.StatusCode.FAILED_PRECONDITION: IllegalMove,
    grpc.StatusCode.ABORTED: StaleVersion,
    grpc.StatusCode.UNAUTHENTICATED: Unauthenticated,
    grpc.StatusCode.PERMISSION_DENIED: PermissionDenied,
    grpc.StatusCode.NOT_FOUND: GameNotFound,
    grpc.StatusCode.UNAVAILABLE: Unavailable,
    grpc.StatusCode.DEADLINE_EXCEEDED: DeadlineExceeded,
    grpc.StatusCode.RESOURCE_EXHAUSTED: ResourceExhausted,
}


def _rich_status(call: grpc.Call) -> status_pb2.Status | None:
    """The ``google.rpc.Status`` trailer, if present and consistent with the call's
    own code and message (the checks of grpcio-status's ``rpc_status.from_call``)."""
    for key, value in call.trailing_metadata() or ():
        if key == STATUS_DETAILS_KEY:
            status = status_pb2.Status.FromString(value)
            if status.code != call.code().value[0] or status.message != call.details():
                return None
            return status
    return None


def _details(
    error: grpc.RpcError,
) -> tuple[error_details_pb2.ErrorInfo | None, error_details_pb2.RetryInfo | None]:
    """The ErrorInfo and RetryInfo details of the status, where the server attached them."""
    try:
        # Works for sync errors and for grpc.aio's AioRpcError alike: both
        # expose code(), details() and trailing_metadata() synchronously.
        status = _rich_status(cast(grpc.Call, error))
    except (ValueError, TypeError, AttributeError, DecodeError):
        return None, None
    if status is None:
        return None, None
    error_info: error_details_pb2.ErrorInfo | None = None
    retry_info: error_details_pb2.RetryInfo | None = None
    for detail in status.details:
        info = error_details_pb2.ErrorInfo()
        retry = error_details_pb2.RetryInfo()
        if error_info is None and detail.Is(info.DESCRIPTOR) and detail.Unpack(info):
            error_info = info
        elif retry_info is None and detail.Is(retry.DESCRIPTOR) and detail.Unpack(retry):
            retry_info = retry
    return error_info, retry_info


def from_rpc_error(error: grpc.RpcError) -> ThroneroomError:
    """The typed exception for a failed gRPC call (sync or ``grpc.aio``)."""
    try:
        code: grpc.StatusCode | None = error.code()
        message = error.details() or ""
    except (AttributeError, TypeError):  # an RpcError that is not a Call
        code, message = None, str(error)
    info, retry_info = _details(error)
    reason = info.reason if info is not None and info.domain == ERROR_DOMAIN else ""
    metadata = dict(info.metadata) if info is not None else {}
    cls = _BY_REASON.get(reason)
    if cls is None or (code is not None and cls.default_code not in (None, code)):
        cls = _BY_CODE.get(code, ThroneroomError) if code is not None else ThroneroomError
    if not message:
        message = code.name.lower().replace("_", " ") if code is not None else "request failed"
    typed = cls(message, code=code, reason=reason, metadata=metadata)
    if retry_info is not None and retry_info.HasField("retry_delay"):
        delay = retry_info.retry_delay
        typed.retry_delay = max(0.0, delay.seconds + delay.nanos / 1e9)
    return typed


def from_play_error(error: service_pb2.PlayError) -> ThroneroomError:
    """The typed exception for a play session's rejected move (the one
    ApplyMove's status would have raised)."""
    code: grpc.StatusCode | None = _STATUS_CODES.get(error.code)
    cls = _BY_REASON.get(error.reason)
    if cls is None or (code is not None and cls.default_code not in (None, code)):
        cls = _BY_CODE.get(code, ThroneroomError) if code is not None else ThroneroomError
    typed = cls(
        error.message or "move rejected",
        code=code,
        reason=error.reason,
        metadata=dict(error.metadata),
    )
    if error.retry_after_seconds > 0:
        typed.retry_delay = error.retry_after_seconds
    return typed


_STATUS_CODES: Mapping[int, grpc.StatusCode] = {code.value[0]: code for code in grpc.StatusCode}
