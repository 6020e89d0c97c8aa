"""Typed errors: the mapping from gRPC status + ErrorInfo, and every kind as the
real server raises it through the SDK."""

from __future__ import annotations

import socket

import grpc
import pytest
from throneroom import (
    Client,
    GameFinished,
    GameFull,
    GameNotFound,
    GameNotStarted,
    IllegalMove,
    InvalidArgument,
    InvalidMove,
    InvalidOptions,
    NotYourTurn,
    PermissionDenied,
    SeatTaken,
    StaleVersion,
    ThroneroomError,
    Unauthenticated,
    Unavailable,
    UnknownGameType,
    from_rpc_error,
)
from throneroom.errors import DeadlineExceeded, ResourceExhausted
from throneroom.v1 import game_pb2, nim_pb2, service_pb2
from throneroom_server.embedded import EmbeddedServer

from tests.sdk.conftest import FAST_RETRY
from tests.sdk.helpers import FakeRpcError

# -- the mapping ---------------------------------------------------------------

REASONS = [
    (grpc.StatusCode.INVALID_ARGUMENT, "MALFORMED_REQUEST", InvalidArgument),
    (grpc.StatusCode.INVALID_ARGUMENT, "IDEMPOTENCY_KEY_REUSED", InvalidArgument),
    (grpc.StatusCode.INVALID_ARGUMENT, "INVALID_MOVE", InvalidMove),
    (grpc.StatusCode.INVALID_ARGUMENT, "INVALID_OPTIONS", InvalidOptions),
    (grpc.StatusCode.INVALID_ARGUMENT, "UNKNOWN_GAME_TYPE", UnknownGameType),
    (grpc.StatusCode.FAILED_PRECONDITION, "ILLEGAL_MOVE", IllegalMove),
    (grpc.StatusCode.FAILED_PRECONDITION, "NOT_YOUR_TURN", NotYourTurn),
    (grpc.StatusCode.FAILED_PRECONDITION, "GAME_FINISHED", GameFinished),
    (grpc.StatusCode.FAILED_PRECONDITION, "SEAT_TAKEN", SeatTaken),
    (grpc.StatusCode.FAILED_PRECONDITION, "GAME_FULL", GameFull),
    (grpc.StatusCode.FAILED_PRECONDITION, "GAME_NOT_STARTED", GameNotStarted),
    (grpc.StatusCode.ABORTED, "STALE_VERSION", StaleVersion),
    (grpc.StatusCode.UNAUTHENTICATED, "SEAT_TOKEN_REQUIRED", Unauthenticated),
    (grpc.StatusCode.PERMISSION_DENIED, "SEAT_TOKEN_INVALID", PermissionDenied),
    (grpc.StatusCode.NOT_FOUND, "GAME_NOT_FOUND", GameNotFound),
    (grpc.StatusCode.UNAVAILABLE, "STORE_UNAVAILABLE", Unavailable),
    (grpc.StatusCode.UNAVAILABLE, "SHUTTING_DOWN", Unavailable),
]


@pytest.mark.parametrize(("code", "reason", "expected"), REASONS)
def test_each_reason_maps_to_its_exception(
    code: grpc.StatusCode, reason: str, expected: type[ThroneroomError]
) -> None:
    error = from_rpc_error(FakeRpcError(code, "a sentence", reason=reason, metadata={"k": "v"}))
    assert type(error) is expected
    assert error.code == code
    assert error.reason == reason
    assert error.message == "a sentence"
    assert error.metadata == {"k": "v"}
    assert str(error) == f"{reason}: a sentence"


def test_failed_precondition_subclasses_are_illegal_moves() -> None:
    for cls in (NotYourTurn, GameFinished, SeatTaken, GameFull, GameNotStarted):
        assert issubclass(cls, IllegalMove)
    assert issubclass(InvalidMove, InvalidArgument)
    assert issubclass(InvalidArgument, ThroneroomError)


def test_stale_version_carries_the_current_version() -> None:
    error = from_rpc_error(
        FakeRpcError(
            grpc.StatusCode.ABORTED,
            "chosen at 3, now 5",
            reason="STALE_VERSION",
            metadata={"current_version": "5"},
        )
    )
    assert isinstance(error, StaleVersion)
    assert error.current_version == 5


def test_without_details_the_code_decides() -> None:
    error = from_rpc_error(FakeRpcError(grpc.StatusCode.NOT_FOUND, "gone"))
    assert type(error) is GameNotFound
    assert error.reason == ""
    assert str(error) == "gone"
    aborted = from_rpc_error(FakeRpcError(grpc.StatusCode.ABORTED, "x"))
    assert isinstance(aborted, StaleVersion)
    assert aborted.current_version == -1


def test_unknown_reason_falls_back_on_the_code() -> None:
    error = from_rpc_error(
        FakeRpcError(grpc.StatusCode.FAILED_PRECONDITION, "new rule", reason="SOMETHING_NEW")
    )
    assert type(error) is IllegalMove
    assert error.reason == "SOMETHING_NEW"


def test_foreign_domain_reason_is_ignored() -> None:
    error = from_rpc_error(
        FakeRpcError(
            grpc.StatusCode.FAILED_PRECONDITION, "x", reason="NOT_YOUR_TURN", domain="elsewhere"
        )
    )
    assert type(error) is IllegalMove
    assert error.reason == ""


def test_other_codes_become_the_base_error_with_their_code() -> None:
    error = from_rpc_error(FakeRpcError(grpc.StatusCode.INTERNAL, ""))
    assert type(error) is ThroneroomError
    assert error.code == grpc.StatusCode.INTERNAL
    assert error.message == "internal"


def test_deadline_and_quota_have_their_own_classes() -> None:
    deadline = from_rpc_error(FakeRpcError(grpc.StatusCode.DEADLINE_EXCEEDED, ""))
    assert type(deadline) is DeadlineExceeded
    assert deadline.message == "deadline exceeded" and deadline.retry_delay is None
    quota = from_rpc_error(FakeRpcError(grpc.StatusCode.RESOURCE_EXHAUSTED, "slow down"))
    assert type(quota) is ResourceExhausted and quota.retry_delay is None


# -- every kind from the real server --------------------------------------------


def test_invalid_move_from_the_engine(client: Client) -> None:
    game_id = client.create_game("nim", seats=2)
    ada, _ = client.join(game_id), client.join(game_id)
    with pytest.raises(InvalidMove) as caught:
        ada.play(nim_pb2.NimMove(take=0))
    assert caught.value.code == grpc.StatusCode.INVALID_ARGUMENT
    assert "at least one stone" in caught.value.message
    assert ada.refresh().version == 0


def test_empty_move_envelope_is_invalid_on_the_server(client: Client) -> None:
    game_id = client.create_game("nim", seats=2)
    ada, _ = client.join(game_id), client.join(game_id)
    assert ada.token is not None
    request = service_pb2.ApplyMoveRequest(
        game_id=game_id, seat_token=ada.token, move=game_pb2.Move(), idempotency_key="k1"
    )
    with pytest.raises(InvalidMove) as caught:
        client.call(client.stub.ApplyMove, request)
    assert caught.value.reason == "INVALID_MOVE"


def test_malformed_request(client: Client) -> None:
    with pytest.raises(InvalidArgument) as caught:
        client.spectate("not a game id!")
    assert caught.value.reason == "MALFORMED_REQUEST"


def test_invalid_options_and_seat_count(client: Client) -> None:
    with pytest.raises(InvalidOptions):
        client.create_game("nim", seats=2, options={"pile": 5000})
    with pytest.raises(InvalidOptions):
        client.create_game("nim", seats=9)


def test_unknown_game_type_on_a_server_without_fixtures() -> None:
    with (
        EmbeddedServer() as plain,
        Client(plain.address) as client,
        pytest.raises(UnknownGameType) as caught,
    ):
        client.create_game("nim", seats=2)
    assert "nim" in caught.value.message


def test_unknown_game_type_for_the_sdk_is_a_value_error(client: Client) -> None:
    with pytest.raises(ValueError, match="unknown game type 'chess'"):
        client.create_game("chess", seats=2)


def test_illegal_move_names_the_position(client: Client) -> None:
    game_id = client.create_game("nim", seats=2, options={"pile": 7, "max_take": 2})
    ada, _ = client.join(game_id), client.join(game_id)
    with pytest.raises(IllegalMove) as caught:
        ada.play(nim_pb2.NimMove(take=3))
    assert type(caught.value) is IllegalMove
    assert caught.value.reason == "ILLEGAL_MOVE"
    assert "7 left" in caught.value.message


def test_not_your_turn(client: Client) -> None:
    game_id = client.create_game("nim", seats=2)
    _, bo = client.join(game_id), client.join(game_id)
    with pytest.raises(NotYourTurn):
        bo.play(nim_pb2.NimMove(take=1))


def test_game_not_started(client: Client) -> None:
    game_id = client.create_game("nim", seats=2)
    ada = client.join(game_id)
    assert not ada.started
    with pytest.raises(GameNotStarted):
        ada.play(nim_pb2.NimMove(take=1))


def test_game_finished(client: Client) -> None:
    game_id = client.create_game("nim", seats=2, options={"pile": 1})
    ada, bo = client.join(game_id), client.join(game_id)
    ada.play(nim_pb2.NimMove(take=1))
    assert ada.finished and ada.winners == (0,)
    bo.refresh()
    with pytest.raises(GameFinished):
        bo.play(nim_pb2.NimMove(take=1))


def test_seat_taken_and_game_full(client: Client) -> None:
    game_id = client.create_game("nim", seats=2)
    client.join(game_id, seat=1)
    with pytest.raises(SeatTaken):
        client.join(game_id, seat=1)
    client.join(game_id)
    with pytest.raises(GameFull):
        client.join(game_id)


def test_stale_version_refreshes_the_handle(client: Client) -> None:
    game_id = client.create_game("nim", seats=2, options={"pile": 9})
    ada, bo = client.join(game_id), client.join(game_id)
    ada.play(nim_pb2.NimMove(take=1))
    bo_stale = client.attach(game_id, bo.token or "")
    bo.refresh()
    bo.play(nim_pb2.NimMove(take=1))  # version 2
    ada.refresh()
    ada.play(nim_pb2.NimMove(take=1))  # version 3: bo_stale still thinks it is version 1
    assert bo_stale.version == 1
    with pytest.raises(StaleVersion) as caught:
        bo_stale.play(nim_pb2.NimMove(take=1))
    assert caught.value.current_version == 3
    assert bo_stale.version == 3  # refreshed, so the caller can choose again
    assert bo_stale.my_turn
    response = bo_stale.play(nim_pb2.NimMove(take=2))
    assert response.version == 4
    assert [e.version for e in client.history(game_id)] == [1, 2, 3, 4]


def test_unauthenticated(client: Client) -> None:
    game_id = client.create_game("nim", seats=2)
    client.join(game_id)
    client.join(game_id)
    watcher = client.spectate(game_id)
    with pytest.raises(Unauthenticated) as local:
        watcher.play(nim_pb2.NimMove(take=1))
    assert local.value.reason == "SEAT_TOKEN_REQUIRED"
    with pytest.raises(Unauthenticated) as remote:
        client.call(client.stub.ListLegalMoves, service_pb2.ListLegalMovesRequest(game_id=game_id))
    assert remote.value.code == grpc.StatusCode.UNAUTHENTICATED
    assert remote.value.reason == "SEAT_TOKEN_REQUIRED"


def test_permission_denied(client: Client) -> None:
    game_id = client.create_game("nim", seats=2)
    other = client.create_game("nim", seats=2)
    token = client.join(other).token or ""
    with pytest.raises(PermissionDenied):
        client.attach(game_id, "0." + "A" * 43)  # well-formed, wrong
    with pytest.raises(PermissionDenied):
        client.attach(game_id, token)


def test_game_not_found(client: Client) -> None:
    with pytest.raises(GameNotFound) as caught:
        client.spectate("feedface00000000")
    assert caught.value.reason == "GAME_NOT_FOUND"


def test_unavailable_after_retries() -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    with (
        Client(f"127.0.0.1:{port}", timeout=2, retry=FAST_RETRY) as client,
        pytest.raises(Unavailable) as caught,
    ):
        client.game_types()
    assert caught.value.code == grpc.StatusCode.UNAVAILABLE
