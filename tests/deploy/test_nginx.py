"""deploy/nginx.conf checked by nginx itself (Debian's package, the balancer
image's; `scripts/ensure-nginx.sh` installs it as `make test` does for
redis-server): `nginx -t` on the shipped file, a planted bad value refused,
and a gRPC Play stream and a WebSocket play session through a real nginx to
two real replicas on one throwaway Redis."""

from __future__ import annotations

import asyncio
import re
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path

import pytest
from throneroom import AsyncClient

from throneroom_dev.processes import free_port, server_process, wait_for_port

SHIPPED = Path(__file__).resolve().parents[2] / "deploy" / "nginx.conf"
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"


def _nginx_test(config: Path, workdir: Path) -> subprocess.CompletedProcess[str]:
    """`nginx -t` on ``config`` as the balancer sees it: inside a private mount
    namespace whose /etc/hosts maps compose's service name "throneroom" to
    this host (nginx resolves upstream names when it loads a configuration)."""
    hosts = workdir / "hosts"
    hosts.write_text("127.0.0.1 localhost throneroom\n")
    check = (
        f"mount --bind {hosts} /etc/hosts && exec {NGINX} -t -c {config}"
        f" -e {workdir / 'error.log'} -g 'pid {workdir / 'nginx.pid'};'"
    )
    return subprocess.run(
        ["unshare", "--mount", "sh", "-c", check],
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )


def test_nginx_accepts_the_shipped_configuration(tmp_path: Path) -> None:
    done = _nginx_test(SHIPPED, tmp_path)
    assert done.returncode == 0, done.stderr
    assert "test is successful" in done.stderr


def test_nginx_refuses_a_planted_bad_value(tmp_path: Path) -> None:
    # The value the balancer once shipped with: names and argument counts are
    # right (a parser passes it), nginx refuses it.
    text = SHIPPED.read_text()
    old_value = "grpc_next_upstream error timeout unavailable;"
    bad = re.sub(r"grpc_next_upstream [^;]*;", old_value, text)
    assert bad != text
    planted = tmp_path / "nginx.conf"
    planted.write_text(bad)
    done = _nginx_test(planted, tmp_path)
    assert done.returncode != 0
    assert 'invalid value "unavailable"' in done.stderr


def _behind(text: str, grpc: list[int], rest: list[int], listen: tuple[int, int]) -> str:
    """The shipped configuration with its upstream servers replaced by local
    replicas and its listen ports by free ones; every other line as shipped."""

    def servers(ports: list[int]) -> str:
        line = "        server 127.0.0.1:{} max_fails=3 fail_timeout=5s;"
        return "\n".join(line.format(port) for port in ports)

    text, n_grpc = re.subn(r"^\s*server throneroom:50051 [^;]*;$", servers(grpc), text, flags=re.M)
    text, n_rest = re.subn(r"^\s*server throneroom:8080 [^;]*;$", servers(rest), text, flags=re.M)
    text, n_l1 = re.subn(r"listen 50051 http2;", f"listen 127.0.0.1:{listen[0]} http2;", text)
    text, n_l2 = re.subn(r"listen 8080;", f"listen 127.0.0.1:{listen[1]};", text)
    assert (n_grpc, n_rest, n_l1, n_l2) == (1, 1, 1, 1), "the shipped file changed shape"
    return text


@contextmanager
def _nginx(config: str) -> Iterator[None]:
    with tempfile.TemporaryDirectory() as workdir:
        path = Path(workdir) / "nginx.conf"
        path.write_text(config)
        proc = subprocess.Popen(
            [
                NGINX,
                "-c",
                str(path),
                "-e",
                f"{workdir}/error.log",
                "-g",
                f"pid {workdir}/nginx.pid; daemon off;",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            yield
        finally:
            proc.terminate()
            proc.wait(20)


@contextmanager
def _replicas_behind_nginx(redis_url: str, count: int) -> Iterator[tuple[str, str]]:
    """``count`` server processes on one Redis behind the shipped nginx
    configuration; yields nginx's gRPC address and REST address."""
    with ExitStack() as stack:
        grpc_ports, rest_ports = [], []
        for _ in range(count):
            rest = free_port()
            env = {"THRONEROOM_HTTP_LISTEN": f"127.0.0.1:{rest}", "THRONEROOM_FIXTURE_GAMES": "1"}
            address, _pid = stack.enter_context(server_process(redis_url, env=env))
            wait_for_port(rest)
            grpc_ports.append(int(address.rsplit(":", 1)[1]))
            rest_ports.append(rest)
        listen = (free_port(), free_port())
        stack.enter_context(_nginx(_behind(SHIPPED.read_text(), grpc_ports, rest_ports, listen)))
        wait_for_port(listen[0])
        wait_for_port(listen[1])
        yield f"127.0.0.1:{listen[0]}", f"127.0.0.1:{listen[1]}"


async def _play_nim(grpc_address: str, websocket: str | None) -> list[int]:
    """Two play sessions (gRPC Play streams, or WebSocket sessions at
    ``websocket``) play a Nim game of 7 to the end; the versions each move made."""
    async with AsyncClient(grpc_address) as client:
        game_id = await client.create_game(
            "nim", seats=2, options={"pile": 7, "max_take": 3}, seed=5
        )
        handles = [await client.join(game_id, name="ada"), await client.join(game_id)]

        async def play(seat: int) -> list[int]:
            made = []
            token = handles[seat].token
            async with client.play_session(game_id, token, websocket=websocket) as session:
                async for update in session:
                    if update.legal_moves:
                        best = max(update.legal_moves, key=lambda m: m.nim.take)
                        made.append((await session.move(update.version, best)).version)
                assert update.snapshot.finished
            return made

        ada, bo = await asyncio.wait_for(asyncio.gather(play(0), play(1)), 60)
        return sorted(ada + bo)


@pytest.mark.slow
def test_grpc_play_and_websocket_sessions_work_through_nginx(redis_url: str) -> None:
    with _replicas_behind_nginx(redis_url, 2) as (grpc_address, rest_address):
        assert asyncio.run(_play_nim(grpc_address, None)) == [1, 2, 3]
        assert asyncio.run(_play_nim(grpc_address, rest_address)) == [1, 2, 3]
