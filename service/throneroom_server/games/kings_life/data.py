"""The engine's view of King's Life's data.

Every number, name and card of the game lives ONCE, in the SDK's
``throneroom.games.kings_life.data`` (pure data; the SDK never imports the
server, so the home is there). This module re-exports it for the engine's
modules and adds what only the engine derives from it (a bound on the game's
length). Correct a default there, never here and never in the logic.
"""

from __future__ import annotations

from throneroom.games.kings_life.data import (
    ACTIVITIES,
    ACTIVITY_CARD_VALUES,
    ACTIVITY_NAMES,
    ALL_CARDS,
    CARD_ACTIVITY,
    CARD_CHARACTER,
    CARD_DRAWS,
    CARD_SUN,
    CARD_VALUE,
    CHARACTER_COUNTS,
    CHARACTER_NAMES,
    DAY_NAMES,
    DAY_POINTS,
    DAYS,
    DECK_SIZE,
    DISPLAY_CHARACTERS,
    DRAW_CARDS,
    DUCHESS_VALUE,
    DUKE,
    EXCHANGE_MAX,
    FACE_DOWN_POSITION,
    HAND_REDUCTION,
    HAND_SIZE,
    KEPT_CARD_POINTS,
    LITTLE_PRINCE,
    MAX_PLAYERS,
    MERCHANT,
    MIN_PLAYERS,
    MULLIGANS_PER_DAY,
    NOT_PLAYABLE_ON_TURN,
    PASSING_CHARACTERS,
    PREFERENCE_POSITIONS,
    PRIEST,
    PRIEST_VALUE,
    PRINCESS,
    QUEEN,
    RAINY_DAY,
    SORCERER,
    THIEF_VALUES,
    TOKEN_VALUES,
    TOP_BONUS,
    card_name,
    cards_of,
    hand_size,
)

__all__ = [
    "ACTIVITIES",
    "ACTIVITY_CARD_VALUES",
    "ACTIVITY_NAMES",
    "ALL_CARDS",
    "CARD_ACTIVITY",
    "CARD_CHARACTER",
    "CARD_DRAWS",
    "CARD_SUN",
    "CARD_VALUE",
    "CHARACTER_COUNTS",
    "CHARACTER_NAMES",
    "DAYS",
    "DAY_NAMES",
    "DAY_POINTS",
    "DECK_SIZE",
    "DISPLAY_CHARACTERS",
    "DRAW_CARDS",
    "DUCHESS_VALUE",
    "DUKE",
    "EXCHANGE_MAX",
    "FACE_DOWN_POSITION",
    "HAND_REDUCTION",
    "HAND_SIZE",
    "KEPT_CARD_POINTS",
    "LITTLE_PRINCE",
    "MAX_PLAYERS",
    "MERCHANT",
    "MIN_PLAYERS",
    "MULLIGANS_PER_DAY",
    "NOT_PLAYABLE_ON_TURN",
    "PASSING_CHARACTERS",
    "PREFERENCE_POSITIONS",
    "PRIEST",
    "PRIEST_VALUE",
    "PRINCESS",
    "QUEEN",
    "RAINY_DAY",
    "SORCERER",
    "THIEF_VALUES",
    "TOKEN_VALUES",
    "TOP_BONUS",
    "card_name",
    "cards_of",
    "hand_size",
    "max_plays_per_day",
]


def max_plays_per_day() -> int:
    """An upper bound on the cards played on turns in one day.

    Every play takes a card out of a hand that has not passed; hands that have
    not passed only grow by draws, and a draw comes from a draw card (at most
    one per draw card per day: once played it stays in a display or goes to
    the hand of a player who passed with the Fool) or from the Dog (which
    draws as many as it discards, so the Dog itself is the net loss). Hence at
    most one play per card plus one per draw card. (A Guard played as the
    Fool's pass is one of those plays too.)
    """
    return DECK_SIZE + len(DRAW_CARDS)
