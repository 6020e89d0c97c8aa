"""King's Life for clients: card faces, rulebook texts, and sentences for
moves and events (numbers and names come from ``.data``, the game's one data
home, which the engine imports too).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from throneroom.games.kings_life import data
from throneroom.games.kings_life.data import ACTIVITY_NAMES
from throneroom.v1 import kings_life_pb2 as pb
from throneroom.v1.kings_life_pb2 import KingsLifeEvent, KingsLifeMove, KingsLifeView

__all__ = [
    "ACTIVITY_NAMES",
    "CHARACTERS",
    "DAYS",
    "DECK",
    "EVENT_KINDS",
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


def _cards(cards: Sequence[int]) -> str:
    names = [card_name(c) for c in cards]
    if not names:
        return "nothing"
    if len(names) == 1:
        return names[0]
    return ", ".join(names[:-1]) + " and " + names[-1]


def _day(day: int) -> str:
    text = DAYS.get(day)
    return text.name if text else "no day"


POSITIONS = ("the top (+1)", "the second place", "the third place", "the face-down place")


# --- Moves ----------------------------------------------------------------------------


def _describe_play(play: KingsLifeMove.Play) -> str:
    face = card_face(play.card)
    text = f"plays {card_name(play.card)}"
    kind = face.character
    if kind in (pb.CHARACTER_MERCHANT, pb.CHARACTER_THIEF) and play.target_card:
        verb = "doubling" if kind == pb.CHARACTER_MERCHANT else "taking"
        text += f", {verb} {card_name(play.target_card)}"
    elif kind == pb.CHARACTER_SORCERER and play.target_card:
        text += (
            f", turning {card_name(play.target_card)} into {ACTIVITY_NAMES.get(play.activity, '?')}"
        )
    elif kind == pb.CHARACTER_JESTER and play.cards:
        text += f", swapping {_cards(play.cards)}"
    elif kind == pb.CHARACTER_FOOL:
        text += ", to take back display cards and pass"
    elif kind == pb.CHARACTER_CHAMBERLAIN and len(play.positions) == 2:
        a, b = play.positions
        text += f", swapping {POSITIONS[a]} and {POSITIONS[b]} of the king's preferences"
    elif kind == pb.CHARACTER_ASTROLOGER and play.token_day:
        text += f", looking at {_day(play.token_day)}'s support token"
    if play.HasField("support"):
        text += f", supporting seat {play.support}"
        if play.hand_over:
            text += f" and handing over {card_name(play.hand_over)}"
    return text


def describe_move(move: KingsLifeMove, seat: int | None = None) -> str:
    """One English sentence for a move, e.g. 'seat 2 passes, supporting seat 0'."""
    who = "someone" if seat is None else f"seat {seat}"
    kind = move.WhichOneof("kind")
    if kind == "exchange":
        if not move.exchange.discard:
            return f"{who} keeps the whole hand"
        return f"{who} exchanges {_cards(move.exchange.discard)}"
    if kind == "mulligan":
        return f"{who} {'takes' if move.mulligan.take else 'declines'} the mulligan"
    if kind == "commit":
        if not move.commit.card:
            return f"{who} has no sun card and commits nothing"
        return f"{who} commits {card_name(move.commit.card)} face down"
    if kind == "queen":
        if move.queen.cancel:
            return f"{who} plays the Queen, cancelling seat {move.queen.target}'s card"
        return f"{who} lets the card stand"
    if kind == "play":
        return f"{who} {_describe_play(move.play)}"
    if kind == "passing":
        text = f"{who} passes"
        if move.passing.HasField("support"):
            text += f", supporting seat {move.passing.support}"
            if move.passing.hand_over:
                text += f" and handing over {card_name(move.passing.hand_over)}"
        return text
    if kind == "duke":
        return f"{who} {'plays' if move.duke.play else 'does not play'} the Duke"
    if kind == "take_back":
        if not move.take_back.card:
            return f"{who} stops taking cards back with the Fool"
        return f"{who} takes {card_name(move.take_back.card)} back in hand with the Fool"
    return f"{who} makes an empty move"


# --- Events ------------------------------------------------------------------------------

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

DRAW_REASONS: Mapping[int, str] = {
    KingsLifeEvent.DRAW_REASON_DEAL: "is dealt",
    KingsLifeEvent.DRAW_REASON_EXCHANGE: "draws for the exchange",
    KingsLifeEvent.DRAW_REASON_MULLIGAN: "draws a new hand",
    KingsLifeEvent.DRAW_REASON_DRAW_CARD: "draws (a value-1 draw card)",
    KingsLifeEvent.DRAW_REASON_DOG: "draws for the Dog",
}

CANCEL_REASONS: Mapping[int, str] = {
    pb.KingsLifeDayRecord.RESULT_TIE: "two programs are equal in the same activity",
    pb.KingsLifeDayRecord.RESULT_RAINY_DAY: "a Rainy day",
    pb.KingsLifeDayRecord.RESULT_NO_PROGRAM: "nobody suggested a program the king cares for",
}


def describe_event(event: KingsLifeEvent) -> str:
    """One English sentence for a (possibly redacted) event."""
    kind = event.WhichOneof("kind")
    if kind == "day_began":
        e = event.day_began
        prefs = ", ".join(ACTIVITY_NAMES.get(a, "?") for a in e.preferences)
        return f"{_day(e.day)} begins: the king prefers {prefs}; seat {e.first_player} starts"
    if kind == "cards_drawn":
        d = event.cards_drawn
        what = _cards(d.cards) if d.cards else f"{d.count} card{'s' * (d.count != 1)}"
        return f"seat {d.seat} {DRAW_REASONS.get(d.reason, 'draws')}: {what}"
    if kind == "deck_reshuffled":
        return f"the discard pile is shuffled into the deck ({event.deck_reshuffled.deck_size})"
    if kind == "exchanged":
        x = event.exchanged
        what = _cards(x.discarded) if x.discarded else f"{x.count} card{'s' * (x.count != 1)}"
        return f"seat {x.seat} exchanges {what}"
    if kind == "answered":
        a = event.answered
        if a.HasField("move"):
            return f"answered: {describe_move(a.move, a.seat)}"
        return f"seat {a.seat} has answered"
    if kind == "mulligan_taken":
        m = event.mulligan_taken
        return f"seat {m.seat} shows {_cards(m.shown)} and takes the mulligan"
    if kind == "revealed":
        shown = [
            f"seat {s}: {card_name(c) if c else 'nothing'}"
            for s, c in enumerate(event.revealed.cards)
        ]
        return "revealed: " + "; ".join(shown)
    if kind == "card_played":
        return f"seat {event.card_played.seat} {_describe_play(event.card_played.play)}"
    if kind == "queen_cancelled":
        q = event.queen_cancelled
        return (
            f"seat {q.queen_seat} plays the Queen: seat {q.seat}'s {card_name(q.card)} is cancelled"
        )
    if kind == "card_took_effect":
        t = event.card_took_effect
        return f"seat {t.seat}'s {card_name(t.card)} takes effect"
    if kind == "token_peeked":
        p = event.token_peeked
        value = f" (it is worth {p.value})" if p.value else ""
        return f"seat {p.seat} looks at {_day(p.day)}'s support token{value}"
    if kind == "cards_taken_back":
        b = event.cards_taken_back
        return f"seat {b.seat} takes back {_cards(b.cards)}"
    if kind == "hand_discarded":
        h = event.hand_discarded
        what = _cards(h.cards) if h.cards else f"{h.count} card{'s' * (h.count != 1)}"
        return f"seat {h.seat} discards {what}"
    if kind == "passed":
        return f"seat {event.passed.seat} passes"
    if kind == "supported":
        s = event.supported
        text = f"seat {s.seat} supports seat {s.supported}"
        if s.hand_over:
            text += f", handing over {card_name(s.hand_over)}"
        if s.replaced >= 0:
            text += f" (seat {s.replaced}'s token goes back)"
        return text
    if kind == "day_reckoned":
        parts = [
            f"seat {p.seat}: {p.value} in {ACTIVITY_NAMES.get(p.activity, '?')}"
            if p.has_program
            else f"seat {p.seat}: no program"
            for p in event.day_reckoned.programs
        ]
        return f"{_day(event.day_reckoned.day)} reckoned: " + "; ".join(parts)
    if kind == "day_won":
        w = event.day_won
        support = f", supported by seat {w.supporter}" if w.supporter >= 0 else ""
        return f"seat {w.winner} wins {_day(w.day)}{support}"
    if kind == "day_cancelled":
        c = event.day_cancelled
        return f"{_day(c.day)} is cancelled: {CANCEL_REASONS.get(c.reason, 'no winner')}"
    if kind == "reward_taken":
        r = event.reward_taken
        if r.day_card:
            return f"seat {r.seat} takes the {_day(r.day_card)} card"
        if r.token_day:
            value = f" (worth {r.token_value})" if r.token_value else ""
            return f"seat {r.seat} takes {_day(r.token_day)}'s support token{value}"
        return f"seat {r.seat} keeps {card_name(r.kept_card)}"
    if kind == "token_discarded":
        return f"{_day(event.token_discarded.day)}'s support token is discarded unseen"
    if kind == "displays_discarded":
        return f"the displays are discarded ({event.displays_discarded.count} cards)"
    if kind == "game_ended":
        return event.game_ended.outcome.summary
    return "nothing happened"


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
