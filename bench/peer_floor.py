"""The floor of ``bench/peer.py --floor``: what the transports alone cost for a move.

A bare grpc.aio server with no application at all (raw bytes, no protobuf, no
interceptor, no logging; the grpc settings ``throneroom-server`` runs with)
answers the calls of a move in the shape of ``bench/peer.py``'s load, beside
Throneroom's own Ping; on a second port the same bare play sessions run over
aiohttp WebSockets. ``floor(sizes, min_moves)`` prints the CPU per move of each
(``python bench/peer.py --floor``); this file run as a program is the bare
server itself: ``python bench/peer_floor.py PORT WS_PORT``.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from typing import Any

import aiohttp
import grpc
from aiohttp import web
from peer_processes import Totals, cpu_seconds, main_thread_seconds, process_tree, throneroom_server
from throneroom.v1 import service_pb2  # (peer_processes put the sdk on sys.path)

from throneroom_dev.processes import free_port, wait_for_port

BARE_SERVICE = "peerbench.Bare"
BARE_UPDATE = bytes(1500)  # about the size of one King Is Dead update


async def bare_server(port: int, ws_port: int) -> None:
    """A grpc.aio server with no application at all: ``Move(match)`` sends one
    message to each ``Watch(match)`` stream and answers; ``Ping`` answers.
    Raw bytes in and out (no protobuf), no interceptor, no logging. Beside it,
    on ``ws_port``, the same play sessions over WebSockets (aiohttp, binary
    frames): what another transport would cost for the same messages."""
    streams: dict[bytes, list[asyncio.Queue[bytes]]] = {}

    async def move(request: bytes, context: Any) -> bytes:
        for queue in streams.get(request, ()):
            queue.put_nowait(BARE_UPDATE)
        return b""

    async def watch(request: bytes, context: Any) -> Any:
        queue: asyncio.Queue[bytes] = asyncio.Queue()
        streams.setdefault(request, []).append(queue)
        try:
            yield b"start"
            while True:
                yield await queue.get()
        finally:
            streams[request].remove(queue)

    async def ping(request: bytes, context: Any) -> bytes:
        return b""

    async def play(requests: Any, context: Any) -> Any:
        """A bidirectional session: the first message names the match; every
        later one is a move that sends one message to each session of the match."""
        match = await anext(aiter(requests))
        queue: asyncio.Queue[bytes] = asyncio.Queue()
        sessions = streams.setdefault(match, [])
        sessions.append(queue)

        async def read() -> None:
            async for _ in requests:
                for other in sessions:
                    other.put_nowait(BARE_UPDATE)

        reader = asyncio.get_running_loop().create_task(read())
        try:
            yield b"start"
            while True:
                yield await queue.get()
        finally:
            reader.cancel()
            sessions.remove(queue)

    handlers = {
        "Move": grpc.unary_unary_rpc_method_handler(move),
        "Watch": grpc.unary_stream_rpc_method_handler(watch),
        "Ping": grpc.unary_unary_rpc_method_handler(ping),
        "Play": grpc.stream_stream_rpc_method_handler(play),
    }
    server = grpc.aio.server(options=[("grpc.so_reuseport", 0)])
    server.add_generic_rpc_handlers((grpc.method_handlers_generic_handler(BARE_SERVICE, handlers),))
    server.add_insecure_port(f"127.0.0.1:{port}")
    await server.start()
    runner = web.AppRunner(bare_websockets(), access_log=None)
    await runner.setup()
    await web.TCPSite(runner, "127.0.0.1", ws_port).start()
    await server.wait_for_termination()


def bare_websockets() -> web.Application:
    """``GET /play``: the bare bidirectional session over a WebSocket, shaped as
    the gRPC one (the first message names the match; every later one sends one
    message to each session of the match; each session's own task writes)."""
    sessions_of: dict[bytes, list[asyncio.Queue[bytes]]] = {}

    async def play(request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse()
        await ws.prepare(request)
        match = await ws.receive_bytes()
        queue: asyncio.Queue[bytes] = asyncio.Queue()
        sessions = sessions_of.setdefault(match, [])
        sessions.append(queue)

        async def read() -> None:
            async for _ in ws:
                for other in sessions:
                    other.put_nowait(BARE_UPDATE)
            queue.put_nowait(b"")

        reader = asyncio.get_running_loop().create_task(read())
        try:
            await ws.send_bytes(b"start")
            while message := await queue.get():
                await ws.send_bytes(message)
        finally:
            reader.cancel()
            sessions.remove(queue)
        return ws

    app = web.Application()
    app.router.add_get("/play", play)
    return app


class BareLoad:
    """The shape of the Throneroom load against the bare server: per match two
    streams; a move is one unary call, sent once both streams delivered the last."""

    def __init__(
        self,
        address: str,
        pids: list[int],
        moves_per_match: int = 100,
        *,
        bidi: bool = False,
        websocket: str = "",
    ) -> None:
        self.address, self.pids, self.moves_per_match = address, pids, moves_per_match
        self.bidi = bidi or bool(websocket)
        self.websocket = websocket
        """The bare WebSocket server's address: sessions over WebSockets instead."""

    async def run(self, matches: int, min_moves: int) -> dict[str, Any]:
        async with contextlib.AsyncExitStack() as stack:
            channels: list[Any] = []
            for _ in range(2 * matches):  # one connection per seat
                if self.websocket:
                    channels.append(await stack.enter_async_context(aiohttp.ClientSession()))
                else:
                    options = [("grpc.use_local_subchannel_pool", 1)]
                    channel = grpc.aio.insecure_channel(self.address, options=options)
                    stack.push_async_callback(channel.close)
                    channels.append(channel)
            totals = Totals()
            await self.round(channels, matches, Totals(), 0)
            n = 1
            while len(totals.latencies) < min_moves:
                await self.round(channels, matches, totals, n)
                n += 1
        lat = sorted(totals.latencies)
        return {
            "matches": matches,
            "moves": len(lat),
            "moves_per_s": round(len(lat) / totals.seconds, 1),
            "p50_ms": round(1000 * lat[len(lat) // 2], 3),
            "p99_ms": round(1000 * lat[min(len(lat) - 1, int(0.99 * len(lat)))], 3),
            "server_cpu_ms_per_move": round(1000 * totals.server_cpu / len(lat), 3),
            "loop_cpu_ms_per_move": round(1000 * totals.loop_cpu / len(lat), 3),
            "store_cpu_ms_per_move": 0.0,
        }

    async def round(self, channels: list[Any], m: int, totals: Totals, n: int) -> None:
        seen = [[0, 0] for _ in range(m)]
        events = [asyncio.Event() for _ in range(m)]

        sessions: dict[tuple[int, int], Any] = {}

        async def watch(i: int, s: int, started: asyncio.Event) -> None:
            if self.websocket:
                url = f"http://{self.websocket}/play"
                call = sessions[i, s] = await channels[2 * i + s].ws_connect(url)
                await call.send_bytes(b"%d-%d" % (n, i))
            elif self.bidi:
                call = sessions[i, s] = channels[2 * i + s].stream_stream(f"/{BARE_SERVICE}/Play")()
                await call.write(b"%d-%d" % (n, i))
            else:
                call = channels[2 * i + s].unary_stream(f"/{BARE_SERVICE}/Watch")(b"%d-%d" % (n, i))
            async for _ in call:
                seen[i][s] += 1
                events[i].set()
                if seen[i][s] == 1:
                    started.set()
                if seen[i][s] > self.moves_per_match:
                    if self.websocket:
                        await call.close()
                    else:
                        call.cancel()
                    return

        def pair(i: int) -> list[Any]:
            return channels[2 * i : 2 * i + 2]

        async def play(i: int) -> None:
            moves = [] if self.bidi else [c.unary_unary(f"/{BARE_SERVICE}/Move") for c in pair(i)]
            for k in range(self.moves_per_match):
                while seen[i][0] != k + 1 or seen[i][1] != k + 1:
                    await events[i].wait()
                    events[i].clear()
                t0 = time.perf_counter()
                if self.bidi:  # the move is one message; the mover's update acknowledges it
                    session = sessions[i, k % 2]
                    await (session.send_bytes if self.websocket else session.write)(b"m")
                    while seen[i][k % 2] != k + 2:
                        await events[i].wait()
                        events[i].clear()
                else:
                    await moves[k % 2](b"%d-%d" % (n, i))
                totals.latencies.append(time.perf_counter() - t0)
            while seen[i][0] <= self.moves_per_match or seen[i][1] <= self.moves_per_match:
                await events[i].wait()
                events[i].clear()

        started = [asyncio.Event() for _ in range(2 * m)]
        readers = [
            asyncio.create_task(watch(i, s, started[2 * i + s])) for i in range(m) for s in range(2)
        ]
        await asyncio.gather(*(e.wait() for e in started))
        cpu0, loop0 = cpu_seconds(self.pids), main_thread_seconds(self.pids)
        t0 = time.perf_counter()
        await asyncio.gather(*(play(i) for i in range(m)))
        totals.seconds += time.perf_counter() - t0
        totals.server_cpu += cpu_seconds(self.pids) - cpu0
        totals.loop_cpu += main_thread_seconds(self.pids) - loop0
        with contextlib.suppress(asyncio.CancelledError):
            await asyncio.gather(*readers)


async def ping_load(address: str, pids: list[int], method: str, m: int, calls: int) -> float:
    """Server CPU ms per no-op unary call, M callers at once."""
    channel = grpc.aio.insecure_channel(address, options=[("grpc.use_local_subchannel_pool", 1)])
    ping = channel.unary_unary(method)
    request = service_pb2.PingRequest().SerializeToString()

    async def caller(k: int) -> None:
        for _ in range(k):
            await ping(request)

    await caller(200)
    cpu0 = cpu_seconds(pids)
    await asyncio.gather(*(caller(calls // m) for _ in range(m)))
    used = cpu_seconds(pids) - cpu0
    await channel.close()
    return 1000 * used / (calls // m * m)


@contextlib.contextmanager
def bare(port: int, ws_port: int) -> Iterator[int]:
    """The bare server in its own process, with the grpc settings
    ``throneroom-server`` runs with (throneroom_server.runtime.main.GRPC_SETTINGS)."""
    from throneroom_server.runtime.main import use_grpc_settings  # noqa: PLC0415  (only the parent needs it)

    env = dict(os.environ)
    use_grpc_settings(env)
    command = [sys.executable, __file__, str(port), str(ws_port)]
    proc = subprocess.Popen(command, env=env)
    try:
        for listening in (port, ws_port):
            wait_for_port(listening, proc=proc)  # type: ignore[arg-type]
        yield proc.pid
    finally:
        proc.terminate()
        proc.wait(20)


def floor(sizes: list[int], min_moves: int) -> None:
    """What grpc.aio alone costs for the shape of a move, beside Throneroom's Ping,
    and the same play sessions over WebSockets (aiohttp) in the same process."""
    print("# floor: a bare grpc.aio server (no app, no protobuf) vs Throneroom's Ping")
    with contextlib.ExitStack() as stack:
        port, ws_port = free_port(), free_port()
        pid = stack.enter_context(bare(port, ws_port))
        address, tr_pid = stack.enter_context(throneroom_server(None, 1))
        bare_pids, tr_pids = [pid], process_tree(tr_pid)
        ping = "/throneroom.v1.Throneroom/Ping"
        for m in sizes:
            b = asyncio.run(
                ping_load(f"127.0.0.1:{port}", bare_pids, f"/{BARE_SERVICE}/Ping", m, 4000)
            )
            t = asyncio.run(ping_load(address, tr_pids, ping, m, 4000))
            row = asyncio.run(BareLoad(f"127.0.0.1:{port}", bare_pids).run(m, min_moves))
            bidi = asyncio.run(
                BareLoad(f"127.0.0.1:{port}", bare_pids, bidi=True).run(m, min_moves)
            )
            ws = asyncio.run(
                BareLoad("", bare_pids, websocket=f"127.0.0.1:{ws_port}").run(m, min_moves)
            )
            print(
                f"  M={m:<3} no-op unary: bare {b:5.3f}, Throneroom Ping {t:5.3f} ms CPU/call;"
                f"  bare move (1 unary + 2 stream messages): {row['moves_per_s']:6.0f} moves/s,"
                f" {row['server_cpu_ms_per_move']:5.3f} ms CPU/move",
                flush=True,
            )
            for name, result in (("gRPC bidi streams", bidi), ("aiohttp WebSockets", ws)):
                print(
                    f"  M={m:<3} bare play sessions (1 message in, 2 out) on {name:<18}:"
                    f" {result['moves_per_s']:6.0f} moves/s,"
                    f" {result['server_cpu_ms_per_move']:5.3f} ms CPU/move, of which the event"
                    f" loop {result['loop_cpu_ms_per_move']:5.3f}",
                    flush=True,
                )


if __name__ == "__main__":
    asyncio.run(bare_server(int(sys.argv[1]), int(sys.argv[2])))
