"""How every use case reaches a game: admission, the store, the seat, the engine.

``Gateway`` is the app layer's shared plumbing, public to its modules (the
use cases in ``service.py``, ``moves.py``, ``updates.py``, ``timeouts.py``):
keys and quotas before any work (``admit``), store calls with their errors
turned into the client's (``guard``), a game loaded (``load``), the seat a
token proves (``authenticate``), the game's engine (``game_of``), and what a
viewer is shown of a state (``snapshot``, ``add_moves``, ``moves_of``,
``visible_events``).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TypeVar

import structlog
from throneroom.v1 import game_pb2, service_pb2, storage_pb2

from throneroom_server.app import limits, tokens
from throneroom_server.app.access import Access, Caller
from throneroom_server.app.describe import Describer, check_language, describer
from throneroom_server.app.errors import (
    AppError,
    ErrorKind,
    game_not_found,
    not_replicated,
    precondition,
    store_full,
    store_unavailable,
)
from throneroom_server.app.snapshots import Snapshots
from throneroom_server.games.kit.service import ServiceGame
from throneroom_server.store import (
    LoadedGame,
    Store,
    StoreError,
    StoreFull,
    StoreGameNotFound,
    StoreNotReplicated,
    StoreUnavailable,
)

log = structlog.get_logger("throneroom.app")

T = TypeVar("T")


@dataclass(frozen=True)
class Viewer:
    """Who is asking: a seat proven by its token, or a spectator (seat None)."""

    seat: int | None


class Gateway:
    """The store, the games and the access rules, as every use case reaches them."""

    def __init__(
        self,
        store: Store,
        games: Mapping[str, ServiceGame],
        access: Access,
        snapshots: Snapshots,
        clock: Callable[[], float],
    ) -> None:
        self.store = store
        self.games = games
        self.access = access
        self.snapshots = snapshots
        self.clock = clock

    def now_ms(self) -> int:
        return int(self.clock() * 1000)

    # -- admission and the store ---------------------------------------------------

    async def admit(
        self, caller: Caller, *, token: str = "", creating: bool = False, joining: bool = False
    ) -> None:
        """Keys and quotas (access.py) before any work; a throttled client's
        seat tokens are refused before they are even checked."""
        if token:
            self.access.check_not_throttled(caller)
        await self.guard(self.access.admit(caller, creating=creating, joining=joining))

    async def guard(self, awaitable: Awaitable[T]) -> T:
        """Await a store call, its errors turned into the client's."""
        try:
            return await awaitable
        except (StoreUnavailable, StoreFull, StoreGameNotFound) as exc:
            raise store_error(exc) from exc

    async def load(self, game_id: str, *, idempotency_key: str = "") -> LoadedGame:
        """The game (NOT_FOUND when there is none), with the version that
        ``idempotency_key`` made if it was used."""
        limits.check_game_id(game_id)
        try:
            loaded: LoadedGame = await self.guard(
                self.store.load(game_id, idempotency_key=idempotency_key)
            )
            return loaded
        except StoreGameNotFound as exc:
            raise game_not_found(game_id) from exc

    # -- the seat and the engine -------------------------------------------------------

    async def authenticate(
        self, loaded: LoadedGame, token: str, caller: Caller, *, required: bool
    ) -> Viewer:
        """``check_token``, a wrong token counted against the caller's quota."""
        try:
            return self.check_token(loaded, token, required=required)
        except AppError as error:
            if error.kind is ErrorKind.PERMISSION_DENIED:
                await self.guard(self.access.token_failed(caller))
            raise

    def check_token(self, loaded: LoadedGame, token: str, *, required: bool) -> Viewer:
        """The seat ``token`` proves in ``loaded`` (none: a spectator, unless
        ``required``)."""
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

    def game_of(self, loaded: LoadedGame) -> ServiceGame:
        """The engine of the loaded game."""
        name = loaded.meta.game_type
        game = self.games.get(name)
        if game is None:
            raise precondition("UNKNOWN_GAME_TYPE", f"this server no longer plays {name!r}")
        return game

    async def read_for(
        self, game_id: str, token: str, caller: Caller, describe_language: str
    ) -> tuple[LoadedGame, Viewer, ServiceGame, Describer | None]:
        """The game as ``token``'s seat (or a spectator, without one) may read
        it, its rules, and the sentences of ``describe_language`` ("" for none):
        what the history and the watch streams start from."""
        lang = check_language(describe_language)
        await self.admit(caller, token=token)
        loaded = await self.load(game_id)
        viewer = await self.authenticate(loaded, token, caller, required=False)
        game = self.game_of(loaded)
        return loaded, viewer, game, describer(game, lang, display_names(loaded))

    # -- what a viewer is shown ------------------------------------------------------

    def snapshot(
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
        game = self.game_of(loaded)
        self.snapshots.build(
            game, loaded, state, version, seat=viewer.seat, clock=clock, into=snapshot
        )
        return snapshot

    def add_moves(
        self,
        message: service_pb2.GameUpdate | service_pb2.ApplyMoveResponse,
        loaded: LoadedGame,
        state: game_pb2.GameState,
        seat: int | None,
    ) -> None:
        """Add ``moves_of`` to the message's ``legal_moves``, merged from their
        serialized form (no envelope built and copied per move). The message's
        snapshot is built: a seat not in its ``to_act`` has none (every game's
        law, conformance check 4), so it is not asked."""
        if seat is None or len(loaded.seats) < loaded.meta.num_seats:
            return
        if seat not in message.snapshot.to_act:  # empty when lost on time (forfeit)
            return
        number = _LEGAL_MOVES_FIELD[type(message)]
        message.MergeFromString(self.game_of(loaded).encoded_legal_moves(state, seat, number))

    def moves_of(
        self, loaded: LoadedGame, state: game_pb2.GameState, seat: int | None
    ) -> list[game_pb2.Move]:
        """The seat's legal moves in ``state`` (none before every seat is taken)."""
        if seat is None or len(loaded.seats) < loaded.meta.num_seats:
            return []
        if state.HasField("forfeit"):  # lost on time: nobody acts
            return []
        return self.game_of(loaded).legal_moves(state, seat)  # empty when not asked

    @staticmethod
    def visible_events(
        game: ServiceGame, events: Sequence[game_pb2.Event], viewer: Viewer
    ) -> list[game_pb2.Event]:
        """The events ``viewer`` may see (the engine's redaction)."""
        return game.redact_events(events, viewer.seat)


_LEGAL_MOVES_FIELD = {
    cls: cls.DESCRIPTOR.fields_by_name["legal_moves"].number
    for cls in (service_pb2.GameUpdate, service_pb2.ApplyMoveResponse)
}
"""The field number of ``legal_moves`` in the messages ``add_moves`` adds to."""


def store_error(exc: StoreError) -> AppError:
    """The client's error for a store error (details go to the log only)."""
    if isinstance(exc, StoreFull):
        log.warning("store_full", error=str(exc))
        return store_full()
    if isinstance(exc, StoreGameNotFound):
        return game_not_found(str(exc))
    if isinstance(exc, StoreNotReplicated):
        return not_replicated(str(exc))
    return store_unavailable(str(exc))


def display_names(loaded: LoadedGame) -> tuple[str, ...]:
    """The players' names by seat ("" for a free seat or one without a name)."""
    seats = loaded.seats
    return tuple(seats[s].display_name if s in seats else "" for s in range(loaded.meta.num_seats))
