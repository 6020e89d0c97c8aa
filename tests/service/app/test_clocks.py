"""Clocks in the service: time controls, timeouts applied exactly once by
whichever replica notices first, on an injected clock (no sleeping)."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import grpc
import pytest
from throneroom.v1 import common_pb2, game_pb2, nim_pb2, service_pb2, storage_pb2
from throneroom_server.app import clocks
from throneroom_server.app.errors import AppError
from throneroom_server.app.service import App
from throneroom_server.games.registry import service_games
from throneroom_server.store.base import Store
from throneroom_server.store.memory import MemoryStore
from throneroom_server.store.redis import RedisStore

from tests.service.helpers import Service, error_info, nim_move

T0 = 1_800_000_000.0  # seconds


class FakeTime:
    def __init__(self) -> None:
        self.now = T0

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds

    @property
    def ms(self) -> int:
        return int(self.now * 1000)


def fischer(base: int, increment: int, policy: int = 0) -> common_pb2.TimeControl:
    return common_pb2.TimeControl(
        fischer=common_pb2.FischerClock(base_seconds=base, increment_seconds=increment),
        on_timeout=policy,  # type: ignore[arg-type]
    )


def per_decision(seconds: int, policy: int = 0) -> common_pb2.TimeControl:
    return common_pb2.TimeControl(per_decision_seconds=seconds, on_timeout=policy)  # type: ignore[arg-type]


@pytest.fixture
def time() -> Iterator[FakeTime]:
    yield FakeTime()


def _app(store: Store, time: FakeTime) -> App:
    return App(store, service_games(include_fixtures=True), clock=time)


async def _nim(app: App, control: common_pb2.TimeControl, pile: int = 20) -> tuple[str, list[str]]:
    game_id, _ = await app.create_game(
        game_pb2.GameOptions(nim=nim_pb2.NimOptions(pile=pile, max_take=3)),
        2,
        1,
        time_control=control,
    )
    tokens = [(await app.join_game(game_id, None, f"p{n}"))[1] for n in range(2)]
    return game_id, tokens


async def _move(app: App, game_id: str, token: str, version: int, take: int = 1) -> int:
    reply = await app.apply_move(game_id, token, version, nim_move(take), f"k{version}")
    return reply.version


def _deadline(snapshot: service_pb2.GameSnapshot, seat: int) -> int | None:
    clock = snapshot.clocks[seat]
    return clock.deadline_unix_ms if clock.HasField("deadline_unix_ms") else None


# -- the arithmetic -------------------------------------------------------------------


def test_fischer_spends_while_acting_and_adds_the_increment() -> None:
    control = fischer(60, 5)
    clock = clocks.start(control, 2, [0], 1000)
    assert list(clock.deadline_ms) == [61_000, 0]
    after = clocks.after_move(
        control, clock, mover=0, acting_before=[0], acting_after=[1], now_ms=11_000
    )
    assert list(after.remaining_ms) == [55_000, 60_000]  # 60 - 10 + 5
    assert list(after.deadline_ms) == [0, 71_000]
    # Simultaneous: both run; the one who answers is charged and topped up,
    # the other keeps running from where it was charged.
    both = clocks.after_move(
        control, after, mover=1, acting_before=[1], acting_after=[0, 1], now_ms=21_000
    )
    assert list(both.remaining_ms) == [55_000, 55_000]
    assert list(both.deadline_ms) == [76_000, 76_000]
    assert clocks.expired(both, [0, 1], 76_000) == [0, 1]
    assert clocks.expired(both, [0, 1], 75_999) == []


def test_per_decision_keeps_a_simultaneous_seats_deadline() -> None:
    control = per_decision(30)
    clock = clocks.start(control, 3, [0, 1, 2], 0)
    after = clocks.after_move(
        control, clock, mover=0, acting_before=[0, 1, 2], acting_after=[1, 2], now_ms=10_000
    )
    assert list(after.deadline_ms) == [0, 30_000, 30_000]  # the others keep theirs
    again = clocks.after_move(
        control, after, mover=1, acting_before=[1, 2], acting_after=[1, 2], now_ms=20_000
    )
    assert list(again.deadline_ms) == [0, 50_000, 30_000]  # the mover is asked anew


@pytest.mark.parametrize(
    "control",
    [
        common_pb2.TimeControl(),
        per_decision(0),
        common_pb2.TimeControl(fischer=common_pb2.FischerClock(base_seconds=0)),
        per_decision(clocks.MAX_SECONDS + 1),
    ],
)
async def test_unplayable_time_controls_are_refused(
    control: common_pb2.TimeControl, time: FakeTime
) -> None:
    app = _app(MemoryStore(), time)
    with pytest.raises(AppError) as caught:
        await _nim(app, control)
    assert caught.value.reason == "INVALID_TIME_CONTROL"


# -- through the app, both stores ---------------------------------------------------------


async def test_clocks_start_with_the_game_and_show_in_snapshots(
    store: Store, time: FakeTime
) -> None:
    app = _app(store, time)
    game_id, _ = await app.create_game(
        game_pb2.GameOptions(nim=nim_pb2.NimOptions(pile=20, max_take=3)),
        2,
        1,
        time_control=fischer(60, 5),
    )
    await app.join_game(game_id, None, "a")
    time.advance(100)  # nothing runs before every seat is taken
    before = await app.get_game(game_id, "")
    assert [_deadline(before, s) for s in (0, 1)] == [None, None]
    assert [c.remaining_ms for c in before.clocks] == [60_000, 60_000]
    await app.join_game(game_id, None, "b")
    started = await app.get_game(game_id, "")
    assert started.time_control == fischer(60, 5)
    assert list(started.to_act) == [0]
    assert _deadline(started, 0) == time.ms + 60_000 and _deadline(started, 1) is None


async def test_a_timeout_loses_the_game_exactly_once(store: Store, time: FakeTime) -> None:
    app = _app(store, time)
    game_id, tokens = await _nim(app, fischer(60, 5))
    time.advance(10)
    assert await _move(app, game_id, tokens[0], 0) == 1
    snapshot = await app.get_game(game_id, "")
    assert snapshot.clocks[0].remaining_ms == 55_000
    assert _deadline(snapshot, 1) == time.ms + 60_000
    time.advance(59.999)
    assert await app.sweep_timeouts() == 0
    time.advance(0.001)
    assert await app.sweep_timeouts() == 1
    assert await app.sweep_timeouts() == 0  # claimed once
    over = await app.get_game(game_id, "")
    assert over.finished and list(over.to_act) == []
    assert over.outcome.termination == "timeout" and list(over.outcome.winners) == [0]
    assert over.version == 2
    history = await app.history(game_id, "", 0, 10)
    assert [(e.version, e.seat, e.timeout) for e in history.entries] == [
        (1, 0, False),
        (2, 1, True),
    ]
    with pytest.raises(AppError) as caught:
        await _move(app, game_id, tokens[1], 2)
    assert caught.value.reason == "GAME_FINISHED"


async def test_a_timeout_can_make_the_default_move(store: Store, time: FakeTime) -> None:
    app = _app(store, time)
    game_id, tokens = await _nim(app, per_decision(30, common_pb2.TIMEOUT_POLICY_DEFAULT_MOVE))
    deadline = time.ms + 30_000
    time.advance(45)  # noticed 15 s late: computed as of the deadline all the same
    assert await app.sweep_timeouts() == 1
    snapshot = await app.get_game(game_id, "")
    assert not snapshot.finished and snapshot.version == 1 and list(snapshot.to_act) == [1]
    assert snapshot.view.nim.pile == 19  # the first legal move: take 1
    assert _deadline(snapshot, 1) == deadline + 30_000
    # The game goes on: seat 1 moves in time.
    assert await _move(app, game_id, tokens[1], 1) == 2


async def test_a_move_just_after_the_deadline_is_refused_and_the_timeout_applied(
    store: Store, time: FakeTime
) -> None:
    app = _app(store, time)
    game_id, tokens = await _nim(app, per_decision(30))
    time.advance(29.999)
    assert await _move(app, game_id, tokens[0], 0) == 1  # just in time
    time.advance(30.0)  # seat 1: exactly at its deadline
    with pytest.raises(AppError) as caught:
        await _move(app, game_id, tokens[1], 1)
    assert caught.value.reason == "TIME_EXPIRED"
    snapshot = await app.get_game(game_id, "")
    assert snapshot.version == 2 and snapshot.finished and list(snapshot.outcome.winners) == [0]
    assert await app.sweep_timeouts() == 0  # nothing left to claim


async def test_two_replicas_racing_for_one_timeout_apply_it_once(
    clean_redis: str, time: FakeTime
) -> None:
    replicas = [_app(RedisStore(clean_redis), time) for _ in range(3)]
    game_id, _ = await _nim(replicas[0], per_decision(30, common_pb2.TIMEOUT_POLICY_DEFAULT_MOVE))
    time.advance(31)
    applied = await asyncio.gather(*(r.sweep_timeouts() for r in replicas))
    assert sum(applied) == 1
    history = await replicas[1].history(game_id, "", 0, 10)
    assert [(e.version, e.timeout) for e in history.entries] == [(1, True)]
    for replica in replicas:
        await replica.store.close()


async def test_a_move_and_a_timeout_racing_never_both_apply(
    clean_redis: str, time: FakeTime
) -> None:
    late = FakeTime()
    mover = _app(RedisStore(clean_redis), time)
    sweeper = _app(RedisStore(clean_redis), late)
    game_id, tokens = await _nim(mover, per_decision(30, common_pb2.TIMEOUT_POLICY_DEFAULT_MOVE))
    outcomes: list[bool] = []
    for round_ in range(20):
        snapshot = await mover.get_game(game_id, "")
        if snapshot.finished:
            break
        (seat,) = snapshot.to_act
        deadline = _deadline(snapshot, seat)
        assert deadline is not None
        time.now = (deadline - 1) / 1000  # the mover is in time
        late.now = (deadline + 1) / 1000  # the sweeper sees it late
        move = mover.apply_move(game_id, tokens[seat], snapshot.version, nim_move(2), f"r{round_}")
        sweep = sweeper.sweep_timeouts()
        if round_ % 2:
            # The sweeper gets there first; the move, chosen at the old
            # version, arrives after it and must not apply as well.
            swept = await sweep
            results = [*(await asyncio.gather(move, return_exceptions=True)), swept]
        else:  # both at once (on this loop, the move's fewer round trips win)
            results = list(await asyncio.gather(move, sweep, return_exceptions=True))
        after = await mover.get_game(game_id, "")
        assert after.version == snapshot.version + 1, results  # exactly one applied
        entry = (await mover.history(game_id, "", snapshot.version, 1)).entries[0]
        moved = not isinstance(results[0], BaseException)
        assert entry.timeout is not moved  # the move, or else the timeout
        outcomes.append(moved)
    assert set(outcomes) == {True, False}  # both happened
    await mover.store.close()
    await sweeper.store.close()


async def test_a_restarted_server_finds_the_running_clock(clean_redis: str, time: FakeTime) -> None:
    first = _app(RedisStore(clean_redis), time)
    game_id, _ = await _nim(first, fischer(60, 0))
    await first.store.close()  # the server goes away while seat 0's clock runs
    time.advance(61)
    second = _app(RedisStore(clean_redis), time)
    assert await second.sweep_timeouts() == 1
    over = await second.get_game(game_id, "")
    assert over.finished and list(over.outcome.winners) == [1]
    await second.store.close()


async def test_the_index_drops_games_that_are_gone_or_done(store: Store, time: FakeTime) -> None:
    app = _app(store, time)
    game_id, tokens = await _nim(app, per_decision(30), pile=2)
    await _move(app, game_id, tokens[0], 0, take=2)  # the game ends: clocks stop
    await store.schedule_deadline("gone0000", time.ms)  # a game that no longer exists
    time.advance(31)
    assert await app.sweep_timeouts() == 0
    assert await store.due_deadlines(time.ms + 10**9, 10) == []


# -- through gRPC ----------------------------------------------------------------------


async def test_grpc_create_with_a_time_control(service: Service) -> None:
    created = await service.stub.CreateGame(
        service_pb2.CreateGameRequest(
            options=game_pb2.GameOptions(nim=nim_pb2.NimOptions(pile=9, max_take=3)),
            num_seats=2,
            time_control=per_decision(45),
        )
    )
    for _ in range(2):
        await service.stub.JoinGame(service_pb2.JoinGameRequest(game_id=created.game_id))
    snapshot = (
        await service.stub.GetGame(service_pb2.GetGameRequest(game_id=created.game_id))
    ).snapshot
    assert snapshot.time_control.per_decision_seconds == 45
    assert snapshot.clocks[0].HasField("deadline_unix_ms")
    assert not snapshot.clocks[1].HasField("deadline_unix_ms")
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        await service.stub.CreateGame(
            service_pb2.CreateGameRequest(
                options=game_pb2.GameOptions(nim=nim_pb2.NimOptions(pile=9, max_take=3)),
                num_seats=2,
                time_control=common_pb2.TimeControl(),
            )
        )
    assert caught.value.code() is grpc.StatusCode.INVALID_ARGUMENT
    assert error_info(caught.value).reason == "INVALID_TIME_CONTROL"


def test_stored_clock_round_trips() -> None:
    clock = clocks.start(fischer(10, 1), 3, [1], 5)
    assert storage_pb2.StoredClock.FromString(clock.SerializeToString()) == clock
