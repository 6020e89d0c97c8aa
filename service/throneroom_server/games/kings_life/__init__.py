"""King's Life (4-8 players): the complete rules engine.

Modules, by concept, in import order (the graph is acyclic; a test checks):
``data`` (re-exports the game's one data home, the SDK's
``throneroom.games.kings_life.data``), ``table`` (deck, discard, moving
cards), ``choices`` (decision trees: legal moves and their check written
once), ``steps`` (what follows a decision, as data), ``shapes`` (malformed
moves), ``support`` (passing, Guard and Peon support), ``queen`` (the Queen
window), ``days`` (the king's will, dealing, exchange, mulligan, from one day
to the next), ``characters`` (plays and card effects, the Fool's take-back),
``suggestions`` (initial round, turns, passing), ``reckoning`` (programs, the
king's choice, the Duke, rewards, final score), ``phases`` (the table of
phases and the steps between decisions), ``views`` (views, redaction,
hidden-world sampling), ``invariants`` and ``engine`` (the game's definition on
the engine kit, ``KINGS_LIFE``, and its engine).
"""

from throneroom_server.games.kings_life.engine import KingsLife

__all__ = ["KingsLife"]
