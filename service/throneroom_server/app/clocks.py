"""Game clocks: pure arithmetic over ``StoredClock`` (times in Unix ms).

Time is read only by the service (the App's injected clock) and reaches an
engine only as an explicit decision (a timeout's default move); engines never
see it. A game's clocks start when its last seat is taken.

* **Fischer** (``base_seconds``, ``increment_seconds``): each seat has a
  bank of time, spent while it must act (with several seats acting at once,
  each one's clock runs) and topped up by the increment after each of its
  moves. A seat's deadline is the start of its running stretch plus its bank.
* **Per decision** (``per_decision_seconds``): each decision must be made
  within that time of being asked. A seat that keeps acting in a
  simultaneous decision answered by others keeps its deadline; a seat asked
  anew (or asked again after its own move) gets a fresh one.

A timeout is computed *as of the deadline*, not as of when a replica noticed,
so the result is the same whichever replica applies it and however late.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from throneroom.v1 import common_pb2, storage_pb2

MAX_SECONDS = 7 * 24 * 3600
"""The longest allowance or bank a time control may give (a week)."""


class TimeControlError(ValueError):
    """A time control that cannot be played."""


def validate(control: common_pb2.TimeControl) -> None:
    kind = control.WhichOneof("kind")
    if kind is None:
        raise TimeControlError("a time control needs per_decision_seconds or fischer")
    if kind == "per_decision_seconds":
        seconds = control.per_decision_seconds
        if not 1 <= seconds <= MAX_SECONDS:
            raise TimeControlError(f"per_decision_seconds must be 1 to {MAX_SECONDS}")
    else:
        fischer = control.fischer
        if not 1 <= fischer.base_seconds <= MAX_SECONDS:
            raise TimeControlError(f"fischer.base_seconds must be 1 to {MAX_SECONDS}")
        if fischer.increment_seconds > MAX_SECONDS:
            raise TimeControlError(f"fischer.increment_seconds must be at most {MAX_SECONDS}")
    if control.on_timeout not in common_pb2.TimeoutPolicy.values():
        raise TimeControlError(f"unknown timeout policy {control.on_timeout}")


def _allowance_ms(control: common_pb2.TimeControl) -> int:
    if control.WhichOneof("kind") == "per_decision_seconds":
        return control.per_decision_seconds * 1000
    return control.fischer.base_seconds * 1000


def start(
    control: common_pb2.TimeControl, num_seats: int, acting: Collection[int], now_ms: int
) -> storage_pb2.StoredClock:
    """The clocks of a game whose last seat was just taken."""
    allowance = _allowance_ms(control)
    clock = storage_pb2.StoredClock(
        remaining_ms=[allowance] * num_seats,
        running_since_ms=[0] * num_seats,
        deadline_ms=[0] * num_seats,
    )
    for seat in acting:
        clock.running_since_ms[seat] = now_ms
        clock.deadline_ms[seat] = now_ms + allowance
    return clock


def after_move(
    control: common_pb2.TimeControl,
    clock: storage_pb2.StoredClock,
    *,
    mover: int,
    acting_before: Collection[int],
    acting_after: Collection[int],
    now_ms: int,
) -> storage_pb2.StoredClock:
    """The clocks once ``mover`` moved at ``now_ms`` (a copy; ``clock`` is kept)."""
    out = storage_pb2.StoredClock()
    out.CopyFrom(clock)
    seats = range(len(out.remaining_ms))
    if control.WhichOneof("kind") == "per_decision_seconds":
        allowance = control.per_decision_seconds * 1000
        for seat in seats:
            if seat not in acting_after:
                out.running_since_ms[seat] = 0
                out.deadline_ms[seat] = 0
            elif seat == mover or seat not in acting_before or not out.deadline_ms[seat]:
                out.running_since_ms[seat] = now_ms
                out.deadline_ms[seat] = now_ms + allowance
        return out
    increment = control.fischer.increment_seconds * 1000
    for seat in seats:
        since = out.running_since_ms[seat]
        if since:
            out.remaining_ms[seat] = max(0, out.remaining_ms[seat] - max(0, now_ms - since))
        if seat == mover:
            out.remaining_ms[seat] += increment
        if seat in acting_after:
            out.running_since_ms[seat] = now_ms
            out.deadline_ms[seat] = now_ms + out.remaining_ms[seat]
        else:
            out.running_since_ms[seat] = 0
            out.deadline_ms[seat] = 0
    return out


def stopped(clock: storage_pb2.StoredClock) -> storage_pb2.StoredClock:
    """The clocks of a finished game: nothing runs."""
    out = storage_pb2.StoredClock()
    out.CopyFrom(clock)
    for seat in range(len(out.deadline_ms)):
        out.running_since_ms[seat] = 0
        out.deadline_ms[seat] = 0
    return out


def expired(clock: storage_pb2.StoredClock, acting: Collection[int], now_ms: int) -> list[int]:
    """Seats that must act and whose time ran out by ``now_ms``, earliest first."""
    late = [
        seat
        for seat in acting
        if seat < len(clock.deadline_ms) and 0 < clock.deadline_ms[seat] <= now_ms
    ]
    return sorted(late, key=lambda seat: (clock.deadline_ms[seat], seat))


def next_deadline(clock: storage_pb2.StoredClock) -> int | None:
    """The earliest running deadline, if any."""
    running = [d for d in clock.deadline_ms if d > 0]
    return min(running) if running else None


def seat_clocks(
    control: common_pb2.TimeControl, clock: storage_pb2.StoredClock | None, num_seats: int
) -> Sequence[common_pb2.SeatClock]:
    """Every seat's clock as clients see it (the allowance before the start)."""
    out = []
    for seat in range(num_seats):
        shown = common_pb2.SeatClock(seat=seat, remaining_ms=_allowance_ms(control))
        if clock is not None and seat < len(clock.remaining_ms):
            if control.WhichOneof("kind") == "fischer":
                shown.remaining_ms = clock.remaining_ms[seat]
            if clock.deadline_ms[seat]:
                shown.deadline_unix_ms = clock.deadline_ms[seat]
        out.append(shown)
    return out
