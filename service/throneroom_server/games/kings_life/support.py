"""Support: the choice of a supported seat (and a display card handed over),
shared by the pass, the Guard (played as the pass) and the Peon; and placing
the token.

'A player who passes can decide, at that moment, to support another player,
even another player who has already passed ... Each player can be supported
by only one other player.' The Guard 'allows you to support a player who
already has a support. The former support is cancelled and the token given
back to its owner'. The Peon supports 'an unsupported player' without
passing.
"""

from __future__ import annotations

import enum
from collections.abc import Callable

from throneroom.v1 import kings_life_pb2 as pb

from throneroom_server.games.kings_life.choices import Node, Pick, Rule
from throneroom_server.games.kings_life.data import MERCHANT, SORCERER
from throneroom_server.games.kings_life.table import (
    NO_SEAT,
    Event,
    Events,
    State,
    card_name,
    move_display_card,
)

Move = pb.KingsLifeMove


class Power(enum.Enum):
    """Whose support rules apply."""

    PASS = "pass"
    """An unsupported player, or nobody."""
    GUARD = "guard"
    """Any other player: an unsupported one as any passing player does, or
    one who already has a supporter (the Guard's power), or nobody."""
    PEON = "peon"
    """An unsupported player; nobody only when none can be supported."""


def hand_over_cards(player: pb.KingsLifePlayer) -> list[int]:
    """Display cards that may be handed to a supported player: any face-up card
    but a Merchant or Sorcerer, which only travel with their activity card."""
    return sorted(c for c in player.display if c not in (MERCHANT, SORCERER))


def support_choice(
    state: State,
    seat: int,
    power: Power,
    *,
    read_support: Callable[[Move], int | None],
    read_hand_over: Callable[[Move], int],
    finish: Callable[[int | None, int], Move],
) -> Pick[int | None]:
    """The supported seat (None: nobody), then the display card handed over
    (0: none); ``finish`` builds the move from both."""
    players = state.players
    me = players[seat]
    token_in_hand = me.supporting == NO_SEAT

    def unsupported(t: int) -> bool:
        return players[t].supporter == NO_SEAT

    rules: list[Rule[int | None]] = [
        Rule(lambda t: t != seat, lambda t: f"seat {seat} cannot support itself"),
        Rule(
            lambda t: t is None or token_in_hand,
            lambda t: f"seat {seat}'s support token already lies before seat {me.supporting}",
        ),
    ]
    if power is not Power.GUARD:
        rules.append(
            Rule(
                lambda t: t is None or unsupported(t),
                lambda t: (
                    f"seat {t} is already supported by seat "
                    f"{players[t].supporter if t is not None else NO_SEAT}"
                    " (only a Guard replaces a supporter)"
                ),
            )
        )
    if power is Power.PEON:
        rules.append(
            Rule(
                lambda t: (
                    t is not None
                    or not token_in_hand
                    or not any(unsupported(s) for s in range(len(players)) if s != seat)
                ),
                lambda t: (
                    f"the Peon must support an unsupported player when seat {seat} "
                    "still holds its support token"
                ),
            )
        )
    gifts = tuple(hand_over_cards(me))

    def hand_over(target: int | None) -> Node:
        if target is None:
            return Pick(
                read=read_hand_over,
                domain=(0,),
                outside=lambda h: "a display card is handed over only to a supported player",
                then=lambda h: finish(None, 0),
                leaf=True,
            )
        return Pick(
            read=read_hand_over,
            domain=(0, *gifts),
            outside=lambda h: (
                f"{card_name(h)} is not a card of seat {seat}'s display that can be handed over"
            ),
            then=lambda h: finish(target, h),
            leaf=True,
        )

    return Pick(
        read=read_support,
        domain=(None, *range(len(players))),
        outside=lambda t: f"seat {t} does not exist",
        then=hand_over,
        rules=rules,
    )


def give_support(state: State, seat: int, target: int, hand_over: int, events: Events) -> None:
    """Place ``seat``'s token before ``target`` (a Guard sends the former
    supporter's token back), handing over a display card if chosen."""
    players = state.players
    replaced = players[target].supporter
    if replaced != NO_SEAT:
        players[replaced].supporting = NO_SEAT
    players[target].supporter = seat
    players[seat].supporting = target
    if hand_over:
        move_display_card(state, seat, target, hand_over)
    events.append(
        Event(
            supported=Event.Supported(
                seat=seat, supported=target, hand_over=hand_over, replaced=replaced
            )
        )
    )
