"""The lobby through the SDK: `Client.list_games` / `AsyncClient.list_games`
read every page lazily, newest first, filtered by type and status, up to a
limit; `throneroom lobby` prints it. Bad arguments fail before any call."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from throneroom import AsyncClient, Client
from throneroom.cli import main
from throneroom.errors import ThroneroomError
from throneroom.v1 import service_pb2
from throneroom_server.embedded import EmbeddedServer

Capture = pytest.CaptureFixture[str]


@pytest.fixture(scope="module")
def server() -> Iterator[EmbeddedServer]:
    # A server of its own: the lobby lists every game of the server.
    with EmbeddedServer(include_fixtures=True) as embedded:
        yield embedded


@pytest.fixture(scope="module")
def games(server: EmbeddedServer) -> dict[str, list[str]]:
    """12 Nim games, the first 3 with both seats taken, and 2 King's Life games."""
    with Client(server.address, timeout=10) as client:
        nim = [client.create_game("nim", seats=2) for _ in range(12)]
        for game_id in nim[:3]:
            client.join(game_id)
            client.join(game_id)
        kings_life = [client.create_game("kings_life", seats=4) for _ in range(2)]
    return {"nim": nim, "started": nim[:3], "kings_life": kings_life}


def test_every_page_is_read_newest_first(client: Client, games: dict[str, list[str]]) -> None:
    listed = list(client.list_games("nim", page_size=5))
    assert {g.game_id for g in listed} == set(games["nim"])
    assert len(listed) == 12  # three pages of 5, 5 and 2, nothing twice
    created = [g.created_unix_ms for g in listed]
    assert created == sorted(created, reverse=True)
    assert {g.game_type for g in listed} == {"nim"}


def test_status_type_and_limit(client: Client, games: dict[str, list[str]]) -> None:
    started = list(client.list_games("nim", status="started"))
    assert {g.game_id for g in started} == set(games["started"])
    assert all(g.status == service_pb2.GAME_STATUS_STARTED and g.seats_taken == 2 for g in started)
    opened = list(client.list_games("nim", status="open", page_size=4))
    assert {g.game_id for g in opened} == set(games["nim"]) - set(games["started"])
    assert all(list(g.open_seats) == [0, 1] for g in opened)
    assert len(list(client.list_games(status="any", limit=7, page_size=3))) == 7
    every = {g.game_id for g in client.list_games(page_size=100)}
    assert every == set(games["nim"]) | set(games["kings_life"])
    assert list(client.list_games("nim", status="finished")) == []


def test_bad_arguments_fail_before_any_call(client: Client) -> None:
    with pytest.raises(ValueError, match="unknown status 'closed'"):
        client.list_games(status="closed")
    with pytest.raises(ValueError, match="page_size 101"):
        client.list_games(page_size=101)
    with pytest.raises(ThroneroomError) as caught:
        list(client.list_games("no_such_game"))
    assert caught.value.code.name == "INVALID_ARGUMENT"


async def test_the_async_client_reads_the_same_pages(
    aclient: AsyncClient, games: dict[str, list[str]]
) -> None:
    listed = [g.game_id async for g in aclient.list_games("nim", page_size=5)]
    assert set(listed) == set(games["nim"]) and len(listed) == 12
    limited = [g async for g in aclient.list_games("nim", status="open", limit=2, page_size=1)]
    assert len(limited) == 2
    with pytest.raises(ValueError, match="unknown status"):
        aclient.list_games(status="closed")


def test_the_lobby_command(
    capsys: Capture, server: EmbeddedServer, games: dict[str, list[str]]
) -> None:
    assert main(["--server", server.address, "lobby", "kings_life"]) == 0
    out, _ = capsys.readouterr()
    lines = out.splitlines()
    assert len(lines) == 2
    assert {line.split()[0] for line in lines} == set(games["kings_life"])
    assert all("kings_life  open  0/4 seats (free: 0,1,2,3)" in line for line in lines)

    assert main(["--server", server.address, "--json", "lobby", "nim", "--status", "any"]) == 0
    out, _ = capsys.readouterr()
    assert len(json.loads(out)["games"]) == 12
    assert main(["--server", server.address, "lobby", "--limit", "3"]) == 0
    out, _ = capsys.readouterr()
    assert len(out.splitlines()) == 3
