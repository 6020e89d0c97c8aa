"""The table: drawing from the deck, the discard pile, moving display cards.

Small helpers every phase uses. They change the (already copied) state in
place and append the events they cause.
"""

from __future__ import annotations

from throneroom.v1 import kings_life_pb2 as pb

from throneroom_server.games.kings_life import data
from throneroom_server.games.kings_life.data import DAY_NAMES, MERCHANT, SORCERER
from throneroom_server.games.kit import chance
from throneroom_server.games.rng import Rng

State = pb.KingsLifeState
Event = pb.KingsLifeEvent
Events = list[pb.KingsLifeEvent]

NO_SEAT = -1


def card_name(card: int) -> str:
    """A card's name for error messages, e.g. 'Hunt 3 (#31)' or 'the Queen (#57)'."""
    return f"{data.card_name(card)} (#{card})"


def day_name(day: int) -> str:
    return DAY_NAMES.get(day, f"day {day}")


def reshuffle_discard(state: State, events: Events) -> None:
    """Shuffle the whole discard pile into the deck (face-down discards lose
    their owner's knowledge: they are now somewhere in the deck)."""
    if not state.discard:
        return
    size = shuffle_discard_into_deck(state)
    events.append(Event(deck_reshuffled=Event.DeckReshuffled(deck_size=size)))


def shuffle_discard_into_deck(state: State) -> int:
    """Deck and discard pile shuffled together into the deck; face-down
    discards lose their owner's knowledge (they are now somewhere in the
    deck). Returns the deck size."""
    cards = list(state.deck)
    cards.extend(state.discard)
    chance.shuffle(Rng(state.rng), cards, "shuffle:reshuffle")
    del state.discard[:]
    del state.deck[:]
    state.deck.extend(cards)
    for player in state.players:
        if player.face_down_discards:
            del player.face_down_discards[:]
    return len(cards)


def draw(
    state: State, seat: int, count: int, reason: Event.DrawReason.ValueType, events: Events
) -> list[int]:
    """``seat`` draws up to ``count`` cards from the top of the deck; when the
    deck runs out the discard pile is shuffled in (RULES-NOTES: no draw only
    if both are empty). Emits CardsDrawn (private cards, public count)."""
    drawn: list[int] = []
    deck = state.deck
    while len(drawn) < count:
        if not deck:
            reshuffle_discard(state, events)
            if not deck:
                break
        take = min(count - len(drawn), len(deck))
        drawn.extend(deck[len(deck) - take :][::-1])
        del deck[len(deck) - take :]
    if drawn or count:
        state.players[seat].hand.extend(drawn)
        events.append(
            Event(
                cards_drawn=Event.CardsDrawn(
                    seat=seat, count=len(drawn), cards=drawn, reason=reason
                )
            )
        )
    return drawn


def leave_hand(player: pb.KingsLifePlayer, card: int) -> None:
    """Take ``card`` out of a hand (and out of the hand's publicly known cards)."""
    player.hand.remove(card)
    if player.revealed and card in player.revealed:
        player.revealed.remove(card)


def attachments_of(state: State, card: int) -> list[int]:
    """The Merchant / Sorcerer attached to an activity card, if any."""
    attached = []
    if state.merchant_on == card:
        attached.append(MERCHANT)
    if state.sorcerer_on == card:
        attached.append(SORCERER)
    return attached


def move_display_card(state: State, from_seat: int, to_seat: int, card: int) -> None:
    """Move a display card to another display; its Merchant / Sorcerer come
    along (they are 'swapped or stolen with it')."""
    source = state.players[from_seat].display
    target = state.players[to_seat].display
    source.remove(card)
    target.append(card)
    for attached in attachments_of(state, card):
        source.remove(attached)
        target.append(attached)


def owner_of_display_card(state: State, card: int) -> int:
    for seat, player in enumerate(state.players):
        if card in player.display:
            return seat
    return NO_SEAT
