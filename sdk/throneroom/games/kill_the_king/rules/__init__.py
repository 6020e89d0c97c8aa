"""Kill the King's attack rules, once, for the engine and for the bots.

Which attacks a unit has and how hard each strikes (:class:`Strike`, worked
out in full before a die is rolled: the chart value, each modifier, every
roll with the value it needs and how its target defends), and the defence a
hit unit saves on (:func:`defence_value`). They read a :data:`Table`, the
engine's state or a seat's view alike (:mod:`.table`), so the server's
attack phase (``throneroom_server.games.kill_the_king.combat``) and the
heuristic bot (``throneroom.games.kill_the_king.bot``) plan with the same
code. Modules: :mod:`.scene` (what an attack sees, the plan's types, the
leaders' bonuses), :mod:`.strikes` (the patterns), :mod:`.bolt` (the
Ballista), :mod:`.attacks` (the dispatch by pattern, the second charge and
the defence value), :mod:`.gates` (who passes the outer gate, KK-55, KK-56).
"""

from throneroom.games.kill_the_king.rules.attacks import defence_value, second_charge, strikes_of
from throneroom.games.kill_the_king.rules.gates import gate_open_for, gate_side
from throneroom.games.kill_the_king.rules.scene import (
    Roll,
    Save,
    Scene,
    Strike,
    allegiance,
    hostile,
    knight_bonus,
)
from throneroom.games.kill_the_king.rules.strikes import climb_strike
from throneroom.games.kill_the_king.rules.table import Table, crew_of, field, in_play

__all__ = [
    "Roll",
    "Save",
    "Scene",
    "Strike",
    "Table",
    "allegiance",
    "climb_strike",
    "crew_of",
    "defence_value",
    "field",
    "gate_open_for",
    "gate_side",
    "hostile",
    "in_play",
    "knight_bonus",
    "second_charge",
    "strikes_of",
]
