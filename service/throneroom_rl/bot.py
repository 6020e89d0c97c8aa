"""A learnt policy as an SDK bot (docs/rl.md, "Policies as bots").

``policy_bot(policy, seats=...)`` turns ``policy(observation, action_mask) ->
action`` (the arrays the PettingZoo environment gives: the seat's view tensor
and the mask over the game's action codec) into a :class:`throneroom.bots.Bot`:
it plays through any server (``throneroom.arena.play_match``, a play session,
a tournament file's ``bot = ...``) from the seat's view and legal moves only.

The codec and the tensor depend on the seat count and the options: give them
(``seats=``, ``options=``), or let a tournament tell the bot (``plays`` is
asked before the first game with both).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
import structlog
from throneroom.envelopes import unwrap
from throneroom.games.protocol import game_client
from throneroom.v1 import game_pb2

__all__ = ["Policy", "PolicyBot", "policy_bot"]

Policy = Callable[[npt.NDArray[np.float32], npt.NDArray[np.int8]], int]
"""(observation, action_mask) -> the number of the action to play."""

log = structlog.get_logger(__name__)


class IllegalAction(ValueError):
    """The policy chose an action outside the mask."""


class PolicyBot:
    """A bot that asks ``policy`` for each decision (see the module doc)."""

    def __init__(
        self,
        policy: Policy,
        *,
        seats: int | None = None,
        options: Mapping[str, Any] | None = None,
        name: str = "policy",
    ) -> None:
        self.policy = policy
        self.seats = seats
        self.options = dict(options or {})
        self.name = name

    def plays(self, game_type: str, num_seats: int, options: Mapping[str, Any]) -> bool:
        """Whether the game has a codec and a tensor; remembers the seats and
        options (a tournament asks before its first game)."""
        client = game_client(game_type)
        if client.actions(num_seats, options) is None:
            raise ValueError(f"{game_type} declares no action codec: no policy can play it")
        self.seats = num_seats
        self.options = dict(options)
        return True

    def choose(
        self,
        game_type: str,
        seat: int,
        view: game_pb2.View,
        legal_moves: Sequence[game_pb2.Move],
    ) -> game_pb2.Move:
        if not legal_moves:
            raise ValueError(f"seat {seat} has no legal move to choose from")
        if self.seats is None:
            raise ValueError("policy_bot needs the seat count: policy_bot(policy, seats=...)")
        client = game_client(game_type)
        codec = client.actions(self.seats, self.options)
        tensor = client.observations(self.seats, self.options)
        if codec is None or tensor is None:
            raise ValueError(f"{game_type} declares no action codec or view tensor")
        observation = np.zeros(tensor.size, dtype=np.float32)
        tensor.encode_into(unwrap(view), observation)  # type: ignore[arg-type]  # a numpy array is a MutableSequence of floats
        numbers = codec.mask(unwrap(move) for move in legal_moves)
        mask = np.zeros(codec.size, dtype=np.int8)
        mask[numbers] = 1
        action = int(self.policy(observation, mask))
        if action not in numbers:
            log.warning("policy_illegal_action", game=game_type, seat=seat, action=action)
            raise IllegalAction(f"the policy chose action {action}, not one of the legal actions")
        return legal_moves[numbers.index(action)]


def policy_bot(
    policy: Policy,
    *,
    seats: int | None = None,
    options: Mapping[str, Any] | None = None,
    name: str = "policy",
) -> PolicyBot:
    """``policy(observation, action_mask) -> action`` as an SDK bot."""
    return PolicyBot(policy, seats=seats, options=options, name=name)
