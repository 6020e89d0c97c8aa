"""The OpenAPI document of the REST face (api/openapi.py): valid OpenAPI 3,
one operation per route, schemas that are the proto3 JSON mapping."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest
from aiohttp import web
from google.protobuf import json_format
from jsonschema import Draft4Validator
from openapi_spec_validator import validate
from throneroom.v1 import game_pb2, service_pb2
from throneroom_server.api.openapi import collect_schemas
from throneroom_server.api.rest import ROUTES, create_rest_app
from throneroom_server.api.web import CLIENT_ROUTES
from throneroom_server.app.service import App
from throneroom_server.games.registry import build_registry
from throneroom_server.store.memory import MemoryStore

from tests.service.rest_helpers import Rest, start, stop


@pytest.fixture
async def rest() -> AsyncIterator[Rest]:
    service = await start(MemoryStore(), games=build_registry())
    yield service
    await stop(service)


async def _spec(rest: Rest) -> dict[str, Any]:
    return await rest.ok("GET", "/openapi.json")


async def test_the_served_document_is_valid_openapi_3(rest: Rest) -> None:
    spec = await _spec(rest)
    validate(spec)  # raises on any violation of the OpenAPI 3.0 schema
    assert spec["openapi"].startswith("3.")
    assert spec["info"]["version"]


def test_every_route_has_an_operation_and_every_operation_a_route() -> None:
    web_app = create_rest_app(App(MemoryStore(), {}))
    spec = build_from_app(web_app)
    served = set()
    for route in web_app.router.routes():
        if route.method == "HEAD":  # aiohttp's automatic twin of a GET route
            continue
        if isinstance(route.resource, web.StaticResource):
            continue  # files (a web client's), not the API
        assert route.resource is not None
        if (route.method.lower(), route.resource.canonical) in CLIENT_ROUTES:
            continue  # the web client's files (api/web.py), not the API
        served.add((route.method.lower(), route.resource.canonical))
    documented = {(method, path) for path, ops in spec["paths"].items() for method in ops}
    assert served == documented
    assert len(served) == len(ROUTES)


def build_from_app(web_app: web.Application) -> dict[str, Any]:
    import json

    from throneroom_server.api.rest import OPENAPI_KEY

    return dict(json.loads(web_app[OPENAPI_KEY]))


async def test_schemas_follow_the_proto3_json_mapping(rest: Rest) -> None:
    schemas = (await _spec(rest))["components"]["schemas"]
    update = schemas["GameUpdate"]["properties"]
    assert update["version"] == {"type": "string", "format": "uint64", "pattern": "^[0-9]{1,20}$"}
    assert update["legalMoveDescriptions"] == {
        "type": "array",
        "items": {"$ref": "#/components/schemas/MoveDescription"},
    }
    assert update["eventTexts"] == {"type": "array", "items": {"type": "string"}}
    summary = schemas["GameSummary"]["properties"]
    assert summary["createdUnixMs"]["type"] == "string"
    assert summary["status"] == {"$ref": "#/components/schemas/GameStatus"}
    assert schemas["GameStatus"]["enum"] == [
        "GAME_STATUS_UNSPECIFIED",
        "GAME_STATUS_OPEN",
        "GAME_STATUS_STARTED",
        "GAME_STATUS_FINISHED",
    ]
    assert schemas["JoinGameRequest"]["properties"]["seat"] == {
        "type": "integer",
        "format": "int32",
    }
    assert "seatToken" in schemas["JoinGameResponse"]["properties"]
    # Every message the face can send or take is there, nested ones included.
    for name in ("KingIsDeadMove", "KingsLifeView", "KillTheKingEvent", "Error", "TimeControl"):
        assert name in schemas
    assert schemas["Move"]["not"]["anyOf"], "a oneof: at most one game's move"


async def test_error_statuses_are_the_ones_the_face_uses(rest: Rest) -> None:
    paths = (await _spec(rest))["paths"]
    moves = paths["/v1/games/{game_id}/moves"]["post"]["responses"]
    assert set(moves) == {"200", "400", "401", "403", "404", "409", "413", "415", "429", "503"}
    assert moves["409"]["content"]["application/json"]["schema"] == {
        "$ref": "#/components/schemas/Error"
    }
    assert set(paths["/v1/games"]["post"]["responses"]) >= {"201", "400", "415", "429", "503"}
    watch = paths["/v1/games/{game_id}/watch"]["get"]
    assert "text/event-stream" in watch["responses"]["200"]["content"]
    assert "204" in watch["responses"]
    assert {p["name"] for p in watch["parameters"]} >= {
        "game_id",
        "fromVersion",
        "describeLanguage",
        "Last-Event-ID",
    }
    lobby = {p["name"]: p for p in paths["/v1/games"]["get"]["parameters"]}
    assert set(lobby) == {"gameType", "status", "pageSize", "pageToken"}
    assert "open" in lobby["status"]["schema"]["enum"]
    assert paths["/v1/games/{game_id}/legal-moves"]["get"]["security"] == [{"seatToken": []}]


async def test_real_answers_validate_against_their_schemas(rest: Rest) -> None:
    """A King Is Dead game's answers, checked with a JSON Schema validator
    against the document's schemas (schemathesis does the same, fuzzing)."""
    spec = await _spec(rest)
    components = spec["components"]

    def check(name: str, body: dict[str, Any]) -> None:
        schema = {"$ref": f"#/components/schemas/{name}", "components": components}
        errors = list(Draft4Validator(schema).iter_errors(body))
        assert not errors, [e.message for e in errors[:3]]

    created = await rest.ok(
        "POST", "/v1/games", body={"options": {"kingIsDead": {}}, "numSeats": 2, "seed": 1}
    )
    check("CreateGameResponse", created)
    gid = created["gameId"]
    tokens = []
    for _ in range(2):
        joined = await rest.ok("POST", f"/v1/games/{gid}/seats", body={})
        check("JoinGameResponse", joined)
        tokens.append(joined["seatToken"])
    snap = await rest.ok("GET", f"/v1/games/{gid}")
    check("GetGameResponse", snap)
    seat = snap["snapshot"]["toAct"][0]
    moves = await rest.ok(
        "GET", f"/v1/games/{gid}/legal-moves?describeLanguage=en", token=tokens[seat]
    )
    check("ListLegalMovesResponse", moves)
    applied = await rest.ok(
        "POST",
        f"/v1/games/{gid}/moves",
        token=tokens[seat],
        body={"expectedVersion": "0", "move": moves["moves"][0], "idempotencyKey": "a"},
    )
    check("ApplyMoveResponse", applied)
    check(
        "GetHistoryResponse", await rest.ok("GET", f"/v1/games/{gid}/history?describeLanguage=es")
    )
    check("ListGamesResponse", await rest.ok("GET", "/v1/games"))
    check("ListGameTypesResponse", await rest.ok("GET", "/v1/game-types"))
    status, body, _ = await rest.call("GET", "/v1/games/nope")
    assert status == 404
    check("Error", body)


def test_schemas_come_from_the_descriptors() -> None:
    schemas = collect_schemas([service_pb2.ApplyMoveRequest.DESCRIPTOR])
    fields = {f.json_name for f in service_pb2.ApplyMoveRequest.DESCRIPTOR.fields}
    assert set(schemas["ApplyMoveRequest"]["properties"]) == fields
    assert "Move" in schemas and "KingIsDeadMove" in schemas
    move = json_format.MessageToDict(game_pb2.Move(nim={"take": 2}))
    document = {"$ref": "#/components/schemas/Move", "components": {"schemas": schemas}}
    errors = list(Draft4Validator(document).iter_errors(move))
    assert not errors
