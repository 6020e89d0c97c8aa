"""A request aiohttp cannot parse is the client's fault: a 400, one info line,
no traceback in the log (found by schemathesis's NUL-byte header probe)."""

from __future__ import annotations

import asyncio
from urllib.parse import urlsplit

from structlog.testing import capture_logs
from throneroom_server.store.memory import MemoryStore

from tests.service.rest_helpers import start, stop


async def test_a_malformed_header_is_a_400_and_one_quiet_line() -> None:
    rest = await start(MemoryStore())
    try:
        address = urlsplit(rest.base)
        assert address.hostname is not None and address.port is not None
        with capture_logs() as logs:
            reader, writer = await asyncio.open_connection(address.hostname, address.port)
            writer.write(b"GET /v1/games HTTP/1.1\r\nHost: x\r\nX-Probe: a\x00b\r\n\r\n")
            await writer.drain()
            answer = await reader.read()
            writer.close()
            await writer.wait_closed()
        assert answer.split(b"\r\n")[0].endswith(b" 400 Bad Request"), answer[:200]
        malformed = [line for line in logs if line["event"] == "http_malformed"]
        assert len(malformed) == 1 and malformed[0]["log_level"] == "info", logs
        assert not [line for line in logs if line["log_level"] == "error"], logs
        assert "exc_info" not in malformed[0]
    finally:
        await stop(rest)
