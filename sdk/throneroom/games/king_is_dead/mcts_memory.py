"""What the MCTS bot remembers of The King Is Dead's played cards, from its own views.

A played action card goes face up on its player's pile; only the top card
stays visible, and "it is up to them to remember which actions have been
taken" (the rulebook, Taking Actions). The seat's view shows each pile's
``top_card`` and ``played_count``, so a card seen on top of a pile of ``n``
cards is the pile's card ``n - 1`` for the rest of the game.
:class:`PlayedCards` keeps those sightings, from the views the seat was sent
and nothing else: the bot observes the view of every decision it is asked
(the tournament runner and ``play_seat`` ask even when there is one legal
move). With 2 seats the other player plays at most one card between two of
the seat's decisions, so the bot knows its whole pile, hence its hand (every
seat holds the same 8 cards): the game is then one of perfect information to
the bot and a single world is searched. With 3 or 4 seats some cards are
played and covered between two of its decisions: those stay unknown.

:meth:`PlayedCards.redraw` draws, in a world built from the view, every
other seat's unknown pile cards and hand uniformly among the cards its 8 do
not account for (the sightings kept in their places, the engine's own rule
kept: a seat whose crown token left it has played its Crown, below the top
when the top is not the Crown). A sighting the view contradicts (a pile
shorter than a remembered place: another game) clears the memory.
"""

from __future__ import annotations

import random
from typing import Any

from throneroom.games.king_is_dead.data import CROWN, HAND
from throneroom.v1 import king_is_dead_pb2 as kid

__all__ = ["PlayedCards"]


class PlayedCards:
    """Each other seat's pile places whose card the seat has seen on top."""

    def __init__(self) -> None:
        self.seen: dict[int, dict[int, int]] = {}
        self._seats = 0

    def observe(self, view: kid.KingIsDeadView, seat: int) -> None:
        """Remember every top card of the other seats' piles in ``view``."""
        if view.num_seats != self._seats or any(
            place >= view.seats[other].played_count
            for other, known in self.seen.items()
            for place in known
        ):
            self.seen = {}  # a new game
            self._seats = view.num_seats
        for public in view.seats:
            if public.seat != seat and public.played_count and public.top_card:
                self.seen.setdefault(public.seat, {})[public.played_count - 1] = public.top_card

    def determined(self, view: kid.KingIsDeadView, seat: int) -> bool:
        """Whether the sightings account for every card of every other pile
        (then the hands follow, and every world is the same)."""
        return all(
            len(self.seen.get(public.seat, {})) == public.played_count
            for public in view.seats
            if public.seat != seat
        )

    def redraw(self, state: kid.KingIsDeadState, seat: int, rng: random.Random) -> None:
        """Redraw in ``state`` every other seat's unknown pile cards and hand
        (see the module doc); the seat's own cards and every sighting stay."""
        for other, placed in enumerate(state.seats):
            if other == seat:
                continue
            pile: Any = placed.played  # Any: enum lists take plain ints
            count = len(pile)
            known = dict(self.seen.get(other, {}))
            if count:
                known[count - 1] = pile[-1]
            pool = list(HAND)
            try:
                for card in known.values():
                    pool.remove(card)
            except ValueError:  # a sighting the view contradicts: forget the seat
                self.seen.pop(other, None)
                continue
            unknown = [place for place in range(count) if place not in known]
            rng.shuffle(pool)
            cards = dict(known)
            if unknown and not placed.has_crown_token and CROWN not in known.values():
                crown_place = unknown.pop(rng.randrange(len(unknown)))
                pool.remove(CROWN)
                cards[crown_place] = CROWN
            for place in unknown:
                cards[place] = pool.pop()
            del pile[:]
            pile.extend(cards[place] for place in range(count))
            hand: Any = placed.hand
            del hand[:]
            hand.extend(sorted(pool))
