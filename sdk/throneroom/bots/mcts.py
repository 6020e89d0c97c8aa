"""An information-set MCTS bot: it simulates with the rules engines and samples
the hidden information from its own seat's view only.

For each decision the bot samples ``worlds`` determinizations: full states
built from the view it was given (never the true state; see
each game's ``mcts_world``) and redrawn with the engine's
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

The King Is Dead: the bot remembers the cards it saw on top of the other
piles in its earlier views (``throneroom.games.king_is_dead.mcts_memory``, the memory
the rulebook asks of players); worlds keep those cards in place and draw only
the rest. When the memory accounts for every played card (always, for a seat
that still holds cards: see that module) all worlds are the same, and one
world gets all the ``iterations``. Leaves are valued with the heuristic bot's
``evaluate`` plus the cards in hand, and a node with more than ``WIDE`` moves
(a Garrison's or an Ambassador's executions, the Crown's swaps, the summons)
is widened progressively: ``2 sqrt(visits)`` children, and from its
``ORDER_AFTER``-th visit its untried moves are tried best first by that
``evaluate`` after the move.

Kill the King: the rollout search (below) over the attack phase's choices,
the dice sampled from the engine's listed chance outcomes (``kit.chance``),
every candidate of one sample meeting the same dice (``Guide.paired_chance``);
see ``throneroom.games.kill_the_king.mcts``.

What the search knows of a game beyond its engine (its worlds, memory, prior,
leaf value or rollout guide) is the game's own, asked of its client by name
(``game_client(game).search()``, a ``SearchKnowledge``); a game without it
cannot be played by this bot.

Simulation needs the engines, i.e. the ``throneroom-server`` distribution
(the one place the SDK imports the server, lazily; without it ``choose``
raises :class:`throneroom.arena.ServerNotInstalled`). Seeded, it replays.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from throneroom.envelopes import unwrap
from throneroom.games.protocol import SearchKnowledge, SearchMemory, game_client
from throneroom.v1 import game_pb2

__all__ = ["MctsBot"]


class _Node:
    """One state of a world's search tree, with the statistics of reaching it."""

    __slots__ = ("actor", "children", "moves", "ordered", "state", "total", "untried", "visits")

    def __init__(self, game: Any, state: Any, seats: int, rng: random.Random, actor: int = -1):
        self.state = state
        acting = game.to_act(state)
        self.actor = actor if actor >= 0 else (acting[0] if acting else -1)
        self.moves: list[Any] = list(game.legal_moves(state, self.actor)) if acting else []
        self.untried = list(range(len(self.moves)))
        rng.shuffle(self.untried)
        self.ordered = len(self.moves) <= WIDE
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
        rollout_epsilon: float = 0.0,
        horizon: int = 0,
    ) -> None:
        if iterations < 1 or worlds < 1:
            raise ValueError("iterations and worlds must be at least 1")
        self._random = random.Random(seed)
        self.iterations = iterations
        self.worlds = worlds
        self.exploration = exploration
        self.rollout_epsilon = rollout_epsilon
        self.horizon = horizon
        self._registry: dict[str, Any] | None = None
        self._memories: dict[str, SearchMemory] = {}

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
        if _knowledge(game_type) is None or game_type not in self._registry:
            raise ValueError(f"the MCTS bot cannot build worlds of {game_type!r}")
        return self._registry[game_type]

    def plays(self, game_type: str, num_seats: int, options: Mapping[str, Any]) -> bool:
        """Whether this bot plays ``game_type`` (raises, saying why, when it cannot:
        no world builder for the game, or the server distribution missing)."""
        self._game(game_type)
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
        knowledge = _knowledge(game_type)
        memory = self._memory(game_type, knowledge)
        if memory is not None:
            memory.observe(unwrap(view), seat)  # every view, forced decisions' too
        if len(legal_moves) == 1:
            return legal_moves[0]
        game = self._game(game_type)
        mine = unwrap(view)
        assert knowledge is not None  # self._game refuses a game without it
        guide = knowledge.guide
        if guide is not None:
            moves = [unwrap(move) for move in legal_moves]
            return legal_moves[
                self._rollout_search(game, knowledge, seat, mine, moves, memory=memory)
            ]
        keys = [game.move_key(unwrap(move)) for move in legal_moves]
        visits = dict.fromkeys(keys, 0)
        rewards = dict.fromkeys(keys, 0.0)
        worlds = self.worlds
        if memory is not None and memory.determined(mine, seat):
            worlds = 1  # the other hands are known: every world is this one
        per_world = self.iterations // worlds
        for _ in range(worlds):
            world = self._world(game, knowledge, memory, mine, seat)
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

    def _memory(self, game_type: str, knowledge: SearchKnowledge | None) -> SearchMemory | None:
        """This bot's memory of the game (kept across decisions), if the game has one."""
        if knowledge is None or knowledge.memory is None:
            return None
        if game_type not in self._memories:
            self._memories[game_type] = knowledge.memory()
        return self._memories[game_type]

    def _world(
        self,
        game: Any,
        knowledge: SearchKnowledge,
        memory: SearchMemory | None,
        mine: Any,
        seat: int,
    ) -> Any:
        """One determinization: a state built from the seat's view, hidden parts redrawn."""
        placeholder = knowledge.world(mine, seat)
        world = game.randomize_hidden(placeholder, seat, self._random.getrandbits(63))
        if memory is not None:
            memory.redraw(world, seat, self._random)
        return world

    # --- Rollout search (games with a guide) ------------------------------------------

    def _rollout_search(
        self,
        game: Any,
        knowledge: SearchKnowledge,
        seat: int,
        mine: Any,
        moves: list[Any],
        *,
        memory: SearchMemory | None,
    ) -> int:
        """The index of the move to play: sequential halving over the guide's
        candidates, each rollout of every surviving candidate played in the same
        sampled world (paired comparisons); the guide's own choice wins ties and
        is never eliminated."""
        guide: Guide = knowledge.guide
        chosen = moves.index(guide.policy(seat, mine, moves))
        alive = guide.candidates(seat, mine, moves, chosen)
        if len(alive) == 1:
            return alive[0]
        totals = dict.fromkeys(alive, 0.0)
        rounds = max(1, math.ceil(math.log2(len(alive))))
        samples = 0
        sampled = _sampled_chance() if guide.paired_chance else None
        for round_ in range(rounds):
            per = max(1, self.iterations // (rounds * len(alive)))
            for _ in range(per):
                world = self._world(game, knowledge, memory, mine, seat)
                seed = self._random.getrandbits(63)
                for index in alive:
                    # paired_chance: every candidate meets the same dice (one seed)
                    chance = sampled(seed) if sampled is not None else None
                    state, _ = game.apply(world, seat, moves[index], chance=chance)
                    totals[index] += self._guided_rollout(game, guide, state, chance)[seat]
            samples += per
            if round_ < rounds - 1:
                ranked = sorted(alive, key=lambda i: (-totals[i], i != chosen, i))
                keep = ranked[: math.ceil(len(ranked) / 2)]
                alive = keep if chosen in keep else [chosen, *keep[:-1]]
        return max(alive, key=lambda i: (totals[i], i == chosen, -i))

    def _guided_rollout(
        self, game: Any, guide: Guide, state: Any, chance: Any = None
    ) -> list[float]:
        """Play ``state`` to its end with the guide's policy in every seat (each
        from its own view; a uniformly random move with probability
        ``rollout_epsilon``) and score it with the guide's rewards. ``chance``
        (a ``kit.chance`` picker) chooses the chance steps (None: the world's
        own RNG)."""
        rng = self._random
        epsilon = self.rollout_epsilon
        last_stage = guide.stage(state) + self.horizon if self.horizon else -1
        while acting := game.to_act(state):
            if last_stage >= 0 and guide.stage(state) >= last_stage:
                return guide.estimate(state)
            actor = acting[0]
            moves = game.legal_moves(state, actor)
            if len(moves) == 1:
                move = moves[0]
            elif epsilon and rng.random() < epsilon:
                move = moves[rng.randrange(len(moves))]
            else:
                move = guide.policy(actor, game.view(state, actor), list(moves))
            state, _ = game.apply(state, actor, move, chance=chance)
        outcome = game.outcome(state)
        return guide.rewards(state, list(outcome.winners) if outcome is not None else [])

    # --- Determinized UCT (other games) -------------------------------------------------

    def _iterate(self, game: Any, root: _Node) -> None:
        seats = len(root.total)
        node = root
        path = [node]
        while node.children and not (node.untried and len(node.children) < _width(node)):
            node = self._select(node)
            path.append(node)
        if node.untried:
            if not node.ordered and node.visits >= ORDER_AFTER:
                _order(game, node)
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
        knowledge = _knowledge(game.info.name)
        value = knowledge.value if knowledge is not None else None
        if outcome is None and value is not None:
            return value(game, state, seats)
        winners = self._playout(game, state) if outcome is None else list(outcome.winners)
        reward = [0.0] * seats
        for winner in winners:
            reward[winner] = 1.0
        return reward

    def _playout(self, game: Any, state: Any) -> Sequence[int]:
        """A uniformly random playout to the end of the game: its winners."""
        rng = self._random
        while acting := game.to_act(state):
            moves = game.legal_moves(state, acting[0])
            state, _ = game.apply(state, acting[0], moves[rng.randrange(len(moves))])
        outcome = game.outcome(state)
        return list(outcome.winners) if outcome is not None else []


WIDE = 12
"""A node with more moves than this is widened progressively: its moves are
tried in the order of the game's prior (best first), ``_width`` at a time."""


ORDER_AFTER = 4
"""A wide node's moves are put in the prior's order once it has this many
visits (before, its first children are untried moves at random): the prior
costs an ``evaluate`` per move, worth it on the paths the search comes back to."""


def _width(node: _Node) -> int:
    """How many children a node may have after its visits: all for a narrow
    node, else 2 sqrt(visits) (1 visit: 2; 100: 20; 1200: 69)."""
    if len(node.moves) <= WIDE:
        return len(node.moves)
    return math.ceil(2.0 * math.sqrt(node.visits))


def _order(game: Any, node: _Node) -> None:
    """Order a wide node's untried moves by the game's prior, best last (popped
    first); the random order breaks ties. Without a prior the order stays random."""
    node.ordered = True
    knowledge = _knowledge(game.info.name)
    prior = knowledge.prior if knowledge is not None else None
    if prior is None:
        return
    values = prior(game, node.state, node.actor, node.moves)
    node.untried.sort(key=lambda index: values[index])


@dataclass(frozen=True)
class Guide:
    """A game's knowledge for the rollout search: its rollout policy (a seat,
    its view and legal moves -> a move), the candidates worth searching (a
    seat, its view, its legal moves and the policy's choice -> indices, that
    choice first) and the rewards of a finished state (with its winners)."""

    game: str
    policy: Callable[[int, Any, list[Any]], Any]
    candidates: Callable[[int, Any, Sequence[Any], int], list[int]]
    rewards: Callable[[Any, Sequence[int]], list[float]]
    stage: Callable[[Any], int]
    estimate: Callable[[Any], list[float]]
    paired_chance: bool = False
    """Sample the chance steps (dice) of each rollout from the engine's listed
    outcomes (``kit.chance.Sampled``), the same seed for every candidate of one
    sample: candidates are compared under the same luck (common random numbers)."""


def _sampled_chance() -> Callable[[int], Any]:
    """``kit.chance.Sampled`` (the server distribution is there: the search runs it)."""
    from throneroom_server.games.kit.chance import Sampled  # noqa: PLC0415 - with the engines

    return Sampled


def _knowledge(game_type: str) -> SearchKnowledge | None:
    """What the game's package tells the search (None: the bot cannot play it)."""
    try:
        return game_client(game_type).search()
    except ValueError:  # not a game of the protos
        return None


def mine_seats(view: Any) -> Sequence[Any]:
    """The seats of a view (King Is Dead: ``seats``; King's Life: ``players``)."""
    return list(view.seats) if hasattr(view, "seats") else list(view.players)
