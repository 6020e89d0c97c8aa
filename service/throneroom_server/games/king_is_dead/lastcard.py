"""The 3-player last-card rule: "the last Action Card of the game may only be
played if the player holding it can use it to win the game immediately".

Reading (RULES-NOTES, the lead's notes): the 24th card may be played only if
some complete execution (the effect's decisions, then the summon) leads, with
passes alone, to that player winning; once it is played, each decision only
offers the choices that keep such a winning completion.

After the last card every hand is empty, so the rest of the game is forced:
the remaining power struggles resolve in region-card order (with the Mordred
banner and the end checks). The search below walks every execution of the
effect on a working copy (a ``Node``: tuples and ints, no messages) with the
same code apply() runs: the legal executions of cards.py, each decision's
effect, the summon and the resolution of rules.py, the endings of endings.py;
tests replay winning completions through the engine as well.

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
  question about the same state. Every memo belongs to a ``LastCardSearch``,
  which the engine object owns (no module-level state): an answer depends
  only on the state asked about.
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
    GARRISON,
    HAND,
    LAST_CARD_RULE_SEATS,
    NONE,
    NUM_REGIONS,
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
    decision_keys,
    first_decision,
)
from throneroom_server.games.king_is_dead.rules import (
    Court,
    after_effect,
    court_after_summon,
    crowned_cards,
    exchange_flows,
    exchanged,
    flowed,
    moves_loyalists,
    next_placement,
    placed,
    placements_after,
    summon_possible,
    summoned_from,
    supply_after_placing,
)
from throneroom_server.games.king_is_dead.searchending import (
    Context,
    Leaves,
    RegionMemo,
    Signature,
    leaf_wins,
    resolution_plan,
    summon_wins,
)
from throneroom_server.games.king_is_dead.struggle import forbidden_mirror

State = pb.KingIsDeadState


ALL_CARDS = LAST_CARD_RULE_SEATS * len(HAND)
"""The 24 action cards of a 3-player game."""


def last_card_in_play(state: State) -> bool:
    """3 players and exactly one action card left in the whole game."""
    # The count first: it rules out nearly every state with one read.
    return state.cards_played == ALL_CARDS - 1 and state.num_seats == LAST_CARD_RULE_SEATS


def resolving_last_card(state: State) -> bool:
    """3 players, and the card being resolved is the game's last one."""
    return (
        state.cards_played == ALL_CARDS
        and state.num_seats == LAST_CARD_RULE_SEATS
        and state.pending.decision not in (NONE, pb.KingIsDeadPending.DECISION_TURN)
    )


# -- the position -----------------------------------------------------------------------


class Node:
    """The working copy of a last-card turn: the parts of a state that the rest
    of the turn can change (plain data; ``step`` returns a new node), with the
    turn's fixed ``Context``."""

    __slots__ = (
        "board",
        "cards",
        "colour",
        "court",
        "ctx",
        "decision",
        "remaining",
        "supply",
    )

    ctx: Context
    board: Board
    cards: list[RegionCardInfo]
    supply: tuple[int, int, int]
    court: Court
    decision: int
    colour: int
    remaining: int

    def copy(self) -> Node:
        new = Node.__new__(Node)
        new.ctx = self.ctx
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

    def end_effect(self) -> None:
        """After the effect: the summon, or the end of the turn (rules.after_effect)."""
        self.decision = after_effect(self.board)
        self.colour = 0
        self.remaining = 0

    def step(self, key: Key) -> Node:
        """The node after one decision: what effects.py does to a
        state, by the same rules (rules.py)."""
        new = self.copy()
        board = new.board
        kind = key[0]
        if kind == K_SUMMON:
            _, region, faction = key
            board[region - 1] = summoned_from(_counts(board, region), faction)
            new.court = court_after_summon(self.court, faction)
            new.decision = NONE  # the turn is over
        elif kind in (K_SETTLE, K_PLACE):
            region = key[1]
            board[region - 1] = placed(_counts(board, region), self.colour)
            new.supply = supply_after_placing(self.supply, self.colour)
            following = next_placement((self.decision, self.colour, self.remaining), new.supply)
            if following is None:
                new.end_effect()
            else:
                new.decision, new.colour, new.remaining = following
        elif kind in (K_GARRISON, K_AMBASSADOR):
            (a, b, _), _ = exchange_flows(key)
            board[a - 1], board[b - 1] = exchanged(key, _counts(board, a), _counts(board, b))
            new.end_effect()
        elif kind == K_CROWN:
            new.cards = crowned_cards(self.cards, key)
            new.end_effect()
        else:
            raise AssertionError(f"not an effect key: {key!r}")
        return new

    # -- with board, cards and supply: cards.Position, what a first decision reads --

    @property
    def controls(self) -> list[int]:
        return self.ctx.controls

    @property
    def forbidden(self) -> Key | None:
        return self.ctx.forbidden


def _counts(board: Board, region: int) -> Counts:
    counts = board[region - 1]
    assert counts is not None, f"region {region} is resolved"
    return counts


def read_turn(
    state: State,
    seat: int,
    *,
    last_played_now: int,
    card: int,
    latest: Context | None,
    memo: RegionMemo,
) -> Node:
    """The node of a state (its context the ``latest`` one when it is the same
    turn), read in one pass. ``last_played_now``: the seat's last play stamp
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
        (*courts[:seat], *courts[seat + 1 :]),
        state.mordred,
        forbidden,
    )
    ctx = latest
    if ctx is None or ctx.key != key:
        memo.bound()
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
            memo=memo,
        )
        if latest is not None:
            ctx.share_wins(latest)
    node = Node.__new__(Node)
    node.ctx = ctx
    node.board = board
    node.cards = [(c.region, c.face_up, c.HasField("crowned_by")) for c in state.region_cards]
    supply = state.supply
    node.supply = (supply.scots, supply.welsh, supply.romano_british)
    node.court = courts[seat]
    pending = state.pending
    node.decision = pending.decision
    node.colour = pending.colour
    node.remaining = pending.remaining
    return node


# -- the search ---------------------------------------------------------------------------


def _wins(ctx: Context, node: Node) -> bool:
    """Whether some completion of the turn from here makes the seat win."""
    d = node.decision
    if d in (NONE, DECIDE_SUMMON):
        return _summon_wins(ctx, node)
    token = node.memo_key()
    known = ctx.nodes.get(token)
    if known is None:
        known = any(_choices(ctx, node, decision_keys(node.decision, node.colour, node)))
        ctx.nodes[token] = known
    return known


def _summon_wins(ctx: Context, node: Node) -> bool:
    """After the effect: whether some summon (or none, when none is possible,
    or the one already made) then the forced ending makes the seat win."""
    plan = resolution_plan(ctx, node.board, node.cards)[1]
    signatures = tuple(ctx.signatures_of(plan))
    # NONE: the turn is over (summoned, or nothing to summon).
    return leaf_wins(ctx, signatures, node.court, node.decision == DECIDE_SUMMON)


def _choices(ctx: Context, node: Node, keys: list[Key]) -> Iterator[bool]:
    """Whether each choice (``keys``: every legal key of the node's decision,
    as cards.decision_keys lists them) keeps a winning completion, lazily and
    in order."""
    d = node.decision
    if d == DECIDE_SUMMON:
        return _summons(ctx, node, keys)
    if d in (DECIDE_SETTLE, DECIDE_PLACE):
        return _placements(ctx, node, keys)
    if d in (DECIDE_GARRISON, DECIDE_AMBASSADOR):
        return _exchanges(ctx, node, keys)
    if d == DECIDE_CROWN and not ctx.mordred:
        return _crowns(ctx, node, keys)
    return (_wins(ctx, node.step(key)) for key in keys)


def _positions(regions: list[int]) -> list[int]:
    """Index by region: its place in resolution order."""
    where = [-1] * (NUM_REGIONS + 1)
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
    signatures = ctx.signatures_of(plan)
    for _, region, faction in keys:
        yield summon_wins(ctx, signatures, where[region], faction, node.court)


def _placements(ctx: Context, node: Node, keys: list[Key]) -> Iterator[bool]:
    """Settlers and faction-card placements: the followers still to place, each
    to any region of this decision's options (the same at every placement of
    the card), then the summon."""
    colour = node.colour
    later = placements_after((node.decision, colour, node.remaining), node.supply)
    regions, plan = resolution_plan(ctx, node.board, node.cards)
    where = _positions(regions)
    # ``keys`` are every choice of this placement: the targets of all the card's.
    targets = tuple([where[key[1]] for key in keys])
    placing = _Placing(ctx, tuple(regions), targets, node.court)
    if not later:
        # The last follower placed, the summon follows.
        leaves = Leaves(ctx, ctx.signatures_of(plan), node.court)
        for key in keys:
            i = where[key[1]]
            yield leaves.wins([(i, ctx.signatures[placed(plan[i], colour)])])
        return
    same: bool | None = None
    for key in keys:
        i = where[key[1]]
        if ctx.inerts[plan[i], colour, later]:
            if same is None:
                same = placing.wins(_placed(plan, i, colour), later)
            yield same
        else:
            yield placing.wins(_placed(plan, i, colour), later)


def _placed(plan: Sequence[Counts], i: int, colour: int) -> tuple[Counts, ...]:
    return (*plan[:i], placed(plan[i], colour), *plan[i + 1 :])


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
            leaves = Leaves(ctx, ctx.signatures_of(plan), self.court)
            known = any(
                leaves.wins([(i, ctx.signatures[placed(plan[i], colour)])]) for i in self.targets
            )
        else:
            tried_inert = False
            for i in self.targets:
                if ctx.inerts[plan[i], colour, later]:
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
    signatures = ctx.signatures_of(plan)
    leaves = Leaves(ctx, signatures, node.court) if summon_possible(node.board) else None
    for key in keys:
        flows = exchange_flows(key)
        if ctx.mordred and moves_loyalists(flows):
            yield _wins(ctx, node.step(key))
            continue
        (a, b, _), _ = flows
        i, j = where[a], where[b]
        at_a, at_b = flowed(flows, plan[i], plan[j])
        changes = [(i, ctx.signatures[at_a]), (j, ctx.signatures[at_b])]
        if leaves is None:
            yield leaf_wins(ctx, _replaced(signatures, changes), node.court, False)
        else:
            yield leaves.wins(changes)


def _crowns(ctx: Context, node: Node, keys: list[Key]) -> Iterator[bool]:
    """Crown swaps without Mordred: the regions keep their followers and only
    the resolution order changes."""
    by_region = [0] * (NUM_REGIONS + 1)
    for region, counts in zip(*resolution_plan(ctx, node.board, node.cards), strict=True):
        by_region[region] = ctx.signatures[counts]
    summons = summon_possible(node.board)
    for key in keys:
        cards = crowned_cards(node.cards, key)
        signatures = tuple([by_region[region] for region, face_up, _ in cards if face_up])
        yield leaf_wins(ctx, signatures, node.court, summons)


# -- the questions the engine asks ----------------------------------------------------------

Answers = OrderedDict[tuple[bytes, int, tuple[Key, ...]], tuple[Key, ...]]


class LastCardSearch:
    """The 3-player last-card search with its memos, owned by one engine
    object (KingIsDead): the latest turn's context (just one, so the memos stay
    bounded), the answers for the latest states asked about, and the memo of
    region signatures. The memos only save work: an answer depends only on
    the state and the question."""

    __slots__ = ("_answers", "_latest", "answers_size", "regions")

    def __init__(self, answers_size: int = 256) -> None:
        self.answers_size = answers_size
        self._answers: Answers = OrderedDict()
        self._latest: Context | None = None
        self.regions = RegionMemo()

    def memo_sizes(self) -> tuple[int, int, int]:
        """(answers, region signatures, inert placements) held now."""
        return len(self._answers), len(self.regions.signatures), len(self.regions.inerts)

    def _read(self, state: State, seat: int, last_played_now: int, card: int) -> Node:
        node = read_turn(
            state,
            seat,
            last_played_now=last_played_now,
            card=card,
            latest=self._latest,
            memo=self.regions,
        )
        self._latest = node.ctx
        return node

    def _cached(
        self, state: State, seat: int, keys: list[Key], compute: Callable[[], list[Key]]
    ) -> list[Key]:
        token = (state.SerializeToString(deterministic=True), seat, tuple(keys))
        answers = self._answers
        hit = answers.pop(token, None)  # (re)inserted last: most recently used
        if hit is None:
            hit = tuple(compute())
        answers[token] = hit
        while len(answers) > self.answers_size:
            try:
                answers.popitem(last=False)
            except KeyError:  # emptied by another thread meanwhile
                break
        return list(hit)

    def _play_wins(self, state: State, seat: int, card: int) -> bool:
        node = self._read(state, seat, state.cards_played + 1, card)
        first = first_decision(card, node)
        if first is None:
            node.end_effect()
        else:
            node.decision, node.colour, node.remaining = first
        return _wins(node.ctx, node)

    def playable_cards(self, state: State, seat: int, cards: list[int]) -> list[int]:
        """Of the seat's last card (``cards``), those it may play: the ones
        with a winning completion."""
        keys: list[Key] = [(c,) for c in cards]
        result = self._cached(
            state, seat, keys, lambda: [(c,) for c in cards if self._play_wins(state, seat, c)]
        )
        return [k[0] for k in result]

    def winning_keys(self, state: State, seat: int, keys: list[Key]) -> list[Key]:
        """Of the legal choices of a decision while the last card is being
        resolved (``keys``: all of them), those that keep a winning completion."""

        def compute() -> list[Key]:
            node = self._read(state, seat, state.seats[seat].last_played, state.pending.card)
            wins = _choices(node.ctx, node, keys)
            return [k for k, won in zip(keys, wins, strict=True) if won]

        return self._cached(state, seat, keys, compute)
