"""The King Is Dead: the board as text, for a terminal (see the package's __init__)."""

from __future__ import annotations

from throneroom.games.king_is_dead import card_name, faction_name, region_name
from throneroom.games.king_is_dead.notation.moves import (
    CARDS,
    COLOURS,
    COUNT_FIELDS,
    REGIONS,
    format_move,
)
from throneroom.notation.base import Viewer, outcome_line, viewer_name
from throneroom.v1 import king_is_dead_pb2 as pb
from throneroom.v1.king_is_dead_pb2 import Followers, KingIsDeadView

# -- the board ------------------------------------------------------------------------------

_DECISION_HELP = {
    pb.KingIsDeadPending.DECISION_TURN: "play a card or pass (play <card> | pass)",
    pb.KingIsDeadPending.DECISION_CROWN: "swap two region cards, crowning one (crown <a>* <b>)",
    pb.KingIsDeadPending.DECISION_GARRISON: (
        "move up to two followers to a bordering region, one may come back "
        "(garrison <from>><to> <colours>[/<colour>])"
    ),
    pb.KingIsDeadPending.DECISION_AMBASSADOR: (
        "exchange one follower of a region with one of another (ambassador <c>@<a> <c>@<b>)"
    ),
    pb.KingIsDeadPending.DECISION_SETTLE: "put a {colour} follower in a region (settle <region>)",
    pb.KingIsDeadPending.DECISION_PLACE: (
        "put a {colour} follower in a region, {remaining} to place (place <region>)"
    ),
    pb.KingIsDeadPending.DECISION_SUMMON: "summon a follower to court (summon <c>@<region>)",
}


def _counts_cells(followers: Followers | pb.RegionState, black: bool) -> str:
    fields = COUNT_FIELDS if black else COUNT_FIELDS[:3]
    return "  ".join(
        f"{COLOURS.word(i + 1)}{getattr(followers, f):>2}" for i, f in enumerate(fields)
    )


def _card_label(card: int) -> str:
    """``Romano-British [romano_british]``: the name, and the word to type when it differs."""
    name, word = card_name(card), CARDS.word(card)
    return name if name.lower() == word else f"{name} [{word}]"


def control_name(control: int) -> str:
    """Who holds a resolved region: a faction, or the Saxons."""
    return "Saxons" if control == pb.REGION_CONTROL_SAXONS else faction_name(control)


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def render_view(view: KingIsDeadView, viewer: Viewer) -> str:
    black = view.mordred
    title = f"The King Is Dead, {view.num_seats} seats{' (Mordred)' if black else ''}"
    lines = [f"{title}, as {viewer_name(viewer)}", "", "Region cards (struggles in order):"]
    regions = {r.region: r for r in view.regions}
    for position, card in enumerate(view.region_cards, start=1):
        region = regions.get(card.region, pb.RegionState(region=card.region))
        name = f"{region_name(card.region)} [{REGIONS.word(card.region)}]"
        if region.control:
            what = f"resolved {_ordinal(region.resolved_order)}: {control_name(region.control)}"
        else:
            what = _counts_cells(region, black)
        marks = []
        if card.HasField("crowned_by"):
            marks.append(f"crown of seat {card.crowned_by}")
        if card.region == view.current_struggle:
            marks.append("<- power struggle")
        lines.append(f"  {position}. {name:<20} {what}  {'  '.join(marks)}".rstrip())
    lines.append("")
    supply = "  ".join(
        f"{faction_name(i + 1)} {getattr(view.supply, f)}" for i, f in enumerate(COUNT_FIELDS[:3])
    )
    lines.append(f"Supply: {supply}" + (f"  Loyalist pool {view.loyalist_pool}" if black else ""))
    lines.append("Seats:")
    for seat in view.seats:
        you = " (you)" if seat.seat == viewer else ""
        team = f" team {seat.team}" if view.num_seats == 4 else ""
        top = f", top {card_name(seat.top_card)}" if seat.top_card else ""
        crown = ", crown token" if seat.has_crown_token else ""
        lines.append(
            f"  seat {seat.seat}{you}{team}: court {_counts_cells(seat.court, False)}  "
            f"{seat.cards_left} cards, {seat.played_count} played{top}{crown}"
        )
    if view.viewer is not None and view.HasField("viewer"):
        hand = ", ".join(_card_label(c) for c in view.my_hand) or "empty"
        lines.append(f"Your hand: {hand}")
    if view.HasField("last_exchange") and view.last_exchange.HasField("exchange"):
        last = view.last_exchange
        lines.append(
            f"Undo rule: seat {last.seat}'s {format_move(last.exchange)} may not be mirrored"
        )
    if view.last_card_rule:
        lines.append("Last card rule: the last card may only be played to win")
    if view.HasField("outcome"):
        lines.append(outcome_line(view.outcome))
    elif view.HasField("to_move"):
        pending = view.pending
        played = f"{card_name(pending.card)}: " if pending.card else ""
        colour = faction_name(pending.colour) if pending.colour else "?"
        task = _DECISION_HELP.get(pending.decision, "decide")
        task = task.format(colour=colour, remaining=pending.remaining)
        passes = f"; {view.consecutive_passes} passes in a row" if view.consecutive_passes else ""
        lines.append(f"To act: seat {view.to_move}: {played}{task}{passes}")
    return "\n".join(lines)
