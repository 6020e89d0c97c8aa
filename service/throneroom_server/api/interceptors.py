"""Cross-cutting concerns of every RPC: request ids, log context, access logs."""

from __future__ import annotations

import inspect
import itertools
import secrets
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any, TypeAlias

import grpc
import structlog
from grpc.aio import ServerInterceptor

from throneroom_server.api.errors import REFUSED
from throneroom_server.app.metrics import Metrics

log = structlog.get_logger("throneroom.rpc")

Handler: TypeAlias = "grpc.RpcMethodHandler[Any, Any]"

_QUIET = frozenset({"/grpc.health.v1.Health/Check", "/grpc.health.v1.Health/Watch"})


class _RequestIds:
    """Request ids for calls that bring none: 32 hex digits, a random prefix
    per process and a counter (unique within the process, and across replicas
    with overwhelming probability; ids correlate log lines, they guard nothing).
    Cheaper than a uuid4 per call, which reads the OS's random source."""

    def __init__(self) -> None:
        self._prefix = secrets.token_hex(8)
        self._next = itertools.count().__next__

    def new(self) -> str:
        return f"{self._prefix}{self._next() & 0xFFFFFFFFFFFFFFFF:016x}"


_ids = _RequestIds()


def _request_id(context: grpc.aio.ServicerContext[Any, Any]) -> str:
    for key, value in context.invocation_metadata() or ():
        if key == "x-request-id" and isinstance(value, str) and 0 < len(value) <= 128:
            return value
    return _ids.new()


class LoggingInterceptor(ServerInterceptor):  # type: ignore[type-arg]
    """Binds request_id and method to the log context of each call (game id and
    seat are bound by the servicer and app) and writes one access log line per
    call with its status and duration (``access_log``), and counts it into
    ``metrics`` when given. Never logs request bodies or tokens.

    The wrapped handler of each method is built once and reused: it reads the
    call's request id from its context, so nothing in it is per call."""

    def __init__(self, *, access_log: bool = True, metrics: Metrics | None = None) -> None:
        self._wrapped: dict[str, tuple[Handler, Handler]] = {}  # method: (handler, wrapped)
        self._end = _ending(access_log, metrics)
        self._metrics = metrics

    async def intercept_service(
        self,
        continuation: Callable[[grpc.HandlerCallDetails], Awaitable[Handler]],
        details: grpc.HandlerCallDetails,
    ) -> Handler:
        handler = await continuation(details)
        method: str = details.method
        if handler is None:  # no such method: grpc answers UNIMPLEMENTED
            if self._metrics is not None:
                self._metrics.observe_request("grpc", "other", "UNIMPLEMENTED", 0.0)
            return handler
        if method in _QUIET:
            return handler
        known = self._wrapped.get(method)  # only served methods get here: a bounded set
        if known is not None and known[0] is handler:
            return known[1]
        wrapped = _wrap(method, handler, self._end)
        self._wrapped[method] = (handler, wrapped)
        return wrapped


End: TypeAlias = Callable[["grpc.aio.ServicerContext[Any, Any]", str, float], None]
"""What is done when a call ends: (its context, its method, its start time)."""


def _wrap(method: str, handler: Handler, _end: End) -> Handler:
    # grpc-stubs type handlers for the sync server; under grpc.aio the
    # behaviours are coroutine functions taking an aio context.
    if handler.unary_unary is not None:
        inner_unary: Any = handler.unary_unary

        async def unary(request: Any, context: grpc.aio.ServicerContext[Any, Any]) -> Any:
            start = _begin(context, method)
            try:
                return await inner_unary(request, context)
            finally:
                _end(context, method, start)

        return grpc.unary_unary_rpc_method_handler(
            unary,
            request_deserializer=handler.request_deserializer,
            response_serializer=handler.response_serializer,
        )
    if handler.unary_stream is not None:
        return grpc.unary_stream_rpc_method_handler(
            _streaming(method, handler.unary_stream, _end),
            request_deserializer=handler.request_deserializer,
            response_serializer=handler.response_serializer,
        )
    if handler.stream_stream is not None:
        return grpc.stream_stream_rpc_method_handler(
            _streaming(method, handler.stream_stream, _end),
            request_deserializer=handler.request_deserializer,
            response_serializer=handler.response_serializer,
        )
    return handler


def _streaming(method: str, inner: Any, _end: End) -> Any:
    """A server-streaming or bidirectional behaviour wrapped: its first
    argument is the request or the request iterator, passed on as it is. A
    behaviour that writes its responses itself (a coroutine function, as the
    service's streams are) is awaited; an async generator's responses pass
    through."""
    if inspect.iscoroutinefunction(inner):

        async def writing(request: Any, context: grpc.aio.ServicerContext[Any, Any]) -> None:
            start = _begin(context, method)
            try:
                await inner(request, context)
            finally:
                _end(context, method, start)

        return writing

    async def streaming(
        request: Any, context: grpc.aio.ServicerContext[Any, Any]
    ) -> AsyncIterator[Any]:
        start = _begin(context, method)
        try:
            async for item in inner(request, context):
                yield item
        finally:
            _end(context, method, start)

    return streaming


def _begin(context: grpc.aio.ServicerContext[Any, Any], method: str) -> float:
    # Each call runs in its own task, whose context starts as a copy of the
    # server's (empty): binding is enough, there is nothing of another call to clear.
    structlog.contextvars.bind_contextvars(request_id=_request_id(context), method=method)
    return time.perf_counter()


def _ending(access_log: bool, metrics: Metrics | None) -> End:
    def end(context: grpc.aio.ServicerContext[Any, Any], method: str, start: float) -> None:
        seconds = time.perf_counter() - start
        code = context.code()
        name = code.name if isinstance(code, grpc.StatusCode) else "OK"
        if access_log:
            log.info("rpc", code=name, ms=round(seconds * 1000, 3))
        if metrics is not None:
            metrics.observe_request("grpc", metrics.method_label(method), name, seconds)
            reason = REFUSED.get()
            if reason:
                metrics.refused("grpc", reason)

    return end
