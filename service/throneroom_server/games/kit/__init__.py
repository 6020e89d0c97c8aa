"""The engine kit: a game as one declarative definition, with one checked apply.

A game declares a :class:`GameDefinition` (metadata, options, setup, the table
of phases, its move kinds, views, invariants, test declarations), names it in
an :class:`Engine` subclass, and is registered by one line in ``registry.py``.
The kit derives ``to_act``, ``legal_moves``, the checked ``apply``, option
checks, the service's envelope face (:class:`EnvelopeGame`) and the decision
clock of simultaneous decisions. docs/kit.md is its reference, with Nim as the worked example.
"""

from throneroom_server.games.kit.chance import (
    ChanceNeeded,
    ChanceStep,
    Picker,
    Recorder,
    RngPicker,
    Scripted,
)
from throneroom_server.games.kit.decisions import advance_clock, earliest_version, start_clock
from throneroom_server.games.kit.definition import (
    GameDefinition,
    Golden,
    Option,
    Testing,
    Variant,
)
from throneroom_server.games.kit.engine import DecisionKey, Engine
from throneroom_server.games.kit.fast import Fast, memoized
from throneroom_server.games.kit.keyed import KeyedMoves
from throneroom_server.games.kit.legacy import LegacyEngine, legacy_game
from throneroom_server.games.kit.messages import Key, derived_key
from throneroom_server.games.kit.phases import (
    MoveKind,
    Phase,
    PhaseField,
    PhaseKind,
    PhaseTable,
    PhaseTableError,
    PhaseTransitionError,
    end,
    shared,
    simultaneous,
    turn,
)
from throneroom_server.games.kit.service import EnvelopeGame, KitGame, ServiceGame

__all__ = [
    "ChanceNeeded",
    "ChanceStep",
    "DecisionKey",
    "Engine",
    "EnvelopeGame",
    "Fast",
    "GameDefinition",
    "Golden",
    "Key",
    "KeyedMoves",
    "KitGame",
    "LegacyEngine",
    "MoveKind",
    "Option",
    "Phase",
    "PhaseField",
    "PhaseKind",
    "PhaseTable",
    "PhaseTableError",
    "PhaseTransitionError",
    "Picker",
    "Recorder",
    "RngPicker",
    "Scripted",
    "ServiceGame",
    "Testing",
    "Variant",
    "advance_clock",
    "derived_key",
    "earliest_version",
    "end",
    "legacy_game",
    "memoized",
    "shared",
    "simultaneous",
    "start_clock",
    "turn",
]
