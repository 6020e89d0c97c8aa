"""The retry policy on its own (no network): budget, backoff cap, jitter bounds,
which failures are retried, and the watch's reconnection schedule, all on an
injected clock and random source."""

from __future__ import annotations

import random

import grpc
import pytest
from throneroom import RetryPolicy
from throneroom.errors import ThroneroomError, from_rpc_error
from throneroom.retry import (
    NO_RETRY,
    CallRetries,
    Idempotency,
    WatchRetries,
    channel_options,
    is_retryable,
)

from tests.sdk.helpers import FakeRpcError

ALWAYS_MAX = 1.0 - 1e-12  # a "random" draw at the top of the jitter range


class FakeClock:
    """Monotonic seconds that move only when told to."""

    def __init__(self) -> None:
        self.now = 5_000.0

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


def failure(
    code: grpc.StatusCode = grpc.StatusCode.UNAVAILABLE, *, retry_delay: float | None = None
) -> ThroneroomError:
    return from_rpc_error(FakeRpcError(code, "simulated", retry_delay=retry_delay))


def run_until_given_up(
    retries: CallRetries,
    clock: FakeClock,
    *,
    attempt_seconds: float = 0.0,
    code: grpc.StatusCode = grpc.StatusCode.UNAVAILABLE,
) -> tuple[list[float], list[float | None], ThroneroomError]:
    """Fail every attempt (each taking ``attempt_seconds``) until the schedule gives up.

    Returns the start time of each attempt (relative), each attempt's
    deadline and the error given up with."""
    start = clock.now
    starts: list[float] = []
    timeouts: list[float | None] = []
    while True:
        starts.append(clock.now - start)
        timeout = retries.attempt_timeout()
        timeouts.append(timeout)
        clock.advance(attempt_seconds if timeout is None else min(attempt_seconds, timeout))
        error = failure(code)
        delay = retries.delay_after(error)
        if delay is None:
            return starts, timeouts, error
        clock.advance(delay)


# -- the shipped defaults ---------------------------------------------------------


def test_shipped_defaults() -> None:
    policy = RetryPolicy()
    assert policy.budget == 30.0
    assert policy.attempt_timeout == 10.0
    assert (policy.initial_backoff, policy.multiplier, policy.max_backoff) == (0.1, 2.0, 3.0)
    assert policy.max_retries is None and policy.watch_budget is None


def test_default_budget_keeps_retrying_for_30_seconds() -> None:
    """Refused at once every time: retries go on until the next wait would end
    past 30 s, and no attempt starts after 30 s."""
    clock = FakeClock()
    retries = CallRetries(RetryPolicy(), Idempotency.IDEMPOTENT, clock=clock, rand=lambda: 0.5)
    starts, timeouts, error = run_until_given_up(retries, clock)
    # With the draw fixed at the middle, each wait is half its ceiling: at most 1.5 s.
    assert starts[-1] < 30.0
    assert starts[-1] > 30.0 - 1.5
    assert error.attempts == len(starts) == retries.retries + 1
    assert all(t is not None and t <= 10.0 for t in timeouts)
    assert any("gave up after" in note for note in error.__notes__)


def test_budget_holds_with_full_jitter_draws() -> None:
    clock = FakeClock()
    rng = random.Random(7)
    retries = CallRetries(RetryPolicy(), Idempotency.IDEMPOTENT, clock=clock, rand=rng.random)
    starts, _, _ = run_until_given_up(retries, clock)
    assert starts[-1] < 30.0
    assert starts[-1] > 30.0 - RetryPolicy().max_backoff
    assert len(starts) > 10


def test_attempt_deadline_is_cut_to_what_remains_of_the_budget() -> None:
    """Attempts that each time out after 7 s, retried at once (draw 0):
    deadlines 10, 10, 10, 9 (30 - 21) and 2 (30 - 28)."""
    clock = FakeClock()
    retries = CallRetries(RetryPolicy(), Idempotency.IDEMPOTENT, clock=clock, rand=lambda: 0.0)
    starts, timeouts, error = run_until_given_up(
        retries, clock, attempt_seconds=7.0, code=grpc.StatusCode.DEADLINE_EXCEEDED
    )
    assert starts == [0.0, 7.0, 14.0, 21.0, 28.0]
    assert timeouts == pytest.approx([10.0, 10.0, 10.0, 9.0, 2.0])
    assert error.code is grpc.StatusCode.DEADLINE_EXCEEDED


def test_a_zero_budget_makes_one_attempt() -> None:
    clock = FakeClock()
    starts, _, error = run_until_given_up(CallRetries(NO_RETRY, Idempotency.IDEMPOTENT), clock)
    assert starts == [0.0] and error.attempts == 1


def test_max_retries_limits_the_count() -> None:
    clock = FakeClock()
    policy = RetryPolicy(max_retries=3)
    starts, _, error = run_until_given_up(
        CallRetries(policy, Idempotency.IDEMPOTENT, clock=clock), clock
    )
    assert len(starts) == 4 and error.attempts == 4


# -- backoff: growth, cap, jitter -------------------------------------------------


def test_backoff_ceiling_doubles_up_to_the_cap() -> None:
    policy = RetryPolicy()
    ceilings = [policy.backoff_ceiling(n) for n in range(8)]
    assert ceilings == pytest.approx([0.1, 0.2, 0.4, 0.8, 1.6, 3.0, 3.0, 3.0])
    assert policy.backoff_ceiling(10**6) == 3.0  # no overflow after days of reconnecting


@pytest.mark.parametrize("retry", [0, 1, 3, 5, 40])
def test_full_jitter_stays_within_zero_and_the_ceiling(retry: int) -> None:
    policy = RetryPolicy()
    ceiling = policy.backoff_ceiling(retry)
    assert policy.backoff(retry, lambda: 0.0) == 0.0
    assert policy.backoff(retry, lambda: ALWAYS_MAX) == pytest.approx(ceiling)
    assert policy.backoff(retry, lambda: ALWAYS_MAX) < ceiling
    rng = random.Random(retry)
    draws = [policy.backoff(retry, rng.random) for _ in range(2000)]
    assert all(0.0 <= d < ceiling for d in draws)
    # Full jitter: the whole range is used, not a band near the ceiling.
    assert min(draws) < 0.05 * ceiling and max(draws) > 0.95 * ceiling


def test_waits_follow_the_ceiling_of_each_retry() -> None:
    clock = FakeClock()
    retries = CallRetries(
        RetryPolicy(), Idempotency.IDEMPOTENT, clock=clock, rand=lambda: ALWAYS_MAX
    )
    waits = []
    for _ in range(7):
        delay = retries.delay_after(failure())
        assert delay is not None
        waits.append(delay)
        clock.advance(delay)
    assert waits == pytest.approx([0.1, 0.2, 0.4, 0.8, 1.6, 3.0, 3.0])


def test_invalid_policies_are_refused() -> None:
    for bad in (
        {"budget": -1.0},
        {"attempt_timeout": 0.0},
        {"initial_backoff": 2.0, "max_backoff": 1.0},
        {"multiplier": 0.5},
        {"max_retries": -1},
        {"watch_budget": -0.1},
        {"max_backoff": float("inf")},
    ):
        with pytest.raises(ValueError, match="invalid RetryPolicy"):
            RetryPolicy(**bad)  # type: ignore[arg-type]


def test_the_channel_reconnects_no_slower_than_the_policy() -> None:
    options = dict(channel_options(RetryPolicy()))
    assert options["grpc.max_reconnect_backoff_ms"] == 3000
    assert options["grpc.initial_reconnect_backoff_ms"] <= 1000


# -- which failures are retried ---------------------------------------------------

RETRIED_WHEN_IDEMPOTENT = {grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.DEADLINE_EXCEEDED}


@pytest.mark.parametrize("code", [c for c in grpc.StatusCode if c is not grpc.StatusCode.OK])
def test_which_codes_are_retried(code: grpc.StatusCode) -> None:
    plain = failure(code)
    assert is_retryable(plain, Idempotency.IDEMPOTENT) == (code in RETRIED_WHEN_IDEMPOTENT)
    assert not is_retryable(plain, Idempotency.UNSAFE)


@pytest.mark.parametrize(
    "code",
    [
        grpc.StatusCode.INVALID_ARGUMENT,
        grpc.StatusCode.FAILED_PRECONDITION,
        grpc.StatusCode.PERMISSION_DENIED,
        grpc.StatusCode.UNAUTHENTICATED,
        grpc.StatusCode.NOT_FOUND,
        grpc.StatusCode.ABORTED,
    ],
)
def test_answers_are_never_retried_even_with_retry_info(code: grpc.StatusCode) -> None:
    error = failure(code, retry_delay=1.0)
    for idempotency in Idempotency:
        assert not is_retryable(error, idempotency)
        assert CallRetries(RetryPolicy(), idempotency).delay_after(error) is None


def test_resource_exhausted_is_retried_only_with_retry_info() -> None:
    assert not is_retryable(failure(grpc.StatusCode.RESOURCE_EXHAUSTED), Idempotency.IDEMPOTENT)
    quota = failure(grpc.StatusCode.RESOURCE_EXHAUSTED, retry_delay=2.5)
    for idempotency in Idempotency:  # the server refused it before doing anything
        assert is_retryable(quota, idempotency)


def test_the_servers_retry_delay_is_waited_as_given() -> None:
    clock = FakeClock()
    unsafe = CallRetries(RetryPolicy(), Idempotency.UNSAFE, clock=clock, rand=lambda: 0.0)
    assert unsafe.delay_after(failure(grpc.StatusCode.RESOURCE_EXHAUSTED, retry_delay=2.5)) == 2.5
    # RetryInfo on UNAVAILABLE does not make an unsafe call safe to repeat.
    assert unsafe.delay_after(failure(grpc.StatusCode.UNAVAILABLE, retry_delay=0.5)) is None
    retries = CallRetries(RetryPolicy(), Idempotency.IDEMPOTENT, clock=clock, rand=lambda: 0.0)
    # Longer than the policy's cap, and the draw says 0: the server's delay wins.
    assert retries.delay_after(failure(grpc.StatusCode.UNAVAILABLE, retry_delay=7.0)) == 7.0
    # ... but never past the budget.
    clock.advance(25.0)
    late = failure(grpc.StatusCode.RESOURCE_EXHAUSTED, retry_delay=6.0)
    assert retries.delay_after(late) is None
    assert any("gave up" in note for note in late.__notes__)


def test_an_unsafe_call_is_not_retried_and_says_why() -> None:
    error = failure(grpc.StatusCode.UNAVAILABLE)
    assert CallRetries(RetryPolicy(), Idempotency.UNSAFE).delay_after(error) is None
    assert any("may have taken effect" in note for note in error.__notes__)


# -- the watch's reconnections ----------------------------------------------------


def test_a_watch_never_gives_up_by_default() -> None:
    """A week of failed reconnections: always another try, never longer than the cap."""
    clock = FakeClock()
    retries = WatchRetries(RetryPolicy(), clock=clock, rand=lambda: ALWAYS_MAX)
    waited = 0.0
    while waited < 7 * 24 * 3600:
        delay = retries.delay_after(failure())
        assert delay is not None and delay < 3.0 + 1e-9
        clock.advance(delay)
        waited += delay
    assert retries.failures > 200_000


def test_a_message_resets_the_watch_backoff() -> None:
    clock = FakeClock()
    retries = WatchRetries(RetryPolicy(), clock=clock, rand=lambda: ALWAYS_MAX)
    first = [retries.delay_after(failure()) for _ in range(7)]
    assert first == pytest.approx([0.1, 0.2, 0.4, 0.8, 1.6, 3.0, 3.0])
    retries.delivered()
    assert retries.failures == 0
    assert retries.delay_after(failure()) == pytest.approx(0.1)


def test_watch_budget_gives_up_after_that_long_without_a_message() -> None:
    clock = FakeClock()
    retries = WatchRetries(RetryPolicy(watch_budget=10.0), clock=clock, rand=lambda: ALWAYS_MAX)
    silent = 0.0
    while (delay := retries.delay_after(error := failure())) is not None:
        clock.advance(delay)
        silent += delay
    assert 10.0 - 3.0 < silent <= 10.0
    assert any("the watch gave up" in note for note in error.__notes__)
    retries.delivered()  # a message: the budget counts from now again
    assert retries.delay_after(failure()) is not None


def test_a_watch_raises_answers_at_once() -> None:
    retries = WatchRetries(RetryPolicy())
    for code in (grpc.StatusCode.PERMISSION_DENIED, grpc.StatusCode.NOT_FOUND):
        assert retries.delay_after(failure(code)) is None


def test_a_watch_honours_retry_info() -> None:
    retries = WatchRetries(RetryPolicy(), rand=lambda: 0.0)
    assert retries.delay_after(failure(grpc.StatusCode.RESOURCE_EXHAUSTED, retry_delay=4.0)) == 4.0
