"""Shared fixtures: a throwaway redis-server on a free port (never a running one).

The service's grpc settings (``throneroom_server.main.GRPC_SETTINGS``) are put
into the environment here, before any test imports grpc (grpc reads them once,
at import): servers started in this process run as the shipped process does,
and server processes started by tests inherit them."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator

import pytest
from throneroom_server.devtools import RedisServerError, throwaway_redis, throwaway_redis_cluster
from throneroom_server.main import use_grpc_settings

if "grpc" in sys.modules:
    raise RuntimeError("grpc was imported before tests/conftest.py could set its environment")
use_grpc_settings(os.environ)


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
