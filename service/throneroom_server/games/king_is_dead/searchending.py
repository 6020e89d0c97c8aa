"""The forced ending of a 3-player last-card turn, for the search in lastcard.py.

Once the last card's effect is carried out only the summon is left to choose;
then the remaining power struggles resolve in region-card order. Here a
position is reduced to what decides that ending:

* a region's followers at its resolution (the Mordred banner included) reduce
  to a ``Signature``: its control, and its control with one Scots / Welsh /
  Romano-British follower fewer (-1 when there is none to summon);
* a sequence of controls (the remaining regions in resolution order) reduces
  to an ``Outcome``: the termination and the first and second factions of
  the ranking (endings.faction_ranking), which with the courts and the last
  plays decide the winners (endings.ranked_seat_wins).

Everything here works on tuples and ints, memoized in the turn's ``Context``
(and, for what depends on one region alone, in the ``RegionMemo`` of the
engine's search, handed to each context). What a summon, a placement and a
resolution do is rules.py's, the same code apply() runs.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import combinations, product
from typing import TypeVar

from throneroom.games.king_is_dead.rules import banner, region_winner

from throneroom_server.games.king_is_dead.board import (
    BANNER,
    FACTIONS,
    SAXONS,
    Board,
    Counts,
)
from throneroom_server.games.king_is_dead.cards import Key, RegionCardInfo
from throneroom_server.games.king_is_dead.endings import (
    CONTROL,
    INVASION,
    faction_tally,
    rank_factions,
    ranked_seat_wins,
)
from throneroom_server.games.king_is_dead.rules import (
    Court,
    court_after_summon,
    game_end,
    placed,
    summoned_from,
)

Signature = int
KeyT = TypeVar("KeyT")
ValueT = TypeVar("ValueT")
Outcome = tuple[str, int, int]
"""How the forced ending finishes: (termination, first faction, second faction),
0 for a faction the ranking lacks (both 0 for an invasion, which ignores them)."""
SummonToken = tuple[tuple[Signature, ...], Court]


class Memo(dict[KeyT, ValueT]):
    """A dict that works out a missing entry with ``compute`` and keeps it:
    ``memo[key]`` is ``compute(key)``, computed once (lookups stay dict
    lookups)."""

    __slots__ = ("compute",)

    def __init__(self, compute: Callable[[KeyT], ValueT]) -> None:
        super().__init__()
        self.compute = compute

    def __missing__(self, key: KeyT) -> ValueT:
        value = self[key] = self.compute(key)
        return value


InertQuestion = tuple[Counts, int, tuple[int, ...]]
"""(followers, the colour placed, the colours placed after it): see ``inert``."""


class RegionMemo:
    """Answers that depend on one region's followers alone (its signature, and
    whether a placement there is inert), kept across turns by the search that
    owns it; at most ``limit`` of each (emptied when full)."""

    __slots__ = ("inerts", "limit", "signatures")

    def __init__(self, limit: int = 8192) -> None:
        self.limit = limit
        self.signatures: Memo[Counts, Signature] = Memo(signature)
        """Region followers -> signature(followers)."""
        self.inerts: Memo[InertQuestion, bool] = Memo(self._inert)
        """(followers, colour, later colours) -> inert(...)."""

    def _inert(self, question: InertQuestion) -> bool:
        counts, colour, later = question
        return inert(counts, colour, later, self.signatures.__getitem__)

    def bound(self) -> None:
        """Empty the memos that grew past the limit (called between turns)."""
        if len(self.signatures) > self.limit:
            self.signatures.clear()
        if len(self.inerts) > self.limit:
            self.inerts.clear()


class Context:
    """The parts of a last-card turn that its decisions cannot change, and the
    memos of its search (their keys hold only what does change). ``key``
    identifies the turn: equal keys, equal answers."""

    __slots__ = (
        "controls",
        "courts",
        "courts_after",
        "forbidden",
        "inerts",
        "key",
        "last_played",
        "latest",
        "mordred",
        "nodes",
        "orders",
        "outcomes",
        "placings",
        "pool",
        "regions",
        "resolved",
        "saxons",
        "seat",
        "signatures",
        "summons",
        "wins",
    )

    def __init__(
        self,
        key: tuple[object, ...],
        *,
        seat: int,
        controls: list[int],
        orders: list[int],
        courts: list[Court],
        last_played: list[int],
        pool: int,
        mordred: bool,
        forbidden: Key | None,
        memo: RegionMemo | None = None,
    ) -> None:
        memo = RegionMemo() if memo is None else memo
        self.signatures = memo.signatures
        """Region followers -> signature, memoized (the search's RegionMemo)."""
        self.inerts = memo.inerts
        """(followers, colour, later colours) -> inert, memoized (the search's RegionMemo)."""
        self.key = key
        self.seat = seat
        self.controls = controls
        self.orders = orders
        self.courts = courts
        """Every seat's court (the seat's own as the search found it)."""
        self.last_played = last_played
        self.pool = pool
        self.mordred = mordred
        self.forbidden = forbidden
        self.resolved = max(orders)
        self.saxons = controls.count(SAXONS)
        regions, latest = faction_tally(controls, orders)
        self.regions = regions
        """Regions each faction controls (index 1..3), before the ending."""
        self.latest = latest
        """The resolution order of each faction's latest region, before the ending."""
        self.nodes: dict[tuple[object, ...], bool] = {}
        """Effect decisions: lastcard.Node.memo_key -> a winning completion exists."""
        self.placings: dict[tuple[object, ...], bool] = {}
        """Placements still to make (lastcard._Placing.wins) -> a win follows."""
        self.summons: dict[SummonToken, bool] = {}
        """(signatures in resolution order, court) -> some summon wins."""
        self.outcomes: dict[tuple[int, ...], Outcome] = {}
        """Controls of the remaining regions in resolution order -> outcome."""
        self.wins: dict[tuple[Outcome, Court], bool] = {}
        """(outcome, the seat's court) -> the seat wins."""
        self.courts_after: Memo[Court, tuple[Court, Court, Court]] = Memo(summoned)
        """The seat's court -> its court after each summon (summoned)."""

    def signatures_of(self, plan: Sequence[Counts]) -> list[Signature]:
        """The signature of each region of a resolution plan, memoized."""
        return list(map(self.signatures.__getitem__, plan))

    def share_wins(self, previous: Context) -> None:
        """Take over the ``wins`` of the previous context when the seat, the
        other courts and the last plays are the same (the holder's turns in
        later struggles), as long as they stay few."""
        seat = self.seat
        if (
            previous.seat == seat
            and previous.last_played == self.last_played
            and all(
                mine == theirs
                for s, (mine, theirs) in enumerate(zip(self.courts, previous.courts, strict=True))
                if s != seat
            )
            and len(previous.wins) < _SHARED_WINS
        ):
            self.wins = previous.wins


_SHARED_WINS = 1024


def summoned(court: Court) -> tuple[Court, Court, Court]:
    """The court after summoning a Scots / Welsh / Romano-British follower."""
    return (
        court_after_summon(court, FACTIONS[0]),
        court_after_summon(court, FACTIONS[1]),
        court_after_summon(court, FACTIONS[2]),
    )


def resolution_plan(
    ctx: Context, board: Board, cards: Sequence[RegionCardInfo]
) -> tuple[list[int], list[Counts]]:
    """The remaining regions in resolution (card) order, and the followers each
    will hold when resolved: its followers now plus the Mordred banner's
    Loyalists from regions resolved before it (rules.banner, as
    struggle.resolve_struggle resolves them). The banner never depends on who
    wins, and only moving black followers changes it (a summon or a placement
    does not)."""
    regions: list[int] = []
    plan: list[Counts] = []
    if not ctx.mordred:
        for region, face_up, _ in cards:
            if face_up:
                counts = board[region - 1]
                assert counts is not None
                regions.append(region)
                plan.append(counts)
        return regions, plan
    board = list(board)
    pool = ctx.pool
    for region, face_up, _ in cards:
        if not face_up:
            continue
        counts = board[region - 1]
        assert counts is not None
        regions.append(region)
        plan.append(counts)
        board[region - 1] = None
        target = BANNER[region]
        target_counts = board[target - 1]
        pool, to = banner(region, counts, pool, target_counts is not None)
        if to:
            assert target_counts is not None
            board[to - 1] = placed(target_counts, 4)
    return regions, plan


def _signature_code(control: int, after: Sequence[int]) -> Signature:
    return control | (after[0] + 1) << 3 | (after[1] + 1) << 6 | (after[2] + 1) << 9


_SIGNATURES = 1 << 12


def _tables() -> tuple[
    tuple[int, ...],
    tuple[tuple[int, int, int, int], ...],
    tuple[int, ...],
    tuple[tuple[tuple[int, int], ...], ...],
]:
    control_of = [0] * _SIGNATURES
    after_summon = [(0, -1, -1, -1)] * _SIGNATURES
    keeps = [0] * _SIGNATURES
    changes: list[tuple[tuple[int, int], ...]] = [()] * _SIGNATURES
    for control in range(1, SAXONS + 1):
        for after in product(range(-1, SAXONS + 1), repeat=3):
            code = _signature_code(control, after)
            control_of[code] = control
            after_summon[code] = (0, after[0], after[1], after[2])
            keeps[code] = sum(1 << f for f in FACTIONS if after[f - 1] == control)
            changes[code] = tuple(
                (f, after[f - 1]) for f in FACTIONS if after[f - 1] not in (-1, control)
            )
    return tuple(control_of), tuple(after_summon), tuple(keeps), tuple(changes)


CONTROL_OF, AFTER_SUMMON, _KEEPS, _CHANGES = _tables()
"""Signature -> the region's control; -> its control after summoning a
follower of faction 1..3 (index 0 unused; -1: none to summon); -> bit f set
when summoning faction f leaves the control as is; -> (faction, new control)
of each summon that changes the control. Constant tables."""


def signature(counts: Counts) -> Signature:
    """What a region's followers at resolution mean for the ending and the
    summon, as a small int: its control, and its control once one Scots /
    Welsh / Romano-British follower is summoned from it (-1 when there is none
    of that colour); read with CONTROL_OF and AFTER_SUMMON."""
    return _signature_code(
        region_winner(counts),
        tuple(region_winner(summoned_from(counts, f)) if counts[f - 1] else -1 for f in FACTIONS),
    )


def inert(
    counts: Counts,
    colour: int,
    later: tuple[int, ...],
    signature_of: Callable[[Counts], Signature] = signature,
) -> bool:
    """Whether one more follower of ``colour`` leaves this region's signature
    unchanged whatever part of the ``later`` placements also lands here
    (``signature_of``: ``signature``, or a memoized one)."""
    for size in range(len(later) + 1):
        for extra in set(combinations(later, size)):
            before = counts
            for f in extra:
                before = placed(before, f)
            if signature_of(placed(before, colour)) != signature_of(before):
                return False
    return True


def leaf_wins(ctx: Context, signatures: tuple[Signature, ...], court: Court, summon: bool) -> bool:
    """After the effect, given the remaining regions' signatures in resolution
    order: whether some summon (``summon``: one is possible), or else the
    ending as it stands, makes the seat win."""
    if not summon:
        return ending_wins(ctx, tuple([CONTROL_OF[sig] for sig in signatures]), court)
    token = (signatures, court)
    known = ctx.summons.get(token)
    if known is None:
        known = ctx.summons[token] = _some_summon_wins(ctx, signatures, court)
    return known


def _some_summon_wins(ctx: Context, signatures: tuple[Signature, ...], court: Court) -> bool:
    """A summon changes at most one control; those leaving every control as it
    is are tried once per colour."""
    base = tuple([CONTROL_OF[sig] for sig in signatures])
    courts = ctx.courts_after[court]
    keeps = 0
    for sig in signatures:
        keeps |= _KEEPS[sig]
    for faction in (1, 2, 3):
        if keeps & (1 << faction) and ending_wins(ctx, base, courts[faction - 1]):
            return True
    for i, sig in enumerate(signatures):
        for faction, control in _CHANGES[sig]:
            if ending_wins(ctx, (*base[:i], control, *base[i + 1 :]), courts[faction - 1]):
                return True
    return False


class Leaves:
    """Positions after the effect (the summon to come) that differ from one
    position, ``signatures``, in one or two regions. While those regions keep
    their control, a summon elsewhere, or one keeping every control, ends as
    it would from that position: what those achieve is worked out once for all
    of them."""

    __slots__ = ("base", "court", "courts", "ctx", "keeping", "signatures", "winning")

    def __init__(self, ctx: Context, signatures: list[Signature], court: Court) -> None:
        self.ctx = ctx
        self.signatures = signatures
        self.court = court
        self.base = tuple([CONTROL_OF[sig] for sig in signatures])
        self.courts = ctx.courts_after[court]
        self.winning: list[int] | None = None
        """The regions (positions in resolution order) where a summon changing
        their control wins; None until needed."""
        self.keeping: list[tuple[int, int]] = []
        """(faction bit, regions whose summon of it keeps their control) of
        each faction whose summon keeping every control wins."""

    def _prepare(self) -> list[int]:
        ctx = self.ctx
        base = self.base
        courts = self.courts
        winning = []
        for i, sig in enumerate(self.signatures):
            for faction, control in _CHANGES[sig]:
                if ending_wins(ctx, (*base[:i], control, *base[i + 1 :]), courts[faction - 1]):
                    winning.append(i)
                    break
        for faction in (1, 2, 3):
            bit = 1 << faction
            if ending_wins(ctx, base, courts[faction - 1]):
                self.keeping.append((bit, sum(1 for sig in self.signatures if _KEEPS[sig] & bit)))
        self.winning = winning
        return winning

    def wins(self, changes: list[tuple[int, Signature]]) -> bool:
        """Whether some summon wins from the position with these (position in
        resolution order, new signature) changes."""
        ctx = self.ctx
        base = self.base
        for i, sig in changes:
            if CONTROL_OF[sig] != base[i]:
                new = list(self.signatures)
                for j, changed in changes:
                    new[j] = changed
                return leaf_wins(ctx, tuple(new), self.court, True)
        winning = self.winning
        if winning is None:
            winning = self._prepare()
        if winning:
            if len(winning) > len(changes):
                return True
            positions = [i for i, _ in changes]
            if any(i not in positions for i in winning):
                return True
        signatures = self.signatures
        for bit, keeping in self.keeping:
            left = keeping
            for i, sig in changes:
                left += bool(_KEEPS[sig] & bit) - bool(_KEEPS[signatures[i]] & bit)
            if left:
                return True
        courts = self.courts
        for i, sig in changes:
            for faction, control in _CHANGES[sig]:
                if ending_wins(ctx, (*base[:i], control, *base[i + 1 :]), courts[faction - 1]):
                    return True
        return False


def summon_wins(
    ctx: Context, signatures: Sequence[Signature], position: int, faction: int, court: Court
) -> bool:
    """Whether summoning a follower of ``faction`` from the region at
    ``position`` in resolution order makes the seat win."""
    controls = [CONTROL_OF[sig] for sig in signatures]
    controls[position] = AFTER_SUMMON[signatures[position]][faction]
    return ending_wins(ctx, tuple(controls), ctx.courts_after[court][faction - 1])


def outcome(ctx: Context, sequence: tuple[int, ...]) -> Outcome:
    """Resolve the remaining regions with these controls, in order, until the
    game ends (rules.game_end, as struggle.resolve_struggle checks it): how it
    ends (the ranking as endings.rank_factions: most regions, then the most
    recent win)."""
    count, termination = game_end(sequence, ctx.saxons, ctx.resolved)
    if termination == INVASION:
        return (INVASION, 0, 0)
    regions = list(ctx.regions)
    latest = list(ctx.latest)
    order = ctx.resolved
    for control in sequence if count == len(sequence) else sequence[:count]:
        order += 1
        if control in FACTIONS:
            regions[control] += 1
            latest[control] = order
    ranks = rank_factions(regions, latest)
    return (
        # The sequence is every region left: resolved, the game ends by control
        # (game_end says so at the eighth).
        termination or CONTROL,
        ranks[0][2] if ranks else 0,
        ranks[1][2] if len(ranks) > 1 else 0,
    )


def ending_wins(ctx: Context, sequence: tuple[int, ...], court: Court) -> bool:
    """Whether the seat, with this court, wins once the remaining regions
    resolve with these controls (in resolution order)."""
    found = ctx.outcomes.get(sequence)
    if found is None:
        found = ctx.outcomes[sequence] = outcome(ctx, sequence)
    token = (found, court)
    known = ctx.wins.get(token)
    if known is None:
        courts = list(ctx.courts)
        courts[ctx.seat] = court
        termination, first, second = found
        known = ctx.wins[token] = ranked_seat_wins(
            ctx.seat,
            termination,
            first=first,
            second=second,
            courts=courts,
            last_played=ctx.last_played,
        )
    return known
