"""Fixtures for store, app and service tests: every store (memory, one Redis,
a 3-primary Redis Cluster), flushed for every test."""

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


@pytest.fixture
def clean_cluster(redis_cluster_urls: list[str]) -> str:
    """The test Redis Cluster, emptied (every primary); the URL of one node."""
    for url in redis_cluster_urls:
        client = redis.Redis.from_url(url)
        client.flushall()
        client.close()
    return redis_cluster_urls[0]


@pytest.fixture(
    params=[
        "memory",
        pytest.param("redis", marks=pytest.mark.redis),
        pytest.param("cluster", marks=pytest.mark.cluster),
    ]
)
async def store(request: pytest.FixtureRequest) -> AsyncIterator[Store]:
    """Each store implementation, fresh for every test: memory, a single Redis,
    and a Redis Cluster (the same RedisStore with the cluster client)."""
    if request.param == "memory":
        mem = MemoryStore()
        yield mem
        await mem.close()
    else:
        cluster = request.param == "cluster"
        url = request.getfixturevalue("clean_cluster" if cluster else "clean_redis")
        red = RedisStore(url, cluster=cluster)
        yield red
        await red.close()


@pytest.fixture
async def service(store: Store) -> AsyncIterator[Service]:
    """A real gRPC server on a free port over each store, and a client stub."""
    svc = await start_service(store)
    yield svc
    await svc.channel.close()
    await svc.running.stop(None)
