"""Every error of the REST face with its HTTP status, code and reason; each rejected
request is shown to change nothing (the seat's snapshot and the history are
byte-identical before and after)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest
import structlog
from throneroom.v1 import service_pb2
from throneroom_server.store import StoreUnavailable
from throneroom_server.store.base import Store

from tests.service.rest_helpers import (
    Rest,
    expect_error,
    new_nim,
    start,
    stop,
    take,
)


@pytest.fixture
async def rest(store: Store) -> AsyncIterator[Rest]:
    """The REST face on a free port over each store, with the Nim fixture game."""
    service = await start(store)
    yield service
    await stop(service)


Case = tuple[str, int, str, str, dict[str, Any]]
"""A request that must fail: its path, HTTP status, code, reason and the call's arguments."""


def _refused_seats(moves: str, p0: str, p1: str, other_token: str) -> list[Case]:
    """A move without the seat's token, with a wrong one, or out of turn."""
    return [
        (moves, 401, "UNAUTHENTICATED", "SEAT_TOKEN_REQUIRED", {"body": take(1, 1, "k")}),
        (
            moves,
            401,
            "UNAUTHENTICATED",
            "SEAT_TOKEN_REQUIRED",
            {"body": take(1, 1, "k"), "headers": {"Authorization": f"Basic {p1}"}},
        ),
        (
            moves,
            400,
            "INVALID_ARGUMENT",
            "SEAT_TOKEN_MALFORMED",
            {"body": take(1, 1, "k"), "token": "garbage"},
        ),
        (
            moves,
            403,
            "PERMISSION_DENIED",
            "SEAT_TOKEN_INVALID",
            {"body": take(1, 1, "k"), "token": "1." + "A" * 43},
        ),
        (
            moves,
            403,
            "PERMISSION_DENIED",
            "SEAT_TOKEN_INVALID",
            {"body": take(1, 1, "k"), "token": other_token},
        ),
        (
            moves,
            409,
            "FAILED_PRECONDITION",
            "NOT_YOUR_TURN",
            {"body": take(1, 1, "k"), "token": p0},
        ),
    ]


def _refused_moves(moves: str, p1: str) -> list[Case]:
    """A stale, illegal or invalid move."""
    return [
        (moves, 409, "ABORTED", "STALE_VERSION", {"body": take(1, 0, "k"), "token": p1}),
        (
            moves,
            409,
            "FAILED_PRECONDITION",
            "ILLEGAL_MOVE",
            {"body": take(3, 1, "big"), "token": p1},
        ),
        (moves, 400, "INVALID_ARGUMENT", "INVALID_MOVE", {"body": take(0, 1, "k"), "token": p1}),
        (
            moves,
            400,
            "INVALID_ARGUMENT",
            "INVALID_MOVE",
            {"body": {"expectedVersion": 1, "move": {}, "idempotencyKey": "k"}, "token": p1},
        ),
        (
            moves,
            400,
            "INVALID_ARGUMENT",
            "INVALID_MOVE",
            {
                "body": {"expectedVersion": 1, "move": {"kingIsDead": {}}, "idempotencyKey": "k"},
                "token": p1,
            },
        ),
    ]


def _malformed_requests(moves: str, p1: str, other_game_id: str) -> list[Case]:
    """Requests that are not a well-formed move request, or for no game."""
    return [
        (
            moves,
            400,
            "INVALID_ARGUMENT",
            "MALFORMED_REQUEST",
            {"body": take(1, 1, ""), "token": p1},
        ),
        (
            moves,
            400,
            "INVALID_ARGUMENT",
            "MALFORMED_REQUEST",
            {"body": take(1, 1, "k" * 129), "token": p1},
        ),
        (moves, 400, "INVALID_ARGUMENT", "MALFORMED_REQUEST", {"raw": b"{not json", "token": p1}),
        (moves, 400, "INVALID_ARGUMENT", "MALFORMED_REQUEST", {"body": [1, 2], "token": p1}),
        (
            moves,
            400,
            "INVALID_ARGUMENT",
            "MALFORMED_REQUEST",
            {"body": {**take(1, 1, "k"), "expectedVerson": 1}, "token": p1},
        ),
        (
            moves,
            400,
            "INVALID_ARGUMENT",
            "MALFORMED_REQUEST",
            {"body": {**take(1, 1, "k"), "move": {"nim": {"take": "one"}}}, "token": p1},
        ),
        (
            moves,
            400,
            "INVALID_ARGUMENT",
            "MALFORMED_REQUEST",
            {"body": {**take(1, 1, "k"), "seatToken": p1}},
        ),
        (
            moves,
            400,
            "INVALID_ARGUMENT",
            "MALFORMED_REQUEST",
            {"body": {**take(1, 1, "k"), "gameId": other_game_id}, "token": p1},
        ),
        (
            moves,
            400,
            "INVALID_ARGUMENT",
            "MALFORMED_REQUEST",
            {"body": take(1, 1, "k"), "token": p1, "headers": {"Idempotency-Key": "other"}},
        ),
        (
            "/v1/games/nosuchgame/moves",
            404,
            "NOT_FOUND",
            "GAME_NOT_FOUND",
            {"body": take(1, 1, "k"), "token": p1},
        ),
        (
            "/v1/games/bad%20id!/moves",
            400,
            "INVALID_ARGUMENT",
            "MALFORMED_REQUEST",
            {"body": take(1, 1, "k"), "token": p1},
        ),
    ]


# -- errors -------------------------------------------------------------------------------


async def test_every_move_error_has_its_status_and_changes_nothing(rest: Rest) -> None:
    game = await new_nim(rest, pile=3)
    other = await new_nim(rest, seed=2)
    gid = game.game_id
    p0, p1 = game.tokens
    await rest.ok("POST", f"/v1/games/{gid}/moves", token=p0, body=take(1, 0, "first"))
    moves = f"/v1/games/{gid}/moves"
    cases = [
        *_refused_seats(moves, p0, p1, other.tokens[1]),
        *_refused_moves(moves, p1),
        *_malformed_requests(moves, p1, other.game_id),
    ]
    for path, status, code, reason, kwargs in cases:
        before = await rest.state_bytes(gid, p1)
        await expect_error(rest, "POST", path, (status, code, reason), **kwargs)
        assert await rest.state_bytes(gid, p1) == before, f"{reason} changed the game"
    # The stale error says where the game is; 401 names the scheme to use.
    stale = await expect_error(
        rest, "POST", moves, (409, "ABORTED", "STALE_VERSION"), body=take(1, 0, "k"), token=p1
    )
    assert stale["error"]["metadata"] == {"current_version": "1"}
    _, _, headers = await rest.call("POST", moves, body=take(1, 1, "k"))
    assert headers["WWW-Authenticate"].startswith("Bearer")
    # The rejected "big" key was not recorded: it serves a legal move now.
    ok = await rest.ok("POST", moves, token=p1, body=take(2, 1, "big"))
    assert ok["version"] == "2" and ok["snapshot"]["finished"] is True
    before = await rest.state_bytes(gid, p1)
    await expect_error(
        rest,
        "POST",
        moves,
        (409, "FAILED_PRECONDITION", "GAME_FINISHED"),
        body=take(1, 2, "late"),
        token=p0,
    )
    assert await rest.state_bytes(gid, p1) == before


async def test_create_and_join_errors(rest: Rest, store: Store) -> None:
    await expect_error(
        rest,
        "POST",
        "/v1/games",
        (400, "INVALID_ARGUMENT", "MALFORMED_REQUEST"),
        body={"numSeats": 2},
    )
    await expect_error(
        rest,
        "POST",
        "/v1/games",
        (400, "INVALID_ARGUMENT", "INVALID_OPTIONS"),
        body={"options": {"nim": {}}, "numSeats": 9},
    )
    await expect_error(
        rest,
        "POST",
        "/v1/games",
        (400, "INVALID_ARGUMENT", "UNKNOWN_GAME_TYPE"),
        body={"options": {"kingIsDead": {}}, "numSeats": 2},  # this server plays only nim
    )
    created = await rest.ok("POST", "/v1/games", body={"options": {"nim": {}}, "numSeats": 2})
    gid = created["gameId"]
    seats = f"/v1/games/{gid}/seats"
    jo = await rest.ok("POST", seats, body={"seat": 1, "displayName": "Jo"})
    await expect_error(
        rest, "POST", seats, (409, "FAILED_PRECONDITION", "SEAT_TAKEN"), body={"seat": 1}
    )
    await expect_error(
        rest,
        "POST",
        f"/v1/games/{gid}/moves",
        (409, "FAILED_PRECONDITION", "GAME_NOT_STARTED"),
        body=take(1, 0, "early"),
        token=jo["seatToken"],
    )
    await expect_error(
        rest, "POST", seats, (400, "INVALID_ARGUMENT", "MALFORMED_REQUEST"), body={"seat": 7}
    )
    await expect_error(
        rest,
        "POST",
        seats,
        (400, "INVALID_ARGUMENT", "MALFORMED_REQUEST"),
        body={"gameId": "other"},
    )
    await rest.ok("POST", seats, body={"gameId": gid})  # the same id as the path is fine
    await expect_error(rest, "POST", seats, (409, "FAILED_PRECONDITION", "GAME_FULL"), body={})
    await expect_error(
        rest, "POST", "/v1/games/missing/seats", (404, "NOT_FOUND", "GAME_NOT_FOUND"), body={}
    )
    snap = (await rest.ok("GET", f"/v1/games/{gid}"))["snapshot"]
    assert [(s["seat"], s["taken"], s["displayName"]) for s in snap["seats"]] == [
        (0, True, ""),
        (1, True, "Jo"),
    ]


async def test_reading_errors(rest: Rest) -> None:
    game = await new_nim(rest)
    gid = game.game_id
    await expect_error(
        rest,
        "GET",
        f"/v1/games/{gid}",
        (403, "PERMISSION_DENIED", "SEAT_TOKEN_INVALID"),
        token="0." + "A" * 43,
    )
    await expect_error(
        rest, "GET", f"/v1/games/{gid}/legal-moves", (401, "UNAUTHENTICATED", "SEAT_TOKEN_REQUIRED")
    )
    for path in ("/v1/games/missing", "/v1/games/missing/history", "/v1/games/missing/watch"):
        await expect_error(rest, "GET", path, (404, "NOT_FOUND", "GAME_NOT_FOUND"))
    for query in (
        "fromVersion=abc",
        "pageSize=-1",
        "colour=red",
        "seatToken=x",
        "pageSize=1&pageSize=2",
    ):
        await expect_error(
            rest,
            "GET",
            f"/v1/games/{gid}/history?{query}",
            (400, "INVALID_ARGUMENT", "MALFORMED_REQUEST"),
        )


async def test_transport_errors_share_the_error_shape(rest: Rest) -> None:
    body = await expect_error(
        rest, "GET", "/v1/nothing-here", (404, "NOT_FOUND", "ROUTE_NOT_FOUND")
    )
    assert body["error"]["message"] == "there is no resource at /v1/nothing-here; see docs/rest.md"
    body = await expect_error(
        rest, "GET", "/v1/games/abc/moves", (405, "UNIMPLEMENTED", "METHOD_NOT_ALLOWED")
    )
    assert body["error"]["message"] == "GET is not allowed on /v1/games/abc/moves; use POST"
    _, _, headers = await rest.call("GET", "/v1/games/abc/moves")
    assert headers["Allow"] == "POST"
    big = await expect_error(
        rest,
        "POST",
        "/v1/games",
        (413, "RESOURCE_EXHAUSTED", "REQUEST_TOO_LARGE"),
        raw=b" " * (4 * 1024 * 1024 + 1),
    )
    assert big["error"]["message"] == "the body is larger than 4194304 bytes"


async def test_store_unavailable_is_503(rest: Rest, monkeypatch: pytest.MonkeyPatch) -> None:
    game = await new_nim(rest)

    async def unreachable(*args: Any, **kwargs: Any) -> Any:
        raise StoreUnavailable("connection refused")

    monkeypatch.setattr(rest.app.store, "load", unreachable)
    await expect_error(
        rest,
        "POST",
        f"/v1/games/{game.game_id}/moves",
        (503, "UNAVAILABLE", "STORE_UNAVAILABLE"),
        body=take(1, 0, "k"),
        token=game.tokens[0],
    )
    monkeypatch.undo()
    # Nothing was applied: the same key now applies the move once.
    result = await rest.ok(
        "POST", f"/v1/games/{game.game_id}/moves", token=game.tokens[0], body=take(1, 0, "k")
    )
    assert result["version"] == "1" and result["replayed"] is False


async def test_a_bug_is_a_terse_500_and_logged_whole(
    rest: Rest, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken() -> list[service_pb2.GameType]:
        raise RuntimeError("secret internals")

    monkeypatch.setattr(rest.app, "list_game_types", broken)
    with structlog.testing.capture_logs() as logs:
        status, body, _ = await rest.call("GET", "/v1/game-types")
    assert status == 500
    assert body == {
        "error": {
            "code": "INTERNAL",
            "reason": "INTERNAL",
            "message": "internal error",
            "metadata": {},
        }
    }
    (failure,) = [e for e in logs if e["event"] == "http_failed"]
    assert failure["log_level"] == "error" and failure["exc_info"] is True
    (access,) = [e for e in logs if e["event"] == "http"]
    assert (access["status"], access["code"]) == (500, "INTERNAL")
