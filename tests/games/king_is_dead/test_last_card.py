"""The 3-player last-card rule (rule 4.2): the 24th card only to win at once."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
from throneroom_server.games.core import IllegalMoveError
from throneroom_server.games.king_is_dead import lastcard, legality

from .helpers import (
    AQS,
    C_R,
    C_S,
    C_W,
    CAER,
    CAL,
    DEVA,
    DIN,
    EBO,
    GAME,
    LON,
    RATAE,
    SAX,
    SCOTS_CARD,
    D,
    S,
    State,
    W,
    act,
    build,
    cards_except,
    decision,
    legal,
    pass_,
    place,
    play,
    summon,
)

# Welsh 2, Scots 2, Romano-British 2 regions; the Romano-British won last
# (Caerleon). Aquae Sulis is left, with one Welsh follower.
RESOLVED = [
    (CAL, C_W),
    (DIN, C_W),
    (DEVA, C_S),
    (RATAE, C_S),
    (EBO, C_R),
    (LON, SAX),
    (CAER, C_R),
]
HOLDER_ONLY = [cards_except(SCOTS_CARD), cards_except(), cards_except()]


def _last_card_state(courts: list[tuple[int, int, int]]) -> State:
    return build(3, board={AQS: (0, 1, 0)}, resolved=RESOLVED, courts=courts, played=HOLDER_ONLY)


def test_last_card_may_be_played_only_to_win() -> None:
    state = _last_card_state([(3, 0, 0), (0, 3, 0), (0, 0, 3)])
    assert lastcard.last_card_in_play(state)
    assert GAME.view(state, 0).last_card_rule
    # Passing, the Welsh win Aquae Sulis and rule: seat 1 would win.
    assert legal(state) == [pass_(), play(SCOTS_CARD)]
    state, _ = act(state, play(SCOTS_CARD))
    assert decision(state) == D.DECISION_PLACE
    state, _ = act(state, place(AQS), place(AQS))
    # Aquae Sulis holds 2 blue, 1 red. Summoning blue would tie it (Saxons, and
    # the Romano-British rule by recency); only summoning the red follower wins.
    assert legal(state) == [summon(AQS, W)]
    with pytest.raises(IllegalMoveError, match="last action card of a 3-player game"):
        GAME.apply(state, 0, summon(AQS, S))
    state, _ = act(state, summon(AQS, W))
    assert state.outcome.termination == "control"
    assert list(state.outcome.winners) == [0]


def test_last_card_that_cannot_win_must_be_held() -> None:
    state = _last_card_state([(0, 0, 0), (2, 3, 0), (0, 0, 3)])
    assert legal(state) == [pass_()]
    with pytest.raises(IllegalMoveError, match="may only be played to win the game at once"):
        GAME.apply(state, 0, play(SCOTS_CARD))
    state, _ = act(state, pass_())
    assert state.HasField("outcome") and list(state.outcome.winners) == [1]


def test_rule_only_with_three_players() -> None:
    state = build(
        2,
        board={AQS: (0, 1, 0)},
        resolved=RESOLVED,
        courts=[(0, 0, 0), (2, 3, 0)],
        played=[cards_except(SCOTS_CARD), cards_except()],
    )
    assert not lastcard.last_card_in_play(state)
    assert play(SCOTS_CARD) in legal(state)


# -- the search against the engine itself --------------------------------------------


def _completions_win(state: State, seat: int) -> bool:
    """Whether some sequence of the engine's (unrestricted) decisions for the
    card being resolved ends with ``seat`` winning (brute force)."""
    if state.HasField("outcome"):
        return seat in state.outcome.winners
    assert GAME.to_act(state) == (seat,)
    return any(
        _completions_win(GAME.apply(state, seat, move)[0], seat)
        for move in GAME.legal_moves(state, seat)
    )


def _last_card_positions(count: int, mordred: bool) -> Iterator[State]:
    """Positions of random 3-player games where a seat holds the game's last card."""
    found = 0
    options = GAME.default_options()
    options.mordred = mordred
    for seed in range(1000):
        chooser = random.Random(seed)
        state = GAME.setup(options, 3, seed)
        while not state.HasField("outcome"):
            seat = GAME.to_act(state)[0]
            if lastcard.last_card_in_play(state) and decision(state) == D.DECISION_TURN:
                found += 1
                yield state
                break
            moves = GAME.legal_moves(state, seat)
            state, _ = GAME.apply(state, seat, moves[chooser.randrange(len(moves))])
        if found >= count:
            return


@pytest.mark.parametrize("mordred", [False, True])
def test_search_agrees_with_playing_every_completion(
    monkeypatch: pytest.MonkeyPatch, mordred: bool
) -> None:
    positions = list(_last_card_positions(25, mordred))
    assert len(positions) == 25
    allowed_count = 0
    for state in positions:
        seat = state.to_move
        (card,) = state.seats[seat].hand
        allowed = play(card) in legal(state)
        allowed_count += allowed
        node = GAME.apply(state, seat, play(card))[0] if allowed else None
        # Brute force through apply() with the restriction lifted.
        with monkeypatch.context() as patch:
            patch.setattr(legality, "resolving_last_card", lambda _state: False)
            patch.setattr(legality, "last_card_in_play", lambda _state: False)
            wins = _completions_win(GAME.apply(state, seat, play(card))[0], seat)
        assert allowed == wins, GAME.view(state, None)
        # Along a winning path, each decision offers exactly the choices that
        # keep a winning completion.
        while node is not None and GAME.to_act(node) == (seat,):
            restricted = list(GAME.legal_moves(node, seat))
            with monkeypatch.context() as patch:
                patch.setattr(legality, "resolving_last_card", lambda _state: False)
                options = list(GAME.legal_moves(node, seat))
                winning = [
                    m for m in options if _completions_win(GAME.apply(node, seat, m)[0], seat)
                ]
            assert restricted == winning
            node = GAME.apply(node, seat, restricted[-1])[0]
        if node is not None:
            assert seat in node.outcome.winners
    assert 5 <= allowed_count <= 20
