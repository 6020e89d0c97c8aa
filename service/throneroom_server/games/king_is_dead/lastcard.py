"""The 3-player last-card rule: "the last Action Card of the game may only be
played if the player holding it can use it to win the game immediately".

Reading (RULES-NOTES, the lead's notes): the 24th card may be played only if
some complete execution (the effect's decisions, then the summon) leads, with
passes alone, to that player winning; once it is played, each decision only
offers the choices that keep such a winning completion.

After the last card every hand is empty, so the rest of the game is forced:
the remaining power struggles resolve in region-card order (with the Mordred
banner and the end checks). The search below walks every execution of the
effect on plain data (a ``Node``: tuples and ints, no messages) with the same
legal executions as the engine (cards.py) and plays that forced ending out
with the same endings (endings.py); tests replay winning completions through
the engine to keep the two in step.

What keeps it quick (every step exact, none a heuristic):

* Within the turn only the board, the region-card order, the supply and the
  seat's own court change. Everything else (resolved regions, the other
  courts, the last plays, the Loyalist pool, the undo rule) is a fixed
  ``Context`` holding the memos, so the card play's search and the searches
  of every decision of the card that follows share them.
* The ending depends only on the remaining regions' controls in resolution
  order and on the seat's court (searchending.py): a region's followers at
  resolution reduce to a *signature* (its control, and its control with one
  follower of each colour summoned away), and a sequence of controls to an
  outcome (termination, first and second faction), decided once per court.
* A choice touches one or two regions: its result is derived from the
  position before it by changing those regions' signatures, without
  building the position; while their controls stay, the summons elsewhere
  are worked out once for all such choices (``Leaves``).
* A follower placed where no later placement or summon can make it matter
  leads to the same endings whichever such region it goes to: those
  placements are searched once.
* Answers are cached by state, since legal_moves() and apply() ask the same
  question about the same state.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Iterator, Sequence

from throneroom.v1 import king_is_dead_pb2 as pb

from throneroom_server.games.king_is_dead.board import (
    AMBASSADOR,
    DECIDE_AMBASSADOR,
    DECIDE_CROWN,
    DECIDE_GARRISON,
    DECIDE_PLACE,
    DECIDE_SETTLE,
    DECIDE_SUMMON,
    FACTIONS,
    GARRISON,
    HAND,
    LAST_CARD_RULE_SEATS,
    LOYALISTS,
    NONE,
    Board,
    Counts,
)
from throneroom_server.games.king_is_dead.cards import (
    K_AMBASSADOR,
    K_CROWN,
    K_GARRISON,
    K_PLACE,
    K_SETTLE,
    K_SUMMON,
    Key,
    RegionCardInfo,
    can_summon,
    crown_keys,
    exchange_keys,
    first_decision,
    next_settle_colour,
    place_targets,
    settle_keys,
    summon_keys,
)
from throneroom_server.games.king_is_dead.searchending import (
    Context,
    Court,
    Leaves,
    Signature,
    inert,
    leaf_wins,
    plus,
    resolution_plan,
    signature,
    summon_wins,
    summoned,
)
from throneroom_server.games.king_is_dead.struggle import forbidden_mirror

State = pb.KingIsDeadState


ALL_CARDS = LAST_CARD_RULE_SEATS * len(HAND)
"""The 24 action cards of a 3-player game."""


def last_card_in_play(state: State) -> bool:
    """3 players and exactly one action card left in the whole game."""
    return state.num_seats == LAST_CARD_RULE_SEATS and state.cards_played == ALL_CARDS - 1


def resolving_last_card(state: State) -> bool:
    """3 players, and the card being resolved is the game's last one."""
    return (
        state.num_seats == LAST_CARD_RULE_SEATS
        and state.cards_played == ALL_CARDS
        and state.pending.decision not in (NONE, pb.KingIsDeadPending.DECISION_TURN)
    )


# -- the position -----------------------------------------------------------------------


class Node:
    """The parts of a state that the rest of a last-card turn can change
    (plain data; ``copy`` before changing)."""

    __slots__ = ("board", "cards", "colour", "court", "decision", "remaining", "supply")

    board: Board
    cards: list[RegionCardInfo]
    supply: list[int]
    court: Court
    decision: int
    colour: int
    remaining: int

    def copy(self) -> Node:
        new = Node.__new__(Node)
        new.board = list(self.board)
        new.cards = self.cards
        new.supply = self.supply
        new.court = self.court
        new.decision = self.decision
        new.colour = self.colour
        new.remaining = self.remaining
        return new

    def memo_key(self) -> tuple[object, ...]:
        # The supply follows from the board and the court (the context is fixed).
        return (
            self.decision,
            self.colour,
            self.remaining,
            tuple(self.board),
            tuple(self.cards),
            self.court,
        )

    def add(self, region: int, colour: int, n: int) -> None:
        counts = self.board[region - 1]
        assert counts is not None
        self.board[region - 1] = plus(counts, colour, n)

    def end_effect(self) -> None:
        """After the effect: the summon, or the end of the turn."""
        self.decision = DECIDE_SUMMON if can_summon(self.board) else NONE
        self.colour = 0
        self.remaining = 0


_LATEST: list[Context] = []
"""The latest turn's context (just one, so the memos stay bounded)."""


def _read(state: State, seat: int, last_played_now: int, card: int) -> tuple[Context, Node]:
    """The context (the latest one when it is the same turn) and the node of a
    state, read in one pass. ``last_played_now``: the seat's last play stamp
    once the card is played; ``card``: the card being (or to be) resolved."""
    board: Board = []
    controls: list[int] = []
    orders: list[int] = []
    for r in state.regions:
        control = r.control
        controls.append(control)
        orders.append(r.resolved_order)
        board.append(None if control else (r.scots, r.welsh, r.romano_british, r.loyalists))
    courts: list[Court] = []
    last_played: list[int] = []
    for s in state.seats:
        c = s.court
        courts.append((c.scots, c.welsh, c.romano_british))
        last_played.append(s.last_played)
    last_played[seat] = last_played_now
    forbidden = forbidden_mirror(state, seat) if card in (GARRISON, AMBASSADOR) else None
    key = (
        seat,
        tuple(controls),
        tuple(orders),
        state.loyalist_pool,
        tuple(last_played),
        tuple(c for s, c in enumerate(courts) if s != seat),
        state.mordred,
        forbidden,
    )
    ctx = _LATEST[0] if _LATEST else None
    if ctx is None or ctx.key != key:
        previous = ctx
        ctx = Context(
            key,
            seat=seat,
            controls=controls,
            orders=orders,
            courts=courts,
            last_played=last_played,
            pool=state.loyalist_pool,
            mordred=state.mordred,
            forbidden=forbidden,
        )
        if previous is not None:
            ctx.share_wins(previous)
        _LATEST[:] = [ctx]
    node = Node.__new__(Node)
    node.board = board
    node.cards = [(c.region, c.face_up, c.HasField("crowned_by")) for c in state.region_cards]
    supply = state.supply
    node.supply = [supply.scots, supply.welsh, supply.romano_british]
    node.court = courts[seat]
    pending = state.pending
    node.decision = pending.decision
    node.colour = pending.colour
    node.remaining = pending.remaining
    return ctx, node


# -- the search ---------------------------------------------------------------------------


def _options(ctx: Context, node: Node) -> list[Key]:
    board = node.board
    d = node.decision
    if d == DECIDE_SUMMON:
        return summon_keys(board)
    if d == DECIDE_SETTLE:
        return settle_keys(board)
    if d == DECIDE_PLACE:
        return [(K_PLACE, r) for r in place_targets(board, ctx.controls, node.colour)]
    if d == DECIDE_GARRISON:
        return exchange_keys(K_GARRISON, board, ctx.forbidden)
    if d == DECIDE_AMBASSADOR:
        return exchange_keys(K_AMBASSADOR, board, ctx.forbidden)
    if d == DECIDE_CROWN:
        return crown_keys(node.cards)
    raise AssertionError(f"no options at decision {d}")


def _step(node: Node, key: Key) -> Node:
    """The node after one decision (mirrors effects.carry_out)."""
    new = node.copy()
    kind = key[0]
    if kind == K_SUMMON:
        _, region, faction = key
        new.add(region, faction, -1)
        new.court = summoned(node.court)[faction - 1]
        new.decision = NONE
    elif kind in (K_SETTLE, K_PLACE):
        colour = node.colour
        new.add(key[1], colour, 1)
        new.supply = list(node.supply)
        new.supply[colour - 1] -= 1
        if kind == K_SETTLE:
            following = next_settle_colour(new.supply, colour)
            if following:
                new.colour = following
            else:
                new.end_effect()
        elif node.remaining > 1:
            new.remaining = node.remaining - 1
        else:
            new.end_effect()
    elif kind == K_GARRISON:
        _, a, b, o1, o2, back = key
        new.add(a, o1, -1)
        new.add(b, o1, 1)
        if o2:
            new.add(a, o2, -1)
            new.add(b, o2, 1)
        if back:
            new.add(b, back, -1)
            new.add(a, back, 1)
        new.end_effect()
    elif kind == K_AMBASSADOR:
        _, a, b, fa, fb = key
        if fa:
            new.add(a, fa, -1)
            new.add(b, fa, 1)
        if fb:
            new.add(b, fb, -1)
            new.add(a, fb, 1)
        new.end_effect()
    elif kind == K_CROWN:
        new.cards = _crowned(node.cards, key)
        new.end_effect()
    else:
        raise AssertionError(f"not an effect key: {key!r}")
    return new


def _crowned(cards: list[RegionCardInfo], key: Key) -> list[RegionCardInfo]:
    """The region cards after a Crown swap (mirrors effects._crown)."""
    _, a, b, crowned = key
    swapped: list[RegionCardInfo] = []
    for region, face_up, is_crowned in cards:
        if region == a:
            swapped.append((b, face_up, crowned == b))
        elif region == b:
            swapped.append((a, face_up, crowned == a))
        else:
            swapped.append((region, face_up, is_crowned))
    return swapped


def _wins(ctx: Context, node: Node) -> bool:
    """Whether some completion of the turn from here makes the seat win."""
    d = node.decision
    if d in (NONE, DECIDE_SUMMON):
        return _summon_wins(ctx, node)
    token = node.memo_key()
    known = ctx.nodes.get(token)
    if known is None:
        known = any(_choices(ctx, node, _options(ctx, node)))
        ctx.nodes[token] = known
    return known


def _summon_wins(ctx: Context, node: Node) -> bool:
    """After the effect: whether some summon (or none, when none is possible,
    or the one already made) then the forced ending makes the seat win."""
    plan = resolution_plan(ctx, node.board, node.cards)[1]
    signatures = tuple([signature(counts) for counts in plan])
    # NONE: the turn is over (summoned, or nothing to summon).
    return leaf_wins(ctx, signatures, node.court, node.decision == DECIDE_SUMMON)


def _choices(ctx: Context, node: Node, keys: list[Key]) -> Iterator[bool]:
    """Whether each choice (legal keys of the node's decision) keeps a winning
    completion, lazily and in order."""
    d = node.decision
    if d == DECIDE_SUMMON:
        return _summons(ctx, node, keys)
    if d in (DECIDE_SETTLE, DECIDE_PLACE):
        return _placements(ctx, node, keys)
    if d in (DECIDE_GARRISON, DECIDE_AMBASSADOR):
        return _exchanges(ctx, node, keys)
    if d == DECIDE_CROWN and not ctx.mordred:
        return _crowns(ctx, node, keys)
    return (_wins(ctx, _step(node, key)) for key in keys)


def _positions(regions: list[int]) -> list[int]:
    """Index by region: its place in resolution order."""
    where = [-1] * 9
    for i, region in enumerate(regions):
        where[region] = i
    return where


def _replaced(
    signatures: list[Signature], changes: list[tuple[int, Signature]]
) -> tuple[Signature, ...]:
    new = list(signatures)
    for i, sig in changes:
        new[i] = sig
    return tuple(new)


def _summons(ctx: Context, node: Node, keys: list[Key]) -> Iterator[bool]:
    """Summon choices: one region's control changes, then the ending."""
    regions, plan = resolution_plan(ctx, node.board, node.cards)
    where = _positions(regions)
    signatures = [signature(counts) for counts in plan]
    for _, region, faction in keys:
        yield summon_wins(ctx, signatures, where[region], faction, node.court)


def _placements(ctx: Context, node: Node, keys: list[Key]) -> Iterator[bool]:
    """Settlers and faction-card placements: the followers still to place, each
    to any region of this decision's options (the same at every placement of
    the card), then the summon."""
    colour = node.colour
    if node.decision == DECIDE_SETTLE:
        later = tuple(f for f in FACTIONS if f > colour and node.supply[f - 1] > 0)
    else:
        later = (colour,) * (node.remaining - 1)
    regions, plan = resolution_plan(ctx, node.board, node.cards)
    where = _positions(regions)
    targets = tuple([where[key[1]] for key in _options(ctx, node)])
    placing = _Placing(ctx, tuple(regions), targets, node.court)
    if not later:
        # The last follower placed, the summon follows.
        leaves = Leaves(ctx, [signature(counts) for counts in plan], node.court)
        for key in keys:
            i = where[key[1]]
            yield leaves.wins([(i, signature(plus(plan[i], colour, 1)))])
        return
    same: bool | None = None
    for key in keys:
        i = where[key[1]]
        if inert(plan[i], colour, later):
            if same is None:
                same = placing.wins(_placed(plan, i, colour), later)
            yield same
        else:
            yield placing.wins(_placed(plan, i, colour), later)


def _placed(plan: Sequence[Counts], i: int, colour: int) -> tuple[Counts, ...]:
    return (*plan[:i], plus(plan[i], colour, 1), *plan[i + 1 :])


class _Placing:
    """The rest of a card's placements, on the resolution plan alone (placing
    never changes the region order nor the Mordred banner)."""

    __slots__ = ("court", "ctx", "regions", "targets")

    def __init__(
        self, ctx: Context, regions: tuple[int, ...], targets: tuple[int, ...], court: Court
    ) -> None:
        self.ctx = ctx
        self.regions = regions
        self.targets = targets
        """Positions (in resolution order) a follower may be placed at."""
        self.court = court

    def wins(self, plan: tuple[Counts, ...], colours: tuple[int, ...]) -> bool:
        """Whether placing ``colours`` in turn, then summoning, can win. A
        follower placed where no later placement or summon can make it matter
        leads to the same endings wherever it goes: those are tried once."""
        ctx = self.ctx
        token = (self.regions, self.targets, plan, colours, self.court)
        known = ctx.placings.get(token)
        if known is not None:
            return known
        colour, later = colours[0], colours[1:]
        known = False
        if not later:
            leaves = Leaves(ctx, [signature(counts) for counts in plan], self.court)
            known = any(
                leaves.wins([(i, signature(plus(plan[i], colour, 1)))]) for i in self.targets
            )
        else:
            tried_inert = False
            for i in self.targets:
                if inert(plan[i], colour, later):
                    if tried_inert:
                        continue
                    tried_inert = True
                if self.wins(_placed(plan, i, colour), later):
                    known = True
                    break
        ctx.placings[token] = known
        return known


def _exchanges(ctx: Context, node: Node, keys: list[Key]) -> Iterator[bool]:
    """Garrison and Ambassador executions: two regions change, then the summon
    (when any follower can be summoned: an exchange does not change that).
    Moving black followers changes the Mordred banner: searched in full."""
    regions, plan = resolution_plan(ctx, node.board, node.cards)
    where = _positions(regions)
    signatures = [signature(counts) for counts in plan]
    leaves = Leaves(ctx, signatures, node.court) if can_summon(node.board) else None
    for key in keys:
        going: tuple[int, ...]
        coming: tuple[int, ...]
        if key[0] == K_GARRISON:
            _, a, b, o1, o2, back = key
            going = (o1, o2) if o2 else (o1,)
            coming = (back,) if back else ()
        else:
            _, a, b, fa, fb = key
            going = (fa,) if fa else ()
            coming = (fb,) if fb else ()
        if ctx.mordred and LOYALISTS in going + coming:
            yield _wins(ctx, _step(node, key))
            continue
        i, j = where[a], where[b]
        at_a, at_b = plan[i], plan[j]
        for f in going:
            at_a = plus(at_a, f, -1)
            at_b = plus(at_b, f, 1)
        for f in coming:
            at_b = plus(at_b, f, -1)
            at_a = plus(at_a, f, 1)
        changes = [(i, signature(at_a)), (j, signature(at_b))]
        if leaves is None:
            yield leaf_wins(ctx, _replaced(signatures, changes), node.court, False)
        else:
            yield leaves.wins(changes)


def _crowns(ctx: Context, node: Node, keys: list[Key]) -> Iterator[bool]:
    """Crown swaps without Mordred: the regions keep their followers and only
    the resolution order changes."""
    by_region = [0] * 9
    for region, counts in zip(*resolution_plan(ctx, node.board, node.cards), strict=True):
        by_region[region] = signature(counts)
    summons = can_summon(node.board)
    for key in keys:
        cards = _crowned(node.cards, key)
        signatures = tuple([by_region[region] for region, face_up, _ in cards if face_up])
        yield leaf_wins(ctx, signatures, node.court, summons)


# -- the questions the engine asks ----------------------------------------------------------


def _play_wins(state: State, seat: int, card: int) -> bool:
    ctx, node = _read(state, seat, state.cards_played + 1, card)
    first = first_decision(
        card,
        node.board,
        cards=node.cards,
        supply=node.supply,
        controls=ctx.controls,
        forbidden=ctx.forbidden,
    )
    if first is None:
        node.end_effect()
    else:
        node.decision, node.colour, node.remaining = first
    return _wins(ctx, node)


_CACHE: OrderedDict[tuple[bytes, int, tuple[Key, ...]], tuple[Key, ...]] = OrderedDict()
_CACHE_SIZE = 256


def _cached(
    state: State, seat: int, keys: list[Key], compute: Callable[[], list[Key]]
) -> list[Key]:
    token = (state.SerializeToString(deterministic=True), seat, tuple(keys))
    hit = _CACHE.pop(token, None)  # (re)inserted last: most recently used
    if hit is None:
        hit = tuple(compute())
    _CACHE[token] = hit
    while len(_CACHE) > _CACHE_SIZE:
        try:
            _CACHE.popitem(last=False)
        except KeyError:  # emptied by another thread meanwhile
            break
    return list(hit)


def playable_cards(state: State, seat: int, cards: list[int]) -> list[int]:
    """Of the seat's last card (``cards``), those it may play: the ones with a
    winning completion."""
    keys: list[Key] = [(c,) for c in cards]
    result = _cached(state, seat, keys, lambda: [(c,) for c in cards if _play_wins(state, seat, c)])
    return [k[0] for k in result]


def winning_keys(state: State, seat: int, keys: list[Key]) -> list[Key]:
    """Of the legal choices of a decision while the last card is being
    resolved, those that keep a winning completion."""

    def compute() -> list[Key]:
        ctx, node = _read(state, seat, state.seats[seat].last_played, state.pending.card)
        return [k for k, wins in zip(keys, _choices(ctx, node, keys), strict=True) if wins]

    return _cached(state, seat, keys, compute)
