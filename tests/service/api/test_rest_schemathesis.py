"""Schemathesis fuzzes the REST face against its own /openapi.json.

A throwaway ``throneroom-server`` (the real command, fixture games on) on free
ports, first over the memory store, then, shorter, over a throwaway Redis.
Schemathesis (pinned in the dev group) generates requests from the document,
follows its links (a created game's id into every operation on a game) and
checks every answer: no 5xx, only documented status codes, bodies and
headers that conform to the document's schemas. A fixed seed keeps the runs
reproducible; ``SCHEMATHESIS_SEED=random`` (or a number) explores others.

The watch route is left out: a stream of a live game does not end, so it
cannot be read to its end. tests/service/test_rest_watch.py and
test_malformed_rest.py cover it.
"""

from __future__ import annotations

import os
import subprocess
import sys
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from throneroom_dev.processes import RedisServerError, free_port, wait_for_port

BIN = Path(sys.executable).parent
CHECKS = (
    "not_a_server_error",
    "status_code_conformance",
    "content_type_conformance",
    "response_headers_conformance",
    "response_schema_conformance",
)
SEED = "20261130"


@contextmanager
def _server(tmp_path: Path, redis_url: str | None = None) -> Iterator[str]:
    http = f"127.0.0.1:{free_port()}"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("THRONEROOM_", "REDIS_"))}
    env.update(
        THRONEROOM_FIXTURE_GAMES="1",
        THRONEROOM_LOG_LEVEL="warning",
        THRONEROOM_LISTEN=f"127.0.0.1:{free_port()}",
        THRONEROOM_HTTP_LISTEN=http,
    )
    if redis_url:
        env["REDIS_URL"] = redis_url
    log = tmp_path / "server.log"
    with log.open("w") as out:
        process = subprocess.Popen(
            [str(BIN / "throneroom-server")], stdout=out, stderr=subprocess.STDOUT, env=env
        )
    try:
        try:  # 60 s only against a hang; nothing asserts on time
            wait_for_port(int(http.rsplit(":", 1)[1]), timeout=60, proc=process)
        except (RedisServerError, TimeoutError) as error:
            raise AssertionError(f"the server did not start:\n{log.read_text()}") from error
        with urllib.request.urlopen(f"http://{http}/healthz", timeout=10) as health:
            assert health.status == 200  # listening: serving
        yield f"http://{http}"
    finally:
        process.terminate()
        process.wait(30)
        server_log = log.read_text()
        assert "Traceback" not in server_log, server_log


def _schemathesis(base: str, tmp_path: Path, *, examples: int) -> None:
    seed = os.environ.get("SCHEMATHESIS_SEED", SEED)
    command = [
        str(BIN / "schemathesis"),
        "run",
        f"{base}/openapi.json",
        "--checks",
        ",".join(CHECKS),
        "--phases",
        "examples,fuzzing,stateful",
        "--max-examples",
        str(examples),
        "--exclude-path",
        "/v1/games/{game_id}/watch",
        "--workers",
        "1",
        "--request-timeout",
        "20",
        "--suppress-health-check",
        "too_slow",
    ]
    if seed != "random":
        command += ["--seed", seed]
    done = subprocess.run(
        command, cwd=tmp_path, capture_output=True, text=True, timeout=900, check=False
    )
    report = done.stdout + done.stderr
    assert done.returncode == 0, report
    assert " passed" in report and "failed" not in report.split("SUMMARY")[-1], report


@pytest.mark.slow  # a fuzzing pass
def test_the_rest_face_survives_schemathesis_on_the_memory_store(tmp_path: Path) -> None:
    with _server(tmp_path) as base:
        _schemathesis(base, tmp_path, examples=15)


@pytest.mark.usefixtures("clean_redis")
@pytest.mark.slow  # a fuzzing pass
def test_the_rest_face_survives_schemathesis_on_redis(tmp_path: Path, redis_url: str) -> None:
    with _server(tmp_path, redis_url) as base:
        _schemathesis(base, tmp_path, examples=6)
