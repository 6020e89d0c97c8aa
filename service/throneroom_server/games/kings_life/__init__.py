"""King's Life (4-8 players): the complete rules engine.

Modules, by concept: ``data`` (every number and default, with its reason),
``table`` (deck, discard, moving cards), ``days`` (the king's will, dealing,
exchange, mulligan, from one day to the next), ``suggestions`` (initial round,
turns, passing and support, the Queen window), ``characters`` (plays and card
effects), ``reckoning`` (programs, the king's choice, the Duke, rewards, final
score), ``views`` (views, redaction, hidden-world sampling), ``invariants`` and
``engine`` (the Game protocol).
"""

from throneroom_server.games.kings_life.engine import KingsLife

__all__ = ["KingsLife"]
