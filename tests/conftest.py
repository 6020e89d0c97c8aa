"""Shared fixtures: a throwaway redis-server on a free port (never a running one)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from throneroom_server.devtools import RedisServerError, throwaway_redis


@pytest.fixture(scope="session")
def redis_url() -> Iterator[str]:
    """A private redis-server for the test session (started on first use)."""
    try:
        with throwaway_redis() as url:
            yield url
    except RedisServerError as exc:
        pytest.fail(f"cannot start redis-server: {exc}; run `make test`, which installs it")
