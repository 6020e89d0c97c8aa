"""The MCTS bot on Kill the King: its world from a view, its candidates, its
estimate and a searched decision with the dice sampled from the listed outcomes."""

from __future__ import annotations

import functools
from typing import Any

from throneroom.bots.mcts import MctsBot
from throneroom.envelopes import wrap
from throneroom.games.kill_the_king import mcts as search
from throneroom.games.kill_the_king.bot import KillTheKingBot
from throneroom.games.kill_the_king.data import UNITS, Side, UnitType
from throneroom.games.kill_the_king.mcts_world import kill_the_king_world
from throneroom.games.protocol import game_client
from throneroom.v1 import game_pb2
from throneroom.v1 import kill_the_king_pb2 as pb
from throneroom_server.games.registry import build_registry

S = pb.KillTheKingState


def _game() -> Any:
    return dict(build_registry())["kill_the_king"]


@functools.cache
def _positions(seed: int) -> tuple[Any, ...]:
    """(state, seat) at each attack-phase and follow-up decision of a heuristic game."""
    game = _game()
    state = game.setup(game.default_options(), 2, seed)
    bots = [KillTheKingBot(seed=1), KillTheKingBot(seed=2, side=Side.ATTACKER)]
    found = []
    while acting := game.to_act(state):
        seat = acting[0]
        moves = list(game.legal_moves(state, seat))
        if state.phase in (S.PHASE_ATTACK, S.PHASE_FOLLOW_UP):
            found.append((state, seat))
        state, _ = game.apply(
            state, seat, moves[bots[seat].decide(game.view(state, seat), seat, moves)]
        )
    return tuple(found)


def test_a_world_shows_the_seat_its_view_and_the_same_legal_moves() -> None:
    game = _game()
    positions = _positions(3) + _positions(4)
    assert any(state.phase == S.PHASE_FOLLOW_UP for state, _ in positions) or positions
    for state, seat in positions[::3]:
        view = game.view(state, seat)
        world = game.randomize_hidden(kill_the_king_world(view, seat), seat, 7)
        assert game.view(world, seat) == view
        assert list(game.legal_moves(world, seat)) == list(game.legal_moves(state, seat))
        assert game.to_act(world) == game.to_act(state)


def test_the_search_knowledge_is_a_guide_with_paired_chance() -> None:
    knowledge = game_client("kill_the_king").search()
    assert knowledge is not None and knowledge.guide is not None
    assert knowledge.guide.paired_chance


def test_candidates_keep_the_heuristic_choice_first_and_only_it_outside_the_attacks() -> None:
    game = _game()
    state, seat = next(p for p in _positions(3) if p[0].phase == S.PHASE_ATTACK)
    view = game.view(state, seat)
    moves = list(game.legal_moves(state, seat))
    chosen = moves.index(search.policy(seat, view, moves))
    picks = search.candidates(seat, view, moves, chosen)
    assert picks[0] == chosen and len(set(picks)) == len(picks)
    assert len(picks) <= 2 + search.ATTACK_CANDIDATES
    moving = view.__class__()
    moving.CopyFrom(view)
    moving.phase = S.PHASE_MOVEMENT
    assert search.candidates(seat, moving, moves, chosen) == [chosen]


def test_the_estimate_follows_the_armies_and_the_door() -> None:
    state, _ = _positions(3)[0]
    base = search.estimate(state)
    attacker = next(i for i, s in enumerate(state.seats) if s.side == int(Side.ATTACKER))
    assert abs(sum(base) - 1.0) < 1e-9
    weaker = S()
    weaker.CopyFrom(state)
    for u in weaker.units:
        alive = u.status != pb.KillTheKingUnit.STATUS_DEAD
        if u.side == int(Side.ATTACKER) and alive and UNITS[UnitType(u.type)].cost:
            u.status = pb.KillTheKingUnit.STATUS_DEAD
            break
    assert search.estimate(weaker)[attacker] < base[attacker]
    broken = S()
    broken.CopyFrom(state)
    broken.door_destroyed = True
    assert search.estimate(broken)[attacker] > base[attacker]
    assert search.stage(state) == 2 * state.round + (state.turn_side == int(Side.DEFENDER))


def test_a_searched_attack_decision_is_legal_and_replays_with_its_seed() -> None:
    game = _game()
    state, seat = next(
        (s, seat)
        for s, seat in _positions(4)
        if s.phase == S.PHASE_ATTACK and len(game.legal_moves(s, seat)) > 2
    )
    view = wrap(game_pb2.View, "kill_the_king", game.view(state, seat))
    moves = [wrap(game_pb2.Move, "kill_the_king", m) for m in game.legal_moves(state, seat)]
    first = MctsBot(seed=5, iterations=8, horizon=1).choose("kill_the_king", seat, view, moves)
    again = MctsBot(seed=5, iterations=8, horizon=1).choose("kill_the_king", seat, view, moves)
    assert first in moves and first == again
