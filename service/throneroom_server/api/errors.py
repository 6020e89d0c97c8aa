"""AppError -> gRPC status with a google.rpc.ErrorInfo detail."""

from __future__ import annotations

from contextvars import ContextVar

import grpc
from google.protobuf import any_pb2
from google.rpc import code_pb2, error_details_pb2, status_pb2
from grpc_status import rpc_status
from throneroom.v1 import service_pb2

from throneroom_server.app.errors import AppError, ErrorKind

ERROR_DOMAIN = "throneroom"

REFUSED = ContextVar("throneroom_refused", default="")
"""The reason a gRPC call was refused with (set where the call is aborted,
read by the interceptor that counts it: each call runs in its own task)."""

_CODES: dict[ErrorKind, tuple[grpc.StatusCode, int]] = {
    ErrorKind.INVALID_ARGUMENT: (grpc.StatusCode.INVALID_ARGUMENT, code_pb2.INVALID_ARGUMENT),
    ErrorKind.FAILED_PRECONDITION: (
        grpc.StatusCode.FAILED_PRECONDITION,
        code_pb2.FAILED_PRECONDITION,
    ),
    ErrorKind.ABORTED: (grpc.StatusCode.ABORTED, code_pb2.ABORTED),
    ErrorKind.UNAUTHENTICATED: (grpc.StatusCode.UNAUTHENTICATED, code_pb2.UNAUTHENTICATED),
    ErrorKind.PERMISSION_DENIED: (grpc.StatusCode.PERMISSION_DENIED, code_pb2.PERMISSION_DENIED),
    ErrorKind.NOT_FOUND: (grpc.StatusCode.NOT_FOUND, code_pb2.NOT_FOUND),
    ErrorKind.UNAVAILABLE: (grpc.StatusCode.UNAVAILABLE, code_pb2.UNAVAILABLE),
    ErrorKind.RESOURCE_EXHAUSTED: (
        grpc.StatusCode.RESOURCE_EXHAUSTED,
        code_pb2.RESOURCE_EXHAUSTED,
    ),
}


def grpc_code(kind: ErrorKind) -> grpc.StatusCode:
    return _CODES[kind][0]


def to_play_error(error: AppError) -> service_pb2.PlayError:
    """The error of a play session's move: what ApplyMove's status would carry."""
    return service_pb2.PlayError(
        code=_CODES[error.kind][1],
        reason=error.reason,
        message=error.message,
        metadata=error.metadata,
        retry_after_seconds=error.retry_after or 0.0,
    )


def to_status(error: AppError) -> grpc.Status:
    info = error_details_pb2.ErrorInfo(
        reason=error.reason, domain=ERROR_DOMAIN, metadata=error.metadata
    )
    detail = any_pb2.Any()
    detail.Pack(info)
    details = [detail]
    if error.retry_after is not None:
        retry = error_details_pb2.RetryInfo()
        retry.retry_delay.FromMilliseconds(max(1, round(error.retry_after * 1000)))
        packed = any_pb2.Any()
        packed.Pack(retry)
        details.append(packed)
    status = status_pb2.Status(code=_CODES[error.kind][1], message=error.message, details=details)
    return rpc_status.to_status(status)
