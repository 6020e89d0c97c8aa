"""The lobby index, one contract for both stores (store/lobby.py has the scheme)."""

from __future__ import annotations

import pytest
import redis
from throneroom.v1 import game_pb2, nim_pb2, storage_pb2
from throneroom_server.store import Committed, Store, StoreUnavailable
from throneroom_server.store.lobby import SCAN_LIMIT, ListedGame, LobbyStatus
from throneroom_server.store.memory import MemoryStore
from throneroom_server.store.redis import RedisStore, game_key, lobby_key, log_key

OPEN, STARTED, FINISHED = LobbyStatus.OPEN, LobbyStatus.STARTED, LobbyStatus.FINISHED


def _meta(game_type: str, created_ms: int, seats: int = 2) -> storage_pb2.StoredGameMeta:
    return storage_pb2.StoredGameMeta(
        game_type=game_type, num_seats=seats, seed=1, created_unix_ms=created_ms
    )


def _state() -> game_pb2.GameState:
    return game_pb2.GameState(nim=nim_pb2.NimState(pile=5, num_seats=2))


async def _create(store: Store, game_id: str, created_ms: int, game_type: str = "nim") -> None:
    await store.create_game(game_id, _meta(game_type, created_ms), _state())


async def _seat_all(store: Store, game_id: str, seats: int = 2) -> None:
    for _ in range(seats):
        await store.claim_seat(game_id, None, seats, storage_pb2.StoredSeat(display_name="x"))


async def _finish(store: Store, game_id: str) -> None:
    entry = storage_pb2.StoredEntry(version=1, seat=0)
    result = await store.commit(game_id, 0, _state(), entry, "k", finished=True)
    assert result == Committed(1)


async def _ids(
    store: Store, game_type: str = "", status: LobbyStatus | None = None, limit: int = 100
) -> list[str]:
    page = await store.list_games(game_type, status, limit, "")
    assert page.cursor == "", "one page was expected"
    return [g.game_id for g in page.games]


async def _all_pages(
    store: Store, status: LobbyStatus | None, limit: int
) -> tuple[list[str], list[int]]:
    seen: list[str] = []
    sizes: list[int] = []
    cursor = ""
    while True:
        page = await store.list_games("", status, limit, cursor)
        seen += [g.game_id for g in page.games]
        sizes.append(len(page.games))
        cursor = page.cursor
        if not cursor:
            return seen, sizes


async def _expire(store: Store, game_id: str) -> None:
    """What retention does when the game's time is up: its keys are gone."""
    if isinstance(store, RedisStore):
        await store._redis.delete(game_key(game_id), log_key(game_id))
    else:
        assert isinstance(store, MemoryStore)
        store._games[game_id].expires_at = 0.0


async def test_newest_first_by_type_and_status(store: Store) -> None:
    await _create(store, "a1", 1000)
    await _create(store, "b1", 3000, "king_is_dead")
    await _create(store, "a2", 2000)
    await _create(store, "a3", 2000)  # same millisecond as a2: ordered by id
    assert await _ids(store) == ["b1", "a2", "a3", "a1"]
    assert await _ids(store, "nim") == ["a2", "a3", "a1"]
    assert await _ids(store, "king_is_dead") == ["b1"]
    assert await _ids(store, "kings_life") == []
    assert await _ids(store, status=OPEN) == ["b1", "a2", "a3", "a1"]
    assert await _ids(store, status=STARTED) == []


async def test_status_moves_open_started_finished(store: Store) -> None:
    await _create(store, "g1", 1000)
    await _create(store, "g2", 2000)
    await store.claim_seat("g1", 1, 2, storage_pb2.StoredSeat())
    page = await store.list_games("", OPEN, 10, "")
    assert [(g.game_id, g.seats_taken) for g in page.games] == [
        ("g2", frozenset()),
        ("g1", frozenset({1})),
    ]
    await store.claim_seat("g1", 0, 2, storage_pb2.StoredSeat())
    assert await _ids(store, status=OPEN) == ["g2"]
    assert await _ids(store, status=STARTED) == ["g1"]
    assert await _ids(store, "nim", STARTED) == ["g1"]
    await _finish(store, "g1")
    assert await _ids(store, status=STARTED) == []
    assert await _ids(store, status=FINISHED) == ["g1"]
    assert await _ids(store, "nim", FINISHED) == ["g1"]
    assert await _ids(store) == ["g2", "g1"]
    listed = (await store.list_games("", FINISHED, 10, "")).games[0]
    assert listed == ListedGame(
        game_id="g1",
        meta=_meta("nim", 1000),
        version=1,
        seats_taken=frozenset({0, 1}),
        status=FINISHED,
    )


async def test_pages_neither_repeat_nor_skip_while_games_are_created(store: Store) -> None:
    for n in range(25):
        await _create(store, f"g{n:02d}", 1000 + n)
    expected = [f"g{n:02d}" for n in reversed(range(25))]
    first = await store.list_games("", None, 10, "")
    assert [g.game_id for g in first.games] == expected[:10]
    assert first.cursor
    for n in range(5):  # newer games arrive between pages
        await _create(store, f"new{n}", 5000 + n)
    await _create(store, "tie", 1000 + 15)  # same ms as a game not yet listed
    second = await store.list_games("", None, 10, first.cursor)
    third = await store.list_games("", None, 10, second.cursor)
    rest = [g.game_id for g in [*second.games, *third.games]]
    assert third.cursor == ""
    seen = [g.game_id for g in first.games] + rest
    assert sorted(set(seen) - {"tie"}) == sorted(expected)
    assert len(seen) == len(set(seen))


async def test_last_full_page_has_no_cursor(store: Store) -> None:
    for n in range(6):
        await _create(store, f"g{n}", 1000 + n)
    seen, sizes = await _all_pages(store, None, 3)
    assert sizes == [3, 3]
    assert seen == [f"g{n}" for n in reversed(range(6))]


async def test_status_filter_pages_through_mixed_games(store: Store) -> None:
    for n in range(12):
        await _create(store, f"g{n:02d}", 1000 + n)
        if n % 3 == 0:
            await _seat_all(store, f"g{n:02d}")
    seen, _ = await _all_pages(store, STARTED, 2)
    assert seen == ["g09", "g06", "g03", "g00"]
    seen, _ = await _all_pages(store, OPEN, 5)
    assert seen == [f"g{n:02d}" for n in reversed(range(12)) if n % 3]


async def test_gone_games_are_never_listed_and_leave_the_index(store: Store) -> None:
    for n in range(4):
        await _create(store, f"g{n}", 1000 + n)
    await _seat_all(store, "g1")
    await _expire(store, "g2")
    await _expire(store, "g1")
    assert await _ids(store) == ["g3", "g0"]
    assert await _ids(store, status=STARTED) == []
    await _expire(store, "g3")
    assert await store.sweep_lobby(100) == 1
    assert await store.sweep_lobby(100) == 0
    assert await _ids(store) == ["g0"]
    if isinstance(store, RedisStore):  # the index itself holds g0 only now
        for status in (None, OPEN, STARTED):
            assert await store._redis.zcard(lobby_key("", status)) == (status != STARTED)
            assert await store._redis.zcard(lobby_key("nim", status)) == (status != STARTED)


async def test_sweep_walks_the_whole_index_in_steps(store: Store) -> None:
    for n in range(10):
        await _create(store, f"g{n}", 1000 + n)
    for n in (0, 4, 9):
        await _expire(store, f"g{n}")
    dropped = [await store.sweep_lobby(3) for _ in range(5)]
    assert sum(dropped) == 3
    assert await _ids(store) == [f"g{n}" for n in (8, 7, 6, 5, 3, 2, 1)]


async def test_page_of_stale_entries_still_advances(store: Store) -> None:
    """More gone games in a row than one listing reads: the page is short but
    its cursor lets the client read on to the live games behind them."""
    total = SCAN_LIMIT + 20
    for n in range(total):
        await _create(store, f"g{n:04d}", 10_000 + n)
    for n in range(25, total):
        await _expire(store, f"g{n:04d}")
    seen, _ = await _all_pages(store, None, 10)
    assert seen == [f"g{n:04d}" for n in reversed(range(25))]


async def test_redis_index_lagging_the_record_is_repaired(clean_redis: str) -> None:
    """A crash between a game's write and its index note leaves the index
    behind: the record wins, and the listing moves the entry on."""
    store = RedisStore(clean_redis)
    try:
        await _create(store, "g1", 1000)
        await _create(store, "g2", 2000)
        client = redis.asyncio.Redis.from_url(clean_redis)
        # g1 starts, but its index note is lost (as if the replica died).
        await store.claim_seat("g1", 0, 2, storage_pb2.StoredSeat())
        await client.hset(game_key("g1"), "seat:1", b"")
        assert await _ids(store, status=OPEN) == ["g2"]
        assert await _ids(store, status=STARTED) == ["g1"]
        # A late note of an earlier status never moves a game back.
        await store._note_lobby((await client.hget(game_key("g1"), "lobby")).decode(), OPEN)
        assert await _ids(store, status=STARTED) == ["g1"]
        assert await _ids(store, status=OPEN) == ["g2"]
        await client.aclose()
    finally:
        await store.close()


@pytest.mark.parametrize("seats", [2, 3])
async def test_open_seats_are_the_free_ones(store: Store, seats: int) -> None:
    await store.create_game("g1", _meta("nim", 1, seats), _state())
    await store.claim_seat("g1", seats - 1, seats, storage_pb2.StoredSeat())
    (listed,) = (await store.list_games("", OPEN, 5, "")).games
    assert listed.seats_taken == frozenset({seats - 1})


async def test_redis_a_failed_index_note_never_fails_the_write(clean_redis: str) -> None:
    """The game's write is acknowledged whatever becomes of its note; the
    game shows in the lobby from its next status change on."""
    store = RedisStore(clean_redis)
    down = [False]
    call = store._call

    async def lobby_down(script: object, *, keys: list[str], args: list[object]) -> object:
        if down[0] and script is store._lobby_note:
            # What _call makes of redis.ConnectionError on the {lobby} slot's node.
            raise StoreUnavailable("the {lobby} slot's node is down")
        return await call(script, keys=keys, args=args)

    store._call = lobby_down  # type: ignore[method-assign]
    try:
        down[0] = True
        await _create(store, "g1", 1000)
        assert await _ids(store) == []
        down[0] = False
        await _seat_all(store, "g1")
        assert await _ids(store, status=STARTED) == ["g1"]
        down[0] = True
        await _finish(store, "g1")  # commits, though the note is lost
        assert (await store.load("g1")).version == 1
        assert await _ids(store, status=STARTED) == []  # the record wins
        down[0] = False
        assert await store.sweep_lobby(10) == 0  # the sweep moves it on
        assert await _ids(store, status=FINISHED) == ["g1"]
    finally:
        await store.close()
