"""The per-node breaker of a Redis Cluster client (store/shards.py), on an
injected clock at the shipped hold, and the failover it exists for: one
primary of three SIGKILLed under load, its replica promoted by the cluster.
The healthy shards keep moving, the dead shard's calls are refused fast with
UNAVAILABLE (never another code), its games move again after the promotion,
and no acknowledged move is lost."""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

import pytest
from throneroom_server.store.shards import BREAKER_HOLD_SECONDS, ShardBreaker

NODE = "127.0.0.1:7000"


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_a_node_that_failed_is_refused_for_the_hold_then_probed_by_one_call() -> None:
    clock = Clock()
    breaker = ShardBreaker(clock=clock)
    assert breaker.hold == BREAKER_HOLD_SECONDS == 0.5
    assert breaker.admit(NODE)
    breaker.failed(NODE)
    assert breaker.down() == (NODE,)
    clock.now += BREAKER_HOLD_SECONDS - 0.01
    assert not breaker.admit(NODE)
    assert breaker.admit("127.0.0.1:7001")  # other nodes are not touched
    clock.now += 0.02
    assert breaker.admit(NODE)  # the probe
    assert not breaker.admit(NODE)  # while it is out, nobody else
    breaker.failed(NODE)
    assert not breaker.admit(NODE)  # down again, for a new hold
    clock.now += BREAKER_HOLD_SECONDS
    assert breaker.admit(NODE)
    breaker.succeeded(NODE)
    assert breaker.down() == ()
    assert breaker.admit(NODE) and breaker.admit(NODE)


def test_a_probe_that_ends_otherwise_lets_the_next_call_probe() -> None:
    clock = Clock()
    breaker = ShardBreaker(clock=clock)
    breaker.failed(NODE)
    clock.now += BREAKER_HOLD_SECONDS
    assert breaker.admit(NODE)
    breaker.released(NODE)  # e.g. the call was cancelled
    assert breaker.admit(NODE)


@pytest.mark.slow
@pytest.mark.redis
async def test_one_primarys_failover_costs_only_its_own_games() -> None:
    sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "bench"))
    try:
        import failover  # bench/failover.py: the same measurement, printed
    finally:
        sys.path.pop(0)
    result = await failover.measure(games=3, node_timeout_ms=2000, after=3.0)
    during = [c for c in result.calls if result.phase(c) == "during"]
    dead = [c for c in during if c.dead_shard]
    healthy = [c for c in during if not c.dead_shard]
    # The healthy shards go on: every call of theirs answered while the
    # third shard had no primary, and they made moves all along.
    assert Counter(c.code for c in healthy) == Counter(OK=len(healthy))
    assert len(healthy) >= 30
    # The dead shard's calls are refused, as UNAVAILABLE only, and fast:
    # many refusals per game (a slow refusal would leave a handful).
    codes = Counter(c.code for c in dead)
    assert set(codes) <= {"UNAVAILABLE", "OK"}, codes
    assert codes["UNAVAILABLE"] >= 10 * 3
    # After the promotion its games move again.
    assert result.moves("after", dead_shard=True) >= 10
    # Nothing acknowledged is lost: each game's newest stored version is
    # the last one a call acknowledged (or one more, a commit whose answer
    # the kill cut off).
    for game_id, acknowledged in result.acknowledged.items():
        stored = result.stored[game_id]
        assert acknowledged <= stored <= acknowledged + 1, (game_id, acknowledged, stored)
