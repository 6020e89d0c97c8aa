"""Dice (KK-13, KK-37): every d6 comes from the game's seeded RNG and is an event
with its purpose; success is value <= needed."""

from __future__ import annotations

from throneroom.v1 import common_pb2
from throneroom.v1 import kill_the_king_pb2 as pb
from throneroom_server.games.kill_the_king.dice import roll
from throneroom_server.games.rng import Rng, seed_rng


def _rolls(seed: int, n: int, needed: int) -> list[pb.KillTheKingEvent]:
    msg = common_pb2.RngState()
    seed_rng(msg, seed)
    rng = Rng(msg)
    events: list[pb.KillTheKingEvent] = []
    for _ in range(n):
        roll(rng, events, pb.DIE_PURPOSE_HIT, seat=1, needed=needed, unit=3, target=(4, 5))
    return events


def test_same_seed_same_dice_and_one_event_each() -> None:
    a, b = _rolls(11, 60, 3), _rolls(11, 60, 3)
    assert a == b and len(a) == 60
    values = [e.die_rolled.value for e in a]
    assert set(values) == {1, 2, 3, 4, 5, 6}
    for e in a:
        d = e.die_rolled
        assert d.purpose == pb.DIE_PURPOSE_HIT and d.seat == 1 and d.unit == 3
        assert (d.target.row, d.target.col) == (4, 5) and d.target_unit == -1
        assert d.success == (d.value <= 3)


def test_initiative_die_never_succeeds() -> None:
    events = _rolls(5, 20, 0)
    assert not any(e.die_rolled.success for e in events)
