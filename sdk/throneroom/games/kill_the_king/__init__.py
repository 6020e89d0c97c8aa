"""Kill the King as data, for the engine and for clients.

* :mod:`.data`: the unit chart, the leaders, the modes, budgets, caps and round
  limits (a facade over :mod:`.enums`, :mod:`.units` and :mod:`.modes`);
* :mod:`.board`: the board as a text map, its loader and its rendering;
* :mod:`.field`: the field each mode plays on (Giga: two boards joined) and
  where each side sets up;
* :mod:`.texts`: one sentence per move and event in English, Spanish and
  Portuguese (``describe_move``, ``describe_event``, asked through the game's
  client, :mod:`.client`; the events' are :mod:`.events`'), with the words
  of :mod:`.words`;
* :mod:`.squares`: the one spelling of a square, ``b10`` (:func:`square_name`),
  for the notation, the sentences, the terminal and the web's labels.

The rules they encode are docs/rules/kill_the_king.md (rule numbers KK-n).
Only the standard library and the generated throneroom.v1 messages are used.
"""

from throneroom.games.kill_the_king.squares import square_name
from throneroom.games.kill_the_king.texts import describe_event, describe_move

__all__ = ["describe_event", "describe_move", "square_name"]
