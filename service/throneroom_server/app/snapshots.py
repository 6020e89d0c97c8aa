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

A stream's update is not even parsed (``framed``): it is written from the
shared part's bytes and the viewer's own part, each message field of it
(``snapshot``, its ``view``, the game's entry of the view) framed once around
its shared bytes followed by the viewer's (the viewer's seat, its part of
the view), then the viewer's events and legal moves. Fragments are joined
only *inside* a message, never as two occurrences of one message field:
protobuf says a parser merges those, but not every parser does (protobufjs 7,
which most Node.js gRPC clients decode with, keeps the last one only: a
snapshot sent as the shared part then the viewer's view read as the view
alone, ``finished`` and the outcome lost; issue 34). Within the game's view
the viewer's part only adds fields the spectator's leaves empty (a game's
``seat_view``, ``kit.checks.seat_view_problems``).
"""

from __future__ import annotations

from collections import OrderedDict
from typing import NamedTuple, TypeVar

from throneroom.games.messages import varint
from throneroom.v1 import game_pb2, service_pb2, storage_pb2

from throneroom_server.app import clocks
from throneroom_server.app.records import outcome_of
from throneroom_server.games.kit.service import ServiceGame
from throneroom_server.store import LoadedGame

SHARED_LIMIT = 1024
"""Versions whose shared snapshot is kept (the oldest dropped first): each is
read by the version's streams within moments of its commit."""


class SharedUpdate(NamedTuple):
    """What every viewer's update of a version shares, serialized as the parts
    ``framed`` writes each viewer's update from, and what a stream reads of it."""

    head: bytes
    """The GameUpdate's fields but its snapshot (version, mover, timeout and,
    for a game whose events are public, the events)."""
    snapshot: bytes
    """The GameSnapshot's fields but its view and ``viewer_seat``."""
    view: bytes
    """For a game that shares views, the spectator's view: the game's message
    (the entry of ``View``), which a seat's part follows; else empty."""
    to_act: tuple[int, ...]
    finished: bool


Kept = TypeVar("Kept", bytes, SharedUpdate)


class Snapshots:
    """Builds snapshots, keeping the part every viewer shares (see the module)."""

    __slots__ = ("_framed", "_limit", "_shared", "_updates")

    def __init__(self, limit: int = SHARED_LIMIT) -> None:
        self._limit = limit
        # OrderedDicts: the oldest is dropped in O(1) (a dict's first key is
        # found by scanning past the slots of the keys deleted before it).
        self._shared: OrderedDict[tuple[str, int], bytes] = OrderedDict()
        """(game id, version) -> the snapshot's shared part, serialized."""
        self._updates: OrderedDict[tuple[str, int], bytes] = OrderedDict()
        """(game id, version) -> the update's shared part, serialized."""
        self._framed: OrderedDict[tuple[str, int], SharedUpdate] = OrderedDict()
        """(game id, version) -> the update's shared part for ``framed``."""

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
        if len(loaded.seats) < loaded.meta.num_seats:
            _shared_part(game, loaded, state, version, clock=clock, snapshot=into)
            game.view_into(state, seat, into.view)
        else:
            self._shared_into(game, loaded, state, version, clock=clock, into=into)
            _personal_part(game, state, seat, into)
        if seat is not None:
            into.viewer_seat = seat

    def _shared_into(
        self,
        game: ServiceGame,
        loaded: LoadedGame,
        state: game_pb2.GameState,
        version: int,
        *,
        clock: storage_pb2.StoredClock | None,
        into: service_pb2.GameSnapshot,
    ) -> None:
        """The shared part of a snapshot of a game whose seats are all taken."""
        key = (loaded.game_id, version)
        shared = self._shared.get(key)
        if shared is None:
            _shared_part(game, loaded, state, version, clock=clock, snapshot=into)
            if game.shares_views:
                game.view_into(state, None, into.view)
            self._keep(self._shared, key, into.SerializeToString())
        else:
            into.MergeFromString(shared)

    def update(
        self,
        game: ServiceGame,
        loaded: LoadedGame,
        entry: storage_pb2.StoredEntry,
        seat: int | None,
        into: service_pb2.GameUpdate,
    ) -> None:
        """The update of a committed ``entry`` as ``seat`` sees it, written into
        ``into`` (empty): what every viewer shares (the snapshot's shared part
        and, for a game whose events are public, the events) kept like a
        snapshot's, then the viewer's own part (legal moves are added after)."""
        version = entry.version
        clock = entry.clock if entry.HasField("clock") else None
        public = game.public_events
        if len(loaded.seats) < loaded.meta.num_seats:
            _update_header(entry, into)
            self.build(
                game, loaded, entry.state, version, seat=seat, clock=clock, into=into.snapshot
            )
            public = False
        else:
            key = (loaded.game_id, version)
            shared = self._updates.get(key)
            snapshot = into.snapshot
            if shared is None:
                _update_header(entry, into)
                self._shared_into(game, loaded, entry.state, version, clock=clock, into=snapshot)
                if public:
                    into.events.extend(entry.events)
                self._keep(self._updates, key, into.SerializeToString())
            else:
                into.MergeFromString(shared)
            _personal_part(game, entry.state, seat, snapshot)
            if seat is not None:
                snapshot.viewer_seat = seat
        if not public:
            into.events.extend(game.redact_events(entry.events, seat))

    def shared_update(
        self, game: ServiceGame, loaded: LoadedGame, entry: storage_pb2.StoredEntry
    ) -> SharedUpdate:
        """The part of the update of ``entry`` every viewer shares (every seat
        of ``loaded`` taken): kept like a snapshot's."""
        key = (loaded.game_id, entry.version)
        shared = self._framed.get(key)
        if shared is None:
            head = service_pb2.GameUpdate()
            _update_header(entry, head)
            if game.public_events:
                head.events.extend(entry.events)
            snapshot = service_pb2.GameSnapshot()
            clock = entry.clock if entry.HasField("clock") else None
            # Built here, not through the snapshots' cache: this is the
            # version's one build, and its bytes are kept as the update's.
            _shared_part(game, loaded, entry.state, entry.version, clock=clock, snapshot=snapshot)
            view = b""
            if game.shares_views:
                spectator = game_pb2.View()
                game.view_into(entry.state, None, spectator)
                view = getattr(spectator, game.name).SerializeToString()
            shared = SharedUpdate(
                head.SerializeToString(),
                snapshot.SerializeToString(),
                view,
                tuple(snapshot.to_act),
                snapshot.finished,
            )
            self._keep(self._framed, key, shared)
        return shared

    def framed(
        self,
        game: ServiceGame,
        loaded: LoadedGame,
        entry: storage_pb2.StoredEntry,
        seat: int | None,
        *,
        shared: SharedUpdate,
        legal_moves: bytes = b"",
    ) -> bytes:
        """The WatchGameResponse of ``entry``'s update as ``seat`` sees it,
        serialized from ``shared`` (``shared_update``) and the viewer's own
        part, with ``legal_moves`` (GameUpdate ``legal_moves`` entries,
        serialized): each message field once (see the module; every seat of
        ``loaded`` taken, no descriptions)."""
        view = game_pb2.View()
        if not game.shares_views:
            game.view_into(entry.state, seat, view)
            view_data = view.SerializeToString()
            view_parts: tuple[bytes, ...] = (view_data,)
            view_size = len(view_data)
        else:
            own = b""
            if seat is not None:
                getattr(view, game.name).SetInParent()
                game.add_seat_view(entry.state, seat, view)
                own = getattr(view, game.name).SerializeToString()
            inner = len(shared.view) + len(own)
            view_parts = (_VIEW_TAGS[game.name], varint(inner), shared.view, own)
            view_size = len(view_parts[0]) + len(view_parts[1]) + inner
        # The snapshot: its shared fields, its view, the viewer's seat.
        seat_part = b"" if seat is None else _VIEWER_SEAT_TAG + varint(seat)  # seat >= 0
        view_length = varint(view_size)
        snapshot_size = (
            len(shared.snapshot) + len(_VIEW_TAG) + len(view_length) + view_size + len(seat_part)
        )
        snapshot_length = varint(snapshot_size)
        events = b""
        if not game.public_events:
            personal = service_pb2.GameUpdate()
            personal.events.extend(game.redact_events(entry.events, seat))
            events = personal.SerializeToString()
        head = shared.head
        body_size = (
            len(head)
            + len(_SNAPSHOT_TAG)
            + len(snapshot_length)
            + snapshot_size
            + len(events)
            + len(legal_moves)
        )
        return b"".join(
            (
                _UPDATE_TAG,
                varint(body_size),
                head,
                _SNAPSHOT_TAG,
                snapshot_length,
                shared.snapshot,
                _VIEW_TAG,
                view_length,
                *view_parts,
                seat_part,
                events,
                legal_moves,
            )
        )

    def _keep(
        self, kept: OrderedDict[tuple[str, int], Kept], key: tuple[str, int], data: Kept
    ) -> None:
        if len(kept) >= self._limit:
            kept.popitem(last=False)  # the oldest
        kept[key] = data


_UPDATE_TAG = bytes(
    [service_pb2.WatchGameResponse.DESCRIPTOR.fields_by_name["update"].number << 3 | 2]
)
"""The key of a WatchGameResponse's ``update`` (length-delimited; one byte)."""

_SNAPSHOT_TAG = varint(service_pb2.GameUpdate.DESCRIPTOR.fields_by_name["snapshot"].number << 3 | 2)
"""The key of a GameUpdate's ``snapshot``."""

_VIEW_TAG = varint(service_pb2.GameSnapshot.DESCRIPTOR.fields_by_name["view"].number << 3 | 2)
"""The key of a GameSnapshot's ``view``."""

_VIEWER_SEAT_TAG = varint(
    service_pb2.GameSnapshot.DESCRIPTOR.fields_by_name["viewer_seat"].number << 3
)
"""The key of a GameSnapshot's ``viewer_seat`` (a varint)."""

_VIEW_TAGS = {
    entry.name: varint(entry.number << 3 | 2) for entry in game_pb2.View.DESCRIPTOR.fields
}
"""A game's name -> the key of its entry in ``View``."""


def _update_header(entry: storage_pb2.StoredEntry, update: service_pb2.GameUpdate) -> None:
    update.version = entry.version
    update.seat = entry.seat
    update.timeout = entry.timeout


def _personal_part(
    game: ServiceGame,
    state: game_pb2.GameState,
    seat: int | None,
    snapshot: service_pb2.GameSnapshot,
) -> None:
    """The viewer's part of the view, on a snapshot holding the shared part."""
    if not game.shares_views:
        game.view_into(state, seat, snapshot.view)
    elif seat is not None:
        game.add_seat_view(state, seat, snapshot.view)


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
