"""The games as environments for learning agents (docs/rl.md).

* ``throneroom_rl.pettingzoo``: every game, mode and seat count as a PettingZoo
  classic AEC environment (``env``, ``raw_env``);
* ``throneroom_rl.openspiel``: importing it registers every game with OpenSpiel
  (``pyspiel.load_game("throneroom_<game>(players=3)")``);
* :func:`policy_bot`: a function ``(observation, action_mask) -> action`` as an
  SDK bot that plays through the service.

Needs the server's ``rl`` extra (``pip install 'throneroom-server[rl]'``).
The service never imports this package.
"""

from __future__ import annotations

from throneroom_rl.bot import PolicyBot, policy_bot

__all__ = ["PolicyBot", "policy_bot"]
