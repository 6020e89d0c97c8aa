"""The SDK rides through a store outage with its default retry policy.

A real server over a real redis-server; while a game is being played (GetGame,
ListLegalMoves, ApplyMove), read and watched by the sync and the asyncio
clients, the redis-server is stopped, kept down for 20 seconds and started
again on the same port with the same data. Every call must complete without
raising, every move must be applied exactly once (versions 1..N, no gap, no
repeat) and every watch must deliver every version exactly once.

This takes about 25 seconds of wall time; nothing here asserts on time.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from throneroom import AsyncClient, Client, GameHandle
from throneroom.v1 import service_pb2
from throneroom_server.embedded import EmbeddedServer

from tests.sdk.helpers import RestartableRedis
from tests.waiting import Progress

OUTAGE_SECONDS = 20.0
PILE = 60
#: Redis is stopped once the game reaches this version (and every reader has
#: read and watched some of it) ...
OUTAGE_AT = 10
#: ... and the player waits for the stop before playing past this one, so that
#: the outage always falls in the middle of the game.
HOLD_AT = 20
#: What the readers wait for between two reads: the game is over, or it moved,
#: or Redis stopped since their last read (so one read falls in the outage).
NEWS = ("over", "version", "outage")


class Background:
    """Runs ``target`` in a thread and keeps what it raised."""

    def __init__(self, name: str, target: Callable[[], Any]) -> None:
        self.errors: list[BaseException] = []
        self.result: Any = None

        def run() -> None:
            try:
                self.result = target()
            except BaseException as exc:  # reported by the test, not lost in the thread
                self.errors.append(exc)

        self.thread = threading.Thread(target=run, name=name, daemon=True)
        self.thread.start()

    def join(self) -> Any:
        self.thread.join(timeout=300)
        assert not self.thread.is_alive(), f"{self.thread.name} is still running"
        assert self.errors == [], f"{self.thread.name} raised {self.errors!r}"
        return self.result


@pytest.mark.redis  # its own restartable redis-server
@pytest.mark.slow  # a 20-second outage
def test_a_game_rides_through_a_redis_restart(tmp_path: Path) -> None:
    redis = RestartableRedis(str(tmp_path))
    redis.start()
    try:
        with EmbeddedServer(redis_url=redis.url, include_fixtures=True) as server:
            _play_through_an_outage(server.address, redis)
    finally:
        redis.stop()


def _news(progress: Progress, last: Counter[str]) -> Counter[str]:
    """Wait until the game is over, moved or Redis stopped since ``last``
    (a reader's previous look); the counts now."""
    return progress.wait(
        lambda counts: any(counts[what] > last[what] for what in NEWS),
        "news for the readers",
        timeout=120,
    )


def _play(seats: list[GameHandle], progress: Progress) -> list[service_pb2.ApplyMoveResponse]:
    """Play the game to its end, holding at HOLD_AT until Redis is stopped; each answer."""
    responses = []
    try:
        while True:
            first = seats[0]
            first.refresh()  # GetGame
            if first.finished:
                return responses
            mover = seats[first.to_act[0]]
            move = mover.legal_moves()[0]  # ListLegalMoves
            responses.append(mover.play(move))  # ApplyMove
            progress.reach("version", mover.version)
            if mover.version >= HOLD_AT:
                progress.wait(lambda c: c["outage"], "redis stopped", timeout=60)
    finally:
        progress.add("over")


def _poll(client: Client, game_id: str, progress: Progress) -> list[int]:
    """The versions GetGame answers, read whenever there is news, until the game is over."""
    seen = []
    looked = _news(progress, Counter())
    while not looked["over"]:
        seen.append(client.get_game(game_id).version)
        progress.add("polls")
        looked = _news(progress, looked)
    return seen


def _watch(handle: GameHandle, progress: Progress) -> list[int]:
    """Every version the watch delivers."""
    seen = []
    for update in handle.watch(0, include_current=False):
        seen.append(update.version)
        progress.add("watched")
    return seen


def _play_through_an_outage(address: str, redis: RestartableRedis) -> None:
    waits: list[float] = []  # every retry wait of the sync client

    def backoff(seconds: float) -> None:
        waits.append(seconds)
        time.sleep(seconds)  # the SDK's own retry backoff (recorded): the outage is real

    progress = Progress()
    with Client(address, sleep=backoff) as client:  # the shipped default policy
        game_id = client.create_game("nim", seats=2, options={"pile": PILE, "max_take": 1})
        seats = [client.join(game_id, name="ada"), client.join(game_id, name="bob")]
        watcher = client.spectate(game_id)

        async_waits: list[float] = []
        async_run = Background(
            "async-client",
            lambda: asyncio.run(_async_reader(address, game_id, async_waits, progress)),
        )
        watching = Background("watch", lambda: _watch(watcher, progress))
        polling = Background("poll", lambda: _poll(client, game_id, progress))
        playing = Background("play", lambda: _play(seats, progress))

        readers = ("polls", "watched", "async polls", "async watched")
        progress.wait(  # (or the player is over early: its error is reported below)
            lambda c: c["over"] or (c["version"] >= OUTAGE_AT and all(c[r] for r in readers)),
            f"version {OUTAGE_AT} played, read and watched by both clients",
            timeout=60,
        )
        redis.stop()
        progress.add("outage")
        time.sleep(OUTAGE_SECONDS)  # the outage itself is what is tested: 20 s without Redis
        redis.start()

        responses: list[service_pb2.ApplyMoveResponse] = playing.join()
        polled: list[int] = polling.join()
        watched: list[int] = watching.join()
        async_watched, async_polled = async_run.join()

        every_version = list(range(1, PILE + 1))
        # Each move applied exactly once: one answer per version, in order.
        assert [r.version for r in responses] == every_version
        history = client.history(game_id)
        assert [e.version for e in history] == every_version
        assert [e.seat for e in history] == [(v - 1) % 2 for v in every_version]
        final = client.spectate(game_id)
        assert final.finished and final.version == PILE
        assert final.view.pile == 0  # type: ignore[attr-defined]
        # Each watch delivered every version exactly once.
        assert watched == every_version
        assert async_watched == every_version
        # Readers never went back in time.
        assert polled == sorted(polled) and async_polled == sorted(async_polled)
        # The outage did reach both clients: they waited and retried.
        assert waits and async_waits


async def _async_reader(
    address: str, game_id: str, waits: list[float], progress: Progress
) -> tuple[list[int], list[int]]:
    """Watches and polls the game with the asyncio client until it is over."""

    async def backoff(seconds: float) -> None:
        waits.append(seconds)
        await asyncio.sleep(seconds)  # the SDK's own retry backoff (recorded): the outage is real

    async with AsyncClient(address, sleep=backoff) as client:
        watcher = await client.spectate(game_id)
        polled: list[int] = []

        async def watch() -> list[int]:
            seen = []
            async for update in watcher.watch(0, include_current=False):
                seen.append(update.version)
                progress.add("async watched")
            return seen

        async def poll() -> None:
            looked = await asyncio.to_thread(_news, progress, Counter())
            while not looked["over"]:
                polled.append((await client.get_game(game_id)).version)
                progress.add("async polls")
                looked = await asyncio.to_thread(_news, progress, looked)

        watched, _ = await asyncio.gather(watch(), poll())
        return watched, polled
