"""Playing a card: the legal plays with their choices (one decision tree per
card, see ``choices``), the Fool's take-back, and each card's effect once its
Queen window has closed.

Card choices known at play time travel in the Play message itself (see
kings_life.proto); what follows a card (the Fool's take-backs and pass) is a
separate decision.

The Fool's take-back is sequential too: once the Fool took effect its player
takes back one display card per decision (``take_back_tree``), or stops;
then the pass follows.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import combinations

from throneroom.v1 import kings_life_pb2 as pb

from throneroom_server.games.kings_life.choices import Node, Pick, Rule
from throneroom_server.games.kings_life.data import (
    ACTIVITIES,
    CARD_ACTIVITY,
    CARD_CHARACTER,
    CARD_DRAWS,
    CARD_VALUE,
    DAYS,
    DISPLAY_CHARACTERS,
    MERCHANT,
    PASSING_CHARACTERS,
    PREFERENCE_POSITIONS,
    SORCERER,
)
from throneroom_server.games.kings_life.steps import Follow
from throneroom_server.games.kings_life.support import Power, give_support, support_choice
from throneroom_server.games.kings_life.table import (
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
Phase = pb.KingsLifeState

AFTER_TURN = 0
AFTER_FOOL = 1
AFTER_RAINY_DAY = 2

POSITION_PAIRS = tuple(combinations(range(PREFERENCE_POSITIONS), 2))
TOKEN_PLAYABLE = (pb.KingsLifeToken.STATUS_ON_BOARD, pb.KingsLifeToken.STATUS_WON)


# --- The Fool's take-back (after the Fool took effect) --------------------------------


def take_back_tree(state: State, seat: int) -> Node:
    """Stop (card 0), or take back any one card still in ``seat``'s display,
    by card id: an activity card brings its Merchant / Sorcerer, and those
    may also come back alone."""
    return Pick(
        read=lambda m: m.take_back.card,
        domain=(0, *sorted(state.players[seat].display)),
        outside=lambda c: (
            f"{card_name(c)} is not in seat {seat}'s display and cannot be taken back"
        ),
        then=lambda c: Move(take_back=Move.TakeBack(card=c)),
        leaf=True,
    )


def take_back(state: State, seat: int, move: pb.KingsLifeMove, events: Events) -> Follow:
    """Take the card (with its Merchant / Sorcerer) back into the hand, openly,
    or (card 0) stop and go on to the Fool's pass.

    Canonical: the cards taken back with this Fool sit at the end of the hand
    and of the publicly known cards in ascending order, so the order of the
    take-backs does not matter (the same state as taking the set at once).
    """
    card = move.take_back.card
    if not card:
        del state.fool_taken[:]
        state.phase = Phase.PHASE_FOOL_PASS
        return None
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
    return None


# --- Plays ------------------------------------------------------------------------------


def _simple(card: int) -> pb.KingsLifeMove:
    move = Move()
    move.play.card = card
    return move


def _support_of(play: Play) -> int | None:
    return play.support if play.HasField("support") else None


def _own_activity_target(state: State, seat: int, card: int, then: Callable[[int], Node]) -> Node:
    """Merchant / Sorcerer: next to an activity card of the player's own display."""
    display = sorted(state.players[seat].display)
    return Pick(
        read=lambda m: m.play.target_card,
        domain=display,
        outside=lambda t: (
            f"{card_name(card)} must go next to an activity card of seat {seat}'s display, "
            f"not {card_name(t)}"
        ),
        then=then,
        rules=(
            Rule(
                lambda t: CARD_ACTIVITY[t] != 0,
                lambda t: (
                    f"{card_name(card)} must go next to an activity card of seat {seat}'s "
                    f"display, not {card_name(t)}"
                ),
            ),
        ),
    )


def _others_display_cards(state: State, seat: int) -> dict[int, int]:
    """card -> owner, for every card in another player's display."""
    return {c: s for s, p in enumerate(state.players) if s != seat for c in p.display}


def _not_others_activity(t: int) -> str:
    return f"{card_name(t)} is not an activity card in another player's display"


def _merchant(state: State, seat: int, card: int) -> Node:
    return _own_activity_target(
        state, seat, card, lambda t: Move(play=Play(card=card, target_card=t))
    )


def _sorcerer(state: State, seat: int, card: int) -> Node:
    def activity(target: int) -> Node:
        return Pick(
            read=lambda m: m.play.activity,
            domain=ACTIVITIES,
            outside=lambda a: f"the Sorcerer turns a card into one of the four activities, not {a}",
            then=lambda a: Move(play=Play(card=card, target_card=target, activity=a)),
            leaf=True,
            rules=(
                Rule(
                    lambda a: a != CARD_ACTIVITY[target],
                    lambda a: f"the Sorcerer must change {card_name(target)} to another activity",
                ),
            ),
        )

    return _own_activity_target(state, seat, card, activity)


def _thief(state: State, seat: int, card: int) -> Node:
    value = CARD_VALUE[card]
    return Pick(
        read=lambda m: m.play.target_card,
        domain=sorted(_others_display_cards(state, seat)),
        outside=_not_others_activity,
        then=lambda t: Move(play=Play(card=card, target_card=t)),
        leaf=True,
        rules=(
            Rule(lambda t: CARD_ACTIVITY[t] != 0, _not_others_activity),
            Rule(
                lambda t: CARD_VALUE[t] == value,
                lambda t: (
                    f"{card_name(card)} takes a card of face value {value}, not {card_name(t)}"
                ),
            ),
        ),
    )


def _jester(state: State, seat: int, card: int) -> Node:
    owners = _others_display_cards(state, seat)

    def not_others_activity(pair: tuple[int, ...]) -> str:
        bad = next((c for c in pair if c not in owners or not CARD_ACTIVITY[c]), pair[0])
        return _not_others_activity(bad)

    return Pick(
        read=lambda m: tuple(m.play.cards),
        domain=list(combinations(sorted(owners), 2)),
        outside=not_others_activity,
        then=lambda pair: Move(play=Play(card=card, cards=pair)),
        leaf=True,
        rules=(
            Rule(lambda pair: all(CARD_ACTIVITY[c] for c in pair), not_others_activity),
            Rule(
                lambda pair: owners[pair[0]] != owners[pair[1]],
                lambda pair: (
                    "the Jester swaps cards of two different players, but seat "
                    f"{owners[pair[0]]} holds both"
                ),
            ),
        ),
    )


def _chamberlain(state: State, seat: int, card: int) -> Node:
    return Pick(
        read=lambda m: tuple(m.play.positions),
        domain=POSITION_PAIRS,
        outside=lambda pair: "the Chamberlain swaps two different positions 0-3",
        then=lambda pair: Move(play=Play(card=card, positions=pair)),
        leaf=True,
    )


def _astrologer(state: State, seat: int, card: int) -> Node:
    status = {day: token.status for day, token in zip(DAYS, state.tokens, strict=True)}
    return Pick(
        read=lambda m: m.play.token_day,
        domain=DAYS,
        outside=lambda day: f"the Astrologer looks at a day's token, and {day} is no day",
        then=lambda day: Move(play=Play(card=card, token_day=day)),
        leaf=True,
        rules=(
            Rule(
                lambda day: status[day] in TOKEN_PLAYABLE,
                lambda day: f"{day_name(day)}'s support token was discarded unseen",
            ),
        ),
    )


def _play_with_support(card: int) -> Callable[[int | None, int], pb.KingsLifeMove]:
    def finish(target: int | None, hand_over: int) -> pb.KingsLifeMove:
        play = Play(card=card, hand_over=hand_over)
        if target is not None:
            play.support = target
        return Move(play=play)

    return finish


def _guard(state: State, seat: int, card: int) -> Node:
    return support_choice(
        state,
        seat,
        Power.GUARD,
        read_support=lambda m: _support_of(m.play),
        read_hand_over=lambda m: m.play.hand_over,
        finish=_play_with_support(card),
    )


def _peon(state: State, seat: int, card: int) -> Node:
    return support_choice(
        state,
        seat,
        Power.PEON,
        read_support=lambda m: _support_of(m.play),
        read_hand_over=lambda m: m.play.hand_over,
        finish=_play_with_support(card),
    )


def _no_choice(state: State, seat: int, card: int) -> Node:
    return _simple(card)


_CHOICES: dict[int, Callable[[State, int, int], Node]] = {
    pb.CHARACTER_UNSPECIFIED: _no_choice,  # an activity card
    pb.CHARACTER_DUCHESS: _no_choice,
    pb.CHARACTER_LITTLE_PRINCE: _no_choice,
    pb.CHARACTER_PRIEST: _no_choice,
    pb.CHARACTER_PRINCESS: _no_choice,
    pb.CHARACTER_DOG: _no_choice,
    pb.CHARACTER_FOOL: _no_choice,
    pb.CHARACTER_RAINY_DAY: _no_choice,
    pb.CHARACTER_MERCHANT: _merchant,
    pb.CHARACTER_SORCERER: _sorcerer,
    pb.CHARACTER_THIEF: _thief,
    pb.CHARACTER_JESTER: _jester,
    pb.CHARACTER_CHAMBERLAIN: _chamberlain,
    pb.CHARACTER_ASTROLOGER: _astrologer,
    pb.CHARACTER_GUARD: _guard,
    pb.CHARACTER_PEON: _peon,
}
"""Each card kind's choices once it is chosen (the Duke and the Queen are
never played on a turn: they have none)."""


_TURN_RULES: tuple[Rule[int], ...] = (
    Rule(
        lambda c: CARD_CHARACTER[c] != pb.CHARACTER_QUEEN,
        lambda c: "the Queen is played only to cancel a card just played",
    ),
    Rule(
        lambda c: CARD_CHARACTER[c] != pb.CHARACTER_DUKE,
        lambda c: "the Duke is played only at the end of the day, by the winner's supporter",
    ),
)
"""The rules of a card played on a turn (they depend on the card alone, so the
tree built at every turn's legal_moves and checked apply shares them)."""

_FOOL_PASS_RULES: tuple[Rule[int], ...] = (
    *_TURN_RULES,
    Rule(
        lambda c: CARD_CHARACTER[c] in PASSING_CHARACTERS,
        lambda c: (
            f"the Fool's pass is a pass: {card_name(c)} cannot be played as one (only a Guard can)"
        ),
    ),
)
"""The rules of a card played as the Fool's pass."""


def _read_card(move: Move) -> int:
    return move.play.card


def play_tree(state: State, seat: int) -> Node:
    """Every legal play of ``seat``: on its turn any card of the hand but the
    Duke and the Queen; as the Fool's pass, a card played as a pass (the
    Guard)."""
    fool_pass = state.phase == Phase.PHASE_FOOL_PASS
    return Pick(
        read=_read_card,
        domain=sorted(state.players[seat].hand),
        outside=lambda c: f"{card_name(c)} is not in seat {seat}'s hand",
        then=lambda c: _CHOICES[CARD_CHARACTER[c]](state, seat, c),
        rules=_FOOL_PASS_RULES if fool_pass else _TURN_RULES,
    )


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
        # Played as the pass (as the Fool's pass, the player passed already).
        if not me.passed:
            me.passed = True
            events.append(Event(passed=Event.Passed(seat=seat)))
        if play.HasField("support"):
            give_support(state, seat, play.support, play.hand_over, events)
    elif kind == pb.CHARACTER_PEON:
        if play.HasField("support"):
            give_support(state, seat, play.support, play.hand_over, events)
    else:  # pragma: no cover - every character is handled above
        raise AssertionError(f"no effect for {card_name(card)}")
    state.discard.append(card)
    return after
