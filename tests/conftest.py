"""Shared fixtures: a throwaway redis-server on a free port (never a running one),
and the test tiers.

Tiers (markers declared in pyproject.toml): a test that uses a throwaway Redis
is marked ``redis``, one on the throwaway Redis Cluster ``cluster``, one in
Chromium ``browser``; these are set here from the fixtures a test asks for
(statically, or by a fixture parameter's marks), and a test that reaches one of
those fixtures without its marker fails, so the markers cannot drift from what
the tests use. ``slow`` is set by hand on long playouts and whole-game runs.
``make test-fast`` runs ``-m "not slow and not cluster and not browser"``.

The service's grpc settings (``throneroom_server.runtime.main.GRPC_SETTINGS``) are put
into the environment here, before any test imports grpc (grpc reads them once,
at import): servers started in this process run as the shipped process does,
and server processes started by tests inherit them (and a drain period of 0)."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator

import pytest
from throneroom_server.runtime.main import use_grpc_settings

from throneroom_dev.processes import RedisServerError, throwaway_redis, throwaway_redis_cluster

if "grpc" in sys.modules:
    raise RuntimeError("grpc was imported before tests/conftest.py could set its environment")
use_grpc_settings(os.environ)
# Server processes the tests start stop at once on SIGTERM (no drain period:
# nothing balances over them); tests/service/runtime/test_drain.py runs the
# shipped default.
os.environ.setdefault("THRONEROOM_DRAIN_SECONDS", "0")


#: fixture -> the marker of every test that uses it.
TIER_OF_FIXTURE = {
    "redis_url": "redis",
    "redis_cluster_urls": "cluster",
    "browser": "browser",
}


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark each test by the fixtures it asks for (the closure pytest knows at
    collection; fixtures fetched with ``getfixturevalue`` carry their marker on
    the parameter that fetches them)."""
    for item in items:
        names = getattr(item, "fixturenames", ())
        for fixture, tier in TIER_OF_FIXTURE.items():
            if fixture in names and item.get_closest_marker(tier) is None:
                item.add_marker(tier)
        if item.get_closest_marker("cluster") is not None and not item.get_closest_marker("redis"):
            item.add_marker("redis")  # a cluster is made of redis-servers


@pytest.fixture(autouse=True)
def _tier_is_marked(request: pytest.FixtureRequest) -> Iterator[None]:
    """Fail a test that used a tier's fixture without carrying its marker (a
    fixture fetched at run time that no parameter marked): ``make test-fast``
    would otherwise run a cluster or browser test, or skip a fast one."""
    yield
    used = set(request.fixturenames)
    missing = [
        tier
        for fixture, tier in TIER_OF_FIXTURE.items()
        if fixture in used and request.node.get_closest_marker(tier) is None
    ]
    if missing:
        pytest.fail(f"{request.node.nodeid} uses the {'/'.join(missing)} tier: mark it so")


@pytest.fixture(scope="session")
def redis_url() -> Iterator[str]:
    """A private redis-server for the test session (started on first use)."""
    try:
        with throwaway_redis() as url:
            yield url
    except RedisServerError as exc:
        pytest.fail(f"cannot start redis-server: {exc}; run `make test`, which installs it")


@pytest.fixture(scope="session")
def redis_cluster_urls() -> Iterator[list[str]]:
    """A private 3-primary Redis Cluster for the test session (started on first
    use): the URL of each node."""
    try:
        with throwaway_redis_cluster(3) as urls:
            yield urls
    except RedisServerError as exc:
        pytest.fail(f"cannot start a Redis Cluster: {exc}; run `make test`, which installs it")


@pytest.fixture(scope="session", autouse=True)
def _test_logging() -> None:
    """Readable logs on stderr at debug level, as in development, but with no
    logger caching so ``structlog.testing.capture_logs`` sees every line."""
    import logging
    import sys

    import structlog

    structlog.configure(
        processors=[
            structlog.contextvars.merge_contextvars,
            structlog.processors.add_log_level,
            structlog.processors.format_exc_info,
            structlog.dev.ConsoleRenderer(colors=False),
        ],
        wrapper_class=structlog.make_filtering_bound_logger(logging.DEBUG),
        logger_factory=structlog.PrintLoggerFactory(file=sys.stderr),
        cache_logger_on_first_use=False,
    )
