"""policy_bot: a policy over the environment's arrays plays whole games through
a real server (the in-process service over gRPC; and on a throwaway Redis)."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import numpy.typing as npt
import pytest
from throneroom import Client, RandomBot
from throneroom.arena import play_match
from throneroom_rl import policy_bot
from throneroom_rl.bot import IllegalAction
from throneroom_rl.table import table
from throneroom_server.embedded import EmbeddedServer


class LowestAction:
    """A policy that plays the lowest legal action and records what it saw."""

    def __init__(self) -> None:
        self.seen: list[tuple[int, int]] = []

    def __call__(self, observation: npt.NDArray[np.float32], mask: npt.NDArray[np.int8]) -> int:
        self.seen.append((observation.size, mask.size))
        return int(np.flatnonzero(mask)[0])


@pytest.fixture(scope="module")
def server() -> Iterator[EmbeddedServer]:
    with EmbeddedServer() as embedded:
        yield embedded


@pytest.mark.parametrize(("name", "seats"), [("king_is_dead", 2), ("kings_life", 4)])
def test_a_policy_plays_a_whole_game_through_the_server(
    server: EmbeddedServer, name: str, seats: int
) -> None:
    policy = LowestAction()
    bots = [policy_bot(policy, seats=seats), *(RandomBot(seed) for seed in range(1, seats))]
    with Client(server.address) as client:
        result = play_match(client, name, bots, seed=9)
    assert result.winners  # the game ended with an outcome
    tbl = table(name, seats)
    assert policy.seen and set(policy.seen) == {(tbl.tensor.size, tbl.num_actions)}


def test_on_redis(redis_url: str) -> None:
    policy = LowestAction()
    with EmbeddedServer(redis_url=redis_url) as embedded, Client(embedded.address) as client:
        result = play_match(client, "king_is_dead", [policy_bot(policy, seats=2), RandomBot(3)])
    assert result.winners and policy.seen


def test_a_tournament_tells_the_bot_its_seats_and_options() -> None:
    bot = policy_bot(LowestAction())
    assert bot.plays("king_is_dead", 3, {"mordred": True})
    assert (bot.seats, bot.options) == (3, {"mordred": True})


def test_an_illegal_action_is_refused(server: EmbeddedServer) -> None:
    def illegal(observation: npt.NDArray[np.float32], mask: npt.NDArray[np.int8]) -> int:
        return int(np.flatnonzero(mask == 0)[0])

    bot = policy_bot(illegal, seats=2)
    with Client(server.address) as client, pytest.raises(IllegalAction):
        play_match(client, "king_is_dead", [bot, bot], seed=1)
