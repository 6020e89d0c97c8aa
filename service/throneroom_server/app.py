"""Use cases shared by every transport: create, join, view, move, watch, history.

The app layer is stateless: each request loads the game from the store,
works on it with the game's pure engine and commits with one atomic
compare-and-set. Transports (gRPC now, others later) only translate.
"""

from __future__ import annotations

import asyncio
import hashlib
import secrets
import time
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import structlog
from throneroom.v1 import game_pb2, service_pb2, storage_pb2

from throneroom_server import limits, tokens
from throneroom_server.errors import (
    AppError,
    ErrorKind,
    game_not_found,
    invalid,
    precondition,
    stale_version,
    store_unavailable,
)
from throneroom_server.games.core import (
    GameError,
    IllegalMoveError,
    InvalidMoveError,
    InvalidOptionsError,
)
from throneroom_server.games.registry import AnyGame
from throneroom_server.limits import Limits
from throneroom_server.store import (
    Committed,
    Duplicate,
    GameFull,
    LoadedGame,
    SeatTaken,
    Stale,
    Store,
    StoreGameNotFound,
    StoreUnavailable,
)

log = structlog.get_logger("throneroom.app")

MAX_IDEMPOTENCY_KEY = 128
DEFAULT_PAGE = 100
MAX_PAGE = 1000


@dataclass(frozen=True)
class Viewer:
    """Who is asking: a seat proven by its token, or a spectator (seat None)."""

    seat: int | None


@dataclass(frozen=True)
class AppConfig:
    heartbeat_seconds: float = 15.0
    max_heartbeat_seconds: float = 300.0
    limits: Limits = field(default_factory=Limits)


def _request_hash(seat: int, move: game_pb2.Move) -> bytes:
    return hashlib.sha256(
        seat.to_bytes(2, "big") + move.SerializeToString(deterministic=True)
    ).digest()


class App:
    def __init__(
        self,
        store: Store,
        games: Mapping[str, AnyGame],
        *,
        config: AppConfig | None = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.store = store
        self.games = dict(games)
        self.config = config or AppConfig()
        self._clock = clock
        self._closing = asyncio.Event()

    # -- lifecycle --------------------------------------------------------

    def begin_shutdown(self) -> None:
        """Ask open watch streams to end cleanly."""
        self._closing.set()

    @property
    def closing(self) -> bool:
        return self._closing.is_set()

    # -- catalogue ----------------------------------------------------------

    def list_game_types(self) -> list[service_pb2.GameType]:
        out = []
        for name, game in sorted(self.games.items()):
            info = game.info
            defaults = game_pb2.GameOptions()
            getattr(defaults, name).CopyFrom(game.default_options())
            out.append(
                service_pb2.GameType(
                    name=name,
                    title=info.title,
                    description=info.description,
                    min_seats=info.min_seats,
                    max_seats=info.max_seats,
                    default_options=defaults,
                    options=[
                        service_pb2.OptionInfo(
                            name=o.name, description=o.description, default_value=o.default
                        )
                        for o in info.options
                    ],
                    hidden_information=info.hidden_information,
                    simultaneous_decisions=info.simultaneous_decisions,
                )
            )
        return out

    # -- create and join ------------------------------------------------------

    async def create_game(
        self, options: game_pb2.GameOptions, num_seats: int, seed: int | None
    ) -> tuple[str, int]:
        limits.check_options(options, self.config.limits)
        name = options.WhichOneof("game")
        if name is None:
            raise invalid("MALFORMED_REQUEST", "options must name a game type (set one entry)")
        game = self.games.get(name)
        if game is None:
            raise invalid("UNKNOWN_GAME_TYPE", f"this server does not play {name!r}")
        game_options = getattr(options, name)
        try:
            game.validate_options(game_options, num_seats)
        except InvalidOptionsError as exc:
            raise invalid(exc.reason, exc.message) from exc
        seed = secrets.randbits(64) if seed is None else seed
        state = game.setup(game_options, num_seats, seed)
        envelope = game_pb2.GameState()
        getattr(envelope, name).CopyFrom(state)
        meta = storage_pb2.StoredGameMeta(
            game_type=name,
            options=options,
            num_seats=num_seats,
            seed=seed,
            created_unix_ms=int(self._clock() * 1000),
        )
        game_id = secrets.token_hex(8)
        await self._store(self.store.create_game(game_id, meta, envelope))
        log.info("game_created", game_id=game_id, game_type=name, seats=num_seats)
        return game_id, 0

    async def join_game(self, game_id: str, seat: int | None, display_name: str) -> tuple[int, str]:
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
        try:
            claimed = await self._store(self.store.claim_seat(game_id, seat, num_seats, record))
        except SeatTaken as exc:
            raise precondition("SEAT_TAKEN", f"seat {seat} is taken") from exc
        except GameFull as exc:
            raise precondition("GAME_FULL", f"all {num_seats} seats are taken") from exc
        structlog.contextvars.bind_contextvars(seat=claimed)
        log.info("seat_joined", game_id=game_id, seat=claimed)
        return claimed, tokens.make_token(claimed, secret)

    # -- reading ---------------------------------------------------------------

    async def get_game(self, game_id: str, token: str) -> service_pb2.GameSnapshot:
        loaded = await self._load(game_id)
        viewer = self._authenticate(loaded, token, required=False)
        return self._snapshot(loaded, loaded.state, loaded.version, viewer)

    async def legal_moves(self, game_id: str, token: str) -> tuple[int, int, list[game_pb2.Move]]:
        loaded = await self._load(game_id)
        viewer = self._authenticate(loaded, token, required=True)
        assert viewer.seat is not None
        name, game = self._game_of(loaded)
        if len(loaded.seats) < loaded.meta.num_seats:
            return loaded.version, viewer.seat, []
        moves = []
        for move in game.legal_moves(getattr(loaded.state, name), viewer.seat):
            envelope = game_pb2.Move()
            getattr(envelope, name).CopyFrom(move)
            moves.append(envelope)
        return loaded.version, viewer.seat, moves

    # -- moving --------------------------------------------------------------------

    async def apply_move(
        self,
        game_id: str,
        token: str,
        expected_version: int,
        move: game_pb2.Move,
        idempotency_key: str,
    ) -> service_pb2.ApplyMoveResponse:
        limits.check_move(move, self.config.limits)
        if not 1 <= len(idempotency_key) <= MAX_IDEMPOTENCY_KEY:
            raise invalid(
                "MALFORMED_REQUEST",
                f"idempotency_key must have 1 to {MAX_IDEMPOTENCY_KEY} characters",
            )
        loaded = await self._load(game_id, idempotency_key=idempotency_key)
        viewer = self._authenticate(loaded, token, required=True)
        seat = viewer.seat
        assert seat is not None
        request_hash = _request_hash(seat, move)
        if loaded.idempotent_version is not None:
            return await self._replay(loaded, viewer, loaded.idempotent_version, request_hash)
        name, game = self._game_of(loaded)
        if len(loaded.seats) < loaded.meta.num_seats:
            raise precondition(
                "GAME_NOT_STARTED",
                f"{len(loaded.seats)} of {loaded.meta.num_seats} seats are taken; "
                "moves are accepted once every seat is taken",
            )
        if expected_version != loaded.version:
            raise stale_version(expected_version, loaded.version)
        given = move.WhichOneof("game")
        if given is None:
            raise invalid("INVALID_MOVE", "the move is empty: set the entry of this game")
        if given != name:
            raise invalid("INVALID_MOVE", f"this game is {name!r}; a {given!r} move cannot apply")
        state = getattr(loaded.state, name)
        try:
            new_state, events = game.apply(state, seat, getattr(move, name))
        except InvalidMoveError as exc:
            raise invalid(exc.reason, exc.message) from exc
        except IllegalMoveError as exc:
            raise precondition(exc.reason, exc.message) from exc
        except GameError as exc:  # any other rules error is still a precondition
            raise precondition(exc.reason, exc.message) from exc
        new_envelope = game_pb2.GameState()
        getattr(new_envelope, name).CopyFrom(new_state)
        new_version = loaded.version + 1
        entry = storage_pb2.StoredEntry(
            version=new_version,
            seat=seat,
            move=move,
            request_sha256=request_hash,
        )
        for event in events:
            getattr(entry.events.add(), name).CopyFrom(event)
        result = await self._store(
            self.store.commit(game_id, loaded.version, new_envelope, entry, idempotency_key)
        )
        if isinstance(result, Stale):
            raise stale_version(expected_version, result.current_version)
        if isinstance(result, Duplicate):
            return await self._replay(loaded, viewer, result.version, request_hash)
        assert isinstance(result, Committed)
        # The access log line of this call carries the version (no second line).
        structlog.contextvars.bind_contextvars(version=result.version)
        return service_pb2.ApplyMoveResponse(
            version=result.version,
            events=self._visible_events(name, game, entry.events, viewer),
            snapshot=self._snapshot(loaded, new_envelope, result.version, viewer),
        )

    async def _replay(
        self, loaded: LoadedGame, viewer: Viewer, version: int, request_hash: bytes
    ) -> service_pb2.ApplyMoveResponse:
        entries = await self._store(self.store.read_entries(loaded.game_id, version - 1, 1))
        if not entries or entries[0].version != version:
            raise AppError(
                ErrorKind.UNAVAILABLE,
                "STORE_UNAVAILABLE",
                f"the record of version {version} could not be read; retry",
            )
        entry = entries[0]
        if entry.request_sha256 != request_hash:
            raise invalid(
                "IDEMPOTENCY_KEY_REUSED",
                f"this idempotency key was used for a different move (version {version})",
            )
        name, game = self._game_of(loaded)
        structlog.contextvars.bind_contextvars(version=version, replayed=True)
        return service_pb2.ApplyMoveResponse(
            version=version,
            events=self._visible_events(name, game, entry.events, viewer),
            snapshot=self._snapshot(loaded, entry.state, version, viewer),
            replayed=True,
        )

    # -- watching and history -----------------------------------------------------------

    async def watch(
        self, game_id: str, token: str, from_version: int, heartbeat_seconds: float
    ) -> AsyncIterator[service_pb2.WatchGameResponse]:
        loaded = await self._load(game_id)
        viewer = self._authenticate(loaded, token, required=False)
        name, game = self._game_of(loaded)
        heartbeat = heartbeat_seconds or self.config.heartbeat_seconds
        heartbeat = min(max(heartbeat, 0.05), self.config.max_heartbeat_seconds)
        last = from_version
        current = loaded.version
        finished = game.outcome(getattr(loaded.state, name)) is not None
        while not self.closing:
            if last >= current and finished:
                return
            entries = await self._store(self.store.read_entries(game_id, last, DEFAULT_PAGE))
            if not entries:
                entries = await self._wait(game_id, last, heartbeat)
            if not entries:
                if self.closing:
                    return
                yield service_pb2.WatchGameResponse(
                    heartbeat=service_pb2.Heartbeat(version=max(last, current))
                )
                continue
            if len(loaded.seats) < loaded.meta.num_seats:
                # Seats were free when the watch began: show who has joined since.
                loaded = await self._load(game_id)
            for entry in entries:
                last = entry.version
                current = max(current, last)
                yield service_pb2.WatchGameResponse(
                    update=service_pb2.GameUpdate(
                        version=entry.version,
                        seat=entry.seat,
                        snapshot=self._snapshot(loaded, entry.state, entry.version, viewer),
                        events=self._visible_events(name, game, entry.events, viewer),
                    )
                )
                if game.outcome(getattr(entry.state, name)) is not None:
                    finished = True

    async def _wait(
        self, game_id: str, after: int, timeout: float
    ) -> Sequence[storage_pb2.StoredEntry]:
        """Wait for entries after ``after``, but wake up early on shutdown."""
        waiter = asyncio.ensure_future(
            self._store(self.store.wait_entries(game_id, after, timeout))
        )
        closing = asyncio.ensure_future(self._closing.wait())
        try:
            done, _ = await asyncio.wait({waiter, closing}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            # Also when this call itself is cancelled (client gone, server stopping).
            for task in (waiter, closing):
                if not task.done():
                    task.cancel()
            await asyncio.gather(waiter, closing, return_exceptions=True)
        if waiter in done:
            entries: Sequence[storage_pb2.StoredEntry] = waiter.result()
            return entries
        return []

    async def history(
        self, game_id: str, token: str, from_version: int, page_size: int
    ) -> service_pb2.GetHistoryResponse:
        loaded = await self._load(game_id)
        viewer = self._authenticate(loaded, token, required=False)
        name, game = self._game_of(loaded)
        size = min(page_size or DEFAULT_PAGE, MAX_PAGE)
        entries = await self._store(self.store.read_entries(game_id, from_version, size))
        response = service_pb2.GetHistoryResponse()
        for entry in entries:
            response.entries.add(
                version=entry.version,
                seat=entry.seat,
                events=self._visible_events(name, game, entry.events, viewer),
            )
        if entries and entries[-1].version < loaded.version:
            response.next_from_version = entries[-1].version
        return response

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

    async def _store(self, awaitable: Any) -> Any:
        try:
            return await awaitable
        except StoreUnavailable as exc:
            raise store_unavailable(str(exc)) from exc
        except StoreGameNotFound as exc:
            raise game_not_found(str(exc)) from exc

    def _authenticate(self, loaded: LoadedGame, token: str, *, required: bool) -> Viewer:
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

    def _game_of(self, loaded: LoadedGame) -> tuple[str, AnyGame]:
        name = loaded.meta.game_type
        game = self.games.get(name)
        if game is None:
            raise precondition("UNKNOWN_GAME_TYPE", f"this server no longer plays {name!r}")
        return name, game

    def _snapshot(
        self, loaded: LoadedGame, state: game_pb2.GameState, version: int, viewer: Viewer
    ) -> service_pb2.GameSnapshot:
        name, game = self._game_of(loaded)
        inner = getattr(state, name)
        outcome = game.outcome(inner)
        snapshot = service_pb2.GameSnapshot(
            game_id=loaded.game_id,
            game_type=name,
            version=version,
            num_seats=loaded.meta.num_seats,
            to_act=list(game.to_act(inner)),
            finished=outcome is not None,
            # Moves happen only once every seat is taken.
            started=version > 0 or len(loaded.seats) == loaded.meta.num_seats,
        )
        for seat in range(loaded.meta.num_seats):
            record = loaded.seats.get(seat)
            snapshot.seats.add(
                seat=seat,
                taken=record is not None,
                display_name=record.display_name if record else "",
            )
        if viewer.seat is not None:
            snapshot.viewer_seat = viewer.seat
        getattr(snapshot.view, name).CopyFrom(game.view(inner, viewer.seat))
        if outcome is not None:
            snapshot.outcome.CopyFrom(outcome)
        return snapshot

    @staticmethod
    def _visible_events(
        name: str, game: AnyGame, events: Sequence[game_pb2.Event], viewer: Viewer
    ) -> list[game_pb2.Event]:
        out = []
        for event in events:
            redacted = game.redact_event(getattr(event, name), viewer.seat)
            if redacted is not None:
                envelope = game_pb2.Event()
                getattr(envelope, name).CopyFrom(redacted)
                out.append(envelope)
        return out


def _check_game_id(game_id: str) -> None:
    limits.check_game_id(game_id)
