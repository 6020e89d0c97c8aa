"""Malformed moves (InvalidMoveError), whatever the state: unknown cards,
seats or enum values, fields a decision does not use, lists not strictly
ascending. A well-formed move is then legal exactly when the phase's decision
tree produces it (see ``choices`` and ``phases``)."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import pairwise

from throneroom.v1 import kings_life_pb2 as pb

from throneroom_server.games.core import InvalidMoveError
from throneroom_server.games.kings_life.data import (
    ACTIVITIES,
    CARD_CHARACTER,
    DAYS,
    DECK_SIZE,
    PREFERENCE_POSITIONS,
)
from throneroom_server.games.kings_life.table import card_name

Play = pb.KingsLifeMove.Play

_USES: dict[int, frozenset[str]] = {
    pb.CHARACTER_MERCHANT: frozenset({"target_card"}),
    pb.CHARACTER_SORCERER: frozenset({"target_card", "activity"}),
    pb.CHARACTER_THIEF: frozenset({"target_card"}),
    pb.CHARACTER_JESTER: frozenset({"cards"}),
    pb.CHARACTER_CHAMBERLAIN: frozenset({"positions"}),
    pb.CHARACTER_ASTROLOGER: frozenset({"token_day"}),
    pb.CHARACTER_GUARD: frozenset({"support", "hand_over"}),
    pb.CHARACTER_PEON: frozenset({"support", "hand_over"}),
}
"""Which optional fields of Play each card uses (anything else must stay unset)."""
_NOTHING: frozenset[str] = frozenset()


def _is_card(card: int) -> bool:
    return 1 <= card <= DECK_SIZE


def _ascending(values: Sequence[int]) -> bool:
    return all(a < b for a, b in pairwise(values))


def check_play(play: Play, num_seats: int) -> None:
    card = play.card
    if not _is_card(card):
        raise InvalidMoveError(f"Play: card {card} does not exist (ids are 1-{DECK_SIZE})")
    kind = CARD_CHARACTER[card]
    uses = _USES.get(kind, _NOTHING)
    name = card_name(card)
    used = {
        "target_card": play.target_card != 0,
        "activity": play.activity != 0,
        "cards": len(play.cards) > 0,
        "positions": len(play.positions) > 0,
        "token_day": play.token_day != 0,
        "support": play.HasField("support"),
        "hand_over": play.hand_over != 0,
    }
    extra = sorted(f for f, is_set in used.items() if is_set and f not in uses)
    if extra:
        raise InvalidMoveError(f"Play: {name} takes no {', '.join(extra)}")
    for field in ("target_card", "hand_over"):
        value = getattr(play, field)
        if value and not _is_card(value):
            raise InvalidMoveError(f"Play: {field} {value} is not a card")
    for value in play.cards:
        if not _is_card(value):
            raise InvalidMoveError(f"Play: card {value} in cards does not exist")
    if not _ascending(play.cards):
        raise InvalidMoveError(f"Play: {name}'s cards must be listed once each, ascending")
    if not _ascending(play.positions):
        raise InvalidMoveError(f"Play: {name}'s positions must be listed once each, ascending")
    if play.HasField("support") and not 0 <= play.support < num_seats:
        raise InvalidMoveError(f"Play: seat {play.support} does not exist")
    if kind == pb.CHARACTER_MERCHANT and not play.target_card:
        raise InvalidMoveError("Play: the Merchant needs a target_card")
    if kind == pb.CHARACTER_SORCERER and (not play.target_card or play.activity not in ACTIVITIES):
        raise InvalidMoveError("Play: the Sorcerer needs a target_card and a valid activity")
    if kind == pb.CHARACTER_THIEF and not play.target_card:
        raise InvalidMoveError("Play: the Thief needs a target_card")
    if kind == pb.CHARACTER_JESTER and len(play.cards) != 2:
        raise InvalidMoveError("Play: the Jester needs exactly two cards")
    if kind == pb.CHARACTER_CHAMBERLAIN and (
        len(play.positions) != 2 or not all(0 <= p < PREFERENCE_POSITIONS for p in play.positions)
    ):
        raise InvalidMoveError("Play: the Chamberlain needs two different positions 0-3")
    if kind == pb.CHARACTER_ASTROLOGER and play.token_day not in DAYS:
        raise InvalidMoveError("Play: the Astrologer needs a valid token_day")


def check(move: pb.KingsLifeMove, kind: str, num_seats: int) -> None:
    """Raise InvalidMoveError for a malformed move of ``kind``."""
    if kind == "play":
        check_play(move.play, num_seats)
    elif kind == "passing":
        p = move.passing
        if p.HasField("support") and not 0 <= p.support < num_seats:
            raise InvalidMoveError(f"Pass: seat {p.support} does not exist")
        if p.hand_over and not _is_card(p.hand_over):
            raise InvalidMoveError(f"Pass: hand_over {p.hand_over} is not a card")
    elif kind == "queen":
        q = move.queen
        if q.cancel and not q.HasField("target"):
            raise InvalidMoveError("Queen: a cancel names the target seat")
        if not q.cancel and q.HasField("target"):
            raise InvalidMoveError("Queen: a decline names no target")
        if q.HasField("target") and not 0 <= q.target < num_seats:
            raise InvalidMoveError(f"Queen: seat {q.target} does not exist")
    elif kind == "exchange":
        cards = list(move.exchange.discard)
        if not all(_is_card(c) for c in cards):
            raise InvalidMoveError(f"Exchange: {cards} names a card that does not exist")
        if not _ascending(cards):
            raise InvalidMoveError("Exchange: the cards must be listed once each, ascending")
    elif kind == "commit":
        card = move.commit.card
        if card and not _is_card(card):
            raise InvalidMoveError(f"Commit: card {card} does not exist")
    elif kind == "take_back":
        card = move.take_back.card
        if card and not _is_card(card):
            raise InvalidMoveError(f"Fool: take-back card {card} does not exist")
