"""Game records: a finished game's full record, and its replay through the engines.

A record (``GameRecord``, service.proto) holds what a game was made from —
type, options, seats, seed, time control — and every version after it: the
seat, the move (none for a timeout lost on time) and every event, unredacted.
``replay`` rebuilds the game from those alone through the same engines and the
same timeout rule the service applies, and compares each version's events and
the final state's bytes (by SHA-256) exactly: a record either replays byte for
byte or says at which version it stops agreeing.

Only finished games have a record (the App refuses others): it reveals every
secret of the game, which nothing can use once the game is over.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping, Sequence

from throneroom.v1 import common_pb2, game_pb2, service_pb2, storage_pb2

from throneroom_server.games.core import GameError
from throneroom_server.games.kit.service import ServiceGame
from throneroom_server.store.base import LoadedGame

RECORD_FORMAT = 1


class RecordMismatch(ValueError):
    """A record that does not replay: ``version`` is where it stops agreeing
    (0: before the first move)."""

    def __init__(self, version: int, detail: str) -> None:
        super().__init__(f"version {version}: {detail}")
        self.version = version
        self.detail = detail


def forfeited(state: game_pb2.GameState, seat: int, num_seats: int) -> game_pb2.GameState:
    """``state`` after ``seat`` lost on time (the "lose" timeout policy): a copy
    whose ``forfeit`` outcome makes every other seat a winner."""
    after = game_pb2.GameState()
    after.CopyFrom(state)
    after.forfeit.CopyFrom(
        common_pb2.Outcome(
            winners=[s for s in range(num_seats) if s != seat],
            termination="timeout",
            summary=f"Seat {seat} ran out of time and loses; every other seat wins.",
        )
    )
    return after


def outcome_of(game: ServiceGame, state: game_pb2.GameState) -> common_pb2.Outcome | None:
    """The game's outcome, a timeout's forfeit included."""
    return state.forfeit if state.HasField("forfeit") else game.outcome(state)


def state_digest(state: game_pb2.GameState) -> bytes:
    return hashlib.sha256(state.SerializeToString(deterministic=True)).digest()


def build_record(
    game_id: str,
    loaded: LoadedGame,
    entries: Sequence[storage_pb2.StoredEntry],
    outcome: common_pb2.Outcome,
) -> service_pb2.GameRecord:
    """The record of a finished game from its stored parts (entries 1..N)."""
    meta = loaded.meta
    record = service_pb2.GameRecord(
        format=RECORD_FORMAT,
        game_id=game_id,
        game_type=meta.game_type,
        options=meta.options,
        seed=meta.seed,
        num_seats=meta.num_seats,
        display_names=[
            loaded.seats[n].display_name if n in loaded.seats else "" for n in range(meta.num_seats)
        ],
        created_unix_ms=meta.created_unix_ms,
        outcome=outcome,
        final_state_sha256=state_digest(loaded.state),
    )
    if meta.HasField("time_control"):
        record.time_control.CopyFrom(meta.time_control)
    for entry in entries:
        moved = record.moves.add(
            version=entry.version, seat=entry.seat, events=entry.events, timeout=entry.timeout
        )
        if entry.HasField("move"):
            moved.move.CopyFrom(entry.move)
    return record


Replayed = Callable[[service_pb2.RecordedMove | None, game_pb2.GameState], None]
"""Told each version replayed: its recorded move (None for version 0) and state."""


def replay(
    record: service_pb2.GameRecord,
    games: Mapping[str, ServiceGame],
    *,
    each: Replayed | None = None,
) -> game_pb2.GameState:
    """Replay ``record`` through ``games``; the final state, or RecordMismatch.
    ``each`` is told every version as it agrees with the record (version 0
    first)."""
    if record.format != RECORD_FORMAT:
        raise RecordMismatch(
            0, f"record format {record.format}, this release reads {RECORD_FORMAT}"
        )
    game = games.get(record.game_type)
    if game is None:
        raise RecordMismatch(0, f"this release has no game {record.game_type!r}")
    try:
        game.validate_options(record.options, record.num_seats)
        state = game.setup(record.options, record.num_seats, record.seed)
    except GameError as exc:
        raise RecordMismatch(0, f"the game cannot be set up: {exc}") from exc
    if each is not None:
        each(None, state)
    events: list[game_pb2.Event]
    for number, moved in enumerate(record.moves, start=1):
        if moved.version != number:
            raise RecordMismatch(number, f"the record jumps to version {moved.version}")
        if outcome_of(game, state) is not None:
            raise RecordMismatch(number, "the game was already over")
        if moved.timeout and not moved.HasField("move"):
            state, events = forfeited(state, moved.seat, record.num_seats), []
        else:
            try:
                state, events = game.apply(state, moved.seat, moved.move)
            except GameError as exc:
                raise RecordMismatch(number, f"the engine refuses the move: {exc}") from exc
        recorded = [e.SerializeToString(deterministic=True) for e in moved.events]
        if [e.SerializeToString(deterministic=True) for e in events] != recorded:
            raise RecordMismatch(number, "the events differ from the record's")
        if each is not None:
            each(moved, state)
    outcome = outcome_of(game, state)
    if outcome is None:
        raise RecordMismatch(len(record.moves), "the game is not over after the last move")
    if outcome != record.outcome:
        raise RecordMismatch(len(record.moves), "the outcome differs from the record's")
    if state_digest(state) != record.final_state_sha256:
        raise RecordMismatch(len(record.moves), "the final state differs from the record's")
    return state
