"""What a live watcher receives is what a replay gives (issue 34).

For every registered game, every viewer (a spectator and each seat), both
stores (the memory store and Redis) and every face a stream has (the App's
own stream, WatchGame, Play sessions, SSE, WebSocket play sessions): the
update of each version that a watcher received while the game was played
equals, field for field, the update of that version that a replay from
version 0 gives once the game is over; and the last update of a stream that
ended because the game finished carries ``finished`` and the outcome. The
clients misbehave as clients do: stale expected versions (ABORTED), applied
moves sent again with their idempotency key (replayed) and moves after the
end (refused); none of it may change what a watcher sees.

A stream's bytes are read as two kinds of client read them
(``decoding.py``): as protobuf says (the occurrences of a message field
merged, as Python's parser does) and as protobufjs 7 does (the last
occurrence only, as the Node.js client of issue 34 did); both must read the
same update. SSE sends JSON, read once.

Each face plays each game's shortest variant (the smallest declared
``max_decisions``) with one seed, on one store or the other (each face and
each game meets both); the App's own stream, the cheapest path, plays more
seeds. Left out of the comparison: legal moves, which ride on an
update only when it is the newest version its stream knows of (updates.py),
so depend on when it was sent; and a play session's update of version 0
(``include_current``), which a replay from version 0 does not have.
"""

from __future__ import annotations

import asyncio
import random
from collections import Counter
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine, Sequence
from dataclasses import dataclass, field
from typing import Protocol

import aiohttp
import grpc
import pytest
from google.protobuf import json_format, text_format
from google.protobuf.message import Message
from throneroom.v1 import game_pb2, kings_life_pb2, service_pb2, service_pb2_grpc
from throneroom_server.api import play_socket
from throneroom_server.app import updates
from throneroom_server.app.errors import AppError
from throneroom_server.app.service import App
from throneroom_server.games.registry import service_games
from throneroom_server.store.base import Store
from throneroom_server.store.memory import MemoryStore

from tests.conformance.profiles import Case, conformance_cases
from tests.service.decoding import last_occurrence
from tests.service.helpers import Service, start_service
from tests.service.rest_helpers import Rest, sse_frames

DEADLINE = 120.0
"""Seconds one game (with its streams) may take on a loaded machine before it fails."""

QUIRK_RATE = 0.04
"""How often a client sends a stale move or retries an applied one (each
client also does both on its first moves, so every game has some)."""

APP_SEEDS = range(6)
"""Seeds per game on the cheapest path (the App's own stream, memory store)."""


def _shortest(cases: Sequence[Case]) -> list[Case]:
    """Each game's variant with the smallest declared maximum length (the first
    declared on a tie)."""
    shortest: dict[str, Case] = {}
    for case in cases:
        best = shortest.get(case.name)
        length = case.game.max_decisions(case.options, case.variant.seats)
        if best is None or length < best.game.max_decisions(best.options, best.variant.seats):
            shortest[case.name] = case
    return list(shortest.values())


CASES = _shortest(conformance_cases())
IDS = [case.id for case in CASES]
GAMES = service_games(include_fixtures=True)

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


def _short(value: object) -> str:
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
                parts.append(f"{name}{descriptor.name} is {_short(mine)}, not {_short(theirs)}")
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
                        f"and outcome {_short(snapshot.outcome)}; the game ended: "
                        f"{_short(final.outcome)}"
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
) -> Watched:
    """A seat (or, without a token, a spectator) on a play session from version
    0: live, each update that carries its legal moves is answered with one of
    them (now and then, and on its first two, a stale move before it or the
    move again after it); a replay (``live`` False) sends nothing."""
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


# -- the faces ---------------------------------------------------------------------------

Watch = Callable[[str, int | None], Coroutine[None, None, Watched]]
"""A face's stream from version 0 for a token ("" for a spectator) and its viewer."""


@dataclass
class NewGame:
    game_id: str
    tokens: list[str]
    rng: random.Random


async def new_game(app: App, case: Case, seed: int) -> NewGame:
    """The case's game with every seat taken (through the App: the faces differ
    in how they are watched and played, not in how games are made)."""
    options = case.game.messages.wrap_options(case.options)
    game_id, _ = await app.create_game(options, case.variant.seats, seed)
    tokens = [(await app.join_game(game_id, n, f"p{n}"))[1] for n in range(case.variant.seats)]
    return NewGame(game_id, tokens, random.Random(seed))


async def until(condition: Callable[[], bool]) -> None:
    """Until ``condition`` holds (asked every few ms; the caller's deadline bounds it)."""
    while not condition():
        await asyncio.sleep(0.005)


async def watching(
    app: App,
    game: NewGame,
    watch: Watch,
) -> list[asyncio.Task[Watched]]:
    """A spectator's and each seat's stream, open (counted by the server) before
    the first move."""
    hub = app.watch_hub
    opened = hub.open_streams
    viewers: list[tuple[str, int | None]] = [("", None), *seat_viewers(game)]
    tasks = [asyncio.create_task(watch(token, viewer)) for token, viewer in viewers]
    await until(lambda: hub.open_streams == opened + len(tasks))
    return tasks


def seat_viewers(game: NewGame) -> list[tuple[str, int | None]]:
    return [(token, seat) for seat, token in enumerate(game.tokens)]


async def replayed(game: NewGame, watch: Watch) -> list[Watched]:
    """Each viewer's stream from version 0, after the game."""
    viewers = [("", None), *seat_viewers(game)]
    return list(await asyncio.gather(*(watch(token, viewer) for token, viewer in viewers)))


async def by_turns_and_watched(
    app: App,
    game: NewGame,
    table: Table,
    watch: Watch,
    where: str,
) -> None:
    """Watch live, play by turns (``play_by_turns``), replay, compare."""
    async with asyncio.timeout(DEADLINE):
        tasks = await watching(app, game, watch)
        final, _ = await play_by_turns(table, game.rng)
        live = [await task for task in tasks]
        check_streams(where, live, await replayed(game, watch), final)


async def in_sessions_and_watched(
    app: App,
    game: NewGame,
    table: Table,
    connect: Callable[[], Awaitable[Session]],
    where: str,
) -> None:
    """Each seat plays on its own play session and a spectator watches on one
    (``play_session``); moves after the end by ``table``; then every viewer
    replays on a session from version 0 and each is compared."""

    async def live(token: str, viewer: int | None, played: Played) -> Watched:
        rng = None if viewer is None else random.Random(f"{game.rng.random()}-{viewer}")
        session = await connect()
        return await play_session(
            session, game.game_id, token, seat=viewer, rng=rng, played=played, live=True
        )

    async def again(token: str, viewer: int | None) -> Watched:
        session = await connect()
        return await play_session(
            session, game.game_id, token, seat=viewer, rng=None, played=Played(), live=False
        )

    async with asyncio.timeout(DEADLINE):
        viewers = [("", None), *seat_viewers(game)]
        played = [Played() for _ in viewers]
        hub = app.watch_hub
        opened = hub.open_streams
        tasks = [
            asyncio.create_task(live(token, viewer, record))
            for (token, viewer), record in zip(viewers, played, strict=True)
        ]
        await until(lambda: hub.open_streams == opened + len(tasks))
        watched = [await task for task in tasks]
        final = await table.current()
        applied, version = check_results(where, played, final.version)
        await after_the_end(table, final, applied, version)
        check_streams(where, watched, await replayed(game, again), final)


# -- the tests -----------------------------------------------------------------------------


def test_reading_as_protobufjs_keeps_the_last_occurrence_of_a_message_field() -> None:
    """The reader the checks use: a message field twice is merged by protobuf,
    read as its last occurrence alone by protobufjs; bytes that hold each
    message once read the same either way."""
    shared = service_pb2.GameUpdate(
        version=3, snapshot=service_pb2.GameSnapshot(version=3, finished=True)
    )
    own = service_pb2.GameUpdate(
        snapshot=service_pb2.GameSnapshot(viewer_seat=1), events=[game_pb2.Event()]
    )
    data = shared.SerializeToString() + own.SerializeToString() + own.SerializeToString()
    merged = service_pb2.GameUpdate.FromString(data)
    assert merged.snapshot.finished and merged.snapshot.viewer_seat == 1
    last = last_occurrence(service_pb2.GameUpdate, data)
    assert last.version == 3 and len(last.events) == 2
    assert last.snapshot == service_pb2.GameSnapshot(viewer_seat=1)
    once = merged.SerializeToString()
    assert last_occurrence(service_pb2.GameUpdate, once) == merged


@pytest.mark.parametrize("seed", APP_SEEDS)
@pytest.mark.parametrize("case", CASES, ids=IDS)
async def test_the_apps_stream_live_is_its_replay(case: Case, seed: int) -> None:
    """The cheapest path, with the most seeds: the App's own stream (what every
    face sends) on the memory store."""
    app = App(MemoryStore(), GAMES)
    game = await new_game(app, case, seed)

    async def watch(token: str, viewer: int | None) -> Watched:
        return await app_watch(app, game.game_id, token, viewer)

    table = AppTable(app, game.game_id, game.tokens)
    await by_turns_and_watched(app, game, table, watch, f"{case.id} seed {seed}")


@pytest.fixture
async def served(store: Store) -> AsyncIterator[Service]:
    """Both faces (gRPC and REST) of one server over the store."""
    service = await start_service(store, http=True)
    yield service
    await service.channel.close()
    await service.running.stop(None)


async def rest_client(service: Service) -> Rest:
    running = service.running
    assert running.rest is not None
    session = aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=DEADLINE))
    return Rest(running.app, running.rest, session, f"http://127.0.0.1:{running.http_port}")


FACES = ["watch", "play", "sse", "socket"]
STORES = ["memory", "redis"]
FACE_CASES = [
    pytest.param(
        face,
        case,
        STORES[(i + j) % len(STORES)],
        id=f"{face}-{case.id}-{STORES[(i + j) % 2]}",
        # The store is fetched at run time: its tier rides on the parameter.
        marks=pytest.mark.redis if STORES[(i + j) % 2] == "redis" else (),
    )
    for i, face in enumerate(FACES)
    for j, case in enumerate(CASES)
]
"""Every game through every face, each face on both stores (and each game on
both) but not every triple: a few seconds per face."""


@pytest.mark.parametrize(("face", "case", "store"), FACE_CASES, indirect=["store"])
async def test_each_face_live_is_its_replay(served: Service, face: str, case: Case) -> None:
    """Live and replayed through the face. Where the face only watches
    (WatchGame, SSE), the seats move by turns on gRPC as the client of issue 34
    did; where it plays (Play, WebSocket sessions), each seat on its session,
    and after the end on the same face's unary calls."""
    app = served.running.app
    game = await new_game(app, case, seed=len(case.id))
    where = f"{case.id} on {face}"
    rest = await rest_client(served)
    by_grpc = GrpcTable(served.stub, game.game_id, game.tokens)
    try:
        if face == "watch":

            async def watch(token: str, viewer: int | None) -> Watched:
                return await grpc_watch(served.channel, game.game_id, token, viewer)

            await by_turns_and_watched(app, game, by_grpc, watch, where)
        elif face == "sse":

            async def sse(token: str, viewer: int | None) -> Watched:
                return await sse_watch(rest, game.game_id, token, viewer)

            await by_turns_and_watched(app, game, by_grpc, sse, where)
        elif face == "play":

            async def grpc_session() -> Session:
                return GrpcSession(served.channel)

            await in_sessions_and_watched(app, game, by_grpc, grpc_session, where)
        else:

            async def socket_session() -> Session:
                return SocketSession(await rest.session.ws_connect(rest.base + play_socket.PATH))

            table = RestTable(rest, game.game_id, game.tokens)
            await in_sessions_and_watched(app, game, table, socket_session, where)
    finally:
        await rest.session.close()


@pytest.mark.parametrize("store", [pytest.param("redis", marks=pytest.mark.redis)], indirect=True)
async def test_issue_34_a_spectator_reading_as_protobufjs_learns_how_the_game_ended(
    served: Service,
) -> None:
    """Issue 34 as it was found: King's Life, 5 seats, seed 7, on Redis; a
    spectator's WatchGame from version 0 (heartbeat 1 s) opened once the seats
    are taken; the seats played by turns (GetGame as a spectator, then
    ListLegalMoves and ApplyMove), with a stale move and a retry early on.
    The spectator reads the stream as protobufjs does (the Node.js client)."""
    app = served.running.app
    options = game_pb2.GameOptions(kings_life=kings_life_pb2.KingsLifeOptions())
    game_id, _ = await app.create_game(options, 5, 7)
    tokens = [(await app.join_game(game_id, n, f"p{n}"))[1] for n in range(5)]
    game = NewGame(game_id, tokens, random.Random(34))
    async with asyncio.timeout(DEADLINE):
        hub = app.watch_hub
        spectator = asyncio.create_task(grpc_watch(served.channel, game_id, "", None))
        await until(lambda: hub.open_streams == 1)
        final, _ = await play_by_turns(GrpcTable(served.stub, game_id, tokens), game.rng)
        live = await spectator
    last = live.readings[-1]["protobufjs"]
    assert last.version == final.version
    assert last.snapshot.finished and last.snapshot.outcome == final.outcome, (
        f"version {last.version} read as protobufjs: finished={last.snapshot.finished}, "
        f"outcome {_short(last.snapshot.outcome)}"
    )
    check_streams("issue 34", [live], [await grpc_watch(served.channel, game_id, "", None)], final)
