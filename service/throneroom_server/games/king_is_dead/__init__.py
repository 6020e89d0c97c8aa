"""The King Is Dead (Peer Sylvester, Osprey Games): complete rules for 2-4
players with the Mordred variant. See docs/rules/king_is_dead.md.

Modules: ``board`` (the engine's tables, built from the SDK's data module
``throneroom.games.king_is_dead.data``), ``setup``, ``cards`` (legal
executions of each action card), ``moves`` (keys, messages and the lazy
legal-move list), ``rules`` (what each decision and each resolution does, on
plain data: the one implementation apply() and the last-card search share),
``effects`` and ``struggle`` (carrying decisions out on a state: turns,
passes, resolution), ``endings`` (control, invasion, Loyalist), ``lastcard``
(the 3-player last-card rule, its search owned by the engine object) with
``searchending`` (the forced ending its search plays out), ``explain``
(illegal-move messages), ``views``, ``invariants``, ``legality`` (the legal
decisions as keys, and the quick membership test) and ``engine`` (the game's
definition on the engine kit, and its engine). They import each other
without a cycle (tests/games/king_is_dead/test_import_graph.py).
"""

from throneroom_server.games.king_is_dead.engine import KingIsDead

__all__ = ["KingIsDead"]
