"""King's Life's setup as chosen chance outcomes (kit.chance): the support
tokens, the deck, the first player and the king's will are listed chance
steps, so a test chooses the deal (``arrangement`` turns a wanted order into
the shuffle's outcomes) instead of searching for a seed."""

from __future__ import annotations

from throneroom.v1 import kings_life_pb2 as pb
from throneroom_server.games.kings_life.data import (
    ACTIVITIES,
    ALL_CARDS,
    TOKEN_VALUES,
    hand_size,
)
from throneroom_server.games.kit import Recorder, Scripted
from throneroom_server.games.kit.chance import arrangement, explore
from throneroom_server.games.registry import build_registry

GAME = build_registry()["kings_life"]
SEATS = 4
OPTIONS = GAME.default_options()


def _setup_with(script: list[int]) -> pb.KingsLifeState:
    picker = Scripted(script)
    state = GAME.setup(OPTIONS, SEATS, 0, chance=picker)
    picker.done()
    return state


def test_setup_lists_its_chance_steps_in_order() -> None:
    recorder = Recorder()
    GAME.setup(OPTIONS, SEATS, 5, chance=recorder)
    names = [step.name for step, _ in recorder.steps]
    expected = (
        ["shuffle:tokens"] * (len(TOKEN_VALUES) - 1)
        + ["shuffle:deck"] * (len(ALL_CARDS) - 1)
        + ["first_player"]
        + ["shuffle:kings_will"] * (len(ACTIVITIES) - 1)
    )
    assert names == expected
    first = explore(lambda c: GAME.setup(OPTIONS, SEATS, 5, chance=c)).step
    assert first is not None and first.name == "shuffle:tokens"
    assert first.size == len(TOKEN_VALUES)


def test_a_chosen_deal_gives_each_seat_the_hand_chosen() -> None:
    size = hand_size(pb.DAY_TUESDAY, SEATS)
    first_player = 2
    # The deal: clockwise from the first player, each seat draws its cards
    # from the top of the deck (its end). Seat 2 gets the six highest card ids,
    # seat 3 the next six, and so on.
    by_rank = sorted(ALL_CARDS, reverse=True)
    hands = {(first_player + i) % SEATS: by_rank[i * size : (i + 1) * size] for i in range(SEATS)}
    dealt = [card for i in range(SEATS) for card in hands[(first_player + i) % SEATS]]
    rest = sorted(set(ALL_CARDS) - set(dealt))
    deck = rest + dealt[::-1]  # drawn from the end: the first card dealt is last
    tokens = sorted(TOKEN_VALUES)
    will = list(reversed(ACTIVITIES))
    script = (
        arrangement(list(TOKEN_VALUES), tokens)
        + arrangement(list(ALL_CARDS), deck)
        + [first_player]
        + arrangement(list(ACTIVITIES), will)
    )

    state = _setup_with(script)

    assert state.first_player == first_player
    for seat, hand in hands.items():
        assert list(state.players[seat].hand) == hand, f"seat {seat}"
    assert list(state.deck) == rest
    assert [token.value for token in state.tokens] == tokens
    assert list(state.preferences) == will
    assert state.phase == pb.KingsLifeState.PHASE_EXCHANGE and state.turn == first_player


def test_two_seeds_under_one_script_deal_alike() -> None:
    """The script, not the seed, decides the deal."""
    recorder = Recorder()
    GAME.setup(OPTIONS, SEATS, 11, chance=recorder)
    script = [choice for _, choice in recorder.steps]
    a = GAME.setup(OPTIONS, SEATS, 11)
    b = GAME.setup(OPTIONS, SEATS, 99, chance=Scripted(script))
    assert [list(p.hand) for p in a.players] == [list(p.hand) for p in b.players]
    assert list(a.deck) == list(b.deck) and a.first_player == b.first_player
