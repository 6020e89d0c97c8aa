"""The sync client and its game handle against a real server (nim fixture)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from google.protobuf import descriptor_pb2
from throneroom import Client, GameHandle, Unavailable, unwrap, wrap_move, wrap_options
from throneroom.envelopes import message_class, set_option
from throneroom.v1 import game_pb2, king_is_dead_pb2, nim_pb2, service_pb2
from throneroom_server.embedded import EmbeddedServer

from tests.sdk.conftest import FAST_RETRIES
from tests.sdk.helpers import StubProxy, unavailable


def _started(client: Client, seats: int = 2, **options: int) -> tuple[str, list[GameHandle]]:
    game_id = client.create_game("nim", seats=seats, options=options or None, seed=11)
    return game_id, [client.join(game_id, name=f"p{i}") for i in range(seats)]


def test_game_types_list_nim_with_its_options(client: Client) -> None:
    types = {t.name: t for t in client.game_types()}
    nim = types["nim"]
    assert (nim.min_seats, nim.max_seats) == (2, 4)
    assert nim.hidden_information
    assert {o.name: o.default_value for o in nim.options} == {"pile": "21", "max_take": "3"}
    assert unwrap(nim.default_options) == nim_pb2.NimOptions(pile=21, max_take=3)


def test_join_gives_a_handle_with_seat_token_and_snapshot(client: Client) -> None:
    game_id = client.create_game("nim", seats=2, options={"pile": 10})
    ada = client.join(game_id, name="ada")
    assert (ada.game_id, ada.seat, ada.game_type, ada.version) == (game_id, 0, "nim", 0)
    assert ada.token and not ada.is_spectator
    assert not ada.started and not ada.finished and ada.outcome is None
    bo = client.join(game_id, name="bo")
    assert bo.seat == 1 and bo.started
    ada.refresh()
    assert ada.started
    assert ada.to_act == (0,) and ada.my_turn and not bo.my_turn
    assert [(s.seat, s.display_name) for s in ada.snapshot.seats] == [(0, "ada"), (1, "bo")]
    view = ada.view
    assert isinstance(view, nim_pb2.NimView)
    assert view.pile == 10 and view.HasField("my_secret")
    assert "seat 0" in repr(ada) and "nim" in repr(ada)


def test_spectator_sees_no_secret_and_attach_finds_the_seat(client: Client) -> None:
    game_id, (_, bo) = _started(client)
    watcher = client.spectate(game_id)
    assert watcher.seat is None and watcher.is_spectator and watcher.token is None
    assert not watcher.view.HasField("my_secret")
    again = client.attach(game_id, bo.token or "")
    assert again.seat == 1 and again.token == bo.token
    assert again.view.my_secret == bo.view.my_secret  # type: ignore[attr-defined]


def test_legal_moves_are_unwrapped_and_in_order(client: Client) -> None:
    _, (ada, bo) = _started(client, pile=5, max_take=3)
    assert ada.legal_moves() == [nim_pb2.NimMove(take=n) for n in (1, 2, 3)]
    assert [m.WhichOneof("game") for m in ada.legal_move_envelopes()] == ["nim"] * 3
    assert bo.legal_moves() == []


def test_legal_moves_refresh_a_stale_handle(client: Client) -> None:
    game_id, (ada, bo) = _started(client)
    stale = client.attach(game_id, bo.token or "")
    ada.play(nim_pb2.NimMove(take=1))
    assert stale.version == 0
    assert stale.legal_moves() == [nim_pb2.NimMove(take=n) for n in (1, 2, 3)]
    assert stale.version == 1 and stale.my_turn


def test_play_fills_expected_version_and_a_fresh_key(client: Client) -> None:
    _, (ada, bo) = _started(client)
    proxy = StubProxy(client.stub)
    proxy.record("ApplyMove")
    client.stub = proxy.as_stub()
    first = ada.play(nim_pb2.NimMove(take=2))
    bo.refresh()
    bo.play(wrap_move("nim", nim_pb2.NimMove(take=1)))  # an envelope works too
    ada.refresh()
    ada.play(nim_pb2.NimMove(take=1), idempotency_key="my-own-key")
    sent: list[service_pb2.ApplyMoveRequest] = proxy.calls["ApplyMove"]
    assert [r.expected_version for r in sent] == [0, 1, 2]
    assert all(re.fullmatch(r"[0-9a-f]{32}", r.idempotency_key) for r in sent[:2])
    assert sent[0].idempotency_key != sent[1].idempotency_key
    assert sent[2].idempotency_key == "my-own-key"
    assert [r.move for r in sent] == [wrap_move("nim", nim_pb2.NimMove(take=t)) for t in (2, 1, 1)]
    assert first.version == 1 and not first.replayed
    assert ada.version == 3  # the handle follows the response's snapshot


def test_play_rejects_another_games_move_locally(client: Client) -> None:
    _, (ada, _) = _started(client)
    with pytest.raises(TypeError, match="nim expects a NimMove"):
        ada.play(king_is_dead_pb2.KingIsDeadMove())
    with pytest.raises(TypeError, match="not a nim one"):
        ada.play(game_pb2.Move())


def test_lost_response_is_retried_with_the_same_key_and_applied_once(client: Client) -> None:
    """The first ApplyMove reaches the server but its answer is lost (UNAVAILABLE):
    the retry carries the same key and the server replays the first result."""
    game_id, (ada, _) = _started(client)
    proxy = StubProxy(client.stub)
    real_apply = client.stub.ApplyMove
    attempts: list[service_pb2.ApplyMoveRequest] = []

    def apply_then_lose_the_answer(request: service_pb2.ApplyMoveRequest, **kw: Any) -> Any:
        attempts.append(request)
        response = real_apply(request, **kw)
        if len(attempts) == 1:
            raise unavailable()
        return response

    proxy.override("ApplyMove", apply_then_lose_the_answer)
    client.stub = proxy.as_stub()
    response = ada.play(nim_pb2.NimMove(take=3))
    assert len(attempts) == 2
    assert attempts[0] == attempts[1]  # same key, same expected version, same move
    assert response.replayed and response.version == 1
    assert ada.version == 1
    history = client.history(game_id)
    assert [(e.version, e.seat) for e in history] == [(1, 0)]
    assert client.spectate(game_id).view.pile == 18  # type: ignore[attr-defined]


def test_request_lost_before_the_server_is_applied_by_the_retry(client: Client) -> None:
    game_id, (ada, _) = _started(client)
    proxy = StubProxy(client.stub)
    real_apply = client.stub.ApplyMove
    failures = iter([True, True, False])

    def fail_twice(request: service_pb2.ApplyMoveRequest, **kw: Any) -> Any:
        if next(failures):
            raise unavailable()
        return real_apply(request, **kw)

    proxy.override("ApplyMove", fail_twice)
    client.stub = proxy.as_stub()
    response = ada.play(nim_pb2.NimMove(take=1))
    keys = {r.idempotency_key for r in proxy.calls["ApplyMove"]}
    assert len(proxy.calls["ApplyMove"]) == 3 and len(keys) == 1
    assert not response.replayed and response.version == 1
    assert len(client.history(game_id)) == 1


def test_retries_give_up_with_unavailable(client: Client) -> None:
    game_id, (ada, _) = _started(client)
    proxy = StubProxy(client.stub)

    def always_down(request: Any, **kw: Any) -> Any:
        raise unavailable()

    proxy.override("ApplyMove", always_down)
    client.stub = proxy.as_stub()
    with pytest.raises(Unavailable):
        ada.play(nim_pb2.NimMove(take=1))
    assert len(proxy.calls["ApplyMove"]) == 1 + FAST_RETRIES
    assert client.get_game(game_id).version == 0


def test_create_and_join_are_not_retried(client: Client) -> None:
    proxy = StubProxy(client.stub)

    def down(request: Any, **kw: Any) -> Any:
        raise unavailable()

    proxy.override("CreateGame", down)
    client.stub = proxy.as_stub()
    with pytest.raises(Unavailable):
        client.create_game("nim", seats=2)
    assert len(proxy.calls["CreateGame"]) == 1


def test_replaying_a_key_through_the_raw_stub_applies_nothing(client: Client) -> None:
    game_id, (ada, _) = _started(client)
    first = ada.play(nim_pb2.NimMove(take=2), idempotency_key="once")
    again = client.call(
        client.stub.ApplyMove,
        service_pb2.ApplyMoveRequest(
            game_id=game_id,
            seat_token=ada.token or "",
            expected_version=0,
            move=wrap_move("nim", nim_pb2.NimMove(take=2)),
            idempotency_key="once",
        ),
    )
    assert again.replayed and again.version == first.version == 1
    assert client.get_game(game_id).version == 1


def test_join_keeps_the_seat_when_the_first_read_fails(client: Client) -> None:
    game_id = client.create_game("nim", seats=2)
    proxy = StubProxy(client.stub)

    def down(request: Any, **kw: Any) -> Any:
        raise unavailable()

    proxy.override("GetGame", down)
    client.stub = proxy.as_stub()
    with pytest.raises(Unavailable) as caught:
        client.join(game_id, name="ada")
    handle = caught.value.handle
    assert isinstance(handle, GameHandle) and handle.seat == 0 and handle.token
    client.stub = proxy.real
    assert client.attach(game_id, handle.token).seat == 0


def test_history_reads_every_page(client: Client) -> None:
    game_id, (ada, bo) = _started(client, pile=7, max_take=1)
    handles = [ada, bo]
    for turn in range(7):
        mover = handles[turn % 2]
        mover.refresh()
        mover.play(nim_pb2.NimMove(take=1))
    entries = client.history(game_id, page_size=2)
    assert [e.version for e in entries] == list(range(1, 8))
    assert [e.seat for e in entries] == [0, 1, 0, 1, 0, 1, 0]
    assert [e.version for e in client.history(game_id, from_version=5, page_size=1)] == [6, 7]
    # A seat sees its own private events; a spectator sees none of them.
    own = ada.history()
    assert {unwrap(e).WhichOneof("kind") for e in own[0].events} == {"took", "secret_peeked"}
    public = client.history(game_id)
    assert {unwrap(e).WhichOneof("kind") for e in public[0].events} == {"took"}
    ada.refresh()
    assert ada.finished and ada.winners == (0,)
    assert ada.outcome is not None and ada.outcome.termination == "last_stone"


def test_client_is_a_context_manager_and_closes(server: EmbeddedServer) -> None:
    with Client(server.address) as client:
        client.ping()
    with pytest.raises(ValueError):  # grpc refuses calls on a closed channel
        client.ping()


def test_default_address_comes_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("THRONEROOM_SERVER", "example.org:1234")
    with Client() as client:
        assert client.address == "example.org:1234"
    monkeypatch.delenv("THRONEROOM_SERVER")
    with Client() as client:
        assert client.address == "127.0.0.1:50051"


# -- envelopes and options -------------------------------------------------------


def test_wrap_and_unwrap_round_trip() -> None:
    move = wrap_move("nim", nim_pb2.NimMove(take=2))
    assert move.WhichOneof("game") == "nim" and unwrap(move) == nim_pb2.NimMove(take=2)
    assert wrap_move("nim", move) == move
    assert message_class(game_pb2.View, "nim") is nim_pb2.NimView
    with pytest.raises(ValueError, match="empty Move"):
        unwrap(game_pb2.Move())
    with pytest.raises(ValueError, match="unknown game type"):
        wrap_move("chess", nim_pb2.NimMove())


def test_options_from_a_mapping_message_or_defaults() -> None:
    assert unwrap(wrap_options("nim", {"pile": "0x10", "max_take": 2})) == nim_pb2.NimOptions(
        pile=16, max_take=2
    )
    assert unwrap(wrap_options("nim", nim_pb2.NimOptions(pile=3))) == nim_pb2.NimOptions(pile=3)
    defaults = wrap_options("nim")
    assert defaults.WhichOneof("game") == "nim" and unwrap(defaults) == nim_pb2.NimOptions()
    with pytest.raises(ValueError, match="has no option 'piles'"):
        wrap_options("nim", {"piles": 3})
    with pytest.raises(ValueError, match="whole number"):
        wrap_options("nim", {"pile": "lots"})


def test_set_option_converts_by_descriptor() -> None:
    # Bool, enum, string and repeated fields, on messages of the contract that have them.
    snapshot = service_pb2.GameSnapshot()
    set_option(snapshot, "finished", "yes")
    set_option(snapshot, "started", "off")
    set_option(snapshot, "game_type", "nim")
    set_option(snapshot, "to_act", "0,2")
    set_option(snapshot, "outcome.termination", "points")
    assert snapshot.finished and not snapshot.started
    assert snapshot.game_type == "nim" and list(snapshot.to_act) == [0, 2]
    assert snapshot.outcome.termination == "points"
    with pytest.raises(ValueError, match="true or false"):
        set_option(snapshot, "finished", "maybe")
    with pytest.raises(ValueError, match="group of options"):
        set_option(snapshot, "outcome", "x")
    # Enums by value name, with or without the enum's prefix, any case, or number.
    field = descriptor_pb2.FieldDescriptorProto()
    set_option(field, "type", "int32")
    assert field.type == descriptor_pb2.FieldDescriptorProto.TYPE_INT32
    set_option(field, "type", "TYPE_BOOL")
    assert field.type == descriptor_pb2.FieldDescriptorProto.TYPE_BOOL
    set_option(field, "label", 3)
    assert field.label == descriptor_pb2.FieldDescriptorProto.LABEL_REPEATED
    with pytest.raises(ValueError, match="is one of"):
        set_option(field, "type", "no_such_type")
