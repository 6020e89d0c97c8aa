"""Browser tests of the web client: a throwaway REST server (memory store, and
one on a throwaway Redis) in a background thread, and Debian's headless
Chromium driven by Playwright for Python through ``executable_path`` (make
test installs it with scripts/ensure-chromium.sh; Playwright's own browser
builds are never downloaded). Screenshots go to ``tests/web/artifacts``
(or ``$THRONEROOM_WEB_ARTIFACTS``)."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import threading
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = os.environ.get("THRONEROOM_CHROMIUM", "/usr/bin/chromium")
ARTIFACTS = Path(os.environ.get("THRONEROOM_WEB_ARTIFACTS", Path(__file__).parent / "artifacts"))
# The flags of a headless Chromium on a machine without a network: nothing
# phones home (refused connections would only slow every start).
CHROMIUM_ARGS = [
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
]

Json = dict[str, Any]


@dataclass
class Server:
    """A REST face serving the web client, on a free port, in its own thread."""

    base: str
    loop: asyncio.AbstractEventLoop
    stop: threading.Event = field(default_factory=threading.Event)

    def call(
        self, method: str, path: str, body: Json | None = None, token: str | None = None
    ) -> Json:
        data = None if body is None and method == "GET" else json.dumps(body or {}).encode()
        request = urllib.request.Request(self.base + path, data=data, method=method)
        if method == "POST":
            request.add_header("Content-Type", "application/json")
        if token:
            request.add_header("Authorization", f"Bearer {token}")
        try:
            with urllib.request.urlopen(request, timeout=20) as response:
                result: Json = json.loads(response.read() or b"{}")
                return result
        except urllib.error.HTTPError as error:
            raise AssertionError(f"{method} {path}: {error.code} {error.read()!r}") from error


def _serve(
    redis_url: str | None, ready: threading.Event, holder: dict[str, Any], fixtures: bool = False
) -> None:
    from throneroom_server.api.rest import start_rest
    from throneroom_server.app.service import App
    from throneroom_server.games.registry import service_games
    from throneroom_server.store.memory import MemoryStore

    async def main() -> None:
        if redis_url is None:
            store: Any = MemoryStore()
        else:
            from throneroom_server.store.redis import RedisStore

            store = RedisStore(redis_url)
        app = App(store, service_games(include_fixtures=fixtures))
        runner, port = await start_rest(app, "127.0.0.1:0", access_log=False, shutdown_timeout=2)
        holder["server"] = Server(f"http://127.0.0.1:{port}", asyncio.get_running_loop())
        ready.set()
        stop = asyncio.Event()
        holder["stop"] = stop
        await stop.wait()
        app.begin_shutdown()
        await runner.cleanup()
        await store.close()

    try:
        asyncio.run(main())
    except BaseException as exc:  # reported by the fixture
        holder["error"] = exc
        ready.set()


@contextmanager
def running_server(redis_url: str | None = None, *, fixtures: bool = False) -> Iterator[Server]:
    """The REST face in a thread (``fixtures``: the fixture games served too)."""
    ready = threading.Event()
    holder: dict[str, Any] = {}
    thread = threading.Thread(target=_serve, args=(redis_url, ready, holder, fixtures), daemon=True)
    thread.start()
    assert ready.wait(30), "the REST server did not start"
    if "error" in holder:
        raise holder["error"]
    server: Server = holder["server"]
    try:
        yield server
    finally:
        server.loop.call_soon_threadsafe(holder["stop"].set)
        thread.join(15)


@dataclass
class RestartableServer(Server):
    """A REST face whose listening socket can be closed (``down``: the server
    stopped, every connection dropped) and opened again on the same port
    (``up``), over the same app and store, as a restarted server would be."""

    app: Any = None
    port: int = 0
    runner: Any = None

    def down(self) -> None:
        asyncio.run_coroutine_threadsafe(self.runner.cleanup(), self.loop).result(30)
        self.runner = None

    def up(self) -> None:
        from throneroom_server.api.rest import start_rest

        async def start() -> Any:
            runner, _ = await start_rest(
                self.app, f"127.0.0.1:{self.port}", access_log=False, shutdown_timeout=1
            )
            return runner

        self.runner = asyncio.run_coroutine_threadsafe(start(), self.loop).result(30)


@contextmanager
def restartable_server() -> Iterator[RestartableServer]:
    from throneroom_server.api.rest import start_rest
    from throneroom_server.app.service import App
    from throneroom_server.games.registry import service_games
    from throneroom_server.store.memory import MemoryStore

    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()

    async def begin() -> RestartableServer:
        store = MemoryStore()
        app = App(store, service_games())
        runner, port = await start_rest(app, "127.0.0.1:0", access_log=False, shutdown_timeout=1)
        return RestartableServer(
            f"http://127.0.0.1:{port}", loop, app=app, port=port, runner=runner
        )

    server = asyncio.run_coroutine_threadsafe(begin(), loop).result(30)
    try:
        yield server
    finally:
        if server.runner is not None:
            server.app.begin_shutdown()
            server.down()
        loop.call_soon_threadsafe(loop.stop)
        thread.join(15)


@pytest.fixture
def restartable() -> Iterator[RestartableServer]:
    """A REST face of its own for one test, to stop and start again."""
    with restartable_server() as running:
        yield running


@pytest.fixture(scope="session")
def server() -> Iterator[Server]:
    """The REST face with the memory store, for the whole session."""
    with running_server() as running:
        yield running


@pytest.fixture(scope="session")
def redis_server(redis_url: str) -> Iterator[Server]:
    """The REST face with a throwaway Redis store."""
    with running_server(redis_url) as running:
        yield running


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    if not (Path(CHROMIUM).exists() or shutil.which(CHROMIUM)):
        pytest.fail(f"{CHROMIUM} is missing: run `make test`, which installs Debian's chromium")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield chromium
        finally:
            chromium.close()


@dataclass
class Tab:
    """A browser page with the console errors and page errors it reported."""

    page: Any
    errors: list[str]
    allowed_statuses: set[int] = field(default_factory=set)
    allowed_texts: set[str] = field(default_factory=set)

    def allow_status(self, status: int) -> None:
        """Accept the browser's console line for an HTTP error of ``status``
        (Chromium logs every failed fetch, even one the page handles): only
        for a race the test makes on purpose, such as a 409 when bots and the
        page's player answer at the same moment."""
        self.allowed_statuses.add(status)

    def allow_text(self, fragment: str) -> None:
        """Accept the browser's console lines containing ``fragment``: only for
        failures a test makes on purpose (a stopped server's refused
        connections)."""
        self.allowed_texts.add(fragment)

    def unexpected_errors(self) -> list[str]:
        return [
            e
            for e in self.errors
            if not any(f"status of {n} " in e for n in self.allowed_statuses)
            and not any(fragment in e for fragment in self.allowed_texts)
        ]

    def shot(self, name: str) -> Path:
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        path = ARTIFACTS / f"{name}.png"
        self.page.screenshot(path=str(path), full_page=True)
        return path


def new_tab(browser: Any, *, width: int = 1400, height: int = 1000, touch: bool = False) -> Tab:
    """A page in a fresh browser context (empty localStorage) of the given
    viewport (``touch``: a touch screen), recording its console errors and
    page errors; the caller closes its context."""
    context = browser.new_context(viewport={"width": width, "height": height}, has_touch=touch)
    page = context.new_page()
    page.set_default_timeout(20_000)
    errors: list[str] = []
    page.on("console", lambda m: errors.append(f"console: {m.text}") if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(f"pageerror: {e}"))
    return Tab(page, errors)


@contextmanager
def opened_tab(
    browser: Any, *, width: int = 1400, height: int = 1000, touch: bool = False
) -> Iterator[Tab]:
    """``new_tab`` for a block: its context closed after, and the block fails
    if the page logged a console error or threw (beyond those allowed)."""
    opened = new_tab(browser, width=width, height=height, touch=touch)
    try:
        yield opened
    finally:
        opened.page.context.close()
    assert not opened.unexpected_errors(), opened.errors


@pytest.fixture
def tab(browser: Any) -> Iterator[Tab]:
    """A fresh browser context (empty localStorage) and page; the test fails if
    the page logged a console error or threw."""
    with opened_tab(browser) as opened:
        yield opened
