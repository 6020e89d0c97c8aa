"""Fixtures for store, app and service tests: both stores, a flushed Redis per test."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
import redis
from throneroom_server.store.base import Store
from throneroom_server.store.memory import MemoryStore
from throneroom_server.store.redis import RedisStore

from tests.service.helpers import Service, start_service


@pytest.fixture
def clean_redis(redis_url: str) -> str:
    client = redis.Redis.from_url(redis_url)
    client.flushdb()
    client.close()
    return redis_url


@pytest.fixture(params=["memory", "redis"])
async def store(request: pytest.FixtureRequest) -> AsyncIterator[Store]:
    """Each store implementation, fresh for every test."""
    if request.param == "memory":
        mem = MemoryStore()
        yield mem
        await mem.close()
    else:
        url = request.getfixturevalue("clean_redis")
        red = RedisStore(url)
        yield red
        await red.close()


@pytest.fixture
async def service(store: Store) -> AsyncIterator[Service]:
    """A real gRPC server on a free port over each store, and a client stub."""
    svc = await start_service(store)
    yield svc
    await svc.channel.close()
    await svc.running.stop(None)
