"""An information-set MCTS bot: it simulates with the rules engines and samples
the hidden information from its own seat's view only.

For each decision the bot samples ``worlds`` determinizations: full states
built from the view it was given (never the true state; see
:mod:`throneroom.bots.mcts_worlds`) and redrawn with the engine's
``randomize_hidden(state, seat, seed)``. In each world it runs UCT
(``iterations / worlds`` iterations): selection by UCB1 on the reward of the
seat acting at each node (multiplayer: each seat maximises its own wins),
expansion of one untried move, a uniformly random playout with the engine to
the end of the game, and every seat among the winners scores 1 (a team's
seats win together). The root's visit counts are summed over the worlds and
the most visited legal move is played (ties: the better mean reward, then the
server's order). This is determinized UCT in the sense of Cowling, Powley and
Whitehouse ("Information Set Monte Carlo Tree Search", 2012): sampling worlds
from the seat's information set and averaging the searches.

Simulation needs the engines, i.e. the ``throneroom-server`` distribution
(the one place the SDK imports the server, lazily; without it ``choose``
raises :class:`throneroom.arena.ServerNotInstalled`). Seeded, it replays.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from typing import Any

from throneroom.bots import Bot
from throneroom.bots.mcts_worlds import WORLD_BUILDERS
from throneroom.envelopes import unwrap, wrap
from throneroom.v1 import game_pb2

__all__ = ["MctsBot"]


class _Node:
    """One state of a world's search tree, with the statistics of reaching it."""

    __slots__ = ("actor", "children", "moves", "state", "total", "untried", "visits")

    def __init__(self, game: Any, state: Any, seats: int, rng: random.Random, actor: int = -1):
        self.state = state
        acting = game.to_act(state)
        self.actor = actor if actor >= 0 else (acting[0] if acting else -1)
        self.moves: list[Any] = list(game.legal_moves(state, self.actor)) if acting else []
        self.untried = list(range(len(self.moves)))
        rng.shuffle(self.untried)
        self.children: dict[int, _Node] = {}
        self.visits = 0
        self.total = [0.0] * seats


class MctsBot:
    """Determinized UCT over worlds sampled from the seat's view (see the module doc)."""

    name = "mcts"

    def __init__(
        self,
        seed: int | None = None,
        *,
        iterations: int = 1200,
        worlds: int = 8,
        exploration: float = 0.7,
    ) -> None:
        if iterations < 1 or worlds < 1:
            raise ValueError("iterations and worlds must be at least 1")
        self._random = random.Random(seed)
        self.iterations = iterations
        self.worlds = worlds
        self.exploration = exploration
        self._registry: dict[str, Any] | None = None

    def _game(self, game_type: str) -> Any:
        if self._registry is None:
            try:
                from throneroom_server.games.registry import (  # noqa: PLC0415 - optional
                    build_registry,
                )
            except ModuleNotFoundError as error:
                if (error.name or "").split(".")[0] != "throneroom_server":
                    raise
                from throneroom.arena import ServerNotInstalled  # noqa: PLC0415

                raise ServerNotInstalled() from error
            self._registry = dict(build_registry())
        if game_type not in WORLD_BUILDERS or game_type not in self._registry:
            raise ValueError(f"the MCTS bot cannot build worlds of {game_type!r}")
        return self._registry[game_type]

    def choose(
        self,
        game_type: str,
        seat: int,
        view: game_pb2.View,
        legal_moves: Sequence[game_pb2.Move],
    ) -> game_pb2.Move:
        if not legal_moves:
            raise ValueError(f"seat {seat} has no legal move to choose from")
        if len(legal_moves) == 1:
            return legal_moves[0]
        game = self._game(game_type)
        mine = unwrap(view)
        keys = [game.move_key(unwrap(move)) for move in legal_moves]
        visits = dict.fromkeys(keys, 0)
        rewards = dict.fromkeys(keys, 0.0)
        per_world = max(len(legal_moves), self.iterations // self.worlds)
        for _ in range(self.worlds):
            placeholder = WORLD_BUILDERS[game_type](mine, seat)
            world = game.randomize_hidden(placeholder, seat, self._random.getrandbits(63))
            root = _Node(game, world, len(mine_seats(mine)), self._random, actor=seat)
            for _ in range(per_world):
                self._iterate(game, root)
            for child_index, child in root.children.items():
                key = game.move_key(root.moves[child_index])
                if key in visits:
                    visits[key] += child.visits
                    rewards[key] += child.total[seat]
        best = max(
            range(len(keys)),
            key=lambda i: (visits[keys[i]], rewards[keys[i]] / max(1, visits[keys[i]]), -i),
        )
        return legal_moves[best]

    def _iterate(self, game: Any, root: _Node) -> None:
        seats = len(root.total)
        node = root
        path = [node]
        while not node.untried and node.children:
            node = self._select(node)
            path.append(node)
        if node.untried:
            index = node.untried.pop()
            state, _ = game.apply(node.state, node.actor, node.moves[index])
            child = _Node(game, state, seats, self._random)
            node.children[index] = child
            path.append(child)
            node = child
        reward = self._leaf_value(game, node.state, seats)
        for visited in path:
            visited.visits += 1
            for s, value in enumerate(reward):
                visited.total[s] += value

    def _select(self, node: _Node) -> _Node:
        log_n = math.log(node.visits)
        actor = node.actor
        c = self.exploration
        return max(
            node.children.values(),
            key=lambda child: (
                child.total[actor] / child.visits + c * math.sqrt(log_n / child.visits)
            ),
        )

    def _leaf_value(self, game: Any, state: Any, seats: int) -> list[float]:
        """Each seat's reward from a leaf: 1 per winner at the end of the game;
        before it, the game's evaluator if it has one, else a random playout."""
        outcome = game.outcome(state)
        if outcome is None and game.info.name in _EVALUATORS:
            return _EVALUATORS[game.info.name](game, state, seats)
        winners = self._playout(game, state) if outcome is None else list(outcome.winners)
        reward = [0.0] * seats
        for winner in winners:
            reward[winner] = 1.0
        return reward

    def _playout(self, game: Any, state: Any) -> Sequence[int]:
        rng = self._random
        name = game.info.name
        policy = _PLAYOUT_POLICIES.get(name)
        players: dict[int, Bot] = {}
        while acting := game.to_act(state):
            actor = acting[0]
            moves = game.legal_moves(state, actor)
            if policy is None or len(moves) == 1:
                move = moves[rng.randrange(len(moves))]
            else:
                bot = players.get(actor)
                if bot is None:
                    bot = players[actor] = policy(rng.getrandbits(32))
                view = wrap(game_pb2.View, name, game.view(state, actor))
                legal = [wrap(game_pb2.Move, name, m) for m in moves]
                move = unwrap(bot.choose(name, actor, view, legal))
            state, _ = game.apply(state, actor, move)
        outcome = game.outcome(state)
        return list(outcome.winners) if outcome is not None else []


def _king_is_dead_value(game: Any, state: Any, seats: int) -> list[float]:
    """The King Is Dead heuristic bot's ``evaluate`` from each seat's own view,
    squashed into (0, 1): it predicts the ending from the board and scores
    "do I win" plus the margins (see throneroom.bots.king_is_dead)."""
    from throneroom.bots.king_is_dead import Model, evaluate  # noqa: PLC0415 - only for this game

    values = []
    cards = [len(s.hand) for s in state.seats]
    for seat in range(seats):
        score = evaluate(Model.of(game.view(state, seat), seat))
        # Cards in hand are the last word in the struggles to come (the
        # heuristic bot's card_reserve: 0.3 per card kept).
        others = [cards[s] for s in range(seats) if s != seat]
        score += CARD_VALUE * (cards[seat] - sum(others) / len(others))
        values.append(1.0 / (1.0 + math.exp(-4.0 * (score - 0.5))))
    return values


CARD_VALUE = 0.3


_EVALUATORS: dict[str, Callable[[Any, Any, int], list[float]]] = {
    "king_is_dead": _king_is_dead_value
}


def _kings_life_policy(seed: int) -> Bot:
    from throneroom.bots.kings_life import KingsLifeBot  # noqa: PLC0415 - only for this game

    return KingsLifeBot(seed=seed)


_PLAYOUT_POLICIES: dict[str, Callable[[int], Bot]] = {"kings_life": _kings_life_policy}
"""Games whose playouts are played by their heuristic bot in every seat (from
each seat's own view and legal moves) instead of uniformly at random."""


def mine_seats(view: Any) -> Sequence[Any]:
    """The seats of a view (King Is Dead: ``seats``; King's Life: ``players``)."""
    return list(view.seats) if hasattr(view, "seats") else list(view.players)
