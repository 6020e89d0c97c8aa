"""A play session's stream on a WebSocket: the service's ``GET /v1/play`` on
its REST port (docs/api.md, "Play sessions over a WebSocket").

The same session as the gRPC ``Play`` stream, cheaper for the server per
move. Binary frames carry the same ``PlayRequest``/``PlayResponse`` messages;
an error that ends the session is a text frame holding the REST face's error
body, raised here as the typed error the gRPC stream's status would have
raised. Used through ``AsyncClient.play_session(..., websocket=URL)``. Needs
aiohttp: ``pip install 'throneroom[websocket]'``.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from urllib.parse import urlsplit, urlunsplit

import aiohttp
import grpc

from throneroom.errors import ThroneroomError, Unavailable, from_play_error
from throneroom.v1 import service_pb2

__all__ = ["PATH", "SocketStream", "play_url"]

PATH = "/v1/play"

_ENDED = frozenset({aiohttp.WSCloseCode.OK, aiohttp.WSCloseCode.GOING_AWAY})
"""Close codes of a session that simply ended (the game delivered, the server
shutting down): the session ends as a gRPC stream ending with OK does."""


def play_url(address: str) -> str:
    """The session's URL from the REST face's address: ``host:port``,
    ``http(s)://host:port`` or ``ws(s)://host:port``, with or without the path."""
    if "://" not in address:
        address = f"http://{address}"
    parts = urlsplit(address)
    scheme = {"http": "ws", "https": "wss"}.get(parts.scheme, parts.scheme)
    if scheme not in ("ws", "wss"):
        raise ValueError(f"not an http(s) or ws(s) address: {address!r}")
    path = parts.path.rstrip("/")
    if not path.endswith(PATH):
        path += PATH
    return urlunsplit((scheme, parts.netloc, path, parts.query, ""))


def session_error(body: str) -> ThroneroomError:
    """The typed error of a text frame ending a session (the REST error body)."""
    try:
        error = json.loads(body)["error"]
        code = grpc.StatusCode[error["code"]].value[0]
        play_error = service_pb2.PlayError(
            code=code,
            reason=str(error["reason"]),
            message=str(error["message"]),
            metadata={str(k): str(v) for k, v in dict(error["metadata"]).items()},
        )
    except (ValueError, KeyError, TypeError, AttributeError):
        return ThroneroomError(f"the play session ended with an unreadable error: {body[:200]!r}")
    return from_play_error(play_error)


class SocketStream:
    """One session's WebSocket: ``write`` requests, iterate responses, ``close``."""

    def __init__(self, http: aiohttp.ClientSession, ws: aiohttp.ClientWebSocketResponse) -> None:
        self._http = http
        self._ws = ws

    @classmethod
    async def open(cls, address: str) -> SocketStream:
        """Connect (its own connection); raises Unavailable when it cannot."""
        url = play_url(address)
        http = aiohttp.ClientSession()
        try:
            ws = await http.ws_connect(url, max_msg_size=0)
        except (aiohttp.ClientError, OSError) as exc:
            await http.close()
            raise Unavailable(f"cannot open a play session at {url}: {exc}") from exc
        return cls(http, ws)

    async def write(self, request: service_pb2.PlayRequest) -> None:
        try:
            await self._ws.send_bytes(request.SerializeToString())
        except (aiohttp.ClientError, ConnectionError) as exc:
            raise Unavailable(f"the play session's connection was lost: {exc}") from exc

    async def __aiter__(self) -> AsyncIterator[service_pb2.PlayResponse]:
        """The session's responses; raises its ending error, or Unavailable when
        the connection is lost or closed in any other way than a session's end."""
        async for message in self._ws:
            if message.type is aiohttp.WSMsgType.BINARY:
                yield service_pb2.PlayResponse.FromString(message.data)
            elif message.type is aiohttp.WSMsgType.TEXT:
                raise session_error(message.data)
            else:  # ERROR: the connection failed under the read
                break
        code = self._ws.close_code
        if code not in _ENDED:
            raise Unavailable(f"the play session's connection closed (code {code})")

    async def close(self) -> None:
        await self._ws.close()
        await self._http.close()
