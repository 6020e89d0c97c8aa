"""The lobby index: which games exist, newest first, by type and status.

Both stores list games through the same scheme (the Redis layout is in
``redis.py``, the scripts in ``lua/lobby_*.lua``):

* Every game has one **member** string, fixed at creation:
  ``<inverted creation ms, 15 digits>:<game id>:<game type>``. Members sort
  as text, so ascending order is newest first (ties: by game id), and a
  member is its own pagination cursor: the next page starts strictly after
  it. Games created meanwhile sort before any cursor already handed out, so
  paging never repeats nor skips a game that existed when it began.
* A game's **status** moves one way only: ``OPEN`` (a seat is free) ->
  ``STARTED`` (every seat taken) -> ``FINISHED`` (the commit of the last
  move said so). The index may lag the game's record (it is written right
  after the game's own write, never in the same script: on Redis Cluster the
  game's keys and the index live in different slots), so a listing reads
  every candidate's record and believes only the record: an entry whose game
  is gone (expired by retention) is removed, one whose status moved on is
  moved forward, and neither is ever returned wrong.
* The index is bounded by retention: entries of expired games are dropped by
  the listings that meet them and by a sweep that walks the whole index in
  small steps (``App.run_sweeper``).
"""

from __future__ import annotations

import enum
import re
from collections.abc import Collection, Sequence
from dataclasses import dataclass

from throneroom.v1 import storage_pb2

INVERTED_MS_DIGITS = 15
_MS_CEILING = 10**INVERTED_MS_DIGITS - 1
_MEMBER = re.compile(r"^(\d{15}):([A-Za-z0-9]{1,64}):([a-z][a-z0-9_]{0,63})$")

SCAN_LIMIT = 400
"""Index entries one listing reads at most (stale ones included); a page cut
short by it still carries a cursor, so the client reads on."""


class LobbyStatus(enum.IntEnum):
    """Where a game stands; the order is the order a game goes through."""

    OPEN = 1
    STARTED = 2
    FINISHED = 3


@dataclass(frozen=True)
class ListedGame:
    """One game as the lobby reads it from the game's own record."""

    game_id: str
    meta: storage_pb2.StoredGameMeta
    version: int
    seats_taken: frozenset[int]
    status: LobbyStatus


@dataclass(frozen=True)
class GamePage:
    games: Sequence[ListedGame]
    cursor: str
    """The member after which the next page starts; "" on the last page."""


def member(meta: storage_pb2.StoredGameMeta, game_id: str) -> str:
    inverted = _MS_CEILING - min(max(meta.created_unix_ms, 0), _MS_CEILING)
    return f"{inverted:0{INVERTED_MS_DIGITS}d}:{game_id}:{meta.game_type}"


def is_member(text: str) -> bool:
    return _MEMBER.match(text) is not None


def member_game_id(text: str) -> str:
    return text.split(":", 2)[1]


def member_game_type(text: str) -> str:
    return text.split(":", 2)[2]


def status_of(num_seats: int, seats_taken: Collection[int], finished: bool) -> LobbyStatus:
    if finished:
        return LobbyStatus.FINISHED
    return LobbyStatus.STARTED if len(seats_taken) >= num_seats else LobbyStatus.OPEN


def page_of(found: Sequence[tuple[str, ListedGame]], limit: int, scanned_to: str) -> GamePage:
    """The page from ``found`` (up to limit + 1 matches, in order) when the
    scan stopped at ``scanned_to`` ("" = the end of the index)."""
    if len(found) > limit:
        return GamePage([g for _, g in found[:limit]], found[limit - 1][0])
    return GamePage([g for _, g in found], scanned_to)
