"""The lobby use case: ListGames, games newest first by type and status.

The index and its rules (newest first, stable cursor, the game's record as
the truth, retention) are the store's (``store/lobby.py``); this module checks
the request, turns the store's cursor into an opaque page token and the
store's records into ``GameSummary`` messages, which hold nothing secret:
no token, no state, no display name.
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Awaitable, Callable, Collection
from typing import Protocol, TypeVar

import structlog
from throneroom.v1 import service_pb2

from throneroom_server.app.access import Caller
from throneroom_server.app.errors import invalid
from throneroom_server.store import Store, StoreError
from throneroom_server.store.lobby import ListedGame, LobbyStatus, is_member

log = structlog.get_logger("throneroom.lobby")

T = TypeVar("T")

DEFAULT_PAGE_SIZE = 20
MAX_PAGE_SIZE = 100
MAX_PAGE_TOKEN_CHARS = 200
SWEEP_STEP = 100
"""Index entries one retention sweep step looks at (each sweeper round)."""

_TOKEN_PREFIX = "l1."

_STATUS_FILTERS: dict[int, LobbyStatus | None] = {
    service_pb2.GAME_STATUS_FILTER_ANY: None,
    service_pb2.GAME_STATUS_FILTER_OPEN: LobbyStatus.OPEN,
    service_pb2.GAME_STATUS_FILTER_STARTED: LobbyStatus.STARTED,
    service_pb2.GAME_STATUS_FILTER_FINISHED: LobbyStatus.FINISHED,
}

_STATUSES: dict[LobbyStatus, service_pb2.GameStatus.ValueType] = {
    LobbyStatus.OPEN: service_pb2.GAME_STATUS_OPEN,
    LobbyStatus.STARTED: service_pb2.GAME_STATUS_STARTED,
    LobbyStatus.FINISHED: service_pb2.GAME_STATUS_FINISHED,
}

Admit = Callable[[Caller], Awaitable[None]]


class StoreCall(Protocol):
    """Await a store call, its errors turned into the client's (``Gateway.guard``)."""

    def __call__(self, awaitable: Awaitable[T], /) -> Awaitable[T]: ...


def page_token(cursor: str) -> str:
    """The opaque token of a store cursor ("" stays "": the last page)."""
    if not cursor:
        return ""
    return _TOKEN_PREFIX + base64.urlsafe_b64encode(cursor.encode()).decode().rstrip("=")


def cursor_of(token: str) -> str:
    """The store cursor of a page token ("" = the first page)."""
    if not token:
        return ""
    bad = invalid(
        "MALFORMED_REQUEST",
        "page_token is not a token this service gave (pass next_page_token as it came)",
    )
    if len(token) > MAX_PAGE_TOKEN_CHARS or not token.startswith(_TOKEN_PREFIX):
        raise bad
    body = token.removeprefix(_TOKEN_PREFIX)
    try:
        cursor = base64.urlsafe_b64decode(body + "=" * (-len(body) % 4)).decode()
    except (binascii.Error, ValueError) as exc:
        raise bad from exc
    if not body.isascii() or not is_member(cursor):
        raise bad
    return cursor


def summary(listed: ListedGame) -> service_pb2.GameSummary:
    meta = listed.meta
    out = service_pb2.GameSummary(
        game_id=listed.game_id,
        game_type=meta.game_type,
        seats=meta.num_seats,
        seats_taken=len(listed.seats_taken),
        open_seats=[s for s in range(meta.num_seats) if s not in listed.seats_taken],
        status=_STATUSES[listed.status],
        version=listed.version,
        created_unix_ms=meta.created_unix_ms,
        options=meta.options,
    )
    if meta.HasField("time_control"):
        out.time_control.CopyFrom(meta.time_control)
    return out


class Lobby:
    """ListGames over a store, for the game types this server plays."""

    def __init__(
        self, store: Store, game_types: Collection[str], admit: Admit, to_app_error: StoreCall
    ) -> None:
        self._store = store
        self._game_types = frozenset(game_types)
        self._admit = admit
        self._to_app_error = to_app_error

    async def list_games(
        self, request: service_pb2.ListGamesRequest, *, caller: Caller
    ) -> service_pb2.ListGamesResponse:
        await self._admit(caller)
        if request.game_type and request.game_type not in self._game_types:
            known = ", ".join(sorted(self._game_types))
            raise invalid(
                "UNKNOWN_GAME_TYPE",
                f"this server does not play {request.game_type[:64]!r} (it plays {known})",
            )
        if request.status not in _STATUS_FILTERS:
            raise invalid("MALFORMED_REQUEST", f"status {request.status} is not a status filter")
        size = request.page_size or DEFAULT_PAGE_SIZE
        if not 1 <= size <= MAX_PAGE_SIZE:
            raise invalid(
                "MALFORMED_REQUEST",
                f"page_size must be 1 to {MAX_PAGE_SIZE} (0: {DEFAULT_PAGE_SIZE}), not {size}",
            )
        after = cursor_of(request.page_token)
        page = await self._to_app_error(
            self._store.list_games(request.game_type, _STATUS_FILTERS[request.status], size, after)
        )
        return service_pb2.ListGamesResponse(
            games=[summary(g) for g in page.games], next_page_token=page_token(page.cursor)
        )

    async def sweep(self) -> int:
        """One step of the index's retention sweep (0 when the store is down:
        the next round tries again)."""
        try:
            return await self._store.sweep_lobby(SWEEP_STEP)
        except StoreError as exc:
            log.warning("lobby_sweep_failed", error=str(exc))
            return 0
