"""The test tiers (tests/conftest.py): a test is marked by the fixtures it uses,
and one that reaches a tier's fixture without its marker fails. Proven on a
small planted suite run by pytester (in this process, where the real conftest
is already imported), with stand-ins for the tier fixtures."""

from __future__ import annotations

import pytest

pytest_plugins = ["pytester"]

CONFTEST = """
import pytest
from tests.conftest import TIER_OF_FIXTURE, _tier_is_marked, pytest_collection_modifyitems

@pytest.fixture(scope="session")
def redis_url():
    return "redis://stand-in"

@pytest.fixture(scope="session")
def redis_cluster_urls():
    return ["redis://stand-in"]

@pytest.fixture(scope="session")
def browser():
    return object()

@pytest.fixture(params=["memory", pytest.param("cluster", marks=pytest.mark.cluster)])
def store(request):
    return request.getfixturevalue("redis_cluster_urls") if request.param == "cluster" else None
"""

TESTS = """
import pytest

def test_uses_redis(redis_url):
    pass

def test_uses_the_cluster(redis_cluster_urls):
    pass

def test_on_every_store(store):
    pass

def test_in_the_browser(browser):
    pass

def test_plain():
    pass

def test_fetches_the_browser_unmarked(request):
    request.getfixturevalue("browser")

@pytest.mark.browser
def test_fetches_the_browser_marked(request):
    request.getfixturevalue("browser")
"""

INI = """
[pytest]
markers =
    slow: slow
    redis: redis
    cluster: cluster
    browser: browser
asyncio_default_fixture_loop_scope = function
addopts = --strict-markers -p no:cacheprovider -p no:randomly
"""


@pytest.fixture
def planted(pytester: pytest.Pytester) -> pytest.Pytester:
    pytester.makeini(INI)
    pytester.makeconftest(CONFTEST)
    pytester.makepyfile(test_planted=TESTS)
    return pytester


def _selected(pytester: pytest.Pytester, expression: str) -> set[str]:
    result = pytester.runpytest_inprocess("--collect-only", "-q", "-m", expression)
    return {
        line.split("::", 1)[1] for line in result.outlines if line.startswith("test_planted.py::")
    }


def test_tests_are_marked_by_the_fixtures_they_use(planted: pytest.Pytester) -> None:
    assert _selected(planted, "redis") == {
        "test_uses_redis",
        "test_uses_the_cluster",
        "test_on_every_store[cluster]",
    }
    assert _selected(planted, "cluster") == {
        "test_uses_the_cluster",
        "test_on_every_store[cluster]",
    }
    assert _selected(planted, "browser") == {
        "test_in_the_browser",
        "test_fetches_the_browser_marked",
    }
    assert _selected(planted, "not slow and not cluster and not browser") == {
        "test_uses_redis",
        "test_on_every_store[memory]",
        "test_plain",
        "test_fetches_the_browser_unmarked",
    }


def test_a_tier_fixture_reached_without_its_marker_fails(planted: pytest.Pytester) -> None:
    result = planted.runpytest_inprocess("-q")
    result.assert_outcomes(passed=8, errors=1)
    result.stdout.fnmatch_lines(
        ["*test_fetches_the_browser_unmarked uses the browser tier: mark it so*"]
    )
