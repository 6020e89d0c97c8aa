"""The King Is Dead: the position notation (see the package's __init__ and docs/notation.md)."""

from __future__ import annotations

import re

from throneroom.games.king_is_dead.notation.moves import (
    CARD_LETTERS,
    COLOURS,
    CONTROLS,
    COUNT_FIELDS,
    DECISIONS,
    REGIONS,
    format_move,
    parse_move,
)
from throneroom.notation.base import (
    Fields,
    FieldWriter,
    NotationError,
    Value,
    format_rng,
    parse_rng,
    read_outcome,
    seat_keys,
    write_outcome,
)
from throneroom.v1 import king_is_dead_pb2 as pb
from throneroom.v1.king_is_dead_pb2 import Followers, KingIsDeadState

# -- positions ------------------------------------------------------------------------------


def counts_text(followers: Followers | pb.RegionState) -> str:
    """``2s1w``: counts in colour order, zeros left out; ``-`` for none."""
    text = "".join(
        f"{n}{COLOURS.word(i + 1)}"
        for i, field in enumerate(COUNT_FIELDS)
        if (n := getattr(followers, field))
    )
    return text or "-"


_COUNT = re.compile(r"(\d*)([a-z])")


def read_counts(value: Value, text: str, offset: int, into: Followers | pb.RegionState) -> None:
    if text == "-":
        return
    pos = 0
    seen: set[int] = set()
    while pos < len(text):
        match = _COUNT.match(text, pos)
        if not match:
            raise value.error(f"counts like 2s1w expected, not {text!r}", offset + pos)
        colour = value.name(COLOURS, match[2], offset + match.start(2))
        if colour in seen:
            raise value.error(f"colour {match[2]!r} counted twice", offset + match.start(2))
        seen.add(colour)
        setattr(into, COUNT_FIELDS[colour - 1], int(match[1]) if match[1] else 1)
        pos = match.end()


def _hand_text(cards: list[int]) -> str:
    return "".join(CARD_LETTERS.word(c) for c in cards) or "-"


def _read_hand(value: Value, text: str, offset: int) -> list[int]:
    if text == "-":
        return []
    return [value.name(CARD_LETTERS, ch, offset + i) for i, ch in enumerate(text)]


def format_position(state: KingIsDeadState) -> str:
    out = FieldWriter()
    out.put("seats", str(state.num_seats))
    if state.mordred:
        out.put("mordred", "yes")
    entries = []
    for index, region in enumerate(state.regions):
        if region.region != index + 1:
            raise NotationError(f"regions[{index}] is region {region.region}, not {index + 1}")
        entry = counts_text(region)
        if region.control or region.resolved_order:
            # A resolved region is empty: "=s1" rather than "-=s1".
            entry = entry.removeprefix("-") + f"={CONTROLS.word(region.control)}"
            entry += str(region.resolved_order)
        entries.append(entry)
    if entries:
        out.put("map", "/".join(entries))
    cards = []
    for card in state.region_cards:
        entry = REGIONS.word(card.region) + ("" if card.face_up else "-")
        if card.HasField("crowned_by"):
            entry += f"*{card.crowned_by}"
        cards.append(entry)
    if cards:
        out.put("cards", "/".join(cards))
    if len(state.seats) != state.num_seats:
        raise NotationError(f"{len(state.seats)} seat records for {state.num_seats} seats")
    for i, seat in enumerate(state.seats):
        court = counts_text(seat.court) if seat.HasField("court") else ""
        token = "c" if seat.has_crown_token else "-"
        parts = [_hand_text(list(seat.hand)), _hand_text(list(seat.played)), court]
        out.put(f"p{i}", "/".join([*parts, str(seat.last_played), token]))
    if state.HasField("supply"):
        out.put("supply", counts_text(state.supply))
    if state.HasField("removed"):
        out.put("removed", counts_text(state.removed))
    if state.loyalist_pool:
        out.put("pool", str(state.loyalist_pool))
    out.put("turn", str(state.to_move))
    if state.HasField("pending"):
        p = state.pending
        parts = [
            DECISIONS.word(p.decision),
            CARD_LETTERS.word(p.card) if p.card else "-",
            COLOURS.word(p.colour) if p.colour else "-",
            str(p.remaining),
        ]
        while len(parts) > 1 and parts[-1] in ("-", "0"):
            parts.pop()
        out.put("pending", ":".join(parts))
    if state.consecutive_passes:
        out.put("passes", str(state.consecutive_passes))
    if state.cards_played:
        out.put("played", str(state.cards_played))
    if state.HasField("last_exchange"):
        last = state.last_exchange
        exchange = f" {format_move(last.exchange)}" if last.HasField("exchange") else ""
        out.put("undo", f"{last.seat}{exchange}")
    if state.court_redraws:
        out.put("redraws", str(state.court_redraws))
    if state.HasField("rng"):
        out.put("rng", format_rng(state.rng))
    write_outcome(out, state.HasField("outcome"), state.outcome)
    return out.text()


def _read_map(value: Value, state: KingIsDeadState) -> None:
    parts = value.parts("/")
    if len(parts) > len(REGIONS.canonical):
        raise value.error(f"{len(parts)} regions: there are {len(REGIONS.canonical)}")
    for index, (text, offset) in enumerate(parts):
        region = state.regions.add(region=index + 1)
        followers, eq, control = text.partition("=")
        read_counts(value, followers, offset, region)
        if eq:
            if not control:
                raise value.error(
                    "a control letter and order expected after =", offset + len(followers) + 1
                )
            at = offset + len(followers) + 1
            region.control = value.name(CONTROLS, control[0], at)  # type: ignore[assignment]
            region.resolved_order = value.int_part(control[1:], at + 1, lo=0)


_CARD = re.compile(r"([a-z_]+)(-?)(?:\*(\d+))?")


def _read_cards(value: Value, state: KingIsDeadState) -> None:
    for text, offset in value.parts("/"):
        match = _CARD.fullmatch(text)
        if not match:
            raise value.error(
                f"a region card like cal, cal- or cal*0 expected, not {text!r}", offset
            )
        card = state.region_cards.add(region=value.name(REGIONS, match[1], offset))
        card.face_up = not match[2]
        if match[3] is not None:
            card.crowned_by = int(match[3])


def _read_seat(value: Value, seat: pb.KingIsDeadSeat) -> None:
    parts = value.parts("/")
    if len(parts) != 5:
        raise value.error("hand/played/court/last play/crown token expected (5 parts)")
    (hand, o1), (played, o2), (court, o3), (last, o4), (token, o5) = parts
    seat.hand.extend(_read_hand(value, hand, o1))  # type: ignore[arg-type]
    seat.played.extend(_read_hand(value, played, o2))  # type: ignore[arg-type]
    if court:
        seat.court.SetInParent()
        read_counts(value, court, o3, seat.court)
    seat.last_played = value.int_part(last, o4, lo=0)
    if token not in ("c", "-"):
        raise value.error(f"c (crown token held) or - expected, not {token!r}", o5)
    seat.has_crown_token = token == "c"


def _read_pending(value: Value, pending: pb.KingIsDeadPending) -> None:
    parts = value.parts(":")
    if len(parts) > 4:
        raise value.error("decision[:card[:colour[:remaining]]] expected")
    pending.SetInParent()
    (text, offset), *rest = parts
    pending.decision = value.name(DECISIONS, text, offset)  # type: ignore[assignment]
    if len(rest) > 0 and rest[0][0] != "-":
        pending.card = value.name(CARD_LETTERS, *rest[0])  # type: ignore[assignment]
    if len(rest) > 1 and rest[1][0] != "-":
        pending.colour = value.name(COLOURS, *rest[1])  # type: ignore[assignment]
    if len(rest) > 2:
        pending.remaining = value.int_part(*rest[2], lo=0)


def _read_undo(value: Value, state: KingIsDeadState) -> None:
    seat_text, _, move_text = value.text.partition(" ")
    last = state.last_exchange
    last.SetInParent()
    last.seat = value.int_part(seat_text, 0, lo=0)
    if move_text.strip():
        try:
            last.exchange.CopyFrom(parse_move(move_text))
        except NotationError as err:
            raise value.error(f"{err.reason} (in the move)", len(seat_text) + err.column) from None


def parse_position(text: str) -> KingIsDeadState:
    fields = Fields(text)
    state = KingIsDeadState()
    state.num_seats = fields.require("seats").integer(lo=0, hi=64)
    if (value := fields.take("mordred")) is not None:
        state.mordred = value.boolean()
    if (value := fields.take("map")) is not None:
        _read_map(value, state)
    if (value := fields.take("cards")) is not None:
        _read_cards(value, state)
    seats = [pb.KingIsDeadSeat() for _ in range(state.num_seats)]
    given = set()
    for seat, sub, value in seat_keys(fields, "p", state.num_seats):
        if sub:
            raise value.error(f"unknown seat field .{sub} (seats are written p<seat>=...)")
        _read_seat(value, seats[seat])
        given.add(seat)
    missing = sorted(set(range(state.num_seats)) - given)
    if missing:
        raise NotationError(f"the field p{missing[0]}= is required", text, 1)
    state.seats.extend(seats)
    for key in ("supply", "removed"):
        if (value := fields.take(key)) is not None:
            getattr(state, key).SetInParent()
            read_counts(value, value.text, 0, getattr(state, key))
    if (value := fields.take("pool")) is not None:
        state.loyalist_pool = value.integer(lo=0)
    if (value := fields.take("turn")) is not None:
        state.to_move = value.integer(lo=0)
    if (value := fields.take("pending")) is not None:
        _read_pending(value, state.pending)
    if (value := fields.take("passes")) is not None:
        state.consecutive_passes = value.integer(lo=0)
    if (value := fields.take("played")) is not None:
        state.cards_played = value.integer(lo=0)
    if (value := fields.take("undo")) is not None:
        _read_undo(value, state)
    if (value := fields.take("redraws")) is not None:
        state.court_redraws = value.integer(lo=0)
    if (value := fields.take("rng")) is not None:
        parse_rng(value, state.rng)
    read_outcome(fields, lambda: state.outcome)
    fields.finish()
    return state
