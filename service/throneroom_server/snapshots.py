"""Snapshots of a game, the part every viewer shares built once per version.

A snapshot is the same for every viewer of a version but for ``viewer_seat``
and, in the view, what only that seat sees. Once every seat is taken (seat
records never change once claimed), the rest is a function of the game and
the version alone: a committed version's state and clocks never change. So
the shared part is built once (the view a spectator has, when the game can
turn it into a seat's: ``ServiceGame.shares_views``), kept serialized in a
small cache keyed by (game id, version), and each viewer's snapshot is those
bytes parsed, with its own seat's part added. The cache only saves work: it
holds nothing that cannot be rebuilt, and each entry is rebuilt when dropped.
Before every seat is taken, snapshots are built whole (seats may be claimed
without a new version).
"""

from __future__ import annotations

from throneroom.v1 import game_pb2, service_pb2, storage_pb2

from throneroom_server import clocks
from throneroom_server.games.kit.service import ServiceGame
from throneroom_server.records import outcome_of
from throneroom_server.store import LoadedGame

SHARED_LIMIT = 1024
"""Versions whose shared snapshot is kept (the oldest dropped first): each is
read by the version's streams within moments of its commit."""


class Snapshots:
    """Builds snapshots, keeping the part every viewer shares (see the module)."""

    __slots__ = ("_limit", "_shared")

    def __init__(self, limit: int = SHARED_LIMIT) -> None:
        self._limit = limit
        self._shared: dict[tuple[str, int], bytes] = {}

    def build(
        self,
        game: ServiceGame,
        loaded: LoadedGame,
        state: game_pb2.GameState,
        version: int,
        *,
        seat: int | None,
        clock: storage_pb2.StoredClock | None,
        into: service_pb2.GameSnapshot,
    ) -> None:
        """The snapshot of ``state`` (the committed state of ``version``) as
        ``seat`` (None: a spectator) sees it, with ``clock`` (the clocks at that
        version), written into ``into`` (empty)."""
        meta = loaded.meta
        if len(loaded.seats) < meta.num_seats:
            _shared_part(game, loaded, state, version, clock=clock, snapshot=into)
            game.view_into(state, seat, into.view)
        else:
            shares = game.shares_views
            key = (loaded.game_id, version)
            shared = self._shared.get(key)
            if shared is None:
                _shared_part(game, loaded, state, version, clock=clock, snapshot=into)
                if shares:
                    game.view_into(state, None, into.view)
                self._keep(key, into.SerializeToString())
            else:
                into.MergeFromString(shared)
            if not shares:
                game.view_into(state, seat, into.view)
            elif seat is not None:
                game.add_seat_view(state, seat, into.view)
        if seat is not None:
            into.viewer_seat = seat

    def _keep(self, key: tuple[str, int], shared: bytes) -> None:
        kept = self._shared
        if len(kept) >= self._limit:
            del kept[next(iter(kept))]  # the oldest (a dict keeps insertion order)
        kept[key] = shared


def _shared_part(
    game: ServiceGame,
    loaded: LoadedGame,
    state: game_pb2.GameState,
    version: int,
    *,
    clock: storage_pb2.StoredClock | None,
    snapshot: service_pb2.GameSnapshot,
) -> None:
    """Everything of the snapshot but ``viewer_seat`` and the view."""
    meta = loaded.meta
    num_seats = meta.num_seats
    outcome = outcome_of(game, state)
    snapshot.game_id = loaded.game_id
    snapshot.game_type = game.name
    snapshot.version = version
    snapshot.num_seats = num_seats
    if not state.HasField("forfeit"):  # lost on time: nobody acts
        snapshot.to_act.extend(game.to_act(state))
    snapshot.finished = outcome is not None
    # Moves happen only once every seat is taken.
    snapshot.started = version > 0 or len(loaded.seats) == num_seats
    seats = loaded.seats
    for seat in range(num_seats):
        record = seats.get(seat)
        snapshot.seats.add(
            seat=seat,
            taken=record is not None,
            display_name=record.display_name if record else "",
        )
    if outcome is not None:
        snapshot.outcome.CopyFrom(outcome)
    if meta.HasField("time_control"):
        control = meta.time_control
        snapshot.time_control.CopyFrom(control)
        snapshot.clocks.extend(clocks.seat_clocks(control, clock, num_seats))
