"""The standard gRPC services beside Throneroom's own: health
(``grpc.health.v1.Health``) and reflection (``grpc.reflection.v1alpha``).

They are registered with the servicers grpcio ships, but with the same total
request decoder as Throneroom's methods (``servicer.decoder``): bytes that are
not a valid request end the call with INVALID_ARGUMENT ``MALFORMED_REQUEST``,
never with the UNKNOWN that a stock deserializer's exception becomes (the
API's promise: no input produces UNKNOWN or INTERNAL)."""

from __future__ import annotations

import inspect
from collections.abc import AsyncIterator, Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import grpc
from grpc_health.v1 import health_pb2_grpc
from grpc_health.v1._async import HealthServicer
from grpc_reflection.v1alpha import reflection, reflection_pb2_grpc
from grpc_reflection.v1alpha._async import ReflectionServicer

from throneroom_server.api.servicer import Undecodable, abort_with, decoder

if TYPE_CHECKING:
    Handler = grpc.RpcMethodHandler[Any, Any]
    Context = grpc.aio.ServicerContext[Any, Any]


class _Recorder:
    """Stands in for the server while a generated ``add_*_to_server`` runs:
    keeps each service's method handlers, registers nothing."""

    def __init__(self) -> None:
        self.services: dict[str, dict[str, Handler]] = {}

    def add_generic_rpc_handlers(self, handlers: Iterable[object]) -> None:
        """The same handlers come through ``add_registered_method_handlers``."""

    def add_registered_method_handlers(self, service: str, handlers: Mapping[str, Handler]) -> None:
        self.services[service] = dict(handlers)


def add_standard_services(
    server: grpc.aio.Server, health: HealthServicer, reflected: Sequence[str]
) -> None:
    """Register ``health`` and reflection over ``reflected`` (service names,
    reflection's own added) on ``server``, every request decoded totally."""
    recorder = _Recorder()
    health_pb2_grpc.add_HealthServicer_to_server(health, recorder)
    names = (*reflected, reflection.SERVICE_NAME)
    reflection_pb2_grpc.add_ServerReflectionServicer_to_server(
        ReflectionServicer(names),
        recorder,
    )
    for service, methods in recorder.services.items():
        guarded = {name: guarded_handler(handler) for name, handler in methods.items()}
        server.add_generic_rpc_handlers((grpc.method_handlers_generic_handler(service, guarded),))
        server.add_registered_method_handlers(service, guarded)  # type: ignore[attr-defined]


def guarded_handler(handler: Handler) -> Handler:
    """``handler`` with the total decoder, and a malformed request refused."""
    message_class = handler.request_deserializer.__self__  # type: ignore[union-attr]
    decode = decoder(message_class)
    serialize = handler.response_serializer
    if handler.unary_unary is not None:
        return grpc.unary_unary_rpc_method_handler(
            _unary(handler.unary_unary), request_deserializer=decode, response_serializer=serialize
        )
    if handler.unary_stream is not None:
        return grpc.unary_stream_rpc_method_handler(
            _unary_stream(handler.unary_stream),
            request_deserializer=decode,
            response_serializer=serialize,
        )
    if handler.stream_stream is not None:
        return grpc.stream_stream_rpc_method_handler(
            _stream_stream(handler.stream_stream),
            request_deserializer=decode,
            response_serializer=serialize,
        )
    raise TypeError("a standard service with a client-streaming, unary-response method")


def _unary(behaviour: Callable[..., Any]) -> Callable[..., Any]:
    async def call(request: Any, context: Context) -> Any:
        if isinstance(request, Undecodable):
            await abort_with(context, request.error())
        return await behaviour(request, context)

    return call


def _unary_stream(behaviour: Callable[..., Any]) -> Callable[..., Any]:
    if inspect.iscoroutinefunction(behaviour):  # it writes its responses itself

        async def writing(request: Any, context: Context) -> None:
            if isinstance(request, Undecodable):
                await abort_with(context, request.error())
            await behaviour(request, context)

        return writing

    async def call(request: Any, context: Context) -> AsyncIterator[Any]:
        if isinstance(request, Undecodable):
            await abort_with(context, request.error())
        async for response in behaviour(request, context):
            yield response

    return call


def _stream_stream(behaviour: Callable[..., Any]) -> Callable[..., Any]:
    def checked(requests: AsyncIterator[Any], context: Context) -> AsyncIterator[Any]:
        async def each() -> AsyncIterator[Any]:
            async for request in requests:
                if isinstance(request, Undecodable):
                    await abort_with(context, request.error())
                yield request

        return each()

    if inspect.iscoroutinefunction(behaviour):

        async def writing(requests: AsyncIterator[Any], context: Context) -> None:
            await behaviour(checked(requests, context), context)

        return writing

    async def call(requests: AsyncIterator[Any], context: Context) -> AsyncIterator[Any]:
        async for response in behaviour(checked(requests, context), context):
            yield response

    return call
