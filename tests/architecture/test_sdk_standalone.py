"""The SDK works without the server distribution and without anything the
server alone depends on.

A child interpreter refuses to import throneroom_server, redis, hiredis,
structlog, aiohttp and the grpcio-status/health/reflection packages, then
imports every module of the SDK and asks for local play, which must fail with
ServerNotInstalled and a sentence saying what to install. The status trailer
the SDK reads itself (instead of grpcio-status) is checked against the one the
server writes.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import grpc
from google.rpc import code_pb2, status_pb2
from throneroom import GameNotFound, NotYourTurn, ThroneroomError, from_rpc_error
from throneroom.errors import STATUS_DETAILS_KEY

from tests.sdk.helpers import FakeRpcError

SERVER_ONLY = (
    "throneroom_server",
    "redis",
    "hiredis",
    "structlog",
    "aiohttp",
    "grpc_status",
    "grpc_health",
    "grpc_reflection",
)

CHILD = """
import importlib, importlib.abc, pkgutil, sys

BLOCKED = {blocked!r}

class Refuse(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.partition(".")[0] in BLOCKED:
            raise ModuleNotFoundError(f"No module named {{name!r}}", name=name)
        return None

sys.meta_path.insert(0, Refuse())

import throneroom
names = [m.name for m in pkgutil.walk_packages(throneroom.__path__, "throneroom.")]
# The websocket extra's one module needs aiohttp, blocked here (the server's too).
names.remove("throneroom.play_socket")
for name in names:
    importlib.import_module(name)
print("imported", len(names))

from throneroom.arena import ServerNotInstalled, embedded_client
try:
    with embedded_client():
        print("an embedded server started without the server package")
except ServerNotInstalled as error:
    print("refused:", error)

from throneroom.cli import main
print("cli exit", main(["selfplay", "nim", "--players", "2", "--seed", "1"]))

import asyncio
from throneroom.play import AsyncPlaySession
try:  # port 9: nothing listens there
    asyncio.run(AsyncPlaySession(None, "g", "t", websocket="127.0.0.1:9").__aenter__())
except Exception as error:
    print("websocket: " + type(error).__name__ + ": " + str(error))
"""


def test_the_sdk_imports_and_explains_itself_without_the_server(tmp_path: Path) -> None:
    child = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(CHILD.format(blocked=SERVER_ONLY))],
        cwd=tmp_path,  # not the repository: only the installed packages
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert child.returncode == 0, child.stderr
    lines = child.stdout.splitlines()
    imported = int(lines[0].removeprefix("imported "))
    assert imported >= 20  # every SDK module, the generated ones included
    assert lines[1].startswith("refused: playing without a server address needs")
    assert "pip install throneroom-server" in lines[1]
    assert lines[2] == "cli exit 1"
    assert "throneroom selfplay: playing without a server address needs" in child.stderr
    assert lines[3].startswith("websocket: ImportError: a play session on a WebSocket needs")
    assert "pip install 'throneroom[websocket]'" in lines[3]


def test_the_blocker_refuses_what_it_should(tmp_path: Path) -> None:
    # The same child, without the refusals, plays locally: so the refusal above
    # comes from the missing server, not from a broken child.
    child = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(CHILD.format(blocked=()))],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert child.returncode == 0, child.stderr
    lines = child.stdout.splitlines()
    assert lines[1] == "an embedded server started without the server package"
    assert lines[-2] == "cli exit 0"
    assert lines[-1].startswith("websocket: Unavailable: cannot open a play session at ws://")


def _with_trailer(code: grpc.StatusCode, message: str, trailer: bytes) -> FakeRpcError:
    error = FakeRpcError(code, message)
    error._trailing = ((STATUS_DETAILS_KEY, trailer),)
    return error


def test_the_sdk_reads_the_status_trailer_the_server_writes() -> None:
    # Written by grpcio-status (the server's encoder), read by the SDK alone.
    error = FakeRpcError(
        grpc.StatusCode.FAILED_PRECONDITION, "seat 1 moves", reason="NOT_YOUR_TURN"
    )
    assert error.trailing_metadata()[0][0] == STATUS_DETAILS_KEY
    typed = from_rpc_error(error)
    assert type(typed) is NotYourTurn
    assert typed.reason == "NOT_YOUR_TURN"


def test_a_trailer_that_contradicts_the_call_is_ignored() -> None:
    good = FakeRpcError(grpc.StatusCode.NOT_FOUND, "no such game", reason="GAME_NOT_FOUND")
    (_, trailer) = good.trailing_metadata()[0]
    status = status_pb2.Status.FromString(trailer)

    other_code = status_pb2.Status()
    other_code.CopyFrom(status)
    other_code.code = code_pb2.ABORTED
    typed = from_rpc_error(
        _with_trailer(grpc.StatusCode.NOT_FOUND, "no such game", other_code.SerializeToString())
    )
    assert (type(typed), typed.reason) == (GameNotFound, "")

    other_message = _with_trailer(grpc.StatusCode.NOT_FOUND, "another sentence", trailer)
    assert from_rpc_error(other_message).reason == ""

    corrupt = from_rpc_error(_with_trailer(grpc.StatusCode.INTERNAL, "boom", b"\xff\xff\xff"))
    assert (type(corrupt), corrupt.reason, corrupt.code) == (
        ThroneroomError,
        "",
        grpc.StatusCode.INTERNAL,
    )
