"""Use cases shared by every transport: create, join, view, move, watch, history.

The app layer is stateless: each request loads the game from the store,
works on it with the game's pure engine and commits with one atomic
compare-and-set. Transports (gRPC now, others later) only translate.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime
import hashlib
import secrets
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TypeVar

import structlog
from throneroom.v1 import common_pb2, game_pb2, service_pb2, storage_pb2

from throneroom_server.app import clocks, limits, records, timeouts, tokens
from throneroom_server.app.access import LOCAL, Access, Caller
from throneroom_server.app.describe import Describer, check_language, describer
from throneroom_server.app.errors import (
    AppError,
    ErrorKind,
    game_not_found,
    invalid,
    precondition,
    stale_version,
    store_full,
    store_unavailable,
)
from throneroom_server.app.limits import Limits
from throneroom_server.app.lobby import Lobby
from throneroom_server.app.metrics import Metrics
from throneroom_server.app.snapshots import Snapshots
from throneroom_server.app.timeouts import Timeouts
from throneroom_server.app.watch import WatchHub, WatchLimits
from throneroom_server.games.core import (
    GameError,
    IllegalMoveError,
    InvalidMoveError,
    InvalidOptionsError,
)
from throneroom_server.games.kit.service import ServiceGame
from throneroom_server.store import (
    Committed,
    Duplicate,
    GameFull,
    LoadedGame,
    SeatTaken,
    Stale,
    Store,
    StoreError,
    StoreFull,
    StoreGameNotFound,
    StoreUnavailable,
)

log = structlog.get_logger("throneroom.app")

T = TypeVar("T")

MAX_IDEMPOTENCY_KEY = 128
DEFAULT_PAGE = 100
MAX_PAGE = 1000
MAX_COMMIT_ATTEMPTS = 16
"""Commits tried for one move whose version moved on meanwhile (simultaneous
answers racing each other); after that, ABORTED."""


@dataclass(frozen=True)
class Viewer:
    """Who is asking: a seat proven by its token, or a spectator (seat None)."""

    seat: int | None


@dataclass(frozen=True)
class AppConfig:
    heartbeat_seconds: float = 15.0
    max_heartbeat_seconds: float = 300.0
    watch: WatchLimits = field(default_factory=WatchLimits)
    limits: Limits = field(default_factory=Limits)


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


def request_hash(seat: int, move: game_pb2.Move) -> bytes:
    """What a move's record keeps to recognise a retry of it (its seat and move)."""
    return hashlib.sha256(
        seat.to_bytes(2, "big") + move.SerializeToString(deterministic=True)
    ).digest()


class App:
    def __init__(
        self,
        store: Store,
        games: Mapping[str, ServiceGame],
        *,
        config: AppConfig | None = None,
        clock: Callable[[], float] = time.time,
        access: Access | None = None,
        metrics: Metrics | None = None,
    ) -> None:
        self.store = store
        self.games = dict(games)
        self.config = config or AppConfig()
        self.access = access or Access(store)
        self.watch_hub = WatchHub(store, self.config.watch)
        self.metrics = metrics
        if metrics is not None:
            hub = self.watch_hub
            metrics.count_open_streams(lambda: hub.open_streams)
        self._clock = clock
        self._closing = asyncio.Event()
        self.lobby = Lobby(store, self.games, self._admit, self._store)
        self.snapshots = Snapshots()
        self.timeouts = Timeouts(
            store,
            load=self._load,
            game_of=self._game_of,
            guard=self._store,
            now_ms=self._now_ms,
            metrics=metrics,
        )

    # -- lifecycle --------------------------------------------------------

    def begin_shutdown(self) -> None:
        """Ask open watch streams to end cleanly."""
        self._closing.set()

    @property
    def closing(self) -> bool:
        return self._closing.is_set()

    # -- catalogue ----------------------------------------------------------

    def list_game_types(self) -> list[service_pb2.GameType]:
        return [game.game_type() for _, game in sorted(self.games.items())]

    # -- create and join ------------------------------------------------------

    async def create_game(
        self,
        options: game_pb2.GameOptions,
        num_seats: int,
        seed: int | None,
        *,
        time_control: common_pb2.TimeControl | None = None,
        caller: Caller = LOCAL,
    ) -> tuple[str, int]:
        await self._admit(caller, creating=True)
        if time_control is not None:
            try:
                clocks.validate(time_control)
            except clocks.TimeControlError as exc:
                raise invalid("INVALID_TIME_CONTROL", str(exc)) from exc
        limits.check_options(options, self.config.limits)
        name = options.WhichOneof("game")
        if name is None:
            raise invalid("MALFORMED_REQUEST", "options must name a game type (set one entry)")
        game = self.games.get(name)
        if game is None:
            raise invalid("UNKNOWN_GAME_TYPE", f"this server does not play {name!r}")
        try:
            game.validate_options(options, num_seats)
        except InvalidOptionsError as exc:
            raise invalid(exc.reason, exc.message) from exc
        seed = secrets.randbits(64) if seed is None else seed
        envelope = game.setup(options, num_seats, seed)
        meta = storage_pb2.StoredGameMeta(
            game_type=name,
            options=options,
            num_seats=num_seats,
            seed=seed,
            created_unix_ms=self._now_ms(),
            time_control=time_control,
        )
        game_id = secrets.token_hex(8)
        await self._store(self.store.create_game(game_id, meta, envelope))
        log.info("game_created", game_id=game_id, game_type=name, seats=num_seats)
        return game_id, 0

    async def join_game(
        self, game_id: str, seat: int | None, display_name: str, *, caller: Caller = LOCAL
    ) -> tuple[int, str]:
        await self._admit(caller, joining=True)
        limits.check_display_name(display_name, self.config.limits)
        loaded = await self._load(game_id)
        num_seats = loaded.meta.num_seats
        if seat is not None and not 0 <= seat < num_seats:
            raise invalid(
                "MALFORMED_REQUEST", f"seat {seat} does not exist in a {num_seats}-seat game"
            )
        secret = tokens.new_secret()
        record = storage_pb2.StoredSeat(
            display_name=display_name, token_sha256=tokens.secret_hash(secret)
        )
        clock = None
        if loaded.meta.HasField("time_control") and len(loaded.seats) == num_seats - 1:
            # This join may take the last seat: the clocks start with the game.
            game = self._game_of(loaded)
            clock = clocks.start(
                loaded.meta.time_control, num_seats, game.to_act(loaded.state), self._now_ms()
            )
            await self.timeouts.note_deadline(game_id, clock)
        try:
            claimed = await self._store(
                self.store.claim_seat(game_id, seat, num_seats, record, clock_if_full=clock)
            )
        except SeatTaken as exc:
            raise precondition("SEAT_TAKEN", f"seat {seat} is taken") from exc
        except GameFull as exc:
            raise precondition("GAME_FULL", f"all {num_seats} seats are taken") from exc
        structlog.contextvars.bind_contextvars(seat=claimed)
        log.info("seat_joined", game_id=game_id, seat=claimed)
        return claimed, tokens.make_token(claimed, secret)

    # -- reading ---------------------------------------------------------------

    async def get_game(
        self, game_id: str, token: str, *, caller: Caller = LOCAL
    ) -> service_pb2.GameSnapshot:
        await self._admit(caller, token=token)
        loaded = await self._load(game_id)
        viewer = await self._authenticate(loaded, token, caller, required=False)
        return self._snapshot(loaded, loaded.state, loaded.version, viewer, loaded.clock)

    async def _read_for(
        self, game_id: str, token: str, caller: Caller, describe_language: str
    ) -> tuple[LoadedGame, Viewer, ServiceGame, Describer | None]:
        """The game as ``token``'s seat (or a spectator, without one) may read
        it, its rules, and the sentences of ``describe_language`` ("" for none):
        what the history and the watch streams start from."""
        lang = check_language(describe_language)
        await self._admit(caller, token=token)
        loaded = await self._load(game_id)
        viewer = await self._authenticate(loaded, token, caller, required=False)
        game = self._game_of(loaded)
        return loaded, viewer, game, describer(game, lang)

    async def legal_moves(
        self, game_id: str, token: str, *, caller: Caller = LOCAL
    ) -> tuple[int, int, list[game_pb2.Move]]:
        await self._admit(caller, token=token)
        loaded = await self._load(game_id)
        viewer = await self._authenticate(loaded, token, caller, required=True)
        assert viewer.seat is not None
        return loaded.version, viewer.seat, self._moves_of(loaded, loaded.state, viewer.seat)

    def _add_moves(
        self,
        message: service_pb2.GameUpdate | service_pb2.ApplyMoveResponse,
        loaded: LoadedGame,
        state: game_pb2.GameState,
        seat: int | None,
    ) -> None:
        """Add ``_moves_of`` to the message's ``legal_moves``, merged from their
        serialized form (no envelope built and copied per move). The message's
        snapshot is built: a seat not in its ``to_act`` has none (every game's
        law, conformance check 4), so it is not asked."""
        if seat is None or len(loaded.seats) < loaded.meta.num_seats:
            return
        if seat not in message.snapshot.to_act:  # empty when lost on time (forfeit)
            return
        number = _LEGAL_MOVES_FIELD[type(message)]
        message.MergeFromString(self._game_of(loaded).encoded_legal_moves(state, seat, number))

    def _moves_of(
        self, loaded: LoadedGame, state: game_pb2.GameState, seat: int | None
    ) -> list[game_pb2.Move]:
        """The seat's legal moves in ``state`` (none before every seat is taken)."""
        if seat is None or len(loaded.seats) < loaded.meta.num_seats:
            return []
        if state.HasField("forfeit"):  # lost on time: nobody acts
            return []
        return self._game_of(loaded).legal_moves(state, seat)  # empty when not asked

    # -- moving --------------------------------------------------------------------

    async def apply_move(
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
        done = await self.play_move(
            game_id, token, expected_version, move, idempotency_key, caller=caller
        )
        loaded, viewer, game = done.loaded, done.viewer, self._game_of(done.loaded)
        # Legal moves: for a replay, only while its version is still the current one.
        response = service_pb2.ApplyMoveResponse(version=done.version, replayed=done.replayed)
        response.events.extend(self._visible_events(game, done.entry.events, viewer))
        self._snapshot(loaded, done.state, done.version, viewer, done.clock, into=response.snapshot)
        if with_legal_moves and (not done.replayed or loaded.version == done.version):
            self._add_moves(response, loaded, done.state, viewer.seat)
        return response

    async def play_move(
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
        (``_play_known``)."""
        await self._admit(caller, token=token)
        limits.check_move(move, self.config.limits)
        if not 1 <= len(idempotency_key) <= MAX_IDEMPOTENCY_KEY:
            raise invalid(
                "MALFORMED_REQUEST",
                f"idempotency_key must have 1 to {MAX_IDEMPOTENCY_KEY} characters",
            )
        if known is not None and known.loaded.version == expected_version:
            with contextlib.suppress(AppError):  # decided again below, on the store's copy
                done = await self._play_known(known, token, move, idempotency_key)
                if done is not None:
                    return done
        loaded = await self._load(game_id, idempotency_key=idempotency_key)
        viewer = await self._authenticate(loaded, token, caller, required=True)
        seat = viewer.seat
        assert seat is not None
        digest = request_hash(seat, move)
        if loaded.idempotent_version is not None:
            return await self._replay(loaded, viewer, loaded.idempotent_version, digest)
        game = self._game_of(loaded)
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
        for attempt in range(MAX_COMMIT_ATTEMPTS):
            self._check_version(game, loaded, seat, expected_version)
            if loaded.state.HasField("forfeit"):
                raise precondition("GAME_FINISHED", loaded.state.forfeit.summary)
            now_ms = self._now_ms()
            if seat in timeouts.late_seats(game, loaded, now_ms):
                # The move came after the seat's deadline: the timeout is due
                # (whichever replica applies it first), the move is not taken.
                await self.claim_timeouts(game_id)
                raise precondition(
                    "TIME_EXPIRED",
                    f"seat {seat}'s time ran out at "
                    f"{_iso(loaded.clock.deadline_ms[seat] if loaded.clock else now_ms)}",
                )
            try:
                new_state, events = game.apply(loaded.state, seat, move)
            except InvalidMoveError as exc:
                raise invalid(exc.reason, exc.message) from exc
            except IllegalMoveError as exc:
                raise precondition(exc.reason, exc.message) from exc
            except GameError as exc:  # any other rules error is still a precondition
                raise precondition(exc.reason, exc.message) from exc
            entry = storage_pb2.StoredEntry(
                version=loaded.version + 1, seat=seat, request_sha256=digest
            )
            entry.move.CopyFrom(move)  # (as a keyword: serialized and parsed again)
            entry.events.extend(events)
            clock = timeouts.clock_after(game, loaded, seat, new_state, now_ms)
            if clock is not None:
                entry.clock.CopyFrom(clock)
                await self.timeouts.note_deadline(game_id, clock)
            result = await self._store(
                self.store.commit(
                    game_id,
                    loaded.version,
                    new_state,
                    entry,
                    idempotency_key,
                    finished=_outcome(game, new_state) is not None,
                    clock=clock,
                )
            )
            if isinstance(result, Duplicate):
                return await self._replay(loaded, viewer, result.version, digest)
            if isinstance(result, Committed):
                # This replica's watchers get the entry now, unparsed (watch.py).
                self.watch_hub.publish(game_id, entry, new_state)
                # The access log line of this call carries the version (no second line).
                structlog.contextvars.bind_contextvars(version=result.version)
                if self.metrics is not None:
                    self.metrics.moves.labels(loaded.meta.game_type).inc()
                return MoveDone(loaded, viewer, result.version, new_state, entry, clock, False)
            assert isinstance(result, Stale)
            # Another move was committed meanwhile. The seat's answer may
            # still stand (a simultaneous decision it shares): decide again on
            # the new state, with the same expected version.
            if expected_version == result.current_version or attempt + 1 == MAX_COMMIT_ATTEMPTS:
                if self.metrics is not None:
                    self.metrics.stale.labels(loaded.meta.game_type).inc()
                raise stale_version(expected_version, result.current_version)
            loaded = await self._load(game_id, idempotency_key=idempotency_key)
            if loaded.idempotent_version is not None:
                return await self._replay(loaded, viewer, loaded.idempotent_version, digest)
        raise AssertionError("unreachable: the last attempt returns or raises")

    async def _play_known(
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
            else self._check_token(known, token, required=True)
        )
        seat = viewer.seat
        game = self._game_of(known)
        if seat is None or move.WhichOneof("game") != game.name:
            return None
        if known.state.HasField("forfeit"):
            return None
        try:
            new_state, events = game.apply(known.state, seat, move)
        except GameError:
            return None
        digest = request_hash(seat, move)
        entry = storage_pb2.StoredEntry(version=known.version + 1, seat=seat, request_sha256=digest)
        entry.move.CopyFrom(move)  # (as a keyword: serialized and parsed again)
        entry.events.extend(events)
        result = await self._store(
            self.store.commit(
                known.game_id,
                known.version,
                new_state,
                entry,
                idempotency_key,
                finished=_outcome(game, new_state) is not None,
            )
        )
        if isinstance(result, Committed):
            self.watch_hub.publish(known.game_id, entry, new_state)
            if self.metrics is not None:
                self.metrics.moves.labels(meta.game_type).inc()
            return MoveDone(known, viewer, result.version, new_state, entry, None, False)
        if isinstance(result, Duplicate):
            return await self._replay(known, viewer, result.version, digest)
        return None

    # -- clocks and timeouts (timeouts.py) ---------------------------------------------

    def _now_ms(self) -> int:
        return int(self._clock() * 1000)

    async def claim_timeouts(self, game_id: str) -> int:
        """Apply every timeout of the game that is due now (``Timeouts.claim``)."""
        return await self.timeouts.claim(game_id)

    async def sweep_timeouts(self, limit: int = 100) -> int:
        """One pass of this replica's sweeper (``Timeouts.sweep``)."""
        return await self.timeouts.sweep(limit)

    async def run_sweeper(self, interval_seconds: float) -> None:
        """Sweep every ``interval_seconds`` until shutdown (``Timeouts.run``)."""
        await self.timeouts.run(interval_seconds, self.lobby, self._closing)

    def _check_version(
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
            if self.metrics is not None:
                self.metrics.stale.labels(loaded.meta.game_type).inc()
            raise stale_version(expected_version, current)

    async def _replay(
        self, loaded: LoadedGame, viewer: Viewer, version: int, digest: bytes
    ) -> MoveDone:
        if self.metrics is not None:
            self.metrics.replays.labels(loaded.meta.game_type).inc()
        entries = await self._store(self.store.read_entries(loaded.game_id, version - 1, 1))
        if not entries or entries[0].version != version:
            raise AppError(
                ErrorKind.UNAVAILABLE,
                "STORE_UNAVAILABLE",
                f"the record of version {version} could not be read; retry",
            )
        entry = entries[0]
        if entry.request_sha256 != digest:
            raise invalid(
                "IDEMPOTENCY_KEY_REUSED",
                f"this idempotency key was used for a different move (version {version})",
            )
        structlog.contextvars.bind_contextvars(version=version, replayed=True)
        return MoveDone(loaded, viewer, version, entry.state, entry, _clock_of(entry), True)

    # -- watching and history -----------------------------------------------------------

    async def history(
        self,
        game_id: str,
        token: str,
        from_version: int,
        page_size: int,
        *,
        describe_language: str = "",
        caller: Caller = LOCAL,
    ) -> service_pb2.GetHistoryResponse:
        loaded, viewer, game, words = await self._read_for(
            game_id, token, caller, describe_language
        )
        size = min(page_size or DEFAULT_PAGE, MAX_PAGE)
        entries = await self._store(self.store.read_entries(game_id, from_version, size))
        response = service_pb2.GetHistoryResponse(current_version=loaded.version)
        for entry in entries:
            added = response.entries.add(
                version=entry.version,
                seat=entry.seat,
                events=self._visible_events(game, entry.events, viewer),
                timeout=entry.timeout,
            )
            if words is not None:
                words.annotate_entry(added, entry, viewer.seat)
        if entries and entries[-1].version < loaded.version:
            response.next_from_version = entries[-1].version
        return response

    async def export_game(self, game_id: str, *, caller: Caller = LOCAL) -> service_pb2.GameRecord:
        """A finished game's full record (records.py); FAILED_PRECONDITION
        ``GAME_NOT_FINISHED`` before the end (it would reveal every secret)."""
        await self._admit(caller)
        loaded = await self._load(game_id)
        outcome = _outcome(self._game_of(loaded), loaded.state)
        if outcome is None:
            raise precondition(
                "GAME_NOT_FINISHED",
                "a game's record (every hand, the seed) is exported only once it is over",
            )
        entries: list[storage_pb2.StoredEntry] = []
        while len(entries) < loaded.version:
            page = await self._store(self.store.read_entries(game_id, len(entries), MAX_PAGE))
            if not page or page[0].version != len(entries) + 1:
                raise _store_error(StoreUnavailable("the game's history is incomplete"))
            entries.extend(page)
        return records.build_record(game_id, loaded, entries[: loaded.version], outcome)

    # -- helpers -----------------------------------------------------------------

    async def _load(self, game_id: str, *, idempotency_key: str = "") -> LoadedGame:
        _check_game_id(game_id)
        try:
            loaded: LoadedGame = await self._store(
                self.store.load(game_id, idempotency_key=idempotency_key)
            )
            return loaded
        except StoreGameNotFound as exc:
            raise game_not_found(game_id) from exc

    async def _store(self, awaitable: Awaitable[T]) -> T:
        try:
            return await awaitable
        except (StoreUnavailable, StoreFull, StoreGameNotFound) as exc:
            raise _store_error(exc) from exc

    async def _admit(
        self, caller: Caller, *, token: str = "", creating: bool = False, joining: bool = False
    ) -> None:
        """Keys and quotas (access.py) before any work; a throttled client's
        seat tokens are refused before they are even checked."""
        if token:
            self.access.check_not_throttled(caller)
        await self._store(self.access.admit(caller, creating=creating, joining=joining))

    async def _authenticate(
        self, loaded: LoadedGame, token: str, caller: Caller, *, required: bool
    ) -> Viewer:
        try:
            return self._check_token(loaded, token, required=required)
        except AppError as error:
            if error.kind is ErrorKind.PERMISSION_DENIED:
                await self._store(self.access.token_failed(caller))
            raise

    def _check_token(self, loaded: LoadedGame, token: str, *, required: bool) -> Viewer:
        if not token:
            if required:
                raise AppError(
                    ErrorKind.UNAUTHENTICATED,
                    "SEAT_TOKEN_REQUIRED",
                    "this call needs the seat token returned by JoinGame",
                )
            return Viewer(seat=None)
        parsed = tokens.parse_token(token)
        record = loaded.seats.get(parsed[0]) if parsed else None
        if parsed is None or record is None or not tokens.matches(parsed[1], record.token_sha256):
            raise AppError(
                ErrorKind.PERMISSION_DENIED,
                "SEAT_TOKEN_INVALID",
                "the seat token is not valid for this game",
            )
        structlog.contextvars.bind_contextvars(seat=parsed[0])
        return Viewer(seat=parsed[0])

    def _game_of(self, loaded: LoadedGame) -> ServiceGame:
        name = loaded.meta.game_type
        game = self.games.get(name)
        if game is None:
            raise precondition("UNKNOWN_GAME_TYPE", f"this server no longer plays {name!r}")
        return game

    def _snapshot(
        self,
        loaded: LoadedGame,
        state: game_pb2.GameState,
        version: int,
        viewer: Viewer,
        clock: storage_pb2.StoredClock | None = None,
        *,
        into: service_pb2.GameSnapshot | None = None,
    ) -> service_pb2.GameSnapshot:
        """The snapshot of ``state`` at ``version`` as ``viewer`` sees it, with
        ``clock`` (the clocks at that version) for games with a time control;
        written ``into`` a snapshot inside a message being built (an empty one:
        no copy of it into its parent), else a new one (snapshots.py)."""
        snapshot = service_pb2.GameSnapshot() if into is None else into
        game = self._game_of(loaded)
        self.snapshots.build(
            game, loaded, state, version, seat=viewer.seat, clock=clock, into=snapshot
        )
        return snapshot

    @staticmethod
    def _visible_events(
        game: ServiceGame, events: Sequence[game_pb2.Event], viewer: Viewer
    ) -> list[game_pb2.Event]:
        return game.redact_events(events, viewer.seat)


_outcome = records.outcome_of

_LEGAL_MOVES_FIELD = {
    cls: cls.DESCRIPTOR.fields_by_name["legal_moves"].number
    for cls in (service_pb2.GameUpdate, service_pb2.ApplyMoveResponse)
}
"""The field number of ``legal_moves`` in the messages ``_add_moves`` adds to."""


def _clock_of(entry: storage_pb2.StoredEntry) -> storage_pb2.StoredClock | None:
    return entry.clock if entry.HasField("clock") else None


def _iso(unix_ms: int) -> str:
    return datetime.datetime.fromtimestamp(unix_ms / 1000, datetime.UTC).isoformat(
        timespec="milliseconds"
    )


def _store_error(exc: StoreError) -> AppError:
    """The client's error for a store error (details go to the log only)."""
    if isinstance(exc, StoreFull):
        log.warning("store_full", error=str(exc))
        return store_full()
    if isinstance(exc, StoreGameNotFound):
        return game_not_found(str(exc))
    return store_unavailable(str(exc))


def _check_game_id(game_id: str) -> None:
    limits.check_game_id(game_id)
