"""King's Life for clients: card faces and rulebook texts (numbers and names
come from ``.data``, the game's one data home, which the engine imports too);
the sentences for moves and events, in every language, are :mod:`.sentences`'
and :mod:`.events`', re-exported here.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from throneroom.games.kings_life import data
from throneroom.games.kings_life.data import ACTIVITY_NAMES
from throneroom.games.kings_life.events import describe_event
from throneroom.games.kings_life.sentences import describe_move
from throneroom.games.kings_life.words import CANCEL_REASONS, DRAW_REASONS, POSITIONS
from throneroom.v1 import kings_life_pb2 as pb
from throneroom.v1.kings_life_pb2 import KingsLifeMove, KingsLifeView

__all__ = [
    "ACTIVITY_NAMES",
    "CANCEL_REASONS",
    "CHARACTERS",
    "DAYS",
    "DECK",
    "DRAW_REASONS",
    "EVENT_KINDS",
    "POSITIONS",
    "CardFace",
    "CharacterText",
    "DayText",
    "auto_decline_queen",
    "card_face",
    "describe_event",
    "describe_move",
    "only_move",
]


@dataclass(frozen=True)
class CharacterText:
    name: str
    count: int
    timing: str
    text: str


_RULE_TEXTS: Mapping[int, tuple[str, str]] = {
    pb.CHARACTER_DUCHESS: (
        "played in the player's display",
        'The Duchess is a "wild" suggestion card, which adds to the program\'s value in any '
        "activity.",
    ),
    pb.CHARACTER_LITTLE_PRINCE: (
        "played in the player's display",
        "The player, if any, who supported the winner of the day will take this card and keep "
        "it with his day cards and scoring tokens. It is worth 1 victory point at the end of "
        "the game.",
    ),
    pb.CHARACTER_MERCHANT: (
        "played in the player's display",
        "This card must be placed next to an activity card in the player's display. The value "
        "of this activity card is doubled. If the doubled activity card is discarded, swapped "
        "or stolen by another player, the Merchant is discarded, swapped or stolen with it.",
    ),
    pb.CHARACTER_PRIEST: (
        "played in the player's display",
        "All cards with a face value of 5 have no value this day.",
    ),
    pb.CHARACTER_PRINCESS: (
        "played in the player's display",
        "The winner of the day, if any, will take this card and keep it with their day cards. "
        "It is worth 1 victory point at the end of the game.",
    ),
    pb.CHARACTER_SORCERER: (
        "played in the player's display",
        "This card must be placed next to an activity card in the player's display. The "
        "activity of this card is changed to any other activity of your choice. If the changed "
        "activity card is discarded, swapped or stolen, the Sorcerer goes with it and its "
        "effect continues.",
    ),
    pb.CHARACTER_DUKE: (
        "played at the end of the day",
        "Played at the end of the day by the supporter of the winning player. The rewards for "
        "the day's winner and his support are swapped. The card is then removed from the game.",
    ),
    pb.CHARACTER_QUEEN: (
        "played at any time",
        "Cancels a card just played by another player. The cancelled card is discarded without "
        "effect and the affected player cannot play a replacement.",
    ),
    pb.CHARACTER_ASTROLOGER: (
        "played and discarded after effect",
        "Look at a face down support token on the board. It can be today's or a later one, or "
        "a token already won by a player.",
    ),
    pb.CHARACTER_CHAMBERLAIN: (
        "played and discarded after effect",
        "Swap two activity preference cards (even the face down card if you want). The card "
        "placed at the bottom is turned face down, and the face down card is turned face up.",
    ),
    pb.CHARACTER_DOG: (
        "played and discarded after effect",
        "Discard all your other cards in hand, and draw the same number of cards from the "
        "drawing deck.",
    ),
    pb.CHARACTER_FOOL: (
        "played and discarded after effect",
        "Take back in hand any or all of the cards in your display and pass. Character cards "
        "taken back lose their effect.",
    ),
    pb.CHARACTER_GUARD: (
        "played and discarded after effect",
        "Play this card when passing (it is your pass, and you can support another player "
        "normally). It also allows you to support a player who already has a support. The "
        "former support is cancelled and the token given back to its owner.",
    ),
    pb.CHARACTER_JESTER: (
        "played and discarded after effect",
        "Swap two cards (activity cards only, no character cards) in two other players' displays.",
    ),
    pb.CHARACTER_PEON: (
        "played and discarded after effect",
        "Support an unsupported player without passing: you keep playing, but cannot support "
        "when you pass unless a Guard gives your token back.",
    ),
    pb.CHARACTER_RAINY_DAY: (
        "played and discarded after effect",
        "The day immediately ends with no winner. The day card and support token are "
        "discarded. The Rainy day card is removed from the game.",
    ),
    pb.CHARACTER_THIEF: (
        "played and discarded after effect",
        "Take a card of the stated value (3 or 4) from another player's display and add it to "
        "your display.",
    ),
}
"""Each character's timing and effect, as the rulebook's last page prints them."""

CHARACTERS: Mapping[int, CharacterText] = {
    kind: CharacterText(data.CHARACTER_NAMES[kind], count, *_RULE_TEXTS[kind])
    for kind, count in data.CHARACTER_COUNTS
}


@dataclass(frozen=True)
class DayText:
    name: str
    victory_points: int
    hand_size: int
    """Before the 7- and 8-player reduction (one and two fewer cards)."""


DAYS: Mapping[int, DayText] = {
    day: DayText(data.DAY_NAMES[day], data.DAY_POINTS[day], data.HAND_SIZE[day])
    for day in data.DAYS
}
"""Victory points are the data defaults (the rulebook does not print them)."""


@dataclass(frozen=True)
class CardFace:
    """What a card id is."""

    id: int
    activity: int
    """An Activity value for activity cards, 0 for characters."""
    value: int
    """Face value (the Thief's stated value; the Duchess's wild value; 0 for
    the other characters)."""
    character: int
    """A Character value, 0 for activity cards."""
    draws: bool
    sun: bool

    @property
    def name(self) -> str:
        if self.activity:
            return f"{ACTIVITY_NAMES[self.activity]} {self.value}"
        text = CHARACTERS[self.character].name
        if self.character == pb.CHARACTER_THIEF:
            return f"Thief ({self.value})"
        return text


def _deck() -> tuple[CardFace, ...]:
    return tuple(
        CardFace(
            card,
            data.CARD_ACTIVITY[card],
            data.CARD_VALUE[card],
            data.CARD_CHARACTER[card],
            data.CARD_DRAWS[card],
            data.CARD_SUN[card],
        )
        for card in data.ALL_CARDS
    )


DECK: tuple[CardFace, ...] = _deck()
"""The 70 cards, DECK[id - 1] is card ``id``."""


def card_face(card: int) -> CardFace:
    if not 1 <= card <= len(DECK):
        raise ValueError(f"King's Life has no card {card} (ids are 1-{len(DECK)})")
    return DECK[card - 1]


def card_name(card: int) -> str:
    """'Hunt 3', 'the Queen', 'the Thief (4)'."""
    return data.card_name(card)


EVENT_KINDS: Mapping[str, str] = {
    "day_began": "A new day: the king's will is set and the first player known.",
    "cards_drawn": "A player drew cards (only the drawer sees which).",
    "deck_reshuffled": "The discard pile was shuffled into the drawing deck.",
    "exchanged": "Tuesday: a player discarded up to three cards to draw as many.",
    "answered": "A player answered a decision taken by several players at once.",
    "mulligan_taken": "A player showed a hand of characters only and drew a new one.",
    "revealed": "The initial round's face-down cards were revealed together.",
    "card_played": "A card was played face up (the Queen may still cancel it).",
    "queen_cancelled": "The Queen cancelled a card just played.",
    "card_took_effect": "A played card took effect.",
    "token_peeked": "An Astrologer looked at a support token (only its player sees the value).",
    "cards_taken_back": "The Fool took display cards back in hand.",
    "hand_discarded": "The Dog discarded the rest of a hand to draw as many.",
    "passed": "A player passed for the rest of the day.",
    "supported": "A player placed a support token before another player.",
    "day_reckoned": "The king reckoned every program.",
    "day_won": "The king chose the day's winner.",
    "day_cancelled": "The day was cancelled: no winner.",
    "reward_taken": "A player took a reward: a day card, a support token or a kept card.",
    "token_discarded": "A support token was discarded unseen.",
    "displays_discarded": "All displays were discarded at the end of the day.",
    "game_ended": "Saturday is over: victory points are counted.",
}


# --- Answering simultaneous decisions ---------------------------------------------------


def auto_decline_queen(
    view: KingsLifeView, legal_moves: Sequence[KingsLifeMove]
) -> KingsLifeMove | None:
    """In a Queen window, the "decline" move when the seat holds no Queen (its
    legal moves offer no cancel); None otherwise (not a Queen window, or the
    seat may cancel and should decide)."""
    if view.phase != pb.KingsLifeState.PHASE_QUEEN_WINDOW:
        return None
    if any(m.WhichOneof("kind") != "queen" or m.queen.cancel for m in legal_moves):
        return None
    return legal_moves[0] if legal_moves else None


def only_move(legal_moves: Sequence[KingsLifeMove]) -> KingsLifeMove | None:
    """The move when there is exactly one (no Queen, no mulligan, no sun card...)."""
    return legal_moves[0] if len(legal_moves) == 1 else None
