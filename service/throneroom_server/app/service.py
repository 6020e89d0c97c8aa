"""Use cases shared by every transport: create, join, view, move, watch, history.

The app layer is stateless: each request loads the game from the store,
works on it with the game's pure engine and commits with one atomic
compare-and-set. Transports only translate. ``App`` is their entry point;
the plumbing its use cases share is ``gateway.py``, moves are ``moves.py``,
the commit step ``commit.py``, streams ``updates.py``, clocks ``timeouts.py``.
"""

from __future__ import annotations

import asyncio
import secrets
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

import structlog
from google.protobuf.message import DecodeError
from throneroom.v1 import common_pb2, game_pb2, service_pb2, storage_pb2

from throneroom_server.app import clocks, limits, record_views, records, tokens
from throneroom_server.app.access import LOCAL, Access, Caller
from throneroom_server.app.commit import Committer
from throneroom_server.app.errors import invalid, precondition
from throneroom_server.app.gateway import Gateway, Viewer, store_error
from throneroom_server.app.history import History
from throneroom_server.app.limits import Limits
from throneroom_server.app.lobby import Lobby
from throneroom_server.app.metrics import Metrics
from throneroom_server.app.moves import KnownGame, MoveDone, Moves
from throneroom_server.app.snapshots import Snapshots
from throneroom_server.app.timeouts import Timeouts
from throneroom_server.app.watch import WatchHub, WatchLimits
from throneroom_server.games.core import InvalidOptionsError
from throneroom_server.games.kit.service import ServiceGame
from throneroom_server.store import GameFull, SeatTaken, Store, StoreUnavailable

__all__ = ["App", "AppConfig", "KnownGame", "MoveDone", "Viewer"]


log = structlog.get_logger("throneroom.app")

DEFAULT_PAGE = 100
MAX_PAGE = 1000


@dataclass(frozen=True)
class AppConfig:
    heartbeat_seconds: float = 15.0
    max_heartbeat_seconds: float = 300.0
    watch: WatchLimits = field(default_factory=WatchLimits)
    limits: Limits = field(default_factory=Limits)


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
        self.states = History(store, self.games)
        """Entries with the state after each (the store keeps checkpoints)."""
        self.watch_hub = WatchHub(store, self.config.watch, self.states)
        self.metrics = metrics
        if metrics is not None:
            hub = self.watch_hub
            metrics.count_open_streams(lambda: hub.open_streams)
            metrics.count_watched_games(lambda: hub.feeds)
        self.shutdown = asyncio.Event()
        """Set when the server begins to shut down (``begin_shutdown``)."""
        self.draining = False
        """True from SIGTERM on (``begin_drain``): health says NOT_SERVING."""
        self.snapshots = Snapshots()
        self.gateway = Gateway(store, self.games, self.access, self.snapshots, clock)
        gateway = self.gateway
        self.lobby = Lobby(store, self.games, gateway.admit, gateway.guard)
        self.committer = Committer(store, gateway, self.watch_hub)
        self.timeouts = Timeouts(store, gateway, self.committer, metrics=metrics)
        self.moves = Moves(
            gateway, self.committer, self.timeouts, self.config.limits, metrics, history=self.states
        )
        # Moving (moves.py), the moves' own methods (no call in between: the hot path).
        self.apply_move = self.moves.apply
        """ApplyMove: one move, answered as the caller sees the version it made."""
        self.play_move = self.moves.play
        """One move, exactly once per idempotency key (a play session's and ApplyMove's)."""

    # -- lifecycle --------------------------------------------------------

    def begin_drain(self) -> None:
        """Tell load balancers this replica is going away (REST /healthz: 503)
        while every call, new ones included, is still served."""
        self.draining = True

    def begin_shutdown(self) -> None:
        """Ask open watch streams to end (with ``errors.shutting_down``)."""
        self.draining = True
        self.shutdown.set()

    @property
    def closing(self) -> bool:
        return self.shutdown.is_set()

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
        gateway = self.gateway
        await gateway.admit(caller, creating=True)
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
            created_unix_ms=gateway.now_ms(),
            time_control=time_control,
        )
        game_id = secrets.token_hex(8)
        await gateway.guard(self.store.create_game(game_id, meta, envelope))
        log.info("game_created", game_id=game_id, game_type=name, seats=num_seats)
        return game_id, 0

    async def join_game(
        self, game_id: str, seat: int | None, display_name: str, *, caller: Caller = LOCAL
    ) -> tuple[int, str]:
        gateway = self.gateway
        await gateway.admit(caller, joining=True)
        limits.check_display_name(display_name, self.config.limits)
        loaded = await gateway.load(game_id)
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
            game = gateway.game_of(loaded)
            clock = clocks.start(
                loaded.meta.time_control, num_seats, game.to_act(loaded.state), gateway.now_ms()
            )
            await self.committer.note_deadline(game_id, clock)
        try:
            claimed = await gateway.guard(
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
        gateway = self.gateway
        await gateway.admit(caller, token=token)
        loaded = await gateway.load(game_id)
        viewer = await gateway.authenticate(loaded, token, caller, required=False)
        return gateway.snapshot(loaded, loaded.state, loaded.version, viewer, loaded.clock)

    async def legal_moves(
        self, game_id: str, token: str, *, caller: Caller = LOCAL
    ) -> tuple[int, int, list[game_pb2.Move]]:
        gateway = self.gateway
        await gateway.admit(caller, token=token)
        loaded = await gateway.load(game_id)
        viewer = await gateway.authenticate(loaded, token, caller, required=True)
        assert viewer.seat is not None
        return loaded.version, viewer.seat, gateway.moves_of(loaded, loaded.state, viewer.seat)

    # -- clocks and timeouts (timeouts.py) ---------------------------------------------

    async def claim_timeouts(self, game_id: str) -> int:
        """Apply every timeout of the game that is due now (``Timeouts.claim``)."""
        return await self.timeouts.claim(game_id)

    async def sweep_timeouts(self, limit: int = 100) -> int:
        """One pass of this replica's sweeper (``Timeouts.sweep``)."""
        return await self.timeouts.sweep(limit)

    async def run_sweeper(self, interval_seconds: float) -> None:
        """Sweep every ``interval_seconds`` until shutdown (``Timeouts.run``)."""
        await self.timeouts.run(interval_seconds, self.lobby, self.shutdown)

    # -- history and records -----------------------------------------------------------

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
        gateway = self.gateway
        loaded, viewer, game, words = await gateway.read_for(
            game_id, token, caller, describe_language
        )
        size = min(page_size or DEFAULT_PAGE, MAX_PAGE)
        entries = await gateway.guard(self.store.read_entries(game_id, from_version, size))
        response = service_pb2.GetHistoryResponse(current_version=loaded.version)
        for entry in entries:
            added = response.entries.add(
                version=entry.version,
                seat=entry.seat,
                events=gateway.visible_events(game, entry.events, viewer),
                timeout=entry.timeout,
            )
            if words is not None:
                words.annotate_entry(added, entry, viewer.seat)
        if entries and entries[-1].version < loaded.version:
            response.next_from_version = entries[-1].version
        return response

    async def replay_record(
        self,
        request: service_pb2.ReplayRecordRequest,
        *,
        caller: Caller = LOCAL,
    ) -> service_pb2.ReplayRecordResponse:
        """A record's versions as a seat or a spectator sees them
        (record_views.py); INVALID_ARGUMENT ``RECORD_MISMATCH`` for a record
        that does not replay. The replay runs in a worker thread: a long
        record does not hold the event loop."""
        await self.gateway.admit(caller)
        record = request.record
        if request.record_data:
            if request.HasField("record"):
                raise invalid("MALFORMED_REQUEST", "send record or record_data, not both")
            record = service_pb2.GameRecord()
            try:
                record.ParseFromString(request.record_data)
            except DecodeError as exc:
                raise invalid("RECORD_MISMATCH", "record_data is not a serialized record") from exc
        words = record_views.describer_for(self.games, record, request.describe_language)
        viewer = request.viewer_seat if request.HasField("viewer_seat") else None
        if viewer is not None and not 0 <= viewer < record.num_seats:
            raise invalid("BAD_SEAT", f"viewer_seat {viewer} is not a seat of this record")
        size = min(request.page_size or DEFAULT_PAGE, MAX_PAGE)
        try:
            return await asyncio.to_thread(
                record_views.replay_page,
                record,
                self.games,
                from_version=request.from_version,
                size=size,
                viewer=viewer,
                words=words,
            )
        except records.RecordMismatch as exc:
            raise invalid("RECORD_MISMATCH", f"the record does not replay: {exc}") from exc

    async def export_game(self, game_id: str, *, caller: Caller = LOCAL) -> service_pb2.GameRecord:
        """A finished game's full record (records.py); FAILED_PRECONDITION
        ``GAME_NOT_FINISHED`` before the end (it would reveal every secret)."""
        gateway = self.gateway
        await gateway.admit(caller)
        loaded = await gateway.load(game_id)
        outcome = records.outcome_of(gateway.game_of(loaded), loaded.state)
        if outcome is None:
            raise precondition(
                "GAME_NOT_FINISHED",
                "a game's record (every hand, the seed) is exported only once it is over",
            )
        entries: list[storage_pb2.StoredEntry] = []
        while len(entries) < loaded.version:
            page = await gateway.guard(self.store.read_entries(game_id, len(entries), MAX_PAGE))
            if not page or page[0].version != len(entries) + 1:
                raise store_error(StoreUnavailable("the game's history is incomplete"))
            entries.extend(page)
        return records.build_record(game_id, loaded, entries[: loaded.version], outcome)
