"""Test doubles for the SDK tests: fake gRPC errors, stub wrappers that fail on
purpose, a TCP proxy that can cut every connection, a redis-server that can be
restarted, and a simultaneous-move fixture engine."""

from __future__ import annotations

import contextlib
import shutil
import socket
import struct
import subprocess
import threading
from collections.abc import AsyncIterator, Callable, Iterable, Iterator, Sequence
from typing import Any, cast

import grpc
from google.protobuf import any_pb2
from google.rpc import code_pb2, error_details_pb2, status_pb2
from grpc_status import rpc_status
from throneroom.v1 import nim_pb2, service_pb2_grpc
from throneroom_server.games.core import (
    GameFinishedError,
    GameInfo,
    IllegalMoveError,
    InvalidMoveError,
    NotYourTurnError,
    Outcome,
    Seat,
    Viewer,
)
from throneroom_server.games.nim import Nim

from throneroom_dev.processes import RedisServerError, free_port, wait_for_port


class FakeRpcError(grpc.RpcError):
    """A failed call as grpc raises it, optionally with an ErrorInfo detail and
    a RetryInfo detail (``retry_delay`` seconds)."""

    def __init__(
        self,
        code: grpc.StatusCode,
        message: str = "",
        *,
        reason: str | None = None,
        metadata: dict[str, str] | None = None,
        domain: str = "throneroom",
        retry_delay: float | None = None,
    ) -> None:
        super().__init__(message)
        self._code = code
        self._message = message
        self._trailing: tuple[tuple[str, str | bytes], ...] = ()
        details = []
        if reason is not None:
            info = error_details_pb2.ErrorInfo(
                reason=reason, domain=domain, metadata=metadata or {}
            )
            detail = any_pb2.Any()
            detail.Pack(info)
            details.append(detail)
        if retry_delay is not None:
            retry = error_details_pb2.RetryInfo()
            retry.retry_delay.FromNanoseconds(round(retry_delay * 1e9))
            detail = any_pb2.Any()
            detail.Pack(retry)
            details.append(detail)
        if details:
            status = status_pb2.Status(
                code=getattr(code_pb2, code.name), message=message, details=details
            )
            self._trailing = tuple(rpc_status.to_status(status).trailing_metadata)

    def code(self) -> grpc.StatusCode:
        return self._code

    def details(self) -> str:
        return self._message

    def trailing_metadata(self) -> Any:
        return self._trailing


def unavailable() -> FakeRpcError:
    return FakeRpcError(grpc.StatusCode.UNAVAILABLE, "connection reset (simulated)")


class StubProxy:
    """Forwards every method to the real stub unless overridden on the instance.

    ``calls[name]`` records every request passed through an overridden or
    recorded method.
    """

    def __init__(self, real: service_pb2_grpc.ThroneroomStub) -> None:
        self.real = real
        self.calls: dict[str, list[Any]] = {}

    def __getattr__(self, name: str) -> Any:
        return getattr(self.real, name)

    def record(self, name: str) -> None:
        """Record the requests of ``name`` while still forwarding them."""
        method = getattr(self.real, name)

        def recorded(request: Any, **kwargs: Any) -> Any:
            self.calls.setdefault(name, []).append(request)
            return method(request, **kwargs)

        setattr(self, name, recorded)

    def override(self, name: str, replacement: Callable[..., Any]) -> None:
        def wrapped(request: Any, **kwargs: Any) -> Any:
            self.calls.setdefault(name, []).append(request)
            return replacement(request, **kwargs)

        setattr(self, name, wrapped)

    def as_stub(self) -> service_pb2_grpc.ThroneroomStub:
        return cast(service_pb2_grpc.ThroneroomStub, self)


class FakeStream:
    """A server stream as grpc returns it: iterable, and cancellable."""

    def __init__(self, responses: Iterable[Any]) -> None:
        self._responses = iter(responses)
        self.cancelled = False

    def __iter__(self) -> Iterator[Any]:
        return self

    def __next__(self) -> Any:
        if self.cancelled:
            raise StopIteration
        return next(self._responses)

    def cancel(self) -> bool:
        self.cancelled = True
        return True


class FakeAsyncStream:
    """A grpc.aio server stream: async-iterable, and cancellable."""

    def __init__(self, responses: AsyncIterator[Any]) -> None:
        self._responses = responses
        self.cancelled = False

    def __aiter__(self) -> AsyncIterator[Any]:
        return self

    async def __anext__(self) -> Any:
        if self.cancelled:
            raise StopAsyncIteration
        return await anext(self._responses)

    def cancel(self) -> bool:
        self.cancelled = True
        return True


class TcpProxy:
    """A TCP forwarder to ``target`` that can cut every open connection at once,
    the way a restarted load balancer or a flaky network does."""

    def __init__(self, target: str) -> None:
        host, port = target.rsplit(":", 1)
        self._target = (host, int(port))
        self._listener = socket.create_server(("127.0.0.1", 0))
        self.address = f"127.0.0.1:{self._listener.getsockname()[1]}"
        self._lock = threading.Lock()
        self._open: list[socket.socket] = []
        self.accepted = 0
        self._closed = False
        threading.Thread(target=self._accept_loop, daemon=True).start()

    def _accept_loop(self) -> None:
        while not self._closed:
            try:
                downstream, _ = self._listener.accept()
            except OSError:
                return
            try:
                upstream = socket.create_connection(self._target)
            except OSError:
                downstream.close()
                continue
            with self._lock:
                self.accepted += 1
                self._open += [downstream, upstream]
            for src, dst in ((downstream, upstream), (upstream, downstream)):
                threading.Thread(target=self._pump, args=(src, dst), daemon=True).start()

    @staticmethod
    def _pump(src: socket.socket, dst: socket.socket) -> None:
        try:
            while data := src.recv(65536):
                dst.sendall(data)
        except OSError:
            pass
        finally:
            for sock in (src, dst):
                with contextlib.suppress(OSError):
                    sock.shutdown(socket.SHUT_RDWR)

    def drop_connections(self) -> None:
        """Reset every open connection (the proxy keeps accepting new ones)."""
        with self._lock:
            sockets, self._open = self._open, []
        for sock in sockets:
            with contextlib.suppress(OSError):
                # Linger 0: close with a reset, as a dying peer does.
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)
            sock.close()

    def close(self) -> None:
        self._closed = True
        self._listener.close()
        self.drop_connections()


class SimultaneousNim(Nim):
    """A test-only engine played through the real server under the name "nim":
    every round, every seat secretly chooses how many stones to take (1..max_take);
    once all have chosen, the choices are revealed together and removed from the
    pile. Whoever chose the most in the round that empties the pile wins (ties
    share the victory). Pending choices live in ``secrets`` (0 = not chosen yet),
    so each seat sees only its own through ``my_secret``."""

    info = GameInfo(
        name="nim",
        title="Simultaneous Nim (test fixture)",
        description="Every seat chooses at once.",
        min_seats=2,
        max_seats=4,
        hidden_information=True,
        simultaneous_decisions=True,
    )

    def setup(self, options: nim_pb2.NimOptions, num_seats: int, seed: int) -> nim_pb2.NimState:
        state = super().setup(options, num_seats, seed)
        del state.secrets[:]
        state.secrets.extend([0] * num_seats)
        return state

    def to_act(self, state: nim_pb2.NimState) -> Sequence[Seat]:
        if state.HasField("outcome"):
            return ()
        return tuple(seat for seat, chosen in enumerate(state.secrets) if chosen == 0)

    def legal_moves(self, state: nim_pb2.NimState, seat: Seat) -> list[nim_pb2.NimMove]:
        if seat not in self.to_act(state):
            return []
        return [nim_pb2.NimMove(take=n) for n in range(1, state.max_take + 1)]

    def apply(
        self, state: nim_pb2.NimState, seat: Seat, move: nim_pb2.NimMove
    ) -> tuple[nim_pb2.NimState, list[nim_pb2.NimEvent]]:
        if move.take <= 0:
            raise InvalidMoveError(f"a move takes at least one stone, not {move.take}")
        if state.HasField("outcome"):
            raise GameFinishedError("the game is over")
        if seat not in self.to_act(state):
            raise NotYourTurnError(f"seat {seat} has already chosen this round")
        if move.take > state.max_take:
            raise IllegalMoveError(f"cannot take {move.take} stones: at most {state.max_take}")
        new = nim_pb2.NimState()
        new.CopyFrom(state)
        new.secrets[seat] = move.take
        events: list[nim_pb2.NimEvent] = []
        if all(new.secrets):
            choices = list(new.secrets)
            new.pile = max(0, new.pile - sum(choices))
            events = [
                nim_pb2.NimEvent(took=nim_pb2.NimEvent.Took(seat=s, stones=c, pile_left=new.pile))
                for s, c in enumerate(choices)
            ]
            if new.pile == 0:
                most = max(choices)
                new.outcome.CopyFrom(
                    Outcome(
                        winners=[s for s, c in enumerate(choices) if c == most],
                        termination="last_round",
                        summary=f"the pile emptied; the most taken was {most}",
                    )
                )
            new.secrets[:] = [0] * new.num_seats
        return new, events

    def view(self, state: nim_pb2.NimState, viewer: Viewer) -> nim_pb2.NimView:
        view = super().view(state, viewer)
        view.to_move = -1
        return view

    def redact_event(self, event: nim_pb2.NimEvent, viewer: Viewer) -> nim_pb2.NimEvent | None:
        return event


def versions(updates: Iterator[Any] | Sequence[Any]) -> list[int]:
    return [u.version for u in updates]


class RestartableRedis:
    """A private redis-server that can be stopped and started again on the same
    port and data directory, as an operator restarting Redis does. Every write
    is appended to the AOF and fsynced (``appendfsync always``), so what was
    acknowledged before a stop is there after the start."""

    def __init__(self, workdir: str) -> None:
        binary = shutil.which("redis-server")
        if binary is None:
            raise RedisServerError("redis-server is not installed (make test installs it)")
        self._binary = binary
        self._workdir = workdir
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self._proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        assert self._proc is None, "already running"
        self._proc = subprocess.Popen(
            [
                self._binary,
                "--port", str(self.port),
                "--bind", "127.0.0.1",
                "--dir", self._workdir,
                "--save", "",
                "--appendonly", "yes",
                "--appendfsync", "always",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )  # fmt: skip
        wait_for_port(self.port, timeout=20, proc=self._proc)

    def stop(self) -> None:
        """SIGTERM: Redis closes every connection and exits; the port goes dead."""
        proc, self._proc = self._proc, None
        if proc is None:
            return
        proc.terminate()
        try:
            proc.wait(20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(5)
