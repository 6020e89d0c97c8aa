"""KillTheKingBot as a team member in both Giga modes (KK-123..KK-127): from its
own seat's view, with its own counters only, whole games at 2-4 seats end."""

from __future__ import annotations

import pytest
from throneroom.bots import Bot
from throneroom.games.kill_the_king.bot import KillTheKingBot
from throneroom.games.kill_the_king.data import Mode, Side
from throneroom.v1 import kill_the_king_pb2 as pb

from tests.games.kill_the_king.giga_positions import ADG, KTKG, options
from tests.games.kill_the_king.positions import ENGINE
from tests.games.kill_the_king.test_bot import choose

UNIT_MOVES = ("step", "rotate", "climb", "prepare_climb", "dismount", "attack")


def play_giga(mode: Mode, seats: int, seed: int) -> pb.KillTheKingState:
    bots: list[Bot] = [
        KillTheKingBot(seat, side=Side.ATTACKER if seat % 2 == 0 else Side.DEFENDER)
        for seat in range(seats)
    ]
    state = ENGINE.setup(options(mode), seats, seed)
    bound = ENGINE.max_decisions(options(mode), seats)
    decisions = 0
    while acting := ENGINE.to_act(state):
        seat = acting[decisions % len(acting)]  # every seat placing takes its part
        assert isinstance(seat, int)
        move = choose(bots[seat], state, seat)
        kind = move.WhichOneof("decision")
        if kind in UNIT_MOVES:
            assert state.units[getattr(move, kind).unit].seat == seat, "only its own counters"
        state, _ = ENGINE.apply(state, seat, move)
        decisions += 1
        assert decisions <= bound, "the game did not end"
    assert ENGINE.outcome(state) is not None
    return state


@pytest.mark.slow  # whole Giga games
@pytest.mark.parametrize(("mode", "seats"), [(KTKG, 3), (KTKG, 4), (ADG, 2), (ADG, 4)], ids=str)
def test_whole_giga_games_between_bots_finish(mode: Mode, seats: int) -> None:
    state = play_giga(mode, seats, seed=seats)
    winners = list(state.outcome.winners)
    assert winners == [s for s in range(seats) if s % 2 == winners[0] % 2]
    placed_by = {u.seat for u in state.units if u.status != pb.KillTheKingUnit.STATUS_RESERVE}
    assert placed_by == set(range(seats)), "every seat of a team placed and controls counters"
