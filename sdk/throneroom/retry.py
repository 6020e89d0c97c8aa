"""How the SDK rides through outages: one retry policy for both clients.

A :class:`RetryPolicy` is a value: backoff parameters, a time budget per call
and a deadline per attempt. The decisions are made here, without any I/O, by
two small schedules that the sync and the asyncio clients drive alike (each
does its own waiting, with ``time.sleep`` or ``asyncio.sleep``):

* :class:`CallRetries`, for one unary call: the deadline of each attempt,
  and after a failure either the seconds to wait before the next attempt or
  ``None`` (give up: raise the error);
* :class:`WatchRetries`, for one watch stream: the seconds to wait before
  reconnecting, starting again from the smallest backoff after every message.

What is retried (see :func:`is_retryable`):

==================================  =================  ===============
failure                             idempotent calls   unsafe calls
==================================  =================  ===============
UNAVAILABLE                         yes                no
DEADLINE_EXCEEDED                   yes                no
RESOURCE_EXHAUSTED with RetryInfo   yes (its delay)    yes (its delay)
anything else                       no                 no
==================================  =================  ===============

Idempotent calls are the reads (ListGameTypes, GetGame, ListLegalMoves,
GetHistory, Ping, WatchGame) and ApplyMove, which is retried with the *same*
idempotency key: the server answers a repeat with the first result
(``replayed=True``) and never applies a move twice. ``ABORTED`` (a stale
version) is a real answer and is never retried. CreateGame and JoinGame are
*unsafe*: a repeat after the first request reached the server would create a
second game or take a second seat (the server shows a seat's token only
once), so they are retried only when the server said it declined the request
(RESOURCE_EXHAUSTED with RetryInfo). The clients send them with gRPC's
``wait_for_ready`` instead: while no connection to the server exists, gRPC
holds the request (up to the attempt deadline) rather than failing, so a
server restart does not fail them, and they are never sent twice.
"""

from __future__ import annotations

import enum
import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass

import grpc

from throneroom.errors import ThroneroomError

__all__ = [
    "NO_RETRY",
    "CallRetries",
    "Clock",
    "Idempotency",
    "Rand",
    "RetryPolicy",
    "WatchRetries",
    "channel_options",
    "is_retryable",
]

#: Seconds since an arbitrary origin (``time.monotonic``); injectable for tests.
Clock = Callable[[], float]
#: A uniform random number in [0, 1) (``random.random``); injectable for tests.
Rand = Callable[[], float]


class Idempotency(enum.Enum):
    """Whether sending a request twice can do anything the first one did not."""

    #: Repeating it is harmless: the reads, and ApplyMove with its idempotency key.
    IDEMPOTENT = "idempotent"
    #: Repeating it may act twice (CreateGame, JoinGame): retried only when the
    #: server declined the request and said when to come back.
    UNSAFE = "unsafe"


#: Retried for idempotent calls only: the request may have run, which is harmless.
_TRANSIENT = frozenset({grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.DEADLINE_EXCEEDED})


def is_retryable(error: ThroneroomError, idempotency: Idempotency) -> bool:
    """True if ``error`` is worth another attempt of a call of this kind.

    UNAVAILABLE and DEADLINE_EXCEEDED for idempotent calls; RESOURCE_EXHAUSTED
    only when the server attached a ``google.rpc.RetryInfo`` (a quota saying
    when to come back; without it, a size limit, which no retry changes), for
    every call, since the server refused it before doing anything. Never
    INVALID_ARGUMENT, FAILED_PRECONDITION, ABORTED, UNAUTHENTICATED,
    PERMISSION_DENIED, NOT_FOUND or any other code: those are the server's
    answer, and repeating the question does not change it.
    """
    if error.code is grpc.StatusCode.RESOURCE_EXHAUSTED:
        return error.retry_delay is not None
    return idempotency is Idempotency.IDEMPOTENT and error.code in _TRANSIENT


@dataclass(frozen=True)
class RetryPolicy:
    """How the clients retry transient failures (defaults shown).

    ``budget`` (30 s)
        Seconds one call may spend on all its attempts and the waits between
        them, counted from the start of the first attempt. A retry whose wait
        would end after the budget is not made; a retry's deadline is cut to
        what remains. ``0`` makes one attempt only.
    ``attempt_timeout`` (10 s)
        The gRPC deadline of each attempt (``None``: none).
    ``initial_backoff`` (0.1 s), ``multiplier`` (2), ``max_backoff`` (3 s)
        Before retry ``n`` (0-based) the client waits a random time between 0
        and ``min(max_backoff, initial_backoff * multiplier**n)`` ("full
        jitter": clients that failed together do not come back together).
        When the server attached a ``google.rpc.RetryInfo``, its delay is
        waited instead. gRPC's own reconnection backoff is capped at
        ``max_backoff`` too (see :func:`channel_options`).
    ``max_retries`` (``None``)
        At most this many retries of one call, or consecutive failed
        reconnections of a watch; ``None``: no count limit, only time limits.
    ``watch_budget`` (``None``)
        A watch gives up (raising the last error) when this many seconds pass
        without a message from the server; ``None``: it reconnects for as
        long as the caller keeps iterating.
    """

    budget: float = 30.0
    attempt_timeout: float | None = 10.0
    initial_backoff: float = 0.1
    max_backoff: float = 3.0
    multiplier: float = 2.0
    max_retries: int | None = None
    watch_budget: float | None = None

    def __post_init__(self) -> None:
        problems = []
        if not self.budget >= 0:
            problems.append(f"budget must be >= 0, not {self.budget}")
        if self.attempt_timeout is not None and not self.attempt_timeout > 0:
            problems.append(f"attempt_timeout must be > 0 or None, not {self.attempt_timeout}")
        if not 0 <= self.initial_backoff <= self.max_backoff < math.inf:
            problems.append(
                "backoffs must satisfy 0 <= initial_backoff <= max_backoff < inf, not "
                f"{self.initial_backoff} and {self.max_backoff}"
            )
        if not self.multiplier >= 1:
            problems.append(f"multiplier must be >= 1, not {self.multiplier}")
        if self.max_retries is not None and self.max_retries < 0:
            problems.append(f"max_retries must be >= 0 or None, not {self.max_retries}")
        if self.watch_budget is not None and not self.watch_budget >= 0:
            problems.append(f"watch_budget must be >= 0 or None, not {self.watch_budget}")
        if problems:
            raise ValueError("invalid RetryPolicy: " + "; ".join(problems))

    def backoff_ceiling(self, retry: int) -> float:
        """The longest wait before retry number ``retry`` (0-based)."""
        try:
            growth = self.multiplier**retry
        except OverflowError:
            return self.max_backoff
        return min(self.max_backoff, self.initial_backoff * growth)

    def backoff(self, retry: int, rand: Rand = random.random) -> float:
        """A wait before retry number ``retry``: uniform in [0, ceiling) (full jitter)."""
        return self.backoff_ceiling(retry) * rand()


#: One attempt, no retry, and a watch that gives up at its first failure.
NO_RETRY = RetryPolicy(budget=0.0, max_retries=0, watch_budget=0.0)


def channel_options(policy: RetryPolicy) -> list[tuple[str, int]]:
    """gRPC channel options that keep the channel's reconnection in step with ``policy``.

    While a channel cannot connect, gRPC retries the connection with its own
    backoff, which grows to 120 s by default: a server back after a minute
    could then stay unreachable long after the SDK's retries have given up.
    These cap it at the policy's ``max_backoff``.
    """
    cap_ms = max(100, int(policy.max_backoff * 1000))
    return [
        ("grpc.initial_reconnect_backoff_ms", min(1000, cap_ms)),
        ("grpc.max_reconnect_backoff_ms", cap_ms),
    ]


class CallRetries:
    """The retry schedule of one unary call.

    No I/O here: the client sends and sleeps, as in::

        retries = CallRetries(policy, Idempotency.IDEMPOTENT)
        while True:
            try:
                return send(timeout=retries.attempt_timeout())
            except ThroneroomError as error:
                delay = retries.delay_after(error)
                if delay is None:
                    raise
            sleep(delay)
    """

    def __init__(
        self,
        policy: RetryPolicy,
        idempotency: Idempotency,
        *,
        clock: Clock = time.monotonic,
        rand: Rand = random.random,
    ) -> None:
        self.policy = policy
        self.idempotency = idempotency
        self._clock = clock
        self._rand = rand
        self._start = clock()
        #: Retries scheduled so far (the attempt under way is number ``retries + 1``).
        self.retries = 0

    @property
    def deadline(self) -> float:
        """When the budget runs out, on the clock's scale."""
        return self._start + self.policy.budget

    def attempt_timeout(self) -> float | None:
        """The deadline (seconds) of the attempt about to start."""
        timeout = self.policy.attempt_timeout
        if self.retries == 0:
            return timeout
        remaining = max(0.0, self.deadline - self._clock())
        return remaining if timeout is None else min(timeout, remaining)

    def delay_after(self, error: ThroneroomError) -> float | None:
        """Seconds to wait before the next attempt, or ``None`` to raise ``error``.

        Records on ``error`` how many attempts were made, and when a
        retryable error is raised because the budget (or ``max_retries``) is
        spent, says so in a note on the exception.
        """
        error.attempts = self.retries + 1
        if not is_retryable(error, self.idempotency):
            if self.idempotency is Idempotency.UNSAFE and error.code in _TRANSIENT:
                error.add_note(
                    "not retried: this request is not idempotent and may have "
                    "taken effect on the server"
                )
            return None
        policy = self.policy
        now = self._clock()
        delay = error.retry_delay
        if delay is None:
            delay = policy.backoff(self.retries, self._rand)
        out_of_retries = policy.max_retries is not None and self.retries >= policy.max_retries
        if out_of_retries or now + delay >= self.deadline:
            error.add_note(
                f"gave up after {error.attempts} attempt(s) in {now - self._start:.1f} s "
                f"(retry budget {policy.budget:g} s)"
            )
            return None
        self.retries += 1
        return delay


class WatchRetries:
    """The reconnection schedule of one watch stream (no I/O, like :class:`CallRetries`).

    Call :meth:`delivered` for every message the stream brings (heartbeats
    included): it resets the backoff. After a failure, :meth:`delay_after`
    gives the seconds to wait before reconnecting, or ``None`` to raise.
    """

    def __init__(
        self,
        policy: RetryPolicy,
        *,
        clock: Clock = time.monotonic,
        rand: Rand = random.random,
    ) -> None:
        self.policy = policy
        self._clock = clock
        self._rand = rand
        self._last_message = clock()
        #: Consecutive failed connections since the last message.
        self.failures = 0

    def delivered(self) -> None:
        """A message arrived: the stream works, the backoff starts again."""
        self.failures = 0
        self._last_message = self._clock()

    def delay_after(self, error: ThroneroomError) -> float | None:
        """Seconds to wait before reconnecting after ``error``, or ``None`` to raise it."""
        error.attempts = self.failures + 1
        if not is_retryable(error, Idempotency.IDEMPOTENT):
            return None
        policy = self.policy
        delay = error.retry_delay
        if delay is None:
            delay = policy.backoff(self.failures, self._rand)
        silent = self._clock() + delay - self._last_message
        if (policy.max_retries is not None and self.failures >= policy.max_retries) or (
            policy.watch_budget is not None and silent > policy.watch_budget
        ):
            error.add_note(
                f"the watch gave up after {self.failures + 1} failed connection(s) "
                f"and {self._clock() - self._last_message:.1f} s without a message"
            )
            return None
        self.failures += 1
        return delay
