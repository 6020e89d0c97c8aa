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
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine, Sequence
from dataclasses import dataclass

import aiohttp
import pytest
from throneroom.v1 import game_pb2, kings_life_pb2, service_pb2
from throneroom_server.api import play_socket
from throneroom_server.app import App
from throneroom_server.games.registry import service_games
from throneroom_server.store.base import Store
from throneroom_server.store.memory import MemoryStore

from tests.conformance.profiles import Case, conformance_cases
from tests.service.decoding import last_occurrence
from tests.service.helpers import Service, start_service
from tests.service.live_clients import (
    AppTable,
    GrpcSession,
    GrpcTable,
    Played,
    RestTable,
    Session,
    SocketSession,
    Table,
    Watched,
    after_the_end,
    app_watch,
    check_results,
    check_streams,
    grpc_watch,
    play_by_turns,
    play_session,
    short,
    sse_watch,
)
from tests.service.rest_helpers import Rest
from tests.waiting import until

DEADLINE = 120.0
"""Seconds one game (with its streams) may take on a loaded machine before it fails."""

APP_SEEDS = [0, *(pytest.param(seed, marks=pytest.mark.slow) for seed in range(1, 6))]
"""Seeds per game on the cheapest path (the App's own stream, memory store):
seed 0 in the fast tier, five more in the slow one."""


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
    await until(lambda: hub.open_streams == opened + len(tasks), "every stream open")
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

    everyone_open = asyncio.Event()

    async def live(token: str, viewer: int | None, played: Played) -> Watched:
        rng = None if viewer is None else random.Random(f"{game.rng.random()}-{viewer}")
        session = await connect()
        return await play_session(
            session,
            game.game_id,
            token,
            seat=viewer,
            rng=rng,
            played=played,
            live=True,
            go=everyone_open,
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
        await until(lambda: hub.open_streams == opened + len(tasks), "every stream open")
        everyone_open.set()
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
        store,
        id=f"{face}-{case.id}-{store}",
        marks=[pytest.mark.redis] if store == "redis" else [],
    )
    for i, face in enumerate(FACES)
    for j, case in enumerate(CASES)
    for store in [STORES[(i + j) % len(STORES)]]
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


@pytest.mark.redis
@pytest.mark.parametrize("store", ["redis"], indirect=True)
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
        await until(lambda: hub.open_streams == 1, "the spectator's stream open")
        final, _ = await play_by_turns(GrpcTable(served.stub, game_id, tokens), game.rng)
        live = await spectator
    last = live.readings[-1]["protobufjs"]
    assert last.version == final.version
    assert last.snapshot.finished and last.snapshot.outcome == final.outcome, (
        f"version {last.version} read as protobufjs: finished={last.snapshot.finished}, "
        f"outcome {short(last.snapshot.outcome)}"
    )
    check_streams("issue 34", [live], [await grpc_watch(served.channel, game_id, "", None)], final)
