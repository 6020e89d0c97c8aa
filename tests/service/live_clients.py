"""The clients of tests/service/api/test_live_equals_replay.py: what a watcher
read (each update as protobuf and as protobufjs 7 read its bytes, or as JSON),
the checks of a live stream against its replay, the seats' moves by turns
through each face's unary calls (with stale moves and retries), and the
streams: the App's own, WatchGame, SSE, and play sessions on gRPC and on
WebSockets."""

from __future__ import annotations

import asyncio
import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

import aiohttp
import grpc
from google.protobuf import json_format, text_format
from google.protobuf.message import Message
from throneroom.v1 import game_pb2, service_pb2, service_pb2_grpc
from throneroom_server.app import App, updates
from throneroom_server.app.errors import AppError

from tests.service.decoding import last_occurrence
from tests.service.rest_helpers import Rest, sse_frames

QUIRK_RATE = 0.04
"""How often a client sends a stale move or retries an applied one (each
client also does both on its first moves, so every game has some)."""


WATCH_METHOD = "/throneroom.v1.Throneroom/WatchGame"
PLAY_METHOD = "/throneroom.v1.Throneroom/Play"

ABORTED = grpc.StatusCode.ABORTED
FAILED_PRECONDITION = grpc.StatusCode.FAILED_PRECONDITION


# -- what a watcher read --------------------------------------------------------------------

Reading = dict[str, service_pb2.GameUpdate]
"""One update as each kind of client read it: "protobuf", "protobufjs" (bytes)
or "json" (SSE)."""


def read_update(
    data: bytes, container: type[service_pb2.WatchGameResponse] | type[service_pb2.PlayResponse]
) -> Reading | None:
    """The update in a stream's response (None for a heartbeat or results alone),
    read as protobuf says and as protobufjs does."""
    merged = container.FromString(data)
    if not merged.HasField("update"):
        return None
    return {"protobuf": merged.update, "protobufjs": last_occurrence(container, data).update}


@dataclass
class Watched:
    """The updates one stream delivered, in order."""

    viewer: int | None
    readings: list[Reading] = field(default_factory=list)

    def add(self, reading: Reading | None) -> None:
        if reading is not None:
            self.readings.append(reading)

    @property
    def label(self) -> str:
        return "the spectator" if self.viewer is None else f"seat {self.viewer}"


def _reference(reading: Reading) -> service_pb2.GameUpdate:
    return next(iter(reading.values()))


def _comparable(update: service_pb2.GameUpdate) -> service_pb2.GameUpdate:
    """The update without what depends on when it was sent (its legal moves)."""
    copy = service_pb2.GameUpdate()
    copy.CopyFrom(update)
    copy.ClearField("legal_moves")
    copy.ClearField("legal_move_descriptions")
    return copy


def short(value: object) -> str:
    text = (
        text_format.MessageToString(value, as_one_line=True)
        if isinstance(value, Message)
        else repr(value)
    )
    text = text if text else "(unset)"
    return text if len(text) <= 100 else text[:97] + "..."


def difference(got: service_pb2.GameUpdate, want: service_pb2.GameUpdate) -> str:
    """The fields of the update and of its snapshot that differ, in words."""
    parts = []
    for name, a, b in (("", got, want), ("snapshot.", got.snapshot, want.snapshot)):
        for descriptor in b.DESCRIPTOR.fields:
            if not name and descriptor.name == "snapshot":
                continue
            mine, theirs = getattr(a, descriptor.name), getattr(b, descriptor.name)
            if mine != theirs:
                parts.append(f"{name}{descriptor.name} is {short(mine)}, not {short(theirs)}")
    return "; ".join(parts) or "(only in nested fields)"


def check_streams(
    where: str,
    live: Sequence[Watched],
    replay: Sequence[Watched],
    final: service_pb2.GameSnapshot,
) -> None:
    """Every live stream against the replay of its viewer (see the module)."""
    versions = list(range(1, final.version + 1))
    assert final.finished and final.HasField("outcome"), f"{where}: GetGame says {final}"
    replays = {watched.viewer: watched for watched in replay}
    for watched in live:
        again = replays[watched.viewer]
        who = f"{where}, {watched.label}"
        received = [r for r in watched.readings if _reference(r).version > 0]
        for stream, readings in (("live", received), ("replay", again.readings)):
            seen = [_reference(r).version for r in readings]
            if seen != versions:
                raise AssertionError(f"{who}: the {stream} stream's versions are {seen}")
            for parser, last in readings[-1].items():
                snapshot = last.snapshot
                if not snapshot.finished or snapshot.outcome != final.outcome:
                    raise AssertionError(
                        f"{who}: the last update of the {stream} stream (version "
                        f"{last.version}), read as {parser}, has finished={snapshot.finished} "
                        f"and outcome {short(snapshot.outcome)}; the game ended: "
                        f"{short(final.outcome)}"
                    )
        for got, want in zip(received, again.readings, strict=True):
            expected = _comparable(_reference(want))
            for stream, reading in (("live", got), ("replay", want)):
                for parser, update in reading.items():
                    if _comparable(update) != expected:
                        raise AssertionError(
                            f"{who}: version {expected.version} of the {stream} stream, read as "
                            f"{parser}, is not the replay's: "
                            f"{difference(_comparable(update), expected)}"
                        )


# -- the clients' moves: one seat at a time, like the client of issue 34 -------------------


@dataclass(frozen=True)
class Answer:
    """A move's answer: the version it made (and whether it was a retry's), or
    the status code that refused it."""

    version: int = 0
    replayed: bool = False
    refused: grpc.StatusCode | None = None


@dataclass(frozen=True)
class Sent:
    """A move as a client sent it."""

    seat: int
    expected_version: int
    move: game_pb2.Move
    key: str


class Table(Protocol):
    """A game as a client reaches it with unary calls."""

    async def current(self) -> service_pb2.GameSnapshot:
        """GetGame as a spectator."""
        ...

    async def legal(self, seat: int) -> tuple[int, Sequence[game_pb2.Move]]:
        """ListLegalMoves for the seat: its version and moves."""
        ...

    async def move(self, sent: Sent) -> Answer:
        """ApplyMove."""
        ...


async def play_by_turns(table: Table, rng: random.Random) -> tuple[service_pb2.GameSnapshot, Sent]:
    """Play to the end as the client of issue 34 did: each turn, GetGame as a
    spectator for who acts, then one of them lists its legal moves and applies
    one; now and then (and on the first two turns) a stale expected version
    first, or an applied move sent again with its key. The final snapshot and
    the last applied move."""
    last: tuple[Sent, int] | None = None
    turn = 0
    while True:
        snapshot = await table.current()
        if snapshot.finished:
            break
        seat = rng.choice(snapshot.to_act)
        version, legal = await table.legal(seat)
        assert version == snapshot.version, "nobody else moves"
        move = rng.choice(legal)
        turn += 1
        if turn == 1 or rng.random() < QUIRK_RATE:
            stale = version + 1 if version == 0 or rng.random() < 0.5 else version - 1
            sent = Sent(seat, stale, move, f"stale-{turn}")
            answer = await table.move(sent)
            if answer.refused is None:
                # An answer to an open simultaneous decision stands at the
                # versions since the decision opened for the seat (docs/api.md).
                assert stale < version and answer == Answer(version + 1), answer
                last = sent, answer.version
                continue
            assert answer.refused == ABORTED, answer
        sent = Sent(seat, version, move, f"move-{turn}")
        assert await table.move(sent) == Answer(version + 1)
        last = sent, version + 1
        if turn == 2 or rng.random() < QUIRK_RATE:
            assert await table.move(sent) == Answer(version + 1, replayed=True)
    assert last is not None, "the game ended at setup"
    await after_the_end(table, snapshot, *last)
    return snapshot, last[0]


async def after_the_end(
    table: Table, final: service_pb2.GameSnapshot, applied: Sent, version: int
) -> None:
    """A move after the end is refused; an applied one sent again is its first answer."""
    late = Sent(applied.seat, final.version, applied.move, "after-the-end")
    assert (await table.move(late)).refused == FAILED_PRECONDITION
    assert await table.move(applied) == Answer(version, replayed=True)
    assert (await table.current()) == final, "nothing changed after the end"


@dataclass
class AppTable:
    app: App
    game_id: str
    tokens: list[str]

    async def current(self) -> service_pb2.GameSnapshot:
        return await self.app.get_game(self.game_id, "")

    async def legal(self, seat: int) -> tuple[int, Sequence[game_pb2.Move]]:
        version, _, moves = await self.app.legal_moves(self.game_id, self.tokens[seat])
        return version, moves

    async def move(self, sent: Sent) -> Answer:
        # A call on the memory store never waits, so the watchers would not run
        # until the game is over (and be dropped as too slow): let them.
        await asyncio.sleep(0)
        try:
            done = await self.app.apply_move(
                self.game_id, self.tokens[sent.seat], sent.expected_version, sent.move, sent.key
            )
        except AppError as error:
            return Answer(refused=getattr(grpc.StatusCode, error.kind.value))
        return Answer(done.version, done.replayed)


@dataclass
class GrpcTable:
    stub: service_pb2_grpc.ThroneroomStub
    game_id: str
    tokens: list[str]

    async def current(self) -> service_pb2.GameSnapshot:
        got = await self.stub.GetGame(service_pb2.GetGameRequest(game_id=self.game_id))
        return got.snapshot

    async def legal(self, seat: int) -> tuple[int, Sequence[game_pb2.Move]]:
        got = await self.stub.ListLegalMoves(
            service_pb2.ListLegalMovesRequest(game_id=self.game_id, seat_token=self.tokens[seat])
        )
        return got.version, got.moves

    async def move(self, sent: Sent) -> Answer:
        try:
            done = await self.stub.ApplyMove(
                service_pb2.ApplyMoveRequest(
                    game_id=self.game_id,
                    seat_token=self.tokens[sent.seat],
                    expected_version=sent.expected_version,
                    move=sent.move,
                    idempotency_key=sent.key,
                )
            )
        except grpc.aio.AioRpcError as error:
            return Answer(refused=error.code())
        return Answer(done.version, done.replayed)


@dataclass
class RestTable:
    rest: Rest
    game_id: str
    tokens: list[str]

    async def current(self) -> service_pb2.GameSnapshot:
        body = await self.rest.ok("GET", f"/v1/games/{self.game_id}")
        return json_format.ParseDict(body, service_pb2.GetGameResponse()).snapshot

    async def legal(self, seat: int) -> tuple[int, Sequence[game_pb2.Move]]:
        path = f"/v1/games/{self.game_id}/legal-moves"
        body = await self.rest.ok("GET", path, token=self.tokens[seat])
        got = json_format.ParseDict(body, service_pb2.ListLegalMovesResponse())
        return got.version, got.moves

    async def move(self, sent: Sent) -> Answer:
        status, body, _ = await self.rest.call(
            "POST",
            f"/v1/games/{self.game_id}/moves",
            body={
                "expectedVersion": str(sent.expected_version),
                "move": json_format.MessageToDict(sent.move),
                "idempotencyKey": sent.key,
            },
            token=self.tokens[sent.seat],
        )
        if "error" in body:
            return Answer(refused=getattr(grpc.StatusCode, body["error"]["code"]))
        assert status == 200, body
        done = json_format.ParseDict(body, service_pb2.ApplyMoveResponse())
        return Answer(done.version, done.replayed)


# -- streams ------------------------------------------------------------------------------


def _watch_request(game_id: str, token: str) -> service_pb2.WatchGameRequest:
    # As the client of issue 34 watched: from version 0, a heartbeat a second.
    return service_pb2.WatchGameRequest(
        game_id=game_id, seat_token=token, from_version=0, heartbeat_seconds=1
    )


async def app_watch(app: App, game_id: str, token: str, viewer: int | None) -> Watched:
    """The App's own stream (``updates.watch``), each response as the faces send it."""
    watched = Watched(viewer)
    async for response in updates.watch(app, game_id, token, 0, 1.0):
        watched.add(read_update(updates.serialized(response), service_pb2.WatchGameResponse))
    return watched


async def grpc_watch(
    channel: grpc.aio.Channel, game_id: str, token: str, viewer: int | None
) -> Watched:
    """WatchGame, its responses as the bytes that came (no parser in between)."""
    watch = channel.unary_stream(
        WATCH_METHOD,
        request_serializer=service_pb2.WatchGameRequest.SerializeToString,
        response_deserializer=None,
    )
    call = watch(_watch_request(game_id, token))
    watched = Watched(viewer)
    async for data in call:
        watched.add(read_update(data, service_pb2.WatchGameResponse))
    assert await call.code() == grpc.StatusCode.OK
    return watched


async def sse_watch(rest: Rest, game_id: str, token: str, viewer: int | None) -> Watched:
    """The REST face's Server-Sent Events, each update's JSON."""
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    path = f"{rest.base}/v1/games/{game_id}/watch?fromVersion=0&heartbeatSeconds=1"
    watched = Watched(viewer)
    async with rest.session.get(path, headers=headers) as response:
        assert response.status == 200, await response.text()
        async for frame in sse_frames(response):
            assert frame["event"] in ("update", "heartbeat"), frame
            if frame["event"] == "update":
                parsed = json_format.Parse(frame["data"], service_pb2.WatchGameResponse())
                watched.add({"json": parsed.update})
    return watched


class Session(Protocol):
    """A play session's transport: requests out, responses' bytes in."""

    async def send(self, request: service_pb2.PlayRequest) -> None: ...

    async def receive(self) -> bytes | None:
        """The next response's bytes; None once the session ended cleanly."""
        ...

    async def close(self) -> None: ...


class GrpcSession:
    """The Play RPC, its responses as the bytes that came."""

    def __init__(self, channel: grpc.aio.Channel) -> None:
        play = channel.stream_stream(
            PLAY_METHOD,
            request_serializer=service_pb2.PlayRequest.SerializeToString,
            response_deserializer=None,
        )
        self.call = play()

    async def send(self, request: service_pb2.PlayRequest) -> None:
        await self.call.write(request)

    async def receive(self) -> bytes | None:
        data = await self.call.read()
        if data is grpc.aio.EOF:
            assert await self.call.code() == grpc.StatusCode.OK
            return None
        assert isinstance(data, bytes)
        return data

    async def close(self) -> None:
        self.call.cancel()


class SocketSession:
    """A play session on a WebSocket (binary frames)."""

    def __init__(self, ws: aiohttp.ClientWebSocketResponse) -> None:
        self.ws = ws

    async def send(self, request: service_pb2.PlayRequest) -> None:
        await self.ws.send_bytes(request.SerializeToString())

    async def receive(self) -> bytes | None:
        message = await self.ws.receive()
        if message.type is aiohttp.WSMsgType.BINARY:
            assert isinstance(message.data, bytes)
            return message.data
        assert message.type is aiohttp.WSMsgType.CLOSE, (message.type, message.data)
        assert self.ws.close_code == aiohttp.WSCloseCode.OK
        return None

    async def close(self) -> None:
        await self.ws.close()


@dataclass
class Played:
    """What a seat's play session sent and was answered (keys in the order sent)."""

    sent: dict[str, Sent] = field(default_factory=dict)
    results: list[service_pb2.PlayMoveResult] = field(default_factory=list)


async def play_session(
    session: Session,
    game_id: str,
    token: str,
    *,
    seat: int | None,
    rng: random.Random | None,
    played: Played,
    live: bool,
    go: asyncio.Event | None = None,
) -> Watched:
    """A seat (or, without a token, a spectator) on a play session from version
    0: live, each update that carries its legal moves is answered with one of
    them (now and then, and on its first two, a stale move before it or the
    move again after it), once ``go`` is set (so that every viewer's session
    is open before the game moves); a replay (``live`` False) sends nothing."""
    await session.send(
        service_pb2.PlayRequest(
            open=service_pb2.WatchGameRequest(
                game_id=game_id,
                seat_token=token,
                from_version=0,
                with_legal_moves=True,
                include_current=live,
            )
        )
    )
    watched = Watched(seat)
    turn = 0
    try:
        while (data := await session.receive()) is not None:
            response = service_pb2.PlayResponse.FromString(data)
            played.results.extend(response.results)
            watched.add(read_update(data, service_pb2.PlayResponse))
            update = response.update
            if not live or seat is None or rng is None or not update.legal_moves:
                continue
            if go is not None:
                await go.wait()
            turn += 1
            move = rng.choice(update.legal_moves)
            version = update.version
            sending = []
            if turn == 1 or rng.random() < QUIRK_RATE:
                sending.append(Sent(seat, version + 1, move, f"{seat}-stale-{turn}"))
            sending.append(Sent(seat, version, move, f"{seat}-move-{turn}"))
            if turn == 2 or rng.random() < QUIRK_RATE:
                sending.append(sending[-1])
            for sent in sending:
                played.sent[sent.key] = sent
                await session.send(
                    service_pb2.PlayRequest(
                        move=service_pb2.PlayMove(
                            expected_version=sent.expected_version,
                            move=sent.move,
                            idempotency_key=sent.key,
                        )
                    )
                )
    finally:
        await session.close()
    return watched


def check_results(where: str, played: Sequence[Played], final_version: int) -> tuple[Sent, int]:
    """Every version was made by one applied move; every move sent again after
    it applied was answered as replayed; refusals are ABORTED or
    FAILED_PRECONDITION (another seat's answer got there first); stale moves
    and retries happened. One applied move and its version (for ``after_the_end``)."""
    made: Counter[int] = Counter()
    quirks: Counter[str] = Counter()
    applied: tuple[Sent, int] | None = None
    for seat_played in played:
        first: dict[str, service_pb2.PlayMoveResult] = {}
        assert len(seat_played.results) >= len(set(seat_played.sent)), f"{where}: results lost"
        for result in seat_played.results:
            key = result.idempotency_key
            sent = seat_played.sent[key]
            before = first.setdefault(key, result)
            if result.HasField("error"):
                assert result.error.code in (ABORTED.value[0], FAILED_PRECONDITION.value[0]), result
                quirks["refused"] += 1
            elif before is not result and not before.HasField("error"):
                assert result.replayed and result.version == before.version, (
                    f"{where}: {key} sent again is not its first answer: {result}"
                )
                quirks["replayed"] += 1
            else:
                assert not result.replayed, result
                made[result.version] += 1
                applied = sent, result.version
    assert sorted(made.elements()) == list(range(1, final_version + 1)), (
        f"{where}: the versions made by the moves applied"
    )
    assert quirks["refused"] and quirks["replayed"], f"{where}: {quirks}"
    assert applied is not None
    return applied
