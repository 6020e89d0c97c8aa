"""What each seat may see: views, event redaction, hidden-world sampling."""

from __future__ import annotations

import random

from throneroom.v1 import kings_life_pb2 as pb
from throneroom_server.games.kings_life.data import CARD_ACTIVITY, CARD_SUN

from .helpers import (
    ASTROLOGER,
    DANCE,
    DOG,
    DUKE,
    ENGINE,
    FEAST,
    FOOL,
    HUNT,
    PEON,
    QUEEN,
    THIEF_4,
    TOURNEY,
    A,
    Move,
    Phase,
    Play,
    State,
    play,
    scenario,
    step,
    take_back,
)


def test_a_seat_sees_its_own_hand_and_only_the_sizes_of_others() -> None:
    state = scenario(hands={0: [A(HUNT, 2), QUEEN], 1: [A(DANCE, 3)]}, displays={2: [A(FEAST, 4)]})
    view = ENGINE.view(state, 0)
    assert sorted(view.hand) == sorted([A(HUNT, 2), QUEEN])
    assert [p.hand_size for p in view.players] == [2, 1, 0, 0]
    assert list(view.players[2].display) == [A(FEAST, 4)]
    assert view.deck_size == len(state.deck)
    assert list(view.preferences) == [HUNT, DANCE, TOURNEY], "the face-down card is not shown"
    spectator = ENGINE.view(state, None)
    assert spectator.viewer == -1 and not spectator.hand
    assert ENGINE.view(state, 1).hand == [A(DANCE, 3)]


def queen_window(holder: int) -> State:
    hands = {0: [A(HUNT, 5)], 1: [A(DANCE, 1)], 2: [A(TOURNEY, 1)], 3: [A(FEAST, 1)]}
    hands[holder] = [*hands[holder], QUEEN]
    other = 3 if holder == 2 else 2
    hands[other] = [*hands[other], A(TOURNEY, 2, 2)]
    state = scenario(hands=hands)
    state, _ = step(state, 0, Move(play=Play(card=A(HUNT, 5))))
    return state


def test_the_queen_window_does_not_tell_who_holds_the_queen() -> None:
    with_2, with_3 = queen_window(2), queen_window(3)
    for viewer in (0, 1, None):
        assert ENGINE.view(with_2, viewer) == ENGINE.view(with_3, viewer)
        assert ENGINE.to_act(with_2) == ENGINE.to_act(with_3) == (1, 2, 3)
    # After the holder cancelled, before the others answered: still nothing shows.
    cancelled, events = step(with_2, 2, Move(queen=Move.Queen(cancel=True, target=0)))
    declined, other_events = step(with_3, 2, Move(queen=Move.Queen()))
    for viewer in (0, 1, None):
        assert ENGINE.view(cancelled, viewer) == ENGINE.view(declined, viewer)
        assert [ENGINE.redact_event(e, viewer) for e in events] == [
            ENGINE.redact_event(e, viewer) for e in other_events
        ]


def test_initial_cards_hidden_until_revealed() -> None:
    state = scenario(
        hands={0: [A(HUNT, 1, 1)], 1: [A(DANCE, 2)], 2: [A(TOURNEY, 2)], 3: [DOG]},
        phase=Phase.PHASE_INITIAL_ROUND,
    )
    state, _ = step(state, 0, Move(commit=Move.Commit(card=A(HUNT, 1, 1))))
    assert ENGINE.view(state, 0).my_commitment == A(HUNT, 1, 1)
    assert ENGINE.view(state, 1).my_commitment == 0
    assert A(HUNT, 1, 1) not in ENGINE.view(state, 1).players[0].display


def test_support_token_values_are_secret_until_the_end() -> None:
    state = scenario(
        passed=(0, 1, 2),
        turn=3,
        displays={0: [A(HUNT, 5)]},
        supports={1: 0},
        tokens=(2, 1, 0, 1, 2),
        day=pb.DAY_SATURDAY,
    )
    state.tokens[3].status = pb.KingsLifeToken.STATUS_WON
    state.tokens[3].holder = 2
    assert ENGINE.view(state, 2).tokens[3].known and ENGINE.view(state, 2).tokens[3].value == 1
    assert not ENGINE.view(state, 0).tokens[3].known
    assert ENGINE.view(state, 0).tokens[3].value == 0
    state, _ = step(state, 3, Move(passing=Move.Pass()))
    assert state.phase == Phase.PHASE_GAME_OVER
    view = ENGINE.view(state, None)
    assert [
        (t.known, t.value) for t in view.tokens if t.status == pb.KingsLifeToken.STATUS_WON
    ] == [
        (True, 1),
        (True, 2),
    ]
    assert [p.score for p in view.players] == [3, 2, 1, 0]


def test_revealed_hand_cards_are_public_and_kept_in_sampled_worlds() -> None:
    state = scenario(hands={0: [FOOL], 1: [A(HUNT, 2)]}, displays={0: [A(DANCE, 5)]})
    state, _ = play(state, 0, FOOL)
    state, _ = take_back(state, 0, A(DANCE, 5))
    assert list(ENGINE.view(state, 1).players[0].revealed) == [A(DANCE, 5)]
    for seed in range(10):
        world = ENGINE.randomize_hidden(state, 1, seed)
        assert A(DANCE, 5) in world.players[0].hand


def test_randomize_hidden_redraws_secrets_and_keeps_knowledge() -> None:
    state = ENGINE.setup(ENGINE.default_options(), 5, 42)
    changed = 0
    for seed in range(20):
        world = ENGINE.randomize_hidden(state, 2, seed)
        ENGINE.check_invariants(world)
        assert ENGINE.view(world, 2) == ENGINE.view(state, 2)
        assert list(world.players[2].hand) == list(state.players[2].hand)
        changed += world.players[0].hand != state.players[0].hand
        assert sorted(t.value for t in world.tokens) == sorted(t.value for t in state.tokens)
    assert changed > 15


def test_randomize_hidden_respects_what_the_answers_imply() -> None:
    # Initial round: seat 1 committed a sun card, seat 2 had none to commit.
    state = scenario(
        hands={
            0: [A(HUNT, 1, 1), A(HUNT, 5)],
            1: [A(DANCE, 2), A(DANCE, 4)],
            2: [DOG, A(FEAST, 3)],
        },
        phase=Phase.PHASE_INITIAL_ROUND,
    )
    state, _ = step(state, 1, Move(commit=Move.Commit(card=A(DANCE, 2))))
    state, _ = step(state, 2, Move(commit=Move.Commit()))
    for seed in range(30):
        world = ENGINE.randomize_hidden(state, 0, seed)
        assert CARD_SUN[world.players[1].commitment]
        assert not any(CARD_SUN[c] for c in world.players[2].hand)
        assert ENGINE.legal_moves(world, 0) == ENGINE.legal_moves(state, 0)
    # Mulligan: seat 1 took it, so its hand is characters only in every world.
    mull = scenario(hands={1: [DOG, PEON, ASTROLOGER, DUKE, THIEF_4]}, phase=Phase.PHASE_MULLIGAN)
    mull, _ = step(mull, 1, Move(mulligan=Move.Mulligan(take=True)))
    for seed in range(30):
        world = ENGINE.randomize_hidden(mull, 0, seed)
        assert not any(CARD_ACTIVITY[c] for c in world.players[1].hand)


def test_randomize_hidden_moves_a_hidden_cancel_with_the_queen() -> None:
    state = queen_window(2)
    state, _ = step(state, 2, Move(queen=Move.Queen(cancel=True, target=0)))
    state, _ = step(state, 3, Move(queen=Move.Queen()))
    rng = random.Random(3)
    for _ in range(40):
        world = ENGINE.randomize_hidden(state, 1, rng.randrange(2**32))
        holder = next((s for s, p in enumerate(world.players) if QUEEN in p.hand), -1)
        expected = holder if holder in (2, 3) else -1
        assert world.queen_canceller == expected
        assert ENGINE.view(world, 1) == ENGINE.view(state, 1)
