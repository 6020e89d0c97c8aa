"""CORS on the REST face: off by default, allowed origins only (api/cors.py)."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from throneroom_server.api.cors import ALLOWED_HEADERS, parse_origins
from throneroom_server.runtime.config import load_config
from throneroom_server.store.memory import MemoryStore

from tests.service.rest_helpers import Rest, new_nim, start, stop

ALLOWED = "https://play.example.org"
REFUSED = "https://evil.example.com"


@pytest.fixture
async def rest() -> AsyncIterator[Rest]:
    service = await start(MemoryStore(), cors=parse_origins(f"{ALLOWED}, http://localhost:5173"))
    yield service
    await stop(service)


def _preflight(origin: str, method: str = "POST", headers: str = "content-type") -> dict[str, str]:
    return {
        "Origin": origin,
        "Access-Control-Request-Method": method,
        "Access-Control-Request-Headers": headers,
    }


def test_origins_setting_is_parsed_and_checked() -> None:
    assert parse_origins(None) is None
    assert parse_origins("  ") is None
    policy = parse_origins("https://a.example, http://localhost:8000")
    assert policy is not None
    assert policy.allows("https://a.example") and policy.allows("http://localhost:8000")
    assert not policy.allows("https://b.example") and not policy.allows("http://a.example")
    wildcard = parse_origins("*")
    assert wildcard is not None and wildcard.allows("https://anything.example")
    for bad in ("a.example", "https://a.example/path", "ftp://a.example", "https://"):
        with pytest.raises(ValueError, match="must be"):
            parse_origins(bad)
    assert load_config([], {"THRONEROOM_CORS_ORIGINS": "*"}).cors_origins == "*"
    assert load_config([], {}).cors_origins is None
    with pytest.raises(SystemExit):
        load_config(["--cors-origins", "https://a.example/x"], {})


async def test_preflight_from_an_allowed_origin(rest: Rest) -> None:
    wanted = "authorization, content-type, idempotency-key"
    async with rest.session.options(
        rest.base + "/v1/games/abc/moves", headers=_preflight(ALLOWED, headers=wanted)
    ) as response:
        assert response.status == 204
        assert response.headers["Access-Control-Allow-Origin"] == ALLOWED
        assert set(response.headers["Access-Control-Allow-Methods"].split(", ")) == {"GET", "POST"}
        allowed = {h.lower() for h in response.headers["Access-Control-Allow-Headers"].split(", ")}
        assert {h.lower() for h in ALLOWED_HEADERS} <= allowed
        assert {"last-event-id", "authorization", "idempotency-key", "content-type"} <= allowed
        assert "Origin" in response.headers["Vary"]
        assert int(response.headers["Access-Control-Max-Age"]) > 0


async def test_preflight_from_a_refused_origin_is_403(rest: Rest) -> None:
    async with rest.session.options(
        rest.base + "/v1/games", headers=_preflight(REFUSED)
    ) as response:
        assert response.status == 403
        assert "Access-Control-Allow-Origin" not in response.headers
        body = await response.json()
        assert body["error"]["reason"] == "CORS_ORIGIN_NOT_ALLOWED"
    async with rest.session.options(
        rest.base + "/v1/nothing-here", headers=_preflight(ALLOWED)
    ) as response:
        assert response.status == 404


async def test_answers_carry_cors_headers_for_allowed_origins_only(rest: Rest) -> None:
    game = await new_nim(rest)
    status, _, headers = await rest.call("GET", "/v1/games", headers={"Origin": ALLOWED})
    assert status == 200
    assert headers["Access-Control-Allow-Origin"] == ALLOWED
    exposed = headers["Access-Control-Expose-Headers"]
    assert "Retry-After" in exposed and "X-Request-Id" in exposed
    # Errors too: a page must read the error body.
    status, _, headers = await rest.call(
        "GET", f"/v1/games/{game.game_id}/legal-moves", headers={"Origin": ALLOWED}
    )
    assert status == 401
    assert headers["Access-Control-Allow-Origin"] == ALLOWED
    status, _, headers = await rest.call("GET", "/v1/games", headers={"Origin": REFUSED})
    assert status == 200  # the server answers; the browser keeps it from the page
    assert "Access-Control-Allow-Origin" not in headers
    # The watch stream's headers go out before its first event.
    async with rest.session.get(
        rest.base + f"/v1/games/{game.game_id}/watch?includeCurrent=true",
        headers={"Origin": ALLOWED},
    ) as response:
        assert response.status == 200
        assert response.headers["Access-Control-Allow-Origin"] == ALLOWED


async def test_cors_is_off_by_default() -> None:
    service = await start(MemoryStore())
    try:
        status, _, headers = await service.call("GET", "/v1/games", headers={"Origin": ALLOWED})
        assert status == 200
        assert "Access-Control-Allow-Origin" not in headers
        async with service.session.options(
            service.base + "/v1/games", headers=_preflight(ALLOWED)
        ) as response:
            assert response.status == 405
            assert "Access-Control-Allow-Origin" not in response.headers
    finally:
        await stop(service)


async def test_any_origin() -> None:
    service = await start(MemoryStore(), cors=parse_origins("*"))
    try:
        _, _, headers = await service.call("GET", "/v1/games", headers={"Origin": REFUSED})
        assert headers["Access-Control-Allow-Origin"] == "*"
        async with service.session.options(
            service.base + "/v1/games", headers=_preflight(REFUSED)
        ) as response:
            assert response.status == 204
            assert response.headers["Access-Control-Allow-Origin"] == "*"
    finally:
        await stop(service)
