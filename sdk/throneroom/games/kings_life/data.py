"""King's Life's components as data: the ONE home of every number and name
the game relies on, shared by the SDK (card faces, texts, bots) and the rules
engine (``throneroom_server.games.kings_life`` imports this module).

Pure data: the standard library and the generated ``throneroom.v1`` messages
only (the SDK never imports the server).

The rulebook (shared/rulebooks/004) is the authority; where it is silent (the
box's card faces are not in the text) the defaults below come from
shared/RULES-NOTES.md or, failing that, from a reading documented here and in
docs/rules/kings_life.md. Correct a default here, never in the logic.

Card ids: every physical card has a stable id 1..70 (0 means "no card"), laid
out as the proto's header comment says. The per-card facts are flat tuples
indexed by id (``CARD_VALUE[id]`` ...) because the engine reads them in its
inner loops.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from throneroom.v1 import kings_life_pb2 as pb

# --- Players -----------------------------------------------------------------

MIN_PLAYERS: Final = 4
"""The published range is 4-8 players (RULES-NOTES)."""
MAX_PLAYERS: Final = 8

# --- Activities and the preference board --------------------------------------

ACTIVITIES: Final = (pb.ACTIVITY_TOURNEY, pb.ACTIVITY_FEAST, pb.ACTIVITY_HUNT, pb.ACTIVITY_DANCE)
"""The four activity preference cards (Components)."""

ACTIVITY_NAMES: Final[Mapping[int, str]] = {
    pb.ACTIVITY_TOURNEY: "Tourney",
    pb.ACTIVITY_FEAST: "Feast",
    pb.ACTIVITY_HUNT: "Hunt",
    pb.ACTIVITY_DANCE: "Dance",
}

PREFERENCE_POSITIONS: Final = 4
"""Top (+1), second, third, and the face-down bottom card (The King's Will)."""
FACE_DOWN_POSITION: Final = 3
TOP_BONUS: Final = 1
"""'plus one if the proposal's activity is at the top of the board'."""

# --- The deck -----------------------------------------------------------------

ACTIVITY_CARD_VALUES: Final = (1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 5, 5)
"""RULES-NOTES default: 12 cards per activity (48 activity cards, as the
Components list says), values 1,1,2,2,2,3,3,3,4,4,5,5. The printed scoring
example needs three 3s of one activity (Hunting: A's 3, 3 and C's 3) and three
2s of another (Dancing: A's 2 and B's 2, 2) on the table at once."""
DRAW_CARD_INDEX: Final = 0
"""'one card of value 1 in each activity has an additional effect: the player
draws a card' -- the first card of each activity's block (a 1)."""
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

CHARACTER_NAMES: Final[Mapping[int, str]] = {
    pb.CHARACTER_DUCHESS: "Duchess",
    pb.CHARACTER_LITTLE_PRINCE: "Little Prince",
    pb.CHARACTER_MERCHANT: "Merchant",
    pb.CHARACTER_PRIEST: "Priest",
    pb.CHARACTER_PRINCESS: "Princess",
    pb.CHARACTER_SORCERER: "Sorcerer",
    pb.CHARACTER_DUKE: "Duke",
    pb.CHARACTER_QUEEN: "Queen",
    pb.CHARACTER_ASTROLOGER: "Astrologer",
    pb.CHARACTER_CHAMBERLAIN: "Chamberlain",
    pb.CHARACTER_DOG: "Dog",
    pb.CHARACTER_FOOL: "Fool",
    pb.CHARACTER_GUARD: "Guard",
    pb.CHARACTER_JESTER: "Jester",
    pb.CHARACTER_PEON: "Peon",
    pb.CHARACTER_RAINY_DAY: "Rainy day",
    pb.CHARACTER_THIEF: "Thief",
}

THIEF_VALUES: Final = (3, 4)
"""'Thief (x2): Take a card of the stated value (3 or 4)': one Thief takes a 3,
the other a 4 (face values)."""

DUCHESS_VALUE: Final = 2
"""The Duchess 'adds to the program's value in any activity', but her printed
value is not in the text. Reading: 2 -- below the Thieves' 3 and 4 and the
Priest's 5, so this guessed number creates no rule interaction the rulebook
does not mention, and a wild card a little under the activity cards' average
(2.75) balances its flexibility."""

PRIEST_VALUE: Final = 5
"""'Priest: All cards with a face value of 5 have no value this day.'"""

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

PASSING_CHARACTERS: Final = frozenset({pb.CHARACTER_GUARD})
"""Characters played as a pass: 'A player playing a Guard ... is considered
passing, and can support another player normally' (RULES-NOTES: playable
whenever passing is). The Fool also passes, but after its take-backs, as part
of its effect: it is played on a turn like any card."""

# --- Days, hands and rewards ----------------------------------------------------

DAYS: Final = (
    pb.DAY_TUESDAY,
    pb.DAY_WEDNESDAY,
    pb.DAY_THURSDAY,
    pb.DAY_FRIDAY,
    pb.DAY_SATURDAY,
)
DAY_NAMES: Final[Mapping[int, str]] = {
    pb.DAY_TUESDAY: "Tuesday",
    pb.DAY_WEDNESDAY: "Wednesday",
    pb.DAY_THURSDAY: "Thursday",
    pb.DAY_FRIDAY: "Friday",
    pb.DAY_SATURDAY: "Saturday",
}
DAY_POINTS: Final[Mapping[int, int]] = {
    pb.DAY_TUESDAY: 1,
    pb.DAY_WEDNESDAY: 1,
    pb.DAY_THURSDAY: 2,
    pb.DAY_FRIDAY: 2,
    pb.DAY_SATURDAY: 3,
}
"""RULES-NOTES default for the day cards' victory points (not in the text)."""

HAND_SIZE: Final[Mapping[int, int]] = {
    pb.DAY_TUESDAY: 6,
    pb.DAY_WEDNESDAY: 6,
    pb.DAY_THURSDAY: 6,
    pb.DAY_FRIDAY: 7,
    pb.DAY_SATURDAY: 7,
}
"""Deal Suggestion Cards: six on Tuesday (dealt), Wednesday and Thursday
(filled up to), seven on Friday and Saturday."""
HAND_REDUCTION: Final[Mapping[int, int]] = {4: 0, 5: 0, 6: 0, 7: 1, 8: 2}
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


def hand_size(day: int, num_players: int) -> int:
    """The hand a player is dealt / filled up to on ``day``."""
    return HAND_SIZE[day] - HAND_REDUCTION[num_players]


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


def card_name(card: int) -> str:
    """'Hunt 3', 'the Queen', 'the Thief (4)' (ValueError for an unknown id)."""
    if not 1 <= card <= DECK_SIZE:
        raise ValueError(f"King's Life has no card {card} (ids are 1-{DECK_SIZE})")
    activity = CARD_ACTIVITY[card]
    if activity:
        return f"{ACTIVITY_NAMES[activity]} {CARD_VALUE[card]}"
    kind = CARD_CHARACTER[card]
    if kind == pb.CHARACTER_THIEF:
        return f"the Thief ({CARD_VALUE[card]})"
    return f"the {CHARACTER_NAMES[kind]}"
