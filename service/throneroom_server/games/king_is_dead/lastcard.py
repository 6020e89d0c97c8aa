"""The 3-player last-card rule: "the last Action Card of the game may only be
played if the player holding it can use it to win the game immediately".

Reading (RULES-NOTES, the lead's notes): the 24th card may be played only if
some complete execution (the effect's decisions, then the summon) leads, with
passes alone, to that player winning; once it is played, each decision only
offers the choices that keep such a winning completion.

After the last card every hand is empty, so the rest of the game is forced:
the remaining power struggles resolve in region-card order (with the Mordred
banner and the end checks). The search below walks every execution on plain
data (a ``Sim``) and plays that forced ending out. It uses the same legal
executions as the engine (cards.py) and the same endings (endings.py); tests
replay winning completions through the engine to keep the two in step.
Results are cached by state, since legal_moves() and apply() ask the same
question about the same state.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from functools import lru_cache

from throneroom.v1 import king_is_dead_pb2 as pb

from throneroom_server.games.king_is_dead.board import (
    AMBASSADOR,
    BANNER,
    CONTROL_LOYALISTS,
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
    SAXON_TOKENS_FOR_INVASION,
    SAXONS,
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
from throneroom_server.games.king_is_dead.endings import (
    CONTROL,
    INVASION,
    LOYALIST,
    seat_wins,
)
from throneroom_server.games.king_is_dead.struggle import (
    forbidden_mirror,
    read_board,
    read_cards,
    read_controls,
    read_courts,
    read_orders,
    read_supply,
    region_winner,
)

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


class Sim:
    """The parts of a state that the rest of a last-card turn can change or read
    (plain data; ``copy`` before changing)."""

    __slots__ = (
        "board",
        "cards",
        "colour",
        "controls",
        "courts",
        "decision",
        "forbidden",
        "last_played",
        "mordred",
        "orders",
        "pool",
        "remaining",
        "seat",
        "supply",
    )

    def __init__(self, state: State, seat: int) -> None:
        pending = state.pending
        self.seat = seat
        self.board: Board = read_board(state)
        self.controls = read_controls(state)
        self.orders = read_orders(state)
        self.cards: list[RegionCardInfo] = read_cards(state)
        self.courts = read_courts(state)
        self.supply: list[int] = list(read_supply(state))
        self.pool = state.loyalist_pool
        self.last_played = [s.last_played for s in state.seats]
        self.mordred = state.mordred
        self.decision: int = pending.decision
        self.colour: int = pending.colour
        self.remaining = pending.remaining
        self.forbidden = (
            forbidden_mirror(state, seat) if pending.card in (GARRISON, AMBASSADOR) else None
        )

    def copy(self) -> Sim:
        new = Sim.__new__(Sim)
        new.seat = self.seat
        new.board = list(self.board)
        new.controls = self.controls
        new.orders = self.orders
        new.cards = self.cards
        new.courts = self.courts
        new.supply = self.supply
        new.pool = self.pool
        new.last_played = self.last_played
        new.mordred = self.mordred
        new.decision = self.decision
        new.colour = self.colour
        new.remaining = self.remaining
        new.forbidden = self.forbidden
        return new

    def memo_key(self) -> tuple[object, ...]:
        return (
            self.decision,
            self.colour,
            self.remaining,
            tuple(self.board),
            tuple(self.cards),
            self.courts[self.seat],
        )

    def add(self, region: int, colour: int, n: int) -> None:
        counts = self.board[region - 1]
        assert counts is not None
        c = list(counts)
        c[colour - 1] += n
        self.board[region - 1] = (c[0], c[1], c[2], c[3])

    def end_effect(self) -> None:
        """After the effect: the summon, or the end of the turn."""
        self.decision = DECIDE_SUMMON if can_summon(self.board) else NONE
        self.colour = 0
        self.remaining = 0


def _options(sim: Sim) -> list[Key]:
    board = sim.board
    d = sim.decision
    if d == DECIDE_SUMMON:
        return summon_keys(board)
    if d == DECIDE_SETTLE:
        return settle_keys(board)
    if d == DECIDE_PLACE:
        return [(K_PLACE, r) for r in place_targets(board, sim.controls, sim.colour)]
    if d == DECIDE_GARRISON:
        return exchange_keys(K_GARRISON, board, sim.forbidden)
    if d == DECIDE_AMBASSADOR:
        return exchange_keys(K_AMBASSADOR, board, sim.forbidden)
    if d == DECIDE_CROWN:
        return crown_keys(sim.cards)
    raise AssertionError(f"no options at decision {d}")


def _step(sim: Sim, key: Key) -> Sim:
    """The sim after one decision (mirrors effects.carry_out)."""
    new = sim.copy()
    kind = key[0]
    if kind == K_SUMMON:
        _, region, faction = key
        new.add(region, faction, -1)
        court = list(sim.courts[sim.seat])
        court[faction - 1] += 1
        new.courts = list(sim.courts)
        new.courts[sim.seat] = (court[0], court[1], court[2])
        new.decision = NONE
    elif kind in (K_SETTLE, K_PLACE):
        colour = sim.colour
        new.add(key[1], colour, 1)
        new.supply = list(sim.supply)
        new.supply[colour - 1] -= 1
        if kind == K_SETTLE:
            following = next_settle_colour(new.supply, colour)
            if following:
                new.colour = following
            else:
                new.end_effect()
        elif sim.remaining > 1:
            new.remaining = sim.remaining - 1
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
        _, a, b, crowned = key
        cards: list[RegionCardInfo] = []
        for region, face_up, is_crowned in sim.cards:
            if region == a:
                cards.append((b, face_up, crowned == b))
            elif region == b:
                cards.append((a, face_up, crowned == a))
            else:
                cards.append((region, face_up, is_crowned))
        new.cards = cards
        new.end_effect()
    else:
        raise AssertionError(f"not an effect key: {key!r}")
    return new


def _resolution_plan(sim: Sim) -> list[tuple[int, Counts]]:
    """The remaining regions in resolution (card) order, each with the followers
    it will hold when resolved: its followers now plus the Mordred banner's
    Loyalists from regions resolved before it (mirrors
    struggle.resolve_struggle). The banner never depends on who wins, and a
    summon (never black) does not change it."""
    board = list(sim.board)
    pool = sim.pool
    plan: list[tuple[int, Counts]] = []
    for region, face_up, _ in sim.cards:
        if not face_up:
            continue
        counts = board[region - 1]
        assert counts is not None
        plan.append((region, counts))
        pool += counts[3]
        board[region - 1] = None
        if sim.mordred:
            target = BANNER[region]
            target_counts = board[target - 1]
            if target_counts is not None and pool > 0:
                s, w, r, loyal = target_counts
                board[target - 1] = (s, w, r, loyal + 1)
                pool -= 1
    return plan


Memo = dict[tuple[object, ...], bool]


def _ending_wins(
    sim: Sim,
    regions: tuple[int, ...],
    controls_in_order: list[int],
    courts: list[tuple[int, int, int]],
    memo: Memo,
) -> bool:
    """Resolve the remaining regions with these controls, in order, stopping at
    an invasion or a Loyalist win; does ``sim.seat`` win? (Within one search
    only these and the seat's court vary.)"""
    token = ("end", regions, tuple(controls_in_order), courts[sim.seat])
    known = memo.get(token)
    if known is not None:
        return known
    controls = list(sim.controls)
    orders = list(sim.orders)
    order = max(orders)
    saxons = controls.count(SAXONS)
    termination = CONTROL
    for region, control in zip(regions, controls_in_order, strict=True):
        order += 1
        controls[region - 1] = control
        orders[region - 1] = order
        if control == SAXONS:
            saxons += 1
            if saxons >= SAXON_TOKENS_FOR_INVASION:
                termination = INVASION
                break
        elif control == CONTROL_LOYALISTS:
            termination = LOYALIST
            break
    known = seat_wins(
        sim.seat,
        termination,
        controls=controls,
        orders=orders,
        courts=courts,
        last_played=sim.last_played,
    )
    memo[token] = known
    return known


@lru_cache(maxsize=8192)
def _summon_signature(counts: Counts) -> tuple[int, int, int, int]:
    """What a region's followers at resolution mean for the summon: its
    control, and its control with one Scots / Welsh / Romano-British follower
    fewer (-1 when there is none of that colour to summon)."""
    s, w, r, loyal = counts
    return (
        region_winner(counts),
        region_winner((s - 1, w, r, loyal)) if s else -1,
        region_winner((s, w - 1, r, loyal)) if w else -1,
        region_winner((s, w, r - 1, loyal)) if r else -1,
    )


def _summon_wins(sim: Sim, memo: Memo) -> bool:
    """Whether some summon (or none, if none is possible) then the forced end
    makes the seat win. Only each region's control, with and without one
    follower of each colour, matters: boards alike in that are decided once,
    and summons leaving every control unchanged are tried once per colour."""
    plan = _resolution_plan(sim)
    regions = tuple(region for region, _ in plan)
    if sim.decision == NONE:  # the turn is over (summoned, or nothing to summon)
        return _ending_wins(sim, regions, [region_winner(c) for _, c in plan], sim.courts, memo)
    signatures = tuple(_summon_signature(counts) for _, counts in plan)
    court = sim.courts[sim.seat]
    token = ("summon", regions, signatures, court)
    known = memo.get(token)
    if known is not None:
        return known
    base = [sig[0] for sig in signatures]
    tried: set[tuple[int, int, int]] = set()
    known = False
    for i, sig in enumerate(signatures):
        for faction in (1, 2, 3):
            control = sig[faction]
            if control < 0:
                continue
            changed = control != base[i]
            attempt = (faction, i, control) if changed else (faction, -1, 0)
            if attempt in tried:
                continue
            tried.add(attempt)
            controls = base
            if changed:
                controls = list(base)
                controls[i] = control
            summoned = list(court)
            summoned[faction - 1] += 1
            courts = list(sim.courts)
            courts[sim.seat] = (summoned[0], summoned[1], summoned[2])
            if _ending_wins(sim, regions, controls, courts, memo):
                known = True
                break
        if known:
            break
    memo[token] = known
    return known


def _wins(sim: Sim, memo: Memo) -> bool:
    """Whether some completion of the turn from here makes the seat win."""
    if sim.decision in (NONE, DECIDE_SUMMON):
        return _summon_wins(sim, memo)
    token = sim.memo_key()
    known = memo.get(token)
    if known is None:
        known = any(_wins(_step(sim, key), memo) for key in _options(sim))
        memo[token] = known
    return known


def _play_wins(state: State, seat: int, card: int) -> bool:
    sim = Sim(state, seat)
    sim.last_played[seat] = state.cards_played + 1
    forbidden = forbidden_mirror(state, seat) if card in (GARRISON, AMBASSADOR) else None
    first = first_decision(
        card,
        sim.board,
        cards=sim.cards,
        supply=sim.supply,
        controls=sim.controls,
        forbidden=forbidden,
    )
    if first is None:
        sim.end_effect()
    else:
        sim.decision, sim.colour, sim.remaining = first
        sim.forbidden = forbidden
    return _wins(sim, _memo_for(sim))


_MEMO: list[tuple[tuple[object, ...], Memo]] = []


def _memo_for(sim: Sim) -> Memo:
    """The search memo of one last-card turn. Node keys (Sim.memo_key and the
    summon/ending tokens) hold only what changes during the turn; the rest is
    this context, so the memo serves the play's search and every decision of
    the card that follows (the latest turn's memo is kept)."""
    seat = sim.seat
    context = (
        seat,
        tuple(sim.controls),
        tuple(sim.orders),
        sim.pool,
        tuple(sim.last_played),
        tuple(c for s, c in enumerate(sim.courts) if s != seat),
        sim.mordred,
        sim.forbidden,
    )
    entry = _MEMO[0] if _MEMO else None
    if entry is None or entry[0] != context:
        entry = (context, {})
        _MEMO[:] = [entry]
    return entry[1]


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
        sim = Sim(state, seat)
        memo = _memo_for(sim)
        return [k for k in keys if _wins(_step(sim, k), memo)]

    return _cached(state, seat, keys, compute)
