"""The sync client under the retry policy, against a real in-process server
whose stub methods are made to fail on purpose; time is a fake clock, so the
30-second budget and the backoffs take no wall time."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import grpc
import pytest
from throneroom import (
    Client,
    GameHandle,
    PermissionDenied,
    RetryPolicy,
    StaleVersion,
    ThroneroomError,
    Unavailable,
)
from throneroom.errors import DeadlineExceeded, ResourceExhausted
from throneroom.v1 import nim_pb2
from throneroom_server.embedded import EmbeddedServer

from tests.sdk.helpers import FakeRpcError, FakeStream, StubProxy, unavailable, versions

ALWAYS_MAX = 1.0 - 1e-12


class FakeTime:
    """A clock that moves only when the client sleeps (or the test says so)."""

    def __init__(self) -> None:
        self.now = 100.0
        self.sleeps: list[float] = []

    def clock(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        """The client's sleep: the clock moves on, no time is spent."""
        self.sleeps.append(seconds)
        self.now += seconds


class Recorded:
    """Replaces one stub method: ``outcomes`` says what each call does, in turn
    (an exception to raise, or a function of (request, kwargs) to answer with);
    past its end, calls go to the real method. Every call's kwargs are kept."""

    def __init__(self, client: Client, name: str, outcomes: Iterator[Any] | list[Any]) -> None:
        proxy = client.stub if isinstance(client.stub, StubProxy) else StubProxy(client.stub)
        self.real = getattr(proxy.real, name)
        self.outcomes = iter(outcomes)
        self.requests: list[Any] = []
        self.kwargs: list[dict[str, Any]] = []
        proxy.override(name, self._call)
        client.stub = proxy.as_stub()

    def _call(self, request: Any, **kwargs: Any) -> Any:
        self.requests.append(request)
        self.kwargs.append(kwargs)
        outcome = next(self.outcomes, None)
        if outcome is None:
            return self.real(request, **kwargs)
        if isinstance(outcome, BaseException):
            raise outcome
        return outcome(request, kwargs)


@pytest.fixture
def fake_time() -> FakeTime:
    return FakeTime()


@pytest.fixture
def slow_client(server: EmbeddedServer, fake_time: FakeTime) -> Iterator[Client]:
    """A client with the shipped default policy, on fake time."""
    with Client(server.address, clock=fake_time.clock, sleep=fake_time.advance) as client:
        yield client


def _started(client: Client, pile: int = 20) -> tuple[str, list[GameHandle]]:
    game_id = client.create_game("nim", seats=2, options={"pile": pile, "max_take": 3}, seed=2)
    return game_id, [client.join(game_id), client.join(game_id)]


def _fail(code: grpc.StatusCode, retry_delay: float | None = None) -> FakeRpcError:
    return FakeRpcError(code, f"{code.name} (simulated)", retry_delay=retry_delay)


def _forever(make: Callable[[], BaseException]) -> Iterator[BaseException]:
    while True:
        yield make()


# -- unary calls: how long, how often ----------------------------------------------


def test_a_read_rides_through_25_seconds_of_outage(
    slow_client: Client, fake_time: FakeTime
) -> None:
    game_id, _ = _started(slow_client)
    start = fake_time.now

    def outage() -> Iterator[Any]:
        while fake_time.now - start < 25.0:
            yield unavailable()

    get_game = Recorded(slow_client, "GetGame", outage())
    assert slow_client.get_game(game_id).game_id == game_id
    assert sum(fake_time.sleeps) >= 25.0
    assert all(0 <= s <= 3.0 for s in fake_time.sleeps)
    assert len(get_game.requests) == len(fake_time.sleeps) + 1
    assert len({r.SerializeToString() for r in get_game.requests}) == 1  # the same request
    assert all(kw["wait_for_ready"] is None for kw in get_game.kwargs)  # fail fast, back off


def test_a_read_gives_up_when_the_30_second_budget_is_spent(
    slow_client: Client, fake_time: FakeTime
) -> None:
    game_id, _ = _started(slow_client)
    start = fake_time.now
    get_game = Recorded(slow_client, "GetGame", _forever(unavailable))
    with pytest.raises(Unavailable) as caught:
        slow_client.get_game(game_id)
    assert 30.0 - 3.0 < fake_time.now - start < 30.0
    assert caught.value.attempts == len(get_game.requests) > 10
    assert any("gave up after" in note for note in caught.value.__notes__)
    timeouts = [kw["timeout"] for kw in get_game.kwargs]
    assert timeouts[0] == 10.0 and all(0 < t <= 10.0 for t in timeouts)


def test_deadline_exceeded_is_retried_for_reads(slow_client: Client) -> None:
    game_id, (ada, _) = _started(slow_client)
    ada.refresh()
    moves = Recorded(slow_client, "ListLegalMoves", [_fail(grpc.StatusCode.DEADLINE_EXCEEDED)])
    assert ada.legal_moves() == [nim_pb2.NimMove(take=n) for n in (1, 2, 3)]
    assert len(moves.requests) == 2
    history = Recorded(slow_client, "GetHistory", [_fail(grpc.StatusCode.DEADLINE_EXCEEDED)])
    assert slow_client.history(game_id) == []
    assert len(history.requests) == 2


def test_a_move_whose_answer_timed_out_is_applied_once(slow_client: Client) -> None:
    """The move reached the server and was applied, but the deadline expired
    before the answer came: the retry carries the same key and gets the first
    result back (replayed), and the game has one move."""
    game_id, (ada, _) = _started(slow_client)
    ada.refresh()
    real_apply = slow_client.stub.ApplyMove

    def apply_then_time_out(request: Any, kwargs: dict[str, Any]) -> Any:
        real_apply(request, **kwargs)
        raise _fail(grpc.StatusCode.DEADLINE_EXCEEDED)

    apply = Recorded(slow_client, "ApplyMove", [apply_then_time_out])
    response = ada.play(nim_pb2.NimMove(take=2))
    assert response.replayed and response.version == 1 and ada.version == 1
    assert len(apply.requests) == 2 and apply.requests[0] == apply.requests[1]
    assert [(e.version, e.seat) for e in slow_client.history(game_id)] == [(1, 0)]
    assert slow_client.spectate(game_id).view.pile == 18  # type: ignore[attr-defined]


def test_a_stale_version_is_an_answer_not_retried(slow_client: Client) -> None:
    game_id, (ada, _) = _started(slow_client)
    ada.refresh()
    stale_ada = slow_client.attach(game_id, ada.token or "")
    ada.play(nim_pb2.NimMove(take=1))
    apply = Recorded(slow_client, "ApplyMove", [])
    with pytest.raises(StaleVersion):
        stale_ada.play(nim_pb2.NimMove(take=1))
    assert len(apply.requests) == 1


@pytest.mark.parametrize(
    "code",
    [
        grpc.StatusCode.INVALID_ARGUMENT,
        grpc.StatusCode.FAILED_PRECONDITION,
        grpc.StatusCode.PERMISSION_DENIED,
        grpc.StatusCode.UNAUTHENTICATED,
        grpc.StatusCode.NOT_FOUND,
        grpc.StatusCode.ABORTED,
        grpc.StatusCode.INTERNAL,
        grpc.StatusCode.RESOURCE_EXHAUSTED,  # without RetryInfo: a size limit
    ],
)
def test_answers_are_raised_at_once(
    slow_client: Client, fake_time: FakeTime, code: grpc.StatusCode
) -> None:
    game_id, _ = _started(slow_client)
    get_game = Recorded(slow_client, "GetGame", _forever(lambda: _fail(code)))
    with pytest.raises(ThroneroomError) as caught:
        slow_client.get_game(game_id)
    assert caught.value.code is code
    assert len(get_game.requests) == 1 and fake_time.sleeps == []


def test_retry_info_delay_is_waited(slow_client: Client, fake_time: FakeTime) -> None:
    quota = _fail(grpc.StatusCode.RESOURCE_EXHAUSTED, retry_delay=2.5)
    game_types = Recorded(slow_client, "ListGameTypes", [quota])
    assert "nim" in {t.name for t in slow_client.game_types()}
    assert fake_time.sleeps == [2.5] and len(game_types.requests) == 2


# -- CreateGame and JoinGame: not idempotent ------------------------------------------


@pytest.mark.parametrize("code", [grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.DEADLINE_EXCEEDED])
def test_join_and_create_are_not_repeated_once_they_may_have_reached_the_server(
    slow_client: Client, fake_time: FakeTime, code: grpc.StatusCode
) -> None:
    game_id = slow_client.create_game("nim", seats=2)
    join = Recorded(slow_client, "JoinGame", _forever(lambda: _fail(code)))
    with pytest.raises(ThroneroomError) as caught:
        slow_client.join(game_id)
    assert caught.value.code is code
    assert any("may have taken effect" in note for note in caught.value.__notes__)
    create = Recorded(slow_client, "CreateGame", _forever(lambda: _fail(code)))
    with pytest.raises(ThroneroomError):
        slow_client.create_game("nim", seats=2)
    assert len(join.requests) == 1 and len(create.requests) == 1 and fake_time.sleeps == []
    # Held by gRPC until a connection exists, rather than failed while there is none.
    assert join.kwargs[0]["wait_for_ready"] is True
    assert create.kwargs[0]["wait_for_ready"] is True


def test_a_join_the_server_declined_is_retried_after_its_delay(
    slow_client: Client, fake_time: FakeTime
) -> None:
    game_id = slow_client.create_game("nim", seats=2)
    quota = _fail(grpc.StatusCode.RESOURCE_EXHAUSTED, retry_delay=1.5)
    join = Recorded(slow_client, "JoinGame", [quota])
    handle = slow_client.join(game_id)
    assert handle.seat == 0 and fake_time.sleeps == [1.5] and len(join.requests) == 2
    assert [s.taken for s in slow_client.spectate(game_id).snapshot.seats] == [True, False]


def test_timeout_argument_sets_the_attempt_deadline(server: EmbeddedServer) -> None:
    with Client(server.address, timeout=2.5) as client:
        assert client.retry.attempt_timeout == 2.5 == client.timeout
        ping = Recorded(client, "Ping", [])
        client.ping()
        assert ping.kwargs[0]["timeout"] == 2.5
    with Client(server.address, timeout=None) as client:
        assert client.timeout is None and client.retry.budget == 30.0
    with Client(server.address) as client:
        assert client.timeout == 10.0


# -- watch ----------------------------------------------------------------------------


def _finished_game(client: Client, pile: int = 4) -> str:
    game_id = client.create_game("nim", seats=2, options={"pile": pile, "max_take": 1}, seed=3)
    handles = [client.join(game_id), client.join(game_id)]
    for n in range(pile):
        handles[n % 2].refresh()
        handles[n % 2].play(nim_pb2.NimMove(take=1))
    return game_id


def test_a_watch_reconnects_for_as_long_as_it_takes(
    slow_client: Client, fake_time: FakeTime
) -> None:
    """Three hundred failed reconnections (about ten minutes of fake time):
    the default policy keeps trying, and then every version arrives once."""
    game_id = _finished_game(slow_client)
    watcher = slow_client.spectate(game_id)
    watch = Recorded(slow_client, "WatchGame", [unavailable() for _ in range(300)])
    assert versions(watcher.watch(0)) == [1, 2, 3, 4]
    assert len(watch.requests) == 301 and len(fake_time.sleeps) == 300
    assert all(0 <= s <= 3.0 for s in fake_time.sleeps)
    assert sum(fake_time.sleeps) > 300  # far past the unary budget


def test_a_watch_backoff_starts_again_after_a_message(server: EmbeddedServer) -> None:
    fake_time = FakeTime()
    with Client(
        server.address, clock=fake_time.clock, sleep=fake_time.advance, rand=lambda: ALWAYS_MAX
    ) as client:
        game_id = _finished_game(client)
        watcher = client.spectate(game_id)
        real = client.stub.WatchGame

        def two_versions_then_lost(request: Any, kwargs: dict[str, Any]) -> FakeStream:
            def responses() -> Iterator[Any]:
                yield from list(real(request, **kwargs))[:2]
                raise unavailable()

            return FakeStream(responses())

        outcomes = [unavailable() for _ in range(6)]
        outcomes += [two_versions_then_lost, unavailable()]
        watch = Recorded(client, "WatchGame", outcomes)
        assert versions(watcher.watch(0)) == [1, 2, 3, 4]
        assert fake_time.sleeps == pytest.approx([0.1, 0.2, 0.4, 0.8, 1.6, 3.0, 0.1, 0.2])
        assert [r.from_version for r in watch.requests] == [0] * 7 + [2, 2]


def test_a_watch_waits_the_servers_retry_delay(slow_client: Client, fake_time: FakeTime) -> None:
    game_id = _finished_game(slow_client)
    watcher = slow_client.spectate(game_id)
    Recorded(slow_client, "WatchGame", [_fail(grpc.StatusCode.RESOURCE_EXHAUSTED, 4.0)])
    assert versions(watcher.watch(0)) == [1, 2, 3, 4]
    assert fake_time.sleeps == [4.0]


def test_a_watch_raises_answers_at_once(slow_client: Client, fake_time: FakeTime) -> None:
    game_id = _finished_game(slow_client)
    watcher = slow_client.spectate(game_id)
    watch = Recorded(
        slow_client, "WatchGame", _forever(lambda: _fail(grpc.StatusCode.PERMISSION_DENIED))
    )
    with pytest.raises(PermissionDenied):
        next(watcher.watch(0))
    assert len(watch.requests) == 1 and fake_time.sleeps == []


def test_a_watch_budget_gives_up(server: EmbeddedServer) -> None:
    fake_time = FakeTime()
    with Client(
        server.address,
        clock=fake_time.clock,
        sleep=fake_time.advance,
        retry=RetryPolicy(watch_budget=20.0),
    ) as client:
        watcher = client.spectate(_finished_game(client))
        Recorded(client, "WatchGame", _forever(unavailable))
        with pytest.raises(Unavailable) as caught:
            next(watcher.watch(0))
        assert 20.0 - 3.0 < sum(fake_time.sleeps) <= 20.0
        assert any("the watch gave up" in note for note in caught.value.__notes__)


def test_errors_keep_their_classes(slow_client: Client) -> None:
    game_id, _ = _started(slow_client)
    Recorded(
        slow_client,
        "GetGame",
        _forever(lambda: _fail(grpc.StatusCode.RESOURCE_EXHAUSTED)),
    )
    with pytest.raises(ResourceExhausted):
        slow_client.get_game(game_id)
    Recorded(slow_client, "GetGame", _forever(lambda: _fail(grpc.StatusCode.DEADLINE_EXCEEDED)))
    with pytest.raises(DeadlineExceeded):
        slow_client.get_game(game_id)
