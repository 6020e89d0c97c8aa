"""The match driver's seat streams (throneroom.tournament.match._Seats): a
version already read from a seat's stream is answered from what was read,
never waited for again. The next update may be the service's timeout of the
very decision the seat is being asked for: a runner that waited for it would
ask a fresh bot (after a default move) only once its time had run out."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from throneroom.tournament.match import _Seats
from throneroom.v1 import service_pb2


class _Handle:
    version = 0

    def __init__(self, updates: list[service_pb2.GameUpdate]) -> None:
        self.updates = updates
        self.pulled = 0

    def watch(self, **_: Any) -> Iterator[service_pb2.GameUpdate]:
        for update in self.updates:
            self.pulled += 1
            yield update
        # The stream has nothing more now: a real one would block here.
        raise AssertionError("waited for an update the service has not sent")


def test_a_version_already_read_is_not_waited_for_again() -> None:
    handle = _Handle([service_pb2.GameUpdate(version=v) for v in (1, 2)])
    seats = _Seats([handle])  # type: ignore[list-item]
    assert seats.read_until(0, 2).version == 2
    assert seats.read_until(0, 2).version == 2  # the timeout's version, asked again
    assert seats.read_until(0, 1).version == 2
    assert handle.pulled == 2
    with pytest.raises(AssertionError, match="waited"):
        seats.read_until(0, 3)


def test_events_of_each_version_are_kept_once() -> None:
    updates = [
        service_pb2.GameUpdate(version=1),
        service_pb2.GameUpdate(version=2),
    ]
    updates[1].events.add()
    handle = _Handle(updates)
    seats = _Seats([handle])  # type: ignore[list-item]
    seats.read_until(0, 2)
    seats.read_until(0, 2)
    assert len(seats.events[0]) == 1
