"""The move use case: admission, decision and commit, exactly once per key.

``Moves.play`` applies one move for a seat in three steps:

* **admission** (``check_request``, ``admit``): the caller's keys and
  quotas, the request's shape, the game loaded with the idempotency key's version (a retry is
  answered from the record it made, ``replay``), the seat's token, every seat
  taken, a move of this game;
* **decision** (``decide``): the version the move was chosen at
  (``check_version``: the current one, or any since a simultaneous decision
  opened for the seat), the seat's clock, the engine's checked apply; the
  state it makes and the record of it (``Decision``);
* **commit** (``commit``): the one commit step (``commit.py``); a version
  committed meanwhile sends the move back to the decision, on the new state.

A play session's fast path (``play_known``) decides on the state its stream
delivered and commits through the same step.
"""

from __future__ import annotations

import contextlib
import datetime
import hashlib
from collections.abc import Sequence
from dataclasses import dataclass

import structlog
from throneroom.v1 import game_pb2, service_pb2, storage_pb2

from throneroom_server.app import limits, timeouts
from throneroom_server.app.access import LOCAL, Caller
from throneroom_server.app.commit import Committer
from throneroom_server.app.errors import (
    AppError,
    ErrorKind,
    invalid,
    precondition,
    stale_version,
)
from throneroom_server.app.gateway import Gateway, Viewer
from throneroom_server.app.history import History
from throneroom_server.app.limits import Limits
from throneroom_server.app.metrics import Metrics
from throneroom_server.app.timeouts import Timeouts
from throneroom_server.games.core import GameError, IllegalMoveError, InvalidMoveError
from throneroom_server.games.kit.service import ServiceGame
from throneroom_server.store import Committed, Duplicate, LoadedGame, Stale
from throneroom_server.store.base import DIGEST_BYTES

MAX_IDEMPOTENCY_KEY = 128
MAX_COMMIT_ATTEMPTS = 16
"""Commits tried for one move whose version moved on meanwhile (simultaneous
answers racing each other); after that, ABORTED."""


@dataclass(frozen=True)
class MoveDone:
    """A move applied (or, ``replayed``, found applied before): the version it
    made, the state and record of that version, and the game as loaded."""

    loaded: LoadedGame
    viewer: Viewer
    version: int
    state: game_pb2.GameState
    entry: storage_pb2.StoredEntry
    clock: storage_pb2.StoredClock | None
    replayed: bool


@dataclass(frozen=True, slots=True)
class KnownGame:
    """A play session's copy of the game (``updates.Outbox.known_at``): the
    game at the version its stream delivered, and the seat that ``token``
    proved when the stream opened (seat records never change once claimed)."""

    loaded: LoadedGame
    token: str
    viewer: Viewer


Admitted = tuple[LoadedGame, Viewer, int, ServiceGame, bytes]
"""A move admitted: the game as loaded, the viewer and the seat that moves, its
engine, and the hash that recognises a retry of the move (a plain tuple, as
``Decision``)."""


Decision = tuple[game_pb2.GameState, storage_pb2.StoredEntry, storage_pb2.StoredClock | None]
"""A move decided: the state it makes, its record (the version after the one
decided on) and the clocks after it (None: no time control). A plain tuple:
a play session's move builds one (the hot path)."""


def request_hash(seat: int, move: game_pb2.Move) -> bytes:
    """What a move's record keeps to recognise a retry of it: 8 bytes of the
    SHA-256 of its seat and move."""
    return hashlib.sha256(
        seat.to_bytes(2, "big") + move.SerializeToString(deterministic=True)
    ).digest()[:DIGEST_BYTES]


def same_request(recorded: bytes, digest: bytes) -> bool:
    """Whether a record's request hash is ``digest`` (``request_hash``); an
    earlier release's record keeps the whole SHA-256, whose first bytes are
    compared."""
    return bool(recorded) and recorded[: len(digest)] == digest


def record(
    loaded: LoadedGame,
    seat: int,
    digest: bytes,
    move: game_pb2.Move,
    events: Sequence[game_pb2.Event],
) -> storage_pb2.StoredEntry:
    """The entry of ``seat``'s ``move`` after ``loaded``'s version."""
    entry = storage_pb2.StoredEntry(version=loaded.version + 1, seat=seat, request_sha256=digest)
    entry.move.CopyFrom(move)  # (as a keyword: serialized and parsed again)
    entry.events.extend(events)
    return entry


class Moves:
    """ApplyMove's and a play session's use case (the module's docstring)."""

    def __init__(
        self,
        gateway: Gateway,
        committer: Committer,
        timeouts: Timeouts,
        limits: Limits,
        metrics: Metrics | None = None,
        *,
        history: History | None = None,
    ) -> None:
        self.gateway = gateway
        self.history = history or History(gateway.store, gateway.games)
        self.committer = committer
        self.timeouts = timeouts
        self.limits = limits
        self.metrics = metrics

    async def apply(
        self,
        game_id: str,
        token: str,
        expected_version: int,
        move: game_pb2.Move,
        idempotency_key: str,
        *,
        with_legal_moves: bool = False,
        caller: Caller = LOCAL,
    ) -> service_pb2.ApplyMoveResponse:
        """ApplyMove: ``play``, answered as the caller sees the version made."""
        done = await self.play(
            game_id, token, expected_version, move, idempotency_key, caller=caller
        )
        gateway = self.gateway
        loaded, viewer, game = done.loaded, done.viewer, gateway.game_of(done.loaded)
        # Legal moves: for a replay, only while its version is still the current one.
        response = service_pb2.ApplyMoveResponse(version=done.version, replayed=done.replayed)
        response.events.extend(gateway.visible_events(game, done.entry.events, viewer))
        gateway.snapshot(
            loaded, done.state, done.version, viewer, done.clock, into=response.snapshot
        )
        if with_legal_moves and (not done.replayed or loaded.version == done.version):
            gateway.add_moves(response, loaded, done.state, viewer.seat)
        return response

    async def play(
        self,
        game_id: str,
        token: str,
        expected_version: int,
        move: game_pb2.Move,
        idempotency_key: str,
        *,
        caller: Caller = LOCAL,
        known: KnownGame | None = None,
    ) -> MoveDone:
        """Apply one move for the token's seat, exactly once per idempotency
        key: the version it made (or, for a retry, made before). ``known``: the
        game at ``expected_version`` as a play session's stream delivered it
        (``play_known``)."""
        await self.gateway.admit(caller, token=token)  # keys and quotas before any work
        self.check_request(move, idempotency_key)
        if known is not None and known.loaded.version == expected_version:
            with contextlib.suppress(AppError):  # decided again below, on the store's copy
                done = await self.play_known(known, token, move, idempotency_key)
                if done is not None:
                    return done
        admitted = await self.admit(game_id, token, move, idempotency_key, caller)
        if isinstance(admitted, MoveDone):  # a retry (Admitted is a tuple)
            return admitted
        loaded, viewer, seat, game, digest = admitted
        for attempt in range(MAX_COMMIT_ATTEMPTS):
            now_ms = self.gateway.now_ms()
            decision = self.decide(
                game,
                loaded,
                seat,
                move,
                digest=digest,
                expected_version=expected_version,
                now_ms=now_ms,
            )
            if decision is None:
                # The move came after the seat's deadline: the timeout is due
                # (whichever replica applies it first), the move is not taken.
                await self.timeouts.claim(game_id)
                raise precondition(
                    "TIME_EXPIRED",
                    f"seat {seat}'s time ran out at "
                    f"{_iso(loaded.clock.deadline_ms[seat] if loaded.clock else now_ms)}",
                )
            result = await self.commit(game, loaded, viewer, decision, idempotency_key)
            if not isinstance(result, Stale):
                if not result.replayed:
                    # The access log line of this call carries the version (no second line).
                    structlog.contextvars.bind_contextvars(version=result.version)
                return result
            # Another move was committed meanwhile. The seat's answer may
            # still stand (a simultaneous decision it shares): decide again on
            # the new state, with the same expected version.
            if expected_version == result.current_version or attempt + 1 == MAX_COMMIT_ATTEMPTS:
                self._count_stale(loaded)
                raise stale_version(expected_version, result.current_version)
            loaded = await self.gateway.load(game_id, idempotency_key=idempotency_key)
            if loaded.idempotent_version is not None:
                return await self.replay(loaded, viewer, loaded.idempotent_version, digest)
        raise AssertionError("unreachable: the last attempt returns or raises")

    # -- admission ---------------------------------------------------------------------

    def check_request(self, move: game_pb2.Move, idempotency_key: str) -> None:
        """The request's shape (after the caller's keys and quotas, before
        anything is loaded)."""
        limits.check_move(move, self.limits)
        if not 1 <= len(idempotency_key) <= MAX_IDEMPOTENCY_KEY:
            raise invalid(
                "MALFORMED_REQUEST",
                f"idempotency_key must have 1 to {MAX_IDEMPOTENCY_KEY} characters",
            )

    async def admit(
        self,
        game_id: str,
        token: str,
        move: game_pb2.Move,
        idempotency_key: str,
        caller: Caller,
    ) -> Admitted | MoveDone:
        """The game loaded for the token's seat, and the move's kind checked
        against it; a retried key's first result (``replay``) instead."""
        gateway = self.gateway
        loaded = await gateway.load(game_id, idempotency_key=idempotency_key)
        viewer = await gateway.authenticate(loaded, token, caller, required=True)
        seat = viewer.seat
        assert seat is not None
        digest = request_hash(seat, move)
        if loaded.idempotent_version is not None:
            return await self.replay(loaded, viewer, loaded.idempotent_version, digest)
        game = gateway.game_of(loaded)
        if len(loaded.seats) < loaded.meta.num_seats:
            raise precondition(
                "GAME_NOT_STARTED",
                f"{len(loaded.seats)} of {loaded.meta.num_seats} seats are taken; "
                "moves are accepted once every seat is taken",
            )
        given = move.WhichOneof("game")
        if given is None:
            raise invalid("INVALID_MOVE", "the move is empty: set the entry of this game")
        if given != game.name:
            raise invalid(
                "INVALID_MOVE", f"this game is {game.name!r}; a {given!r} move cannot apply"
            )
        return loaded, viewer, seat, game, digest

    # -- decision -----------------------------------------------------------------------

    def decide(
        self,
        game: ServiceGame,
        loaded: LoadedGame,
        seat: int,
        move: game_pb2.Move,
        *,
        digest: bytes,
        expected_version: int,
        now_ms: int,
    ) -> Decision | None:
        """The move on ``loaded``'s state at ``now_ms``, chosen at
        ``expected_version``: the state it makes and its record; a rules error
        or a stale version as the client's error; None when the seat's time
        ran out (the caller claims the timeout and refuses the move)."""
        self.check_version(game, loaded, seat, expected_version)
        if loaded.state.HasField("forfeit"):
            raise precondition("GAME_FINISHED", loaded.state.forfeit.summary)
        if seat in timeouts.late_seats(game, loaded, now_ms):
            return None
        try:
            new_state, events = game.apply(loaded.state, seat, move)
        except InvalidMoveError as exc:
            raise invalid(exc.reason, exc.message) from exc
        except IllegalMoveError as exc:
            raise precondition(exc.reason, exc.message) from exc
        except GameError as exc:  # any other rules error is still a precondition
            raise precondition(exc.reason, exc.message) from exc
        entry = record(loaded, seat, digest, move, events)
        clock = timeouts.clock_after(game, loaded, seat, new_state, now_ms)
        return new_state, entry, clock

    def check_version(
        self, game: ServiceGame, loaded: LoadedGame, seat: int, expected_version: int
    ) -> None:
        """The move was chosen at ``expected_version``: the current version, or,
        when the seat answers a simultaneous decision, any version since that
        decision opened for it (nothing it could see has changed since: the
        kit's decision clock, docs/api.md)."""
        current = loaded.version
        if expected_version == current:
            return
        if expected_version > current or expected_version < game.earliest_version(
            loaded.state, seat, current
        ):
            self._count_stale(loaded)
            raise stale_version(expected_version, current)

    # -- commit ---------------------------------------------------------------------------

    async def commit(
        self,
        game: ServiceGame,
        loaded: LoadedGame,
        viewer: Viewer,
        decision: Decision,
        idempotency_key: str,
    ) -> MoveDone | Stale:
        """The decided move committed (the one commit step, ``commit.py``):
        done, or found done before under its key (``replay``), or Stale (the
        game's version moved on: decide again or give up)."""
        state, entry, clock = decision
        result = await self.committer.commit(
            game, loaded, state, entry, idempotency_key=idempotency_key, clock=clock
        )
        if isinstance(result, Committed):
            if self.metrics is not None:
                self.metrics.moves.labels(loaded.meta.game_type).inc()
            return MoveDone(loaded, viewer, result.version, state, entry, clock, False)
        if isinstance(result, Duplicate):
            return await self.replay(loaded, viewer, result.version, entry.request_sha256)
        return result

    async def replay(
        self, loaded: LoadedGame, viewer: Viewer, version: int, digest: bytes
    ) -> MoveDone:
        """The first result of a retried key (the record of ``version``), if
        it was made by the same move."""
        if self.metrics is not None:
            self.metrics.replays.labels(loaded.meta.game_type).inc()
        gateway = self.gateway
        held = (loaded.version, loaded.state)
        entries = await gateway.guard(
            self.history.entries(loaded.game_id, version - 1, 1, meta=loaded.meta, held=held)
        )
        if not entries or entries[0].version != version:
            raise AppError(
                ErrorKind.UNAVAILABLE,
                "STORE_UNAVAILABLE",
                f"the record of version {version} could not be read; retry",
            )
        entry = entries[0]
        if not same_request(entry.request_sha256, digest):
            raise invalid(
                "IDEMPOTENCY_KEY_REUSED",
                f"this idempotency key was used for a different move (version {version})",
            )
        # Told "done" only once replicated, as the first answer was (commit).
        await gateway.guard(gateway.store.confirm_replicated())
        structlog.contextvars.bind_contextvars(version=version, replayed=True)
        clock = entry.clock if entry.HasField("clock") else None
        return MoveDone(loaded, viewer, version, entry.state, entry, clock, True)

    # -- a play session's fast path -------------------------------------------------------

    async def play_known(
        self, session: KnownGame, token: str, move: game_pb2.Move, idempotency_key: str
    ) -> MoveDone | None:
        """A play session's fast path: the move decided on the state its stream
        delivered at ``known.version`` (no load), committed by the same
        compare-and-set, which refuses it unless that version is still the
        current one and the key unused: a stale copy can never be served.
        The token was checked when the stream opened (a different one is
        checked now). None (or an AppError): decide on the store's copy
        instead, which also tells a retried key and every precise error."""
        known = session.loaded
        meta = known.meta
        if meta.HasField("time_control") or len(known.seats) < meta.num_seats:
            return None
        viewer = (
            session.viewer
            if token == session.token
            else self.gateway.check_token(known, token, required=True)
        )
        seat = viewer.seat
        game = self.gateway.game_of(known)
        if seat is None or move.WhichOneof("game") != game.name:
            return None
        if known.state.HasField("forfeit"):
            return None
        try:
            new_state, events = game.apply(known.state, seat, move)
        except GameError:
            return None
        entry = record(known, seat, request_hash(seat, move), move, events)
        result = await self.commit(game, known, viewer, (new_state, entry, None), idempotency_key)
        return None if isinstance(result, Stale) else result

    def _count_stale(self, loaded: LoadedGame) -> None:
        if self.metrics is not None:
            self.metrics.stale.labels(loaded.meta.game_type).inc()


def _iso(unix_ms: int) -> str:
    return datetime.datetime.fromtimestamp(unix_ms / 1000, datetime.UTC).isoformat(
        timespec="milliseconds"
    )
