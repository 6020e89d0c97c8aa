"""The web client, served by the REST face: ``/`` and ``/web/...``.

The client is plain files (HTML, ES modules, CSS) in the package directory
``throneroom_server/web``; nothing is built. They are read once, when the
routes are added, into a table of name -> bytes: a request names a file of
that table or gets 404, so no path (``..``, ``%2e%2e``, an absolute path, a
symlink) can reach anything else and no directory is ever listed.

    GET /                              index.html
    GET /web/<file>                    a file of the client (js/app.js, style.css, ...)
    GET /web/js/boards/<game>.js       the game's board: ``board.js`` of its server package
    GET /web/data/<game>.json          the game's data, made from the SDK (web_data.py)

Every reply carries an ``ETag`` (a hash of its bytes) and ``Cache-Control:
no-cache``: a browser keeps its copy but asks each time, and a 304 answers
when nothing changed, so a new release is never hidden behind a stale cache.
The HTML page gets a Content-Security-Policy that allows only this origin's
scripts, styles and connections (no inline script, no third party).
"""

from __future__ import annotations

import functools
import hashlib
import importlib
import json
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from importlib import resources
from importlib.resources.abc import Traversable
from types import MappingProxyType

from aiohttp import web

from throneroom_server.api.web_data import GAME_DATA
from throneroom_server.games.registry import build_registry

CONTENT_TYPES: Mapping[str, str] = MappingProxyType(
    {
        ".html": "text/html; charset=utf-8",
        ".js": "text/javascript; charset=utf-8",
        ".css": "text/css; charset=utf-8",
        ".svg": "image/svg+xml",
        ".json": "application/json",
        ".png": "image/png",
        ".ico": "image/x-icon",
        ".txt": "text/plain; charset=utf-8",
    }
)
"""The kinds of file the client may hold; any other file is not served."""

CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'"
)
MAX_FILES = 200
"""A bound on the table (the client has a few dozen files)."""
_SAFE_PART = re.compile(r"[A-Za-z0-9_-][A-Za-z0-9_.-]*")


@dataclass(frozen=True)
class StaticFile:
    body: bytes
    content_type: str
    etag: str


def _static(body: bytes, content_type: str) -> StaticFile:
    return StaticFile(body, content_type, '"' + hashlib.sha256(body).hexdigest()[:32] + '"')


def _walk(folder: Traversable, prefix: str, out: dict[str, StaticFile]) -> None:
    for entry in sorted(folder.iterdir(), key=lambda e: e.name):
        if not _SAFE_PART.fullmatch(entry.name) or entry.name.startswith("."):
            continue
        name = f"{prefix}{entry.name}"
        if entry.is_dir():
            if entry.name != "__pycache__":
                _walk(entry, name + "/", out)
            continue
        suffix = "." + entry.name.rpartition(".")[2] if "." in entry.name else ""
        content_type = CONTENT_TYPES.get(suffix)
        if content_type is None:
            continue
        if len(out) >= MAX_FILES:
            raise RuntimeError(f"the web client has more than {MAX_FILES} files")
        out[name] = _static(entry.read_bytes(), content_type)


BOARD_FILE = "board.js"
"""A game's web board: this file of its server package, served as
``js/boards/<game>.js`` (where ``js/boards/index.js`` imports it by name)."""


def game_boards() -> dict[str, Traversable]:
    """Each registered game's board file, by game name: ``board.js`` beside the
    module of its engine (its server package); a game without one has none."""
    boards: dict[str, Traversable] = {}
    for name, game in build_registry(include_fixtures=True).items():
        module = importlib.import_module(type(game).__module__)
        package = module.__package__
        if not package or not _SAFE_PART.fullmatch(name):
            continue
        board = resources.files(package) / BOARD_FILE
        if board.is_file():
            boards[name] = board
    return boards


def load_client(
    root: Traversable | None = None,
    data: Mapping[str, Callable[[], object]] = GAME_DATA,
    boards: Mapping[str, Traversable] | None = None,
) -> Mapping[str, StaticFile]:
    """The client's files by their path under /web/ (``js/app.js``), each game's
    board as ``js/boards/<game>.js`` (from its own package, :func:`game_boards`)
    and each game's data as ``data/<game>.json``."""
    folder = root if root is not None else resources.files("throneroom_server") / "web"
    files: dict[str, StaticFile] = {}
    _walk(folder, "", files)
    for game, board in (game_boards() if boards is None else boards).items():
        name = f"js/boards/{game}.js"
        if name in files:
            raise RuntimeError(f"{name} is both a shared file and {game}'s own board")
        files[name] = _static(board.read_bytes(), CONTENT_TYPES[".js"])
    for game, make in data.items():
        made = make()
        if made is None:  # a game without data of its own
            continue
        body = json.dumps(made, separators=(",", ":"), ensure_ascii=False).encode()
        files[f"data/{game}.json"] = _static(body, CONTENT_TYPES[".json"])
    if "index.html" not in files:
        raise RuntimeError(f"the web client has no index.html in {folder}")
    return MappingProxyType(files)


def _reply(request: web.Request, file: StaticFile) -> web.Response:
    headers = {
        "ETag": file.etag,
        "Cache-Control": "no-cache",
        "X-Content-Type-Options": "nosniff",
        "Referrer-Policy": "no-referrer",
    }
    if file.content_type.startswith("text/html"):
        headers["Content-Security-Policy"] = CONTENT_SECURITY_POLICY
    given = request.headers.get("If-None-Match", "")
    if file.etag in (tag.strip() for tag in given.split(",")):
        return web.Response(status=304, headers=headers)
    headers["Content-Type"] = file.content_type
    return web.Response(body=file.body, headers=headers)


CLIENT_ROUTES: frozenset[tuple[str, str]] = frozenset({("get", "/"), ("get", "/web/{path}")})
"""The routes add_web_routes adds (method, canonical path): files, not part of the
API, so the OpenAPI document leaves them out."""


@functools.cache
def packaged_client() -> Mapping[str, StaticFile]:
    """The client shipped in this package (read once per process)."""
    return load_client()


def add_web_routes(web_app: web.Application, files: Mapping[str, StaticFile] | None = None) -> None:
    """Serve the web client from ``web_app``: ``/`` and ``/web/{path}``."""
    table = files if files is not None else packaged_client()

    async def index(request: web.Request) -> web.StreamResponse:
        return _reply(request, table["index.html"])

    async def client_file(request: web.Request) -> web.StreamResponse:
        file = table.get(request.match_info["path"])
        if file is None:
            raise web.HTTPNotFound()
        return _reply(request, file)

    web_app.router.add_get("/", index)
    web_app.router.add_get("/web/{path:.+}", client_file)
