"""ListGames and describe_language through both faces, over both stores."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator

import grpc
import pytest
from google.protobuf import json_format
from throneroom import notation
from throneroom.games import king_is_dead as kid
from throneroom.v1 import game_pb2, nim_pb2, service_pb2
from throneroom_server.app.lobby import MAX_PAGE_SIZE, cursor_of, page_token
from throneroom_server.games.registry import build_registry
from throneroom_server.store.base import Store

from tests.service.api.test_rest_watch import collect
from tests.service.helpers import Service, error_info, new_nim, nim_move
from tests.service.rest_helpers import Rest, expect_error, start, stop, ticking_clock

# -- the lobby over gRPC ------------------------------------------------------------------


async def test_list_games_over_grpc(service: Service) -> None:
    stub = service.stub
    started, players = await new_nim(stub)
    opened = await stub.CreateGame(
        service_pb2.CreateGameRequest(
            options=game_pb2.GameOptions(nim=nim_pb2.NimOptions(pile=5, max_take=2)),
            num_seats=3,
        )
    )
    await stub.JoinGame(service_pb2.JoinGameRequest(game_id=opened.game_id, seat=1))
    listed = await stub.ListGames(service_pb2.ListGamesRequest())
    assert {g.game_id for g in listed.games} == {opened.game_id, started}
    order = [(-g.created_unix_ms, g.game_id) for g in listed.games]
    assert order == sorted(order), "newest first (ties: by game id)"
    summary = next(g for g in listed.games if g.game_id == opened.game_id)
    assert listed.next_page_token == ""
    assert summary.game_type == "nim"
    assert (summary.seats, summary.seats_taken, list(summary.open_seats)) == (3, 1, [0, 2])
    assert summary.status == service_pb2.GAME_STATUS_OPEN
    assert summary.options.nim.pile == 5
    assert summary.created_unix_ms > 0
    assert not summary.HasField("time_control")
    only = await stub.ListGames(
        service_pb2.ListGamesRequest(status=service_pb2.GAME_STATUS_FILTER_STARTED)
    )
    assert [g.game_id for g in only.games] == [started]
    assert only.games[0].status == service_pb2.GAME_STATUS_STARTED
    for take in (3, 3, 3, 1):  # pile 10: the fourth take empties it
        version = len(
            (await stub.GetHistory(service_pb2.GetHistoryRequest(game_id=started))).entries
        )
        await stub.ApplyMove(
            service_pb2.ApplyMoveRequest(
                game_id=started,
                seat_token=players[version % 2].token,
                expected_version=version,
                move=nim_move(take),
                idempotency_key=f"k{version}",
            )
        )
    done = await stub.ListGames(
        service_pb2.ListGamesRequest(
            game_type="nim", status=service_pb2.GAME_STATUS_FILTER_FINISHED
        )
    )
    assert [(g.game_id, g.status, g.version) for g in done.games] == [
        (started, service_pb2.GAME_STATUS_FINISHED, 4)
    ]


@pytest.mark.parametrize(
    ("request_", "reason"),
    [
        (service_pb2.ListGamesRequest(page_size=MAX_PAGE_SIZE + 1), "MALFORMED_REQUEST"),
        (service_pb2.ListGamesRequest(page_size=-1), "MALFORMED_REQUEST"),
        (service_pb2.ListGamesRequest(status=7), "MALFORMED_REQUEST"),  # type: ignore[arg-type]
        (service_pb2.ListGamesRequest(page_token="nope"), "MALFORMED_REQUEST"),
        (service_pb2.ListGamesRequest(page_token=page_token("x:y")), "MALFORMED_REQUEST"),
        (service_pb2.ListGamesRequest(game_type="chess"), "UNKNOWN_GAME_TYPE"),
    ],
)
async def test_bad_list_requests_are_invalid(
    service: Service, request_: service_pb2.ListGamesRequest, reason: str
) -> None:
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        await service.stub.ListGames(request_)
    assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert error_info(caught.value).reason == reason


def test_page_tokens_round_trip() -> None:
    member = "999999999998999:abc123:nim"
    assert cursor_of(page_token(member)) == member
    assert page_token("") == ""
    assert cursor_of("") == ""


# -- the lobby over REST --------------------------------------------------------------------


@pytest.fixture
async def rest(store: Store) -> AsyncIterator[Rest]:
    service = await start(store, games=build_registry(), clock=ticking_clock())
    yield service
    await stop(service)


async def _create(rest: Rest, game: str, seats: int = 2) -> str:
    body = {"options": {game: {}}, "numSeats": seats, "seed": 5}
    return str((await rest.ok("POST", "/v1/games", body=body))["gameId"])


async def test_list_games_over_rest_pages_and_filters(rest: Rest) -> None:
    ids = [await _create(rest, "kingIsDead") for _ in range(5)]
    life = await _create(rest, "kingsLife", 4)
    await rest.ok("POST", f"/v1/games/{ids[0]}/seats", body={})
    await rest.ok("POST", f"/v1/games/{ids[0]}/seats", body={})
    first = await rest.ok("GET", "/v1/games?pageSize=2")
    assert [g["gameId"] for g in first["games"]] == [life, ids[4]]
    rest_ids: list[str] = []
    token = first["nextPageToken"]
    while token:
        page = await rest.ok("GET", f"/v1/games?page_size=2&page_token={token}")
        rest_ids += [g["gameId"] for g in page["games"]]
        token = page["nextPageToken"]
    assert rest_ids == [ids[3], ids[2], ids[1], ids[0]]
    kid_open = await rest.ok("GET", "/v1/games?gameType=king_is_dead&status=open")
    assert [g["gameId"] for g in kid_open["games"]] == [ids[4], ids[3], ids[2], ids[1]]
    full = await rest.ok("GET", "/v1/games?status=GAME_STATUS_FILTER_STARTED")
    (summary,) = full["games"]
    assert summary == {
        "gameId": ids[0],
        "gameType": "king_is_dead",
        "seats": 2,
        "seatsTaken": 2,
        "openSeats": [],
        "status": "GAME_STATUS_STARTED",
        "version": "0",
        "createdUnixMs": summary["createdUnixMs"],
        "options": summary["options"],
    }
    assert list(summary["options"]) == ["kingIsDead"]
    assert "seatToken" not in json.dumps(full) and "displayName" not in json.dumps(full)


async def test_bad_list_queries_are_400(rest: Rest) -> None:
    for query in ("pageSize=101", "pageSize=abc", "status=closed", "pageToken=zz", "gameType=go"):
        body = await expect_error(
            rest,
            "GET",
            f"/v1/games?{query}",
            (
                400,
                "INVALID_ARGUMENT",
                "UNKNOWN_GAME_TYPE" if "go" in query else "MALFORMED_REQUEST",
            ),
        )
        assert body["error"]["message"]


# -- descriptions ------------------------------------------------------------------------


async def _king_is_dead(rest: Rest) -> tuple[str, list[str]]:
    gid = await _create(rest, "kingIsDead")
    tokens = [
        (await rest.ok("POST", f"/v1/games/{gid}/seats", body={}))["seatToken"] for _ in range(2)
    ]
    return gid, tokens


async def test_legal_moves_are_described_in_the_asked_language(rest: Rest) -> None:
    gid, tokens = await _king_is_dead(rest)
    snap = (await rest.ok("GET", f"/v1/games/{gid}"))["snapshot"]
    seat = snap["toAct"][0]
    plain = await rest.ok("GET", f"/v1/games/{gid}/legal-moves", token=tokens[seat])
    assert plain["descriptions"] == []  # nothing when not asked
    kid_notation = notation.for_game("king_is_dead")
    for lang in ("en", "es", "pt"):
        described = await rest.ok(
            "GET", f"/v1/games/{gid}/legal-moves?describeLanguage={lang}", token=tokens[seat]
        )
        assert len(described["descriptions"]) == len(described["moves"]) > 0
        for move, words in zip(described["moves"], described["descriptions"], strict=True):
            inner = json_format.ParseDict(move, game_pb2.Move()).king_is_dead
            assert words == {
                "notation": kid_notation.format_move(inner),
                "text": kid.describe_move(inner, lang, viewer=seat),
            }
    spanish = await rest.ok(
        "GET", f"/v1/games/{gid}/legal-moves?describe_language=es", token=tokens[seat]
    )
    english = await rest.ok(
        "GET", f"/v1/games/{gid}/legal-moves?describe_language=en", token=tokens[seat]
    )
    assert [d["text"] for d in spanish["descriptions"]] != [
        d["text"] for d in english["descriptions"]
    ]
    await expect_error(
        rest,
        "GET",
        f"/v1/games/{gid}/legal-moves?describeLanguage=fr",
        (400, "INVALID_ARGUMENT", "MALFORMED_REQUEST"),
        token=tokens[seat],
    )


async def _play_one(rest: Rest, gid: str, tokens: list[str], version: int) -> int:
    snap = (await rest.ok("GET", f"/v1/games/{gid}"))["snapshot"]
    seat = int(snap["toAct"][0])
    moves = await rest.ok("GET", f"/v1/games/{gid}/legal-moves", token=tokens[seat])
    await rest.ok(
        "POST",
        f"/v1/games/{gid}/moves",
        token=tokens[seat],
        body={
            "expectedVersion": version,
            "move": moves["moves"][0],
            "idempotencyKey": f"k{version}",
        },
    )
    return seat


async def test_history_and_watch_describe_moves_and_events(rest: Rest) -> None:
    gid, tokens = await _king_is_dead(rest)
    movers = [await _play_one(rest, gid, tokens, v) for v in range(3)]
    history = await rest.ok(
        "GET", f"/v1/games/{gid}/history?describeLanguage=pt", token=tokens[movers[0]]
    )
    assert [e["version"] for e in history["entries"]] == ["1", "2", "3"]
    for entry, mover in zip(history["entries"], movers, strict=True):
        events = [json_format.ParseDict(e, game_pb2.Event()).king_is_dead for e in entry["events"]]
        assert entry["eventTexts"] == [
            kid.describe_event(e, "pt", viewer=movers[0]) for e in events
        ]
        assert entry["eventTexts"], "every move has events"
        # The move is described to the seat that made it only (hidden information).
        assert ("moveDescription" in entry) == (mover == movers[0])
    spectator = await rest.ok("GET", f"/v1/games/{gid}/history?describeLanguage=en")
    assert all("moveDescription" not in e for e in spectator["entries"])
    assert all(e["eventTexts"] for e in spectator["entries"])
    plain = await rest.ok("GET", f"/v1/games/{gid}/history")
    assert all(e["eventTexts"] == [] for e in plain["entries"])

    snap = (await rest.ok("GET", f"/v1/games/{gid}"))["snapshot"]
    seat = int(snap["toAct"][0])
    frames = await collect(
        rest,
        f"/v1/games/{gid}/watch?fromVersion=2&withLegalMoves=true&includeCurrent=true"
        "&describeLanguage=es",
        token=tokens[seat],
        until=1,
    )
    update = json.loads(frames[0]["data"])["update"]
    assert update["version"] == "3"
    assert len(update["eventTexts"]) == len(update["events"]) > 0
    assert len(update["legalMoveDescriptions"]) == len(update["legalMoves"]) > 0
    first = json_format.ParseDict(update["legalMoves"][0], game_pb2.Move()).king_is_dead
    assert update["legalMoveDescriptions"][0]["text"] == kid.describe_move(first, "es", viewer=seat)
    assert ("moveDescription" in update) == (movers[2] == seat)
    async with rest.session.get(
        rest.base + f"/v1/games/{gid}/watch?describeLanguage=xx", headers={}
    ) as response:
        assert response.status == 400


async def test_watch_over_grpc_describes_updates(service: Service) -> None:
    stub = service.stub
    gid, players = await new_nim(stub)
    await stub.ApplyMove(
        service_pb2.ApplyMoveRequest(
            game_id=gid,
            seat_token=players[0].token,
            expected_version=0,
            move=nim_move(2),
            idempotency_key="a",
        )
    )
    stream = stub.WatchGame(
        service_pb2.WatchGameRequest(
            game_id=gid, seat_token=players[0].token, describe_language="en"
        )
    )
    item = await stream.read()
    assert isinstance(item, service_pb2.WatchGameResponse)
    update = item.update
    stream.cancel()
    assert update.version == 1
    # nim has no texts of its own: the notation and the event's text.
    assert update.move_description == service_pb2.MoveDescription(
        notation=notation.for_game("nim").format_move(update_move(2)),
        text=update.move_description.text,
    )
    assert update.move_description.text
    assert len(update.event_texts) == len(update.events) > 0
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        await stub.GetHistory(service_pb2.GetHistoryRequest(game_id=gid, describe_language="de"))
    assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        await stub.ListLegalMoves(
            service_pb2.ListLegalMovesRequest(
                game_id=gid, seat_token=players[1].token, describe_language="EN"
            )
        )
    assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    listed = await stub.ListLegalMoves(
        service_pb2.ListLegalMovesRequest(
            game_id=gid, seat_token=players[1].token, describe_language="pt"
        )
    )
    assert [d.notation for d in listed.descriptions] == [
        notation.for_game("nim").format_move(m.nim) for m in listed.moves
    ]


def update_move(take: int) -> nim_pb2.NimMove:
    return nim_move(take).nim


async def test_a_finished_games_update_tells_its_outcome_in_the_readers_words(
    service: Service,
) -> None:
    stub = service.stub
    gid, players = await new_nim(stub, pile=4)
    for version, (seat, take) in enumerate([(0, 3), (1, 1)]):  # seat 1 takes the last stone
        await stub.ApplyMove(
            service_pb2.ApplyMoveRequest(
                game_id=gid,
                seat_token=players[seat].token,
                expected_version=version,
                move=nim_move(take),
                idempotency_key=f"k{version}",
            )
        )

    async def updates(token: str, lang: str) -> list[service_pb2.GameUpdate]:
        stream = stub.WatchGame(
            service_pb2.WatchGameRequest(game_id=gid, seat_token=token, describe_language=lang)
        )
        return [item.update async for item in stream if item.HasField("update")]

    winner = await updates(players[1].token, "es")
    assert [u.version for u in winner] == [1, 2]
    assert winner[0].outcome_text == ""  # not finished there
    assert winner[-1].outcome_text == "Victoria para ti: la última piedra tomada."
    loser = await updates(players[0].token, "pt")
    assert loser[-1].outcome_text == "Vitória para p1: a última pedra tirada."
    spectator = await updates("", "en")
    assert spectator[-1].outcome_text == "Victory for p1: the last stone taken."
    plain = await updates(players[1].token, "")
    assert plain[-1].outcome_text == "" and plain[-1].snapshot.outcome.summary


async def test_a_watch_opened_before_a_seat_was_taken_names_its_player(
    service: Service,
) -> None:
    stub = service.stub
    created = await stub.CreateGame(
        service_pb2.CreateGameRequest(
            options=game_pb2.GameOptions(nim=nim_pb2.NimOptions(pile=4, max_take=3)),
            num_seats=2,
            seed=1,
        )
    )
    gid = created.game_id
    first = await stub.JoinGame(service_pb2.JoinGameRequest(game_id=gid, display_name="Ann"))
    stream = stub.WatchGame(
        service_pb2.WatchGameRequest(
            game_id=gid, seat_token=first.seat_token, describe_language="en", include_current=True
        )
    )
    opened = await stream.read()
    assert isinstance(opened, service_pb2.WatchGameResponse) and not opened.update.snapshot.started
    second = await stub.JoinGame(service_pb2.JoinGameRequest(game_id=gid, display_name="Zed"))
    for version, (token, take) in enumerate([(first.seat_token, 3), (second.seat_token, 1)]):
        await stub.ApplyMove(
            service_pb2.ApplyMoveRequest(
                game_id=gid,
                seat_token=token,
                expected_version=version,
                move=nim_move(take),
                idempotency_key=f"k{version}",
            )
        )
    last = opened.update
    while not last.snapshot.finished:
        item = await stream.read()
        assert isinstance(item, service_pb2.WatchGameResponse)
        if item.HasField("update"):
            last = item.update
    assert last.outcome_text == "Victory for Zed: the last stone taken."
