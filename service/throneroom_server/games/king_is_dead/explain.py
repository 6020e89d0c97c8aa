"""Why a well-formed move is illegal: one English sentence naming the problem
and the position (only called once a move has been found illegal)."""

from __future__ import annotations

from types import MappingProxyType

from throneroom.v1 import king_is_dead_pb2 as pb

from throneroom_server.games.king_is_dead.board import (
    CARD_NAMES,
    COLOUR_NAMES,
    DECIDE_AMBASSADOR,
    DECIDE_CROWN,
    DECIDE_GARRISON,
    DECIDE_PLACE,
    DECIDE_SETTLE,
    DECIDE_SUMMON,
    FACTION_NAMES,
    LOYALISTS,
    NEIGHBOURS,
    REGION_NAMES,
    TURN,
    region_list,
)
from throneroom_server.games.king_is_dead.cards import (
    K_AMBASSADOR,
    K_CROWN,
    K_GARRISON,
    K_PASS,
    K_PLACE,
    K_PLAY,
    K_SETTLE,
    K_SUMMON,
    Key,
    exchange_keys,
    exchange_moved,
    place_targets,
)
from throneroom_server.games.king_is_dead.struggle import (
    forbidden_mirror,
    read_board,
    read_controls,
)

_KIND_WORDS = MappingProxyType(
    {
        K_PASS: "a pass",
        K_PLAY: "a card play",
        K_CROWN: "a Crown swap",
        K_GARRISON: "a Garrison exchange",
        K_AMBASSADOR: "an Ambassador exchange",
        K_SETTLE: "a Settlers placement",
        K_PLACE: "a faction card placement",
        K_SUMMON: "a summon",
    }
)
_EXPECTED = MappingProxyType(
    {
        TURN: (K_PASS, K_PLAY),
        DECIDE_CROWN: (K_CROWN,),
        DECIDE_GARRISON: (K_GARRISON,),
        DECIDE_AMBASSADOR: (K_AMBASSADOR,),
        DECIDE_SETTLE: (K_SETTLE,),
        DECIDE_PLACE: (K_PLACE,),
        DECIDE_SUMMON: (K_SUMMON,),
    }
)


def _decision_words(state: pb.KingIsDeadState) -> str:
    p = state.pending
    d = p.decision
    if d == TURN:
        return "play an action card or pass"
    if d == DECIDE_CROWN:
        return "choose the Crown's swap"
    if d == DECIDE_GARRISON:
        return "choose the Garrison's exchange"
    if d == DECIDE_AMBASSADOR:
        return "choose the Ambassador's exchange"
    if d == DECIDE_SETTLE:
        return f"place the Settlers' {FACTION_NAMES[p.colour]} follower"
    if d == DECIDE_PLACE:
        return f"place a {FACTION_NAMES[p.colour]} follower"
    return "summon a follower to court"


def explain_illegal(state: pb.KingIsDeadState, seat: int, key: Key, restricted: bool) -> str:
    """The reason ``key`` is not legal for ``seat`` (who is to act) now."""
    kind = key[0]
    if kind not in _EXPECTED.get(state.pending.decision, ()):
        return f"Seat {seat} must {_decision_words(state)} now, not make {_KIND_WORDS[kind]}."
    board = read_board(state)
    if kind == K_PLAY:
        card = key[1]
        hand: list[int] = list(state.seats[seat].hand)
        if card not in hand:
            held = ", ".join(CARD_NAMES[c] for c in hand)
            return f"Seat {seat} holds no {CARD_NAMES[card]} card (it holds {held})."
        return (
            f"{CARD_NAMES[card]} is the last action card of this 3-player game: it may only be "
            "played to win the game at once, and no way of playing it wins now."
        )
    card_name = CARD_NAMES.get(state.pending.card, "Summon")
    if kind == K_CROWN:
        _, a, b, _crowned = key
        for c in state.region_cards:
            if c.region in (a, b):
                name = REGION_NAMES[c.region]
                if not c.face_up:
                    return f"Crown: the {name} card is face down (its power struggle is resolved)."
                if c.HasField("crowned_by"):
                    return f"Crown: the {name} card carries a crown token and cannot be swapped."
    elif kind in (K_GARRISON, K_AMBASSADOR):
        reason = _exchange_problem(state, seat, key, board)
        if reason:
            return f"{card_name}: {reason}."
    elif kind in (K_SETTLE, K_PLACE):
        region = key[1]
        name = REGION_NAMES[region]
        if board[region - 1] is None:
            return f"{card_name}: {name} is already resolved; no follower may be placed there."
        if kind == K_PLACE:
            colour = state.pending.colour
            targets = place_targets(read_controls(state), colour)
            return (
                f"{card_name}: {name} does not border a region the {FACTION_NAMES[colour]} "
                f"control (allowed: {region_list(targets)})."
            )
    elif kind == K_SUMMON:
        _, region, faction = key
        name = REGION_NAMES[region]
        if faction == LOYALISTS:
            return "Summon: Loyalist followers can never be summoned to court."
        counts = board[region - 1]
        if counts is None:
            return f"Summon: {name} is already resolved and empty."
        if not counts[faction - 1]:
            return f"Summon: {name} has no {FACTION_NAMES[faction]} follower."
    if restricted:
        return (
            f"{card_name}: this is the last action card of a 3-player game, and this choice "
            "leaves no way to win the game at once."
        )
    return f"{card_name}: {_KIND_WORDS[kind]} that is not legal now."


def _exchange_problem(
    state: pb.KingIsDeadState, seat: int, key: Key, board: list[tuple[int, int, int, int] | None]
) -> str:
    a, b = key[1], key[2]
    name_a, name_b = REGION_NAMES[a], REGION_NAMES[b]
    for region in (a, b):
        if board[region - 1] is None:
            return f"{REGION_NAMES[region]} is already resolved"
    ca = board[a - 1]
    cb = board[b - 1]
    assert ca is not None and cb is not None
    if key[0] == K_GARRISON:
        if b not in NEIGHBOURS[a]:
            return f"{name_a} does not border {name_b}"
        _, _, _, o1, o2, back = key
        going = [o1, o2] if o2 else [o1]
        for colour in set(going):
            if going.count(colour) > ca[colour - 1]:
                return (
                    f"{name_a} has {ca[colour - 1]} {COLOUR_NAMES[colour]} follower(s), "
                    f"not {going.count(colour)} to send to {name_b}"
                )
        if back and not cb[back - 1]:
            return f"{name_b} has no {COLOUR_NAMES[back]} follower to send back to {name_a}"
    else:
        _, _, _, fa, fb = key
        if fa and not ca[fa - 1]:
            return f"{name_a} has no {COLOUR_NAMES[fa]} follower"
        if fb and not cb[fb - 1]:
            return f"{name_b} has no {COLOUR_NAMES[fb]} follower"
    forbidden = forbidden_mirror(state, seat)
    if key == forbidden:
        last = state.last_exchange.seat
        return (
            f"this would at once undo seat {last}'s exchange between {name_a} and {name_b} "
            "(the undo rule)"
        )
    moved = exchange_moved(key)
    legal = exchange_keys(key[0], board, forbidden)
    best = max((exchange_moved(k) for k in legal), default=0)
    if moved < best:
        return (
            f"an exchange moving {best} followers is possible, so one moving {moved} is not "
            "allowed (actions are carried out as far as possible)"
        )
    return ""
