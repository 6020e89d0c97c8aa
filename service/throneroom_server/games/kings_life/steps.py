"""What follows a decision, as data: a phase function never calls into
another phase's module; it returns a ``Next`` naming the step that follows
(or None when a decision is now awaited), and ``phases.run`` looks the step up
in its table. This keeps the package's import graph acyclic.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from throneroom.v1 import kings_life_pb2 as pb

from throneroom_server.games.kings_life.table import NO_SEAT


class Step(enum.Enum):
    """The continuations between decisions (handlers: ``phases.CONTINUATIONS``)."""

    OPEN_INITIAL_ROUND = enum.auto()
    """The mulligan round is over: every seat commits a sun card."""
    RESOLVE_INITIAL_ROUND = enum.auto()
    """The initial Queen window closed: the committed cards take effect."""
    RESOLVE_PLAY = enum.auto()
    """A card's Queen window closed uncancelled: ``play`` by ``seat`` takes effect."""
    ADVANCE_TURN = enum.auto()
    """``seat``'s turn is over: the next seat that has not passed, or the reckoning."""
    END_DAY = enum.auto()
    """Everybody passed (``flag``: the Rainy day ended the day): the king decides."""
    DUKE_RESOLVED = enum.auto()
    """The Duke's Queen window closed (``flag``: the Queen cancelled it)."""
    FINISH_DAY = enum.auto()
    """Rewards taken or day cancelled: displays discarded, the next day or the end."""
    END_GAME = enum.auto()
    """Saturday is over: victory points are counted."""


@dataclass(frozen=True, slots=True)
class Next:
    step: Step
    seat: int = NO_SEAT
    flag: bool = False
    play: pb.KingsLifeMove.Play | None = None


Follow = Next | None
"""What a phase function returns: the next step, or None (a decision is awaited)."""
