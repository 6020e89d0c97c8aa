"""King's Life for clients: the game's data, card faces, English names and
rulebook texts, and sentences for moves and events.

Card ids are stable (see the header of ``kings_life.proto``); ``card_face``
decodes one without asking the server::

    >>> card_face(31).name
    'Hunt 3'
    >>> describe_move(KingsLifeMove(play=KingsLifeMove.Play(card=55)), mover=1)
    'Seat 1 plays the Sorcerer'
    >>> describe_move(KingsLifeMove(play=KingsLifeMove.Play(card=55)), mover=1, viewer=1, lang="es")
    'Juegas el Hechicero'

Modules: ``data`` (every number and name of the game, in one place; the rules
engine imports it too, so there is no second copy), ``texts`` (card faces,
rulebook texts), ``sentences`` and ``events`` (a sentence for every move and
event in English, Spanish and Portuguese, with ``words``). Helpers for simultaneous decisions:
``auto_decline_queen`` answers a Queen window with "decline" when the seat
holds no Queen, ``only_move`` returns the single legal move when there is no
choice.
"""

from throneroom.games.kings_life.data import ACTIVITY_CARD_VALUES as ACTIVITY_VALUES
from throneroom.games.kings_life.data import DUCHESS_VALUE
from throneroom.games.kings_life.texts import (
    ACTIVITY_NAMES,
    CANCEL_REASONS,
    CHARACTERS,
    DAYS,
    DECK,
    DRAW_REASONS,
    EVENT_KINDS,
    POSITIONS,
    CardFace,
    CharacterText,
    DayText,
    auto_decline_queen,
    card_face,
    card_name,
    describe_event,
    describe_move,
    only_move,
)
from throneroom.v1.kings_life_pb2 import KingsLifeMove

__all__ = [
    "ACTIVITY_NAMES",
    "ACTIVITY_VALUES",
    "CANCEL_REASONS",
    "CHARACTERS",
    "DAYS",
    "DECK",
    "DRAW_REASONS",
    "DUCHESS_VALUE",
    "EVENT_KINDS",
    "POSITIONS",
    "CardFace",
    "CharacterText",
    "DayText",
    "KingsLifeMove",
    "auto_decline_queen",
    "card_face",
    "card_name",
    "describe_event",
    "describe_move",
    "only_move",
]
