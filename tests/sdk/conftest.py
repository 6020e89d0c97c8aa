"""Fixtures for the SDK tests: a real in-process server (memory store, fixture
games on) shared by the module, and a fresh client per test."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator

import pytest
from throneroom import AsyncClient, Client, RetryPolicy
from throneroom_server.embedded import EmbeddedServer

#: Quick retries, and few, so that tests of the failure paths stay fast.
FAST_RETRIES = 4
FAST_RETRY = RetryPolicy(max_retries=FAST_RETRIES, initial_backoff=0.01, max_backoff=0.05)


@pytest.fixture(scope="module")
def server() -> Iterator[EmbeddedServer]:
    with EmbeddedServer(include_fixtures=True, http=True) as embedded:
        yield embedded


@pytest.fixture
def client(server: EmbeddedServer) -> Iterator[Client]:
    with Client(server.address, timeout=10, retry=FAST_RETRY) as sdk_client:
        yield sdk_client


@pytest.fixture
async def aclient(server: EmbeddedServer) -> AsyncIterator[AsyncClient]:
    async with AsyncClient(server.address, timeout=10, retry=FAST_RETRY) as sdk_client:
        yield sdk_client
