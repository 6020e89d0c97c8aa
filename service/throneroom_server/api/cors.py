"""CORS for web front ends served from other origins (off unless configured).

``THRONEROOM_CORS_ORIGINS`` (``--cors-origins``) lists the allowed origins,
comma-separated (``https://play.example.org,http://localhost:5173``), or is
``*`` for any. Then:

* a preflight (``OPTIONS`` with ``Access-Control-Request-Method``) from an
  allowed origin is answered 204 with the methods and the request headers a
  client needs: Content-Type, Authorization (the seat token), Idempotency-Key,
  Last-Event-ID, X-Api-Key, X-Request-Id; from any other origin, 403;
* every answer to an allowed origin (errors and the SSE watch stream included)
  carries ``Access-Control-Allow-Origin`` and exposes Retry-After,
  X-Request-Id, Location and WWW-Authenticate to the page.

Credentials (cookies) are never used: the seat token travels in the
Authorization header, which a preflight allows without credentials.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from urllib.parse import urlsplit

from aiohttp import web
from aiohttp.typedefs import Middleware

ALLOWED_METHODS = ("GET", "POST")
ALLOWED_HEADERS = (
    "Content-Type",
    "Authorization",
    "Idempotency-Key",
    "Last-Event-ID",
    "X-Api-Key",
    "X-Request-Id",
)
EXPOSED_HEADERS = ("Retry-After", "X-Request-Id", "Location", "WWW-Authenticate")
MAX_AGE_SECONDS = 600

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


@dataclass(frozen=True)
class CorsPolicy:
    origins: frozenset[str]
    any_origin: bool = False

    def allows(self, origin: str) -> bool:
        return self.any_origin or origin in self.origins


def parse_origins(text: str | None) -> CorsPolicy | None:
    """The policy of a ``THRONEROOM_CORS_ORIGINS`` value (None: CORS off).
    Raises ValueError for an entry that is not ``*`` or an origin
    (``scheme://host[:port]``, no path)."""
    if text is None or not text.strip():
        return None
    origins: set[str] = set()
    any_origin = False
    for raw in text.split(","):
        entry = raw.strip()
        if entry == "*":
            any_origin = True
            continue
        parts = urlsplit(entry)
        if (
            parts.scheme not in {"http", "https"}
            or not parts.hostname
            or parts.path
            or parts.query
            or parts.fragment
            or parts.username
        ):
            raise ValueError(
                f"CORS origin {entry!r} must be '*' or scheme://host[:port] "
                "(http or https, no path)"
            )
        origins.add(entry.lower())
    return CorsPolicy(frozenset(origins), any_origin)


def _allow_origin(policy: CorsPolicy, origin: str) -> str:
    return "*" if policy.any_origin else origin


def cors_middleware(policy: CorsPolicy) -> Middleware:
    """Answers preflights (inside the request-context middleware, so they
    are logged like any request)."""

    @web.middleware
    async def cors(request: web.Request, handler: Handler) -> web.StreamResponse:
        origin = request.headers.get("Origin")
        wanted = request.headers.get("Access-Control-Request-Method")
        if request.method != "OPTIONS" or origin is None or wanted is None:
            return await handler(request)
        missing = request.match_info.http_exception
        if missing is not None and missing.status == 404:
            raise missing  # no such resource, preflight or not
        if not policy.allows(origin.lower()):
            raise web.HTTPForbidden(reason="CORS origin not allowed")
        response = web.Response(status=204)
        response.headers["Access-Control-Allow-Origin"] = _allow_origin(policy, origin)
        response.headers["Access-Control-Allow-Methods"] = ", ".join(ALLOWED_METHODS)
        response.headers["Access-Control-Allow-Headers"] = ", ".join(ALLOWED_HEADERS)
        response.headers["Access-Control-Max-Age"] = str(MAX_AGE_SECONDS)
        response.headers["Vary"] = "Origin"
        return response

    return cors


def cors_headers(
    policy: CorsPolicy,
) -> Callable[[web.Request, web.StreamResponse], Awaitable[None]]:
    """An ``on_response_prepare`` hook: CORS headers on every answer to an
    allowed origin (streams too: their headers go out at prepare)."""

    async def stamp(request: web.Request, response: web.StreamResponse) -> None:
        origin = request.headers.get("Origin")
        if origin is None or not policy.allows(origin.lower()):
            return
        if "Access-Control-Allow-Origin" not in response.headers:
            response.headers["Access-Control-Allow-Origin"] = _allow_origin(policy, origin)
            response.headers["Access-Control-Expose-Headers"] = ", ".join(EXPOSED_HEADERS)
        if not policy.any_origin:
            response.headers["Vary"] = "Origin"

    return stamp
