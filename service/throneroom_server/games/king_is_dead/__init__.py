"""The King Is Dead (Peer Sylvester, Osprey Games): complete rules for 2-4
players with the Mordred variant. See docs/rules/king_is_dead.md.

Modules: ``board`` (the map and components as data), ``setup``, ``cards``
(legal executions of each action card), ``moves`` (keys, messages and the
lazy legal-move list), ``effects`` and ``struggle`` (carrying out decisions,
turns, passes, resolution), ``endings`` (control, invasion, Loyalist),
``lastcard`` (the 3-player last-card rule) with ``searchending`` (the forced
ending its search plays out), ``explain`` (illegal-move messages),
``views``, ``invariants`` and ``engine`` (the Game protocol).
"""

from throneroom_server.games.king_is_dead.engine import KingIsDead

__all__ = ["KingIsDead"]
