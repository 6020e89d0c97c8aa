"""Every number King's Life relies on, with the reason for each, in ONE place.

The rulebook (shared/rulebooks/004) is the authority; where it is silent
(the box's card faces are not in the text) the defaults below come from
shared/RULES-NOTES.md or, failing that, from a reading documented here and in
docs/rules/kings_life.md. Correct a default here, never in the logic.

Card ids: every physical card has a stable id 1..70 (0 means "no card"), laid
out as the proto's header comment says. The per-card facts are flat tuples
indexed by id (``CARD_VALUE[id]`` ...) because the engine reads them in its
inner loops.
"""

from __future__ import annotations

from typing import Final

from throneroom.v1 import kings_life_pb2 as pb

# --- Players -----------------------------------------------------------------

MIN_PLAYERS: Final = 4
"""The published range is 4-8 players (RULES-NOTES)."""
MAX_PLAYERS: Final = 8

# --- Activities and the preference board --------------------------------------

ACTIVITIES: Final = (pb.ACTIVITY_TOURNEY, pb.ACTIVITY_FEAST, pb.ACTIVITY_HUNT, pb.ACTIVITY_DANCE)
"""The four activity preference cards (Components)."""

PREFERENCE_POSITIONS: Final = 4
"""Top (+1), second, third, and the face-down bottom card (The King's Will)."""
FACE_DOWN_POSITION: Final = 3
TOP_BONUS: Final = 1
"""'plus one if the proposal's activity is at the top of the board'."""

# --- The deck -----------------------------------------------------------------

ACTIVITY_CARD_VALUES: Final = (1, 1, 1, 2, 2, 2, 3, 3, 4, 4, 5, 5)
"""RULES-NOTES default: 12 cards per activity (48 activity cards, as the
Components list says), values 1,1,1,2,2,2,3,3,4,4,5,5."""
DRAW_CARD_INDEX: Final = 0
"""'one card of value 1 in each activity has an additional effect: the player
draws a card' -- the first card of each activity's block."""
SUN_VALUES: Final = frozenset({1, 2})
"""RULES-NOTES default: the sun icon is on the value-1 and value-2 activity
cards; no character card carries it."""

CHARACTER_COUNTS: Final = (
    (pb.CHARACTER_DUCHESS, 2),
    (pb.CHARACTER_LITTLE_PRINCE, 1),
    (pb.CHARACTER_MERCHANT, 1),
    (pb.CHARACTER_PRIEST, 1),
    (pb.CHARACTER_PRINCESS, 1),
    (pb.CHARACTER_SORCERER, 1),
    (pb.CHARACTER_DUKE, 1),
    (pb.CHARACTER_QUEEN, 1),
    (pb.CHARACTER_ASTROLOGER, 2),
    (pb.CHARACTER_CHAMBERLAIN, 2),
    (pb.CHARACTER_DOG, 1),
    (pb.CHARACTER_FOOL, 1),
    (pb.CHARACTER_GUARD, 2),
    (pb.CHARACTER_JESTER, 1),
    (pb.CHARACTER_PEON, 1),
    (pb.CHARACTER_RAINY_DAY, 1),
    (pb.CHARACTER_THIEF, 2),
)
"""The 22 characters the rulebook's last page lists, with its counts. The
Components say 23 character cards (71 cards); the 23rd is not described
anywhere, so the default deck has 70 cards (RULES-NOTES)."""

THIEF_VALUES: Final = (3, 4)
"""'Thief (x2): Take a card of the stated value (3 or 4)': one Thief takes a 3,
the other a 4 (face values)."""

DUCHESS_VALUE: Final = 2
"""The Duchess 'adds to the program's value in any activity', but her printed
value is not in the text. Reading: 2 -- below the Thieves' 3 and 4 and the
Priest's 5, so this guessed number creates no rule interaction the rulebook
does not mention, and a wild card a little under the activity cards' average
(2.67) balances its flexibility."""

# --- Days, hands and rewards ----------------------------------------------------

DAYS: Final = (
    pb.DAY_TUESDAY,
    pb.DAY_WEDNESDAY,
    pb.DAY_THURSDAY,
    pb.DAY_FRIDAY,
    pb.DAY_SATURDAY,
)
DAY_POINTS: Final[dict[int, int]] = {
    pb.DAY_TUESDAY: 1,
    pb.DAY_WEDNESDAY: 1,
    pb.DAY_THURSDAY: 2,
    pb.DAY_FRIDAY: 2,
    pb.DAY_SATURDAY: 3,
}
"""RULES-NOTES default for the day cards' victory points (not in the text)."""

HAND_SIZE: Final[dict[int, int]] = {
    pb.DAY_TUESDAY: 6,
    pb.DAY_WEDNESDAY: 6,
    pb.DAY_THURSDAY: 6,
    pb.DAY_FRIDAY: 7,
    pb.DAY_SATURDAY: 7,
}
"""Deal Suggestion Cards: six on Tuesday (dealt), Wednesday and Thursday
(filled up to), seven on Friday and Saturday."""
HAND_REDUCTION: Final[dict[int, int]] = {4: 0, 5: 0, 6: 0, 7: 1, 8: 2}
"""'Number of Players Affects Hand Size': one fewer card with 7 players, two
fewer with 8."""

EXCHANGE_MAX: Final = 3
"""Tuesday: 'each player can discard up to three cards'."""

MULLIGANS_PER_DAY: Final = 1
"""Reading: one mulligan per player per day (the rulebook offers it once, 'after
changing cards on Tuesday or completing his hand any other day'); this also
bounds the game's length."""

TOKEN_VALUES: Final = (0, 1, 1, 2, 2)
"""'5 support bonus tokens (values 0, 1, 1, 2 and 2)', one per day space."""

KEPT_CARD_POINTS: Final = 1
"""Little Prince and Princess: 'worth 1 victory point at the end of the game'."""

# --- Card table, by id ------------------------------------------------------------

DECK_SIZE: Final = len(ACTIVITIES) * len(ACTIVITY_CARD_VALUES) + sum(n for _, n in CHARACTER_COUNTS)
ALL_CARDS: Final = tuple(range(1, DECK_SIZE + 1))


def _card_table() -> tuple[
    tuple[pb.Activity.ValueType, ...],
    tuple[int, ...],
    tuple[pb.Character.ValueType, ...],
    tuple[bool, ...],
    tuple[bool, ...],
]:
    activity = [pb.ACTIVITY_UNSPECIFIED]
    value = [0]
    character = [pb.CHARACTER_UNSPECIFIED]
    draws = [False]
    sun = [False]
    for act in ACTIVITIES:
        for index, face in enumerate(ACTIVITY_CARD_VALUES):
            activity.append(act)
            value.append(face)
            character.append(pb.CHARACTER_UNSPECIFIED)
            draws.append(index == DRAW_CARD_INDEX)
            sun.append(face in SUN_VALUES)
    thieves = iter(THIEF_VALUES)
    for kind, count in CHARACTER_COUNTS:
        for _ in range(count):
            activity.append(pb.ACTIVITY_UNSPECIFIED)
            if kind == pb.CHARACTER_THIEF:
                value.append(next(thieves))
            elif kind == pb.CHARACTER_DUCHESS:
                value.append(DUCHESS_VALUE)
            else:
                value.append(0)
            character.append(kind)
            draws.append(False)
            sun.append(False)
    return tuple(activity), tuple(value), tuple(character), tuple(draws), tuple(sun)


CARD_ACTIVITY, CARD_VALUE, CARD_CHARACTER, CARD_DRAWS, CARD_SUN = _card_table()
"""Per card id: printed activity (0 for characters), face value (the Thief's
stated value, the Duchess's value, 0 for other characters), character (0 for
activity cards), whether it draws a card, whether it carries the sun."""

IS_ACTIVITY: Final = tuple(a != 0 for a in CARD_ACTIVITY)


def cards_of(kind: int) -> tuple[int, ...]:
    """The ids of every card of a character."""
    return tuple(c for c in ALL_CARDS if CARD_CHARACTER[c] == kind)


QUEEN: Final = cards_of(pb.CHARACTER_QUEEN)[0]
DUKE: Final = cards_of(pb.CHARACTER_DUKE)[0]
MERCHANT: Final = cards_of(pb.CHARACTER_MERCHANT)[0]
SORCERER: Final = cards_of(pb.CHARACTER_SORCERER)[0]
PRIEST: Final = cards_of(pb.CHARACTER_PRIEST)[0]
PRINCESS: Final = cards_of(pb.CHARACTER_PRINCESS)[0]
LITTLE_PRINCE: Final = cards_of(pb.CHARACTER_LITTLE_PRINCE)[0]
RAINY_DAY: Final = cards_of(pb.CHARACTER_RAINY_DAY)[0]
DRAW_CARDS: Final = tuple(c for c in ALL_CARDS if CARD_DRAWS[c])

DISPLAY_CHARACTERS: Final = frozenset(
    {
        pb.CHARACTER_DUCHESS,
        pb.CHARACTER_LITTLE_PRINCE,
        pb.CHARACTER_MERCHANT,
        pb.CHARACTER_PRIEST,
        pb.CHARACTER_PRINCESS,
        pb.CHARACTER_SORCERER,
    }
)
"""'Played in the Player's Display': these stay; every other character is
discarded after its effect (the Duke and Rainy day are removed from the game)."""

NOT_PLAYABLE_ON_TURN: Final = frozenset({pb.CHARACTER_DUKE, pb.CHARACTER_QUEEN})
"""'All cards, except the Duke and Queen, are played ... on the player's turn.'"""


def hand_size(day: int, num_players: int) -> int:
    """The hand a player is dealt / filled up to on ``day``."""
    return HAND_SIZE[day] - HAND_REDUCTION[num_players]


def max_plays_per_day() -> int:
    """An upper bound on the cards played on turns in one day.

    Every play takes a card out of a hand that has not passed; hands that have
    not passed only grow by draws, and a draw comes from a draw card (at most
    one per draw card per day: once played it stays in a display or goes to
    the hand of a player who passed with the Fool) or from the Dog (which
    draws as many as it discards, so the Dog itself is the net loss). Hence at
    most one play per card plus one per draw card.
    """
    return DECK_SIZE + len(DRAW_CARDS)
