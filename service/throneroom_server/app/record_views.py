"""A record's versions as a viewer sees them (ReplayRecord), nothing stored.

The record is replayed whole through the engines (``records.replay``: it
must agree with them byte for byte, else nothing is answered), and the
versions of the page asked for become the same ``GameUpdate`` messages a
watch stream carries: the snapshot as the viewer seat (or a spectator) sees
it, the events redacted for that viewer, and with a language their
sentences. The game's id in the snapshots is the record's; the updates are
built by a ``Snapshots`` of their own, never the App's (whose cache is keyed
by the ids of live games). A record holds no clocks per version, so the
snapshots carry none.
"""

from __future__ import annotations

from collections.abc import Mapping

from throneroom.v1 import game_pb2, service_pb2, storage_pb2

from throneroom_server.app import records
from throneroom_server.app.describe import Describer, check_language, describer
from throneroom_server.app.snapshots import Snapshots
from throneroom_server.games.kit.service import ServiceGame
from throneroom_server.store import LoadedGame


def replay_page(
    record: service_pb2.GameRecord,
    games: Mapping[str, ServiceGame],
    *,
    from_version: int,
    size: int,
    viewer: int | None,
    words: Describer | None,
) -> service_pb2.ReplayRecordResponse:
    """Versions ``from_version`` .. ``from_version + size - 1`` of ``record``
    (RecordMismatch when it does not replay)."""
    last = from_version + size - 1
    states: dict[int, tuple[service_pb2.RecordedMove | None, game_pb2.GameState]] = {}

    def keep(moved: service_pb2.RecordedMove | None, state: game_pb2.GameState) -> None:
        version = 0 if moved is None else moved.version
        if from_version <= version <= last:
            states[version] = (moved, state)

    records.replay(record, games, each=keep)
    game = games[record.game_type]
    loaded = _loaded(record)
    snapshots = Snapshots()
    response = service_pb2.ReplayRecordResponse(last_version=len(record.moves))
    for version in sorted(states):
        moved, state = states[version]
        entry = storage_pb2.StoredEntry(version=version, seat=-1, state=state)
        if moved is not None:
            entry.seat = moved.seat
            entry.timeout = moved.timeout
            entry.events.extend(moved.events)
            if moved.HasField("move"):
                entry.move.CopyFrom(moved.move)
        update = response.updates.add()
        snapshots.update(game, loaded, entry, viewer, update)
        if words is not None and moved is not None:
            words.annotate_entry(update, entry, viewer)
    if last < len(record.moves):
        response.next_from_version = last + 1
    return response


def describer_for(
    games: Mapping[str, ServiceGame], record: service_pb2.GameRecord, lang: str
) -> Describer | None:
    """The sentences of a record's game in ``lang`` (None when none is asked,
    or for a game this release lacks, which the replay refuses)."""
    check_language(lang)
    game = games.get(record.game_type)
    return None if game is None else describer(game, lang, record.display_names)


def _loaded(record: service_pb2.GameRecord) -> LoadedGame:
    """The game as a store would hold it, every seat taken (a finished game's)."""
    meta = storage_pb2.StoredGameMeta(
        game_type=record.game_type,
        options=record.options,
        num_seats=record.num_seats,
        seed=record.seed,
        created_unix_ms=record.created_unix_ms,
    )
    if record.HasField("time_control"):
        meta.time_control.CopyFrom(record.time_control)
    names = list(record.display_names)
    seats = {
        seat: storage_pb2.StoredSeat(display_name=names[seat] if seat < len(names) else "")
        for seat in range(record.num_seats)
    }
    return LoadedGame(
        game_id=record.game_id,
        meta=meta,
        version=len(record.moves),
        state=game_pb2.GameState(),
        seats=seats,
        idempotent_version=None,
    )
