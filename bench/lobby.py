"""ListGames' cost against GetGame's, on the memory store and on Redis.

Fills each store with GAMES Nim games (a third started, a sixth finished),
then times, through the App (no transport), ListGames pages of 20 and 100
games (any status, and "started" only, which skips the others' index) and a
whole walk of the "open" games by pages of 100, against GetGame of one game,
the baseline measured in the same run. Prints milliseconds per call (wall
and this process's CPU) and the ratio to GetGame. A throwaway redis-server
on a free port (never one running here).

    python bench/lobby.py [--games 3000] [--rounds 30]
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "sdk"), str(ROOT / "service")]

from throneroom.v1 import game_pb2, nim_pb2, service_pb2  # noqa: E402
from throneroom_server.app.service import App  # noqa: E402
from throneroom_server.games.registry import service_games  # noqa: E402
from throneroom_server.runtime.logs import configure_logging  # noqa: E402
from throneroom_server.store.base import Store  # noqa: E402
from throneroom_server.store.memory import MemoryStore  # noqa: E402
from throneroom_server.store.redis import RedisStore  # noqa: E402

from throneroom_dev.processes import throwaway_redis  # noqa: E402

STARTED = service_pb2.GAME_STATUS_FILTER_STARTED
OPEN = service_pb2.GAME_STATUS_FILTER_OPEN


async def fill(app: App, games: int) -> str:
    options = game_pb2.GameOptions(nim=nim_pb2.NimOptions(pile=5, max_take=3))
    last = ""
    for n in range(games):
        last, _ = await app.create_game(options, 2, n)
        if n % 3 == 0:
            tokens = [(await app.join_game(last, None, ""))[1] for _ in range(2)]
            if n % 6 == 0:
                for version, take in enumerate((3, 2)):
                    move = game_pb2.Move(nim=nim_pb2.NimMove(take=take))
                    await app.apply_move(last, tokens[version % 2], version, move, f"k{version}")
    return last


async def timed(rounds: int, call: Callable[[], Awaitable[object]]) -> tuple[float, float]:
    await call()  # warm
    wall, cpu = time.perf_counter(), time.process_time()
    for _ in range(rounds):
        await call()
    return (
        (time.perf_counter() - wall) * 1000 / rounds,
        (time.process_time() - cpu) * 1000 / rounds,
    )


async def walk_open(app: App) -> int:
    token, seen = "", 0
    while True:
        page = await app.lobby.list_games(
            service_pb2.ListGamesRequest(status=OPEN, page_size=100, page_token=token),
            caller=app.access.identify("bench", ""),
        )
        seen += len(page.games)
        token = page.next_page_token
        if not token:
            return seen


async def run(name: str, store: Store, games: int, rounds: int) -> None:
    app = App(store, service_games(include_fixtures=True))
    one = await fill(app, games)
    caller = app.access.identify("bench", "")

    def listing(size: int, status: int = 0) -> Callable[[], Awaitable[object]]:
        request = service_pb2.ListGamesRequest(page_size=size, status=status)  # type: ignore[arg-type]
        return lambda: app.lobby.list_games(request, caller=caller)

    base = await timed(rounds, lambda: app.get_game(one, ""))
    print(f"{name}: {games} games; GetGame {base[0]:.3f} ms wall, {base[1]:.3f} ms CPU (baseline)")
    cases = [
        ("ListGames 20, any", listing(20)),
        ("ListGames 100, any", listing(100)),
        ("ListGames 100, started", listing(100, STARTED)),
    ]
    for label, call in cases:
        wall, cpu = await timed(rounds, call)
        print(f"  {label:<24} {wall:8.3f} ms wall {cpu:8.3f} ms CPU  x{wall / base[0]:.1f} GetGame")
    wall, cpu = await timed(max(1, rounds // 10), lambda: walk_open(app))
    print(
        f"  {'walk of open, by 100':<24} {wall:8.3f} ms wall {cpu:8.3f} ms CPU"
        f"  ({await walk_open(app)} games)"
    )
    await store.close()


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=3000)
    parser.add_argument("--rounds", type=int, default=30)
    args = parser.parse_args()
    configure_logging(level="warning")
    await run("memory", MemoryStore(), args.games, args.rounds)
    with throwaway_redis() as url:
        await run("redis", RedisStore(url), args.games, args.rounds)


if __name__ == "__main__":
    asyncio.run(main())
