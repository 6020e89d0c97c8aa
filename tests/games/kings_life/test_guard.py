"""The Guard (rules doc, rule 20; RULES-NOTES, Guard): played as the pass and
playable whenever passing is ('considered passing, and can support another
player normally'); its player then supports an unsupported player as any
passing player does, or uses the Guard's power to support a player who
already has a supporter (whose token goes back to its owner), or nobody."""

from __future__ import annotations

import random

import pytest
from throneroom_server.games.core import IllegalMoveError

from .helpers import (
    DANCE,
    ENGINE,
    FEAST,
    FOOL,
    GUARD,
    GUARD_2,
    HUNT,
    MERCHANT,
    QUEEN,
    SORCERER,
    TOURNEY,
    A,
    Move,
    Phase,
    Play,
    State,
    cancel_with_queen,
    kinds,
    legal,
    of_kind,
    pass_,
    play,
    plays_of,
    scenario,
    step,
    take_back,
)

GUARDS = (GUARD, GUARD_2)


def supports(plays: list[Play] | list[Move.Pass]) -> set[tuple[int | None, int]]:
    """(supported seat or None, card handed over) of passes or Guard plays."""
    return {(p.support if p.HasField("support") else None, p.hand_over) for p in plays}


def test_guard_supports_an_unsupported_player_like_any_pass() -> None:
    state = scenario(hands={0: [GUARD, A(HUNT, 2)], 1: [A(DANCE, 2)]}, displays={1: [A(HUNT, 4)]})
    state, events = play(state, 0, GUARD, support=1)
    assert kinds(events) == ["card_played", "answered", "card_took_effect", "passed", "supported"]
    (supported,) = of_kind(events, "supported")
    assert supported.supported.supported == 1 and supported.supported.replaced == -1
    assert state.players[0].passed, "the Guard is played as the pass"
    assert state.players[1].supporter == 0 and state.players[0].supporting == 1
    assert GUARD in state.discard and state.turn == 1


def test_guard_replaces_a_supporter_whose_token_goes_back() -> None:
    state = scenario(
        hands={0: [GUARD, A(HUNT, 2)], 1: [A(DANCE, 2)]},
        displays={0: [A(TOURNEY, 3)]},
        supports={2: 1},
        passed=(2,),
    )
    guards = plays_of(state, 0, GUARD)
    assert supports(guards) == {
        (target, gift) for target in (None, 1, 2, 3) for gift in (0, A(TOURNEY, 3))
    } - {(None, A(TOURNEY, 3))}, "anybody else: seat 1 by the Guard's power, 2 and 3 normally"
    state, events = play(state, 0, GUARD, support=1, hand_over=A(TOURNEY, 3))
    (supported,) = of_kind(events, "supported")
    assert supported.supported.replaced == 2
    assert state.players[1].supporter == 0 and state.players[2].supporting == -1
    assert A(TOURNEY, 3) in state.players[1].display
    assert state.players[0].passed


def test_guard_without_support_is_a_pass() -> None:
    state = scenario(hands={0: [GUARD, A(HUNT, 2)], 1: [A(DANCE, 2)]})
    state, events = play(state, 0, GUARD)
    assert not of_kind(events, "supported")
    assert state.players[0].passed and state.players[0].supporting == -1


def test_guard_with_the_token_spent_is_a_plain_pass() -> None:
    """After a Peon the token lies before another player: the Guard is still
    playable (passing is), without support, like the pass."""
    state = scenario(hands={0: [GUARD]}, supports={0: 3, 2: 1})
    passes = [m.passing for m in legal(state, 0) if m.WhichOneof("kind") == "passing"]
    assert supports(passes) == {(None, 0)}
    assert supports(plays_of(state, 0, GUARD)) == {(None, 0)}
    with pytest.raises(IllegalMoveError, match="support token already lies before seat 3"):
        ENGINE.apply(state, 0, Move(play=Play(card=GUARD, support=1)))


def test_illegal_guard_supports_are_explained() -> None:
    state = scenario(hands={0: [GUARD, A(HUNT, 2)]}, displays={0: [A(FEAST, 3)]})
    with pytest.raises(IllegalMoveError, match="cannot support itself"):
        ENGINE.apply(state, 0, Move(play=Play(card=GUARD, support=0)))
    with pytest.raises(IllegalMoveError, match="handed over only to a supported player"):
        ENGINE.apply(state, 0, Move(play=Play(card=GUARD, hand_over=A(FEAST, 3))))
    with pytest.raises(IllegalMoveError, match="can be handed over"):
        ENGINE.apply(state, 0, Move(play=Play(card=GUARD, support=1, hand_over=A(HUNT, 2))))


def test_normal_support_after_a_guard() -> None:
    """A Guard's support is an ordinary support: later passes see the seat as
    supported, and a player whose token the Guard sent back supports again."""
    state = scenario(
        hands={0: [GUARD, A(HUNT, 2)], 1: [A(DANCE, 2)], 2: [A(DANCE, 3)], 3: [A(FEAST, 2)]},
        supports={2: 1},
    )
    state, _ = play(state, 0, GUARD, support=1)
    assert state.turn == 1
    state, _ = pass_(state, 1, support=3)
    passes = [m.passing for m in legal(state, 2) if m.WhichOneof("kind") == "passing"]
    assert {t for t, _ in supports(passes)} == {None, 0}, "its token came back; 1 and 3 are taken"
    state, _ = pass_(state, 2, support=0)
    assert state.players[0].supporter == 2 and state.players[1].supporter == 0


def test_guard_as_the_fools_pass() -> None:
    """The Fool ends with a pass; a Guard may be played as that pass."""
    state = scenario(
        hands={0: [FOOL, GUARD, A(HUNT, 2)], 1: [A(DANCE, 2)]},
        displays={0: [A(HUNT, 4)]},
        supports={2: 1},
    )
    state, _ = play(state, 0, FOOL)
    state, _ = take_back(state, 0, A(HUNT, 4))
    state, _ = take_back(state, 0)
    assert state.phase == Phase.PHASE_FOOL_PASS
    passes = [m.passing for m in legal(state, 0) if m.WhichOneof("kind") == "passing"]
    guards = plays_of(state, 0, GUARD)
    assert supports(passes) == {(None, 0), (2, 0), (3, 0)}, "the unsupported players"
    assert supports(guards) == supports(passes) | {(1, 0)}, "the Guard's power adds seat 1"
    assert {p.card for p in plays_of(state, 0, GUARD)} == {GUARD}
    with pytest.raises(IllegalMoveError, match="Fool's pass is a pass"):
        ENGINE.apply(state, 0, Move(play=Play(card=A(HUNT, 2))))
    state, events = play(state, 0, GUARD, support=1)
    assert kinds(events)[:2] == ["card_played", "passed"]
    assert state.players[0].passed and state.players[1].supporter == 0
    assert state.players[2].supporting == -1
    assert state.phase == Phase.PHASE_TURNS and state.turn == 1


def test_queen_cancels_a_guard_played_as_the_fools_pass_the_pass_stands() -> None:
    state = scenario(
        hands={0: [FOOL, GUARD, A(HUNT, 2)], 1: [A(DANCE, 2)], 3: [QUEEN]},
        supports={2: 1},
    )
    state, _ = play(state, 0, FOOL)
    state, _ = take_back(state, 0)
    state, _ = step(state, 0, Move(play=Play(card=GUARD, support=1)))
    state, events = cancel_with_queen(state, 3)
    assert of_kind(events, "queen_cancelled")
    assert state.players[0].passed, "the Fool's pass happened; only the Guard is cancelled"
    assert state.players[1].supporter == 2, "no support: the Guard had no effect"
    assert state.phase == Phase.PHASE_TURNS and state.turn == 1


def _check_guard_matches_pass(state: State, seat: int) -> bool:
    """Where ``seat`` holds a Guard: Guard plays exist exactly where passes do,
    offering every support of the pass plus the supported players. Returns
    whether a Guard was in hand."""
    moves = legal(state, seat)
    passes = [m.passing for m in moves if m.WhichOneof("kind") == "passing"]
    held = [g for g in GUARDS if g in state.players[seat].hand]
    for guard in GUARDS:
        guard_plays = [
            m.play for m in moves if m.WhichOneof("kind") == "play" and m.play.card == guard
        ]
        if guard not in held or not passes:
            assert not guard_plays, "a Guard is played only as a pass"
            continue
        me = state.players[seat]
        power = {
            (t, h)
            for t, p in enumerate(state.players)
            if t != seat and p.supporter not in (-1, seat) and me.supporting == -1
            for h in (0, *(c for c in me.display if c not in (MERCHANT, SORCERER)))
        }
        assert supports(guard_plays) == supports(passes) | power
    return bool(held) and bool(passes)


def test_guard_is_playable_in_every_state_where_pass_is() -> None:
    """Random games: wherever a seat may pass and holds a Guard, the Guard is
    playable with every support the pass offers (plus the Guard's power);
    nowhere else."""
    checked = 0
    for seed in range(40):
        rng = random.Random(seed)
        seats = 4 + seed % 5
        state = ENGINE.setup(ENGINE.default_options(), seats, seed)
        while acting := ENGINE.to_act(state):
            for seat in range(seats):
                checked += _check_guard_matches_pass(state, seat)
            seat = acting[rng.randrange(len(acting))]
            moves = legal(state, seat)
            state, _ = ENGINE.apply(state, seat, moves[rng.randrange(len(moves))])
    assert checked > 50, "the playouts met enough Guards in hand"
