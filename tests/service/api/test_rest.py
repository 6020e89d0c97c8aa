"""The REST/JSON face through a real aiohttp server on a free port, over both stores:
the whole flow, idempotent retries, start-up and the access log.

Bodies are parsed back into the service's proto messages to prove the JSON
mirrors the gRPC contract.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
import structlog
from google.protobuf import json_format
from throneroom.v1 import service_pb2
from throneroom_server.api.rest import split_listen, start_rest
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


# -- the whole flow ---------------------------------------------------------------------


async def test_lists_game_types_as_proto_json(rest: Rest) -> None:
    body = await rest.ok("GET", "/v1/game-types")
    parsed = json_format.ParseDict(body, service_pb2.ListGameTypesResponse())
    (nim,) = parsed.game_types
    assert (nim.name, nim.min_seats, nim.max_seats) == ("nim", 2, 4)
    assert nim.default_options.nim.pile == 21
    # lowerCamelCase names, as the proto3 JSON mapping says.
    assert body["gameTypes"][0]["minSeats"] == 2
    assert body["gameTypes"][0]["hiddenInformation"] is True
    assert body["gameTypes"][0]["defaultOptions"] == {"nim": {"pile": 21, "maxTake": 3}}


async def test_play_nim_to_the_end(rest: Rest) -> None:
    status, created, headers = await rest.call(
        "POST", "/v1/games", body={"options": {"nim": {"pile": 5}}, "numSeats": 2, "seed": "7"}
    )
    assert status == 201
    game_id = created["gameId"]
    assert created["version"] == "0"  # uint64: a string in proto3 JSON, printed even when 0
    assert headers["Location"] == f"/v1/games/{game_id}"
    first = await rest.ok(
        "POST", f"/v1/games/{game_id}/seats", body={"seat": 1, "displayName": "Jo"}
    )
    second = await rest.ok("POST", f"/v1/games/{game_id}/seats", raw=b"")  # empty body: next seat
    assert (first["seat"], second["seat"]) == (1, 0)
    assert list(second) == ["seat", "seatToken"]  # the .proto's order, defaults included
    tokens = {1: first["seatToken"], 0: second["seatToken"]}
    version = 0
    while True:
        body = await rest.ok("GET", f"/v1/games/{game_id}")
        snap = json_format.ParseDict(body, service_pb2.GetGameResponse()).snapshot
        assert snap.version == version and snap.started
        assert "viewerSeat" not in body["snapshot"]
        assert list(body["snapshot"])[:4] == ["gameId", "gameType", "version", "numSeats"]
        if snap.finished:
            break
        (seat,) = snap.to_act
        moves = await rest.ok("GET", f"/v1/games/{game_id}/legal-moves", token=tokens[seat])
        parsed = json_format.ParseDict(moves, service_pb2.ListLegalMovesResponse())
        assert (parsed.version, parsed.seat) == (version, seat)
        assert moves["moves"] == [{"nim": {"take": n}} for n in range(1, len(moves["moves"]) + 1)]
        # A legal move goes back exactly as it came.
        result = await rest.ok(
            "POST",
            f"/v1/games/{game_id}/moves",
            token=tokens[seat],
            body={
                "expectedVersion": version,
                "move": moves["moves"][-1],
                "idempotencyKey": f"m{version}",
            },
        )
        applied = json_format.ParseDict(result, service_pb2.ApplyMoveResponse())
        version += 1
        assert applied.version == version and not applied.replayed
        assert result["replayed"] is False
        assert applied.snapshot.viewer_seat == seat
    assert list(snap.outcome.winners) == [1]  # 5 stones: seat 0 takes 3, seat 1 takes 2
    assert snap.outcome.termination == "last_stone"
    history = await rest.ok("GET", f"/v1/games/{game_id}/history")
    parsed_history = json_format.ParseDict(history, service_pb2.GetHistoryResponse())
    assert [(e.version, e.seat) for e in parsed_history.entries] == [(1, 0), (2, 1)]
    assert "nextFromVersion" not in history  # the last page says so by its absence
    assert history["currentVersion"] == "2"
    page = await rest.ok("GET", f"/v1/games/{game_id}/history?fromVersion=0&pageSize=1")
    assert [e["version"] for e in page["entries"]] == ["1"]
    assert page["nextFromVersion"] == "1"
    rest_page = await rest.ok("GET", f"/v1/games/{game_id}/history?from_version=1")
    assert [e["version"] for e in rest_page["entries"]] == ["2"]


async def test_views_are_redacted_per_seat(rest: Rest) -> None:
    game = await new_nim(rest)
    gid = game.game_id
    mine = (await rest.ok("GET", f"/v1/games/{gid}", token=game.tokens[0]))["snapshot"]
    spectator = (await rest.ok("GET", f"/v1/games/{gid}"))["snapshot"]
    assert mine["viewerSeat"] == 0 and "mySecret" in mine["view"]["nim"]
    assert "viewerSeat" not in spectator and "mySecret" not in spectator["view"]["nim"]
    assert [s["displayName"] for s in spectator["seats"]] == ["p0", "p1"]
    result = await rest.ok(
        "POST", f"/v1/games/{gid}/moves", token=game.tokens[0], body=take(1, 0, "a")
    )
    assert [next(iter(e["nim"])) for e in result["events"]] == ["took", "secretPeeked"]
    for token, kinds in (
        (game.tokens[0], ["took", "secretPeeked"]),
        (game.tokens[1], ["took"]),
        (None, ["took"]),
    ):
        history = await rest.ok("GET", f"/v1/games/{gid}/history", token=token)
        assert [next(iter(e["nim"])) for e in history["entries"][0]["events"]] == kinds


async def test_a_real_game_round_trips_through_json(store: Store) -> None:
    """Enums by name and nested oneofs of a real game survive the JSON mapping."""
    from throneroom_server.games.registry import build_registry

    service = await start(store, games=build_registry())
    try:
        created = await service.ok(
            "POST", "/v1/games", body={"options": {"kingIsDead": {}}, "numSeats": 2, "seed": 3}
        )
        gid = created["gameId"]
        tokens = [
            (await service.ok("POST", f"/v1/games/{gid}/seats", body={}))["seatToken"]
            for _ in range(2)
        ]
        for version in range(4):
            snap = (await service.ok("GET", f"/v1/games/{gid}"))["snapshot"]
            if snap["finished"]:
                break
            seat = snap["toAct"][0]
            moves = await service.ok("GET", f"/v1/games/{gid}/legal-moves", token=tokens[seat])
            assert moves["moves"], "a seat to act has legal moves"
            result = await service.ok(
                "POST",
                f"/v1/games/{gid}/moves",
                token=tokens[seat],
                body={
                    "expectedVersion": version,
                    "move": moves["moves"][0],
                    "idempotencyKey": f"k{version}",
                },
            )
            assert result["version"] == str(version + 1)
            parsed = json_format.ParseDict(result, service_pb2.ApplyMoveResponse())
            assert parsed.snapshot.view.WhichOneof("game") == "king_is_dead"
    finally:
        await stop(service)


# -- idempotency ----------------------------------------------------------------------------


async def test_idempotent_retry_returns_the_first_result(rest: Rest) -> None:
    game = await new_nim(rest)
    moves = f"/v1/games/{game.game_id}/moves"
    p0, p1 = game.tokens
    body = {"expectedVersion": 0, "move": {"nim": {"take": 2}}}
    first = await rest.ok(
        "POST", moves, token=p0, body=body, headers={"Idempotency-Key": "retry-me"}
    )
    again = await rest.ok(
        "POST", moves, token=p0, body=body, headers={"Idempotency-Key": "retry-me"}
    )
    in_body = await rest.ok("POST", moves, token=p0, body={**body, "idempotencyKey": "retry-me"})
    both = await rest.ok(
        "POST",
        moves,
        token=p0,
        body={**body, "idempotencyKey": "retry-me"},
        headers={"Idempotency-Key": "retry-me"},
    )
    assert first["replayed"] is False
    for retry in (again, in_body, both):
        assert retry["replayed"] is True
        assert retry["version"] == first["version"] == "1"
        assert retry["events"] == first["events"]
        assert retry["snapshot"] == first["snapshot"]
    history = await rest.ok("GET", f"/v1/games/{game.game_id}/history")
    assert [e["version"] for e in history["entries"]] == ["1"]
    # After the game moved on, the retry still answers with the first result.
    await rest.ok("POST", moves, token=p1, body=take(1, 1, "other"))
    third = await rest.ok(
        "POST", moves, token=p0, body=body, headers={"Idempotency-Key": "retry-me"}
    )
    assert third["replayed"] is True and third["snapshot"] == first["snapshot"]
    # The same key with a different move is refused, not applied.
    before = await rest.state_bytes(game.game_id, p0)
    await expect_error(
        rest,
        "POST",
        moves,
        (400, "INVALID_ARGUMENT", "IDEMPOTENCY_KEY_REUSED"),
        token=p0,
        body=take(1, 2, "retry-me"),
    )
    assert await rest.state_bytes(game.game_id, p0) == before


def test_listen_addresses() -> None:
    assert split_listen("127.0.0.1:8080") == ("127.0.0.1", 8080)
    assert split_listen("[::1]:0") == ("::1", 0)
    assert split_listen(":8080") == (None, 8080)
    for bad in ("8080", "localhost:http", ""):
        with pytest.raises(ValueError, match="host:port"):
            split_listen(bad)


async def test_a_taken_port_is_an_error(rest: Rest) -> None:
    port = rest.base.rsplit(":", 1)[1]
    with pytest.raises(OSError):
        await start_rest(rest.app, f"127.0.0.1:{port}")


# -- logging ----------------------------------------------------------------------------------


async def test_one_access_line_per_request_with_context_and_no_secrets(rest: Rest) -> None:
    game = await new_nim(rest)
    gid = game.game_id
    with structlog.testing.capture_logs(
        processors=[structlog.contextvars.merge_contextvars]
    ) as logs:
        _, _, headers = await rest.call(
            "POST",
            f"/v1/games/{gid}/moves",
            token=game.tokens[0],
            body=take(1, 0, "k"),
            headers={"X-Request-Id": "req-42"},
        )
        await rest.call(
            "POST", f"/v1/games/{gid}/moves", token=game.tokens[0], body=take(1, 0, "x")
        )
        await rest.call("GET", "/healthz")
    assert headers["X-Request-Id"] == "req-42"
    access = [e for e in logs if e["event"] == "http"]
    assert len(access) == 2  # the health probe writes none
    ok, rejected = access
    assert ok["request_id"] == "req-42"
    assert (ok["method"], ok["path"], ok["game_id"], ok["seat"]) == (
        "POST",
        f"/v1/games/{gid}/moves",
        gid,
        0,
    )
    assert (ok["status"], ok["code"], ok["version"]) == (200, "OK", 1)
    assert isinstance(ok["ms"], float)
    assert (rejected["status"], rejected["code"], rejected["reason"]) == (
        409,
        "ABORTED",
        "STALE_VERSION",
    )
    assert rejected["request_id"] != "req-42" and len(rejected["request_id"]) == 32
    assert "version" not in rejected  # no context left over from the previous request
    for token in game.tokens:
        assert token.split(".", 1)[1] not in repr(logs)


def test_http_listen_is_configurable() -> None:
    from throneroom_server.runtime.config import load_config

    assert load_config([], {}).http_listen is None
    assert load_config([], {"THRONEROOM_HTTP_LISTEN": ":8080"}).http_listen == ":8080"
    assert load_config(["--http-listen", "127.0.0.1:9"], {}).http_listen == "127.0.0.1:9"


async def test_the_server_starts_and_stops_the_rest_face() -> None:
    import aiohttp
    from throneroom_server.runtime.config import Config
    from throneroom_server.runtime.server import create_server
    from throneroom_server.store.memory import MemoryStore

    running = await create_server(
        Config(listen="127.0.0.1:0", http_listen="127.0.0.1:0", fixture_games=True), MemoryStore()
    )
    url = f"http://127.0.0.1:{running.http_port}/healthz"
    async with aiohttp.ClientSession() as session:
        async with session.get(url) as reply:
            assert (reply.status, await reply.json()) == (200, {"status": "SERVING"})
        await running.stop(1)
        with pytest.raises(aiohttp.ClientConnectionError):
            await session.get(url)
