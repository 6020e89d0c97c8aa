"""Playing a card on one's turn: the legal plays with their choices, their
validation, and each card's effect once its Queen window has closed.

Card choices known at play time travel in the Play message itself (see
kings_life.proto); what follows a card (the Fool's pass) is a separate
decision.

The Fool's take-back is sequential too: once the Fool took effect its player
takes back one display card per decision (``take_back_moves``), or stops;
then the pass follows.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations, pairwise

from throneroom.v1 import kings_life_pb2 as pb

from throneroom_server.games.core import IllegalMoveError, InvalidMoveError
from throneroom_server.games.kings_life import suggestions
from throneroom_server.games.kings_life.data import (
    ACTIVITIES,
    CARD_ACTIVITY,
    CARD_CHARACTER,
    CARD_DRAWS,
    CARD_VALUE,
    DAYS,
    DISPLAY_CHARACTERS,
    MERCHANT,
    NOT_PLAYABLE_ON_TURN,
    PREFERENCE_POSITIONS,
    SORCERER,
)
from throneroom_server.games.kings_life.table import (
    NO_SEAT,
    Event,
    Events,
    State,
    attachments_of,
    card_name,
    day_name,
    draw,
    move_display_card,
    owner_of_display_card,
)

Move = pb.KingsLifeMove
Play = pb.KingsLifeMove.Play

AFTER_TURN = 0
AFTER_FOOL = 1
AFTER_RAINY_DAY = 2

POSITION_PAIRS = tuple(combinations(range(PREFERENCE_POSITIONS), 2))
TOKEN_PLAYABLE = (pb.KingsLifeToken.STATUS_ON_BOARD, pb.KingsLifeToken.STATUS_WON)

# Which optional fields of Play each card uses (anything else must stay unset).
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
_NOTHING: frozenset[str] = frozenset()


def _simple(card: int) -> pb.KingsLifeMove:
    move = Move()
    move.play.card = card
    return move


def own_activity_cards(state: State, seat: int) -> list[int]:
    return sorted(c for c in state.players[seat].display if CARD_ACTIVITY[c])


def others_activity_cards(state: State, seat: int) -> list[tuple[int, int]]:
    """(card, owner) for every activity card in another player's display, by card."""
    found = [
        (c, s)
        for s, p in enumerate(state.players)
        if s != seat
        for c in p.display
        if CARD_ACTIVITY[c]
    ]
    found.sort()
    return found


# --- The Fool's take-back (after the Fool took effect) --------------------------------

_DONE = Move(take_back=Move.TakeBack())


def take_back_moves(state: State, seat: int) -> list[pb.KingsLifeMove]:
    """Stop (card 0), or take back any one card still in ``seat``'s display,
    by card id: an activity card brings its Merchant / Sorcerer, and those
    may also come back alone."""
    moves = [_DONE]
    moves.extend(Move(take_back=Move.TakeBack(card=c)) for c in sorted(state.players[seat].display))
    return moves


def check_take_back(state: State, seat: int, card: int) -> None:
    if card and card not in state.players[seat].display:
        raise IllegalMoveError(
            f"Fool: {card_name(card)} is not in seat {seat}'s display and cannot be taken back"
        )


def take_back(state: State, seat: int, card: int, events: Events) -> None:
    """Take ``card`` (with its Merchant / Sorcerer) back into the hand, openly,
    or (card 0) stop and go on to the Fool's pass.

    Canonical: the cards taken back with this Fool sit at the end of the hand
    and of the publicly known cards in ascending order, so the order of the
    take-backs does not matter (the same state as taking the set at once).
    """
    if not card:
        del state.fool_taken[:]
        state.phase = pb.KingsLifeState.PHASE_FOOL_PASS
        return
    me = state.players[seat]
    cards = [card, *attachments_of(state, card)] if CARD_ACTIVITY[card] else [card]
    cards.sort()
    for c in cards:
        me.display.remove(c)
    if MERCHANT in cards:
        state.merchant_on = 0
    if SORCERER in cards:
        state.sorcerer_on = 0
        state.sorcerer_activity = pb.ACTIVITY_UNSPECIFIED
    before = set(state.fool_taken)
    taken = sorted([*state.fool_taken, *cards])
    for cards_list in (me.hand, me.revealed):
        kept = [c for c in cards_list if c not in before]
        del cards_list[:]
        cards_list.extend(kept)
        cards_list.extend(taken)
    del state.fool_taken[:]
    state.fool_taken.extend(taken)
    events.append(Event(cards_taken_back=Event.CardsTakenBack(seat=seat, cards=cards)))


def support_plays(state: State, seat: int, card: int, *, guard: bool) -> list[pb.KingsLifeMove]:
    me = state.players[seat]
    if me.supporting != NO_SEAT:
        return [] if guard else [_simple(card)]
    if guard:
        targets = [s for s, p in enumerate(state.players) if s != seat and p.supporter != NO_SEAT]
    else:
        targets = suggestions.unsupported_others(state, seat)
    if not targets:
        return [] if guard else [_simple(card)]
    gifts = suggestions.hand_over_cards(me)
    moves = []
    for t in targets:
        moves.append(Move(play=Play(card=card, support=t)))
        moves.extend(Move(play=Play(card=card, support=t, hand_over=g)) for g in gifts)
    return moves


def play_moves(state: State, seat: int) -> list[pb.KingsLifeMove]:
    """Every legal play of ``seat`` on its turn, sorted by move key."""
    moves: list[pb.KingsLifeMove] = []
    for card in sorted(state.players[seat].hand):
        kind = CARD_CHARACTER[card]
        if not kind or kind in PLAYED_SIMPLE:
            moves.append(_simple(card))
        elif kind in NOT_PLAYABLE_ON_TURN:
            continue
        elif kind == pb.CHARACTER_MERCHANT:
            moves.extend(
                Move(play=Play(card=card, target_card=t)) for t in own_activity_cards(state, seat)
            )
        elif kind == pb.CHARACTER_SORCERER:
            moves.extend(
                Move(play=Play(card=card, target_card=t, activity=a))
                for t in own_activity_cards(state, seat)
                for a in ACTIVITIES
                if a != CARD_ACTIVITY[t]
            )
        elif kind == pb.CHARACTER_THIEF:
            value = CARD_VALUE[card]
            moves.extend(
                Move(play=Play(card=card, target_card=t))
                for t, _ in others_activity_cards(state, seat)
                if CARD_VALUE[t] == value
            )
        elif kind == pb.CHARACTER_JESTER:
            others = others_activity_cards(state, seat)
            moves.extend(
                Move(play=Play(card=card, cards=(a, b)))
                for i, (a, owner_a) in enumerate(others)
                for b, owner_b in others[i + 1 :]
                if owner_a != owner_b
            )
        elif kind == pb.CHARACTER_CHAMBERLAIN:
            moves.extend(Move(play=Play(card=card, positions=pair)) for pair in POSITION_PAIRS)
        elif kind == pb.CHARACTER_ASTROLOGER:
            moves.extend(
                Move(play=Play(card=card, token_day=day))
                for day, token in zip(DAYS, state.tokens, strict=True)
                if token.status in TOKEN_PLAYABLE
            )
        elif kind == pb.CHARACTER_GUARD:
            moves.extend(support_plays(state, seat, card, guard=True))
        elif kind == pb.CHARACTER_PEON:
            moves.extend(support_plays(state, seat, card, guard=False))
        else:  # pragma: no cover - every character is listed above
            raise AssertionError(f"no play rule for {card_name(card)}")
    return moves


PLAYED_SIMPLE = frozenset(
    {
        pb.CHARACTER_DUCHESS,
        pb.CHARACTER_LITTLE_PRINCE,
        pb.CHARACTER_PRIEST,
        pb.CHARACTER_PRINCESS,
        pb.CHARACTER_DOG,
        pb.CHARACTER_FOOL,
        pb.CHARACTER_RAINY_DAY,
    }
)
"""Characters played without a choice."""


# --- Validation ----------------------------------------------------------------------


def _ascending(values: Sequence[int]) -> bool:
    return all(a < b for a, b in pairwise(values))


def check_play_shape(play: Play, num_seats: int) -> None:
    """Malformed plays (InvalidMoveError): unknown card, fields the card does
    not use, values out of range, duplicates."""
    card = play.card
    if not 1 <= card < len(CARD_CHARACTER):
        raise InvalidMoveError(
            f"Play: card {card} does not exist (ids are 1-{len(CARD_CHARACTER) - 1})"
        )
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
        if value and not 1 <= value < len(CARD_CHARACTER):
            raise InvalidMoveError(f"Play: {field} {value} is not a card")
    for value in play.cards:
        if not 1 <= value < len(CARD_CHARACTER):
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
    if kind == pb.CHARACTER_GUARD and not play.HasField("support"):
        raise InvalidMoveError("Play: the Guard needs the seat it supports")


def check_play(state: State, seat: int, play: Play) -> None:
    """Rules violations of a well-formed play (IllegalMoveError)."""
    card = play.card
    me = state.players[seat]
    name = card_name(card)
    if card not in me.hand:
        raise IllegalMoveError(f"Play: {name} is not in seat {seat}'s hand")
    kind = CARD_CHARACTER[card]
    if kind == pb.CHARACTER_QUEEN:
        raise IllegalMoveError("Play: the Queen is played only to cancel a card just played")
    if kind == pb.CHARACTER_DUKE:
        raise IllegalMoveError(
            "Play: the Duke is played only at the end of the day, by the winner's supporter"
        )
    if kind in (pb.CHARACTER_MERCHANT, pb.CHARACTER_SORCERER):
        target = play.target_card
        if not CARD_ACTIVITY[target] or target not in me.display:
            raise IllegalMoveError(
                f"Play: {name} must go next to an activity card of seat {seat}'s display, "
                f"not {card_name(target)}"
            )
        if kind == pb.CHARACTER_SORCERER and play.activity == CARD_ACTIVITY[target]:
            raise IllegalMoveError(
                f"Play: the Sorcerer must change {card_name(target)} to another activity"
            )
    elif kind == pb.CHARACTER_THIEF:
        target = play.target_card
        owner = owner_of_display_card(state, target)
        if owner in (NO_SEAT, seat) or not CARD_ACTIVITY[target]:
            raise IllegalMoveError(
                f"Play: {card_name(target)} is not an activity card in another player's display"
            )
        if CARD_VALUE[target] != CARD_VALUE[card]:
            raise IllegalMoveError(
                f"Play: {name} takes a card of face value {CARD_VALUE[card]}, "
                f"not {card_name(target)}"
            )
    elif kind == pb.CHARACTER_JESTER:
        a, b = play.cards
        owner_a = owner_of_display_card(state, a)
        owner_b = owner_of_display_card(state, b)
        for c, owner in ((a, owner_a), (b, owner_b)):
            if owner in (NO_SEAT, seat) or not CARD_ACTIVITY[c]:
                raise IllegalMoveError(
                    f"Play: {card_name(c)} is not an activity card in another player's display"
                )
        if owner_a == owner_b:
            raise IllegalMoveError(
                f"Play: the Jester swaps cards of two different players, but seat {owner_a} "
                "holds both"
            )
    elif kind == pb.CHARACTER_ASTROLOGER:
        token = state.tokens[DAYS.index(play.token_day)]
        if token.status not in TOKEN_PLAYABLE:
            raise IllegalMoveError(
                f"Play: {day_name(play.token_day)}'s support token was discarded unseen"
            )
    elif kind == pb.CHARACTER_GUARD:
        suggestions.check_support(state, seat, play.support, play.hand_over, "Guard", guard=True)
    elif kind == pb.CHARACTER_PEON:
        supported = play.support if play.HasField("support") else None
        if (
            supported is None
            and me.supporting == NO_SEAT
            and suggestions.unsupported_others(state, seat)
        ):
            raise IllegalMoveError(
                "Play: the Peon must support an unsupported player when seat "
                f"{seat} still holds its support token"
            )
        suggestions.check_support(state, seat, supported, play.hand_over, "Peon", guard=False)


# --- Effects -------------------------------------------------------------------------------


def take_effect(state: State, seat: int, play: Play, events: Events) -> int:
    """Carry out a played card that was not cancelled. Returns what follows:
    AFTER_TURN, AFTER_FOOL (the Fool's take-backs, then its pass) or
    AFTER_RAINY_DAY."""
    card = play.card
    me = state.players[seat]
    kind = CARD_CHARACTER[card]
    events.append(Event(card_took_effect=Event.CardTookEffect(seat=seat, card=card)))
    if not kind:
        me.display.append(card)
        if CARD_DRAWS[card]:
            draw(state, seat, 1, Event.DRAW_REASON_DRAW_CARD, events)
        return AFTER_TURN
    if kind in DISPLAY_CHARACTERS:
        me.display.append(card)
        if kind == pb.CHARACTER_MERCHANT:
            state.merchant_on = play.target_card
        elif kind == pb.CHARACTER_SORCERER:
            state.sorcerer_on = play.target_card
            state.sorcerer_activity = play.activity
        return AFTER_TURN
    if kind == pb.CHARACTER_RAINY_DAY:
        state.removed.append(card)
        return AFTER_RAINY_DAY
    after = AFTER_TURN
    if kind == pb.CHARACTER_THIEF:
        owner = owner_of_display_card(state, play.target_card)
        move_display_card(state, owner, seat, play.target_card)
    elif kind == pb.CHARACTER_JESTER:
        a, b = play.cards
        owner_a = owner_of_display_card(state, a)
        owner_b = owner_of_display_card(state, b)
        move_display_card(state, owner_a, owner_b, a)
        move_display_card(state, owner_b, owner_a, b)
    elif kind == pb.CHARACTER_CHAMBERLAIN:
        i, j = play.positions
        prefs = state.preferences
        prefs[i], prefs[j] = prefs[j], prefs[i]
    elif kind == pb.CHARACTER_ASTROLOGER:
        if play.token_day not in me.tokens_seen:
            me.tokens_seen.append(play.token_day)
        token = state.tokens[DAYS.index(play.token_day)]
        events.append(
            Event(token_peeked=Event.TokenPeeked(seat=seat, day=play.token_day, value=token.value))
        )
    elif kind == pb.CHARACTER_DOG:
        rest = list(me.hand)
        known = set(me.revealed)
        del me.hand[:]
        del me.revealed[:]
        state.discard.extend(rest)
        # Cards everyone knew of (taken back with the Fool) stay known.
        me.face_down_discards.extend(c for c in rest if c not in known)
        events.append(
            Event(
                hand_discarded=Event.HandDiscarded(seat=seat, count=len(rest), cards=sorted(rest))
            )
        )
        draw(state, seat, len(rest), Event.DRAW_REASON_DOG, events)
    elif kind == pb.CHARACTER_FOOL:
        # The take-backs follow as separate decisions (take_back).
        after = AFTER_FOOL
    elif kind == pb.CHARACTER_GUARD:
        me.passed = True
        events.append(Event(passed=Event.Passed(seat=seat)))
        suggestions.give_support(state, seat, play.support, play.hand_over, events)
    elif kind == pb.CHARACTER_PEON:
        if play.HasField("support"):
            suggestions.give_support(state, seat, play.support, play.hand_over, events)
    else:  # pragma: no cover - every character is handled above
        raise AssertionError(f"no effect for {card_name(card)}")
    state.discard.append(card)
    return after
