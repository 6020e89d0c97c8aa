"""Cross-cutting concerns of every RPC: request ids, log context, access logs."""

from __future__ import annotations

import time
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any, TypeAlias

import grpc
import structlog
from grpc.aio import ServerInterceptor

log = structlog.get_logger("throneroom.rpc")

Handler: TypeAlias = "grpc.RpcMethodHandler[Any, Any]"

_QUIET = frozenset({"/grpc.health.v1.Health/Check", "/grpc.health.v1.Health/Watch"})


def _request_id(details: grpc.HandlerCallDetails) -> str:
    for key, value in details.invocation_metadata or ():
        if key == "x-request-id" and isinstance(value, str) and 0 < len(value) <= 128:
            return value
    return uuid.uuid4().hex


class LoggingInterceptor(ServerInterceptor):  # type: ignore[type-arg]
    """Binds request_id and method to the log context of each call (game id and
    seat are bound by the servicer and app) and writes one access log line per
    call with its status and duration. Never logs request bodies or tokens."""

    async def intercept_service(
        self,
        continuation: Callable[[grpc.HandlerCallDetails], Awaitable[Handler]],
        details: grpc.HandlerCallDetails,
    ) -> Handler:
        handler = await continuation(details)
        method: str = details.method
        if handler is None or method in _QUIET:
            return handler
        # grpc-stubs type handlers for the sync server; under grpc.aio the
        # behaviours are coroutine functions taking an aio context.
        if handler.unary_unary is not None:
            inner_unary: Any = handler.unary_unary

            async def unary(request: Any, context: grpc.aio.ServicerContext[Any, Any]) -> Any:
                start = _begin(details, method)
                try:
                    return await inner_unary(request, context)
                finally:
                    _end(context, start)

            return grpc.unary_unary_rpc_method_handler(
                unary,
                request_deserializer=handler.request_deserializer,
                response_serializer=handler.response_serializer,
            )
        if handler.unary_stream is not None:
            inner_stream: Any = handler.unary_stream

            async def stream(
                request: Any, context: grpc.aio.ServicerContext[Any, Any]
            ) -> AsyncIterator[Any]:
                start = _begin(details, method)
                try:
                    async for item in inner_stream(request, context):
                        yield item
                finally:
                    _end(context, start)

            return grpc.unary_stream_rpc_method_handler(
                stream,
                request_deserializer=handler.request_deserializer,
                response_serializer=handler.response_serializer,
            )
        return handler


def _begin(details: grpc.HandlerCallDetails, method: str) -> float:
    structlog.contextvars.clear_contextvars()
    structlog.contextvars.bind_contextvars(request_id=_request_id(details), method=method)
    return time.perf_counter()


def _end(context: grpc.aio.ServicerContext[Any, Any], start: float) -> None:
    code = context.code()
    name = code.name if isinstance(code, grpc.StatusCode) else "OK"
    log.info("rpc", code=name, ms=round((time.perf_counter() - start) * 1000, 3))
