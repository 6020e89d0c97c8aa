"""Every game as a PettingZoo classic AEC environment (docs/rl.md, "PettingZoo").

``env(game_type, num_seats=..., options=None, render_mode=None)`` is the
wrapped environment (PettingZoo's classic wrappers: an illegal action ends the
game with -1 for its agent, actions are bounds-checked, calls are ordered);
``raw_env(...)`` the bare one. One agent per seat (``seat_0``, ``seat_1``...).

* ``observation_space(agent)``: a ``Dict`` of ``observation``, the seat's view
  tensor (``throneroom.games.tensor``: float32, the seat's own view only) and
  ``action_mask``, int8 over ``Discrete(N)``, N the game's action codec size,
  1 at the seat's legal actions when it is the agent to act (zeros otherwise).
* Rewards come at the end, from the outcome: 1 for each seat whose team is
  among the winners, -1 for the others, 0 for all on a draw.
* Every seat is terminated when the game ends; ``max_steps`` (optional)
  truncates every seat after that many decisions.
* ``reset(seed=...)`` deals the game from that seed (the engine's RNG), so the
  same seed and actions give the same game.
* ``render_mode="ansi"``: ``render()`` returns the game's terminal board of
  the spectator's view (no secrets) and who is to act, as text.

Simultaneous decisions (King's Life's, Kill the King's): each seat asked gets
its turn in ``agent_iter``, in seat order, and its answer is applied at once,
as the service's decision window applies each answer when it arrives: answers
are hidden until every asked seat has answered, and an answer never changes
what the other asked seats may answer (``kit.decisions``).
"""

from __future__ import annotations

import io
import random
from collections.abc import Mapping
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.utils import EzPickle
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers
from throneroom.notation import for_game

from throneroom_rl.table import Table, table

__all__ = ["env", "raw_env"]


def env(
    game_type: str,
    num_seats: int | None = None,
    options: Mapping[str, Any] | None = None,
    render_mode: str | None = None,
    max_steps: int | None = None,
) -> AECEnv:
    """The environment with PettingZoo's classic wrappers (see the module doc)."""
    wrapped: AECEnv = raw_env(game_type, num_seats, options, render_mode, max_steps)
    wrapped = wrappers.TerminateIllegalWrapper(wrapped, illegal_reward=-1)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)


class raw_env(AECEnv, EzPickle):  # type: ignore[misc]  # noqa: N801 - PettingZoo's own name
    """One game of ``game_type`` as an AEC environment (see the module doc)."""

    metadata: dict[str, Any] = {  # noqa: RUF012 - PettingZoo reads the class attribute
        "render_modes": ["ansi"],
        "name": "throneroom_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        game_type: str,
        num_seats: int | None = None,
        options: Mapping[str, Any] | None = None,
        render_mode: str | None = None,
        max_steps: int | None = None,
    ) -> None:
        EzPickle.__init__(self, game_type, num_seats, options, render_mode, max_steps)
        super().__init__()
        self.table: Table = table(game_type, num_seats, options)
        self.metadata = {**raw_env.metadata, "name": f"throneroom_{game_type}_v0"}
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode {render_mode!r}: only 'ansi' is offered")
        self.render_mode = render_mode
        self.max_steps = max_steps
        seats = self.table.seats
        self.possible_agents = [f"seat_{seat}" for seat in range(seats)]
        self._seat_of = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        size = self.table.num_actions
        tensor_size = self.table.tensor.size
        self.action_spaces = {agent: spaces.Discrete(size) for agent in self.possible_agents}
        self.observation_spaces = {
            agent: spaces.Dict(
                {
                    "observation": spaces.Box(
                        low=-np.inf, high=np.inf, shape=(tensor_size,), dtype=np.float32
                    ),
                    "action_mask": spaces.Box(low=0, high=1, shape=(size,), dtype=np.int8),
                }
            )
            for agent in self.possible_agents
        }
        self._seeds = random.Random()
        self._state: Any = None
        self._legal: dict[int, Any] = {}
        self._steps = 0

    # -- the spaces ---------------------------------------------------------------------

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    # -- the game -----------------------------------------------------------------------

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._seeds.seed(seed)
        self._state = self.table.setup(self._seeds.getrandbits(63))
        self._steps = 0
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._select()

    def _select(self) -> None:
        """The next agent: the first seat asked (every seat of a simultaneous
        decision in turn: each answer leaves the others asked)."""
        acting = self.table.to_act(self._state)
        if acting:
            seat = acting[0]
            self._legal = self.table.legal(self._state, seat)
            self.agent_selection = self.possible_agents[seat]
        else:
            self._legal = {}

    def observe(self, agent: str) -> dict[str, Any]:
        seat = self._seat_of[agent]
        tensor = self.table.tensor
        observation = np.zeros(tensor.size, dtype=np.float32)
        tensor.encode_into(self.table.view(self._state, seat), observation)  # type: ignore[arg-type]  # a numpy array is a MutableSequence of floats
        mask = np.zeros(self.table.num_actions, dtype=np.int8)
        if agent == self.agent_selection and self._legal:
            mask[list(self._legal)] = 1
        return {"observation": observation, "action_mask": mask}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        move = self._legal.get(int(action)) if action is not None else None
        if move is None:
            raise ValueError(f"{agent}: action {action} is not legal now")
        seat = self._seat_of[agent]
        self._cumulative_rewards[agent] = 0.0
        self._state, _ = self.table.game.apply(self._state, seat, move)
        self._steps += 1
        self.rewards = dict.fromkeys(self.agents, 0.0)
        if not self.table.to_act(self._state):
            for other, reward in zip(
                self.possible_agents, self.table.rewards(self._state), strict=True
            ):
                self.rewards[other] = reward
                self.terminations[other] = True
            self._legal = {}
            self.agent_selection = self.possible_agents[(seat + 1) % self.table.seats]
        elif self.max_steps is not None and self._steps >= self.max_steps:
            self.truncations = dict.fromkeys(self.agents, True)
            self._legal = {}
            self.agent_selection = self.possible_agents[(seat + 1) % self.table.seats]
        else:
            self._select()
        self._accumulate_rewards()

    # -- drawing ------------------------------------------------------------------------

    def render(self) -> str | None:
        if self.render_mode is None:
            from gymnasium import logger  # noqa: PLC0415 - only for the warning

            logger.warn("render() needs render_mode='ansi'")
            return None
        return board_text(self.table, self._state)

    def close(self) -> None:
        pass


def board_text(game: Table, state: Any) -> str:
    """The spectator's view drawn as the terminal draws it (rich, no colour),
    then who is to act."""
    from rich.console import Console  # noqa: PLC0415 - only when drawing
    from rich.panel import Panel  # noqa: PLC0415
    from rich.text import Text  # noqa: PLC0415
    from throneroom.games.protocol import game_client  # noqa: PLC0415

    view = game.view(state, None)
    out = io.StringIO()
    console = Console(file=out, width=100, color_system=None, force_terminal=False)
    drawn = game_client(game.name).terminal_board(view, viewer=None)
    if drawn is not None:
        for part in drawn:
            console.print(part)
    else:
        console.print(Panel(Text(for_game(game.name).render_view(view, None).rstrip("\n"))))
    acting = game.to_act(state)
    if acting:
        console.print("to act: " + ", ".join(f"seat {seat}" for seat in acting))
    else:
        outcome = game.game.outcome(state)
        console.print(f"over: {outcome.summary if outcome is not None else ''}")
    return out.getvalue()
