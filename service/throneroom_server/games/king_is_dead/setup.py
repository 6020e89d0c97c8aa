"""Setting up a game, with every random draw from the state's seeded RNG.

The order of the draws is fixed (docs/rules/king_is_dead.md, rule 1):

1. Each faction has 18 followers (16 with 2 players: the 2 others of each are
   removed from the game). Two of each go to the faction's home region; the
   rest go into the bag.
2. Courts: seat 0, 1, ... each draw two followers from the bag, one at a time.
   Redraw rule: while two or more seats each hold two followers of one and the
   same colour, those seats return their followers to the bag and draw again,
   in seat order.
3. Mordred: Din Eidyn and Aquae Sulis each get one black follower (the other 7
   black followers form the Loyalist pool).
4. Regions in Region order (Caledonia, Din Eidyn, Deva, Eboracum, Caerleon,
   Ratae, Londinium, Aquae Sulis) are filled to 4 followers by drawing from
   the bag, one at a time.
5. The followers left in the bag form the common supply.
6. The region cards are shuffled (Fisher-Yates) into positions 1..8.
7. Seat 0, who set up the game, plays first.

A draw takes a uniformly random follower: the bag is kept as a list of
colours in ascending order and ``Rng.below(len(bag))`` picks the index.
"""

from __future__ import annotations

from throneroom.v1 import king_is_dead_pb2 as pb

from throneroom_server.games.king_is_dead.board import (
    COURT_DRAWS,
    FACTIONS,
    FOLLOWERS_PER_FACTION,
    HAND,
    HOME_FOLLOWERS,
    HOMES,
    LOYALIST_FOLLOWERS,
    MORDRED_START,
    REGION_START_FOLLOWERS,
    REGIONS,
    REMOVED_PER_FACTION_TWO_PLAYERS,
    TURN,
)
from throneroom_server.games.king_is_dead.struggle import _E, add_followers
from throneroom_server.games.kit import chance
from throneroom_server.games.rng import Rng, seed_rng

MAX_CHANCE_OUTCOMES = max(len(FACTIONS) * (FOLLOWERS_PER_FACTION - HOME_FOLLOWERS), len(REGIONS))
"""The most outcomes of one chance step of the setup: a follower drawn from the
full bag (kit.chance), or the shuffle of the region cards."""


def setup_state(options: pb.KingIsDeadOptions, num_seats: int, seed: int) -> pb.KingIsDeadState:
    state = pb.KingIsDeadState(num_seats=num_seats, mordred=options.mordred)
    seed_rng(state.rng, seed)
    rng = Rng(state.rng)

    removed = REMOVED_PER_FACTION_TWO_PLAYERS if num_seats == 2 else 0
    for faction in FACTIONS:
        add_followers(state.removed, faction, removed)
    for region in REGIONS:
        state.regions.add(region=region)
    bag: list[int] = []
    for faction in FACTIONS:
        add_followers(state.regions[HOMES[faction] - 1], faction, HOME_FOLLOWERS)
        bag.extend([faction] * (FOLLOWERS_PER_FACTION - removed - HOME_FOLLOWERS))

    def draw() -> int:
        return bag.pop(chance.draw(rng, "draw:follower", len(bag), lambda: tuple(map(str, bag))))

    courts = [[draw() for _ in range(COURT_DRAWS)] for _ in range(num_seats)]
    redraws = 0
    while True:
        again = _seats_to_redraw(courts)
        if not again:
            break
        redraws += 1
        for seat in again:
            bag.extend(courts[seat])
        bag.sort()
        for seat in again:
            courts[seat] = [draw() for _ in range(COURT_DRAWS)]
    state.court_redraws = redraws

    if options.mordred:
        for region in MORDRED_START:
            state.regions[region - 1].loyalists = 1
        state.loyalist_pool = LOYALIST_FOLLOWERS - len(MORDRED_START)
    for reg in state.regions:
        counts = [reg.scots, reg.welsh, reg.romano_british, reg.loyalists]
        for _ in range(REGION_START_FOLLOWERS - sum(counts)):
            counts[draw() - 1] += 1
        reg.scots, reg.welsh, reg.romano_british, reg.loyalists = counts
    supply = state.supply
    supply.scots, supply.welsh, supply.romano_british = (bag.count(f) for f in FACTIONS)

    order = list(REGIONS)
    chance.shuffle(rng, order, "shuffle:region_cards")
    for region in order:
        state.region_cards.add(region=region, face_up=True)

    for court in courts:
        seat_state = state.seats.add(hand=HAND, has_crown_token=True)
        for colour in court:
            add_followers(seat_state.court, colour, 1)
    state.to_move = 0
    state.pending.decision = TURN
    return state


def _seats_to_redraw(courts: list[list[int]]) -> list[int]:
    """Seats that must draw again: two or more seats each holding two followers
    of one and the same colour."""
    again: list[int] = []
    for faction in FACTIONS:
        pairs = [s for s, court in enumerate(courts) if court == [faction, faction]]
        if len(pairs) >= 2:
            again.extend(pairs)
    return sorted(again)


def setup_summary(state: pb.KingIsDeadState) -> pb.KingIsDeadEvent:
    """The setup event: courts, board, region card order, supply (all public)."""
    event: pb.KingIsDeadEvent = _E(
        setup=_E.SetupSummary(
            num_seats=state.num_seats,
            mordred=state.mordred,
            courts=[s.court for s in state.seats],
            regions=state.regions,
            region_card_order=[c.region for c in state.region_cards],
            supply=state.supply,
            removed=state.removed,
            loyalist_pool=state.loyalist_pool,
            court_redraws=state.court_redraws,
        )
    )
    return event
